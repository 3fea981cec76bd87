"""Builds notebooks/01_how_long_does_infinite_width_last.ipynb, executed (outputs and figures).

    python notebooks/_build_01_how_long_does_infinite_width_last.py      (--no-execute: without outputs)
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
import seqtheory
from seqtheory import Q, S, Q_all, hultman_row, log_S
from theory.signal_energy import Q_symbolic     # beyond the seqtheory namespace: its home module
from theory import regimes as rg
t_start = time.perf_counter()

print("Q_{4,3} exact          :", Q(4, 3, method="exact"))
print("Q as a polynomial in 1/n, k = 4:", Q_symbolic(4))
print("Hultman row k = 4       :", hultman_row(4), "(coefficient of n^j, j = 0..5)")
print("Q(10**12, 10**6), 40 digits:", mpmath.nstr(Q(10**12, 10**6, method="mp", dps=40), 40))
""")

nb.md(r"""
## Q against $k/\sqrt n$: the critical curve

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
axes[0].plot(c, rg.critical_curve(c), "k--", lw=2, label=r"$(2/c^2)\sinh(c^2/2)$")
axes[0].set_yscale("log"); axes[0].set_xlabel(r"$c = k/\sqrt{n}$"); axes[0].set_ylabel(r"$Q_{n,k}$")
axes[0].legend(fontsize=8); axes[0].set_title("exact Q collapses onto the sinh curve")

ns = [10**e for e in range(2, 11)]
for c0 in (1.0, 2.0):
    err0, err1 = [], []
    for n in ns:
        k = round(c0 * math.sqrt(n)); cc = k / math.sqrt(n)
        q = float(Q(n, k, method="mp", dps=30))
        err0.append(abs(q - rg.critical_curve(cc)))
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

At which depth does width-$n$ Glorot stop behaving like infinite width, to tolerance `tol`? Two questions,
two answers: `breakdown_depth(n, tol)` (the default, `quantity="S"`) is the smallest $t$ with
$|S_{n,t}/(t+1) - 1| > \mathrm{tol}$ (the driven recurrence); `quantity="Q"` is the smallest $t$ with
$|Q_{n,t} - 1| > \mathrm{tol}$ (the free recurrence). Both are exact, certified comparisons (a monotone search
from the limit-curve guess, so $n = 10^{18}$ takes about a second), and both grow like $c(\mathrm{tol})\sqrt n$,
with different constants:

* $S$: $F(c)/c - 1 = \mathrm{tol}$ ($F = \int_0^c f$); at small tol $c \approx (120\,\mathrm{tol})^{1/4}$;
* $Q$: $f(c) - 1 = \mathrm{tol}$; at small tol $c \approx (24\,\mathrm{tol})^{1/4}$.

At `tol = 1e-3` that is 0.589 for $S$ and 0.394 for $Q$: always say which one you mean.
""")

nb.code(r"""
from scipy.optimize import brentq
def c_of_tol(tol, quantity):
    # the limit constant: F(c)/c - 1 = tol (S) or f(c) - 1 = tol (Q)
    g = (lambda c: rg.critical_S_curve(c) / c - 1 - tol) if quantity == "S" else (lambda c: rg.critical_curve(c) - 1 - tol)
    return brentq(g, 1e-6, 10)

ns = [10**e for e in range(2, 19, 2)]
fig, ax = plt.subplots(figsize=(6, 4))
for quantity, marker in (("S", "o-"), ("Q", "s--")):
    for tol in (1e-3, 0.1):
        td = [rg.breakdown_depth(n, tol, quantity=quantity) for n in ns]
        ax.loglog(ns, td, marker, label=f"{quantity}, tol = {tol}")
        small = (120 if quantity == "S" else 24) * tol
        print(f"{quantity}, tol = {tol}: t*/sqrt(n) =", [round(t / math.sqrt(n), 4) for t, n in zip(td, ns)][-4:],
              f"-> c = {c_of_tol(tol, quantity):.4f} (small-tol form ({120 if quantity == 'S' else 24} tol)^(1/4) = {small ** 0.25:.4f})")
ax.loglog(ns, np.sqrt(ns), "k:", label=r"$\sqrt{n}$")
ax.set_xlabel("width n"); ax.set_ylabel("breakdown depth t*"); ax.legend(fontsize=8); plt.show()
""")

