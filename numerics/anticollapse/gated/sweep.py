"""Gated-RNN sweeps through the experiment engine: train every run of a sweep file, then re-diagnose the stored weights.

A sweep file (the packaged ``numerics/anticollapse/gated/sweeps/{quick,cpu,reference}.json``, :func:`load_gated_sweep`) holds ``defaults``
per config section (task, model, train, diagnostics), named ``runs`` overriding them, ``seeds`` and, optionally,
a ``long_diagnosis``. :func:`run_gated_sweep` executes it with :mod:`numerics.experiments.engine` into a
:class:`~numerics.experiments.store.ResultStore`, in two stages:

1. **training**, one engine run per (run, seed): config ``{"config": GatedConfig, "seed", "keep"}``
   (:func:`train_config`), result the training record (:func:`execute_train`: losses, the diagnosis of every
   checkpoint, timings) and, stored with it as the artifact ``"states"``, the checkpoint weights and optimiser
   states (``keep = "all"``: every checkpoint, when the sweep has a long diagnosis; ``"final"``: the last one);
2. **diagnoses** of the stored weights (sweeps with a ``long_diagnosis`` only), one engine run per (run,
   seed, name in :data:`DIAGNOSES`): config ``{"train_run", "spec", "variant", "checkpoints"}``
   (:func:`diagnosis_configs`); the driver reads the weights from the store and sends them with the job,
   so a diagnosis runs on any worker, Dask's included, and never retrains.

Every run is content-addressed (a config and its schema), resumable and kill-safe, on any executor: the
engine's guarantees. Training is deterministic given config, seed and thread count (one torch thread per
run), and a diagnosis given the weights, so a sweep on a Dask cluster stores the results of a serial run.
The weights are stored (not re-derived by retraining) because training is the expensive stage: a diagnosis
costs forward passes only (cpu sweep: 365 CPU-seconds for the 12 runs' long diagnoses against about 20
core-minutes of training).
"""

from __future__ import annotations

import dataclasses
import functools
import io
import json
import os
import sys
import socket
import time
from pathlib import Path
from typing import Any

from numerics.anticollapse.spectra import LongDiagnosisSpec, diagnosis_record, long_spec
from numerics.experiments.engine import RunOutput, SweepSummary, pending_runs, run_jobs
from numerics.experiments.ids import content_id
from numerics.experiments.store import ResultStore
from theory._data import package_path
from theory._args import as_choice, as_instance, as_int, as_path, as_seed_int

# the packaged sweep files (package data, read through importlib.resources: a wheel has them)
SWEEP_DIR = package_path("numerics.anticollapse.gated", "sweeps")
TRAIN_SCHEMA = "gated_rnn.train/1"
DIAGNOSIS_SCHEMA = "gated_rnn.diagnosis/1"
KEEP = ("all", "final")          # checkpoint weights stored with a training run
# the re-diagnoses of a sweep with a long diagnosis: every checkpoint at the long horizon (ours); the final
# checkpoint at the training length with the author's floors (variant "author")
DIAGNOSES = ("long", "train_author")

__all__ = ["GatedSweep", "load_gated_sweep", "train_config", "diagnosis_configs", "execute_train",
           "execute_diagnosis", "run_gated_sweep", "gated_results", "run_status", "DIAGNOSES"]


@dataclasses.dataclass(frozen=True)
class GatedSweep:
    """A named set of runs (e.g. const, const_forced, shared, diag) sharing default settings and seeds."""

    name: str
    description: str
    configs: dict        # run name -> numerics.anticollapse.gated.train.GatedConfig
    seeds: tuple[int, ...]
    long: LongDiagnosisSpec | None = None     # the long-horizon re-diagnosis (numerics.anticollapse.gated.long_horizon)

    def with_seeds(self, seeds) -> "GatedSweep":
        """The same sweep restricted to (or extended by) ``seeds``."""
        seeds = tuple(as_seed_int(s) for s in seeds)
        return dataclasses.replace(self, seeds=seeds)


