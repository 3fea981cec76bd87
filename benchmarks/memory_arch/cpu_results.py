"""Regenerate the committed reference results of the architecture benchmark's cpu profile.

    python benchmarks/memory_arch/cpu_results.py [--out docs/results/cpu-architectures] [--store-dir validation-report]
        [--store FILE] [--sweep cpu] [--checks "architectures.*"] [--no-train | --train-only]
        [--workers 2] [--study NAME ... | --part 1..6] [--cell MODEL/KIND/ALPHA ...] [--stop-after SECONDS]
        [--group 1] [--import FILE ...] [--export FILE] [--plan-extension]

Two halves, which may run on different machines: ``--train-only`` trains the sweep into the store (in worker
processes under the pinned numerical environment, ``numerics.experiments.pinning``, unless ``--unpinned``; resumable:
every finished run is committed to the store at once, a killed command loses only the runs in flight, and a
rerun continues; ``--study`` trains only those studies, ``--stop-after`` starts no new run after that many
seconds so that a command under a wall-clock limit ends cleanly) and appends the command's wall time,
worker count and machine to ``FILE.provenance.json``; ``--no-train`` makes the report from a store without
training (the provenance file of the store, if present, goes into ``results.json``).

Runs every ``architectures.*`` check of ``python -m validation --cpu`` (training the cpu sweep
``numerics/memory_functions/bench/sweeps/cpu.json`` into the resumable store ``--store`` (default ``STORE_DIR/architectures-cpu.sqlite``) first:
about 40 min on 2 cores; an interrupted run resumes where it stopped), writes ``report.md``, the figures
and ``results.json`` to ``--out`` (the default folder's ``results.json`` is also copied to
``numerics/memory_functions/data/cpu_architectures_results.json``, the package's default for ``memory_report``), and adds
the provenance to ``results.json``: commit, date, versions, machine, wall time, and the training's CPU
time (the sum over runs of process CPU seconds: divided by 2, the wall time of the sweep on 2 otherwise
idle cores). ``--no-train`` reports on the runs already in the store (an unfinished profile: the claims whose runs are missing say *inconclusive* and name them).
``--import FILE`` (repeatable) first adds the runs of committed exports (``ResultStore.export_runs``: gzipped
JSON lines) to the store, so that a profile trained in parts resumes on a fresh machine from the committed
``docs/results/cpu-architectures/runs/part*.jsonl.gz``; ``--export FILE`` writes the selected runs that are in
the store (with ``--train-only``: those of the part / studies / cells trained) after the command.
The decision rule's seed extension (``docs/papers/memory-functions.md``, "Power"): ``--plan-extension`` reads
the report in ``--out`` and adds to ``numerics/memory_functions/bench/sweeps/SWEEP_extension.json`` (package data) every claim whose 3-seed
statistic is complete and lacks power (with its 3-seed answer and cells; a planned claim is never replanned);
``--train-only --part ext`` trains seeds 3 and 4 on those cells; the next report answers those claims with 5
seeds (``validation.checks.architectures.profile_rows``).
Round 2 (``docs/papers/memory-functions.md``, "Round 2 (pre-registered)"; the plan
``numerics/memory_functions/bench/sweeps/SWEEP_round2.json``, written by ``benchmarks/memory_arch/power.py``
before any round-2 run): ``--train-only --part r2-N`` trains one of its parts (each part completes whole
claims, cheapest first; ``--status`` lists them); the report answers each planned claim at round 1 and, once
all its round-2 runs are in, at round 2.
``--sweep NAME`` runs another sweep file of that folder under the same rules (``cpu_T256``: the claims at
T = 256, into ``docs/results/cpu-architectures-T256`` with ``--out``); ``--checks`` restricts the checks
(globs or substrings, several separated by commas: ``--checks "architectures.heads,architectures.no_single*"``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
DEFAULT_OUT = ROOT / "docs" / "results" / "cpu-architectures"
PACKAGED = ROOT / "numerics" / "memory_functions" / "data" / "cpu_architectures_results.json"   # memory_report's default


def _in_repository(out: Path | None) -> str | None:
    """``out``'s path inside the repository (posix), or None for a folder outside it."""
    if out is None or not out.resolve().is_relative_to(ROOT):
        return None
    return out.resolve().relative_to(ROOT).as_posix()


