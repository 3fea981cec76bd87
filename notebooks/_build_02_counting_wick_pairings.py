"""Builds notebooks/02_counting_wick_pairings.ipynb executed (outputs and figures; --no-execute: without).

    python notebooks/_build_02_counting_wick_pairings.py
"""

from _nbbuild import Notebook

nb = Notebook(__file__, "02_counting_wick_pairings.ipynb")

nb.md(r"""
# Counting Wick pairings: where $\mathbb{E}\,\mathrm{tr}((G^k)^* G^k)$ comes from

After M. Seleznova, *How Long Does Infinite Width Last? Signal Propagation in Long-Range Linear
Recurrences*, arXiv:2605.05113 (2026), Theorem 2.1. With $W = G/\sqrt n$ ($G$ complex Ginibre,
$\mathbb{E}|G_{ij}|^2 = 1$) the free recurrence $h(k) = W^k x$ has the signal energy

$$Q_{n,k} = \frac{1}{n}\,\mathbb{E}\,\mathrm{tr}\bigl((W^k)^* W^k\bigr)
          = \frac{n^{(k+2)} - n_{(k+2)}}{(k+1)(k+2)\,n^{k+1}},$$

(rising and falling factorials). This notebook rebuilds the numerator by brute force: it enumerates the Wick
pairings, counts free indices, and finds the Hultman numbers, the Stirling numbers, and, for real weights,
polynomials for which no closed form is known. The counters are `numerics.signal_propagation.wick` (numba, parallel) and a
pure-Python reference.
""")

nb.code(r"""
import itertools, math, time
import numpy as np
import matplotlib.pyplot as plt
import seqtheory
from seqtheory import wick_polynomial, hultman_row, trace_moment, Q
from numerics.signal_propagation.wick import wick_polynomial_reference, polynomial_string
from theory.signal_energy import stirling1_row
t_start = time.perf_counter()
""")

nb.md(r"""
## 1. Index paths and Wick pairings

$$\mathrm{tr}\bigl((G^k)^* G^k\bigr) = \sum_{a, b} \prod_{l=1}^{k} G_{a_{l-1} a_l}\,\overline{G_{b_{l-1} b_l}},
\qquad a_0 = b_0,\; a_k = b_k .$$

For a proper complex Gaussian, $\mathbb{E}\,G_{ij}\overline{G_{kl}} = \delta_{ik}\delta_{jl}$ and
$\mathbb{E}\,G G = 0$, so Wick's theorem pairs every $G$ factor with one conjugate factor: a permutation
$\sigma\in S_k$. Pairing factor $l$ with $\sigma(l)$ forces $a_{l-1} = b_{\sigma(l)-1}$ and
$a_l = b_{\sigma(l)}$. After these identifications the remaining free indices are summed over $n$ values
each, so every pairing contributes $n^{\#\text{classes}}$. A direct union-find count for $k = 3$:
""")

nb.code(r"""
def classes(k, sigma):
    # union-find over a_0..a_k (0..k) and b_0..b_k (k+1..2k+1)
    parent = list(range(2 * k + 2))
    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x
    def union(x, y):
        parent[find(x)] = find(y)
    union(0, k + 1); union(k, 2 * k + 1)                     # the trace closes both paths
    for l in range(1, k + 1):
        union(l - 1, k + 1 + sigma[l - 1] - 1)               # a_{l-1} = b_{sigma(l)-1}
        union(l, k + 1 + sigma[l - 1])                       # a_l     = b_{sigma(l)}
    return len({find(x) for x in range(2 * k + 2)})

k = 3
for sigma in itertools.permutations(range(1, k + 1)):
    print(sigma, "-> n^%d" % classes(k, sigma))
print("sum:", polynomial_string(wick_polynomial_reference(k)), "  closed form:", polynomial_string(hultman_row(k)))
""")

