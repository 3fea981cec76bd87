"""The cross-machine spread of the round-1 (unpinned) cpu-profile runs, measured by retraining a sample of committed
cells in another numerical environment and comparing each run with its committed record.

    nice python benchmarks/memory_arch/cross_machine_spread.py [--store-dir DIR] [--variant NAME ...]
        [--out docs/results/cpu-architectures/cross-machine/spread.json]
    python benchmarks/memory_arch/cross_machine_spread.py --fragility-file \
        docs/results/cpu-architectures/cross_machine_spread.json      # the labels' spread, from --out

Round 1 was trained on an x86-64 machine without AVX-512, unpinned (its records reproduce bit for bit here only
with oneDNN, ATen and NumPy capped at AVX2: variant ``round1``). The variants (each a training environment; the
command is the one that trained round 1, ``cpu_results.py --train-only --study main --cell C --group 3
--workers 1``, so that every cell's three seeds train as one vmapped Adam group as they did):

- ``avx512``: this machine as it is, unpinned (it must have AVX-512: ATen, oneDNN and NumPy then dispatch their
  AVX-512 kernels): the spread a second machine of the same software gives;
- ``round1``: the round-1 machine emulated (``ONEDNN_MAX_CPU_ISA=AVX2``, ``ATEN_CPU_CAPABILITY=avx2``, NumPy
  above AVX2 off), unpinned: the control, which must reproduce the committed records exactly;
- ``pinned``: the pinned environment (``numerics.experiments.pinning``): how far round-2's environment is from
  round 1's on the same runs.

Per run: |log10 RelMSE(retrained) - log10 RelMSE(committed)| at the Adam budget and at the polished budget, and
where the two runs part (the first Adam curve window, every 20 steps, and the first polish curve point, every
second L-BFGS iteration at 6 digits, that differ). Resumable: each variant trains into its own store in
``--store-dir`` and a rerun skips what is there.

``--fragility-file F`` trains nothing: it writes the spread the fragility labels read (F, ``docs/papers/
memory-functions.md``, "Amendment (2026-12-06): fragility") from the measurement in ``--out``: the ``avx512``
variant's runs (another machine's kernels against round 1's records), beside F's earlier measurements by others
(kept); per model kind and budget the largest per-run spread measured, ``default`` the largest of all.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
RUNS = ROOT / "docs" / "results" / "cpu-architectures" / "runs"
OUT = ROOT / "docs" / "results" / "cpu-architectures" / "cross-machine" / "spread.json"
# the LSTM cell the outside retrain used; a cell of each other architecture, at the decisive margins of
# no_single_best (TCN vs LSTM on exp, the Transformer on impulse) where there is one (about 35 CPU minutes in all, measured)
CELLS = ["lstm/exp/0.5", "s4d/exp/0.5", "tcn/exp/0.5", "transformer/impulse/0.5"]
AVX2_NUMPY = "X86_V4,AVX512_ICL,AVX512_SPR"      # NumPy 2.4's dispatch targets above x86-64-v3
VARIANTS = {
    "avx512": ({}, CELLS, True),
    "round1": ({"ONEDNN_MAX_CPU_ISA": "AVX2", "ATEN_CPU_CAPABILITY": "avx2", "NPY_DISABLE_CPU_FEATURES": AVX2_NUMPY},
               ["lstm/exp/0.5"], True),
    "pinned": ({}, ["lstm/exp/0.5", "s4d/exp/0.5"], False),
}
_ENV_PROBE = ("import json; from numerics._torch import numeric_environment; "
              "e = numeric_environment(pin=False); print(json.dumps({k: e[k] for k in "
              "('aten_capability', 'mkldnn', 'numpy_simd', 'env', 'cpu', 'versions')}))")


def committed() -> dict:
    out = {}
    for f in sorted(RUNS.glob("*.jsonl.gz")):
        with gzip.open(f, "rt", encoding="utf-8") as fh:
            for line in fh:
                r = json.loads(line)
                out.setdefault(r["run_id"], r["result"])
    return out


def train(name: str, store: Path) -> dict:
    """Train variant ``name``'s cells into ``store``; return the environment its processes had."""
    extra, cells, unpinned = VARIANTS[name]
    env = {**os.environ, **extra}
    cmd = [sys.executable, str(ROOT / "benchmarks" / "memory_arch" / "cpu_results.py"), "--train-only", "--study",
           "main", "--group", "3", "--workers", "1", "--store", str(store), *(["--unpinned"] if unpinned else [])]
    for c in cells:
        cmd += ["--cell", c]
    subprocess.run(cmd, env=env, cwd=ROOT, check=True)
    if not unpinned:
        return {"pinned": True}
    probe = subprocess.run([sys.executable, "-c", _ENV_PROBE], env=env, cwd=ROOT, capture_output=True, text=True,
                           check=True)
    return json.loads(probe.stdout)