def _exclude(out: Path | None) -> list[str]:
    """git pathspec leaving out the report folder being written (its files are the output, not the code)."""
    inside = _in_repository(out)
    return [f":(exclude){inside}"] if inside else []


def provenance(wall: float, store: Path, sweep: str = "cpu", out: Path | None = None) -> dict:
    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.sweep import expand_sweep, load_sweep

    git = lambda *a: subprocess.run(["git", *a], capture_output=True, text=True, cwd=ROOT).stdout.strip()  # noqa: E731
    versions = {"python": platform.python_version()}
    for dist in ("numpy", "scipy", "torch", "mpmath", "sympy"):
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = None
    wanted = {r.run_id for r in expand_sweep(load_sweep(sweep))}
    # the planned seed extension (seeds 3, 4 of claims that lacked power) is counted apart: it is not the profile
    ext = {r.run_id for r in part_runs(sweep, "ext")} - wanted
    with ResultStore(store) as st:
        every = [r for r in st.records() if r["run_id"] in wanted | ext]
    recs, more = [r for r in every if r["run_id"] in wanted], [r for r in every if r["run_id"] in ext]
    cpu, ext_cpu = (sum(r["result"].get("cpu_seconds") or 0.0 for r in rs) for rs in (recs, more))
    return {"commit": git("rev-parse", "HEAD") or None, "dirty": bool(git("status", "--porcelain", "--untracked-files=no", "--", ".",
                                                              *_exclude(out))),
            "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "versions": versions,
            "machine": {"platform": platform.platform(), "processor": platform.processor() or platform.machine(),
                        "cpu_count": os.cpu_count()},
            "wall_seconds": round(wall, 1), "training_runs": len(recs), "profile_runs": len(wanted),
            "complete": len(recs) == len(wanted), "training_cpu_seconds": round(cpu, 1),
            "training_2core_estimate_minutes": round(cpu / 2 / 60, 1),
            "extension_runs": len(more), "extension_planned": len(ext), "extension_cpu_seconds": round(ext_cpu, 1),
            "command": "python benchmarks/memory_arch/cpu_results.py" + (f" --sweep {sweep}" if sweep != "cpu" else "")}


def _provenance_file(store: Path) -> Path:
    return Path(str(store) + ".provenance.json")


def record_training(store: Path, wall: float, workers: int, studies, summary, pinned: bool = True) -> None:
    """Append this training command's wall time, workers, machine and whether it trained under the pins
    (``numerics.experiments.pinning``; each run records its own environment too) to the store's provenance file."""
    path = _provenance_file(store)
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        entries = []
    entries.append({"date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "wall_seconds": round(wall, 1),
                    "workers": workers, "studies": studies or "all", "ran": summary.ran,
                    "already_stored": summary.skipped, "total": summary.total, "pinned": pinned,
                    "machine": {"platform": platform.platform(), "processor": platform.processor() or platform.machine(),
                                "cpu_count": os.cpu_count(), "host": platform.node()},
                    "python": platform.python_version(), "torch": _version("torch")})
    path.write_text(json.dumps(entries, indent=1), encoding="utf-8")


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


# Resumable parts of the cpu profile, in the order to run them: (study, model labels, kinds; None = all).
# Sized from single-thread measurements (docs/papers/memory-functions.md): each at most ~2.5 core-hours, i.e.
# within 90 min on 2 idle cores; part 1 holds the cheap cells of the most claims (LSTM, S4D, linear S4D,
# TCN on impulse). Estimated core-minutes: 90, 70, 145, 130, 75, 140 (about 11 core-hours in all).
PARTS = {
    "1": [("main", ("lstm", "s4d"), None), ("main", ("tcn",), ("impulse",)), ("depth", None, None),
          ("prony", None, None), ("dt_range", None, None)],
    "2": [("main", ("tcn",), None)],
    "3": [("main", ("transformer",), None)],
    "4": [("composition", None, None), ("mixed", None, None)],
    "5": [("heads", ("transformer_h2", "transformer_h4"), None), ("optimizer", None, None)],
    "6": [("heads", ("transformer_h16",), None)],
}


