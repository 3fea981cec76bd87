"""Top shape tables beyond the full rows: the shapes with V >= k + 1 - M, enough for the coefficients a_m(k), m <= M.

    python benchmarks/init_laws/top_counts.py --log-dir /tmp/top-logs            # compute (resumable), print
    python benchmarks/init_laws/top_counts.py --log-dir /tmp/top-logs --write    # also rewrite
                                                                   # theory/data/law_top_counts.json

For k beyond the full rows (``theory/data/law_shape_counts.json``, k <= 12), ``P_k``'s coefficients of
``n^(k+1-m)`` for ``m <= M`` need only the shapes with ``V >= k + 1 - M``
(``numerics.signal_propagation.law_rows.shape_counts(k, top=M)``, whose search is cut early: polynomial cost in
k). The plan ``--plan`` lists ``M:k_max`` pairs (default ``5:13,4:18,3:28,2:36``, the committed rows; m <= 4
stops at k = 18 because each further k costs about 1.8 times the one before): each k > 12 is computed
with the largest M whose k_max reaches it. These rows are the held-out data of the fits of
``benchmarks/init_laws/fit_structure.py``. Each finished chunk is logged (resume by rerunning); CPU seconds per
row are recorded.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shape_counts import write_table  # noqa: E402  (beside this script: one format for both tables)

OUT = Path(law_rows_data.__file__).resolve().parents[1] / "data" / "law_top_counts.json"


def _plan(text: str) -> dict[int, int]:
    """``{k: M}`` from "M:kmax,...": the largest M reaching each k > 12."""
    pairs = sorted(((int(a), int(b)) for a, b in (x.split(":") for x in text.split(","))), reverse=True)
    out: dict[int, int] = {}
    for M, kmax in pairs:
        for k in range(13, kmax + 1):
            out.setdefault(k, M)
    return dict(sorted(out.items()))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--log-dir", required=True, help="folder of the per-chunk JSON-lines logs (resume)")
    p.add_argument("--plan", default="5:13,4:18,3:28,2:36", help="M:k_max pairs (default %(default)s)")
    p.add_argument("--write", action="store_true", help=f"rewrite {OUT.name}")
    args = p.parse_args()
    logdir = Path(args.log_dir)
    logdir.mkdir(parents=True, exist_ok=True)
    rows = []
    for k, M in _plan(args.plan).items():
        log = logdir / f"k{k}_top{M}.jsonl"
        t0 = time.process_time()
        table = shape_counts(k, top=M, log_file=log)
        cpu = sum(json.loads(line)["cpu_seconds"] for line in log.read_text().splitlines() if line.strip())
        terms = sorted([V, list(parts), c] for (V, parts), c in table.items())
        print(f"k={k:2d} top={M} shapes={sum(table.values()):>13,d} terms={len(terms):4d} CPU={cpu:8.1f} s "
              f"(this call {time.process_time() - t0:.1f} s)", flush=True)
        rows.append({"k": k, "top": M, "shapes": sum(table.values()), "cpu_seconds": round(cpu, 2), "terms": terms})
    if args.write:
        data = {
            "quantity": "the shapes of P_k(n) = E tr((G^k)^T G^k) with V >= k + 1 - top (all that the coefficients "
                        "of n^(k+1-m), m <= top, need); format as theory/data/law_shape_counts.json",
            "algorithm": "numerics.signal_propagation.law_rows.shape_counts(k, top=M) (the shape search cut at "
                         "V >= k + 1 - M); checked against the full rows for k <= 9 (tests/test_law_rows.py)",
            "machine": f"{platform.machine()}, the project's shared 2-core machine, one numba thread, nice 10",
            "rows": rows,
        }
        write_table(OUT, data)


if __name__ == "__main__":
    main()
