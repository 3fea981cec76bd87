"""Retrain the reproducibility cell (``numerics.memory_functions.bench.repro``) under the pins and compare it with
its committed record, or (``--write``) record it.

    python benchmarks/memory_arch/repro_cell.py            # retrain, compare: exit 1 and the differences if any
    python benchmarks/memory_arch/repro_cell.py --write    # (re)write tests/data/repro_cell.json

The record is only ever written from a pinned retrain (every run's ``numeric_env.pinned`` is checked); it keeps the
environment of the machine that wrote it (CPU, library versions) beside the runs. ``tests/test_repro_cell.py``
is the same comparison in CI.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
RECORD = ROOT / "tests" / "data" / "repro_cell.json"


def retrain() -> dict:
    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.repro import train_cell

    with tempfile.TemporaryDirectory() as tmp, ResultStore(Path(tmp) / "cell.sqlite") as store:
        return train_cell(store)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--write", action="store_true", help=f"write the record {RECORD.relative_to(ROOT)}")
    a = p.parse_args(argv)
    from numerics.memory_functions.bench.repro import GROUP, SWEEP, differences, reproducible_part

    t0 = time.perf_counter()
    fresh = retrain()
    wall = time.perf_counter() - t0
    envs = [r["numeric_env"] for r in fresh.values()]
    if not all(e["pinned"] for e in envs):
        print(f"not pinned: {[e['problems'] for e in envs if not e['pinned']]}", file=sys.stderr)
        return 2
    if a.write:
        git = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
        env = {k: v for k, v in envs[0].items() if k not in ("problems",)}
        doc = {"about": "numerics.memory_functions.bench.repro: the committed record of the reproducibility cell, "
                        "retrained and compared bit for bit by tests/test_repro_cell.py",
               "written": {"date": time.strftime("%Y-%m-%d"), "commit": git or None, "numeric_env": env,
                           "wall_seconds": round(wall, 1)},
               "sweep": SWEEP, "group": GROUP,
               "runs": {rid: reproducible_part(res) for rid, res in sorted(fresh.items())}}
        RECORD.parent.mkdir(parents=True, exist_ok=True)
        RECORD.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {RECORD.relative_to(ROOT)}: {len(fresh)} runs ({wall:.0f} s)")
        return 0
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    diff = differences(record["runs"], fresh)
    print("\n".join(diff) if diff else f"{len(fresh)} runs equal to the record, bit for bit ({wall:.0f} s)")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