def select_part(runs: list, part: str | None) -> list:
    """The sweep runs of one part of ``PARTS`` (all runs when ``part`` is None; ``"ext"``: see
    :func:`selected_runs`)."""
    if part is None:
        return runs
    return [r for r in runs if any(r.study == st and (models is None or r.model in models)
                                   and (kinds is None or r.config.target.kind in kinds) for st, models, kinds in PARTS[part])]


def select_cells(runs: list, cells: list[str] | None) -> list:
    """The runs whose ``model/kind/alpha`` matches one of ``cells`` (``fnmatch`` patterns; None = all)."""
    if not cells:
        return runs
    from fnmatch import fnmatchcase

    return [r for r in runs if any(fnmatchcase(f"{r.model}/{r.config.target.kind}/{r.config.target.alpha:g}", c)
                                   for c in cells)]


def round2_parts(sweep: str) -> dict[str, list[str]]:
    """Round 2's resumable parts of ``sweep`` (name -> its claims; empty without a round-2 plan)."""
    from validation.checks.architectures import load_round2

    plan = load_round2(sweep) or {}
    return {p["name"]: list(p["claims"]) for p in plan.get("parts", [])}


def selected_runs(a) -> list:
    """The sweep runs that ``--study``, ``--part`` and ``--cell`` select."""
    from numerics.memory_functions.bench.sweep import expand_sweep, load_sweep

    from validation.checks.architectures import _dedup, extension_runs, load_extension, load_round2

    doc = load_sweep(a.sweep)
    second = round2_parts(a.sweep)
    if a.part == "ext" or a.part in second:  # a planned extension's runs (every claim's, or one part's claims')
        plan = load_extension(a.sweep) if a.part == "ext" else load_round2(a.sweep)
        planned = extension_runs(doc, plan)
        runs = _dedup([r for name, rs in planned.items() if a.part == "ext" or name in second[a.part] for r in rs])
        runs = [r for r in runs if a.study is None or r.study in a.study]
    else:
        runs = select_part(expand_sweep(doc, studies=a.study), a.part)
    return select_cells(runs, a.cell)


def part_runs(sweep: str, part: str | None) -> list:
    """The runs of one part of ``sweep`` (``"ext"``: its planned seed extension), no study or cell filter."""
    return selected_runs(argparse.Namespace(sweep=sweep, study=None, part=part, cell=None))


def exchange(a, store: Path, when: str) -> None:
    """``--import`` (``when="before"``) or ``--export`` (``"after"``) of committed run files."""
    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.runs import SCHEMA

    with ResultStore(store) as st:
        if when == "before":
            for f in a.import_runs or []:
                added, had = st.import_runs(f, (SCHEMA,))
                print(f"imported {f}: {added} runs added, {had} already stored")
        elif a.export:
            n = st.export_runs(a.export, [r.run_id for r in selected_runs(a)])
            print(f"exported {n} runs to {a.export}")


def train(a, store: Path) -> int:
    """``--train-only``: the sweep (or some studies or a part of it) into ``store``, then its provenance entry."""
    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.sweep import run_sweep

    runs = selected_runs(a)
    t0 = time.perf_counter()
    with ResultStore(store) as st:
        s = run_sweep(runs, st, workers=a.workers, threads=1, progress=sys.stderr.isatty(),
                      stop_after=a.stop_after, group=a.group, pin=not a.unpinned)
        have = len(st.done_ids() & {r.run_id for r in runs})
    record_training(store, time.perf_counter() - t0, a.workers, a.study or (f"part {a.part}" if a.part else None), s,
                    pinned=not a.unpinned)
    print(f"{s.total} runs: {s.skipped} already stored, {s.ran} run now; {have}/{s.total} done "
          f"({time.perf_counter() - t0:.0f} s on {a.workers} workers)")
    return 0


