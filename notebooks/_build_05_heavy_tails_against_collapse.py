"""Builds notebooks/05_heavy_tails_against_collapse.ipynb executed (outputs and figures; --no-execute: without).

    python notebooks/_build_05_heavy_tails_against_collapse.py
"""

from _nbbuild import Notebook

nb = Notebook(__file__, "05_heavy_tails_against_collapse.ipynb")

nb.md(r"""
# Heavy tails against collapse: the Levy SDE of the log-rate

After L. Livi, *Anti-Collapse Dynamics and the Emergence of Multi-Time-Scale Learning in Recurrent Neural
Networks*, arXiv:2606.29519 (2026), in the toolkit's re-derivation (`docs/papers/anti-collapse.md`).
Each unit of a gated RNN has an asymptotic learning rate $\bar\mu$; its log $\zeta = \log\bar\mu$ and time
scale $\tau = e^{-\zeta}$. Coarse-grained, the log-rate performs

$$ d\zeta = F(\zeta)\,dt + \sqrt{2\eta_G}\,dW + dJ, $$

with a drift that has one stable equilibrium and **saturates** on the left, $F(\zeta)\to\kappa>0$ as
$\zeta\to-\infty$ (we use $F = -\kappa\tanh((\zeta-\zeta_0)/w)$), Gaussian noise $\eta_G$ and symmetric
tempered-stable jumps $J$ with Levy measure $\nu(dy) = \eta_J C\, e^{-\lambda|y|}|y|^{-1-\alpha}dy$.
A *collapsed* spectrum has all time scales near one value; a power-law tail of $\tau$ is *anti-collapse*.
""")

nb.code(r"""
import time
import numpy as np
import matplotlib.pyplot as plt
import sympy
from theory.levy import (LevyParams, Phi, Phi_symbolic, jump_symbol, characteristic_root, threshold_eta_J, critical_eta_J,
                         phase)
import seqtheory
from seqtheory import beta_from_sde, stationary_snapshot
from numerics.anticollapse.levy_sampling import cts_increments, cts_cumulant
from numerics.anticollapse.estimators import spectrum_envelope_fit, lognormal_comparison
t_start = time.perf_counter()
kappa, eta_G, alpha, lam = 1.0, 0.25, 1.5, 3.0
""")

nb.md(r"""
## The characteristic equation

Where the drift is saturated, try $p(\zeta) = e^{\beta\zeta}$ in the stationary (adjoint) equation. The
drift contributes $-\kappa\beta$, the Gaussian noise $\eta_G\beta^2$, the jumps the symbol
$\Psi^*(\beta) = \int(\cosh\beta y - 1)\,\nu(dy) = \eta_J C\,\Gamma(-\alpha)\,[(\lambda-\beta)^\alpha +
(\lambda+\beta)^\alpha - 2\lambda^\alpha]$ ($|\beta| < \lambda$). The tail exponent is the positive root of

$$ \Phi(\beta) = \eta_G\beta^2 + \Psi^*(\beta) - \kappa\beta = 0 . $$

$\Phi(0) = 0$, $\Phi'(0) = -\kappa < 0$ and $\Phi$ is convex, so there is at most one root $\beta^*$ in
$(0,\lambda)$; if $\Phi(\lambda^-) \le 0$ there is none and the tempering sets the tail ($\beta = \lambda$).
""")

nb.code(r"""
Phi_symbolic()
""")

nb.code(r"""
eta_star = threshold_eta_J(eta_G=eta_G, kappa=kappa, alpha=alpha, lam=lam)
b = np.linspace(0, lam * 0.999, 400)
fig, ax = plt.subplots(figsize=(6, 3.6))
for r in (0.0, 0.5, 1.0, 2.0):
    kw = dict(eta_G=eta_G, kappa=kappa, eta_J=r * eta_star, alpha=alpha, lam=lam)
    line, = ax.plot(b, Phi(b, **kw), label=f"eta_J = {r} eta_J*")
    root = characteristic_root(**kw)
    if root < lam:
        ax.plot(root, 0, "o", color=line.get_color())
ax.axhline(0, color="k", lw=0.6); ax.set_ylim(-0.6, 1.0)
ax.set_xlabel("beta"); ax.set_ylabel("Phi(beta)"); ax.legend(); plt.show()
print(f"eta_J* = {eta_star:.6f}; Phi(1) at eta_J*: {Phi(1.0, eta_G=eta_G, kappa=kappa, eta_J=eta_star, alpha=alpha, lam=lam):.2e}")
""")

