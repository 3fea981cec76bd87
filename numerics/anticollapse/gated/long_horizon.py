"""Long-horizon diagnosis: trained gated RNNs re-diagnosed at a longer T from their checkpoint weights.

Why: at the training length (cpu sweep: T = 512, envelope lags to 256) the envelope stops before the
slowest units decay (tau of 450-3,000 steps), so the resolution check fails. The diagnosis needs only
forward passes, so training stays short and the *same weights* are diagnosed at T = 8192 (cpu sweep:
rate lags 416..2464, the training grid 26..154 times T / 512; envelope ``linspace(2, 4096, 128)``; every
64th window end; 64 fresh sequences). Source of the quantities: ``docs/papers/anti-collapse.md``.

Inputs: the diagnostic sequences come from the run's own diagnostic stream (``SeedSequence([seed])``'s
third child, as in :mod:`numerics.anticollapse.gated.train`) at the long length; the optimiser's base rate
from the optimiser state saved with the weights. Besides the first-order time scales (the rate fit at the
long lags) every diagnosis carries the leak-only time scales ``-1 / E log a`` (``RateFit.tau_leak``).

The settings live in the sweep file as ``"long_diagnosis": {"T", "n_diag", "diag_batch", "window_stride",
"rate_lags", "envelope_lags", "n_boot"}`` (:class:`numerics.anticollapse.spectra.LongDiagnosisSpec`).
"""

from __future__ import annotations

import numpy as np
import torch

from numerics.anticollapse.spectra import GatedDiagnostics, LongDiagnosisSpec
from theory._args import MAX_LENGTH, MAX_MEMORY_BYTES, as_instance, as_int, check_budget

from .diagnostics import diagnose
from .gated_rnn import build_gated_rnn
from .train import GatedConfig, _make_optimizer, make_task, seed_streams

_ANNOUNCE_ENTRIES = 1 << 25

__all__ = ["diagnostic_inputs", "model_from_state", "rediagnose_state", "rediagnose_run", "training_spec"]


def diagnostic_inputs(config: GatedConfig, seed: int, T: int, n: int) -> torch.Tensor:
    """``n`` sequences of length ``T`` of the run's task (``config``, ``seed``), from the run's diagnostic
    stream (float32)."""
    as_instance("config", config, GatedConfig, "GatedConfig")
    T, n = as_int("T", T, minimum=2, maximum=MAX_LENGTH), as_int("n", n, minimum=1, maximum=MAX_LENGTH)
    # the float64 inputs and targets and the float32 copy: about 3x the inputs' 8 bytes per entry
    check_budget("n", 24.0 * n * T * config.task.d_in, MAX_MEMORY_BYTES, value=n)
    task = make_task(config, seed)
    # a few seconds or more of drawing (over 2**25 entries, e.g. the reference's 6000 x 1280 x 16): announced
    show = n * T * task.d_in > _ANNOUNCE_ENTRIES
    return torch.as_tensor(task.sample(n, T, rng=np.random.default_rng(seed_streams(seed)[2]), progress=show)[0])


def model_from_state(config, state: dict):
    """``(model, optimizer)`` of ``config`` with the saved ``state`` ({"model", "optimizer"}) loaded."""
    as_instance("config", config, GatedConfig, "GatedConfig")
    as_instance("state", state, dict, 'dict ({"model", "optimizer"})')
    m = config.model
    model = build_gated_rnn(m.arch, config.task.d_in, m.hidden, 1, init_s=m.init_s, init=m.init)
    model.load_state_dict(state["model"])
    opt = _make_optimizer(config.train, model)
    opt.load_state_dict(state["optimizer"])
    return model, opt


def rediagnose_state(config: GatedConfig, seed: int, state: dict, spec: LongDiagnosisSpec,
                     x: torch.Tensor | None = None, variant: str = "no_floor") -> GatedDiagnostics:
    """The diagnosis at ``spec`` of one checkpoint ``state`` of the run (``config``, ``seed``)."""
    as_instance("config", config, GatedConfig, "GatedConfig")
    as_instance("spec", spec, LongDiagnosisSpec, "LongDiagnosisSpec")
    seed = as_int("seed", seed, minimum=0)
    x = diagnostic_inputs(config, seed, spec.T, spec.n_diag) if x is None else x
    model, opt = model_from_state(config, state)
    return diagnose(model, x, optimizer=opt, rate_lags=spec.grid("rate_lags"),
                    envelope_lags=spec.grid("envelope_lags"), envelope=config.diagnostics.envelope,
                    n_boot=spec.n_boot, seed=seed, batch=spec.diag_batch, window_stride=spec.window_stride,
                    epoch=int(state.get("epoch", 0)), step=int(state.get("step", 0)), variant=variant)


def rediagnose_run(config: GatedConfig, seed: int, states: list[dict], spec: LongDiagnosisSpec,
                   variant: str = "no_floor") -> list[GatedDiagnostics]:
    """Every checkpoint state of the run (``config``, ``seed``) diagnosed at ``spec``, in order (one set of
    diagnostic sequences)."""
    as_instance("config", config, GatedConfig, "GatedConfig")
    as_instance("spec", spec, LongDiagnosisSpec, "LongDiagnosisSpec")
    as_instance("states", states, (list, tuple), 'list of checkpoint states ({"model", "optimizer"} dicts)')
    if not states:
        raise ValueError("states is empty: the run kept no checkpoint weights (train_gated(keep_states=True))")
    x = diagnostic_inputs(config, seed, spec.T, spec.n_diag)
    return [rediagnose_state(config, seed, s, spec, x, variant) for s in states]


def training_spec(config) -> LongDiagnosisSpec:
    """The run's own diagnosis settings (training length and grids) as a :class:`LongDiagnosisSpec`:
    re-diagnosing with it reproduces the training-time checkpoints (or applies another variant to them)."""
    as_instance("config", config, GatedConfig, "GatedConfig")
    dg, t = config.diagnostics, config.task
    return LongDiagnosisSpec(T=t.T, n_diag=t.n_diag, diag_batch=dg.diag_batch, window_stride=dg.window_stride,
                             rate_lags=dg.rate_lags, envelope_lags=dg.envelope_lags, n_boot=dg.n_boot)