def _cost_keys(config: dict) -> dict[str, str]:
    """A run's cost keys: its cell (the config but the seed) and its model."""
    d = dict(config, train={k: v for k, v in config["train"].items() if k != "seed"})
    return {"cell": json.dumps(d, sort_keys=True), "model": json.dumps(d["model"], sort_keys=True)}


def _cpu_left(runs: list, cpu_of: dict, elsewhere: list | tuple = ()) -> float | None:
    """CPU seconds the runs of ``runs`` missing from ``cpu_of`` (run id -> CPU seconds) will take: each at the mean
    of its cell's stored runs (the same config but the seed), else of its model's, first among the part's own
    stored runs, then among ``elsewhere`` ((config dict, CPU seconds) of the store's other runs: round 1's cells,
    other parts), else at the mean of every stored run of the part (cells differ by 4x: a 3-layer LSTM against
    a 1-layer one; a part's first runs may all be of its dearest model). None when there is nothing to go on:
    none of the part's runs stored and some missing run with neither its cell nor its model elsewhere."""
    own: dict[str, dict[str, list]] = {"cell": {}, "model": {}}
    other: dict[str, dict[str, list]] = {"cell": {}, "model": {}}
    for r in runs:
        if r.run_id in cpu_of:
            for level, k in _cost_keys(r.config.to_dict()).items():
                own[level].setdefault(k, []).append(cpu_of[r.run_id])
    for config, cpu in elsewhere:
        for level, k in _cost_keys(config).items():
            other[level].setdefault(k, []).append(cpu)
    stored = [cpu_of[r.run_id] for r in runs if r.run_id in cpu_of]
    left = 0.0
    for r in runs:
        if r.run_id not in cpu_of:
            k = _cost_keys(r.config.to_dict())
            have = (own["cell"].get(k["cell"]) or own["model"].get(k["model"])
                    or other["cell"].get(k["cell"]) or other["model"].get(k["model"]) or stored)
            if not have:
                return None
            left += statistics.fmean(have)
    return left


def status(a, store: Path) -> int:
    """``--status``: per part of ``PARTS`` (and the planned seed extension), how many of its runs the store holds,
    the CPU seconds they took, and an estimate of the CPU hours its missing runs will take (:func:`_cpu_left`, from
    the part's stored runs and the store's others: import round 1's files into the store for a part not yet
    begun; "-": nothing to estimate from); nothing is trained."""
    from numerics.experiments.store import ResultStore

    rows, every = [], set()
    with ResultStore(store) as st:
        records = st.records()
    cost = {r["run_id"]: float((r["result"] or {}).get("cpu_seconds") or 0.0) for r in records}
    for part in [*sorted(PARTS), "ext", *round2_parts(a.sweep)]:
        runs = list({r.run_id: r for r in part_runs(a.sweep, part)}.values())
        ids = {r.run_id for r in runs}
        done = ids & cost.keys()
        elsewhere = [(r["config"], cost[r["run_id"]]) for r in records if r["run_id"] not in ids]
        left = _cpu_left(runs, {i: cost[i] for i in done}, elsewhere)
        est = "-" if left is None else f"{left / 3600:.1f}"
        rows.append(f"| {part} | {len(done)} / {len(ids)} | {sum(cost[i] for i in done) / 3600:.1f} "
                    f"| {est} |")
        every |= ids if part in PARTS else set()
    have = every & cost.keys()                # parts share runs (composition reuses main's): count each once
    print("| part | runs stored | CPU hours | CPU hours left (est.) |\n|---|---|---|---|\n" + "\n".join(rows)
          + f"\n| the 3-seed profile | {len(have)} / {len(every)} | {sum(cost[i] for i in have) / 3600:.1f} | |")
    return 0