def load_gated_sweep(name_or_path: str | Path) -> GatedSweep:
    """Read the packaged sweep ``<name>`` (:data:`SWEEP_DIR`, e.g. ``"quick"``) or a ``.json`` path: ``{"name", "description", "defaults": {section:
    {...}}, "runs": {run: {section: {...overrides}}}, "seeds": [...], "long_diagnosis": {...}}`` with the
    sections task, model, train, diagnostics (the layout of the architecture sweeps: defaults +
    named runs)."""
    from .train import GatedConfig, merge_sections

    p = Path(as_path("name_or_path", name_or_path))
    if p.suffix != ".json":
        p = SWEEP_DIR / f"{name_or_path}.json"
    if not p.is_file():
        raise ValueError(f"name_or_path={name_or_path!r:.60}: no gated-RNN sweep file at {p} (in {SWEEP_DIR}: "
                         f"{sorted(q.stem for q in SWEEP_DIR.glob('*.json'))})")
    raw = json.loads(p.read_text())
    for key in ("name", "defaults", "runs", "seeds"):
        if key not in raw:
            raise ValueError(f"gated sweep {p}: missing key {key!r}")
    configs = {run: GatedConfig.from_dict(merge_sections(raw["defaults"], over, f"runs.{run}"))
               for run, over in raw["runs"].items()}
    seeds = tuple(as_seed_int(s) for s in raw["seeds"])
    long = long_spec(raw["long_diagnosis"]) if raw.get("long_diagnosis") is not None else None
    return GatedSweep(raw["name"], raw.get("description", ""), configs, seeds, long)


# ---------------------------------------------------------------------------------------------- run configs
def train_config(config, seed: int, keep: str = "final") -> dict:
    """The normalised config of one training run (its run id is ``content_id(config, TRAIN_SCHEMA)``)."""
    from .train import GatedConfig

    cfg = GatedConfig.from_dict(config)
    return {"config": cfg.to_dict(), "seed": as_seed_int(seed), "keep": as_choice("keep", keep, KEEP)}


def diagnosis_configs(train: dict, long: LongDiagnosisSpec) -> dict[str, dict]:
    """``{name: config}`` of the re-diagnoses :data:`DIAGNOSES` of the training run ``train``
    (:func:`train_config`): ``"long"`` every checkpoint at ``long`` (ours), ``"train_author"`` the final
    checkpoint at the training length with the author's floors."""
    from .long_horizon import training_spec
    from .train import GatedConfig

    train = _check_config("train", train, ("config", "seed", "keep"))
    as_instance("long", long, LongDiagnosisSpec, "LongDiagnosisSpec")
    rid = content_id(train, TRAIN_SCHEMA)
    own = training_spec(GatedConfig.from_dict(train["config"]))
    return {"long": {"train_run": rid, "spec": dataclasses.asdict(long), "variant": "no_floor", "checkpoints": "all"},
            "train_author": {"train_run": rid, "spec": dataclasses.asdict(own), "variant": "author",
                             "checkpoints": "final"}}


def _keep(sweep: GatedSweep) -> str:
    return "all" if sweep.long is not None else "final"


def _train_runs(sweep: GatedSweep) -> dict[tuple[str, int], tuple[str, dict]]:
    """``{(run, seed): (run id, config)}`` of the training stage, seeds outermost (the order they start)."""
    out = {}
    for s in sweep.seeds:
        for run, cfg in sweep.configs.items():
            c = train_config(cfg, s, _keep(sweep))
            out[(run, s)] = (content_id(c, TRAIN_SCHEMA), c)
    return out


def _diagnosis_runs(sweep: GatedSweep, trains: dict) -> dict[tuple[str, int, str], tuple[str, dict]]:
    if sweep.long is None:
        return {}
    out = {}
    for name in DIAGNOSES:
        for key, (_, c) in trains.items():
            d = diagnosis_configs(c, sweep.long)[name]
            out[(*key, name)] = (content_id(d, DIAGNOSIS_SCHEMA), d)
    return out