def _dlog(a, b) -> float | None:
    return None if not (a and b and a > 0 and b > 0) else abs(math.log10(b) - math.log10(a))


def parting(old: dict, new: dict) -> dict:
    """Where a retrained run parts from its committed record: Adam step, polish (stage, iteration)."""
    adam = next((old["curve_steps"][i] for i, (u, v) in enumerate(zip(old["curve_loss"], new["curve_loss"]))
                 if u != v), None)
    co, cn = old["polish"]["curve"], new["polish"]["curve"]
    pol = next(((co["stage"][i], co["iter"][i]) for i in range(min(len(co["iter"]), len(cn["iter"])))
                if (co["stage"][i], co["iter"][i], co["relmse"][i]) != (cn["stage"][i], cn["iter"][i], cn["relmse"][i])),
               None)
    return {"adam_step": adam, "polish_stage": pol and pol[0], "polish_iter": pol and pol[1]}


def compare(name: str, store: Path, ref: dict) -> list[dict]:
    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.repro import differences, reproducible_part
    from numerics.memory_functions.bench.sweep import expand_sweep, load_sweep

    _, cells, _ = VARIANTS[name]
    runs = [r for r in expand_sweep(load_sweep("cpu"), studies=["main"])
            if f"{r.model}/{r.config.target.kind}/{r.config.target.alpha:g}" in cells]
    rows = []
    with ResultStore(store) as st:
        for r in runs:
            new, old = (st.get(r.run_id) or {}).get("result"), ref[r.run_id]
            if new is None:
                continue
            rows.append({"cell": f"{r.model}/{r.config.target.kind}/{r.config.target.alpha:g}",
                         "seed": r.config.train.seed, "run_id": r.run_id,
                         "adam": [old["relmse"], new["relmse"]], "polished": [old["polish"]["relmse"],
                                                                             new["polish"]["relmse"]],
                         "dlog10_adam": _dlog(old["relmse"], new["relmse"]),
                         "dlog10_polished": _dlog(old["polish"]["relmse"], new["polish"]["relmse"]),
                         "bitwise_equal": not differences({r.run_id: reproducible_part(old)}, {r.run_id: new}),
                         "parts_at": parting(old, new), "cpu_seconds": new.get("cpu_seconds")})
    return rows


def summary(rows: list[dict]) -> dict:
    out = {}
    for model in sorted({r["cell"].split("/")[0] for r in rows}):
        mine = [r for r in rows if r["cell"].startswith(model + "/")]
        out[model] = {b: {"runs": len(mine), "median": statistics.median(r[f"dlog10_{b}"] for r in mine),
                          "max": max(r[f"dlog10_{b}"] for r in mine)} for b in ("adam", "polished")}
    every = {b: [r[f"dlog10_{b}"] for r in rows] for b in ("adam", "polished")}
    out["all"] = {b: {"runs": len(v), "median": statistics.median(v), "max": max(v)} for b, v in every.items() if v}
    return out


MEASURED = "avx512"          # the variant that is a second machine; round1 is the control, pinned round 2's setting


def measurements(doc: dict, by: str) -> list[dict]:
    """The cross-machine measurements of a ``--out`` document: one per run of the :data:`MEASURED` variant,
    in the fragility file's form (model kind, cell, seed, spread per budget in decades, the two RelMSEs)."""
    rows = ((doc.get("variants") or {}).get(MEASURED) or {}).get("runs") or []
    out = []
    for r in rows:
        model, kind, alpha = r["cell"].split("/")
        if r["dlog10_adam"] is None or r["dlog10_polished"] is None:
            raise ValueError(f"run {r['run_id']} ({r['cell']}, seed {r['seed']}): a RelMSE that is not positive; "
                             "its spread is undefined")
        out.append({"model": model, "kind": kind, "alpha": float(alpha), "seed": r["seed"], "by": by,
                    "spread": {"adam": round(r["dlog10_adam"], 6), "polished": round(r["dlog10_polished"], 6)},
                    "adam_relmse": {"committed": r["adam"][0], "retrained": r["adam"][1]},
                    "polished_relmse": {"committed": r["polished"][0], "retrained": r["polished"][1]},
                    "bitwise_equal": r["bitwise_equal"], "parts_at": r["parts_at"]})
    return out


