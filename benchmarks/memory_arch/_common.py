"""Shared argument handling of the figure scripts: a sweep file, its result store, an output folder."""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def load_rows(description: str):
    """Parse ``SWEEP STORE [--study NAME] [--out DIR]`` and return (rows, out_dir, study)."""
    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.aggregate import collect
    from numerics.memory_functions.bench.sweep import expand_sweep, load_sweep

    p = argparse.ArgumentParser(description=description)
    p.add_argument("sweep", help="sweep file, e.g. numerics/memory_functions/bench/sweeps/quick.json")
    p.add_argument("store", help="SQLite store filled by `seqtheory sweep run`")
    p.add_argument("--study", default="main", help="study of the sweep to plot (default: %(default)s)")
    p.add_argument("--out", default="figures", help="output folder (default: %(default)s)")
    a = p.parse_args()
    runs = expand_sweep(load_sweep(a.sweep), studies=[a.study])
    with ResultStore(a.store) as st:
        rows = collect(runs, st)
    if not rows:
        p.error(f"no results of study {a.study!r} in {a.store}; run the sweep first")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    return rows, out, a.study
