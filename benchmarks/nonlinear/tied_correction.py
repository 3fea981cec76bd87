"""The whole first finite-width correction b_t (weight tying included) of relu and identity recurrences, t <= 8.

    python benchmarks/nonlinear/tied_correction.py            # print the table (about 3 minutes on one core)
    python benchmarks/nonlinear/tied_correction.py --write    # and write docs/results/nonlinear/tied_correction.json

``numerics.signal_propagation.tied_correction.tied_correction_profile`` (the second-order von Mises expansion of
the exact Gaussian-conditioning representation; its Gaussian integral by Monte Carlo, :data:`SAMPLES` samples
per case, seeds fixed here) for relu at criticality (sigma^2 = 2, free and driven) and the identity (sigma = 1,
free: b_t = 0 exactly, a check of the run) and tanh (sigma = 1 and 0.9 free, 1 driven: against the
independent-step c_t of ``theory.nonlinear.first_correction_profile``), beside the recurrence's own finite-width
coefficient from the
committed Monte Carlo (``docs/results/nonlinear/breakdown.json``, ``first_correction``: the weighted fit of
``n d_t = b_t + e_t / n`` over n = 64..512), with ``z = (fit - derived) / sqrt(se_fit^2 + se^2)``. The results
page (``docs/results/nonlinear-recurrences.md``, section 2) holds the printed table (``tests/test_tied_correction.py``
compares them).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from numerics.signal_propagation.tied_correction import tied_correction_profile  # noqa: E402
from theory.nonlinear import Recurrence, first_correction_profile  # noqa: E402

OUT = ROOT / "docs" / "results" / "nonlinear" / "tied_correction.json"
MEASURED = ROOT / "docs" / "results" / "nonlinear" / "breakdown.json"
T = 8
SAMPLES = 1 << 22
CASES = ((Recurrence("relu", math.sqrt(2.0)), 101), (Recurrence("relu", math.sqrt(2.0), True), 102),
         (Recurrence("identity", 1.0), 103), (Recurrence("tanh", 1.0), 104), (Recurrence("tanh", 0.9), 105),
         (Recurrence("tanh", 1.0, True), 106))


def case_key(r: Recurrence) -> str:
    """The case names of breakdown.json (``benchmarks/nonlinear/breakdown_exponent.py``)."""
    return f"{r.phi} sigma^2={r.sigma ** 2:.3g} {'driven' if r.driven else 'free'}"


def compute() -> dict:
    measured = {(row["case"], row["t"]): row for row in json.loads(MEASURED.read_text())["first_correction"]}
    cases = {}
    for rec, seed in CASES:
        r = tied_correction_profile(T, SAMPLES, phi=rec.phi, sigma=rec.sigma, driven=rec.driven, seed=seed)
        c = first_correction_profile(T, rec.phi, rec.sigma, driven=rec.driven) if rec.phi == "tanh" else None
        rows = []
        for t in range(1, T + 1):
            m = measured.get((case_key(rec), t))
            row = {"t": t, "b": float(r.b[t]), "se": float(r.se[t])}
            if c is not None:
                row |= {"c": float(c[t]), "z_c": (row["b"] - float(c[t])) / row["se"]}
            if m is not None:
                row |= {"fit": m["b"], "fit_se": m["b_se"], "z": (m["b"] - row["b"]) / math.hypot(m["b_se"], row["se"])}
            rows.append(row)
        cases[case_key(rec)] = {"seed": seed, "rows": rows}
    return {"generated_by": "python benchmarks/nonlinear/tied_correction.py --write", "samples": SAMPLES,
            "function": "numerics.signal_propagation.tied_correction.tied_correction_profile", "cases": cases}


def table(doc: dict) -> str:
    """The results page's table: per case and depth, the derived b_t (se), for tanh the independent-step c_t in
    brackets, and the Monte Carlo fit (se)."""
    head = "| case | " + " | ".join(f"t = {t}" for t in range(1, T + 1)) + " |"
    lines = [head, "|---" * (T + 1) + "|"]
    for key, case in doc["cases"].items():
        cells = []
        for row in case["rows"]:
            cell = f"{row['b']:+.3f} ({row['se']:.3f})"
            if "c" in row:
                cell += f" [c {row['c']:+.3f}]"
            if "fit" in row:
                cell += f" vs {row['fit']:+.2f} ({row['fit_se']:.2f})"
            cells.append(cell)
        lines.append(f"| {key} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(ROOT)}")
    args = ap.parse_args(argv)
    doc = compute()
    print(table(doc))
    if args.write:
        OUT.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
