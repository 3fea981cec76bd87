"""Throughput of the full-trace Monte Carlo estimator (numerics.signal_propagation.ginibre.estimate_Q) vs bare matmul.

    python benchmarks/bench_ginibre.py

For each case the estimator's matrix-multiply rate (useful flops per second: ``kmax - 1`` products of
n x n matrices per draw) is divided by the rate of ``numpy.matmul`` on a stack of the same shape and
dtype, measured in the same run and interleaved with it (best of three repetitions each, so a burst of
load from other processes hits both alike). Target: achieved / peak >= 0.5. The remaining time
goes to drawing the Gaussians, the Frobenius norms and the per-block statistics.

BLAS runs on one thread unless OPENBLAS_NUM_THREADS is set: on a shared 2-core machine a multi-threaded
OpenBLAS on 64 x 64 complex products swings by 10x with the load, which makes any ratio meaningless.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")   # before numpy is imported

import time  # noqa: E402

import numpy as np  # noqa: E402

from numerics.signal_propagation.ginibre import _CHUNK_BYTES, BLOCK, estimate_Q  # noqa: E402  (the estimator's chunk budget)

CASES = [  # (n, kmax, field, samples)
    (32, 16, "complex", 1024),
    (64, 24, "complex", 256),
    (128, 32, "complex", 64),
    (64, 24, "real", 512),
]


def _dtype(field: str):
    return np.complex128 if field == "complex" else np.float64


def _flops_per_product(n: int, field: str) -> float:
    return (8.0 if field == "complex" else 2.0) * n ** 3


def _matmul_seconds(A, B, C, reps: int) -> float:
    """Seconds per product of a stack, over ``2 reps`` products."""
    t0 = time.perf_counter()
    for _ in range(reps):
        np.matmul(C, B, out=A)
        np.matmul(A, B, out=C)
    return (time.perf_counter() - t0) / (2 * reps)


def main() -> None:
    print(f"OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}")
    print(f"{'n':>4} {'kmax':>4} {'field':>8} {'draws':>6} {'estimator GFLOP/s':>18} {'matmul GFLOP/s':>15} "
          f"{'achieved/peak':>14}")
    for n, kmax, field, samples in CASES:
        # the estimator multiplies stacks of one chunk of draws: time matmul on a stack of that size
        per_draw = 3 * n * n * np.dtype(_dtype(field)).itemsize
        batch = min(samples, max(1, _CHUNK_BYTES // (per_draw * BLOCK)) * BLOCK)
        rng = np.random.default_rng(0)
        A, B = (rng.standard_normal((batch, n, n)).astype(_dtype(field)) for _ in range(2))
        C = np.empty_like(A)
        estimate_Q(n, kmax, 2 * BLOCK, field=field, seed=1, progress=False)     # warm-up
        _matmul_seconds(A, B, C, 1)
        t_est = t_mm = float("inf")
        for rep in range(3):
            t0 = time.perf_counter()
            estimate_Q(n, kmax, samples, field=field, seed=rep, progress=False)
            t_est = min(t_est, time.perf_counter() - t0)
            t_mm = min(t_mm, _matmul_seconds(A, B, C, reps=max(1, (kmax - 1) // 2)))
        achieved = samples * (kmax - 1) * _flops_per_product(n, field) / t_est
        peak = batch * _flops_per_product(n, field) / t_mm
        ratio = achieved / peak
        print(f"{n:4d} {kmax:4d} {field:>8} {samples:6d} {achieved / 1e9:18.2f} {peak / 1e9:15.2f} {ratio:14.2f}"
              f"  {'OK' if ratio >= 0.5 else 'BELOW TARGET (0.5)'}")


if __name__ == "__main__":
    main()
