"""Rows 61..80 of E tr((G^k)^T G^k), kept as a verification set for the real expansion (not served as data).

    python benchmarks/real_expansion/verification_rows.py           # about 18 CPU minutes (one core)

One run of the Pfaffian route for every row k <= 80 (``numerics.signal_propagation.real_wick_pfaffian``; the rows <= 60 must equal
the committed ones), then ``theory/data/real_wick_rows_verification.json`` with the rows 61..80. They were
computed after the coefficients ``a_m`` (m <= 15) were fitted on rows <= 56, so every one of them is held
out; ``validation/checks/real_expansion.py`` and ``tests/test_real_expansion.py`` check the committed ``a_m``
and the expansion's error estimate on them. CPU time: process time, numba on one thread.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))     # run from a checkout without installing

from numerics.signal_propagation import real_wick_pfaffian as pf  # noqa: E402
from theory.real_rows import VERIFICATION_FILE, real_row, real_rows_max_k  # noqa: E402

K = 80


def main() -> None:
    pf._rows.__wrapped__(3)                                       # compile / load the numba cache
    c0 = time.process_time()
    rows = pf._rows.__wrapped__(K, "numba")
    cpu = time.process_time() - c0
    base = real_rows_max_k()
    assert all(list(rows[k]) == list(real_row(k)) for k in range(base + 1)), "rows <= 60 differ from the committed"
    write(rows, base, cpu)


def write(rows, base: int, cpu: float) -> None:
    data = {"quantity": "E tr((G^k)^T G^k), G n x n with iid N(0,1) entries; coefficients[j] multiplies n**j",
            "purpose": "verification set: rows beyond the served ones (theory.real_rows), computed after the "
                       "coefficients a_m were fitted; not served by theory.real_rows.real_row",
            "algorithm": "numerics.signal_propagation.real_wick_pfaffian, one run real_wick_rows(80)",
            "all_rows_le_80_cpu_seconds": round(cpu, 1),
            "machine": "the project's 2-core machine, shared with other jobs; numba, 1 thread",
            "generated_by": "python benchmarks/real_expansion/verification_rows.py",
            "rows": [{"k": k, "coefficients": list(rows[k])} for k in range(base + 1, K + 1)]}
    head = ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in data.items() if k != "rows")
    body = ",\n".join(f"  {json.dumps(r)}" for r in data["rows"])
    Path(str(VERIFICATION_FILE)).write_text("{\n" + head + ',\n "rows": [\n' + body + "\n ]\n}\n")
    print(f"rows {base + 1}..{K}: {cpu:.1f} CPU s; wrote {VERIFICATION_FILE}")


if __name__ == "__main__":
    main()
