"""The sweep engine: run the pending runs of a sweep into a result store, resumable, kill-safe, on any executor.

A *run* is a content-addressed ``(run_id, config)`` pair (:mod:`numerics.experiments.ids`); a *job* is a list
of runs executed together by one call of the experiment's ``execute(configs, inputs)`` (a vmapped group of
runs that differ only in seed, or a single run). :func:`run_jobs`

1. skips the runs already in the store (resume: a rerun of the same sweep picks up where it stopped);
2. claims each run in the store before it starts (:meth:`ResultStore.claim`), so sweeps sharing one store
   train each run once, and a run claimed by another live sweep is left to it;
3. submits the jobs to any ``concurrent.futures.Executor`` (a process pool, or Dask's
   ``Client.get_executor()``; inline when none), at most ``window`` in flight, the first job first;
4. writes each run's result (and its artifacts, e.g. trained weights) in one transaction as its job
   completes: a sweep killed at any moment leaves every completed run intact and no half-written one.

``execute`` must be a picklable top-level function (or a ``functools.partial`` of one) returning one
:class:`RunOutput` (or a plain result dict) per config; ``inputs(job)``, if given, is called by the driver
just before a job is submitted and its value passed to ``execute`` (e.g. the stored weights a diagnosis
reads). Workers never touch the store: only the driver process writes.
"""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import sys
import time
from typing import Any, Callable, Sequence

from tqdm import tqdm

from theory._args import as_bool, as_executor, as_instance, as_int, as_real

from .pinning import spawn_pool
from .store import ResultStore

MAX_WORKERS = 1024   # processes or threads a sweep may ask for: more is a typo

Run = tuple[str, dict]          # (run id, normalised config)


@dataclasses.dataclass
class RunOutput:
    """What ``execute`` returns per run: the JSON-able ``result`` and named binary ``artifacts`` (stored with
    it in the same transaction)."""

    result: dict
    artifacts: dict[str, bytes] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class SweepSummary:
    total: int       # distinct run ids asked for
    skipped: int     # already in the store (resume)
    ran: int         # executed now
    elsewhere: int = 0   # claimed by another sweep on the same store (it runs them)


def pending_runs(runs: Sequence[Run], store: ResultStore, limit: int | None = None) -> tuple[dict, list[Run], int]:
    """``({run_id: config} of every distinct run, [the runs not in the store yet, at most limit], the number of
    distinct runs already stored)``."""
    as_instance("store", store, ResultStore, "numerics.experiments.store.ResultStore")
    distinct = dict(_check_runs("runs", runs))
    done = store.done_ids()
    pending = [(rid, cfg) for rid, cfg in distinct.items() if rid not in done]
    skipped = len(distinct) - len(pending)
    if limit is not None:
        pending = pending[: as_int("limit", limit, minimum=0)]
    return distinct, pending, skipped


