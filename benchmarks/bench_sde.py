"""Benchmark: the numba ensemble SDE simulator (numerics.anticollapse.sde.simulate) vs the vectorised numpy baseline.

Model: the anti-collapse SDE at the threshold sweep's ``eta_J = 2 eta_J*`` point (kappa = 1, eta_G = 0.25,
alpha = 1.5, lam = 3, tanh drift, w = 0.1, dt = 0.05), jumps by compound Poisson (eps = 0.2, about 0.37 big
jumps per step) + Gaussian small jumps. Measured side by side in one process (best of a few repeats, after
a warm-up call that compiles or loads the numba cache):

* numba, 2 threads and 1 thread (``numba.set_num_threads``), jumps "cp"; also "none" and "exact" jumps;
* ``numerics.anticollapse.sde.simulate_numpy`` (same scheme, numpy vectorised over particles; one Generator), jumps "cp".

Prints particle-steps per second and the ratios. The issue's target: >= 2e7 particle-steps/s with jumps on
2 cores.

    python benchmarks/bench_sde.py [--particles 100000] [--steps 400]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numba

# run from a checkout without installing the package
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from numerics.anticollapse.sde import SDEConfig, simulate, simulate_numpy  # noqa: E402
from theory.levy import LevyParams, threshold_eta_J  # noqa: E402


def _best(f, repeats):
    """Best wall-clock time and the CPU time (all threads of this process) of that repeat."""
    best = (float("inf"), float("inf"))
    for _ in range(repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        f()
        best = min(best, (time.perf_counter() - t0, time.process_time() - c0))
    return best


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--particles", type=int, default=100_000)
    p.add_argument("--steps", type=int, default=400)
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args()
    n, steps = args.particles, args.steps
    eta_star = threshold_eta_J(eta_G=0.25, kappa=1.0, alpha=1.5, lam=3.0)
    base = dict(params=LevyParams(kappa=1.0, eta_G=0.25, eta_J=2 * eta_star, alpha=1.5, lam=3.0), w=0.1, dt=0.05,
                eps=0.2)
    cfg = {j: SDEConfig(**base, jumps=j) for j in ("none", "cp", "exact")}
    threads = min(2, numba.config.NUMBA_NUM_THREADS)
    print(f"particles = {n}, steps = {steps}, numba threads available = {numba.config.NUMBA_NUM_THREADS}")

    rates = {}
    for label, c, nt, size, st in (
        ("numba cp, 2 threads", cfg["cp"], threads, n, steps),
        ("numba cp, 1 thread", cfg["cp"], 1, n, steps),
        ("numba none, 2 threads", cfg["none"], threads, n, steps),
        ("numba exact, 2 threads", cfg["exact"], threads, n // 10, steps),
    ):
        numba.set_num_threads(nt)
        simulate(c, 64, burn_in=2, seed=1)                     # compile / load the cache
        wall, cpu = _best(lambda: simulate(c, size, burn_in=st, seed=1), args.repeats)
        rates[label] = (size * st / wall, size * st / cpu)
    numba.set_num_threads(threads)
    n_np, st_np = n // 4, max(steps // 8, 10)                   # numpy is slow: a smaller run, same per-step cost
    wall, cpu = _best(lambda: simulate_numpy(cfg["cp"], n_np, burn_in=st_np, seed=1), max(1, args.repeats - 1))
    rates["numpy cp (vectorised)"] = (n_np * st_np / wall, n_np * st_np / cpu)

    # On a shared machine the wall-clock rate depends on the other load; the rate per CPU-second (process
    # time of all threads) does not, and times the thread count estimates the rate on idle cores.
    width = max(map(len, rates))
    print(f"{'':<{width}}  {'wall-clock':>12}  {'per CPU-second':>14}   (particle-steps/s)")
    for k, (w, c) in rates.items():
        print(f"{k:<{width}}  {w:12.4g}  {c:14.4g}")
    r2, r2c = rates["numba cp, 2 threads"]
    r1, r1c = rates["numba cp, 1 thread"]
    rn, rnc = rates["numpy cp (vectorised)"]
    print(f"ratio numba (2 threads) / numpy baseline, with jumps: {r2 / rn:.1f}x wall-clock "
          f"({r2c / rnc:.1f}x per CPU-second)")
    print(f"ratio 2 threads / 1 thread (wall-clock): {r2 / r1:.2f}x")
    print(f"target >= 2e7 particle-steps/s with jumps on 2 cores: wall-clock {r2:.3g} "
          f"({'met' if r2 >= 2e7 else 'NOT met'}); per CPU-second x {threads} threads {threads * r2c:.3g} "
          f"({'met' if threads * r2c >= 2e7 else 'NOT met'})")


if __name__ == "__main__":
    main()