nb.md(r"""
## Feedforward contrast: compare like with like

With independent layers $W_1,\dots,W_L$ the energy $E_L = \|W_L\cdots W_1 x\|^2/\|x\|^2$ has

* **mean** exactly 1 at every depth (no finite-width correction at all), and
* **second moment** $\mathbb E E_L^2 = (1+1/n)^L$ (complex) or $(1+2/n)^L$ (real): fluctuations grow like $L/n$.

The recurrent $Q_{n,t} = \mathbb E\|W^t x\|^2/\|x\|^2$ is a **mean**. So the fair statements are: *means* —
the feedforward mean never departs from 1, the recurrent mean departs at $t \approx c\sqrt n$; *second
moments* — compare the feedforward $(1+1/n)^L$ with the recurrent second moment $\mathbb E\|W^t x\|^4/\|x\|^4$
(no closed form in the toolkit: Monte Carlo below, with its standard error). Comparing the recurrent mean
with the feedforward second moment, as an earlier version of this notebook did, mixes the two.
""")

nb.code(r"""
print("feedforward mean, n = 7, L = 10**9:", rg.feedforward_mean(7, 10**9, method="exact"))
print("feedforward second moment n = 2, L = 3 (complex, real):", rg.feedforward_second_moment(2, 3, method="exact"),
      rg.feedforward_second_moment(2, 3, field="real", method="exact"))
print("means, 10% departure:")
for n in (10**2, 10**4, 10**6):
    t_rec = rg.breakdown_depth(n, 0.1, quantity="Q")
    print(f"  n = {n:>7d}: recurrent mean Q at t = {t_rec:5d} (~{t_rec / math.sqrt(n):.2f} sqrt n);"
          f" feedforward mean: never (exactly 1 at every L)")
print("second moments, 10% departure, feedforward (exact): first L with (1+1/n)^L - 1 > 0.1")
for n in (10**2, 10**4, 10**6):
    L_ff = math.floor(math.log1p(0.1) / math.log1p(1 / n)) + 1
    print(f"  n = {n:>7d}: L = {L_ff:7d} (~{L_ff / n:.3f} n)")
""")

nb.code(r"""
# Recurrent second moment E||W^t x||^4 by Monte Carlo (W = G/sqrt(n), complex Ginibre; x = e_1 suffices,
# the law of W is unitarily invariant). Standard errors from the same run.
rng = np.random.default_rng(2026)
n, T, samples, chunk = 64, 24, 1600, 200
E = np.empty((samples, T + 1))
for s0 in range(0, samples, chunk):
    W = (rng.standard_normal((chunk, n, n)) + 1j * rng.standard_normal((chunk, n, n))) / math.sqrt(2 * n)
    h = np.zeros((chunk, n), complex); h[:, 0] = 1
    for t in range(T + 1):
        E[s0:s0 + chunk, t] = np.sum(np.abs(h) ** 2, axis=1)
        h = np.einsum("bij,bj->bi", W, h)
m1, se1 = E.mean(0), E.std(0, ddof=1) / math.sqrt(samples)
m2, se2 = (E ** 2).mean(0), (E ** 2).std(0, ddof=1) / math.sqrt(samples)
t = np.arange(T + 1)
q = Q_all(n, T)
print("MC mean vs exact Q_{n,t}: max |z| =", round(float(np.max(np.abs(m1 - q)[1:] / se1[1:])), 2))
ff2 = np.exp(t * np.log1p(1 / n))
first = lambda v: int(np.argmax(v > 1.1))
print(f"n = {n}: 10% departure of the second moment: feedforward L = {first(ff2)}, "
      f"recurrent t ~ {first(m2)} (Monte Carlo; +-2 se band in the plot)")
print(f"n = {n}: 10% departure of the mean: recurrent t = {first(q)}, feedforward never")
fig, axes = plt.subplots(1, 2, figsize=(12, 4))
axes[0].plot(t, q, "C0-", label=r"recurrent mean $Q_{n,t}$ (exact)")
axes[0].errorbar(t, m1, 2 * se1, fmt="C0.", ms=3, label="recurrent mean (MC, 2 se)")
axes[0].plot(t, np.ones_like(t, dtype=float), "C1-", label="feedforward mean (exactly 1)")
axes[0].set_title(f"means, n = {n}"); axes[0].set_xlabel("depth t (recurrent) or L (feedforward)")
axes[1].errorbar(t, m2, 2 * se2, fmt="C0.-", ms=3, label=r"recurrent $E\,\|W^t x\|^4$ (MC, 2 se)")
axes[1].plot(t, ff2, "C1-", label=r"feedforward $(1+1/n)^L$ (exact)")
axes[1].set_title(f"second moments, n = {n}"); axes[1].set_xlabel("depth t (recurrent) or L (feedforward)")
for ax in axes:
    ax.axhline(1.1, color="gray", lw=0.8, ls=":"); ax.set_yscale("log"); ax.legend(fontsize=8)
plt.tight_layout(); plt.show()
print(f"notebook ran in {time.perf_counter() - t_start:.1f} s")
""")

nb.write()
