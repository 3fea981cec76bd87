"""Seeded training of a sequence model on a fixed synthetic data set, keeping the learning curve.

The objective is the minibatch's squared error normalised by the *whole data set's* energy,
``(n / B) sum_batch (yhat - y)^2 / sum_all y^2`` (an unbiased estimate of the full-data RelMSE, scale-free
across memory types and strengths; dividing each batch by its own ``sum y^2`` instead, as schema 2 did,
weights batches unequally and optimises a different objective). The *approximation error* of a run is the final training RelMSE on the whole data set
(a data set large enough that overfitting is not the issue: ``docs/papers/memory-functions.md``), computed with
``numerics.memory_functions.targets.relative_mse``. Optimisation dynamics are kept as the learning curve (mean minibatch
loss per logging window).

Reproducibility: ``torch.manual_seed(seed)`` before the model is built fixes the initialisation; the
minibatch indices come from ``numpy.random.default_rng(SeedSequence([seed, 1]))``. The same
:class:`TrainSpec`, data and thread count give bit-identical results.

Schedules (``TrainSpec.schedule``): ``"cosine"`` (one cosine decay to 0 over the budget), ``"constant"``,
and ``"cosine2"``: two cosine cycles of S/2 steps each (a warm restart at the half point, SGDR, Loshchilov
& Hutter 2017, arXiv:1608.03983). Under ``cosine2`` and ``constant`` the state after S/2 steps *is* the
half-budget run of the same seed (same initialisation, same minibatches, same learning rates), so its
full-data RelMSE (``TrainResult.half_relmse``, always recorded) is convergence evidence at no extra cost:
see :func:`numerics.memory_functions.bench.aggregate.convergence`. Under ``"cosine"`` the half point sits mid-decay
and is no half-budget run (``half_is_budget`` False).

Several seeds of one architecture train at once with :func:`train_group`: their parameters are stacked and
the forward pass is ``torch.func.vmap`` of ``functional_call`` over the stack, each member with its own
minibatches, gradient-norm clipping and (elementwise) Adam state, so the group reproduces the members'
separate runs up to float reassociation (tested).
"""

from __future__ import annotations

import dataclasses
import math
import sys
import time
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from numerics._config import dataclass_from_dict, setter
from numerics._torch import as_device
from theory._args import as_bool, as_choice, as_instance, as_int, as_real, as_real_array, as_same_shape, as_seed_int

OPTIMIZERS = ("adam", "adamw")
SCHEDULES = ("cosine", "constant", "cosine2")
EVAL_CHUNK = 256


@dataclasses.dataclass(frozen=True)
class TrainSpec:
    """Optimiser settings of one run. ``weight_decay=None`` means 0 for Adam and 1e-2 for AdamW
    (PyTorch's AdamW default), resolved at construction so that the run id sees the actual value.
    ``ssm_group``: train S4D's SSM parameters (``numerics.memory_functions.models.s4d.SSM_PARAMETERS``) with
    ``lr = min(1e-3, lr)`` and no weight decay, as the reference S4D does."""

    optimizer: str = "adam"
    lr: float = 3e-3
    steps: int = 300
    batch: int = 32
    weight_decay: float | None = None
    schedule: str = "cosine"
    clip: float = 1.0          # gradient-norm clipping; 0 disables it
    seed: int = 0
    log_every: int = 10
    ssm_group: bool = False

    def __post_init__(self) -> None:
        f = setter(self)
        f("optimizer", as_choice("train.optimizer", self.optimizer, OPTIMIZERS))
        f("lr", as_real("train.lr", self.lr, minimum=0.0, open_min=True))
        f("steps", as_int("train.steps", self.steps, minimum=1))
        f("batch", as_int("train.batch", self.batch, minimum=1))
        wd = self.weight_decay
        if wd is None:
            wd = 1e-2 if self.optimizer == "adamw" else 0.0
        f("weight_decay", as_real("train.weight_decay", wd, minimum=0.0))
        f("schedule", as_choice("train.schedule", self.schedule, SCHEDULES))
        f("clip", as_real("train.clip", self.clip, minimum=0.0))
        f("seed", as_seed_int(self.seed, name="train.seed"))
        f("log_every", as_int("train.log_every", self.log_every, minimum=1))
        if not isinstance(self.ssm_group, bool):
            raise TypeError(f"train.ssm_group must be a bool, got {self.ssm_group!r}")

    @classmethod
    def from_dict(cls, d: Any) -> "TrainSpec":
        return dataclass_from_dict(cls, d, "train")

    @property
    def half_step(self) -> int:
        return self.steps // 2

    @property
    def half_is_budget(self) -> bool:
        """Whether the state after ``half_step`` steps equals a run with half the budget (see the module doc)."""
        return self.schedule in ("constant", "cosine2") and self.half_step >= 1


