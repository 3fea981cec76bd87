"""``seqtheory sweep {list,run,status,plot,export} ...``: list the shipped sweeps; run, inspect, plot or export a sweep.

``SWEEP`` is a sweep file or the name of a shipped sweep (``seqtheory sweep list``): ``arch/NAME`` for the
architecture sweeps, ``gated/NAME`` for the gated-RNN sweeps, or a bare ``NAME`` that only one kind ships
(``quick`` and ``cpu`` exist in both: an ambiguous bare name is an error naming both). A sweep file is either an architecture sweep (``numerics/memory_functions/bench/sweeps/*.json``, a ``"studies"`` object:
:mod:`numerics.memory_functions.bench.sweep`) or a gated-RNN sweep (``numerics/anticollapse/gated/sweeps/*.json``, a ``"runs"``
object: :mod:`numerics.anticollapse.gated.sweep`, training then the re-diagnoses of the stored weights). Both run
through the experiment engine (:mod:`numerics.experiments.engine`): content-addressed runs in a SQLite store,
resumable, kill-safe, on a local process pool or Dask (``--dask local`` or a scheduler address)::

    seqtheory sweep list
    seqtheory sweep run    SWEEP --store results.sqlite [--workers 2] [--dask local|ADDRESS]
    seqtheory sweep status SWEEP --store results.sqlite
    seqtheory sweep plot   SWEEP --store results.sqlite --out figures/
    seqtheory sweep export SWEEP --store results.sqlite --csv results.csv

A bad file, field, option or store is one line on stderr naming it, exit status 2.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

from ._json import dumps
from ._parser import OneLineParser, fail, positive

_HELP = {"list": "the shipped sweeps: name, kind, runs", "run": "train the pending runs into the store (resumable)", "status": "runs done per study or run",
         "plot": "the sweep's figures from the store", "export": "one CSV row per stored run"}
_GROUP = 10     # numerics.memory_functions.bench.sweep.GROUP (not imported: the parser must load fast)
# name prefix -> (kind, the package whose sweeps/ folder ships them, the key that makes a file of that kind)
KINDS = {"arch": ("architectures", "numerics.memory_functions.bench", "studies"),
         "gated": ("gated-rnn", "numerics.anticollapse.gated", "runs")}


def _parser(prog: str) -> OneLineParser:
    p = OneLineParser(prog=prog, description="Run, inspect, plot or export a sweep (architecture or gated-RNN).")
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    q = sub.add_parser("list", help=_HELP["list"], description=_HELP["list"])
    q.add_argument("--json", action="store_true", help="print JSON")
    for name in ("run", "status", "plot", "export"):
        q = sub.add_parser(name, help=_HELP[name], description=_HELP[name])
        q.add_argument("sweep", metavar="SWEEP",
                       help="a sweep file (JSON) or a shipped sweep's name: arch/NAME, gated/NAME, or a bare NAME "
                            "only one kind ships (seqtheory sweep list)")
        q.add_argument("--store", required=True,
                       help="SQLite result store (run creates it; status/plot/export only read it)")
        q.add_argument("--study", action="append", help="only this study (repeatable; architecture sweeps)")
        if name == "run":
            q.add_argument("--workers", type=positive, default=1, help="parallel runs (process pool or Dask workers)")
            q.add_argument("--threads", type=positive, default=1, help="torch threads per run")
            q.add_argument("--device", default="cpu", help="torch device of the runs (cpu, cuda)")
            q.add_argument("--dask", metavar="local|ADDRESS", help="run on Dask: a local cluster or a scheduler")
            q.add_argument("--limit", type=positive, help="run at most this many pending runs")
            q.add_argument("--group", type=positive, default=_GROUP,
                           help=f"runs trained as one vmapped group (default {_GROUP}; architecture sweeps); each run "
                                "is stored as its job finishes, so a kill loses at most the jobs in flight (1: one "
                                "run per worker)")
            q.add_argument("--stop-after", type=positive, metavar="SECONDS",
                           help="start no new job after this many seconds (in-flight jobs finish; rerun resumes)")
            q.add_argument("--no-progress", action="store_true", help="no progress bar")
        q.add_argument("--json", action="store_true", help="print JSON (every subcommand)")
        if name == "plot":
            q.add_argument("--out", default="figures", help="output directory for PNGs")
        if name == "export":
            q.add_argument("--csv", metavar="FILE", required=True,
                           help="write one row per stored run of the sweep ('-' for standard output)")
    return p


def main(argv: list[str] | None = None, *, prog: str = "seqtheory sweep") -> int:
    """The command line (see the module docstring)."""
    args = _parser(prog).parse_args(argv)
    if args.cmd == "list":
        return _list(args.json)
    try:
        sweep = _load(args)
    except (TypeError, ValueError) as exc:
        msg = str(exc)
        return fail(prog, msg if str(args.sweep) in msg else f"{args.sweep}: {msg}")
    if args.cmd == "status" and not Path(args.store).exists():
        sweep.status(None, args.json)
        if not args.json:
            print(f"(store {args.store} does not exist yet: nothing run)")
        return 0
    from numerics.experiments.store import ResultStore, StoreError

    try:
        store = ResultStore(args.store, create=args.cmd == "run")
    except StoreError as exc:
        return fail(prog, str(exc))
    except (TypeError, ValueError) as exc:     # --store "": not a path at all
        return fail(prog, f"--store {args.store!r}: {exc}")
    try:
        with store:
            return _command(args, sweep, store, prog)
    except sqlite3.DatabaseError as exc:       # damage found past the pages that opening the store reads
        return fail(prog, f"store {args.store!r} is damaged or locked ({exc})")
    except (TypeError, ValueError) as exc:     # a bad option value (--device), found before any run starts
        return fail(prog, str(exc))
    except (OSError, TimeoutError) as exc:     # an unreachable Dask scheduler, a full disk
        return fail(prog, f"{exc.strerror or exc}" if isinstance(exc, OSError) else str(exc) or "timed out")


def shipped_sweeps() -> dict[str, tuple[str, Path]]:
    """``{"arch/cpu": ("architectures", path), "gated/cpu": ("gated-rnn", path), ...}``: every sweep the
    packages ship (``sweeps/*.json`` of each kind's package; a file that is not a sweep of its kind, such as an
    extension plan, is left out)."""
    from theory._data import package_path

    out = {}
    for prefix, (kind, package, key) in KINDS.items():
        for path in sorted(package_path(package, "sweeps").glob("*.json")):
            doc = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(doc, dict) and key in doc:
                out[f"{prefix}/{path.stem}"] = (kind, path)
    return out


def resolve(sweep: str) -> str:
    """The file of ``sweep``: an existing file as given, a shipped sweep's name (``arch/cpu``, ``gated/cpu``,
    or a bare name that only one kind ships) as its packaged file; an unknown or ambiguous name is a
    ValueError listing the names."""
    if Path(sweep).is_file():
        return sweep
    shipped = shipped_sweeps()
    if sweep in shipped:
        return str(shipped[sweep][1])
    if sweep.endswith(".json") or sweep.count("/") > 1:      # a path, not a name
        raise ValueError(f"sweep {sweep!r}: no such file (the shipped sweeps, by name: {', '.join(shipped)})")
    matches = [q for q in shipped if q.partition("/")[2] == sweep]
    if len(matches) == 1:
        return str(shipped[matches[0]][1])
    if matches:
        raise ValueError(f"sweep {sweep!r} is ambiguous: {' or '.join(matches)} (name the kind; the shipped "
                         f"sweeps: {', '.join(shipped)})")
    raise ValueError(f"sweep {sweep!r}: no such file or shipped sweep (the shipped sweeps: {', '.join(shipped)}; "
                     "seqtheory sweep list)")


def _run_counts(kind: str, path: Path) -> dict[str, int]:
    """The runs a shipped sweep stores, without PyTorch: architecture sweeps, the distinct configs of the grid
    (a run two studies share counts once); gated sweeps, runs x seeds trainings and, with a long diagnosis,
    each training's re-diagnoses (:data:`numerics.anticollapse.gated.sweep.DIAGNOSES`)."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    if kind == "architectures":
        from numerics.memory_functions.bench.sweep import sweep_grid

        configs = {json.dumps(c, sort_keys=True) for *_, c in sweep_grid(doc)}
        return {"runs": len(configs), "studies": len(doc["studies"])}
    from numerics.anticollapse.gated.sweep import DIAGNOSES

    trainings = len(doc["runs"]) * len(doc["seeds"])
    diagnoses = trainings * len(DIAGNOSES) if doc.get("long_diagnosis") else 0
    return {"runs": trainings + diagnoses, "trainings": trainings, "diagnoses": diagnoses}


def _list(as_json: bool) -> int:
    from ._json import dumps

    rows = [{"name": name, "kind": kind, **_run_counts(kind, path),
             "description": json.loads(path.read_text(encoding="utf-8")).get("description", "")}
            for name, (kind, path) in shipped_sweeps().items()]
    if as_json:
        print(dumps(rows, indent=1))
        return 0
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        what = (f"{r['trainings']} trainings + {r['diagnoses']} diagnoses" if r["kind"] == "gated-rnn"
                else f"{r['studies']} stud{'y' if r['studies'] == 1 else 'ies'}")
        print(f"{r['name']:<{width}}  {r['kind']:<13}  {r['runs']:>5} runs  ({what})")
    print("(bare names work where only one kind ships the name: seqtheory sweep status full --store s.sqlite)")
    return 0


def _load(args):
    """The sweep of ``args.sweep`` (:func:`resolve`): an architecture sweep ("studies") or a gated-RNN sweep
    ("runs")."""
    from numerics.memory_functions.bench.sweep import load_sweep

    path = resolve(args.sweep)
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError):
        doc = None                             # load_sweep names the problem
    if isinstance(doc, dict) and "runs" in doc and "studies" not in doc:
        from numerics.anticollapse.gated.sweep import load_gated_sweep

        if args.study:
            raise ValueError("--study applies to architecture sweeps (this is a gated-RNN sweep: its runs are 'runs')")
        return _Gated(load_gated_sweep(path))
    from numerics.memory_functions.bench.sweep import expand_sweep

    return _Architectures(expand_sweep(load_sweep(path), studies=args.study))


def _command(args, sweep, store, prog: str) -> int:
    if args.cmd == "run":
        from numerics._torch import as_device
        from numerics.experiments.executors import make_executor

        as_device(args.device, name="--device")         # before a Dask cluster starts
        executor, close = make_executor(args.dask, args.workers)
        try:
            summaries = sweep.run(store, args, executor)
        finally:
            close()
        _print_run(summaries, len(store), args.json)
    elif args.cmd == "status":
        sweep.status(store, args.json)
    elif args.cmd == "export":
        return _write_csv(sweep.rows(store), sweep.HEADER, args.csv, prog, args.json)
    else:
        out = Path(args.out)
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return fail(prog, f"cannot create the output folder {str(out)!r}: {exc.strerror or exc}")
        paths = [str(path) for path in sweep.plot(store, out)]
        print(dumps({"figures": paths}) if args.json else "\n".join(f"wrote {path}" for path in paths))
    return 0


def _print_run(summaries: dict, stored: int, as_json: bool) -> None:
    """One line per stage (a gated sweep has two: training and diagnoses)."""
    if as_json:
        out = {k: {"total": s.total, "skipped": s.skipped, "ran": s.ran, "elsewhere": s.elsewhere}
               for k, s in summaries.items()}
        print(dumps({**(out["runs"] if list(out) == ["runs"] else out), "stored": stored}))
        return
    for stage, s in summaries.items():
        busy = f", {s.elsewhere} being run by another sweep" if s.elsewhere else ""
        what = "runs" if stage == "runs" else f"{stage} runs"
        print(f"{s.total} {what}: {s.skipped} already stored, {s.ran} run now{busy}; store has {stored}")


class _Architectures:
    """An architecture sweep (a list of ``SweepRun``)."""

    HEADER = ("study", "model", "train_variant", "run_id")

    def __init__(self, runs):
        self.runs = runs

    def run(self, store, args, executor) -> dict:
        from numerics.memory_functions.bench.sweep import run_sweep

        return {"runs": run_sweep(self.runs, store, executor=executor, workers=args.workers, threads=args.threads,
                                  device=args.device, progress=not args.no_progress, limit=args.limit,
                                  stop_after=args.stop_after, group=args.group)}

    def status(self, store, as_json: bool) -> None:
        done = set() if store is None else store.done_ids()
        by_study: dict[str, dict[str, int]] = {}
        for r in self.runs:
            c = by_study.setdefault(r.study, {"done": 0, "total": 0})
            c["done"] += r.run_id in done
            c["total"] += 1
        _print_status(by_study, as_json)

    def rows(self, store) -> list[dict]:
        """Study and labels first, then the flattened config and result."""
        out = []
        for r in self.runs:
            rec = store.get(r.run_id)
            if rec is not None:
                out.append({"study": r.study, "model": r.model, "train_variant": r.train_variant, "run_id": r.run_id,
                            **_flat(rec["config"], "config"), **_flat(rec["result"], "result")})
        return out

    def plot(self, store, out: Path) -> list[Path]:
        from numerics.memory_functions.bench.aggregate import collect
        from numerics.memory_functions.bench.plots import plot_alpha_curves, plot_heatmap
        from numerics.memory_functions.bench.runs import KINDS

        rows, paths = collect(self.runs, store), []
        for study in dict.fromkeys(r["study"] for r in rows):
            sr = [r for r in rows if r["study"] == study and r["kind"] in KINDS]
            if sr:
                p = [_inside(out, f"{study}_relmse_vs_alpha.png"), _inside(out, f"{study}_heatmap.png")]
                plot_alpha_curves(sr, p[0], title=study)
                plot_heatmap(sr, p[1], title=study)
                paths += p
        return paths


class _Gated:
    """A gated-RNN sweep (training, then the re-diagnoses of the stored weights)."""

    HEADER = ("run", "seed", "stage")

    def __init__(self, sweep):
        self.sweep = sweep

    def run(self, store, args, executor) -> dict:
        from numerics.anticollapse.gated.sweep import run_gated_sweep

        s = run_gated_sweep(self.sweep, store, executor=executor, workers=args.workers, threads=args.threads,
                            device=args.device, progress=not args.no_progress, limit=args.limit,
                            stop_after=args.stop_after)
        return {"training": s["train"], "diagnosis": s["diagnosis"]}

    def status(self, store, as_json: bool) -> None:
        from numerics.anticollapse.gated.sweep import run_status

        _print_status(run_status(self.sweep, store), as_json)

    def rows(self, store) -> list[dict]:
        """One row per stored training and diagnosis: its labels, then its final checkpoint's summary."""
        from numerics.anticollapse.gated.sweep import gated_results
        from numerics.anticollapse.spectra import record_summary

        out = []
        for (run, seed), rec in gated_results(self.sweep, store).items():
            for stage, res in rec.items():
                if res is not None:
                    extra = {"relative_loss": res["relative_loss"]} if stage == "train" else {}
                    out.append({"run": run, "seed": seed, "stage": stage, **extra,
                                **_flat(record_summary(res["checkpoints"][-1]), "final")})
        return out

    def plot(self, store, out: Path) -> list[Path]:
        """Per seed, the final diagnoses of every run (the long horizon where the sweep has it)."""
        from numerics.anticollapse.figures import plot_spectra
        from numerics.anticollapse.gated.sweep import gated_results

        rec, paths = gated_results(self.sweep, store), []
        for seed in self.sweep.seeds:
            finals = {run: (rec[(run, seed)]["long"] or rec[(run, seed)]["train"])["checkpoints"][-1]
                      for run in self.sweep.configs if rec[(run, seed)]["train"] is not None}
            if finals:
                paths.append(_inside(out, f"{self.sweep.name}_seed{seed}_spectra.png"))
                plot_spectra(paths[-1], finals)
        return paths


def _print_status(counts: dict[str, dict[str, int]], as_json: bool) -> None:
    if as_json:
        print(dumps(counts))
        return
    for name, c in counts.items():
        print(f"{name:<20} {c['done']:>5}/{c['total']} done")


def _write_csv(rows: list[dict], header: tuple[str, ...], dest: str, prog: str, as_json: bool = False) -> int:
    """The rows as CSV (``header``: the columns of an empty export); ``as_json``: the summary line as JSON (to
    standard output, the CSV itself then needs a file)."""
    if as_json and dest == "-":
        return fail(prog, "--json prints the export's summary: give --csv a file, not '-'")
    import csv

    fields = list(dict.fromkeys(k for row in rows for k in row)) or list(header)
    if dest == "-":
        fh, close = sys.stdout, False
    else:
        try:
            fh, close = open(dest, "w", newline="", encoding="utf-8"), True
        except OSError as exc:
            return fail(prog, f"cannot write {dest!r}: {exc.strerror or exc}")
    try:
        w = csv.DictWriter(fh, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        fh.flush()
    except OSError as exc:      # a full disk (/dev/full), a closed pipe
        return fail(prog, f"cannot write {dest!r}: {exc.strerror or exc}")
    finally:
        if close:
            try:
                fh.close()
            except OSError:
                pass
    if as_json:
        print(dumps({"rows": len(rows), "csv": dest}))
    elif dest != "-":
        print(f"wrote {len(rows)} rows to {dest}")
    return 0


def _flat(obj: Any, prefix: str) -> dict:
    if isinstance(obj, dict):
        return {k2: v2 for k, v in obj.items() for k2, v2 in _flat(v, f"{prefix}.{k}").items()}
    return {prefix: json.dumps(obj) if isinstance(obj, list) else obj}


def _inside(folder: Path, name: str) -> Path:
    """``folder / name``, refusing any name that would resolve outside ``folder``."""
    path = (folder / name).resolve()
    if path.parent != folder.resolve():
        raise ValueError(f"figure name {name!r} would be written outside {str(folder)!r}")
    return path
