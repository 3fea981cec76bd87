"""iid-law rows E tr((G^k)^T G^k): the shape enumeration against the set-partition (cumulant) route, side by side.

    python benchmarks/bench_law_rows.py            # k = 5..8 both routes, in one run (ratio measured)
    python benchmarks/bench_law_rows.py --k9       # also k = 9 (the cumulant route: about ten CPU minutes)

The issue asks for the ratio at k = 12. The cumulant route (numerics.signal_propagation.law_cumulants) visits
every set partition of the 2k slots into even blocks (OEIS A005046: 1.6e8 at k = 8, 1.3e15 at k = 12), so it
cannot reach k = 12 (years of CPU); its cost per partition is measured here at the largest k it runs, and its
k = 12 time is that cost times A005046(12): an **extrapolation**, printed as such. The shape route's k = 12 time is
the recorded CPU time of the committed row (theory/data/law_shape_counts.json, one core, chunks summed); rerunning
it here would take that long again. Both routes' rows are compared for equality at every k run. CPU time is
process time with numba on one thread (compilation excluded: a warm-up call first).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from math import comb
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))     # run from a checkout without installing

from numerics.signal_propagation import law_cumulants as lc  # noqa: E402
from numerics.signal_propagation import law_rows as lr  # noqa: E402
from theory.init_laws.rows import COUNTS_FILE, terms_in_cumulants  # noqa: E402


def even_partitions(points: int) -> int:
    """A005046: set partitions of ``points`` points into blocks of even size."""
    a = [1]
    for n in range(1, points + 1):
        a.append(sum(comb(n - 1, j) * a[n - 1 - j] for j in range(1, n, 2)))
    return a[points]


def _cpu(func, *args):
    c0 = time.process_time()
    out = func(*args)
    return out, time.process_time() - c0


def same_rows(shapes: dict, cumulants: dict) -> bool:
    """The two routes' tables give the same polynomial in n and the cumulants."""
    left = terms_in_cumulants([(V, p, c) for (V, p), c in shapes.items()])
    right: dict = {}
    for (V, mu), c in cumulants.items():
        key = (V, tuple(s for s in mu if s > 1))
        right[key] = right.get(key, 0) + c
    return left == {k: v for k, v in right.items() if v}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--k9", action="store_true", help="also k = 9 (cumulant route: about ten CPU minutes)")
    args = p.parse_args()
    lr.shape_counts(4)
    lc.cumulant_counts(3)                                            # compile / load the caches
    ks = list(range(5, 10 if args.k9 else 9))
    print(f"{'k':>3} {'shape route CPU s':>18} {'cumulant route CPU s':>21} {'ratio':>9}  rows equal")
    last = None
    for k in ks:
        shapes, ts = _cpu(lr.shape_counts, k)
        cums, tc = _cpu(lc.cumulant_counts, k)
        print(f"{k:>3} {ts:18.3f} {tc:21.3f} {tc / max(ts, 1e-9):9.1f}  {same_rows(shapes, cums)}", flush=True)
        last = (k, ts, tc)
    k, ts, tc = last
    per_partition = tc / even_partitions(2 * k)
    recorded = {r["k"]: r.get("cpu_seconds") for r in json.loads(COUNTS_FILE.read_text())["rows"]}
    t12 = recorded.get(12)
    c12 = per_partition * even_partitions(24)
    print(f"\ncumulant route: {per_partition * 1e9:.1f} ns per even partition at k = {k}; A005046(24) = "
          f"{even_partitions(24):.3g} partitions at k = 12 -> about {c12:.3g} CPU s ({c12 / 3.15e7:.3g} CPU years), "
          "EXTRAPOLATED")
    if t12:
        print(f"shape route at k = 12: {t12:.0f} CPU s (recorded run, theory/data/law_shape_counts.json)")
        print(f"ratio at k = 12 (cumulant / shape): about {c12 / t12:.3g} (extrapolated from k = {k}, measured "
              f"ratio there {tc / ts:.1f})")


if __name__ == "__main__":
    main()
