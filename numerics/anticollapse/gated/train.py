"""AdamW training of the gated RNNs on the delayed-regression task, with heavy-tailed forcing and checkpoints.

Source: L. Livi, arXiv:2606.29519 (2026), experiments 1 and 2, as restated in
``docs/papers/anti-collapse.md`` ("The gated-RNN experiment").
One run = one :class:`GatedConfig` and one seed: draw the task (lags, u), the training and diagnostic
sequences, initialise the model, train with AdamW (MSE loss, gradient-norm clipping, no schedule) and
measure the time-scale spectrum with :func:`numerics.anticollapse.gated.diagnostics.diagnose` at epoch 0, every
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
   ``numerics.anticollapse.levy_sampling.symmetric_stable``), ``alpha = forcing_alpha`` (1.5), ``c = forcing_clip``
   (100): a soft clip that keeps the heavy tail up to ~c and bounds it beyond.

ConstGate's gate is a buffer, so there the forcing reaches only ``W_x``, ``b`` and ``W_h`` rows.

Reproducibility: ``SeedSequence([seed]).spawn`` gives independent streams for the task direction u, the
training data, the diagnostic data, the initialisation (a forked torch RNG, so the global torch state is
left alone), the minibatch order and the forcing; the task lags come from ``task.lag_seed`` (the author's
20260410), fixed across training seeds. Runs of different architectures with the same seed solve the same
task. Same config, seed and thread count: identical run.

Configs (:class:`GatedConfig`) have four sections, ``task`` (:class:`TaskSpec`), ``model``
(:class:`ModelSpec`), ``train`` (:class:`GatedTrainSpec`) and ``diagnostics`` (:class:`DiagnosticsSpec`); a
sweep file (``numerics/anticollapse/gated/sweeps/*.json``, :func:`numerics.anticollapse.gated.sweep.load_gated_sweep`) holds
``defaults`` per section and named ``runs`` overriding them (:func:`merge_sections`), the layout of
``numerics/memory_functions/bench/sweeps/*.json``; :mod:`numerics.anticollapse.gated.sweep` runs it through the experiment engine.
"""

from __future__ import annotations

import copy
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
from numerics.anticollapse.spectra import (ENVELOPES, GatedDiagnostics, _lag_triple, _pair_or_triple)
from theory._args import as_bool, as_choice, as_instance, as_int, as_real, as_real_array, as_seed_int

from .delayed_task import DelayedTask, _as_exponent, make_delayed_task, scaled_lag_range
from .diagnostics import diagnose
from .gated_rnn import ARCHITECTURES, INITS, GatedRNN, build_gated_rnn


OPTIMIZERS = ("adamw", "adam", "sgd")


def _ints(obj, names: tuple[tuple[str, int], ...]) -> None:
    f = setter(obj)
    for name, lo in names:
        f(name, as_int(name, getattr(obj, name), minimum=lo))


@dataclasses.dataclass(frozen=True)
class TaskSpec:
    """The delayed-regression task and the data (defaults: the reference scale of
    docs/papers/anti-collapse.md, "The gated-RNN experiment").

    ``lag_range=None`` means :func:`~numerics.anticollapse.gated.delayed_task.scaled_lag_range` (``[8, 640]`` at
    T = 1280, scaled with T). ``lag_seed`` draws the lags once for every training seed (the author's
    20260410); ``None`` draws them from the training seed.
    """

    T: int = 1280
    d_in: int = 16
    n_lags: int = 16
    lag_range: tuple[int, int] | None = None
    lag_exponent: float = 1.6
    coeff_base: float = 0.6
    coeff_decay: float = 0.85
    noise_std: float = 0.3
    lag_seed: int | None = 20260410
    n_train: int = 8000
    n_diag: int = 6000

    def __post_init__(self) -> None:
        f = setter(self)
        _ints(self, (("T", 4), ("d_in", 1), ("n_lags", 1), ("n_train", 1), ("n_diag", 1)))
        f("lag_exponent", _as_exponent("lag_exponent", self.lag_exponent))
        f("coeff_base", as_real("coeff_base", self.coeff_base))
        f("coeff_decay", as_real("coeff_decay", self.coeff_decay, minimum=0.0))
        f("noise_std", as_real("noise_std", self.noise_std, minimum=0.0))
        if self.lag_seed is not None:
            f("lag_seed", as_int("lag_seed", self.lag_seed, minimum=0))
        rng = _pair_or_triple("lag_range", self.lag_range, 2, "a pair (lag_min, lag_max) of integers or None") \
            if self.lag_range is not None else scaled_lag_range(self.T)
        lo = as_int("lag_range[0]", rng[0], minimum=1)
        hi = as_int("lag_range[1]", rng[1], minimum=lo + 1, maximum=self.T - 1)
        if hi - lo + 1 < self.n_lags:
            raise ValueError(f"lag_range {lo}..{hi} holds {hi - lo + 1} integers, fewer than n_lags = {self.n_lags}")
        f("lag_range", (lo, hi))


