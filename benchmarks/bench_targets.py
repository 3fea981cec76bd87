"""Benchmark: FFT causal convolution (numerics.memory_functions.targets.linear_target) vs direct convolution.

N = 10**5 sequences of length T = 1024 (the issue's size), memory function poly(alpha = 0.5).
Everything is measured side by side in one process (best of a few repeats):

* FFT, 1 and 2 threads: ``linear_target`` on all N rows, in chunks of ``--chunk`` rows.
* direct sum, three implementations, each timed on a subset of rows and scaled linearly to N (the
  cost of a direct convolution is exactly proportional to the number of rows):
  ``np.convolve`` row by row (C, vectorised: the strongest single-thread direct baseline; this is
  ``numerics.memory_functions.targets.linear_target_direct``), the dense lower-triangular Toeplitz product ``x R^T``
  (BLAS, multi-threaded), and the lag loop ``y[:, s:] += rho[s] x[:, :T-s]`` (the defining sum,
  vectorised over sequences).

The outputs are compared on the subset. Prints the speed-ups; the issue's target is >= 20x.

    python benchmarks/bench_targets.py [--n 100000] [--T 1024] [--subset 400]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

# run from a checkout without installing the package
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from numerics.memory_functions.targets import linear_target, linear_target_direct  # noqa: E402
from theory.complexity import coupling_matrix  # noqa: E402
from theory.memory import memory_function  # noqa: E402


def _best(f, repeats=3):
    best = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def _lag_loop(x, rho):
    y = np.zeros_like(x)
    T = x.shape[1]
    for s in range(min(T, rho.size)):
        y[:, s:] += rho[s] * x[:, : T - s]
    return y


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--T", type=int, default=1024)
    ap.add_argument("--subset", type=int, default=400)
    ap.add_argument("--chunk", type=int, default=1024)
    args = ap.parse_args(argv)
    N, T, n_sub, chunk = args.n, args.T, min(args.subset, args.n), args.chunk
    rho = memory_function("poly", 0.5, T)
    xc = np.random.default_rng(0).standard_normal((chunk, T))
    n_chunks, rest = divmod(N, chunk)

    def fft_all(workers):
        for _ in range(n_chunks):
            linear_target(xc, rho, workers=workers)
        if rest:
            linear_target(xc[:rest], rho, workers=workers)

    t_fft1 = _best(lambda: fft_all(1), repeats=2)
    t_fft2 = _best(lambda: fft_all(2), repeats=2)
    xs = xc[:n_sub]
    R = coupling_matrix(rho)               # lower-triangular Toeplitz: y = x R^T
    scale = N / n_sub
    t_conv = _best(lambda: linear_target_direct(xs, rho)) * scale
    t_blas = _best(lambda: xs @ R.T) * scale
    t_loop = _best(lambda: _lag_loop(xs, rho), repeats=1) * scale
    ref = linear_target_direct(xs, rho)
    err = max(np.abs(linear_target(xs, rho) - ref).max(), np.abs(_lag_loop(xs, rho) - ref).max(),
              np.abs(xs @ R.T - ref).max())
    t_fft = min(t_fft1, t_fft2)
    print(f"N = {N} sequences, T = {T}, poly memory (alpha = 0.5); direct methods timed on {n_sub} rows, "
          f"scaled x{scale:g}")
    print(f"  FFT  (scipy.fft, chunks of {chunk}), 1 thread : {t_fft1:9.2f} s")
    print(f"  FFT  (scipy.fft, chunks of {chunk}), 2 threads: {t_fft2:9.2f} s")
    print(f"  direct: np.convolve per row (C)          : {t_conv:9.2f} s   speed-up {t_conv / t_fft:6.1f}x")
    print(f"  direct: dense Toeplitz matmul (BLAS)     : {t_blas:9.2f} s   speed-up {t_blas / t_fft:6.1f}x")
    print(f"  direct: lag loop, vectorised over rows   : {t_loop:9.2f} s   speed-up {t_loop / t_fft:6.1f}x")
    print(f"  single-thread FFT vs np.convolve         : {t_conv / t_fft1:6.1f}x")
    print(f"  max |difference| between the four methods on the subset: {err:.1e}")
    # The target names "the direct convolution"; which direct method is meant matters (a compiled
    # np.convolve is itself O(T^2) but fast), so the verdict is printed against each of them.
    for label, t_direct in (("lag loop (direct sum)", t_loop), ("np.convolve", t_conv), ("Toeplitz BLAS", t_blas)):
        ratio = t_direct / t_fft
        print(f"  target >= 20x vs {label:<22}: {'MET ' if ratio >= 20 else 'MISS'} ({ratio:.1f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
