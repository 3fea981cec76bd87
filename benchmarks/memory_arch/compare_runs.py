"""Compare the runs of a result store with the same runs in a committed export, field by field, bit for bit.

    python benchmarks/memory_arch/compare_runs.py STORE EXPORT     # exit 1 if a run differs or is not in EXPORT

The check behind "a pinned run gives the same numbers on any x86-64 machine" for real runs of the benchmark:
retrain some committed runs into a fresh store on another machine (``cpu_results.py --train-only --cell ...``)
and compare them here. Compared: every field of each result but those that describe the process
(``numerics.memory_functions.bench.repro.VOLATILE``: timings, host, pid, the numerical environment), the same
comparison as the CI's reproducibility cell (:func:`numerics.memory_functions.bench.repro.differences`).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def _runs(path: Path) -> dict[str, dict]:
    with gzip.open(path, "rt") as f:
        return {r["run_id"]: r["result"] for r in map(json.loads, f)}


def compare(store: Path, export: Path) -> tuple[list[str], int]:
    """(the differences, the number of runs compared): every run of ``store`` against ``export``."""
    import tempfile

    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.repro import differences, reproducible_part

    with tempfile.TemporaryDirectory() as tmp:
        fresh_file = Path(tmp) / "fresh.jsonl.gz"
        ResultStore(store, create=False, read_only=True).export_runs(fresh_file)
        fresh = _runs(fresh_file)
    recorded = _runs(export)
    missing = [f"{rid}: not in {export}" for rid in sorted(fresh) if rid not in recorded]
    both = sorted(set(fresh) & set(recorded))
    return missing + differences({r: reproducible_part(recorded[r]) for r in both}, {r: fresh[r] for r in both}), \
        len(both)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("store", type=Path, help="the result store of the retrained runs")
    p.add_argument("export", type=Path, help="the committed export (gzipped JSON lines) that holds them")
    a = p.parse_args(argv)
    diffs, n = compare(a.store, a.export)
    for d in diffs:
        print(d)
    print(f"{n} runs compared: {'bitwise equal' if not diffs else f'{len(diffs)} differences'}")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