@dataclasses.dataclass(frozen=True)
class ModelSpec:
    """The architecture (:mod:`numerics.anticollapse.gated.gated_rnn`): ``init`` "orthogonal" (the author's) or "uniform"."""

    arch: str = "diag"
    hidden: int = 512
    init_s: float = 0.005
    init: str = "orthogonal"

    def __post_init__(self) -> None:
        f = setter(self)
        f("arch", as_choice("arch", self.arch, ARCHITECTURES))
        _ints(self, (("hidden", 1),))
        f("init_s", as_real("init_s", self.init_s, minimum=0.0, maximum=1.0, open_min=True, open_max=True))
        f("init", as_choice("init", self.init, INITS))


@dataclasses.dataclass(frozen=True)
class GatedTrainSpec:
    """Optimiser, schedule, heavy-tailed forcing (``forcing`` scales the RMS-matched stable noise; 0: off)."""

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

    def __post_init__(self) -> None:
        f = setter(self)
        _ints(self, (("batch", 1), ("epochs", 0), ("checkpoint_every", 1)))
        f("optimizer", as_choice("optimizer", self.optimizer, OPTIMIZERS))
        f("lr", as_real("lr", self.lr, minimum=0.0, open_min=True))
        f("weight_decay", as_real("weight_decay", self.weight_decay, minimum=0.0))
        f("clip", as_real("clip", self.clip, minimum=0.0))
        f("forcing", as_real("forcing", self.forcing, minimum=0.0))
        f("forcing_alpha", as_real("forcing_alpha", self.forcing_alpha, minimum=0.0, maximum=2.0, open_min=True))
        f("forcing_clip", as_real("forcing_clip", self.forcing_clip, minimum=0.0, open_min=True))
        f("slow_fraction", as_real("slow_fraction", self.slow_fraction, minimum=0.0, maximum=1.0, open_min=True))


@dataclasses.dataclass(frozen=True)
class DiagnosticsSpec:
    """Lag grids ``(lo, hi, n)`` in steps (the author's: rates 64..384, envelope ``linspace(4, 384, 128)``
    at T = 1280), the envelope observable ("mu0" | "gelr") and grid ("linear" | "geometric"), bootstrap
    size, diagnostic batch and window stride."""

    rate_lags: tuple[int, int, int] = (64, 384, 32)
    envelope_lags: tuple[int, int, int] = (4, 384, 128)
    envelope_grid: str = "linear"
    envelope: str = "mu0"
    n_boot: int = 2000
    diag_batch: int = 256
    window_stride: int = 1

    def __post_init__(self) -> None:
        f = setter(self)
        _ints(self, (("n_boot", 1), ("diag_batch", 1), ("window_stride", 1)))
        f("envelope_grid", as_choice("envelope_grid", self.envelope_grid, ("linear", "geometric")))
        f("envelope", as_choice("envelope", self.envelope, ENVELOPES))
        for name in ("rate_lags", "envelope_lags"):
            f(name, _lag_triple(name, getattr(self, name)))

    def grid(self, which: str) -> np.ndarray:
        """The integer lags of ``"rate_lags"`` (linear) or ``"envelope_lags"`` (``envelope_grid``), distinct."""
        lo, hi, n = getattr(self, as_choice("which", which, ("rate_lags", "envelope_lags")))
        geometric = which == "envelope_lags" and self.envelope_grid == "geometric"
        return np.unique(np.round(np.geomspace(lo, hi, n) if geometric else np.linspace(lo, hi, n)).astype(np.int64))


