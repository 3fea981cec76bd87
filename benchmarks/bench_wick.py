"""Speed of the numba Wick counters (numerics.signal_propagation.wick), measured side by side with their targets.

    python benchmarks/bench_wick.py           # complex k = 11, real k = 9, speed-up over pure Python at k = 8
    python benchmarks/bench_wick.py --full    # also complex k = 12 (4.8e8 permutations, target < 4 min)
    python benchmarks/bench_wick.py --real 11 # real rows by numerics.signal_propagation.real_wick up to k = 11 (timed, 2 threads)
    python benchmarks/bench_wick.py --sample 12 --fraction 0.02   # CPU-time extrapolation of real k = 12

The polynomial-time Pfaffian route for real weights has its own benchmark,
``benchmarks/bench_real_wick_pfaffian.py``. Real weights by enumeration: ``numerics.signal_propagation.real_wick`` against the enumeration at k = 9 (speed-up, same run), the
targets k = 11 < 5 min and k = 12 < 1 h on 2 cores. ``--sample K`` runs three contiguous blocks of work items
(a ``fraction`` of row K in all) with the default (memo) kernel in one group and extrapolates the CPU time of the whole row from the exact number of matchings each
work item completes (a row too long to run on the shared machine is extrapolated, never guessed).

Targets (on a 2-core AMD EPYC machine): complex k = 11 < 20 s, k = 12 < 240 s, real k = 9 < 60 s,
speed-up over the pure-Python reference at k = 8 >= 50x. Compilation is timed separately (first call).
"""

from __future__ import annotations

import argparse
import math
import time

import sys
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))     # run from a checkout without installing

from numerics.signal_propagation import real_wick  # noqa: E402
from numerics.signal_propagation.wick import wick_polynomial, wick_polynomial_reference  # noqa: E402
from theory.signal_energy import hultman_row  # noqa: E402


def _timed(func, *args, **kwargs):
    t0 = time.perf_counter()
    out = func(*args, **kwargs)
    return out, time.perf_counter() - t0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--full", action="store_true", help="also run complex k = 12 (minutes)")
    p.add_argument("--real", type=int, default=None, help="time the real rows k = 10..REAL")
    p.add_argument("--sample", type=int, default=None, help="extrapolate the CPU time of real row SAMPLE")
    p.add_argument("--fraction", type=float, default=0.02)
    args = p.parse_args()
    if args.sample is not None:
        _sample(args.sample, args.fraction)
        return
    _real_section(args.real)
    print(f"numba threads: {numba.get_num_threads()}")
    _, tc = _timed(wick_polynomial, 3, "complex")
    _, tr = _timed(wick_polynomial, 3, "real", algorithm="enumerate")
    print(f"first call (compile or cache load): complex {tc:.2f} s, real {tr:.2f} s")

    rows = []
    cases = [("complex", 11, 20.0), ("real", 9, 60.0)] + ([("complex", 12, 240.0)] if args.full else [])
    for field, k, target in cases:
        poly, dt = _timed(wick_polynomial, k, field, algorithm="enumerate")
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
        best = min(_timed(wick_polynomial, k, field, algorithm="enumerate")[1] for _ in range(5))
        assert ref == wick_polynomial(k, field, algorithm="enumerate")
        print(f"  {field} k={k}: pure Python {t_ref:.3f} s, numba {best * 1e3:.2f} ms, speed-up {t_ref / best:.0f}x"
              + ("  (target >= 50x: " + ("OK)" if t_ref / best >= 50 else "BELOW TARGET)") if k == 8 else ""))


def _completions(k: int, items) -> int:
    """Matchings completing each work item: (free points - 1)!!, summed."""
    free = 2 * (k + 1) - (items >= 0).sum(axis=1)           # unmatched points of each work item
    return int(sum(math.prod(range(int(f) - 1, 0, -2)) for f in free))


def _sample(k: int, fraction: float) -> None:
    import time as _t
    items, _ = real_wick.real_work_items(k)
    # three contiguous blocks (start, middle, end): the memo is shared by neighbouring work items in a
    # full run, so a strided sample would understate its hit rate
    size = max(1, int(len(items) * fraction / 3))
    starts = [0, (len(items) - size) // 2, len(items) - size]
    sub = np.concatenate([items[a:a + size] for a in starts])
    real_wick._counts_memo(k, sub[:1], 1)                    # compile / cache load
    c0 = _t.process_time()
    hist = real_wick._counts_memo(k, sub, 1)                 # the default kernel (memo), one group
    cpu = _t.process_time() - c0
    assert int(hist.sum()) == _completions(k, sub)
    total_cpu = cpu * _completions(k, items) / _completions(k, sub)
    target = {11: 300.0, 12: 3600.0}.get(k, math.inf)
    print(f"real k={k}: sampled {len(sub)}/{len(items)} work items, {int(hist.sum()):.3e} matchings in {cpu:.1f} s "
          f"CPU (one thread); extrapolated whole row: {total_cpu:.0f} CPU s = {total_cpu / 2 / 60:.1f} min on 2 "
          f"cores (target < {target / 60:.0f} min: {'MET' if total_cpu / 2 < target else 'MISS'}, extrapolated)")


def _real_section(kmax) -> None:
    _, t9 = _timed(real_wick.real_wick_polynomial, 9, algorithm="enumerate")       # compile / cache load
    new, t9 = _timed(real_wick.real_wick_polynomial, 9, algorithm="enumerate")
    old, t9_enum = _timed(wick_polynomial, 9, "real", algorithm="enumerate")
    assert new == old
    print(f"real k=9: real_wick {t9:.2f} s, enumeration {t9_enum:.2f} s, speed-up {t9_enum / t9:.1f}x (same run)")
    for k in range(10, (kmax or 0) + 1):
        row, dt = _timed(real_wick.real_wick_polynomial, k, algorithm="enumerate")
        target = {11: 300.0, 12: 3600.0}.get(k)
        verdict = "" if target is None else f" (target < {target:.0f} s: {'MET' if dt < target else 'MISS'})"
        print(f"real k={k}: {dt:.1f} s{verdict}; n = 1 value check {sum(row) == math.prod(range(2 * k - 1, 0, -2))}")


if __name__ == "__main__":
    main()
