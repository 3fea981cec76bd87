"""Long-horizon diagnosis: trained gated RNNs re-diagnosed at a longer T from their checkpoint weights.

Why: at the training length (cpu profile: T = 512, envelope lags to 256) the envelope stops before the
slowest units decay (tau of 450-3,000 steps), so the resolution check fails. The diagnosis needs only
forward passes, so training stays short and the *same weights* are diagnosed at T = 8192 (cpu profile:
rate lags 416..2464, the training grid 26..154 times T / 512; envelope ``linspace(2, 4096, 128)``; every
64th window end; 64 fresh sequences). Source of the quantities: ``docs/papers/anti-collapse.md``.

Inputs: the diagnostic sequences come from the run's own diagnostic stream (``SeedSequence([seed])``'s
third child, as in :mod:`numerics.anticollapse.gated.train`) at the long length; the optimiser's base rate
from the optimiser state saved with the weights. Besides the first-order time scales (the rate fit at the
long lags) every diagnosis carries the leak-only time scales ``-1 / E log a`` (``RateFit.tau_leak``).

The settings live in the profile file as ``"long_diagnosis": {"T", "n_diag", "diag_batch", "window_stride",
"rate_lags", "envelope_lags", "n_boot"}`` (:class:`numerics.anticollapse.spectra.LongDiagnosisSpec`).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

from theory._args import MAX_LENGTH, MAX_MEMORY_BYTES, as_instance, as_int, as_path, check_budget

from numerics.anticollapse.spectra import GatedDiagnostics, LongDiagnosisSpec

from .diagnostics import diagnose
from .gated_rnn import build_gated_rnn
from .train import GatedConfig, GatedRun, _make_optimizer

_ANNOUNCE_ENTRIES = 1 << 25

__all__ = ["diagnostic_inputs", "model_from_state", "rediagnose_state",
           "rediagnose_run", "load_states"]


def diagnostic_inputs(run, T: int, n: int) -> torch.Tensor:
    """``n`` sequences of length ``T`` of the run's task, from the run's diagnostic stream (float32)."""
    as_instance("run", run, GatedRun, "GatedRun (train_gated)")
    T, n = as_int("T", T, minimum=2, maximum=MAX_LENGTH), as_int("n", n, minimum=1, maximum=MAX_LENGTH)
    # the float64 inputs and targets and the float32 copy: about 3x the inputs' 8 bytes per entry
    check_budget("n", 24.0 * n * T * run.task.d_in, MAX_MEMORY_BYTES, value=n)
    s_diag = np.random.SeedSequence([run.seed]).spawn(6)[2]
    # a few seconds or more of drawing (over 2**25 entries, e.g. the reference's 6000 x 1280 x 16): announced
    show = n * T * run.task.d_in > _ANNOUNCE_ENTRIES
    return torch.as_tensor(run.task.sample(n, T, rng=np.random.default_rng(s_diag), progress=show)[0])


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


def rediagnose_state(run, state: dict, spec: LongDiagnosisSpec, x: torch.Tensor | None = None,
                     variant: str = "ours") -> GatedDiagnostics:
    """The long-horizon diagnosis of one checkpoint ``state`` of ``run`` (a ``GatedRun``)."""
    as_instance("run", run, GatedRun, "GatedRun (train_gated)")
    as_instance("spec", spec, LongDiagnosisSpec, "LongDiagnosisSpec")
    x = diagnostic_inputs(run, spec.T, spec.n_diag) if x is None else x
    model, opt = model_from_state(run.config, state)
    return diagnose(model, x, optimizer=opt, rate_lags=spec.grid("rate_lags"),
                    envelope_lags=spec.grid("envelope_lags"), envelope=run.config.diagnostics.envelope,
                    n_boot=spec.n_boot, seed=run.seed, batch=spec.diag_batch, window_stride=spec.window_stride,
                    epoch=int(state.get("epoch", 0)), step=int(state.get("step", 0)), variant=variant)


def rediagnose_run(run, states: list[dict], spec: LongDiagnosisSpec, variant: str = "ours") -> list[GatedDiagnostics]:
    """Every checkpoint of ``run`` at the long horizon, in order (one set of diagnostic sequences)."""
    as_instance("run", run, GatedRun, "GatedRun (train_gated)")
    as_instance("spec", spec, LongDiagnosisSpec, "LongDiagnosisSpec")
    as_instance("states", states, (list, tuple), 'list of checkpoint states ({"model", "optimizer"} dicts)')
    if not states:
        raise ValueError("states is empty: the run kept no checkpoint weights (train_gated(keep_states=True) "
                         "or save_dir=...)")
    x = diagnostic_inputs(run, spec.T, spec.n_diag)
    return [rediagnose_state(run, s, spec, x, variant) for s in states]


def load_states(folder: str | Path) -> list[dict]:
    """The checkpoint states ``ckpt_<epoch>.pt`` written by ``train_gated(save_dir=folder)``, by epoch."""
    folder = as_path("folder", folder)
    files = sorted(Path(folder).glob("ckpt_*.pt"))
    if not files:
        raise ValueError(f"no ckpt_*.pt in {folder}")
    return [torch.load(f, map_location="cpu", weights_only=True) for f in files]


def summaries_json(diags: list[GatedDiagnostics]) -> str:
    return json.dumps([d.summary() for d in diags], indent=1, default=float)


def training_spec(config) -> LongDiagnosisSpec:
    """The run's own diagnosis settings (training length and grids) as a :class:`LongDiagnosisSpec`:
    re-diagnosing with it reproduces the training-time checkpoints (or applies another variant to them)."""
    dg, t = config.diagnostics, config.task
    return LongDiagnosisSpec(T=t.T, n_diag=t.n_diag, diag_batch=dg.diag_batch, window_stride=dg.window_stride,
                             rate_lags=dg.rate_lags, envelope_lags=dg.envelope_lags, n_boot=dg.n_boot)


def rediagnose_in_worker(run, specs: dict, states: list[dict] | None = None, threads: int = 1,
                         final_only: tuple[str, ...] = ()) -> dict:
    """:func:`rediagnose_run` for a process-pool worker. ``specs``: ``{name: (LongDiagnosisSpec | None,
    variant)}`` (None: :func:`training_spec`); returns ``{name: [GatedDiagnostics], "seconds": {name: s}}``;
    ``states`` default ``run.states``; ``"cpu_seconds"``: the same in process CPU time; names in
    ``final_only``: the final checkpoint only."""
    import time

    torch.set_num_threads(as_int("threads", threads, minimum=1))
    out, secs, cpu = {}, {}, {}
    for name, (spec, variant) in specs.items():
        t0, c0 = time.perf_counter(), time.process_time()
        todo = (getattr(run, "states", None) or []) if states is None else states
        out[name] = rediagnose_run(run, todo[-1:] if name in final_only else todo,
                                   training_spec(run.config) if spec is None else spec, variant)
        secs[name], cpu[name] = time.perf_counter() - t0, time.process_time() - c0
    out["seconds"], out["cpu_seconds"] = secs, cpu
    return out