@dataclasses.dataclass
class TrainResult:
    """Outcome of :func:`train`: the approximation error and how the optimiser got there."""

    relmse: float                 # final RelMSE on the whole training set
    initial_relmse: float         # the same before the first step
    curve_steps: list[int]        # step at the end of each logging window
    curve_loss: list[float]       # mean minibatch RelMSE over the window
    seconds: float
    half_relmse: float | None = None   # full-data RelMSE after half_step steps
    half_step: int = 0
    half_is_budget: bool = False
    method: str = "Adam/AdamW on minibatch RelMSE; error = final full-data RelMSE"


def lr_factor(spec: TrainSpec, e: int) -> float:
    """Learning-rate multiplier after ``e`` optimiser steps (``LambdaLR`` convention)."""
    as_instance("spec", spec, TrainSpec)
    e = as_int("e", e, minimum=0)
    if spec.schedule == "constant":
        return 1.0
    if spec.schedule == "cosine":
        return 0.5 * (1.0 + math.cos(math.pi * e / spec.steps))
    h = spec.half_step
    if h < 1:
        return 0.5 * (1.0 + math.cos(math.pi * e / spec.steps))
    if e < h:
        return 0.5 * (1.0 + math.cos(math.pi * e / h))
    return 0.5 * (1.0 + math.cos(math.pi * (e - h) / (spec.steps - h)))


def make_optimizer(named: list[tuple[str, torch.Tensor]], spec: TrainSpec):
    """(optimizer, scheduler) of ``spec`` over the named parameters (SSM parameter group if asked)."""
    as_instance("spec", spec, TrainSpec)
    if not isinstance(named, (list, tuple)) or not all(
            isinstance(e, tuple) and len(e) == 2 and isinstance(e[0], str) and isinstance(e[1], torch.Tensor)
            for e in named):
        raise TypeError(f"named must be a list of (name, tensor) pairs, got {named!r:.60}")
    if not named:
        raise ValueError("named must hold at least one (name, tensor) pair (the model has no parameters)")
    from numerics.memory_functions.models.s4d import SSM_PARAMETERS

    groups = [{"params": [p for n, p in named if not _is_ssm(n, SSM_PARAMETERS, spec)]},
              {"params": [p for n, p in named if _is_ssm(n, SSM_PARAMETERS, spec)],
               "lr": min(1e-3, spec.lr), "weight_decay": 0.0}]
    groups = [g for g in groups if g["params"]]
    opt_cls = torch.optim.Adam if spec.optimizer == "adam" else torch.optim.AdamW
    opt = opt_cls(groups, lr=spec.lr, weight_decay=spec.weight_decay)
    return opt, torch.optim.lr_scheduler.LambdaLR(opt, lambda e: lr_factor(spec, e))


def _is_ssm(name: str, ssm: tuple[str, ...], spec: TrainSpec) -> bool:
    return spec.ssm_group and ".kernel." in f".{name}" and name.rsplit(".", 1)[-1] in ssm


