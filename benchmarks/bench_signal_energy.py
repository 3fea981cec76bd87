"""Benchmark: the evaluation paths of theory.signal_energy (issue 2's performance targets).

Measured side by side in one process (best of a few repeats):

* ``Q_all(10**9, 10**6)`` against a bare ``numpy.cumsum(numpy.log1p(numpy.arange(t + 2) / n))`` of the
  same length (the least any O(t) float64 evaluation must do); target ratio <= 3.
* one ``Q(10**12, 10**6, method="mp", dps=50)`` (log-gamma differences, O(1) in k): target < 10 ms; and
  its speed-up over the naive O(k) product of ``(n + j)/n`` and ``(n - j)/n`` at the same precision
  (50 digits, the same mpmath): target >= 100x. The two values are compared.
* ``Q(10**4, 2000, method="exact")`` as a Fraction: target < 1 s.

    python benchmarks/bench_signal_energy.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import mpmath
import numpy as np

# run from a checkout without installing the package
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from theory.signal_energy import Q, Q_all  # noqa: E402


def _best(f, repeats=5):
    best = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t0)
    return best, out


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


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

    print(f"{sum(results)}/{len(results)} targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