nb.md(r"""
## beta* against eta_J, the threshold and the phases

Raising $\eta_J$ (or $\eta_G$, or lowering $\kappa$) lowers $\beta^*$. The threshold
$\eta_J^* = (\kappa-\eta_G)/(C\Gamma(-\alpha)[(\lambda-1)^\alpha + (\lambda+1)^\alpha - 2\lambda^\alpha])$ is
where $\beta^* = 1$: **concentrated** anti-collapse ($\beta > 1$, finite mean time scale) below it,
**extended** ($\beta < 1$, divergent mean time scale) above it. The critical manifold $\beta^* = 1$ is
$\eta_G + \Psi^*(1) = \kappa$.
""")

nb.code(r"""
fig, axes = plt.subplots(1, 2, figsize=(12, 4))
ej = np.linspace(0.0, 4 * eta_star, 200)
for a in (0.7, 1.0, 1.5, 1.8):
    s = threshold_eta_J(eta_G=eta_G, kappa=kappa, alpha=a, lam=lam)
    axes[0].plot(ej / eta_star, [characteristic_root(eta_G=eta_G, kappa=kappa, eta_J=x, alpha=a, lam=lam) for x in ej],
                 label=f"alpha = {a} (eta_J* = {s:.3g})")
axes[0].axhline(1, color="grey", lw=0.6); axes[0].set_ylim(0, 3.2)
axes[0].set_xlabel("eta_J / eta_J*(alpha = 1.5)"); axes[0].set_ylabel("beta*"); axes[0].legend(fontsize=8)
eg = np.linspace(0.02, 1.2, 48); ejj = np.linspace(0, 3, 49)
B = np.array([[characteristic_root(eta_G=g, kappa=kappa, eta_J=j, alpha=alpha, lam=lam) for g in eg] for j in ejj])
cs = axes[1].contourf(eg, ejj, np.minimum(B, 3), levels=[0, 0.5, 1, 1.5, 2, 2.5, 3.01], cmap="RdBu")
plt.colorbar(cs, ax=axes[1], label="beta*")
axes[1].plot(eg[eg < kappa], critical_eta_J(eg[eg < kappa], kappa=kappa, alpha=alpha, lam=lam), "k-", lw=2)
axes[1].set_xlabel("eta_G"); axes[1].set_ylabel("eta_J"); axes[1].set_title("black: critical manifold beta* = 1")
plt.show()
for r in (0.5, 1.0, 2.0):
    print(r, phase(eta_G=eta_G, kappa=kappa, eta_J=r * eta_star, alpha=alpha, lam=lam))
""")

nb.md(r"""
## Sampling the jumps

Over a step $dt$ the jump increment is exactly symmetric CTS. `cts_increments` samples it exactly
(exponentially tilted stable variables by rejection); `cts_increments_cp` approximates it by compound Poisson
jumps $|y| \ge \varepsilon$ plus a Gaussian for the small ones (Asmussen-Rosinski). Cumulants are
$\kappa_{2k} = 2\,dt\,\eta_J C\,\Gamma(2k-\alpha)\lambda^{\alpha-2k}$:
""")

nb.code(r"""
x = cts_increments(0.1, 200_000, eta_J=1.0, alpha=alpha, lam=lam, rng=np.random.default_rng(0))
k2, k4 = (cts_cumulant(n, 0.1, eta_J=1.0, alpha=alpha, lam=lam) for n in (2, 4))
print(f"E X^2 = {np.mean(x**2):.5f} +- {np.std(x**2) / np.sqrt(x.size):.5f}   kappa_2 = {k2:.5f}")
print(f"E X^4 = {np.mean(x**4):.5f} +- {np.std(x**4) / np.sqrt(x.size):.5f}   kappa_4 + 3 kappa_2^2 = {k4 + 3 * k2**2:.5f}")
""")

