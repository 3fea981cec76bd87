"""Train a gated-RNN profile (quick.json / cpu.json / reference.json), run the gated_rnn.* checks on it and
write the report with its provenance.

    python benchmarks/gated_rnn/run_profile.py cpu --report docs/results/cpu-gated --cache /tmp/gated-cpu
    python benchmarks/gated_rnn/run_profile.py reference --device cuda --report gated-reference --cache ckpts
    python benchmarks/gated_rnn/run_profile.py cpu --report docs/results/cpu-gated --cache /tmp/gated-long \
        --rediagnose-from /path/to/trained    # diagnose runs trained elsewhere at the profile's long horizon

With a ``long_diagnosis`` section in the profile (cpu.json) every checkpoint's weights are kept and
re-diagnosed at the long horizon (forward passes only, :mod:`numerics.anticollapse.gated.long_horizon`); the
checks decide on those diagnoses. ``--rediagnose-from DIR`` takes the trained runs from DIR
(``<profile>_<run>_seed<k>.pt`` and ``<profile>_<run>_seed<k>_ckpts/ckpt_*.pt``, as written by
``train_gated(save_dir=...)``) instead of training, and writes the long diagnoses to ``--cache``
(``<profile>_<run>_seed<k>_long.pt``); provenance records the commit that trained (DIR/trained_at.json)
and the one that diagnosed.

Every finished run is saved to ``--cache`` (``<run>_seed<k>.pt``, the whole GatedRun: weights, optimiser,
diagnostics) before the next one starts, so an interrupted profile resumes where it stopped (rerun the same
command; only the checks are rerun on cached runs). Output: ``REPORT/report.md``, the figures, and
``REPORT/results.json`` with the verdicts plus ``provenance`` (commit of the report, the commit(s) that
trained the runs, date, versions, machine, wall time of this invocation, per-run seconds and final loss). The cpu
profile takes about 12 minutes of 2 cores on an idle machine; the reference profile needs an accelerator.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import datetime
import json
import multiprocessing
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def _train(prof_name: str, seeds, cache: Path, device: str, workers: int) -> dict:
    """``{(run, seed): GatedRun}``, training only what ``cache`` does not hold yet."""
    import torch

    from numerics.anticollapse.gated.train import load_profile, train_gated, train_gated_in_worker

    prof = load_profile(prof_name)
    keep = prof.long is not None                  # keep every checkpoint's weights for the long diagnosis
    cache.mkdir(parents=True, exist_ok=True)
    path = lambda run, s: cache / f"{prof.name}_{run}_seed{s}.pt"  # noqa: E731
    todo = [(run, s) for s in seeds for run in prof.configs if not path(run, s).exists()]
    stamp = cache / "trained_at.json"                 # the commit whose code trained (and diagnosed) the runs
    if todo:
        old = json.loads(stamp.read_text()) if stamp.exists() else []
        stamp.write_text(json.dumps(old + [{"commit": _git("rev-parse", "HEAD"), "runs": [f"{r}/seed{s}" for r, s in todo],
                                            "date": _now()}], indent=1))
    print(f"{len(todo)} run(s) to train, {len(seeds) * len(prof.configs) - len(todo)} cached", flush=True)
    if device != "cpu" or workers == 1:
        for run, s in todo:
            torch.save(train_gated(prof.configs[run], seed=s, device=device, keep_states=keep), path(run, s))
            print(f"done {run} seed {s}", flush=True)
    elif todo:
        with cf.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            fut = {pool.submit(train_gated_in_worker, prof.configs[run], s, 1, keep): (run, s) for run, s in todo}
            for f in cf.as_completed(fut):
                run, s = fut[f]
                torch.save(f.result(), path(run, s))
                print(f"done {run} seed {s} ({time.strftime('%H:%M:%S')})", flush=True)
    return {(run, s): torch.load(path(run, s), weights_only=False) for s in seeds for run in prof.configs}


SPECS = ("long", "train_author")   # re-diagnoses: T = 8192 (ours); the final checkpoint at the training length
#                                    with the author's floors


def _rediagnose(prof_name: str, seeds, src: Path | None, cache: Path, runs: dict, workers: int) -> dict:
    """``{(run, seed): {name: [GatedDiagnostics per checkpoint], "seconds": {name: s}, "cpu_seconds": ...}}``
    for the names of ``SPECS``: every checkpoint at the profile's long horizon (ours) and at the training
    length with the author's floors (the training-time checkpoints are ours at the training length). One job
    per run and name, each saved to ``cache`` as it finishes (``<profile>_<run>_seed<k>_<name>.pt``)."""
    import torch

    from numerics.anticollapse.gated.long_horizon import load_states, rediagnose_in_worker
    from numerics.anticollapse.gated.train import load_profile

    spec = load_profile(prof_name).long
    specs = {"long": (spec, "ours"), "train_author": (None, "author")}
    path = lambda run, s, n: cache / f"{prof_name}_{run}_seed{s}_{n}.pt"  # noqa: E731
    cache.mkdir(parents=True, exist_ok=True)
    todo = [(k, n) for n in SPECS for k in runs if not path(*k, n).exists()]
    print(f"{len(todo)} re-diagnosis job(s) ({', '.join(SPECS)}; long: T = {spec.T})", flush=True)
    with cf.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        fut = {}
        for (run, s), n in todo:
            states = load_states(src / f"{prof_name}_{run}_seed{s}_ckpts") if src is not None else None
            fut[pool.submit(rediagnose_in_worker, runs[(run, s)], {n: specs[n]}, states, 1, ("train_author",))] = (run, s, n)
        for f in cf.as_completed(fut):
            torch.save(f.result(), path(*fut[f]))
            print(f"re-diagnosed {' '.join(map(str, fut[f]))}: {f.result()['cpu_seconds'][fut[f][2]]:.0f} CPU-s "
                  f"({time.strftime('%H:%M:%S')})", flush=True)
    out = {}
    for k in runs:
        parts = [torch.load(path(*k, n), weights_only=False) for n in SPECS]
        out[k] = {n: p[n] for n, p in zip(SPECS, parts)}
        out[k]["seconds"] = {n: p["seconds"][n] for n, p in zip(SPECS, parts)}
        out[k]["cpu_seconds"] = {n: p["cpu_seconds"][n] for n, p in zip(SPECS, parts)}
    return out


def _git(*a) -> str:
    return subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True).stdout.strip()


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def _provenance(runs: dict, wall: float, device: str, cache: Path, long: dict | None = None,
                src: Path | None = None) -> dict:
    import numpy
    import scipy
    import torch

    git = _git
    stamp = (src if src is not None else cache) / "trained_at.json"

    cpu = next((ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text().splitlines()
                if ln.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    return {
        "commit": git("rev-parse", "HEAD"), "dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
        "date": _now(),
        "trained_at": json.loads(stamp.read_text()) if stamp.exists() else "unknown (cache without trained_at.json)",
        "versions": {"python": platform.python_version(), "torch": torch.__version__, "numpy": numpy.__version__,
                     "scipy": scipy.__version__},
        "machine": {"platform": platform.platform(), "cpu": cpu, "cores": os.cpu_count(), "device": device},
        "wall_seconds": round(wall, 1),
        "runs": {f"{run}/seed{s}": {"seconds": round(r.seconds, 1), "relative_loss": r.relative_loss,
                                    "steps": len(r.step_loss), "task_lags": r.task.lags.tolist()}
                 for (run, s), r in runs.items()},
        **({"long_diagnosis": {"diagnosed_at": git("rev-parse", "HEAD"), "trained_in": Path(src or cache).name,
                               "wall_seconds": {f"{run}/seed{s}": {k: round(x, 1) for k, x in v["seconds"].items()}
                                                for (run, s), v in long.items()},
                               "cpu_seconds": {f"{run}/seed{s}": {k: round(x, 1) for k, x in v["cpu_seconds"].items()}
                                               for (run, s), v in long.items()},
                               "cpu_seconds_total": {k: round(sum(v["cpu_seconds"][k] for v in long.values()), 1)
                                                     for k in next(iter(long.values()))["cpu_seconds"]}}}
           if long else {}),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("profile", choices=("quick", "cpu", "reference"))
    p.add_argument("--report", required=True)
    p.add_argument("--cache", required=True, help="folder for the trained runs (resume)")
    p.add_argument("--seeds", type=int, nargs="*")
    p.add_argument("--device", default="cpu")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--rediagnose-from", type=Path, default=None,
                   help="folder of runs trained elsewhere (with _ckpts/ weights): diagnose them, do not train")
    a = p.parse_args(argv)

    from numerics.anticollapse.gated.train import load_profile
    from validation.checks import gated_rnn as g
    from validation.registry import Context, discover, select
    from validation.report import print_table, run_checks, write_report

    t0 = time.perf_counter()
    seeds = tuple(a.seeds) if a.seeds else load_profile(a.profile).seeds
    src = a.rediagnose_from
    runs = _load(a.profile, seeds, src) if src is not None else _train(a.profile, seeds, Path(a.cache), a.device,
                                                                       a.workers)
    prof = load_profile(a.profile)
    long = _rediagnose(a.profile, seeds, src, Path(a.cache), runs, a.workers) if prof.long is not None else None
    out = Path(a.report) / "results.json"
    if a.profile == "reference":                       # the three decision rules on the reference runs
        o = g.verdict_reference(g.collect(runs))
        out.parent.mkdir(parents=True, exist_ok=True)
        data = {"verdict": o.verdict, "summary": o.summary, "data": g.collect(runs)}
        print(o.verdict, o.summary)
    else:
        ctx = Context(profile="quick" if a.profile == "quick" else "cpu", report_dir=Path(a.report))
        g._CACHE[("profile", a.profile)] = _with_seeds(load_profile(a.profile), seeds)
        for (run, s), r in runs.items():
            g._CACHE[(a.profile, run, s)] = r
            if long is not None:
                g._CACHE[("long", a.profile, run, s)] = long[(run, s)]
        checks = [c for c in select(discover(), "gated_rnn.*") if c.name != "gated_rnn.reference_scale"]
        results = run_checks(checks, ctx, progress=False)
        print_table(results)
        write_report(results, ctx)
        data = {"checks": json.loads(out.read_text()) if out.exists() else []}
    if long is not None:
        data["fidelity"] = _fidelity(runs, long)
        (Path(a.report) / "fidelity.md").write_text(_fidelity_md(data["fidelity"]))
    data["provenance"] = _provenance(runs, time.perf_counter() - t0, a.device, Path(a.cache), long, src)
    data["profile"] = {"name": a.profile, "seeds": list(seeds), "file": f"benchmarks/gated_rnn/{a.profile}.json"}
    out.write_text(json.dumps(data, indent=1, default=float))
    print("wrote", out)
    return 0


_FID = ("phase", "envelope_gate_reason", "beta_tail", "beta_tail_ci", "beta_tail_r2", "tau_min", "tau_median", "n_finite_tau",
        "phase_calibrated")


def _fidelity(runs: dict, long: dict) -> dict:
    """Final checkpoint at the training length: ours (the training-time diagnosis) vs the author's floors."""
    out = {}
    for (run, s), r in runs.items():
        ours, auth = r.checkpoints[-1].summary(), long[(run, s)]["train_author"][-1].summary()
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
            "Generated by `benchmarks/gated_rnn/run_profile.py`. Ours: no floor in the envelope fit, no clamp of the "
            "transport; author: `log(max(f, 1e-30))` in the envelope fit and `log(clamp(|Gamma|, 1e-30))` before "
            "the rate fit (variant `\"author\"`). Same weights, same sequences.\n\n" + "\n".join(rows) + "\n")


def _load(prof_name: str, seeds, src: Path) -> dict:
    """The trained runs in ``src`` (``<profile>_<run>_seed<k>.pt``); a missing one is a one-line error."""
    import torch

    from numerics.anticollapse.gated.train import load_profile

    out = {}
    for s in seeds:
        for run in load_profile(prof_name).configs:
            f = src / f"{prof_name}_{run}_seed{s}.pt"
            if not f.is_file():
                raise SystemExit(f"--rediagnose-from {src}: missing {f.name}")
            out[(run, s)] = torch.load(f, weights_only=False)
    return out


def _with_seeds(prof, seeds):
    import dataclasses

    return dataclasses.replace(prof, seeds=tuple(seeds))


if __name__ == "__main__":
    sys.exit(main())
