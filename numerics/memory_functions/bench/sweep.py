"""Sweeps: plain lists of run configs, executed into a resumable SQLite store, locally or distributed.

A sweep file (JSON, zoology / mad-lab style; see the packaged ``numerics/memory_functions/bench/sweeps/quick.json``, :data:`SWEEPS`) is a set of named
*studies*, each a grid expanded into plain run configs::

    {"name": "...", "defaults": {"target": {"T": 64, ...}, "train": {"steps": 300, ...}},
     "studies": {"main": {"models": {"lstm": {"arch": "lstm"}, ...}, "kinds": ["exp", "poly"],
                          "alphas": [0.25, 1.0], "seeds": [0, 1],
                          "target": {...}, "train": {...},          # optional overrides
                          "trains": {"adam": {}, "adamw": {"optimizer": "adamw"}},   # optional variants
                          "mix": ["exp", "impulse"], "lams": [0, 0.5, 1],          # kinds = ["mixed"]
                          "polish": {"f32_iters": 1000}}}}    # optional: the certified L-BFGS polish

``defaults`` may hold ``polish`` too (``numerics.memory_functions.bench.polish.PolishSpec`` fields); a study's
``polish`` updates it, and ``"polish": null`` runs that study without one.

:func:`run_sweep` dedups by run id, skips ids already in the store (resume), packs runs that differ only in
seed and target into vmapped groups of up to ``GROUP`` (``numerics.memory_functions.bench.grouped``), submits the jobs to any
``concurrent.futures.Executor`` (a process pool, or Dask's ``Client.get_executor()``; inline when none), and
writes each result as it completes (one transaction each) behind a tqdm progress bar: the experiment
engine, :mod:`numerics.experiments.engine`. Labels and study names are not part of the run id: the store is a
cache of experiments; the sweep file gives them meaning (:func:`numerics.memory_functions.bench.aggregate.collect`
joins the two). The command line is ``seqtheory sweep`` (:mod:`seqtheory.cli.sweep`).
"""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import functools
import json
import re
from pathlib import Path
from typing import Any, Iterable, Iterator

from numerics.experiments.engine import MAX_WORKERS, SweepSummary, pending_runs, run_jobs
from numerics.experiments.store import ResultStore
from theory._args import as_int, as_path
from theory._data import package_path

from .runs import RunConfig, execute_run
# the packaged sweep files quick / cpu / full (package data: a wheel has them; the validation profiles read them)
SWEEPS = package_path("numerics.memory_functions.bench", "sweeps")
GROUP = 10       # seeds x targets of one model: vmap's gain levels off beyond ~10 members (bench_training.py)
_STUDY_FIELDS = ("models", "kinds", "alphas", "seeds", "target", "train", "trains", "mix", "lams", "description",
                 "polish")


@dataclasses.dataclass(frozen=True)
class SweepRun:
    """One expanded grid point: where it comes from (study, labels) and what it is (config)."""

    study: str
    model: str
    train_variant: str
    config: RunConfig

    @property
    def run_id(self) -> str:
        return self.config.run_id


_STUDY_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


def check_study_name(name: Any, where: str = "study name") -> str:
    """A study name becomes part of figure file names: letters, digits, '_', '.', '-', no '..' (no paths).

    >>> check_study_name("main")
    'main'
    >>> check_study_name("../escaped")
    Traceback (most recent call last):
    ...
    ValueError: study name '../escaped': use letters, digits, '_', '.', '-' (no path separators, no '..')
    """
    if not isinstance(name, str) or not _STUDY_NAME.match(name) or ".." in name:
        raise ValueError(f"{where} {name!r}: use letters, digits, '_', '.', '-' (no path separators, no '..')")
    return name


def _sweep_file(name_or_path: str | Path) -> Path:
    """The file of a packaged sweep given by name (``"quick"``, ``"cpu"``, ``"full"``: :data:`SWEEPS`), or
    ``name_or_path`` itself when it names a ``.json`` file or a path."""
    path = Path(as_path("path", name_or_path))
    if path.suffix == ".json" or len(path.parts) > 1:
        return path
    return SWEEPS / f"{path.name}.json"


def load_sweep(path: str | Path) -> dict:
    """Read a sweep file, or a packaged sweep by name (:func:`_sweep_file`); every problem is a ``ValueError``
    whose message names the file (and the field). ``path`` is a ``str`` or ``os.PathLike`` (anything else,
    e.g. a file descriptor, is a ``TypeError``)."""
    path = _sweep_file(path)
    where = f"sweep file path={path!r}"
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except FileNotFoundError:
        raise ValueError(f"{where}: not found") from None
    except IsADirectoryError:
        raise ValueError(f"{where}: is a folder") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{where}: not a UTF-8 text file") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("studies"), dict):
        raise ValueError(f"{where}: a sweep file is a JSON object with a 'studies' object")
    for name in doc["studies"]:
        check_study_name(name, where=f"{path}: study name")
    return doc