_SPECS = {"task": TaskSpec, "model": ModelSpec, "train": GatedTrainSpec, "diagnostics": DiagnosticsSpec}


@dataclasses.dataclass(frozen=True)
class GatedConfig:
    """One training run: ``task``, ``model``, ``train``, ``diagnostics`` (defaults: the reference scale)."""

    task: TaskSpec = TaskSpec()
    model: ModelSpec = ModelSpec()
    train: GatedTrainSpec = GatedTrainSpec()
    diagnostics: DiagnosticsSpec = DiagnosticsSpec()

    def __post_init__(self) -> None:
        f = setter(self)
        for name, cls in _SPECS.items():
            f(name, dataclass_from_dict(cls, getattr(self, name), f"config.{name}", tuples=_TUPLES))
        for which in ("rate_lags", "envelope_lags"):
            g = self.lag_grid(which)
            if g.size < 4 or g[-1] > self.task.T - 1:
                raise ValueError(f"diagnostics.{which} {getattr(self.diagnostics, which)} must give >= 4 "
                                 f"distinct lags below T = {self.task.T}")

    def lag_grid(self, which: str) -> np.ndarray:
        return self.diagnostics.grid(which)

    @property
    def n_slow(self) -> int:
        return max(1, math.ceil(self.train.slow_fraction * self.model.hidden))

    @classmethod
    def from_dict(cls, d: Any) -> "GatedConfig":
        """From ``{"task": {...}, "model": {...}, "train": {...}, "diagnostics": {...}}`` (JSON lists
        accepted for the tuple fields), naming any unknown section or field."""
        return dataclass_from_dict(cls, d, "config")

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


_TUPLES = ("lag_range", "rate_lags", "envelope_lags")


def merge_sections(defaults: dict, run: dict, where: str) -> dict:
    """Section-wise ``{**defaults[s], **run[s]}`` for the four sections of a config (a sweep file's defaults and
    one of its runs); an unknown section is a ``ValueError`` naming it and ``where``."""
    for key, d in (("defaults", defaults), (where, run)):
        as_instance(key, d, dict, "dict section -> settings")
        extra = set(d) - set(_SPECS)
        if extra:
            raise ValueError(f"gated sweep {key}: unknown section(s) {sorted(extra)}; allowed: {list(_SPECS)}")
    return {s: {**defaults.get(s, {}), **run.get(s, {})} for s in _SPECS}


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
    states: list = None         # per checkpoint {"model", "optimizer", "epoch", "step"} (keep_states=True)

    @property
    def final(self) -> GatedDiagnostics:
        return self.checkpoints[-1]

    @property
    def relative_loss(self) -> float:
        """Mean training MSE of the last epoch over ``Var(y_t)`` of the task (1 = predicting 0)."""
        return float(self.epoch_loss[-1] / self.task.target_variance) if self.epoch_loss else float("nan")

    def phase_trajectory(self) -> list[dict]:
        from numerics.anticollapse.spectra import phase_trajectory
        return phase_trajectory(self.checkpoints)


def slow_units(tau: np.ndarray, n_slow: int) -> np.ndarray:
    """Indices of the ``n_slow`` units with the largest tau (inf first; ties by index), sorted.

    >>> slow_units(np.array([5.0, np.inf, 7.0, 7.0]), 2).tolist()
    [1, 2]
    """
    tau = as_real_array("tau", tau, finite=False)
    if np.any(np.isnan(tau)):
        raise ValueError("tau must hold time scales (> 0, inf for a non-decaying unit), got NaN")
    if tau.ndim != 1:
        raise ValueError(f"tau must be a 1-d array of time scales, got shape {tau.shape}")
    n_slow = as_int(f"n_slow (at most len(tau) = {tau.size})", n_slow, minimum=0, maximum=tau.size)
    order = np.lexsort((np.arange(tau.size), -np.nan_to_num(tau, posinf=np.finfo(float).max)))
    return np.sort(order[:n_slow])


