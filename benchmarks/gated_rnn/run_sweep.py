"""Train a gated-RNN sweep (quick.json / cpu.json / reference.json) through the experiment engine, run the
gated_rnn.* checks on its stored runs and write the report with its provenance.

    python benchmarks/gated_rnn/run_sweep.py cpu --report docs/results/cpu-gated --store gated-cpu.sqlite
    python benchmarks/gated_rnn/run_sweep.py cpu --report R --store S --dask local --workers 2
    python benchmarks/gated_rnn/run_sweep.py reference --report R --store S --dask tcp://HOST:8786

The sweep runs with :func:`numerics.anticollapse.gated.sweep.run_gated_sweep` into ``--store`` (the same as
``seqtheory sweep run benchmarks/gated_rnn/<name>.json --store S``): every training run and every
re-diagnosis of its stored weights is content-addressed, resumable (rerun the same command: only what the
store lacks runs) and kill-safe, on two local worker processes, a Dask local cluster or a Dask scheduler
(``--dask``). A store trained elsewhere (by the same code) can be given as ``--store``: nothing is trained
again. Output: ``REPORT/report.md``, the figures, ``REPORT/fidelity.md`` (sweeps with a long diagnosis) and
``REPORT/results.json`` with the verdicts plus ``provenance`` (commit of the report, date, versions,
machine, wall time of this invocation, per-run training seconds and final loss, the hosts and torch versions
that trained, the diagnoses' wall and CPU seconds). The cpu sweep takes about 12 minutes of 2 idle cores for
the training and 6 CPU-minutes for the long diagnosis; the reference sweep needs an accelerator or a cluster.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def _git(*a) -> str:
    return subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True).stdout.strip()


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def _provenance(records: dict, wall: float, device: str, store: Path) -> dict:
    import numpy
    import scipy
    import torch

    from numerics.experiments.pinning import cpu_description

    cpu = cpu_description()
    trains = [r["train"] for r in records.values()]
    out = {
        "commit": _git("rev-parse", "HEAD"), "dirty": bool(_git("status", "--porcelain", "--untracked-files=no")),
        "date": _now(), "store": store.name,
        "trained": {"hosts": sorted({t["host"] for t in trains}), "torch": sorted({t["torch"] for t in trains}),
                    "finished": [_utc(min(t["finished_at"] for t in trains)), _utc(max(t["finished_at"] for t in trains))],
                    "cpu_seconds_total": round(sum(t["cpu_seconds"] for t in trains), 1)},
        "versions": {"python": platform.python_version(), "torch": torch.__version__, "numpy": numpy.__version__,
                     "scipy": scipy.__version__},
        "machine": {"platform": platform.platform(), "cpu": cpu, "cores": os.cpu_count(), "device": device},
        "wall_seconds": round(wall, 1),
        "runs": {f"{run}/seed{s}": {"seconds": round(r["train"]["seconds"], 1),
                                    "relative_loss": r["train"]["relative_loss"],
                                    "steps": len(r["train"]["step_loss"]), "task_lags": r["train"]["task_lags"]}
                 for (run, s), r in records.items()},
    }
    names = [n for n in ("long", "train_author") if all(r.get(n) for r in records.values())]
    if names:
        out["long_diagnosis"] = {
            "wall_seconds": {f"{run}/seed{s}": {n: round(r[n]["seconds"], 1) for n in names}
                             for (run, s), r in records.items()},
            "cpu_seconds": {f"{run}/seed{s}": {n: round(r[n]["cpu_seconds"], 1) for n in names}
                            for (run, s), r in records.items()},
            "cpu_seconds_total": {n: round(sum(r[n]["cpu_seconds"] for r in records.values()), 1) for n in names}}
    return out


def _utc(t: float) -> str:
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).isoformat(timespec="seconds")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("sweep", choices=("quick", "cpu", "reference"))
    p.add_argument("--report", required=True, help="report folder")
    p.add_argument("--store", required=True, type=Path, help="SQLite result store (created or resumed)")
    p.add_argument("--device", default="cpu", help="torch device of the training runs")
    p.add_argument("--workers", type=int, default=2, help="worker processes (local pool or Dask local cluster)")
    p.add_argument("--dask", metavar="local|ADDRESS", help="run on Dask: a local cluster or a scheduler address")
    a = p.parse_args(argv)

    from numerics.anticollapse.gated.sweep import gated_results, run_gated_sweep
    from numerics.experiments.executors import make_executor
    from numerics.experiments.store import ResultStore
    from validation.checks import gated_rnn as g
    from validation.registry import Context, discover, select

    t0 = time.perf_counter()
    report = Path(a.report)
    profile = {"quick": "quick", "cpu": "cpu", "reference": "full"}[a.sweep]

    ctx = Context(profile=profile, report_dir=report, store=a.store)
    sweep = g._gated_sweep(ctx, a.sweep)
    executor, close = make_executor(a.dask, a.workers)
    try:
        with ResultStore(a.store) as store:
            run_gated_sweep(sweep, store, executor=executor, workers=a.workers, device=a.device)
            records = gated_results(sweep, store)
    finally:
        close()
    out = report / "results.json"
    report.mkdir(parents=True, exist_ok=True)
    if a.sweep == "reference":                       # the three decision rules on the reference runs
        o = g.verdict_reference(g._collect(records))
        data = {"verdict": o.verdict, "summary": o.summary, "data": g._collect(records)}
        print(o.verdict, o.summary)
    else:
        from seqtheory.cli.validate import print_table
        from validation.report import run_checks, write_report

        checks = [c for c in select(discover(), "gated_rnn.*") if c.name != "gated_rnn.reference_scale"]
        results = run_checks(checks, ctx, progress=False)
        print_table(results)
        write_report(results, ctx)
        data = {"checks": json.loads(out.read_text()) if out.exists() else []}
    if sweep.long is not None:
        data["fidelity"] = _fidelity(records)
        (report / "fidelity.md").write_text(_fidelity_md(data["fidelity"]))
    data["provenance"] = _provenance(records, time.perf_counter() - t0, a.device, a.store)
    data["sweep"] = {"name": a.sweep, "seeds": list(sweep.seeds), "file": f"benchmarks/gated_rnn/{a.sweep}.json"}
    out.write_text(json.dumps(data, indent=1, default=float))
    print("wrote", out)
    if report.resolve() == (ROOT / "docs" / "results" / "cpu-gated").resolve():    # the package ships the verdicts
        from validation.committed import refresh

        print("wrote", refresh().relative_to(ROOT), "(the packaged committed verdicts)")
    return 0


_FID = ("phase", "envelope_gate_reason", "beta_tail", "beta_tail_ci", "beta_tail_r2", "tau_min", "tau_median", "n_finite_tau",
        "phase_calibrated")


def _fidelity(records: dict) -> dict:
    """Final checkpoint at the training length: ours (the training-time diagnosis) vs the author's floors."""
    from numerics.anticollapse.spectra import record_summary

    out = {}
    for (run, s), r in records.items():
        ours = record_summary(r["train"]["checkpoints"][-1])
        auth = record_summary(r["train_author"]["checkpoints"][-1])
        out[f"{run}/seed{s}"] = {"ours": {k: ours.get(k) for k in _FID}, "author": {k: auth.get(k) for k in _FID}}
    return out


