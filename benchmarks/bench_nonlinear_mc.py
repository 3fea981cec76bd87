"""Throughput of the nonlinear-recurrence Monte Carlo (numerics.signal_propagation.nonlinear_mc) vs a bare matmul loop.

    python benchmarks/bench_nonlinear_mc.py

For each case, :func:`nonlinear_energies_mc` (all cases of a row on the same draws) is timed against a bare
numpy loop that does the same work a draw needs at the least: draw the ``n x n`` Gaussian matrix, then ``t``
products of it with an ``n x (cases * probes)`` block, nothing else (no activation, no inputs, no norms, no
statistics). Both are measured in the same run, interleaved, best of three (a burst of load from other
processes hits both alike). The ratio bare / Monte Carlo time is the fraction of the Monte Carlo's time spent
on that irreducible work; target >= 0.5 from n = 512 on, where the breakdown measurement spends its time
(benchmarks/nonlinear/breakdown_exponent.py: n = 1024..4096 cost 95% of it). Below, the matrix product is a few
microseconds and the per-step numpy calls of each case (scale, input, activation, norms) dominate: n = 128 runs
at about 0.2 (measured on a loaded 2-core AMD EPYC: 0.21, 0.74, 0.81, 0.85 at n = 128, 512, 1024, 2048).
BLAS on one thread unless OPENBLAS_NUM_THREADS is set.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")   # before numpy is imported

import math  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from numerics.signal_propagation.nonlinear_mc import nonlinear_energies_mc  # noqa: E402
from theory.nonlinear import Recurrence  # noqa: E402

ALL = [Recurrence("tanh", 1.0), Recurrence("tanh", 1.0, True), Recurrence("relu", math.sqrt(2.0)),
       Recurrence("relu", math.sqrt(2.0), True), Recurrence("identity", 1.0)]
CASES = [  # (n, t, samples, recurrences, probes)
    (128, 40, 200, ALL, 8),
    (512, 40, 20, ALL, 8),
    (1024, 60, 6, ALL[:2], 8),
    (2048, 60, 3, ALL, 8),
]


def _bare(n: int, t: int, samples: int, columns: int) -> float:
    """Seconds of the bare loop: per draw, the n x n normals and t products W @ H."""
    rng = np.random.default_rng(0)
    H0 = rng.standard_normal((n, columns))
    t0 = time.perf_counter()
    for _ in range(samples):
        W = rng.standard_normal((n, n))
        H = H0
        for _ in range(t):
            H = W @ H
            H *= 1.0 / math.sqrt(n)          # keep the values finite, as the recurrence's scale does
    return time.perf_counter() - t0


def main() -> None:
    print(f"OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}")
    print(f"{'n':>5} {'t':>4} {'draws':>5} {'cases':>5} {'MC s':>8} {'bare s':>8} {'bare/MC':>8}")
    for n, t, samples, recs, probes in CASES:
        nonlinear_energies_mc(n, 2, 2, recs, probes=probes, progress=False)     # warm-up
        _bare(n, 2, 1, len(recs) * probes)
        t_mc = t_bare = float("inf")
        for rep in range(3):
            t0 = time.perf_counter()
            nonlinear_energies_mc(n, t, samples, recs, probes=probes, seed=rep, progress=False)
            t_mc = min(t_mc, time.perf_counter() - t0)
            t_bare = min(t_bare, _bare(n, t, samples, len(recs) * probes))
        ratio = t_bare / t_mc
        verdict = ("OK" if ratio >= 0.5 else "BELOW TARGET (0.5)") if n >= 512 else "(overhead-bound, no target)"
        print(f"{n:5d} {t:4d} {samples:5d} {len(recs):5d} {t_mc:8.3f} {t_bare:8.3f} {ratio:8.2f}  {verdict}")


if __name__ == "__main__":
    main()