def sweep_grid(doc: dict, *, studies: Iterable[str] | None = None) -> Iterator[tuple[str, str, str, dict]]:
    """The grid points of the sweep document as ``(study, model label, train label, config dict)``, in file
    order, before any config is built (so without PyTorch: ``seqtheory sweep list`` counts them)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("studies"), dict):
        raise ValueError("doc: a sweep must be a dict with a 'studies' dict")
    if studies is not None and (not isinstance(studies, (list, tuple, set, frozenset))
                                or not all(isinstance(s, str) for s in studies)):
        raise TypeError(f"studies must be None or a list of study names (str), got {studies!r:.60}")
    defaults = doc.get("defaults", {})
    extra = set(defaults) - {"target", "train", "polish"}
    if extra:
        raise ValueError(f"sweep.defaults: unknown field(s) {sorted(extra)}; allowed: target, train, polish")
    wanted = None if studies is None else set(studies)
    if wanted is not None and wanted - set(doc["studies"]):
        raise ValueError(f"unknown study name(s) {sorted(wanted - set(doc['studies']))}; "
                         f"the sweep has {sorted(doc['studies'])}")
    for name, st in doc["studies"].items():
        if wanted is None or name in wanted:
            yield from _study_grid(name, st, defaults)


def _study_grid(name: str, st: Any, defaults: dict) -> Iterator[tuple[str, str, str, dict]]:
    where = f"studies.{name}"
    if not isinstance(st, dict):
        raise TypeError(f"{where} must be a dict")
    extra = set(st) - set(_STUDY_FIELDS)
    if extra:
        raise ValueError(f"{where}: unknown field(s) {sorted(extra)}; allowed: {list(_STUDY_FIELDS)}")
    for key in ("models", "kinds", "alphas", "seeds"):
        if key not in st:
            raise ValueError(f"{where}: missing field {key!r}")
    models, trains = st["models"], st.get("trains", {"default": {}})
    if not isinstance(models, dict) or not models:
        raise TypeError(f"{where}.models must be a non-empty dict name -> model spec")
    if not isinstance(trains, dict) or not trains:
        raise TypeError(f"{where}.trains must be a non-empty dict name -> train overrides")
    mixed = "mixed" in st["kinds"]
    if mixed and ("mix" not in st or "lams" not in st):
        raise ValueError(f"{where}: kind 'mixed' needs 'mix' ([kind_a, kind_b]) and 'lams'")
    lams = st.get("lams", [None]) if mixed else [None]
    polish = _polish_of(defaults.get("polish"), st.get("polish", {}))
    for mlabel, mspec in models.items():
        for tlabel, tover in trains.items():
            for kind in st["kinds"]:
                for alpha in st["alphas"]:
                    for lam in (lams if kind == "mixed" else [None]):
                        for seed in st["seeds"]:
                            target = {**defaults.get("target", {}), **st.get("target", {}), "kind": kind,
                                      "alpha": alpha}
                            if kind == "mixed":
                                target.update(kind_a=st["mix"][0], kind_b=st["mix"][1], lam=lam)
                            train = {**defaults.get("train", {}), **st.get("train", {}), **tover, "seed": seed}
                            yield name, mlabel, tlabel, {"model": mspec, "target": target, "train": train,
                                                         "polish": polish}


def expand_sweep(doc: dict, *, studies: Iterable[str] | None = None) -> list[SweepRun]:
    """All grid points of the sweep document (optionally only some studies), in file order
    (:func:`sweep_grid`, each config built and checked as a ``RunConfig``)."""
    runs = []
    for name, mlabel, tlabel, config in sweep_grid(doc, studies=studies):
        try:
            cfg = RunConfig.from_dict(config)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"studies.{name} ({mlabel}, {tlabel}): {exc}") from None
        runs.append(SweepRun(name, mlabel, tlabel, cfg))
    return runs


def _polish_of(default: dict | None, study: dict | None) -> dict | None:
    """The study's polish settings: the defaults updated by the study's; a study's ``null`` turns it off."""
    if study is None:
        return None
    if default is None and not study:
        return None
    return {**(default or {}), **study}


def _configs(runs: Iterable[Any]) -> dict[str, RunConfig]:
    out: dict[str, RunConfig] = {}
    if isinstance(runs, (str, bytes, dict)) or not isinstance(runs, Iterable):
        raise TypeError(f"runs must be a list of SweepRun, RunConfig or config dicts, got {type(runs).__name__}")
    for r in runs:
        cfg = r.config if isinstance(r, SweepRun) else RunConfig.from_dict(r)
        out.setdefault(cfg.run_id, cfg)
    return out