# ---------------------------------------------------------------------------------------------- execution
def execute_train(configs: list[dict], inputs: Any = None, *, threads: int = 1, device: str = "cpu") -> list[RunOutput]:
    """Train each config (:func:`numerics.anticollapse.gated.train.train_gated`) with ``threads`` torch threads
    and return its record and stored weights; the engine's ``execute`` for the training stage."""
    import torch

    from .train import train_gated

    configs = [_check_config(f"configs[{i}]", c, ("config", "seed", "keep"))
               for i, c in enumerate(as_instance("configs", configs, (list, tuple), "list of training configs"))]
    out = []
    for c in configs:
        with _torch_threads(threads):
            cpu = time.process_time()
            run = train_gated(c["config"], seed=c["seed"], device=device, keep_states=True)
            cpu = time.process_time() - cpu
        states = run.states if c["keep"] == "all" else run.states[-1:]
        result = {"checkpoints": [diagnosis_record(d) for d in run.checkpoints], "step_loss": run.step_loss,
                  "epoch_loss": run.epoch_loss, "relative_loss": run.relative_loss, "slow_sets": run.slow_sets,
                  "forcing_stats": run.forcing_stats, "task_lags": run.task.lags.tolist(),
                  **_provenance(run.seconds, cpu)}
        out.append(RunOutput(result, {"states": _to_bytes(torch, [_cpu_state(s) for s in states])}))
    return out


def execute_diagnosis(configs: list[dict], inputs: dict, *, threads: int = 1) -> list[RunOutput]:
    """Re-diagnose stored weights: ``inputs`` = ``{"train": the training run's config, "states": its stored
    weights}`` (read from the store by the driver); the engine's ``execute`` for the diagnosis stage."""
    import torch

    from .long_horizon import rediagnose_run
    from .train import GatedConfig

    configs = [_check_config(f"configs[{i}]", c, ("train_run", "spec", "variant", "checkpoints"))
               for i, c in enumerate(as_instance("configs", configs, (list, tuple), "list of diagnosis configs"))]
    inputs = _check_config("inputs", inputs, ("train", "states"))
    train = _check_config("inputs['train']", inputs["train"], ("config", "seed", "keep"))
    as_instance("inputs['states']", inputs["states"], (bytes, bytearray), "bytes (the stored weights)")
    cfg = GatedConfig.from_dict(train["config"])
    states = torch.load(io.BytesIO(inputs["states"]), map_location="cpu", weights_only=True)
    out = []
    for c in configs:
        with _torch_threads(threads):
            t0, cpu = time.perf_counter(), time.process_time()
            todo = states if c["checkpoints"] == "all" else states[-1:]
            diags = rediagnose_run(cfg, train["seed"], todo, long_spec(c["spec"]), c["variant"])
            wall, cpu = time.perf_counter() - t0, time.process_time() - cpu
        out.append(RunOutput({"checkpoints": [diagnosis_record(d) for d in diags], **_provenance(wall, cpu)}))
    return out


def _check_config(name: str, c, keys: tuple[str, ...]) -> dict:
    """A config dict with (at least) ``keys``, else a TypeError / ValueError naming ``name``."""
    as_instance(name, c, dict, f"dict with {', '.join(keys)}")
    missing = [k for k in keys if k not in c]
    if missing:
        raise ValueError(f"{name} lacks {', '.join(missing)} (a config has {', '.join(keys)})")
    return c


def _provenance(seconds: float, cpu_seconds: float) -> dict:
    import torch

    return {"seconds": seconds, "cpu_seconds": cpu_seconds, "pid": os.getpid(), "host": socket.gethostname(),
            "finished_at": time.time(), "torch": torch.__version__}


def _cpu_state(state: dict) -> dict:
    import torch

    def cpu(v):
        if isinstance(v, torch.Tensor):
            return v.detach().cpu()
        if isinstance(v, dict):
            return {k: cpu(x) for k, x in v.items()}
        if isinstance(v, list):
            return [cpu(x) for x in v]
        return v

    return cpu(state)


def _to_bytes(torch, obj) -> bytes:
    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


class _torch_threads:
    """``torch.set_num_threads(n)`` for the block, restored afterwards."""

    def __init__(self, n: int):
        self.n = as_int("threads", n, minimum=1, maximum=1024)

    def __enter__(self):
        import torch

        self.old = torch.get_num_threads()
        torch.set_num_threads(self.n)

    def __exit__(self, *exc):
        import torch

        torch.set_num_threads(self.old)


