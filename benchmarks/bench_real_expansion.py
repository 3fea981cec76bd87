"""Benchmark: real-weight energies at any depth (theory.real_expansion) against Monte Carlo, side by side.

Measured in one process, CPU time (``time.process_time``: the machine is shared, wall time would measure the
other jobs; numba and BLAS on one thread):

* every exact row ``k <= 60`` by the Pfaffian route (``numerics.signal_propagation.real_wick_pfaffian``, fresh, no cache):
  target < 600 CPU s (``--no-rows`` skips it, about 2.5 minutes);
* ``QR(10**6, 1000)`` (the issue's point, c = 1) and ``SR(10**6, 1000)``, float and ``mp`` (30 digits), each
  with its error estimate: target < 1 s each (they take milliseconds);
* the same quantity by Monte Carlo (``numerics.signal_propagation.real_energy_mc``) where Monte Carlo can run: at ``(n, t) =
  (1024, 64)`` (c = 2, beyond the rows) the expansion's value and time against a measured Monte Carlo run
  (``--draws``, default 200), and the Monte Carlo time extrapolated from its measured per-draw time and
  standard deviation to two accuracies: 1% of the value, and the expansion's own error estimate. At
  ``(10**6, 1000)`` Monte Carlo is out of reach (one ``10^6 x 10^6`` matrix is 8 TB): its per-draw cost is
  extrapolated as ``n^2 t`` flops from the measured rate.

    python benchmarks/bench_real_expansion.py [--no-rows] [--draws 200]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))     # run from a checkout without installing

import mpmath  # noqa: E402
import numpy as np  # noqa: E402

from numerics.signal_propagation.real_energy_mc import real_energy_mc  # noqa: E402
from theory import real_expansion as rx  # noqa: E402
from theory.real_rows import real_row  # noqa: E402


def _cpu(func, *args, repeats: int = 1, **kwargs):
    best, out = np.inf, None
    for _ in range(repeats):
        c0 = time.process_time()
        out = func(*args, **kwargs)
        best = min(best, time.process_time() - c0)
    return out, best


def _years(seconds: float) -> str:
    return f"{seconds:.3g} s" if seconds < 3.15e7 else f"{seconds / 3.15e7:.3g} years"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--no-rows", action="store_true", help="skip the fresh Pfaffian run of every row <= 60")
    p.add_argument("--draws", type=int, default=200, help="Monte Carlo draws at (1024, 64) (default 200)")
    args = p.parse_args()

    if not args.no_rows:
        from numerics.signal_propagation import real_wick_pfaffian as pf
        pf._rows.__wrapped__(3)                                   # compile / load the numba cache
        rows, cpu = _cpu(pf._rows.__wrapped__, 60, "numba")
        same = all(list(rows[k]) == list(real_row(k)) for k in range(61))
        print(f"exact rows k <= 60 (Pfaffian route, one run): {cpu:.1f} CPU s (target < 600: "
              f"{'MET' if cpu < 600 else 'MISS'}); equal to the committed rows: {same}")

    rx.QR(10**6, 100)                                             # load the committed data once
    print(f"\n{'call':44} {'CPU s':>9}  value (error estimate)")
    for label, fn in [("QR(10**6, 1000)", lambda: rx.QR(10**6, 1000)),
                      ("SR(10**6, 1000)", lambda: rx.SR(10**6, 1000)),
                      ("QR(10**6, 1000, method='mp', dps=30)", lambda: rx.QR(10**6, 1000, method="mp", dps=30)),
                      ("QR(10**12, 10**6)", lambda: rx.QR(10**12, 10**6)),
                      ("QR(10**6, arange(61, 2001)) (1940 values)", lambda: rx.QR(10**6, np.arange(61, 2001)))]:
        r, cpu = _cpu(fn, repeats=5)
        v = r.value if np.ndim(r.value) == 0 else r.value[-1]
        e = r.error if np.ndim(r.error) == 0 else np.max(r.error)
        with mpmath.workdps(20):
            print(f"{label:44} {cpu:9.5f}  {mpmath.nstr(mpmath.mpf(v), 15)} ({float(e):.1e}) "
                  f"{'MET' if cpu < 1 else 'MISS'} (< 1 s)")

    n, t = 1024, 64
    exp, cpu_exp = _cpu(rx.QR, n, t, repeats=5)
    est, cpu_mc = _cpu(real_energy_mc, n, t, args.draws, seed=1, progress=False)
    per_draw = cpu_mc / args.draws
    std = float(est.Q_se[t]) * np.sqrt(args.draws)
    print(f"\n(n, t) = ({n}, {t}), c = 2 (beyond the exact rows):")
    print(f"  expansion      {exp.value:.8f} +- {exp.error:.1e} (estimate)   {cpu_exp * 1e3:9.3f} ms CPU")
    print(f"  Monte Carlo    {est.Q_mean[t]:.8f} +- {est.Q_se[t]:.1e} (se, {args.draws} draws)  {cpu_mc:9.3f} s CPU "
          f"({per_draw * 1e3:.1f} ms per draw, per-draw standard deviation {std:.3g})")
    for label, acc in (("1% of the value", 0.01 * exp.value), ("the expansion's error estimate", exp.error)):
        draws = (std / acc) ** 2
        print(f"  Monte Carlo for se = {label} ({acc:.1e}): {draws:.3g} draws, {_years(draws * per_draw)} CPU, "
              f"{draws * per_draw / cpu_exp:.2g}x the expansion")
    rate = 2.0 * n * n * 8 * t / per_draw                           # flops per CPU second of the probe products
    big = 2.0 * (10**6) ** 2 * 8 * 1000 / rate
    print(f"\n(n, t) = (10**6, 1000): one Monte Carlo draw would take about {_years(big)} CPU at the measured rate "
          f"(and 8 TB for the matrix); the expansion: {_cpu(rx.QR, 10**6, 1000, repeats=5)[1] * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
