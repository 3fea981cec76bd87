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

import numpy as np
import torch

from theory._args import as_choice, as_int


def memory_probe(model: torch.nn.Module, T: int, *, method: str = "jacobian", n: int = 32, seed: int = 0) -> np.ndarray:
    """``rhohat(s)``, s = 0 .. T-1, of a model mapping (B, T, 1) -> (B, T, 1); see the module docstring."""
    T = as_int("T", T, minimum=1)
    method = as_choice("method", method, ("jacobian", "impulse"))
    n = as_int("n", n, minimum=1)
    was_training = model.training
    model.eval()
    try:
        if method == "impulse":
            with torch.no_grad():
                x = torch.zeros(2, T, 1)
                x[0, 0, 0] = 1.0
                y = model(x)[..., 0]                              # (2, T)
                return (y[0] - y[1]).double().numpy()
        g = torch.Generator().manual_seed(as_int("seed", seed))
        x = torch.randn(n, T, 1, generator=g).requires_grad_(True)
        y = model(x)[:, T - 1, 0].sum()
        (grad,) = torch.autograd.grad(y, x)                       # (n, T, 1): d y(T-1) / d x(t)
        return grad[:, :, 0].mean(0).flip(0).double().numpy()    # lag s = T-1-t
    finally:
        model.train(was_training)