def _fidelity_md(fid: dict) -> str:
    ci = lambda v: f"[{v[0]:.3g}, {v[1]:.3g}]" if v else "-"  # noqa: E731
    rows = ["| run | label ours / author floors | gate ours / author | beta_tail ours | beta_tail author | "
            "tau min ours / author | finite tau ours / author |", "|---|---|---|---|---|---|---|"]
    for k, v in fid.items():
        o, a = v["ours"], v["author"]
        rows.append(f"| {k} | {o['phase']} / {a['phase']} | {o['envelope_gate_reason'] or 'pass'} / "
                    f"{a['envelope_gate_reason'] or 'pass'} | {o.get('beta_tail') or float('nan'):.3g} "
                    f"{ci(o.get('beta_tail_ci'))} | {a.get('beta_tail') or float('nan'):.3g} {ci(a.get('beta_tail_ci'))} | "
                    f"{o['tau_min']:.3g} / {a['tau_min']:.3g} | {o['n_finite_tau']} / {a['n_finite_tau']} |")
    return ("# The author's 1e-30 floors on the trained cpu runs (final checkpoint, training length T = 512)\n\n"
            "Generated by `benchmarks/gated_rnn/run_sweep.py`. Ours: no floor in the envelope fit, no clamp of the "
            "transport; author: `log(max(f, 1e-30))` in the envelope fit and `log(clamp(|Gamma|, 1e-30))` before "
            "the rate fit (variant `\"author\"`). Same weights, same sequences.\n\n" + "\n".join(rows) + "\n")


if __name__ == "__main__":
    sys.exit(main())
