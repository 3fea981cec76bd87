"""Empirical memory function of a (trained) sequence model, comparable to the target's ``rho``.

Two probes, both returning ``rhohat`` of length T (lag s = 0 .. T-1):

- ``"impulse"``: the response to a unit impulse, ``rhohat(s) = f(e_0)(s) - f(0)(s)``. Exact for a linear
  time-invariant model (an affine bias is removed by the ``f(0)`` term).
- ``"jacobian"`` (default): the mean partial derivative ``rhohat(s) = E_x[ d f(x)(t) / d x(t - s) ]`` at the last
  position ``t = T - 1`` (so every lag 0 .. T-1 is seen), averaged over ``n`` iid N(0, 1) input sequences,
  computed by autograd. For a linear model it equals the impulse response; for the nonlinear target
  ``y = sigma_2(rho * sigma_1(x))`` the same probe gives ``E[sigma_2' sigma_1'] rho(s)``, proportional to rho.
"""

from __future__ import annotations

import sys
import time

import numpy as np
import torch

from theory._args import MAX_LENGTH, MAX_MEMORY_BYTES, as_choice, as_instance, as_int, as_length, as_seed_int, check_budget


# Time estimate of a long probe: above _TIMED_ABOVE_T steps the probe is first timed at _TIMING_T steps (a
# fraction of a second) and extrapolated linearly in T (quadratically with attention); a probe estimated past
# MAX_PROBE_SECONDS is refused, one past _ANNOUNCE_SECONDS says so on stderr before it starts (a recurrent
# model steps through T sequentially: an LSTM probe of T = 4096 takes seconds, T = 10**6 hours).
MAX_PROBE_SECONDS = 300.0
_ANNOUNCE_SECONDS = 5.0
_TIMED_ABOVE_T = 2048
_TIMING_T = 128


def memory_probe(model: torch.nn.Module, T: int, *, method: str = "jacobian", n: int = 32, seed: int = 0) -> np.ndarray:
    """``rhohat(s)``, s = 0 .. T-1, of a model mapping (B, T, 1) -> (B, T, 1); see the module docstring."""
    as_instance("model", model, torch.nn.Module, "torch.nn.Module")
    T = as_length("T", T)
    method = as_choice("method", method, ("jacobian", "impulse"))
    n, seed = as_int("n", n, minimum=1, maximum=MAX_LENGTH), as_seed_int(seed)
    batch = 2 if method == "impulse" else n
    check_budget("T", _probe_bytes(model, T, batch, grad=method == "jacobian"), MAX_MEMORY_BYTES, value=T)
    if T > _TIMED_ABOVE_T:
        seconds = _probe_seconds(model, T, method, n)
        check_budget("T", seconds, MAX_PROBE_SECONDS, unit="s (timed at a short T, extrapolated)", value=T)
        if seconds > _ANNOUNCE_SECONDS:
            print(f"memory_probe: T={T} will take about {seconds:.0f} s", file=sys.stderr, flush=True)
    return _probe(model, T, method, n, seed)


def _probe_seconds(model: torch.nn.Module, T: int, method: str, n: int) -> float:
    """Wall time of the probe at ``_TIMING_T`` steps, extrapolated to ``T`` (see ``MAX_PROBE_SECONDS``)."""
    t0 = time.perf_counter()
    _probe(model, _TIMING_T, method, n, 0)
    ratio = T / _TIMING_T
    attention = any(isinstance(m, torch.nn.MultiheadAttention) for m in model.modules())
    return (time.perf_counter() - t0) * ratio * (ratio if attention else 1.0)


def _probe(model: torch.nn.Module, T: int, method: str, n: int, seed: int) -> np.ndarray:
    was_training = model.training
    model.eval()
    try:
        if method == "impulse":
            with torch.no_grad():
                x = torch.zeros(2, T, 1)
                x[0, 0, 0] = 1.0
                y = model(x)[..., 0]                              # (2, T)
                return (y[0] - y[1]).double().numpy()
        g = torch.Generator().manual_seed(seed)
        x = torch.randn(n, T, 1, generator=g).requires_grad_(True)
        y = model(x)[:, T - 1, 0].sum()
        (grad,) = torch.autograd.grad(y, x)                       # (n, T, 1): d y(T-1) / d x(t)
        return grad[:, :, 0].mean(0).flip(0).double().numpy()    # lag s = T-1-t
    finally:
        model.train(was_training)


def _probe_bytes(model: torch.nn.Module, T: int, batch: int, *, grad: bool = True) -> float:
    """Up-front estimate of the memory a probe of length ``T`` needs: the activations of every submodule
    measured on two short inputs (T0 = 8 and 16) and extrapolated as ``a T + b T^2`` (attention is
    quadratic), times ``batch``, 4 bytes each, doubled for the saved tensors of the backward pass."""
    sizes = []
    was_training = model.training
    model.eval()
    try:
        for t0 in (8, 16):
            count = [0]

            def hook(_m, _i, out):
                for o in out if isinstance(out, (tuple, list)) else (out,):
                    if isinstance(o, torch.Tensor):
                        count[0] += o.numel()

            handles = [m.register_forward_hook(hook) for m in model.modules()]
            try:
                with torch.no_grad():
                    model(torch.zeros(1, t0, 1))
            finally:
                for h in handles:
                    h.remove()
            sizes.append(count[0])
    finally:
        model.train(was_training)
    quad = max(0.0, (sizes[1] - 2 * sizes[0]) / (16 * 16 - 2 * 8 * 8))
    # attention scores (heads x T x T) are no module's output (need_weights=False): counted explicitly
    quad += sum(m.num_heads for m in model.modules() if isinstance(m, torch.nn.MultiheadAttention))
    lin = max(0.0, (sizes[0] - quad * 64) / 8)
    return (lin * T + quad * T * T) * batch * 4.0 * (2.0 if grad else 1.0)