def apply_forcing(model: GatedRNN, before: dict[str, torch.Tensor], rows: torch.Tensor, *, scale: float,
                  alpha: float, clip: float, rng: np.random.Generator) -> tuple[int, float]:
    """Add ``scale * rms(Delta) * clip * tanh(X / clip)`` to the slow ``rows`` of every per-unit tensor.

    ``before`` holds those rows before the optimiser step. Returns (number of perturbed scalars, largest
    ``|X|`` drawn) for the log. See the module docstring for the exact definition.
    """
    as_instance("model", model, GatedRNN, "numerics.anticollapse.gated.gated_rnn.GatedRNN")
    as_instance("before", before, dict, "dict of tensors")
    as_instance("rows", rows, torch.Tensor, "torch.Tensor of row indices")
    scale, clip = as_real("scale", scale, minimum=0.0), as_real("clip", clip, minimum=0.0, open_min=True)
    # up front (the draw checks it too, but only for rows that moved: a complex alpha passed unnoticed)
    alpha = as_real("alpha", alpha, minimum=0.0, maximum=2.0, open_min=True)
    as_instance("rng", rng, np.random.Generator, "numpy.random.Generator")
    from numerics.anticollapse.levy_sampling import symmetric_stable

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


def _make_optimizer(tr: GatedTrainSpec, model: GatedRNN) -> torch.optim.Optimizer:
    params = [p for p in model.parameters() if p.requires_grad]
    cls = {"adamw": torch.optim.AdamW, "adam": torch.optim.Adam, "sgd": torch.optim.SGD}[tr.optimizer]
    return cls(params, lr=tr.lr, weight_decay=tr.weight_decay)


@dataclasses.dataclass
class _State:
    """Everything a run carries between steps (built by :func:`_setup`)."""

    cfg: GatedConfig
    seed: int
    task: DelayedTask
    x_tr: torch.Tensor
    y_tr: torch.Tensor
    x_dg: torch.Tensor
    model: GatedRNN
    opt: torch.optim.Optimizer
    rng_batch: np.random.Generator
    rng_force: np.random.Generator
    checkpoints: list = dataclasses.field(default_factory=list)
    slow_sets: list = dataclasses.field(default_factory=list)
    forcing_stats: dict = dataclasses.field(default_factory=lambda: {"steps": 0, "scalars": 0, "max_abs_stable_draw": 0.0})
    step: int = 0


def seed_streams(seed: int) -> list[np.random.SeedSequence]:
    """The run's six independent streams: task direction, training data, diagnostic data, initialisation,
    minibatch order, forcing (``SeedSequence([seed]).spawn(6)``)."""
    return np.random.SeedSequence([as_int("seed", seed, minimum=0)]).spawn(6)


def make_task(config: GatedConfig | dict, seed: int) -> DelayedTask:
    """The delayed task of a run: lags from ``task.lag_seed``, direction u from the run's first stream."""
    cfg = GatedConfig.from_dict(config)
    t = cfg.task
    return make_delayed_task(n_lags=t.n_lags, lag_min=t.lag_range[0], lag_max=t.lag_range[1],
                             lag_exponent=t.lag_exponent, coeff_base=t.coeff_base, coeff_decay=t.coeff_decay,
                             d_in=t.d_in, noise_std=t.noise_std, seed=int(seed_streams(seed)[0].generate_state(1)[0]),
                             lag_seed=t.lag_seed)


def _setup(cfg: GatedConfig, seed: int, dev: torch.device) -> _State:
    """Task, data, model and optimiser of one run, from independent streams of ``SeedSequence([seed])``."""
    t, m = cfg.task, cfg.model
    _, s_train, s_diag, s_init, s_batch, s_force = seed_streams(seed)
    task = make_task(cfg, seed)
    x_tr, y_tr = (torch.as_tensor(a, device=dev) for a in task.sample(t.n_train, t.T, rng=np.random.default_rng(s_train)))
    x_dg = torch.as_tensor(task.sample(t.n_diag, t.T, rng=np.random.default_rng(s_diag))[0], device=dev)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(int(s_init.generate_state(1)[0]))
        model = build_gated_rnn(m.arch, t.d_in, m.hidden, 1, init_s=m.init_s, init=m.init)
    model.to(dev)
    return _State(cfg, seed, task, x_tr, y_tr, x_dg, model, _make_optimizer(cfg.train, model),
                  np.random.default_rng(s_batch), np.random.default_rng(s_force))