def plan(a) -> int:
    """``--plan-extension``: the rule's seed extension from the report in ``--out``, planned per claim as soon as
    that claim's 3-seed answer is in (all its runs stored; an unfinished claim has no cells and is left for a
    later call). A claim already in the plan is never replanned: seeds 3 and 4 once, no further seeds after
    looking."""
    from validation.checks.architectures import extension_path, plan_extension

    results = Path(a.out) / "results.json"
    if not results.is_file():
        print(f"cpu_results.py --plan-extension: no report at {results} (write it first: --no-train --out "
              f"{a.out})", file=sys.stderr)
        return 2
    path = extension_path(a.sweep)
    doc = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {
        "rule": "docs/papers/memory-functions.md, 'The decision rule', Power: claims whose statistic lacks power "
                "at 3 seeds get seeds 3 and 4 on every cell it read, once; the 5-seed statistic is the answer",
        "seeds": [3, 4], "claims": {}}
    report = json.loads(results.read_text(encoding="utf-8"))
    prov = report.get("provenance") or {}
    stamp = {"report": _report_name(Path(a.out)), "commit": prov.get("commit"), "date": prov.get("date")}
    fresh = plan_extension(report["results"], seeds=tuple(doc["seeds"]))["claims"]
    added = {name: {**c, "planned_from": stamp} for name, c in fresh.items() if name not in doc["claims"]}
    doc["claims"].update(added)
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"{path.relative_to(ROOT)}: {len(added)} claim(s) added (lacking power at 3 seeds): "
          f"{', '.join(added) or '-'}; {len(doc['claims'])} planned in all")
    return 0


def _report_name(out: Path) -> str:
    """How a plan names its report: the path inside the repository (a committed report: the plan, also
    committed, then points at it on any machine), else the path as given (a machine-local interim report)."""
    return _in_repository(out) or str(out)