nb.md(r"""
The identity pairing keeps all $k+1$ index classes (the leading $n^{k+1}$, i.e. $Q \to 1$ at infinite width);
every other pairing loses at least two, which is why $Q_{n,k}$ is a polynomial in $1/n^2$.

## 2. The class count is a cycle count: a commutator with the long cycle

Every index has two "slots" (the factor before it and the factor after it) and a pairing joins slot to slot,
so the identification graph is 2-regular: its classes are cycles. Following a cycle from $a_i$: leave through
the factor after $a_i$ to its partner's left index $b_{\hat\sigma(i+1)-1}$, then through the factor before
that index back to $a_{\hat\sigma^{-1}(\cdot)}$. With $\hat\sigma$ the extension of $\sigma$ to
$\{0, \dots, k+1\}$ fixing $0$ and $k+1$ (the trace closure) and $s(i) = i+1$ the shift (the long cycle),

$$\pi = \hat\sigma^{-1}\circ s^{-1}\circ\hat\sigma\circ s \quad\text{on } \{0,\dots,k\},\qquad
\#\text{classes}(\sigma) = \#\text{cycles}(\pi).$$

We check this identity over all of $S_6$, and that the histogram of cycle counts is the Hultman row.
""")

nb.code(r"""
def commutator_cycles(k, sigma):
    sh = [0] + list(sigma) + [k + 1]                         # sigma-hat on 0..k+1
    inv = {v: i for i, v in enumerate(sh)}
    pi = [inv[sh[i + 1] - 1] for i in range(k + 1)]
    seen, cyc = [False] * (k + 1), 0
    for s in range(k + 1):
        if not seen[s]:
            cyc += 1
            while not seen[s]:
                seen[s] = True
                s = pi[s]
    return cyc

k = 6
hist = [0] * (k + 2)
for sigma in itertools.permutations(range(1, k + 1)):
    c = commutator_cycles(k, sigma)
    assert c == classes(k, sigma)
    hist[c] += 1
print("cycle-count histogram over S_6:", hist)
print("Hultman row k = 6:             ", hultman_row(6))
""")

nb.md(r"""
## 3. Hultman numbers and the Stirling formula

The distribution of that cycle count is given by the Hultman numbers (OEIS A164652):

$$H_{k,j} = \frac{c(k+2, j)}{\binom{k+2}{2}}\ \ (k - j \text{ odd}),\qquad
\sum_j H_{k,j} x^j = \frac{x^{(k+2)} - x_{(k+2)}}{(k+1)(k+2)},$$

with $c$ the unsigned Stirling numbers of the first kind ($x^{(m)} = \sum_j c(m,j)x^j$). The rising factorial
keeps every Stirling number, the falling one flips the sign of every other one: the difference keeps exactly
the powers of parity opposite to $k$.
""")

nb.code(r"""
for k in range(0, 7):
    c = stirling1_row(k + 2)
    via_stirling = [c[j] // math.comb(k + 2, 2) if (k - j) % 2 == 1 else 0 for j in range(k + 2)]
    print(f"k={k}: Stirling c(k+2, .) = {c}  ->  H_k = {via_stirling}  = {polynomial_string(via_stirling)}")
    assert via_stirling == hultman_row(k)
# and the numerator at a given n is the closed form of Theorem 2.1
print([sum(h * 5**j for j, h in enumerate(hultman_row(k))) for k in range(6)], [trace_moment(5, k) for k in range(6)])
""")

nb.md(r"""
## 4. The numba counter, live

`wick_polynomial(k)` enumerates $S_k$ in parallel (work items = the first two values of $\sigma$; each item
fills its own integer histogram, so the result does not depend on the thread count) and counts cycles in
$O(k)$ per permutation. It reproduces the Hultman rows; compare with the pure-Python reference.
""")

nb.code(r"""
wick_polynomial(3)                                          # compile (or load the cache)
for k in range(1, 10):
    t0 = time.perf_counter(); fast = wick_polynomial(k); t_fast = time.perf_counter() - t0
    assert fast == hultman_row(k)
    line = f"k={k}: {math.factorial(k):>7d} permutations, numba {t_fast * 1e3:7.2f} ms"
    if k <= 7:
        t0 = time.perf_counter(); ref = wick_polynomial_reference(k); t_ref = time.perf_counter() - t0
        assert ref == fast
        line += f", pure Python {t_ref * 1e3:8.1f} ms"
    print(line)
""")

