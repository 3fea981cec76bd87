"""Benchmark: the energies of a law at every depth to the end of its domain, depth by depth against the batch.

``theory.horizon`` reads ``Q_{n,0..t}`` of a law for its searches (``init=``); at ``n = 1e9`` that is 44,716 depths.
Measured in one process, CPU time (``time.process_time``: the machine is shared), side by side:

* depth by depth: ``[Q_law(n, k, law) for k in 0..t]`` (the route ``law_energies_any`` took before 2026-12-06: a
  scalar ``QR`` and a heavy-entry guard over every term at each depth), on a sample of depths, extrapolated to all
  (its per-depth time grows with k: the sample is spread over 0..t);
* the batch, ``law_energies_any(n, t, law)`` (the Gaussian part vectorised, the guard's terms pruned once, the table
  kept for the next search), fresh (table cleared), and again (from the table);
* ``max_horizon(n, 0.05, init=law)`` and ``depth_for_scale`` at sigma = 1, fresh.

The values are equal float for float (``tests/test_init_laws_energy.py``); this run checks it on its sample too.

    python benchmarks/bench_law_energies.py [--n 1000000000] [--law rademacher] [--sample 400]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))     # run from a checkout without installing

import numpy as np  # noqa: E402

from theory.horizon import depth_for_scale, max_horizon  # noqa: E402
from theory.init_laws import energy as E  # noqa: E402


def _cpu(func, *args, **kwargs):
    c0 = time.process_time()
    try:
        out = func(*args, **kwargs)
    except ValueError as exc:                      # a search that ends at the served depth says so: timed all the same
        out = f"ValueError: {str(exc)[:90]}..."
    return out, time.process_time() - c0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=10**9)
    p.add_argument("--law", default="rademacher")
    p.add_argument("--sample", type=int, default=400, help="depths timed one by one (spread over 0..t)")
    a = p.parse_args()

    t = E.law_max_depth(a.n, a.law, quantity="Q")
    E._TABLES.clear()
    (Es, rel, _), batch = _cpu(E.law_energies_any, a.n, t, a.law)
    _, again = _cpu(E.law_energies_any, a.n, t, a.law)
    ks = np.unique(np.linspace(0, t, a.sample).astype(int))
    one, per = _cpu(lambda: [E.Q_law(a.n, int(k), a.law) for k in ks])
    assert all(float(r.value) == Es[k] for r, k in zip(one, ks)), "the batch and Q_law differ"
    depth_by_depth = per / len(ks) * (t + 1)
    print(f"law {a.law}, n = {a.n}: every depth 0..{t} (the end of the served domain), relative error <= {rel:.2g}")
    print(f"  depth by depth (Q_law): {per:.2f} CPU s for {len(ks)} depths, {depth_by_depth:.1f} CPU s for all "
          "(extrapolated)")
    print(f"  batch (law_energies_any): {batch:.2f} CPU s fresh, {again:.3f} CPU s from its table; "
          f"ratio {depth_by_depth / batch:.0f}")
    for name, func, args in (("max_horizon(tol=0.05)", max_horizon, (a.n, 0.05)),
                             ("depth_for_scale(sigma=1, tol=0.05)", depth_for_scale, (a.n, 1.0, 0.05))):
        E._TABLES.clear()
        out, cpu = _cpu(func, *args, init=a.law)
        print(f"  {name}: {cpu:.2f} CPU s fresh -> {out}")


if __name__ == "__main__":
    main()