def run_jobs(jobs: Sequence[list[Run]], store: ResultStore, execute: Callable, *, total: int, skipped: int,
             executor: cf.Executor | None = None, workers: int = 1, inputs: Callable | None = None,
             progress: bool = True, stop_after: float | None = None, desc: str = "sweep",
             postfix: Callable[[dict], str] | None = None) -> SweepSummary:
    """Execute ``jobs`` (lists of pending runs, in the order to start them) into ``store``; see the module
    docstring. ``workers > 1`` without an executor makes a spawn-based process pool; ``stop_after``: start no
    new job once this many seconds have passed (the jobs in flight finish and are stored; rerun to resume).
    ``total`` / ``skipped`` are the sweep's counts for the summary; ``postfix(result)`` labels the progress bar.
    """
    as_instance("store", store, ResultStore, "numerics.experiments.store.ResultStore")
    as_instance("jobs", jobs, (list, tuple), "list of jobs (lists of (run id, config) pairs)")
    queue = [_check_runs(f"jobs[{i}]", job) for i, job in enumerate(jobs)]
    workers = as_int("workers", workers, minimum=1, maximum=MAX_WORKERS)
    total, skipped = as_int("total", total, minimum=0), as_int("skipped", skipped, minimum=0)
    executor = as_executor(executor)
    progress = as_bool("progress", progress)
    for name, f in (("execute", execute), ("inputs", inputs), ("postfix", postfix)):
        if not callable(f) and not (f is None and name != "execute"):
            raise TypeError(f"{name} must be a callable{'' if name == 'execute' else ' or None'}, got {type(f).__name__}")
    as_instance("desc", desc, str)
    deadline = None if stop_after is None else time.monotonic() + as_real("stop_after", stop_after, minimum=0.0)
    n_pending = sum(len(j) for j in queue)
    bar = tqdm(total=n_pending, desc=desc, unit="run", disable=not progress, file=sys.stderr)
    state = _State(store, execute, inputs, bar, postfix, deadline)
    own_pool = None
    if executor is None and workers > 1 and len(queue) > 1:
        own_pool = executor = spawn_pool(workers)
    try:
        if executor is None:
            for job in state.claimed(queue):
                state.record(job, execute([c for _, c in job], state.inputs_of(job)))
        else:
            state.run_pool(executor, queue, 2 * max(workers, getattr(executor, "_max_workers", 1) or 1))
    finally:
        bar.close()
        store.release()
        if own_pool is not None:
            own_pool.shutdown(cancel_futures=True)
    return SweepSummary(total, skipped, state.ran, n_pending - state.ran)


def _check_runs(name: str, runs) -> list[Run]:
    """``runs`` as a list of ``(run id, config dict)`` pairs, else a TypeError naming ``name``."""
    if isinstance(runs, (str, bytes, dict)) or not isinstance(runs, (list, tuple)):
        raise TypeError(f"{name} must be a list of (run id, config dict) pairs, got {type(runs).__name__}")
    out = []
    for r in runs:
        if not (isinstance(r, (tuple, list)) and len(r) == 2 and isinstance(r[0], str) and isinstance(r[1], dict)):
            raise TypeError(f"{name} must hold (run id, config dict) pairs, got {r!r:.60}")
        out.append((r[0], r[1]))
    return out


@dataclasses.dataclass
class _State:
    store: ResultStore
    execute: Callable
    inputs: Callable | None
    bar: Any
    postfix: Callable | None
    deadline: float | None
    ran: int = 0

    def inputs_of(self, job: list[Run]):
        return None if self.inputs is None else self.inputs(job)

    def claimed(self, queue):
        """The jobs, each cut to the members this sweep could claim (others run elsewhere), lazily and only
        while the clock is before the deadline."""
        for job in queue:
            if self.deadline is not None and time.monotonic() >= self.deadline:
                return
            mine = [(rid, cfg) for rid, cfg in job if self.store.claim(rid)]
            if mine:
                yield mine

    def run_pool(self, executor: cf.Executor, queue: list, window: int) -> None:
        """Submit jobs as their runs are claimed, at most ``window`` in flight, so that concurrent sweeps on
        one store share the work instead of each claiming everything up front."""
        jobs = self.claimed(queue)
        futures: dict = {}

        def refill() -> None:
            for job in jobs:
                futures[executor.submit(self.execute, [c for _, c in job], self.inputs_of(job))] = job
                if len(futures) >= window:
                    return

        refill()
        while futures:
            finished, _ = cf.wait(futures, return_when=cf.FIRST_COMPLETED)
            for fut in finished:
                self.record(futures.pop(fut), fut.result())
            refill()

    def record(self, job: list[Run], outputs: list) -> None:
        for (rid, cfg), out in zip(job, outputs, strict=True):
            out = out if isinstance(out, RunOutput) else RunOutput(out)
            self.store.put(rid, cfg, out.result, artifacts=out.artifacts)
            self.ran += 1
            self.bar.update(1)
            if self.postfix is not None:
                self.bar.set_postfix_str(self.postfix(out.result))
