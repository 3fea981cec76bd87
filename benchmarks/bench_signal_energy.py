"""Benchmark: the evaluation paths of theory.signal_energy (the project's performance goals).

Measured side by side in one process (best of a few repeats):

* ``Q_all(10**9, 10**6)`` against a bare ``numpy.cumsum(numpy.log1p(numpy.arange(t + 2) / n))`` of the
  same length (the least any O(t) float64 evaluation must do); target ratio <= 3.
* one ``Q(10**12, 10**6, method="mp", dps=50)`` (log-gamma differences, O(1) in k): target < 10 ms; and
  its speed-up over the naive O(k) product of ``(n + j)/n`` and ``(n - j)/n`` at the same precision
  (50 digits, the same mpmath): target >= 100x. The two values are compared.
* ``Q(10**4, 2000, method="exact")`` as a Fraction: target < 1 s.
* python-flint side by side: exact ``Q(10**9, 10**5)`` (a Fraction) against the bare
  ``fmpz.rising`` + ``fmpq`` computation of the same number, and exact ``S(10**6, 10**4)`` against the bare
  FLINT Horner loop over the integer trace moments (one ``fmpq`` at the end): target ratio <= 2 each;
  certified ``S(n, 10**8, method="ball", dps=40)`` against ``method="mp"`` (not certified, same dps) in the
  three regimes, ``n = 10**18`` (subcritical), ``10**16`` and ``10**14`` (critical, c = 1 and 10), ``10**13``
  (c = 31.6, between: Euler-Maclaurin) and ``10**10`` (supercritical): target ratio <= 10 each. The values are
  compared.
* float ``Q`` over 1e6 integer elements (n log-uniform in [10, 1e12], k up to 2 sqrt n) against the bare
  ``scipy.special.gammaln`` expression of the same formula: target ratio <= 2 (issue 43); and the worst relative
  error of the array path against mp over 2000 elements with n up to 1e18: target <= 1e-14.

    python benchmarks/bench_signal_energy.py
"""

from __future__ import annotations

import math
import sys
import time
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np

# run from a checkout without installing the package
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from theory.signal_energy import Q, Q_all, S  # noqa: E402


def _best(f, repeats=5):
    best = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t0)
    return best, out


def _verdict(ok: bool) -> str:
    return "MET" if ok else "MISS"


def _bare_flint_Q(n: int, k: int):
    """What a python-flint user writes: fmpz.rising for both factorials, one fmpq (normalised once)."""
    import flint
    m = k + 2
    Z = flint.fmpz
    falling = Z(n - m + 1).rising(m) if m <= n else 0
    return flint.fmpq(Z(n).rising(m) - falling, (k + 1) * (k + 2) * Z(n) ** (k + 1))


def _bare_flint_S(n: int, t: int):
    """The O(t) Horner loop S = (sum_k M_k n^(t-k)) / n^(t+1) over integer moments M_k, in fmpz."""
    import flint
    Z = flint.fmpz
    N = Z(n)
    rising, falling, num = N * (N + 1), N * (N - 1), Z(0)
    for k in range(t + 1):
        m = k + 2
        num = num * N + (rising - falling) // ((k + 1) * m)
        rising *= N + m
        falling *= N - m
    return flint.fmpq(num, N ** (t + 1))


def _flint_section(results: list) -> None:
    try:
        import flint  # noqa: F401  (availability probe)
    except ImportError:
        print("python-flint not installed (extra 'certified'): FLINT comparisons skipped  MISS")
        results.append(False)
        return
    for label, ours, bare in (
            ("exact Q(10**9, 10**5)", lambda: Q(10**9, 10**5, method="exact"), lambda: _bare_flint_Q(10**9, 10**5)),
            ("exact S(10**6, 10**4)", lambda: S(10**6, 10**4, method="exact"), lambda: _bare_flint_S(10**6, 10**4))):
        t_ours, x = _best(ours, repeats=3)
        t_bare, y = _best(bare, repeats=3)
        assert x == Fraction(int(y.p), int(y.q)), label
        ratio = t_ours / t_bare
        results.append(ratio <= 2.0)
        print(f"{label}: toolkit {t_ours:.3f} s; bare python-flint {t_bare:.3f} s; ratio {ratio:.2f} "
              f"(target <= 2)  {_verdict(ratio <= 2.0)}")
    t, dps = 10**8, 40
    # c = t / sqrt(n): the three regimes side by side (c = 10: the critical series with ~ 90 terms; c = 31.6:
    # between the series and the supercritical top terms, Euler-Maclaurin on the top window)
    for n, regime in ((10**18, "subcritical, c = 0.1"), (10**16, "critical, c = 1"), (10**14, "critical, c = 10"),
                      (10**13, "critical to supercritical, c = 31.6"), (10**10, "supercritical, c = 1000")):
        t_ball, b = _best(lambda: S(n, t, method="ball", dps=dps), repeats=3)
        t_mp, m = _best(lambda: S(n, t, method="mp", dps=dps), repeats=1)
        ratio = t_ball / t_mp
        with mpmath.workdps(dps + 5):
            inside = bool(abs(mpmath.mpf(b.mid().str(dps + 5, radius=False)) - m)
                          <= mpmath.mpf(b.rad().str(5, radius=False)) + m * mpmath.mpf(10) ** -dps)
        results.append(ratio <= 10.0)
        print(f"certified S({n:.0e}, 10**8, ball, dps={dps}) ({regime}): {t_ball * 1e3:.2f} ms; mp {t_mp * 1e3:.1f} ms; "
              f"ratio {ratio:.3g} (target <= 10)  {_verdict(ratio <= 10.0)}; mp value inside the ball (to {dps} digits): {inside}")


