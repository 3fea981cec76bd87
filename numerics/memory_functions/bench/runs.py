"""One benchmark run = (model spec, target spec, training spec), content-addressed and self-contained.

``RunConfig.run_id`` is the first 16 hex digits of the SHA-256 of the canonical JSON of the *normalised*
config (every default filled in, keys sorted, floats as Python's shortest repr, plus a schema version), so
the same experiment always gets the same id, whichever way its config was written, and a store of
results doubles as a cache. :func:`execute_run` takes a plain dict (picklable, for process pools and
Dask), trains, and returns a JSON-able result: the approximation error, the learning curve, the
parameter count, the empirical memory function (probe) and, for a single-channel linear S4D, its
kernel as an exponential sum. A config with a ``polish`` field (``numerics.memory_functions.bench.polish.PolishSpec``)
continues the Adam stage with the certified full-batch L-BFGS polish: the result then also holds
``polish`` (the floor, its certificate and curve), ``relmse`` stays the Adam stage's number (the answer at a
fixed Adam budget) and the probe / exponential sum describe the polished model. :func:`execute_group` trains runs that differ only in seed and target as one
vmapped group (``numerics.memory_functions.bench.grouped``), with the same per-run results. Every result records
the numerical environment it trained in (``numeric_env``: pinned or not, ``numerics.experiments.pinning``).

Targets (``theory.memory`` and ``numerics.memory_functions.targets``): ``rho = memory_function(kind, alpha, T)`` for the
four kinds, or ``mixed_memory_function(kind_a, kind_b, lam, alpha, T)`` for ``kind="mixed"``; the data set
is ``make_dataset(rho, n_seq, T, nonlinear=..., seed=data_seed)``.
"""

from __future__ import annotations

import dataclasses
import os
import socket
import time
from typing import Any

import numpy as np

from numerics._config import dataclass_from_dict, setter
from numerics.experiments.ids import canonical_json, content_id
from theory._args import as_choice, as_instance, as_int, as_real

SCHEMA = 3          # 2: task-scaled S4D time steps, LambdaLR schedules, half-budget evidence;
                    # 3: minibatch loss normalised by the whole data set's sum y^2; optional L-BFGS polish
KINDS = ("exp", "poly", "impulse", "airy")


@dataclasses.dataclass(frozen=True)
class TargetSpec:
    """The synthetic task: memory function, sequence length, data-set size and seed."""

    kind: str
    alpha: float
    T: int = 64
    nonlinear: bool = False
    n_seq: int = 512
    data_seed: int = 0
    kind_a: str | None = None      # kind="mixed": rho = (1-lam) rho_a/|rho_a| + lam rho_b/|rho_b|
    kind_b: str | None = None
    lam: float | None = None

    def __post_init__(self) -> None:
        f = setter(self)
        f("kind", as_choice("target.kind", self.kind, (*KINDS, "mixed")))
        f("alpha", as_real("target.alpha", self.alpha, minimum=0.0, maximum=1.0))
        f("T", as_int("target.T", self.T, minimum=2))
        if not isinstance(self.nonlinear, bool):
            raise TypeError(f"target.nonlinear must be a bool, got {self.nonlinear!r}")
        f("n_seq", as_int("target.n_seq", self.n_seq, minimum=1))
        f("data_seed", as_int("target.data_seed", self.data_seed, minimum=0))
        if self.kind == "mixed":
            f("kind_a", as_choice("target.kind_a", self.kind_a, KINDS))
            f("kind_b", as_choice("target.kind_b", self.kind_b, KINDS))
            f("lam", as_real("target.lam", self.lam, minimum=0.0, maximum=1.0))
        elif any(v is not None for v in (self.kind_a, self.kind_b, self.lam)):
            raise ValueError(f"target.kind_a/kind_b/lam are only for kind='mixed' (got kind={self.kind!r})")

    def rho(self) -> np.ndarray:
        from theory.memory import memory_function, mixed_memory_function

        if self.kind == "mixed":
            return np.asarray(mixed_memory_function(self.kind_a, self.kind_b, self.lam, self.alpha, self.T), float)
        return np.asarray(memory_function(self.kind, self.alpha, self.T), dtype=float)

    def dataset(self) -> tuple[np.ndarray, np.ndarray]:
        from numerics.memory_functions.targets import make_dataset

        return make_dataset(self.rho(), self.n_seq, self.T, nonlinear=self.nonlinear, seed=self.data_seed)

    @classmethod
    def from_dict(cls, d: Any) -> "TargetSpec":
        return dataclass_from_dict(cls, d, "target")


