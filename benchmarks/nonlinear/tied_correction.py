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
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

from breakdown_exponent import TOLS, case_key  # noqa: E402  (the measurement's case names and tolerances)
from numerics.signal_propagation.nonlinear_breakdown import crossing_depth, fit_exponent  # noqa: E402
from numerics.signal_propagation.tied_correction import tied_correction_profile  # noqa: E402
from theory.nonlinear import Recurrence, first_correction_profile  # noqa: E402

OUT = ROOT / "docs" / "results" / "nonlinear" / "tied_correction.json"
MEASURED = ROOT / "docs" / "results" / "nonlinear" / "breakdown.json"
T = 8
SAMPLES = 1 << 22
CASES = ((Recurrence("relu", math.sqrt(2.0)), 101), (Recurrence("relu", math.sqrt(2.0), True), 102),
         (Recurrence("identity", 1.0), 103), (Recurrence("tanh", 1.0), 104), (Recurrence("tanh", 0.9), 105),
         (Recurrence("tanh", 1.0, True), 106))


# the first-order breakdown depth: b_t deeper, for the relu cases of the breakdown measurement
DEEP_T = 32
DEEP_SAMPLES = 1 << 17
DEEP_CASES = ((Recurrence("relu", math.sqrt(2.0)), 201), (Recurrence("relu", math.sqrt(2.0), True), 202),
              (Recurrence("relu", math.sqrt(1.8), True), 203))
Z_PREDICTION = 3.0        # the predicted depth's range: b_t -+ 3 se


# the breakdown measurement's own definitions, applied to the first-order deviation b_t / n (b_0 = 0, so the
# first depth out of the band is >= 1)
def first_order_depth(b, n: int, tol: float) -> int | None:
    """``min{t: |b_t| / n > tol}`` (``nonlinear_breakdown.crossing_depth``'s t*; None: not within ``b``)."""
    return crossing_depth(np.abs(np.asarray(b, float)) / n, tol)[0]


def first_order_crossing(b, n: int, tol: float) -> float | None:
    """Where ``|b_t| / n``, interpolated linearly between depths, reaches ``tol`` (``crossing_depth``'s ``t_c``)."""
    return crossing_depth(np.abs(np.asarray(b, float)) / n, tol)[1]


def loglog_slope(ns, ts) -> float | None:
    """``fit_exponent``'s unweighted slope of ``ln t`` on ``ln n`` over the widths with a crossing (None: fewer
    than 3)."""
    pts = [(n, t) for n, t in zip(ns, ts) if t is not None]
    return fit_exponent([n for n, _ in pts], [t for _, t in pts])[0] if len(pts) >= 3 else None


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
            "function": "numerics.signal_propagation.tied_correction.tied_correction_profile", "cases": cases,
            "breakdown": breakdown()}


def breakdown() -> dict:
    """Per relu case: ``b_t`` to depth :data:`DEEP_T` and, per width and tolerance of the breakdown measurement,
    the first-order depth (with its range over ``b_t -+ Z_PREDICTION se``) beside the measured ``t*`` and its
    95% interval."""
    measured = {c["case"]: c for c in json.loads(MEASURED.read_text())["cases"]}
    out = {}
    for rec, seed in DEEP_CASES:
        r = tied_correction_profile(DEEP_T, DEEP_SAMPLES, phi=rec.phi, sigma=rec.sigma, driven=rec.driven, seed=seed)
        rows = []
        for n, w in measured[case_key(rec)]["widths"].items():
            for tol in TOLS:
                m = w[f"tol={tol}"]
                rows.append({"n": int(n), "tol": tol, "predicted": first_order_depth(r.b, int(n), tol),
                             "crossing": first_order_crossing(r.b, int(n), tol), "measured_crossing": m["t_cross"],
                             "predicted_range": [first_order_depth(r.b + Z_PREDICTION * r.se, int(n), tol),
                                                 first_order_depth(r.b - Z_PREDICTION * r.se, int(n), tol)],
                             "measured": m["t_star"], "lo": m["lo"], "hi": m["hi"]})
        gamma = {str(tol): loglog_slope([row["n"] for row in rows if row["tol"] == tol],
                                        [row["crossing"] for row in rows if row["tol"] == tol]) for tol in TOLS}
        out[case_key(rec)] = {"seed": seed, "b": r.b.tolist(), "se": r.se.tolist(), "rows": rows,
                              "gamma_first_order": gamma}
    return out


def breakdown_table(doc: dict) -> str:
    """The page's second table: per relu case and tolerance, the first-order depth beside the measured t* [95%]."""
    widths = sorted({row["n"] for case in doc["breakdown"].values() for row in case["rows"]})
    lines = ["| case | tol | " + " | ".join(f"n = {n}" for n in widths) + " | first-order gamma |",
             "|---" * (len(widths) + 3) + "|"]
    def show(v) -> str:
        if v is None:
            return f"> {DEEP_T}"
        return str(int(v)) if isinstance(v, (int, float)) and float(v).is_integer() else str(v)

    for key, case in doc["breakdown"].items():
        for tol in TOLS:
            cells = []
            for n in widths:
                row = next(r for r in case["rows"] if r["n"] == n and r["tol"] == tol)
                lo, hi = row["predicted_range"]
                pred = show(row["predicted"]) + ("" if lo == hi else f" ({show(lo)}-{show(hi)})")
                meas = "none" if row["measured"] is None else f"{row['measured']} [{show(row['lo'])}, {show(row['hi'])}]"
                cells.append(f"{pred} vs {meas}")
            g = case["gamma_first_order"][str(tol)]
            lines.append(f"| {key} | {tol:g} | " + " | ".join(cells) + f" | {'-' if g is None else f'{g:.3f}'} |")
    return "\n".join(lines)


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
    print()
    print(breakdown_table(doc))
    if args.write:
        OUT.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