nb.md(r"""
## 5. Real weights: all $(2k-1)!!$ matchings

For real Gaussian entries $\mathbb{E}\,G_{ij}G_{kl} = \delta_{ik}\delta_{jl}$ and any two factors can pair,
including two factors of the same chain ($G_{a_{l-1}a_l}$ with $G_{a_{m-1}a_m}$ forces $a_{l-1} = a_{m-1}$,
$a_l = a_m$). Wick's theorem now sums over all perfect matchings of the $2k$ factors. The $k!$ matchings
across the two chains are the complex pairings; the others only add non-negative terms, so
$Q^{\mathbb R}_{n,k} \ge Q_{n,k}$ coefficient by coefficient. No closed form is known; the counter gives the
exact polynomials (at $n = 1$: $\mathbb{E}\,g^{2k} = (2k-1)!!$), at a cost that grows like $(2k-1)!!$.
(`wick_polynomial(k, "real")` itself now takes the polynomial-time Pfaffian route of
`numerics.signal_propagation.real_wick_pfaffian`, section 7; `algorithm="enumerate"` is the counter.)
""")

nb.code(r"""
for k in range(0, 8):
    real, cplx = wick_polynomial(k, "real", algorithm="enumerate"), wick_polynomial(k)
    assert sum(real) == math.prod(range(2 * k - 1, 0, -2))
    assert all(r >= c for r, c in zip(real, cplx))
    print(f"k={k}: real {polynomial_string(real):<60s} complex {polynomial_string(cplx)}")
""")

nb.md(r"""
How much larger is the real energy? $Q^{\mathbb R}/Q$ along $k = c\sqrt n$ (exact, from the polynomials),
for small n: at these sizes the ratio looks like a curve of $c$ alone (about 1.7 at $c = 2$). Section 7
follows the rays to k = 60 and shows that this is a small-n effect: the ratio tends to 1, like $1/\sqrt n$.
""")

nb.code(r"""
fig, ax = plt.subplots(figsize=(6, 3.6))
for n in (4, 9, 16, 36):
    ks = [k for k in range(0, 9)]
    ratio = [sum(c * n**j for j, c in enumerate(wick_polynomial(k, "real"))) / trace_moment(n, k) for k in ks]
    ax.plot(np.array(ks) / np.sqrt(n), ratio, "o-", ms=3, label=f"n = {n}")
ax.set_xlabel("c = k / sqrt(n)"); ax.set_ylabel("Q^R / Q")
ax.set_title("real over complex energy along k = c sqrt(n) (exact)"); ax.legend(); plt.show()
""")

nb.md(r"""
## 6. A Monte Carlo cross-check

`numerics.signal_propagation.ginibre.estimate_Q` averages $\|W^k\|_F^2/n$ over independent weight draws (batched matrix
products, seeded); its standard error comes from the same run.
""")

nb.code(r"""
from numerics.signal_propagation.ginibre import estimate_Q
n, kmax = 8, 5
for field in ("complex", "real"):
    est = estimate_Q(n, kmax, 4000, field=field, seed=2)
    exact = [sum(c * n**j for j, c in enumerate(wick_polynomial(k, field))) / n ** (k + 1) for k in range(kmax + 1)]
    z = [(m - e) / s if s > 0 else 0.0 for m, e, s in zip(est.mean, exact, est.se)]
    print(field, "exact:", np.round(exact, 4), "\n       MC:   ", np.round(est.mean, 4), " z:", np.round(z, 2))
""")

nb.md(r"""
## 7. Real weights in polynomial time, and their critical regime

Enumeration stops near k = 12 (13 CPU-minutes). `numerics.signal_propagation.real_wick_pfaffian` computes every row k <= 30 in
seconds (every row k <= 60, committed in `theory/data/real_wick_rows.json`, in about 150 CPU seconds): by the
real-quaternion duality $P_k(-2m) = (-1)^{k+1}\,\mathbb{E}\,\mathrm{tr}(Q^k (Q^*)^k)$
for the $m \times m$ quaternion Ginibre matrix, a Pfaffian average over its eigenvalues with exact power-series
entries, one skew elimination that gives every size m at once, arithmetic modulo word-size primes and the
Chinese remainder theorem (`docs/results/real-weight-pfaffian.md` has the math and the status of each step).
It reproduces every enumerated row:
""")

