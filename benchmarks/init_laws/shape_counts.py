"""The law-independent shape table of E tr((G^k)^T G^k) for k = 0..K (the committed rows of every iid law).

    python benchmarks/init_laws/shape_counts.py --k 12 --log-dir /tmp/shape-logs           # count, print
    python benchmarks/init_laws/shape_counts.py --k 12 --log-dir /tmp/shape-logs --write   # also rewrite
                                                          # (--jobs 2: two worker processes)
                                                                          # theory/data/law_shape_counts.json

Runs ``numerics.signal_propagation.law_rows.shape_counts(k, log_file=...)`` for every k <= K: each finished chunk is
appended to ``<log-dir>/k<k>.jsonl``, so a killed run resumes where it stopped (rerun the same command). The CPU
time recorded per row is the sum of its chunks' process times (so it survives a resume). Every row is checked
before it is written: the number of shapes at n = 1 with all moments 1 (``P_k(1)`` for Rademacher entries:
``1``) and the Gaussian specialisation against the committed real rows (``theory/data/real_wick_rows.json``).
Cost: about x16 per k; k = 12 is about an hour of one core (the recorded figure is in the data file).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))     # run from a checkout without installing

from numerics.signal_propagation.law_rows import shape_counts  # noqa: E402
from theory.init_laws import rows as law_rows_data  # noqa: E402
from theory.real_rows import real_row  # noqa: E402

OUT = Path(law_rows_data.__file__).resolve().parents[1] / "data" / "law_shape_counts.json"


def _log_cpu(path: Path, k: int) -> float:
    if not path.exists():
        return 0.0
    total = 0.0
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            rec = json.loads(line)
            if rec.get("k") == k:
                total += float(rec["cpu_seconds"])
    return total


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--k", type=int, default=12, help="largest depth (default 12)")
    p.add_argument("--log-dir", required=True, help="folder of the per-chunk JSON-lines logs (resume)")
    p.add_argument("--write", action="store_true", help=f"rewrite {OUT.name}")
    p.add_argument("--jobs", type=int, default=1, help="worker processes for the chunks (default 1)")
    args = p.parse_args()
    logdir = Path(args.log_dir)
    logdir.mkdir(parents=True, exist_ok=True)
    rows = []
    pool = None
    if args.jobs > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        pool = ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn"))
    for k in range(args.k + 1):
        t0 = time.process_time()
        log = logdir / f"k{k}.jsonl"
        table = shape_counts(k, log_file=log, executor=pool if k >= 10 else None)
        cpu = _log_cpu(log, k) if k else time.process_time() - t0
        terms = sorted([V, list(parts), c] for (V, parts), c in table.items())
        gauss = law_rows_data._gaussian_row_from_terms(k, [(V, tuple(parts), c) for V, parts, c in terms])
        ok = tuple(gauss) == tuple(real_row(k))
        print(f"k={k:2d} shapes={sum(table.values()):>13,d} terms={len(terms):4d} CPU={cpu:9.1f} s "
              f"gaussian == real row: {ok}", flush=True)
        if not ok:
            raise SystemExit(f"k={k}: the Gaussian specialisation differs from the committed real row")
        rows.append({"k": k, "shapes": sum(table.values()), "cpu_seconds": round(cpu, 2), "terms": terms})
    if args.write:
        data = {
            "quantity": "P_k(n) = E tr((G^k)^T G^k), G n x n with iid entries of a symmetric law, E g^2 = 1",
            "format": "rows[k].terms: [V, lambda, count]: count shapes (set partitions of the 2k walk positions "
                      "with every entry of even multiplicity) with V index classes and entry half-multiplicities "
                      "lambda (a partition of k); P_k(n) = sum count * n(n-1)...(n-V+1) * prod_{r in lambda} m_{2r}",
            "algorithm": "numerics.signal_propagation.law_rows.shape_counts (numba DFS over restricted-growth "
                         "strings, odd-entry masks); checked against the cumulant route "
                         "numerics.signal_propagation.law_cumulants and the real rows",
            "machine": f"{platform.machine()}, the project's shared 2-core machine, one numba thread, nice 10 "
                       "(CPU seconds are process time, summed over the chunks)",
            "rows": rows,
        }
        write_table(OUT, data)


def write_table(path: Path, data: dict) -> None:
    """A shape table as compact JSON, one row per line (small diffs when a row is added)."""
    text = json.dumps(data, indent=None, separators=(",", ":"))
    path.write_text(text.replace('{"k":', '\n{"k":') + "\n", encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
