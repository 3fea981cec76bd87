"""Builds notebooks/01_how_long_does_infinite_width_last.ipynb (stored without outputs).

    python notebooks/_build_01_how_long_does_infinite_width_last.py
"""

from _nbbuild import Notebook

nb = Notebook(__file__, "01_how_long_does_infinite_width_last.ipynb")

nb.md(r"""
# How long does infinite width last?

After M. Seleznova, *How Long Does Infinite Width Last? Signal Propagation in Long-Range Linear
Recurrences*, arXiv:2605.05113 (2026); formulas as re-derived in `docs/papers/signal-propagation.md`.

A linear recurrence with Glorot weights $W = G/\sqrt n$ ($G$ an $n\times n$ complex Ginibre matrix):

* free: $h(k) = W h(k-1)$, energy $Q_{n,k} = \mathbb E\|W^k x\|^2 / \|x\|^2$;
* driven: $h(t) = W h(t-1) + x(t)$ with unit iid inputs, $S_{n,t} = \mathbb E\|h(t)\|^2/n = \sum_{k=0}^{t} Q_{n,k}$
  ($t+1$ terms: the toolkit counts $x(0)$).

Infinite width predicts $Q = 1$ and $S = t+1$. At finite width the energies are known **exactly**
(Theorem 2.1), with rising/falling factorials $n^{(m)}$, $n_{(m)}$:

$$Q_{n,k} = \frac{n^{(k+2)} - n_{(k+2)}}{(k+1)(k+2)\,n^{k+1}}
          = 1 + \binom{k+2}{4}\frac{1}{n^2} + O\!\left(\frac{k^8}{n^4}\right).$$
""")

nb.code(r"""
import time, math
import numpy as np
import matplotlib.pyplot as plt
import mpmath
from theory.signal_energy import Q, S, Q_all, Q_symbolic, hultman_row, log_S
from theory import regimes as rg
t_start = time.perf_counter()

print("Q_{4,3} exact          :", Q(4, 3, method="exact"))
print("Q as a polynomial in 1/n, k = 4:", Q_symbolic(4))
print("Hultman row k = 4       :", hultman_row(4), "(coefficient of n^j, j = 0..5)")
print("Q(10**12, 10**6), 40 digits:", mpmath.nstr(Q(10**12, 10**6, method="mp", dps=40), 40))
""")

nb.md(r"""
## Q against $k/\sqrt n$: the critical profile

With $c = k/\sqrt n$ fixed and $n\to\infty$, $Q_{n,k} \to f(c) = \frac{2}{c^2}\sinh\frac{c^2}{2}$. The exact
curves for growing $n$ collapse onto it (error $O(n^{-1/2})$; with the first correction, $O(1/n)$).
""")

nb.code(r"""
c = np.linspace(0, 3.5, 300)
fig, axes = plt.subplots(1, 2, figsize=(12, 4))
for n in (4, 16, 64, 256, 4096, 10**6):
    kmax = int(3.5 * math.sqrt(n))
    axes[0].plot(np.arange(kmax + 1) / math.sqrt(n), Q_all(n, kmax), ".-" if n < 100 else "-", ms=3, lw=1,
                 label=f"n = {n}")
axes[0].plot(c, rg.critical_profile(c), "k--", lw=2, label=r"$(2/c^2)\sinh(c^2/2)$")
axes[0].set_yscale("log"); axes[0].set_xlabel(r"$c = k/\sqrt{n}$"); axes[0].set_ylabel(r"$Q_{n,k}$")
axes[0].legend(fontsize=8); axes[0].set_title("exact Q collapses onto the sinh profile")

ns = [10**e for e in range(2, 11)]
for c0 in (1.0, 2.0):
    err0, err1 = [], []
    for n in ns:
        k = round(c0 * math.sqrt(n)); cc = k / math.sqrt(n)
        q = float(Q(n, k, method="mp", dps=30))
        err0.append(abs(q - rg.critical_profile(cc)))
        err1.append(abs(q - rg.Q_critical_form(n, k)))
    axes[1].loglog(ns, err0, "o-", label=f"|Q - f|, c={c0}")
    axes[1].loglog(ns, err1, "s--", label=f"with first correction, c={c0}")
axes[1].set_xlabel("n"); axes[1].set_ylabel("error"); axes[1].legend(fontsize=8)
axes[1].set_title(r"rates $n^{-1/2}$ and $n^{-1}$")
plt.tight_layout(); plt.show()
""")

nb.md(r"""
## The three regimes

* **subcritical**, $t \ll \sqrt n$: $S \approx t+1$, relative deviation $\approx t^4/(120 n^2)$;
* **critical**, $t = c\sqrt n$: $S \approx \sqrt n\,F(c)$, $F(c) = \int_0^c f$;
* **supercritical**, $t \gg \sqrt n$: exponential growth, $S \sim (n^2/t^3)\,e^{t^2/2n}$ (as a ratio only for
  $t \ll n^{2/3}$), better: the geometric form $Q_{n,t}\,\rho/(\rho-1)$, $\rho = \frac{(n+t+1)t}{n(t+2)}$.

`regime(n, t)` draws the finite-size lines at $c = 1/2$ and $c = 3$ (documented thresholds).
""")