def run_sweep(runs: Iterable[Any], store: ResultStore, *, executor: cf.Executor | None = None,
              workers: int = 1, threads: int = 1, device: str = "cpu", progress: bool = True,
              limit: int | None = None, group: int = GROUP, stop_after: float | None = None) -> SweepSummary:
    """Execute the runs (SweepRun, RunConfig or plain dicts) not yet in ``store`` with the experiment engine
    (:func:`numerics.experiments.engine.run_jobs`: resumable, kill-safe, any executor; see the module docstring).

    ``executor``: any ``concurrent.futures.Executor``; if None, ``workers > 1`` makes a spawn-based process
    pool and ``workers == 1`` runs inline. ``threads``: torch threads per run; ``device``: torch device of
    every run. ``limit``: run at most this many pending runs (for partial sweeps). ``group``: at most this
    many runs that differ only in seed and target train as one vmapped group
    (``numerics.memory_functions.bench.grouped``); 1 trains every run alone. ``stop_after``: start no new job once this
    many seconds have passed (the jobs in flight finish and are stored; rerun to resume), so that a sweep
    under a wall-clock limit ends cleanly instead of being killed mid-job. Each run is claimed in the store before
    it starts (:meth:`ResultStore.claim`): sweeps sharing one store train each run once (a job trains the
    members it could claim), and a run claimed by another sweep is counted in ``elsewhere``. Runs leave the
    caller's torch RNG as it was.
    """
    threads = as_int("threads", threads, minimum=1, maximum=MAX_WORKERS)
    from numerics._torch import as_device     # torch: only when runs are started

    device = as_device(device)
    configs = _configs(runs)
    distinct, pending, skipped = pending_runs([(rid, cfg.to_dict()) for rid, cfg in configs.items()], store, limit)
    by_id = {rid: configs[rid] for rid, _ in pending}
    jobs = [[(rid, c.to_dict()) for rid, c in job] for job in _jobs(list(by_id.items()), as_int("group", group, minimum=1))]
    return run_jobs(jobs, store, functools.partial(_guarded_job, threads=threads, device=device),
                    total=len(distinct), skipped=skipped, executor=executor, workers=workers,
                    progress=progress, stop_after=stop_after, postfix=_postfix)


def _postfix(result: dict) -> str:
    return "" if result.get("relmse") is None else f"last relmse={result['relmse']:.2e}"


def _jobs(pending: list[tuple[str, RunConfig]], group: int) -> list[list[tuple[str, RunConfig]]]:
    """Pending runs as jobs: groups of <= ``group`` runs with one ``group_key`` (in sweep order, so a cell's
    seeds share a job), singletons otherwise; the most expensive jobs first (better load balance)."""
    from .runs import group_key

    keyed: dict[str, list] = {}
    jobs = []
    for rid, cfg in pending:
        key = group_key(cfg) if group > 1 else None
        if key is None:
            jobs.append([(rid, cfg)])
        else:
            keyed.setdefault(key, []).append((rid, cfg))
    for members in keyed.values():
        jobs += [members[i:i + group] for i in range(0, len(members), group)]

    def cost(job):
        cfg = job[0][1]
        heavy = 3.0 if cfg.model["arch"] == "sequential" else 1.0
        adam = cfg.train.steps * heavy * len(job) ** 0.5
        if cfg.polish is None:
            return -adam
        return -(adam + len(job) * (cfg.polish.f32_iters + 3 * cfg.polish.f64_iters) * _eval_weight(cfg.model))

    return sorted(jobs, key=cost)


def _eval_weight(spec: dict) -> float:
    """Rough cost of one full-batch evaluation relative to a one-layer LSTM (measured on one core), for the
    job order only: the longest jobs start first."""
    if spec["arch"] == "sequential":
        return sum(_eval_weight(s) for s in spec["stages"])
    base = {"lstm": 1.0, "s4d": 0.5, "tcn": 5.0, "transformer": 4.0}.get(spec["arch"], 1.0)
    if spec["arch"] == "transformer":
        base *= max(1.0, spec.get("heads", 2) / 4)
    return base * spec.get("layers", 1)


def _guarded_job(configs: list[dict], inputs=None, *, threads: int = 1, device: str = "cpu") -> list[dict]:
    """One job: a lone run (:func:`_guarded_run`) or a vmapped group (``execute_group``), leaving the calling
    process's torch RNG as it was (a run seeds torch's global generator; an inline sweep must not change the
    caller's random stream)."""
    import torch

    devices = list(range(torch.cuda.device_count())) if str(device).startswith("cuda") else []
    with torch.random.fork_rng(devices=devices):
        if len(configs) == 1:
            return [_guarded_run(configs[0], threads, device)]
        from .runs import execute_group

        return execute_group(configs, threads=threads, device=device)


def _guarded_run(config: dict, threads: int, device: str = "cpu") -> dict:
    """``execute_run``, with a diverged optimisation recorded as an outcome (relmse None) rather than a crash."""
    try:
        return execute_run(config, threads=threads, device=device)
    except FloatingPointError as exc:
        return {"relmse": None, "error": str(exc)}