def _previous_provenance(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("provenance") or {}
    except (OSError, ValueError, AttributeError):
        return {}


def main(argv=None) -> int:
    os.environ.setdefault("MPLBACKEND", "Agg")
    from validation.registry import Context, discover, select
    from seqtheory.cli.validate import print_table
    from validation.report import any_failed, run_checks, write_report

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", help="report folder (default for --sweep cpu: the committed one, whose results.json is "
                   "also copied to the package's numerics/<DATA>/; for another sweep: docs/results/"
                   "cpu-architectures-SWEEP, which the packaged answers do not read)")
    p.add_argument("--store-dir", default=str(ROOT / "validation-report"))
    p.add_argument("--no-train", action="store_true", help="report on the stored runs only (unfinished profile)")
    p.add_argument("--sweep", default="cpu", help="packaged sweep numerics/memory_functions/bench/sweeps/SWEEP.json run under the cpu "
                                                   "profile's rules (e.g. cpu_T256: the longer-sequence runs)")
    p.add_argument("--checks", default="architectures.*", help="which checks to run (glob or substring, several separated by commas; default: every architecture claim)")
    p.add_argument("--store", help="the result store (default: STORE_DIR/architectures-SWEEP.sqlite)")
    p.add_argument("--train-only", action="store_true", help="train into the store, write no report")
    p.add_argument("--workers", type=int, default=2, help="worker processes, one torch thread each")
    p.add_argument("--study", action="append", help="with --train-only: only this study (repeatable)")
    p.add_argument("--part", help="with --train-only: one resumable part of the profile (1-6; ext: the seed "
                   "extension planned by --plan-extension; r2-N: a part of the pre-registered round 2)")
    p.add_argument("--plan-extension", action="store_true", help="write the seed-extension plan from the report "
                   "in --out (the claims whose statistic lacks power at 3 seeds) and stop")
    p.add_argument("--status", action="store_true", help="print how many runs of each part the store holds "
                   "(after --import) and stop")
    p.add_argument("--cell", action="append", help="with --train-only: only the runs whose MODEL/KIND/ALPHA "
                   "matches this pattern (repeatable; e.g. 'lstm/exp/0.5', 's4d/*/0.5')")
    p.add_argument("--stop-after", type=float, help="with --train-only: start no new run after this many seconds")
    p.add_argument("--import", dest="import_runs", action="append", metavar="FILE",
                   help="first add the runs of this export (gzipped JSON lines) to the store (repeatable)")
    p.add_argument("--export", metavar="FILE", help="write the selected runs in the store to FILE (gzipped JSON lines)")
    p.add_argument("--group", type=int, default=1, help="seeds per vmapped Adam group (1: every run alone, the "
                                                         "shortest jobs, least lost at a wall-clock cut)")
    p.add_argument("--unpinned", action="store_true", help="with --train-only: train in this machine's numerical "
                   "environment as it is (round 1 did), not in worker processes under the pinned one "
                   "(numerics.experiments.pinning: the same results on every x86-64 machine)")
    a = p.parse_args(argv)
    from numerics.memory_functions.bench.sweep import SWEEPS

    if not (SWEEPS / f"{a.sweep}.json").is_file():
        p.error(f"--sweep {a.sweep!r}: no packaged sweep {SWEEPS / (a.sweep + '.json')}")
    if a.out is None:                 # another sweep's report never overwrites the profile's committed one
        a.out = str(DEFAULT_OUT if a.sweep == "cpu" else DEFAULT_OUT.with_name(f"cpu-architectures-{a.sweep}"))
    parts = [*sorted(PARTS), "ext", *round2_parts(a.sweep)]
    if a.part is not None and a.part not in parts:
        p.error(f"--part {a.part!r}: one of {', '.join(parts)}")
    if a.no_train and a.train_only:
        p.error("--no-train and --train-only exclude each other")
    if a.workers < 1 or a.group < 1:
        p.error(f"--workers and --group must be >= 1, got {a.workers} and {a.group}")
    if a.plan_extension:              # reads the report in --out only: no store needed
        return plan(a)
    store = Path(a.store) if a.store else Path(a.store_dir) / f"architectures-{a.sweep}.sqlite"
    if not store.parent.is_dir():
        p.error(f"--store {str(store)!r}: folder {str(store.parent)!r} does not exist")
    if a.status:
        exchange(a, store, "before")
        return status(a, store)
    exchange(a, store, "before")
    if a.train_only:
        rc = train(a, store)
        exchange(a, store, "after")
        return rc
    if a.export:
        exchange(a, store, "after")
    ctx = Context(profile="cpu", report_dir=Path(a.out), store=store, workers=a.workers, train=not a.no_train,
                  sweep=a.sweep)
    before = _previous_provenance(Path(a.out) / "results.json")
    t0 = time.perf_counter()
    results = run_checks(select(discover(), a.checks), ctx, progress=sys.stderr.isatty())
    print_table(results)
    write_report(results, ctx)
    path = Path(a.out) / "results.json"
    data = json.loads(path.read_text())
    meta = provenance(time.perf_counter() - t0, store, a.sweep, Path(a.out).resolve())
    try:
        meta["training_commands"] = json.loads(_provenance_file(store).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        meta["training_commands"] = None
    # the wall time of the training: this run's, or (--no-train on the same runs) the run that trained them
    same = before.get("training_cpu_seconds") == meta["training_cpu_seconds"]
    meta["training_wall_seconds"] = (before.get("training_wall_seconds", before.get("wall_seconds"))
                                     if a.no_train and same else meta["wall_seconds"])
    data = {**data, "provenance": meta} if isinstance(data, dict) else {"provenance": meta, "results": data}
    path.write_text(json.dumps(data, indent=1, default=str), encoding="utf-8")
    if path.resolve() == (DEFAULT_OUT / "results.json").resolve():     # the package ships a copy (memory_report)
        PACKAGED.write_bytes(path.read_bytes())
        print(f"wrote {PACKAGED.relative_to(ROOT)} (the packaged copy)")
    print(f"wrote {a.out}: wall {meta['wall_seconds']:.0f} s, training CPU {meta['training_cpu_seconds']:.0f} s "
          f"(~{meta['training_2core_estimate_minutes']} min on 2 idle cores), and the seed extension's "
          f"{meta['extension_runs']}/{meta['extension_planned']} runs {meta['extension_cpu_seconds']:.0f} s")
    return 1 if any_failed(results) else 0


if __name__ == "__main__":
    sys.exit(main())
