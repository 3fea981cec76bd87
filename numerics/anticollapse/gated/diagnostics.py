"""The diagnosis of a trained gated RNN: leak and first-order traces, the optimiser's base rate, and
:func:`diagnose` (rates, time scales, envelopes, tail and envelope exponents, the phase); needs PyTorch.

Source: L. Livi, arXiv:2606.29519 (2026) and arXiv:2512.05790 (``docs/papers/anti-collapse.md``). The
model-free half (transport, rate fit, envelopes, the per-checkpoint record :class:`GatedDiagnostics`) is
:mod:`numerics.anticollapse.spectra`, whose docstring states the conventions. For the models of
:mod:`numerics.anticollapse.gated.gated_rnn` (``h_p = (1 - s_p) h_{p-1} + s_p tanh_p``):

- Leak and first-order term of unit q at step p (from a :class:`~numerics.anticollapse.gated.gated_rnn.Trace`):

      a_p = 1 - s_p,
      r_p = s_p (1 - tanh_p^2) [W_h]_qq + (tanh_p - h_{p-1}) s_p (1 - s_p) [U_s]_qq

  (``[U_s]_qq`` is ``u_s[q]`` for SharedGate and 0 for ConstGate). These are the diagonal element
  ``a_p + r_p`` of the one-step Jacobian ``J_p = dh_p / dh_{p-1}`` split into its zeroth-order part and the
  part linear in the recurrent weights.
- Optimiser base rate ``Lambda_q``: SGD: ``lr``; Adam/AdamW: ``lr / (sqrt(v_hat) + eps)`` with
  ``v_hat = exp_avg_sq / (1 - beta2^step)``, averaged over the unit's recurrent row ``[W_h]_{q, :}`` and,
  for DiagGate, its gate row ``[U_s]_{q, :}`` (the author's average over the (H, H) recurrent matrices)
  (:func:`optimizer_base_rate`). ELR ``mu_{t,l} = Lambda_q Gamma_{t,l}``
  (``Gamma``: the transport of :mod:`numerics.anticollapse.spectra`).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import torch

from theory._args import as_instance, as_int, as_real

from numerics.stats import MAX_BOOT
from numerics.anticollapse.gated.gated_rnn import GatedRNN, Trace
from numerics.anticollapse.spectra import (LEAK_FLOOR, Envelope, GatedDiagnostics, RateFit, diagnose_rates,
                                           rates_and_envelope_from_leaks)

# ---------------------------------------------------------------------------------------------- local terms
def leak_and_first_order(model: GatedRNN, trace: Trace) -> tuple[np.ndarray, np.ndarray]:
    """``(a, r)``, float64 arrays of shape (B, T, H): the leak ``1 - s_p`` and the first-order term ``r_p``."""
    _check_model_trace(model, trace)
    wh, us = (v.double().cpu().numpy() for v in model.recurrent_diagonals())
    s, c, hp = (v.detach().double().cpu().numpy() for v in (trace.s, trace.tanh, trace.h_prev))
    a = 1.0 - s
    r = s * (1.0 - c * c) * wh + (c - hp) * s * a * us
    # a float32 gate can round to s = 1 (true leak below 6e-8): floor the leak as the author does
    return np.maximum(a, LEAK_FLOOR), r


_NO_TRACE = object()


def _check_model_trace(model, trace=_NO_TRACE) -> None:
    as_instance("model", model, GatedRNN, "numerics.anticollapse.gated.gated_rnn.GatedRNN")
    if trace is not _NO_TRACE:
        as_instance("trace", trace, Trace, "numerics.anticollapse.gated.gated_rnn.Trace (GatedRNN.run(x, trace=True))")


def one_step_jacobian_remainders(model: GatedRNN, trace: Trace) -> np.ndarray:
    """``e_p = ||J_p - diag(a_p)||_inf`` for every step p and sequence, shape (B, T), from the closed-form
    Jacobian ``J_p = diag(a_p) + diag(s_p (1 - tanh_p^2)) W_h + diag(tanh_p - h_{p-1}) ds_p/dh_{p-1}``."""
    _check_model_trace(model, trace)
    with torch.no_grad():
        Wh = model.W_h.weight.detach().double()
        s = trace.s.double()
        c = trace.tanh.double()
        hp = trace.h_prev.double()
        E = (s * (1 - c * c))[..., None] * Wh                          # (B, T, H, H)
        if model.arch == "diag":
            E = E + ((c - hp) * s * (1 - s))[..., None] * model.U_s.weight.detach().double()
        elif model.arch == "shared":
            E = E + ((c - hp) * s * (1 - s))[..., None] * model.U_s.weight.detach().double()[0]
        return E.abs().sum(dim=-1).amax(dim=-1).numpy()


def _rate_matrices(model: GatedRNN) -> list[torch.nn.Parameter]:
    """The (H, H) recurrent matrices whose rows feed unit q: ``W_h`` and, for DiagGate, ``U_s`` (the
    author's choice; SharedGate's ``u_s`` is (1, H) and, as there, not included)."""
    return [model.W_h.weight] + ([model.U_s.weight] if model.arch == "diag" else [])


def optimizer_base_rate(model: GatedRNN, optimizer: torch.optim.Optimizer | None) -> tuple[np.ndarray, str]:
    """``(Lambda, method)``: the optimiser's per-unit base rate, shape (H,).

    Adam/AdamW (a state with ``exp_avg_sq``): ``lr / (sqrt(v_hat) + eps)`` averaged elementwise over the
    (H, H) recurrent matrices that have optimiser state (``W_h``, and ``U_s`` for DiagGate: the recurrent
    and gate rows, as the author does), then over the row ``q``; plain SGD: ``lr``. Before Adam's first
    step there is no second moment, and ``None`` as optimiser: the uniform rate 1 (method says so).
    """
    _check_model_trace(model)
    if optimizer is not None:
        as_instance("optimizer", optimizer, torch.optim.Optimizer, "torch.optim.Optimizer or None")
    H = model.hidden
    if optimizer is None:
        return np.ones(H), "uniform (no optimiser)"
    p = model.W_h.weight
    group = next((g for g in optimizer.param_groups if any(q is p for q in g["params"])), None)
    if group is None:
        raise ValueError("optimizer does not hold the model's W_h.weight")
    lr = float(group["lr"])
    lams, names = [], []
    for name, w in zip(("W_h", "U_s"), _rate_matrices(model)):
        state = optimizer.state.get(w, {})
        if "exp_avg_sq" not in state:
            continue
        step = state["step"]
        step = float(step.item() if isinstance(step, torch.Tensor) else step)
        v_hat = state["exp_avg_sq"].detach().double() / (1.0 - float(group["betas"][1]) ** step)
        lams.append(lr / (v_hat.sqrt() + float(group["eps"])))
        names.append(name)
    if lams:
        lam = torch.stack(lams).mean(dim=0).mean(dim=1).cpu().numpy()
        return lam, f"{type(optimizer).__name__}: lr / (sqrt(v_hat) + eps), mean over the {'+'.join(names)} rows"
    if isinstance(optimizer, torch.optim.SGD):
        return np.full(H, lr), "SGD: lr"
    return np.ones(H), f"uniform ({type(optimizer).__name__} has no second-moment state yet)"


def rates_and_envelope(model: GatedRNN, x: torch.Tensor, *, rate_lags: Sequence[int], envelope_lags: Sequence[int],
                       base_rate: np.ndarray | None = None, envelope: str = "mu0", batch: int = 64,
                       window_stride: int = 1, variant: str = "no_floor") -> tuple[RateFit, Envelope]:
    """Per-unit rates and the envelopes of ``model`` on the diagnostic sequences ``x`` (B, T, d_in).

    Sequences are processed ``batch`` at a time; the means are over sequences and over the windows ending
    at t = T-1, T-1-stride, ... >= l-1 (``window_stride = 1``: every window; overlapping windows are
    strongly correlated, so a stride > 1 loses little and saves time). ``envelope`` names the observable
    returned as ``Envelope.measured`` (both are computed). The model-free part is
    :func:`rates_and_envelope_from_leaks`.
    """
    _check_model_trace(model)
    as_instance("x", x, torch.Tensor, "torch.Tensor (B, T, d_in)")
    if not isinstance(x, torch.Tensor) or x.ndim != 3:
        raise ValueError("x must be a tensor of shape (B, T, d_in)")
    batch = as_int("batch", batch, minimum=1)

    def leaks():
        was_training = model.training
        model.eval()
        try:
            for i in range(0, x.shape[0], batch):
                with torch.no_grad():
                    _, tr = model.run(x[i:i + batch], trace=True)
                yield leak_and_first_order(model, tr)
        finally:
            model.train(was_training)

    return rates_and_envelope_from_leaks(leaks(), T=x.shape[1], hidden=model.hidden, rate_lags=rate_lags,
                                         envelope_lags=envelope_lags, base_rate=base_rate, envelope=envelope,
                                         window_stride=window_stride, variant=variant)


def diagnose(model: GatedRNN, x: torch.Tensor, *, optimizer: torch.optim.Optimizer | None = None,
             rate_lags: Sequence[int], envelope_lags: Sequence[int], envelope: str = "mu0", n_boot: int = 2000,
             level: float = 0.90, window: tuple[float, float] = (0.75, 0.995), seed: int = 0, batch: int = 64,
             window_stride: int = 1, epoch: int = 0, step: int = 0, variant: str = "no_floor") -> GatedDiagnostics:
    """Rates, time scales, envelopes, window gates, beta (tail, envelope, calibrated), resolution, phases
    (the author's labels and our calibrated one); ``variant="author"``: both of the author's 1e-30 floors."""
    _check_model_trace(model)
    as_instance("x", x, torch.Tensor, "torch.Tensor (B, T, d_in)")
    n_boot = as_int("n_boot", n_boot, minimum=1, maximum=MAX_BOOT)
    level = as_real("level", level, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    lam, lam_method = optimizer_base_rate(model, optimizer)
    rates, env = rates_and_envelope(model, x, rate_lags=rate_lags, envelope_lags=envelope_lags, base_rate=lam,
                                    envelope=envelope, batch=batch, window_stride=window_stride, variant=variant)
    return diagnose_rates(rates, env, arch=model.arch, base_rate=lam, base_rate_method=lam_method, n_boot=n_boot,
                          level=level, window=window, seed=seed, epoch=epoch, step=step, variant=variant)