def _array_grid(size: int, n_max: float, seed: int):
    """n log-uniform in [10, n_max], k = c sqrt(n) with c uniform in [0, 2] (the sub- and critical range)."""
    rng = np.random.default_rng(seed)
    n = np.round(10 ** rng.uniform(1, np.log10(n_max), size)).astype(np.int64)
    return n, np.floor(rng.uniform(0, 2, size) * np.sqrt(n)).astype(np.int64)


def _bare_gammaln_Q(n, k):
    """What a numpy user writes: the two factorial ratios from scipy.special.gammaln (inaccurate for
    large n: it cancels numbers of size n log n)."""
    from scipy.special import gammaln
    nf, m = n.astype(np.float64), k + 2.0
    ln = m * np.log(nf)
    with np.errstate(over="ignore", invalid="ignore"):      # it overflows to inf / nan for large n
        return nf / ((m - 1) * m) * (np.exp(gammaln(nf + m) - gammaln(nf) - ln)
                                     - np.exp(gammaln(nf + 1) - gammaln(nf - m + 1) - ln))


def _array_section(results: list) -> None:
    n, k = _array_grid(10**6, 1e12, 0)
    t_q, _ = _best(lambda: Q(n, k), repeats=5)
    t_g, _ = _best(lambda: _bare_gammaln_Q(n, k), repeats=5)
    ratio = t_q / t_g
    results.append(ratio <= 2.0)
    print(f"float Q over 1e6 elements: {t_q * 1e3:.0f} ms; bare gammaln expression: {t_g * 1e3:.0f} ms; ratio "
          f"{ratio:.2f} (target <= 2)  {_verdict(ratio <= 2.0)}")
    n, k = _array_grid(2000, 1e18, 1)
    q = Q(n, k)
    worst = max(float(abs(mpmath.mpf(float(v)) / Q(int(a), int(b), method="mp", dps=40) - 1))
                for v, a, b in zip(q, n, k))
    bare = _bare_gammaln_Q(n, k)
    worst_bare = max((float(abs(mpmath.mpf(float(v)) / Q(int(a), int(b), method="mp", dps=40) - 1))
                      if np.isfinite(v) else math.inf) for v, a, b in zip(bare, n, k))
    results.append(worst <= 1e-14)
    print(f"  accuracy against mp (2000 elements, n up to 1e18): worst relative error {worst:.2e} (target <= 1e-14)"
          f"  {_verdict(worst <= 1e-14)}; the bare gammaln expression: {worst_bare:.2e}")


def _naive_mp(n: int, k: int, dps: int):
    """The defining product (n^(k+2) - n_(k+2)) / ((k+1)(k+2) n^(k+1)), term by term at dps digits."""
    with mpmath.workdps(dps):
        N = mpmath.mpf(n)
        pr = pf = mpmath.mpf(1)
        for j in range(k + 2):
            pr *= (N + j) / N
            pf *= (N - j) / N
        return N * (pr - pf) / ((k + 1) * (k + 2))


def main() -> int:
    results = []

    n, t = 10**9, 10**6
    Q_all(n, t)                                                      # warm-up (page faults)
    t_qall, q = _best(lambda: Q_all(n, t))
    t_bare, _ = _best(lambda: np.cumsum(np.log1p(np.arange(t + 2, dtype=np.float64) / n)))
    ratio = t_qall / t_bare
    results.append(ratio <= 3.0)
    print(f"Q_all(10**9, 10**6): {t_qall * 1e3:.2f} ms; bare cumsum(log1p): {t_bare * 1e3:.2f} ms; "
          f"ratio {ratio:.2f} (target <= 3)  {_verdict(ratio <= 3.0)}")

    n, k, dps = 10**12, 10**6, 50
    t_mp, fast = _best(lambda: Q(n, k, method="mp", dps=dps), repeats=20)
    results.append(t_mp < 0.010)
    print(f"mp Q(10**12, 10**6) at {dps} digits: {t_mp * 1e3:.3f} ms (target < 10 ms)  {_verdict(t_mp < 0.010)}")
    t0 = time.perf_counter()
    slow = _naive_mp(n, k, dps)
    t_naive = time.perf_counter() - t0
    with mpmath.workdps(dps):
        agree = float(abs(fast - slow) / fast)
    speedup = t_naive / t_mp
    results.append(speedup >= 100)
    print(f"naive O(k) product at {dps} digits: {t_naive:.3f} s; speed-up {speedup:.0f}x (target >= 100x)  "
          f"{_verdict(speedup >= 100)}; relative difference of the two values {agree:.1e}")

    t_ex, q_ex = _best(lambda: Q(10**4, 2000, method="exact"), repeats=3)
    results.append(t_ex < 1.0)
    print(f"exact Q(10**4, 2000) (Fraction, {q_ex.denominator.bit_length()}-bit denominator): {t_ex * 1e3:.1f} ms "
          f"(target < 1 s)  {_verdict(t_ex < 1.0)}")

    _array_section(results)
    _flint_section(results)
    print(f"{sum(results)}/{len(results)} targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