def spread_table(measured: list[dict]) -> dict:
    """``spread[budget][kind]``: the largest per-run spread measured of that model kind at that budget;
    ``default`` (the kinds not measured): the largest measured at that budget (0 when nothing is measured)."""
    table = {}
    for budget in ("adam", "polished"):
        kinds: dict[str, float] = {}
        for m in measured:
            v = m["spread"].get(budget)
            if v is not None:
                kinds[m["model"]] = max(kinds.get(m["model"], 0.0), float(v))
        table[budget] = {**dict(sorted(kinds.items())), "default": max(kinds.values(), default=0.0)}
    return table


def fragility_file(out: Path, path: Path) -> dict:
    """Rewrite the fragility labels' spread file ``path`` from the measurement document ``out``: the earlier
    measurements of others (those without this script's ``by``) are kept, this script's replaced."""
    doc = json.loads(out.read_text(encoding="utf-8"))
    old = json.loads(path.read_text(encoding="utf-8"))
    ours = f"this project: {doc['command']} at commit {str(doc.get('commit'))[:7]}, {doc['date']}"
    kept = [dict(m, by=m.get("by") or "outside retrain (issue 42)") for m in old.get("measurements", [])
            if not str(m.get("by", "")).startswith("this project")]
    every = kept + measurements(doc, ours)
    kinds = sorted({m["model"] for m in every})
    old.update({
        "source": f"{len(every)} runs retrained on a second x86-64 machine and compared with their committed "
                  f"round-1 records: {len(kept)} by an outside retrain (issue 42), {len(every) - len(kept)} by "
                  f"{ours} (this machine's AVX-512 kernels against round 1's AVX2 machine: "
                  "docs/results/cpu-architectures/cross-machine/spread.json). Per model kind and budget the "
                  f"largest per-run spread measured (kinds measured: {', '.join(kinds)}); every other kind takes "
                  "the default, the largest measured at that budget.",
        "date": doc["date"], "spread": spread_table(every), "measurements": every})
    path.write_text(json.dumps(old, indent=1) + "\n", encoding="utf-8")
    return old


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--store-dir", default=str(ROOT / "validation-report" / "cross-machine"))
    p.add_argument("--variant", action="append", choices=sorted(VARIANTS), help="default: all")
    p.add_argument("--out", default=str(OUT))
    p.add_argument("--no-train", action="store_true", help="compare what the stores hold")
    p.add_argument("--fragility-file", metavar="F", help="write the fragility labels' spread F from --out "
                   "(trains and compares nothing)")
    a = p.parse_args(argv)
    if a.fragility_file:
        doc = fragility_file(Path(a.out), Path(a.fragility_file))
        print(f"wrote {a.fragility_file}: spread {json.dumps(doc['spread'])}")
        return 0
    Path(a.store_dir).mkdir(parents=True, exist_ok=True)
    ref, doc = committed(), {}
    for name in a.variant or list(VARIANTS):
        store = Path(a.store_dir) / f"{name}.sqlite"
        env = None if a.no_train else train(name, store)
        rows = compare(name, store, ref)
        doc[name] = {"environment": {"set": VARIANTS[name][0], "unpinned": VARIANTS[name][2], "probe": env},
                     "cells": VARIANTS[name][1], "summary": summary(rows) if rows else None,
                     "cpu_seconds": round(sum(r["cpu_seconds"] or 0 for r in rows), 1), "runs": rows}
        for r in rows:
            print(f"{name:7s} {r['cell']:24s} seed {r['seed']}: |dlog10| Adam {r['dlog10_adam']:.4f}, polished "
                  f"{r['dlog10_polished']:.4f}; parts at {r['parts_at']}")
    git = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    out = {"about": __doc__.split("\n\n")[0], "command": "python benchmarks/memory_arch/cross_machine_spread.py",
           "date": time.strftime("%Y-%m-%d"), "commit": git or None, "variants": doc}
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