nb.md(r"""
## A simulated tail against theory

`seqtheory.beta_from_sde` (`numerics.anticollapse.sde_tail`) runs the recipe: an ensemble of
`numerics.anticollapse.sde.simulate` (numba, one random stream per particle: bit-identical for any thread count)
with the narrow saturating drift ($w = 0.1$) and $dt = 0.05$, a burn-in of $10 T_d$ steps
($T_d = \ln 200 / (\beta^*\Phi'(\beta^*))$, the time to fill the tail down to its 0.5% quantile), one
stationary snapshot per particle, and the CCDF slope of the time scales $\tau = e^{-\zeta}$ over the quantile
window [0.75, 0.995] (bootstrap over particles). Below the equilibrium the chain is a random walk with drift
$\kappa$; its left tail is $P(\zeta < z) \propto e^{\beta^* z}$ for any time step. A shorter burn-in (the
particles start at $\zeta_0 = 0$) leaves the tail unfilled and $\beta$ far too large: the function warns.
""")

nb.code(r"""
fig, ax = plt.subplots(figsize=(6.5, 4))
spectra = {}
for r in (0.5, 2.0):
    params = LevyParams(kappa=kappa, eta_G=eta_G, eta_J=r * eta_star, alpha=alpha, lam=lam)   # one spec ...
    res = beta_from_sde(params, particles=10_000, seed=int(10 * r), n_boot=300)               # ... simulated
    spectra[r] = np.exp(-res.zeta)
    bstar = characteristic_root(params)                                                        # ... and solved
    zs = np.sort(res.zeta); p = (np.arange(zs.size) + 1) / zs.size
    line, = ax.semilogy(zs[p < 0.3], p[p < 0.3], label=f"eta_J = {r} eta_J*: beta_hat = {res.beta:.3f}, beta* = {bstar:.3f}")
    zq = np.quantile(zs, 0.25); zz = np.linspace(zs[0], zq, 20)
    ax.semilogy(zz, 0.25 * np.exp(bstar * (zz - zq)), "--", color=line.get_color())
    print(f"eta_J = {r} eta_J*: beta_hat = {res.beta:.3f}, 90% CI {res.ci[0]:.3f}..{res.ci[1]:.3f}, beta* = {bstar:.4f} "
          f"(burn-in {res.burn_in} steps)")
ax.set_xlabel("zeta"); ax.set_ylabel("P(zeta < z)"); ax.legend(fontsize=7); plt.show()
""")

nb.md(r"""
## The envelope (Tauberian link) and the collapsed control

The envelope $f(l) = \mathrm{mean}\,e^{-l/\tau}$ is the Laplace transform of the time-scale distribution:
$p(\tau)\sim A\tau^{-1-\beta}$ gives $f(l)\sim A\Gamma(\beta)l^{-\beta}$. A linear (OU) drift instead gives a
Gaussian $\zeta$, a log-normal $\tau$ and an envelope that falls faster than any power: collapse.
""")

nb.code(r"""
ou = LevyParams(kappa=kappa, eta_G=0.5, eta_J=0.0, alpha=alpha, lam=lam)
tau_ou = np.exp(-stationary_snapshot(ou, 10_000, seed=3, drift="linear"))     # burn-in: 50 relaxation times
fig, ax = plt.subplots(figsize=(6.5, 4))
for label, tau in (("tanh, eta_J = 2 eta_J*", spectra[2.0]), ("tanh, eta_J = 0.5 eta_J*", spectra[0.5]),
                   ("OU (collapsed)", tau_ou)):
    l = np.geomspace(1, 1e4, 60)
    ax.loglog(l, [np.mean(np.exp(-li / tau)) for li in l], label=label)
tau = spectra[2.0]
q50, q995 = np.quantile(tau, [0.5, 0.995])
env = spectrum_envelope_fit(tau, np.geomspace(10 * q50, q995, 16), n_boot=100)
print(f"envelope exponent {env.beta:.3f} (bootstrap 90% CI {env.ci[0]:.3f}..{env.ci[1]:.3f}); "
      f"beta* = {characteristic_root(eta_G=eta_G, kappa=kappa, eta_J=2 * eta_star, alpha=alpha, lam=lam):.3f}")
print("log-normal vs power law (Vuong): OU ->", lognormal_comparison(tau_ou).favoured,
      "; tanh ->", lognormal_comparison(tau).favoured)
ax.set_ylim(1e-6, 1.5); ax.set_xlabel("lag l"); ax.set_ylabel("f(l)"); ax.legend(fontsize=8); plt.show()
print(f"notebook ran in {time.perf_counter() - t_start:.1f} s")
""")

nb.write()