@dataclasses.dataclass(frozen=True)
class RunConfig:
    model: dict
    target: TargetSpec
    train: "numerics.memory_functions.bench.trainer.TrainSpec"  # noqa: F821 (imported lazily with torch)
    polish: "numerics.memory_functions.bench.polish.PolishSpec | None" = None  # noqa: F821

    def __post_init__(self):
        from .trainer import TrainSpec

        as_instance("model", self.model, dict, "model spec dict")
        as_instance("target", self.target, TargetSpec, "TargetSpec")
        as_instance("train", self.train, TrainSpec, "numerics.memory_functions.bench.trainer.TrainSpec")
        if self.polish is not None:
            from .polish import PolishSpec

            as_instance("polish", self.polish, PolishSpec, "numerics.memory_functions.bench.polish.PolishSpec or None")

    @classmethod
    def from_dict(cls, d: Any) -> "RunConfig":
        """Validate and normalise a plain dict ``{"model": {...}, "target": {...}, "train": {...}}``."""
        from .trainer import TrainSpec
        from .zoo import normalize_model_spec

        if isinstance(d, cls):
            return d
        if not isinstance(d, dict):
            raise TypeError(f"a run config must be a dict with 'model', 'target', 'train'; got {type(d).__name__}")
        extra = set(d) - {"model", "target", "train", "polish"}
        if extra:
            raise ValueError(f"run config: unknown field(s) {sorted(extra)}; allowed: model, target, train, polish")
        for key in ("model", "target"):
            if key not in d:
                raise ValueError(f"run config: missing field {key!r}")
        polish = d.get("polish")
        if polish is not None:
            from .polish import PolishSpec

            polish = PolishSpec.from_dict(polish)
        return cls(normalize_model_spec(d["model"], where="model"), TargetSpec.from_dict(d["target"]),
                   TrainSpec.from_dict(d.get("train", {})), polish)

    def to_dict(self) -> dict:
        out = {"model": self.model, "target": dataclasses.asdict(self.target), "train": dataclasses.asdict(self.train)}
        if self.polish is not None:          # absent, not null: unpolished configs keep their ids
            out["polish"] = self.polish.to_dict()
        return out

    @property
    def run_id(self) -> str:
        return run_id(self.to_dict())


def run_id(config: dict) -> str:
    """Content address of a *normalised* config dict (see :meth:`RunConfig.to_dict`)."""
    as_instance("config", config, dict, "dict (RunConfig.to_dict())")
    return content_id(config, SCHEMA)


def execute_run(config: dict, *, threads: int = 1, device: str = "cpu", pin: bool = False) -> dict:
    """Train one run and return its JSON-able result (see the module docstring).

    ``threads``: torch intra-op threads for this run (restored afterwards); ``device``: where to train
    ("cpu", "cuda"). Neither is part of the run id: they change speed, not the experiment (results on
    another device or thread count agree up to floating-point reassociation, not bitwise). ``pin``: refuse to
    train unless this process runs under the pinned numerical environment (``numerics.experiments.pinning``;
    a pinned sweep's workers do), which makes the result the same on every x86-64 machine with the same
    library versions; pinned or not, the result records the environment (``numeric_env``,
    ``numerics._torch.numeric_environment``). Not part of the run id either.
    """
    import torch

    from numerics._torch import numeric_environment

    from .trainer import train
    from .zoo import build_model

    cfg = RunConfig.from_dict(config)
    device, threads = _device_threads(device, threads)
    with _threads(threads):
        env = numeric_environment(pin=pin, device=device)
        x, y = cfg.target.dataset()
        torch.manual_seed(cfg.train.seed)
        model = build_model(cfg.model, seq_len=cfg.target.T)
        cpu = time.process_time()
        res = train(model, x, y, cfg.train, device=device)
        polished = _polished(cfg, model.cpu(), x, y)
        return _result(cfg, model, res, time.process_time() - cpu, polished, env)