def run_gated_sweep(sweep: GatedSweep, store: ResultStore, *, executor=None, workers: int = 1, threads: int = 1,
                    device: str = "cpu", progress: bool | None = None, limit: int | None = None,
                    stop_after: float | None = None) -> dict[str, SweepSummary]:
    """Train the sweep's pending runs into ``store``, then re-diagnose the stored weights (sweeps with a
    ``long_diagnosis``); returns ``{"train": summary, "diagnosis": summary}``. ``executor``, ``workers``,
    ``limit``, ``stop_after``, ``progress``: as in :func:`numerics.experiments.engine.run_jobs` (``limit``
    and ``stop_after`` apply to each stage; ``progress=None``: a bar when stderr is a terminal outside CI);
    ``threads``: torch threads per run; ``device``: where training runs (the diagnoses run on the CPU)."""
    from numerics._torch import as_device

    as_instance("sweep", sweep, GatedSweep, "GatedSweep (load_gated_sweep)")
    as_instance("store", store, ResultStore, "numerics.experiments.store.ResultStore")
    device = as_device(device)
    trains = _train_runs(sweep)
    if progress is None:                       # automatic: a sweep is long, but a bar only where someone reads it
        progress = sys.stderr.isatty() and not os.environ.get("CI")
    common = dict(executor=executor, workers=workers, progress=progress, stop_after=stop_after)
    distinct, pending, skipped = pending_runs(list(trains.values()), store, limit)
    s_train = run_jobs([[r] for r in pending], store, functools.partial(execute_train, threads=threads, device=device),
                       total=len(distinct), skipped=skipped, desc="train",
                       postfix=lambda r: f"relative loss {r['relative_loss']:.3g}", **common)
    diags = _diagnosis_runs(sweep, trains)
    done = store.done_ids()
    ready = [(rid, c) for rid, c in diags.values() if c["train_run"] in done]    # weights stored
    _, pending, skipped = pending_runs(ready, store, limit)
    s_diag = run_jobs([[r] for r in pending], store, functools.partial(execute_diagnosis, threads=threads),
                      inputs=functools.partial(_diagnosis_inputs, store), total=len(diags), skipped=skipped,
                      desc="diagnose", **common)
    return {"train": s_train, "diagnosis": s_diag}


def _diagnosis_inputs(store: ResultStore, job: list) -> dict:
    """The stored training config and weights a diagnosis job reads (one training run per job)."""
    (rid, cfg), = job
    train = store.get(cfg["train_run"])
    return {"train": train["config"], "states": store.artifact(cfg["train_run"], "states")}


def gated_results(sweep: GatedSweep, store: ResultStore) -> dict[tuple[str, int], dict]:
    """``{(run, seed): {"train": training result or None, name: diagnosis result or None for name in
    DIAGNOSES}}`` of every run of the sweep, read from ``store``."""
    as_instance("sweep", sweep, GatedSweep, "GatedSweep (load_gated_sweep)")
    as_instance("store", store, ResultStore, "numerics.experiments.store.ResultStore")
    trains = _train_runs(sweep)
    diags = _diagnosis_runs(sweep, trains)
    out = {}
    for key, (rid, _) in trains.items():
        got = store.get(rid)
        out[key] = {"train": None if got is None else got["result"]}
        for name in DIAGNOSES:
            d = store.get(diags[(*key, name)][0]) if (*key, name) in diags else None
            out[key][name] = None if d is None else d["result"]
    return out


def run_status(sweep: GatedSweep, store: ResultStore | None) -> dict[str, dict[str, int]]:
    """``{run name: {"done": n, "total": n}}`` over seeds and stages (training and diagnoses); ``store`` None:
    nothing done yet."""
    as_instance("sweep", sweep, GatedSweep, "GatedSweep (load_gated_sweep)")
    as_instance("store", store, (ResultStore, type(None)), "numerics.experiments.store.ResultStore or None")
    trains = _train_runs(sweep)
    diags = _diagnosis_runs(sweep, trains)
    done = set() if store is None else store.done_ids()
    out: dict[str, dict[str, int]] = {}
    for key, (rid, _) in list(trains.items()) + [((k[0], k[1]), v) for k, v in diags.items()]:
        c = out.setdefault(key[0], {"done": 0, "total": 0})
        c["done"] += rid in done
        c["total"] += 1
    return out