nb.code(r"""
from numerics.signal_propagation.real_wick_pfaffian import real_wick_rows
t0 = time.perf_counter(); rows = real_wick_rows(30); dt = time.perf_counter() - t0
assert all(rows[k] == wick_polynomial(k, "real", algorithm="enumerate") for k in range(0, 9))
print(f"rows k <= 30 in {dt:.1f} s; k = 30: n^31 + {rows[30][29]} n^29 + ... + {rows[30][1]} n")
""")

nb.md(r"""
Along each ray $k = c\sqrt n$ (any n: the rows are polynomials) the exact ratio $Q^{\mathbb R}/Q$ stays
above 1 (the paper's inequality) but decays like $D(c)/(f(c)\sqrt n)$: real weights share the complex
critical curve $f(c) = (2/c^2)\sinh(c^2/2)$. The correction $D(c) = \lim \sqrt n\,(Q^{\mathbb R} -
Q)$ is extrapolated from the exact values (`numerics.signal_propagation.real_regimes.real_correction`); its series
$c^3/4 + 17c^5/240 + \dots$ comes from the rows' coefficients (no closed form is derived). In the genus
expansion the complex row moves in steps of $1/n^2$ at fixed k; the real row also has the non-orientable
terms, one crosscap per $1/n$, which at fixed c are $O(n^{-1/2})$. (Validation check `real.regimes`.)
""")

nb.code(r"""
from numerics.signal_propagation.real_regimes import real_correction, regimes_data, series_correction
data = regimes_data()
fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.8))
for i, (c, d) in enumerate(data.items()):
    n = np.array([r[1] for r in d["ratios"]]); ratio = np.array([r[2] for r in d["ratios"]])
    a.loglog(n, ratio - 1, "o", ms=3, color=f"C{i}", label=f"c = {c}")
    a.loglog(n, d["D"][0] / d["f"] / np.sqrt(n), "-", lw=0.8, color=f"C{i}")
    print(f"c = {c}: ratio at k = 60: {ratio[-1]:.5f}, lim Q^R = {d['limit'][0]:.7f} (f(c) = {d['f']:.7f}), "
          f"D(c) = {d['D'][0]:.5g}")
a.set_xlabel("n (k = c sqrt n <= 60)"); a.set_ylabel("Q^R / Q - 1 (lines: D(c) / (f(c) sqrt n))"); a.legend()
a.set_title("real over complex energies along k = c sqrt n")
cs = np.linspace(0.1, 2.0, 20)
b.semilogy(cs, [real_correction(c)[0] for c in cs], "o", ms=3, label="D(c) from the exact rows")
b.semilogy(cs, [series_correction(c) for c in cs], "-", label="series to c^11")
b.set_xlabel("c"); b.set_ylabel("D(c)"); b.legend(); b.set_title("the 1/sqrt(n) coefficient D(c)")
plt.show()
""")

nb.md(r"""
## 8. Real weights at any depth: exact coefficients, the expansion, the breakdown

The rows to k = 60 have a clean large-n structure (`theory.real_expansion`; the math, tables and status in
`docs/results/real-weight-expansion.md`). Write $P_k(n) = \sum_m a_m(k)\,n^{k+1-m}$. Each coefficient is a
*quasi-polynomial* in k, $a_m(k) = A_m(k) + (-1)^k B_m(k)$ with $\deg A_m = 2m$ or $2m-1$ and
$\deg B_m = 2m - 4$, fitted exactly on the first rows and then **verified on every other row up to 60**
(verified, not proved):
""")

nb.code(r"""
import sympy as sp
from theory import real_expansion as rx
kk = sp.symbols("k")
def poly(c):
    return sum(sp.Rational(x.numerator, x.denominator) * kk**i for i, x in enumerate(c))
for m in (2, 3):
    A, B = rx.coefficient(m)
    print(f"a_{m}(k) = {sp.factor(poly(A))}  +  (-1)^k ({sp.factor(poly(B))})")
for m in (2, 5, 10, 15):
    print(rx.coefficient_record(m))
from theory.real_rows import real_row          # a check here: every a_m against every row, read off directly
assert all(rx.coefficient_value(m, k) == (real_row(k)[k + 1 - m] if k + 1 >= m else 0)
           for m in range(2, 16) for k in range(61))
""")

