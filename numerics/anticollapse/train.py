"""AdamW training of the gated RNNs on the delayed-regression task, with heavy-tailed forcing and checkpoints.

Source: L. Livi, arXiv:2606.29519 (2026), experiments 1 and 2, as restated in ``spec/anti-collapse.md``.
One run = one :class:`GatedConfig` and one seed: draw the task (lags, u), the training and diagnostic
sequences, initialise the model, train with AdamW (MSE loss, gradient-norm clipping, no schedule) and
measure the time-scale spectrum with :func:`numerics.anticollapse.diagnostics.diagnose` at epoch 0, every
``checkpoint_every`` epochs and at the end.

Heavy-tailed forcing (experiment 1, ``forcing > 0``). After *every* optimiser step:

1. the slow set S is the ``ceil(slow_fraction * H)`` units with the largest current time-scale estimate
   ``tau_q`` (non-decaying units, tau = inf, first; ties broken by unit index). "Current" = the tau of the
   latest checkpoint, so S is fixed between checkpoints and the epoch-0 checkpoint defines it at the start;
2. for every trainable tensor whose leading index is a hidden unit (``GatedRNN.unit_row_parameters``:
   ``W_x.weight``, ``W_x.bias``, ``W_h.weight``, and for DiagGate ``W_s.weight``, ``W_s.bias``,
   ``U_s.weight``) take its rows q in S, the step's update on them ``Delta = theta_after - theta_before``
   (AdamW's full update, weight decay included) and its RMS ``rho = ||Delta||_2 / sqrt(#Delta)``;
3. add ``forcing * rho * c tanh(X / c)`` elementwise, ``X`` i.i.d. standard symmetric alpha-stable
   (characteristic function ``exp(-|k|^alpha)``, Chambers-Mallows-Stuck via
   ``numerics.levy_sampling.symmetric_stable``), ``alpha = forcing_alpha`` (1.5), ``c = forcing_clip``
   (100): a soft clip that keeps the heavy tail up to ~c and bounds it beyond.

ConstGate's gate is a buffer, so there the forcing reaches only ``W_x``, ``b`` and ``W_h`` rows.

Reproducibility: ``SeedSequence([seed]).spawn`` gives independent streams for the task, the training
data, the diagnostic data, the initialisation (a forked torch RNG, so the global torch state is left
alone), the minibatch order and the forcing. The task depends only on the seed, so runs of different
architectures with the same seed solve the same task. Same config, seed and thread count: identical run.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from numerics._config import dataclass_from_dict, setter
from theory._args import as_choice, as_int, as_real

from .delayed_task import DelayedTask, make_delayed_task, scaled_lag_range
from .diagnostics import REFERENCE_T, GatedDiagnostics, diagnose, scaled_lag_grid
from numerics.models.gated_rnn import ARCHITECTURES, GatedRNN, build_gated_rnn

OPTIMIZERS = ("adamw", "adam", "sgd")
PROFILE_DIR = Path(__file__).resolve().parents[2] / "benchmarks" / "gated_rnn"


@dataclasses.dataclass(frozen=True)
class GatedConfig:
    """One training run's settings. Defaults are the reference scale of the spec (GPU-scale).

    ``lag_range=None`` means :func:`~numerics.anticollapse.delayed_task.scaled_lag_range` (``[8, 640]`` at
    T = 1280, scaled with T); ``rate_lags`` and ``envelope_lags`` are ``(lo, hi, n)`` *at the reference
    T = 1280* and are scaled with T (:func:`~numerics.anticollapse.diagnostics.scaled_lag_grid`; the
    envelope grid is geometric). ``forcing`` multiplies the RMS-matched stable noise (0: off; 1: the
    experiment's setting).
    """

    arch: str = "diag"
    hidden: int = 512
    d_in: int = 16
    T: int = 1280
    init_s: float = 0.005
    n_lags: int = 16
    lag_range: tuple[int, int] | None = None
    lag_exponent: float = 1.6
    coeff_base: float = 0.6
    coeff_decay: float = 0.85
    noise_std: float = 0.3
    n_train: int = 8000
    n_diag: int = 6000
    optimizer: str = "adamw"
    lr: float = 1e-3
    weight_decay: float = 1e-4
    batch: int = 380
    epochs: int = 1400
    clip: float = 1.0
    forcing: float = 0.0
    forcing_alpha: float = 1.5
    forcing_clip: float = 100.0
    slow_fraction: float = 0.10
    checkpoint_every: int = 40
    rate_lags: tuple[int, int, int] = (64, 384, 32)
    envelope_lags: tuple[int, int, int] = (4, 384, 128)
    n_boot: int = 2000
    diag_batch: int = 256
    window_stride: int = 1

    def __post_init__(self) -> None:
        f = setter(self)
        f("arch", as_choice("arch", self.arch, ARCHITECTURES))
        for name, lo in (("hidden", 1), ("d_in", 1), ("T", 4), ("n_lags", 1), ("n_train", 1), ("n_diag", 1),
                         ("batch", 1), ("epochs", 0), ("checkpoint_every", 1), ("n_boot", 1), ("diag_batch", 1), ("window_stride", 1)):
            f(name, as_int(name, getattr(self, name), minimum=lo))
        f("init_s", as_real("init_s", self.init_s, minimum=0.0, maximum=1.0, open_min=True, open_max=True))
        f("lag_exponent", as_real("lag_exponent", self.lag_exponent, minimum=0.0, open_min=True))
        f("coeff_base", as_real("coeff_base", self.coeff_base))
        f("coeff_decay", as_real("coeff_decay", self.coeff_decay, minimum=0.0))
        f("noise_std", as_real("noise_std", self.noise_std, minimum=0.0))
        f("optimizer", as_choice("optimizer", self.optimizer, OPTIMIZERS))
        f("lr", as_real("lr", self.lr, minimum=0.0, open_min=True))
        f("weight_decay", as_real("weight_decay", self.weight_decay, minimum=0.0))
        f("clip", as_real("clip", self.clip, minimum=0.0))
        f("forcing", as_real("forcing", self.forcing, minimum=0.0))
        f("forcing_alpha", as_real("forcing_alpha", self.forcing_alpha, minimum=0.0, maximum=2.0, open_min=True))
        f("forcing_clip", as_real("forcing_clip", self.forcing_clip, minimum=0.0, open_min=True))
        f("slow_fraction", as_real("slow_fraction", self.slow_fraction, minimum=0.0, maximum=1.0, open_min=True))
        lr_ = self.lag_range if self.lag_range is not None else scaled_lag_range(self.T)
        if len(lr_) != 2:
            raise ValueError(f"lag_range must be (lag_min, lag_max), got {self.lag_range!r}")
        lo = as_int("lag_range[0]", lr_[0], minimum=1)
        hi = as_int("lag_range[1]", lr_[1], minimum=lo + 1, maximum=self.T - 1)
        if hi - lo + 1 < self.n_lags:
            raise ValueError(f"lag_range {lo}..{hi} holds {hi - lo + 1} integers, fewer than n_lags = {self.n_lags}")
        f("lag_range", (lo, hi))
        for name in ("rate_lags", "envelope_lags"):
            v = tuple(getattr(self, name))
            if len(v) != 3:
                raise ValueError(f"{name} must be (lo, hi, n) at the reference T = {REFERENCE_T}, got {v!r}")
            a = as_int(f"{name}[0]", v[0], minimum=1)
            b = as_int(f"{name}[1]", v[1], minimum=a + 1)
            n = as_int(f"{name}[2]", v[2], minimum=4)
            f(name, (a, b, n))
            grid = self.lag_grid(name)
            if grid.size < 4:
                raise ValueError(f"{name} scaled to T = {self.T} leaves only {grid.size} distinct lags (need 4)")

    def lag_grid(self, which: str) -> np.ndarray:
        """The integer lag grid ``"rate_lags"`` or ``"envelope_lags"`` scaled to this T."""
        lo, hi, n = getattr(self, as_choice("which", which, ("rate_lags", "envelope_lags")))
        return scaled_lag_grid(self.T, lo, hi, n, geometric=(which == "envelope_lags"))

    @property
    def n_slow(self) -> int:
        return max(1, math.ceil(self.slow_fraction * self.hidden))

    @classmethod
    def from_dict(cls, d: Any) -> "GatedConfig":
        """``GatedConfig(**d)`` (JSON lists accepted for the tuple fields), naming any unknown field."""
        return dataclass_from_dict(cls, d, "config", tuples=("lag_range", "rate_lags", "envelope_lags"))

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Profile:
    """A named set of runs (e.g. const, const_forced, shared, diag) sharing common settings and seeds."""

    name: str
    description: str
    configs: dict[str, GatedConfig]
    seeds: tuple[int, ...]


def load_profile(name_or_path: str | Path) -> Profile:
    """Read ``benchmarks/gated_rnn/<name>.json`` (or a path): ``{"name", "description", "common": {...},
    "runs": {run: {...overrides}}, "seeds": [...]}``; every run is ``GatedConfig(**common, **run)``."""
    p = Path(name_or_path)
    if p.suffix != ".json":
        p = PROFILE_DIR / f"{name_or_path}.json"
    if not p.is_file():
        raise ValueError(f"no gated-RNN profile at {p} (profiles in {PROFILE_DIR}: "
                         f"{sorted(q.stem for q in PROFILE_DIR.glob('*.json'))})")
    raw = json.loads(p.read_text())
    for key in ("name", "common", "runs", "seeds"):
        if key not in raw:
            raise ValueError(f"profile {p}: missing key {key!r}")
    configs = {run: GatedConfig.from_dict({**raw["common"], **over}) for run, over in raw["runs"].items()}
    seeds = tuple(as_int("seed", s, minimum=0) for s in raw["seeds"])
    return Profile(raw["name"], raw.get("description", ""), configs, seeds)


@dataclasses.dataclass
class GatedRun:
    """The outcome of :func:`train_gated`: the trained model, its optimiser, the curves and checkpoints."""

    config: GatedConfig
    seed: int
    task: DelayedTask
    model: GatedRNN
    optimizer: torch.optim.Optimizer
    step_loss: list[float]
    epoch_loss: list[float]
    checkpoints: list[GatedDiagnostics]
    slow_sets: list[list[int]]
    forcing_stats: dict
    seconds: float
    method: str = "AdamW on MSE, grad-norm clip; diagnostics at checkpoints"

    @property
    def final(self) -> GatedDiagnostics:
        return self.checkpoints[-1]

    @property
    def relative_loss(self) -> float:
        """Mean training MSE of the last epoch over ``Var(y_t)`` of the task (1 = predicting 0)."""
        return float(self.epoch_loss[-1] / self.task.target_variance) if self.epoch_loss else float("nan")

    def phase_trajectory(self) -> list[dict]:
        from .diagnostics import phase_trajectory
        return phase_trajectory(self.checkpoints)


def slow_units(tau: np.ndarray, n_slow: int) -> np.ndarray:
    """Indices of the ``n_slow`` units with the largest tau (inf first; ties by index), sorted.

    >>> slow_units(np.array([5.0, np.inf, 7.0, 7.0]), 2).tolist()
    [1, 2]
    """
    tau = np.asarray(tau, dtype=np.float64)
    order = np.lexsort((np.arange(tau.size), -np.nan_to_num(tau, posinf=np.finfo(float).max)))
    return np.sort(order[:n_slow])


def apply_forcing(model: GatedRNN, before: dict[str, torch.Tensor], rows: torch.Tensor, *, scale: float,
                  alpha: float, clip: float, rng: np.random.Generator) -> tuple[int, float]:
    """Add ``scale * rms(Delta) * clip * tanh(X / clip)`` to the slow ``rows`` of every per-unit tensor.

    ``before`` holds those rows before the optimiser step. Returns (number of perturbed scalars, largest
    ``|X|`` drawn) for the log. See the module docstring for the exact definition.
    """
    from numerics.levy_sampling import symmetric_stable

    n, xmax = 0, 0.0
    with torch.no_grad():
        for name, p in model.unit_row_parameters().items():
            delta = p.data[rows] - before[name]
            rms = float(delta.double().pow(2).mean().sqrt())
            if rms == 0.0:
                continue
            X = np.asarray(symmetric_stable(alpha, delta.numel(), rng=rng), dtype=np.float64)
            xmax = max(xmax, float(np.max(np.abs(X))))
            noise = torch.as_tensor(scale * rms * clip * np.tanh(X / clip), dtype=p.dtype).reshape(delta.shape)
            p.data[rows] += noise.to(p.device)
            n += delta.numel()
    return n, xmax


def _make_optimizer(cfg: GatedConfig, model: GatedRNN) -> torch.optim.Optimizer:
    params = [p for p in model.parameters() if p.requires_grad]
    if cfg.optimizer == "adamw":
        return torch.optim.AdamW(params, lr=cfg.lr, weight_decay=cfg.weight_decay)
    if cfg.optimizer == "adam":
        return torch.optim.Adam(params, lr=cfg.lr, weight_decay=cfg.weight_decay)
    return torch.optim.SGD(params, lr=cfg.lr, weight_decay=cfg.weight_decay)


def train_gated(
    config: GatedConfig | dict,
    *,
    seed: int = 0,
    progress: bool = False,
    device: str = "cpu",
    save_dir: str | Path | None = None,
) -> GatedRun:
    """Train one model (see the module docstring); returns a :class:`GatedRun`.

    ``save_dir``: if given, every checkpoint writes ``ckpt_<epoch>.pt`` (model and optimiser state) and
    ``ckpt_<epoch>.json`` (the diagnostics summary) there.
    """
    cfg = GatedConfig.from_dict(config)
    seed = as_int("seed", seed, minimum=0)
    dev = torch.device(device)
    ss = np.random.SeedSequence([seed])
    s_task, s_train, s_diag, s_init, s_batch, s_force = ss.spawn(6)
    task = make_delayed_task(n_lags=cfg.n_lags, lag_min=cfg.lag_range[0], lag_max=cfg.lag_range[1],
                             lag_exponent=cfg.lag_exponent, coeff_base=cfg.coeff_base, coeff_decay=cfg.coeff_decay,
                             d_in=cfg.d_in, noise_std=cfg.noise_std, seed=int(s_task.generate_state(1)[0]))
    x_tr, y_tr = (torch.as_tensor(a, device=dev) for a in task.sample(cfg.n_train, cfg.T, rng=np.random.default_rng(s_train)))
    x_dg, _ = task.sample(cfg.n_diag, cfg.T, rng=np.random.default_rng(s_diag))
    x_dg = torch.as_tensor(x_dg, device=dev)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(int(s_init.generate_state(1)[0]))
        model = build_gated_rnn(cfg.arch, cfg.d_in, cfg.hidden, 1, init_s=cfg.init_s)
    model.to(dev)
    opt = _make_optimizer(cfg, model)
    rng_batch = np.random.default_rng(s_batch)
    rng_force = np.random.default_rng(s_force)
    rate_lags, env_lags = cfg.lag_grid("rate_lags"), cfg.lag_grid("envelope_lags")
    save = Path(save_dir) if save_dir is not None else None
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)

    checkpoints: list[GatedDiagnostics] = []
    slow_sets: list[list[int]] = []
    forcing_stats = {"steps": 0, "scalars": 0, "max_abs_stable_draw": 0.0}
    step = 0

    def checkpoint(epoch: int) -> None:
        d = diagnose(model, x_dg, optimizer=opt, rate_lags=rate_lags, envelope_lags=env_lags,
                     n_boot=cfg.n_boot, seed=seed, batch=cfg.diag_batch, window_stride=cfg.window_stride,
                     epoch=epoch, step=step)
        checkpoints.append(d)
        slow_sets.append(slow_units(d.tau, cfg.n_slow).tolist())
        if save is not None:
            torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": epoch, "step": step},
                       save / f"ckpt_{epoch:05d}.pt")
            (save / f"ckpt_{epoch:05d}.json").write_text(json.dumps(d.summary(), indent=1))

    t0 = time.perf_counter()
    step_loss: list[float] = []
    epoch_loss: list[float] = []
    checkpoint(0)
    model.train()
    bar = tqdm(range(1, cfg.epochs + 1), desc=f"train {cfg.arch}", disable=not progress, file=sys.stderr, leave=False)
    for epoch in bar:
        perm = torch.as_tensor(rng_batch.permutation(cfg.n_train), device=dev)
        losses = []
        for i in range(0, cfg.n_train, cfg.batch):
            idx = perm[i:i + cfg.batch]
            pred, _ = model.run(x_tr[idx])
            loss = torch.mean((pred - y_tr[idx]) ** 2)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            if cfg.clip > 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.clip)
            if cfg.forcing > 0:
                rows = torch.as_tensor(slow_sets[-1], device=dev)
                before = {k: p.detach()[rows].clone() for k, p in model.unit_row_parameters().items()}
            opt.step()
            if cfg.forcing > 0:
                n, xmax = apply_forcing(model, before, rows, scale=cfg.forcing, alpha=cfg.forcing_alpha,
                                        clip=cfg.forcing_clip, rng=rng_force)
                forcing_stats["steps"] += 1
                forcing_stats["scalars"] += n
                forcing_stats["max_abs_stable_draw"] = max(forcing_stats["max_abs_stable_draw"], xmax)
            value = float(loss.detach())
            if not math.isfinite(value):
                raise FloatingPointError(f"training loss became {value} at epoch {epoch}, step {step} (lr={cfg.lr})")
            losses.append(value)
            step += 1
        step_loss.extend(losses)
        epoch_loss.append(float(np.mean(losses)))
        bar.set_postfix_str(f"loss={epoch_loss[-1]:.3g}")
        if epoch % cfg.checkpoint_every == 0 or epoch == cfg.epochs:
            checkpoint(epoch)
            model.train()
    return GatedRun(cfg, seed, task, model, opt, step_loss, epoch_loss, checkpoints, slow_sets, forcing_stats,
                    time.perf_counter() - t0)


def train_gated_in_worker(config: GatedConfig | dict, seed: int, threads: int = 1) -> GatedRun:
    """:func:`train_gated` with ``threads`` torch threads: the entry point for a process-pool worker.

    At the CPU profile's widths one training step is a chain of small matrix products, which a single
    thread runs about as fast as two; training independent runs in parallel processes, one thread each,
    uses both cores of a small machine instead.
    """
    torch.set_num_threads(as_int("threads", threads, minimum=1))
    return train_gated(config, seed=seed)