def _checkpoint(st: _State, epoch: int, keep: list | None = None) -> None:
    dg = st.cfg.diagnostics
    d = diagnose(st.model, st.x_dg, optimizer=st.opt, rate_lags=st.cfg.lag_grid("rate_lags"),
                 envelope_lags=st.cfg.lag_grid("envelope_lags"), envelope=dg.envelope, n_boot=dg.n_boot,
                 seed=st.seed, batch=dg.diag_batch, window_stride=dg.window_stride, epoch=epoch, step=st.step)
    st.checkpoints.append(d)
    st.slow_sets.append(slow_units(d.tau, st.cfg.n_slow).tolist())
    state = {"model": st.model.state_dict(), "optimizer": st.opt.state_dict(), "epoch": epoch, "step": st.step}
    if keep is not None:
        keep.append(copy.deepcopy(state))
    st.model.train()


def _optimizer_step(st: _State, idx: torch.Tensor) -> float:
    """One AdamW step on the minibatch ``idx`` (clip, then forcing of the slow rows if enabled)."""
    tr = st.cfg.train
    pred, _ = st.model.run(st.x_tr[idx])
    loss = torch.mean((pred - st.y_tr[idx]) ** 2)
    st.opt.zero_grad(set_to_none=True)
    loss.backward()
    if tr.clip > 0:
        torch.nn.utils.clip_grad_norm_(st.model.parameters(), tr.clip)
    if tr.forcing > 0:
        rows = torch.as_tensor(st.slow_sets[-1], device=idx.device)
        before = {k: p.detach()[rows].clone() for k, p in st.model.unit_row_parameters().items()}
    st.opt.step()
    if tr.forcing > 0:
        n, xmax = apply_forcing(st.model, before, rows, scale=tr.forcing, alpha=tr.forcing_alpha,
                                clip=tr.forcing_clip, rng=st.rng_force)
        fs = st.forcing_stats
        fs["steps"], fs["scalars"] = fs["steps"] + 1, fs["scalars"] + n
        fs["max_abs_stable_draw"] = max(fs["max_abs_stable_draw"], xmax)
    value = float(loss.detach())
    if not math.isfinite(value):
        raise FloatingPointError(f"training loss became {value} at step {st.step} (lr={tr.lr})")
    st.step += 1
    return value


def train_gated(config: GatedConfig | dict, *, seed: int = 0, progress: bool = False, device: str = "cpu",
                keep_states: bool = False) -> GatedRun:
    """Train one model (see the module docstring); returns a :class:`GatedRun`.

    ``keep_states``: the run also carries every checkpoint's model and optimiser state (``GatedRun.states``),
    for the long-horizon diagnosis (:mod:`numerics.anticollapse.gated.long_horizon`); a sweep stores them
    (:mod:`numerics.anticollapse.gated.sweep`).
    """
    cfg = GatedConfig.from_dict(config)
    progress, keep_states = as_bool("progress", progress), as_bool("keep_states", keep_states)
    st = _setup(cfg, as_seed_int(seed), torch.device(as_device(device)))
    t0 = time.perf_counter()
    step_loss: list[float] = []
    epoch_loss: list[float] = []
    keep = [] if keep_states else None
    _checkpoint(st, 0, keep)
    tr, n = cfg.train, cfg.task.n_train
    bar = tqdm(range(1, tr.epochs + 1), desc=f"train {cfg.model.arch}", disable=not progress, file=sys.stderr, leave=False)
    for epoch in bar:
        perm = torch.as_tensor(st.rng_batch.permutation(n), device=st.x_tr.device)
        losses = [_optimizer_step(st, perm[i:i + tr.batch]) for i in range(0, n, tr.batch)]
        step_loss.extend(losses)
        epoch_loss.append(float(np.mean(losses)))
        bar.set_postfix_str(f"loss={epoch_loss[-1]:.3g}")
        if epoch % tr.checkpoint_every == 0 or epoch == tr.epochs:
            _checkpoint(st, epoch, keep)
    return GatedRun(cfg, st.seed, st.task, st.model, st.opt, step_loss, epoch_loss, st.checkpoints, st.slow_sets,
                    st.forcing_stats, time.perf_counter() - t0, states=keep)

