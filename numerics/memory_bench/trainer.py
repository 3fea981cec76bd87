"""Seeded training of a sequence model on a fixed synthetic data set, keeping the learning curve.

The objective is the relative MSE of the minibatch, ``sum (yhat - y)^2 / sum y^2`` (scale-free across memory
types and strengths). The *approximation error* of a run is the final training RelMSE on the whole data set
(the spec: a data set large enough that overfitting is not the issue), computed with
``numerics.targets.relative_mse``. Optimisation dynamics are kept as the learning curve (mean minibatch
loss per logging window).

Reproducibility: ``torch.manual_seed(seed)`` before the model is built fixes the initialisation; the
minibatch indices come from ``numpy.random.default_rng(SeedSequence([seed, 1]))``. The same
:class:`TrainSpec`, data and thread count give bit-identical results.
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
from theory._args import as_choice, as_int, as_real

OPTIMIZERS = ("adam", "adamw")
SCHEDULES = ("cosine", "constant")


@dataclasses.dataclass(frozen=True)
class TrainSpec:
    """Optimiser settings of one run. ``weight_decay=None`` means 0 for Adam and 1e-2 for AdamW
    (PyTorch's AdamW default), resolved at construction so that the run id sees the actual value."""

    optimizer: str = "adam"
    lr: float = 3e-3
    steps: int = 300
    batch: int = 32
    weight_decay: float | None = None
    schedule: str = "cosine"
    clip: float = 1.0          # gradient-norm clipping; 0 disables it
    seed: int = 0
    log_every: int = 10

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
        f("seed", as_int("train.seed", self.seed, minimum=0))
        f("log_every", as_int("train.log_every", self.log_every, minimum=1))

    @classmethod
    def from_dict(cls, d: Any) -> "TrainSpec":
        return dataclass_from_dict(cls, d, "train")


@dataclasses.dataclass
class TrainResult:
    """Outcome of :func:`train`: the approximation error and how the optimiser got there."""

    relmse: float                 # final RelMSE on the whole training set
    initial_relmse: float         # the same before the first step
    curve_steps: list[int]        # step at the end of each logging window
    curve_loss: list[float]       # mean minibatch RelMSE over the window
    seconds: float
    method: str = "Adam/AdamW on minibatch RelMSE; error = final full-data RelMSE"


def _batched_predict(model: torch.nn.Module, x: torch.Tensor, chunk: int = 256) -> np.ndarray:
    model.eval()
    with torch.no_grad():
        out = torch.cat([model(x[i:i + chunk]) for i in range(0, len(x), chunk)])
    model.train()
    return out[..., 0].double().cpu().numpy()


def train(model: torch.nn.Module, x: np.ndarray, y: np.ndarray, spec: TrainSpec, *, device: str = "cpu",
          progress: bool = False) -> TrainResult:
    """Train ``model`` ((B, T, 1) -> (B, T, 1)) on inputs ``x`` and targets ``y`` of shape (n_seq, T).

    ``device``: a torch device string ("cpu", "cuda"); the model is moved there (and left there).
    """
    from numerics.targets import relative_mse

    if not isinstance(spec, TrainSpec):
        raise TypeError(f"spec must be a TrainSpec, got {type(spec).__name__}")
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if x.ndim != 2 or x.shape != y.shape:
        raise ValueError(f"x and y must be arrays of the same shape (n_seq, T); got {x.shape} and {y.shape}")
    model.to(device)
    xt = torch.as_tensor(x, dtype=torch.float32, device=device)[..., None]         # (n_seq, T, 1)
    yt = torch.as_tensor(y, dtype=torch.float32, device=device)[..., None]
    opt_cls = torch.optim.Adam if spec.optimizer == "adam" else torch.optim.AdamW
    opt = opt_cls(model.parameters(), lr=spec.lr, weight_decay=spec.weight_decay)
    sched = (torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=spec.steps) if spec.schedule == "cosine"
             else None)
    rng = np.random.default_rng(np.random.SeedSequence([spec.seed, 1]))
    t0 = time.perf_counter()
    initial = float(relative_mse(_batched_predict(model, xt), y))
    steps, losses, window = [], [], []
    model.train()
    bar = tqdm(range(1, spec.steps + 1), desc="train", disable=not progress, file=sys.stderr, leave=False)
    for step in bar:
        idx = torch.as_tensor(rng.integers(0, len(xt), size=spec.batch), device=device)
        yb = yt[idx]
        loss = ((model(xt[idx]) - yb) ** 2).sum() / (yb ** 2).sum().clamp_min(1e-30)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        if spec.clip > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), spec.clip)
        opt.step()
        if sched is not None:
            sched.step()
        value = float(loss.detach())
        if not math.isfinite(value):
            raise FloatingPointError(f"training loss became {value} at step {step} (lr={spec.lr}); lower train.lr")
        window.append(value)
        if step % spec.log_every == 0 or step == spec.steps:
            steps.append(step)
            losses.append(float(np.mean(window)))
            window = []
            bar.set_postfix_str(f"loss={losses[-1]:.3g}")
    final = float(relative_mse(_batched_predict(model, xt), y))
    return TrainResult(final, initial, steps, losses, time.perf_counter() - t0)
