"""Speed of the numba Wick counters (numerics.wick), measured side by side with their targets.

    python benchmarks/bench_wick.py           # complex k = 11, real k = 9, speed-up over pure Python at k = 8
    python benchmarks/bench_wick.py --full    # also complex k = 12 (4.8e8 permutations, target < 4 min)

Targets (issue 3, on the project's 2-core machine): complex k = 11 < 20 s, k = 12 < 240 s, real k = 9 < 60 s,
speed-up over the pure-Python reference at k = 8 >= 50x. Compilation is timed separately (first call).
"""

from __future__ import annotations

import argparse
import math
import time

import numba

from numerics.wick import wick_polynomial, wick_polynomial_reference
from theory.signal_energy import hultman_row


def _timed(func, *args):
    t0 = time.perf_counter()
    out = func(*args)
    return out, time.perf_counter() - t0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--full", action="store_true", help="also run complex k = 12 (minutes)")
    args = p.parse_args()
    print(f"numba threads: {numba.get_num_threads()}")
    _, tc = _timed(wick_polynomial, 3, "complex")
    _, tr = _timed(wick_polynomial, 3, "real")
    print(f"first call (compile or cache load): complex {tc:.2f} s, real {tr:.2f} s")

    rows = []
    cases = [("complex", 11, 20.0), ("real", 9, 60.0)] + ([("complex", 12, 240.0)] if args.full else [])
    for field, k, target in cases:
        poly, dt = _timed(wick_polynomial, k, field)
        count = math.factorial(k) if field == "complex" else math.prod(range(2 * k - 1, 0, -2))
        assert sum(poly) == count and (field == "real" or poly == hultman_row(k))
        rows.append((f"{field} k={k}", count, dt, target))
    print(f"{'case':<14} {'pairings':>12} {'seconds':>9} {'ns/pairing':>11} {'target s':>9} {'time/target':>12}")
    for name, count, dt, target in rows:
        print(f"{name:<14} {count:>12d} {dt:9.2f} {dt / count * 1e9:11.1f} {target:9.0f} {dt / target:12.3f}"
              f"  {'OK' if dt < target else 'SLOWER THAN TARGET'}")

    print("\nspeed-up over the pure-Python reference (same k, same machine, this run):")
    for field, k in (("complex", 8), ("real", 7)):
        ref, t_ref = _timed(wick_polynomial_reference, k, field)
        best = min(_timed(wick_polynomial, k, field)[1] for _ in range(5))
        assert ref == wick_polynomial(k, field)
        print(f"  {field} k={k}: pure Python {t_ref:.3f} s, numba {best * 1e3:.2f} ms, speed-up {t_ref / best:.0f}x"
              + ("  (target >= 50x: " + ("OK)" if t_ref / best >= 50 else "BELOW TARGET)") if k == 8 else ""))


if __name__ == "__main__":
    main()