nb.code(r"""
n = 10**4
ts = np.unique(np.geomspace(1, 700, 60).astype(int))
ratio = [math.exp(log_S(n, int(t)) - math.log(t + 1)) for t in ts]
crit = [rg.S_critical_form(n, int(t)) / (t + 1) for t in ts]
geo = [math.exp(rg.S_geometric_form(n, int(t), log=True) - math.log(t + 1)) if t * (t + 1) > 2 * n else np.nan
       for t in ts]
fig, ax = plt.subplots(figsize=(7, 4))
ax.loglog(ts, ratio, "k-", lw=2, label=r"exact $S_{n,t}/(t+1)$")
ax.loglog(ts, crit, "--", label=r"$\sqrt{n}\,F(t/\sqrt{n})/(t+1)$")
ax.loglog(ts, geo, ":", lw=2, label=r"geometric form $/(t+1)$")
for cc, name in ((rg.C_SUBCRITICAL, "c = 1/2"), (rg.C_SUPERCRITICAL, "c = 3")):
    ax.axvline(cc * math.sqrt(n), color="gray", lw=0.8); ax.text(cc * math.sqrt(n) * 1.05, 30, name)
ax.set_ylim(0.5, 1e6); ax.set_xlabel("t"); ax.set_ylabel("S / (t+1)"); ax.set_title(f"n = {n}: infinite width is S/(t+1) = 1")
ax.legend(fontsize=8); plt.show()
for t in (10, 100, 1000):
    print(f"t = {t:5d}: regime {rg.regime(n, t):13s}  S/(t+1) - 1 = {float(S(n, t, method='exact') / (t + 1) - 1):.3e}"
          f"   t^4/(120 n^2) = {rg.S_subcritical_deviation(n, t):.3e}")
print("(the leading term holds for t << sqrt(n), up to a relative 4/t: C(t+3,5)/(t+1) = t^4/120 (1 + 4/t + ...))")
""")

nb.md(r"""
## Breakdown depth: the $\sqrt n$ law

At which depth does width-$n$ Glorot stop behaving like infinite width, to tolerance `tol`?
`breakdown_depth(n, tol)` returns the smallest $t$ with $|S_{n,t}/(t+1) - 1| > \mathrm{tol}$ (exact, certified
comparisons; a monotone search from the limit-profile guess, so $n = 10^{18}$ takes about a second). It grows like $c(\mathrm{tol})\sqrt n$, with
$F(c)/c - 1 = \mathrm{tol}$; at small tol $c \approx (120\,\mathrm{tol})^{1/4}$.
""")

nb.code(r"""
ns = [10**e for e in range(2, 19, 2)]
fig, ax = plt.subplots(figsize=(6, 4))
for tol in (1e-3, 0.1):
    td = [rg.breakdown_depth(n, tol, quantity="Q") for n in ns]
    ax.loglog(ns, td, "o-", label=f"Q, tol = {tol}")
    print(f"tol = {tol}: t*/sqrt(n) =", [round(t / math.sqrt(n), 4) for t, n in zip(td, ns)])
ax.loglog(ns, np.sqrt(ns), "k:", label=r"$\sqrt{n}$")
ax.set_xlabel("width n"); ax.set_ylabel("breakdown depth"); ax.legend(); plt.show()
print("S, tol = 1e-3, n = 10**12:", rg.breakdown_depth(10**12, 1e-3), " (120 tol)^(1/4) sqrt(n) =",
      round((0.12) ** 0.25 * 1e6))
""")

nb.md(r"""
## Feedforward contrast

With independent layers $W_1,\dots,W_L$, the mean energy is **exactly** 1 at every depth and the second
moment is $(1+1/n)^L$ (complex) or $(1+2/n)^L$ (real): a feedforward net departs from infinite width only at
$L\sim n$, a recurrent one (the same matrix reused) at $t\sim\sqrt n$.
""")

nb.code(r"""
print("feedforward mean, n = 7, L = 10**9:", rg.feedforward_mean(7, 10**9, method="exact"))
print("second moment n = 2, L = 3 (complex, real):", rg.feedforward_second_moment(2, 3, method="exact"),
      rg.feedforward_second_moment(2, 3, field="real", method="exact"))
rows = []
for n in (10**2, 10**3, 10**4):
    t_rec = rg.breakdown_depth(n, 0.1, quantity="Q")
    L_ff = math.floor(math.log1p(0.1) / math.log1p(1 / n)) + 1        # first L with (1+1/n)^L - 1 > 0.1
    rows.append((n, t_rec, L_ff))
    print(f"n = {n:6d}: recurrent Q departs by 10% at t = {t_rec:5d} (~{t_rec / math.sqrt(n):.2f} sqrt n); "
          f"feedforward 2nd moment at L = {L_ff:6d} (~{L_ff / n:.3f} n)")
n = 1000
L = np.arange(0, int(6 * math.sqrt(n)) + 1)
plt.figure(figsize=(6, 4))
plt.plot(L / math.sqrt(n), Q_all(n, L[-1]), label="recurrent $Q_{n,t}$ (x-axis: t / sqrt n)")
plt.plot(L / math.sqrt(n), np.exp(L * np.log1p(1 / n)), label="feedforward 2nd moment (x-axis: L / sqrt n)")
plt.axhline(1, color="k", lw=0.8); plt.yscale("log"); plt.xlim(0, 6); plt.ylim(0.9, 100)
plt.xlabel("depth / sqrt(n)"); plt.legend(fontsize=8); plt.title(f"n = {n}"); plt.show()
print(f"notebook ran in {time.perf_counter() - t_start:.1f} s")
""")

nb.write()