def _batched_predict(model: torch.nn.Module, x: torch.Tensor, chunk: int = EVAL_CHUNK) -> np.ndarray:
    model.eval()
    with torch.no_grad():
        out = torch.cat([model(x[i:i + chunk]) for i in range(0, len(x), chunk)])
    model.train()
    return out[..., 0].double().cpu().numpy()


def batch_denominator(y: np.ndarray, batch: int) -> float:
    """``(B / n) sum_all y^2``: the minibatch loss divided by it estimates the full-data RelMSE (module doc)."""
    y = as_real_array("y", y)
    if y.ndim != 2:
        raise ValueError("y must be a 2-d array (n_seq, T)")
    batch = as_int("batch", batch, minimum=1)
    return max(float(np.sum(y * y)) * batch / y.shape[-2], 1e-30)


def _check_data(x, y):
    return as_same_shape(("x", "y"), x, y, ndim=2, shape="(n_seq, T)")


class _Curve:
    """Mean minibatch loss per logging window."""

    def __init__(self, log_every: int, steps: int):
        self.log_every, self.total, self.steps, self.loss, self.window = log_every, steps, [], [], []

    def add(self, step: int, value: float) -> None:
        self.window.append(value)
        if step % self.log_every == 0 or step == self.total:
            self.steps.append(step)
            self.loss.append(float(np.mean(self.window)))
            self.window = []


def train(model: torch.nn.Module, x: np.ndarray, y: np.ndarray, spec: TrainSpec, *, device: str = "cpu",
          progress: bool = False) -> TrainResult:
    """Train ``model`` ((B, T, 1) -> (B, T, 1)) on inputs ``x`` and targets ``y`` of shape (n_seq, T).

    ``device``: a torch device string ("cpu", "cuda"); the model is moved there (and left there).
    """
    as_instance("model", model, torch.nn.Module, "torch.nn.Module")
    as_instance("spec", spec, TrainSpec)
    progress = as_bool("progress", progress)
    from numerics.memory_functions.targets import relative_mse

    x, y = _check_data(x, y)
    device = as_device(device)
    model.to(device)
    xt = torch.as_tensor(x, dtype=torch.float32, device=device)[..., None]         # (n_seq, T, 1)
    yt = torch.as_tensor(y, dtype=torch.float32, device=device)[..., None]
    den = batch_denominator(y, spec.batch)
    opt, sched = make_optimizer(list(model.named_parameters()), spec)
    rng = np.random.default_rng(np.random.SeedSequence([spec.seed, 1]))
    t0 = time.perf_counter()
    initial = float(relative_mse(_batched_predict(model, xt), y))
    curve, half = _Curve(spec.log_every, spec.steps), None
    model.train()
    bar = tqdm(range(1, spec.steps + 1), desc="train", disable=not progress, file=sys.stderr, leave=False)
    for step in bar:
        idx = torch.as_tensor(rng.integers(0, len(xt), size=spec.batch), device=device)
        yb = yt[idx]
        loss = ((model(xt[idx]) - yb) ** 2).sum() / den
        opt.zero_grad(set_to_none=True)
        loss.backward()
        if spec.clip > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), spec.clip)
        opt.step()
        sched.step()
        value = float(loss.detach())
        if not math.isfinite(value):
            raise FloatingPointError(f"training loss became {value} at step {step} (lr={spec.lr}); lower train.lr")
        curve.add(step, value)
        if step == spec.half_step:
            half = float(relative_mse(_batched_predict(model, xt), y))
        if curve.steps and curve.steps[-1] == step:
            bar.set_postfix_str(f"loss={curve.loss[-1]:.3g}")
    final = float(relative_mse(_batched_predict(model, xt), y))
    return TrainResult(final, initial, curve.steps, curve.loss, time.perf_counter() - t0,
                       half, spec.half_step, spec.half_is_budget)