nb.md(r"""
At fixed $c = k/\sqrt n$ this is a series in $n^{-1/2}$,
$Q^{\mathbb R} = F_0(c) + n^{-1/2}F_1(c) + n^{-1}F_2(c) + \dots$ with exact Taylor coefficients. $F_0$ is the
complex curve $(2/c^2)\sinh(c^2/2)$; the corrections grow like $e^{c^2}$ instead of $e^{c^2/2}$ (the real
eigenvalues of a real Gaussian matrix):
""")

nb.code(r"""
for j in range(3):
    terms = [f"{x} c^{p}" for p, x in enumerate(rx.scaling_series(j)) if x != 0][:5]
    print(f"F_{j} = " + " + ".join(terms) + " + ...")
from validation.checks.real_expansion import plot_real_curves
plot_real_curves(); plt.show()
""")

nb.md(r"""
Beyond the rows, `QR(n, t)` and `SR(n, t)` sum the expansion with an error estimate (the first omitted terms),
in O(1) per value, inside a stated domain (`max_depth(n, quantity="Q")`: $c \le 3.26$ and a relative error estimate
$\le 10^{-2}$); outside they refuse. Monte Carlo (`numerics.signal_propagation.real_energy_mc`, probe blocks) is the independent
check; here a small run at $n = 2048$, $t = 61$ ($c = 1.35$, past the rows). It agrees but cannot resolve the
real correction $Q^{\mathbb R} - Q$; the validation check `real.expansion_mc` does at $n = 1024$, $c \approx 2$ with
3200 draws (6 standard errors). Near $c = 2$ and beyond, the per-draw values are heavy-tailed (rare draws with
a far real eigenvalue carry much of the mean), so small runs there understate the mean and its error:
""")

nb.code(r"""
from numerics.signal_propagation.real_energy_mc import real_energy_mc
r = rx.QR(10**6, 1000)
print(f"Q^R(10^6, 1000) = {r.value:.13f} +- {r.error:.1e} ({r.source}); complex Q = {Q(10**6, 1000):.13f}")
print("served up to t =", rx.max_depth(1024, quantity="Q"), "at n = 1024 and", rx.max_depth(10**6, quantity="Q"), "at n = 10^6")
try:
    rx.QR(256, 100)                                  # c = 6.25: outside the domain
except ValueError as exc:
    print("QR(256, 100):", exc)
t0 = time.perf_counter(); est = real_energy_mc(2048, 61, 40, seed=5, progress=False); dt = time.perf_counter() - t0
e = rx.QR(2048, 61)
print(f"n = 2048, t = 61: expansion {e.value:.5f} +- {e.error:.0e}; Monte Carlo {est.Q_mean[61]:.4f} +- "
      f"{est.Q_se[61]:.4f} (40 draws, {dt:.1f} s, z = {(est.Q_mean[61] - e.value) / est.Q_se[61]:+.2f}); "
      f"complex {Q(2048, 61):.5f}")
""")

nb.md(r"""
The real breakdown depth (first $t$ with $Q^{\mathbb R}_{n,t} > 1 + \mathrm{tol}$) follows the complex law
$c_0\sqrt n$ but a width-independent number of steps earlier, $\delta_{\mathbb R} - \delta_{\mathbb C}$ with
$\delta = -F_1(c_0)/F_0'(c_0)$ (`rx.breakdown_law`, check `real.breakdown`):
""")

nb.code(r"""
from theory.regimes import breakdown_depth
for tol in (0.05, 0.3):
    law = rx.breakdown_law(tol)
    print(f"tol = {tol}: c0 = {law['c0']:.4f}, delta_R = {law['delta_real']:.3f}, delta_C = {law['delta_complex']:.3f}")
    for n in (10**4, 10**6, 10**8):
        print(f"   n = {n:>9}: real t* = {rx.real_breakdown_depth(n, tol):>6}, complex t* = "
              f"{breakdown_depth(n, tol, quantity='Q'):>6}, c0 sqrt(n) + delta_R = "
              f"{law['c0'] * math.sqrt(n) + law['delta_real']:.2f}")
print(f"notebook ran in {time.perf_counter() - t_start:.1f} s")
""")

nb.write()