def execute_group(configs: list[dict], *, threads: int = 1, device: str = "cpu", pin: bool = False) -> list[dict]:
    """Train runs that differ only in the seed and the target (same model, training and data shape) as one
    vmapped group (``numerics.memory_functions.bench.grouped.train_group``); one result per config, a diverged member
    recorded as ``{"relmse": None, "error": ...}`` (as the sweep records a diverged lone run). ``threads``,
    ``device``, ``pin``: as :func:`execute_run`."""
    import torch

    from numerics._torch import numeric_environment

    from .grouped import train_group
    from .zoo import build_model

    if not isinstance(configs, (list, tuple)):
        raise TypeError(f"configs must be a list of run config dicts, got {type(configs).__name__}")
    cfgs = [RunConfig.from_dict(c) for c in configs]
    device, threads = _device_threads(device, threads)
    with _threads(threads):
        env = numeric_environment(pin=pin, device=device)
        models = []
        for c in cfgs:
            torch.manual_seed(c.train.seed)
            models.append(build_model(c.model, seq_len=c.target.T))
        cpu = time.process_time()
        res = train_group(models, [c.target.dataset() for c in cfgs], [c.train for c in cfgs], device=device)
        cpu = (time.process_time() - cpu) / len(cfgs)
        out = []
        for c, m, r in zip(cfgs, models, res):         # the polish: one member at a time (line searches differ)
            if isinstance(r, FloatingPointError):
                out.append({"relmse": None, "error": str(r)})
                continue
            t = time.process_time()
            pol = _polished(c, m, *c.target.dataset())
            out.append(_result(c, m, r, cpu + time.process_time() - t, pol, env))
        return out


def _device_threads(device, threads) -> tuple[str, int]:
    from numerics._torch import as_device

    return as_device(device), as_int("threads", threads, minimum=1, maximum=1024)


def group_key(cfg: RunConfig) -> str | None:
    """Runs with equal keys can train as one group (None: this run trains alone; see ``grouped.groupable``)."""
    from .grouped import groupable

    as_instance("cfg", cfg, RunConfig, "RunConfig")
    if not groupable(cfg.model):
        return None
    train = {**dataclasses.asdict(cfg.train), "seed": None}
    polish = None if cfg.polish is None else dataclasses.asdict(cfg.polish)
    return canonical_json({"model": cfg.model, "train": train, "T": cfg.target.T, "n_seq": cfg.target.n_seq,
                           "polish": polish})


class _threads:
    def __init__(self, n: int):
        self.n = as_int("threads", n, minimum=1)

    def __enter__(self):
        import torch

        self.old = torch.get_num_threads()
        torch.set_num_threads(self.n)

    def __exit__(self, *exc):
        import torch

        torch.set_num_threads(self.old)


def _polished(cfg: RunConfig, model, x, y) -> dict | None:
    """Run the config's polish on the Adam-trained ``model`` (in place) and return its JSON-able record,
    with the Adam endpoint's exponential sum (single-channel linear S4D) kept alongside; None if no polish."""
    if cfg.polish is None:
        return None
    from .polish import polish

    before = _exp_sum(cfg, model)
    r = polish(model, x, y, cfg.polish)
    rec = {k: v for k, v in dataclasses.asdict(r).items()}
    if before is not None:
        rec["adam_exp_sum"] = before
    return rec


def _exp_sum(cfg: RunConfig, model) -> dict | None:
    from numerics.memory_functions.models.s4d import S4D

    if not (isinstance(model, S4D) and model.linear and cfg.model["width"] == 1 and cfg.model["layers"] == 1):
        return None
    poles, coefs, d0 = model.exp_sum()
    return {"poles": [[z.real, z.imag] for z in poles], "coefs": [[c.real, c.imag] for c in coefs], "d0": d0}


def _result(cfg: RunConfig, model, res, cpu_seconds: float, polished: dict | None = None,
            env: dict | None = None) -> dict:
    """The JSON-able record of a run; probe and exponential sum of the final (polished, if any) model;
    ``env``: the numerical environment it trained in (``numeric_env``)."""
    import copy

    import torch

    from .probe import memory_probe

    probe_model = copy.deepcopy(model).float() if polished is not None else model
    out = {
        "run_id": cfg.run_id,
        "relmse": res.relmse,
        "initial_relmse": res.initial_relmse,
        "half_relmse": res.half_relmse,
        "half_step": res.half_step,
        "half_is_budget": res.half_is_budget,
        "curve_steps": res.curve_steps,
        "curve_loss": res.curve_loss,
        "seconds": res.seconds,
        "cpu_seconds": cpu_seconds,          # process CPU time of the training (a group's share per member)
        "n_params": model.n_params,
        "probe": memory_probe(probe_model, cfg.target.T, method="jacobian", n=32, seed=0).tolist(),
        "method": res.method,
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "finished_at": time.time(),
        "torch": torch.__version__,
    }
    exp_sum = _exp_sum(cfg, model)
    if exp_sum is not None:
        out["exp_sum"] = exp_sum
    if polished is not None:
        out["polish"] = polished
    if env is not None:
        out["numeric_env"] = env
    return out
