"""The S4D model (numerics.memory_functions.models.s4d): its kernel against an independent step-by-step ZOH
recurrence, its initialisations, the FFT causal convolution against direct convolution, and the exported
exponential sum of a linear S4D against its impulse response and Jacobian."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from numerics.memory_functions.bench.probe import memory_probe
from numerics.memory_functions.models.s4d import S4D, S4DKernel, fft_causal_conv

torch.set_num_threads(1)


def test_s4d_kernel_matches_a_step_by_step_zoh_recurrence():
    torch.manual_seed(3)
    ker = S4DKernel(H=2, N=6, init="inv", dt_range="reference")
    L = 40
    K = ker(L).detach().double().numpy()
    dt = np.exp(ker.log_dt.detach().double().numpy())
    A = -np.exp(ker.log_A_real.detach().double().numpy()) + 1j * ker.A_imag.detach().double().numpy()
    C = torch.view_as_complex(ker.C.detach()).numpy().astype(complex)
    for h in range(2):
        # x_{l} = Abar x_{l-1} + Bbar u_l (B = 1), y_l = 2 Re(C x_l): impulse response = kernel
        Abar = np.exp(dt[h] * A[h])
        Bbar = (Abar - 1) / A[h]
        x = np.zeros(3, complex)
        out = []
        for l in range(L):
            x = Abar * x + Bbar * (1.0 if l == 0 else 0.0)
            out.append(2 * np.real(C[h] @ x))
        np.testing.assert_allclose(K[h], out, rtol=1e-4, atol=1e-5 * np.max(np.abs(out)))


def test_s4d_inits():
    ker = S4DKernel(H=1, N=8, init="lin", seq_len=64)
    assert torch.allclose(ker.A_imag[0], math.pi * torch.arange(4.0))
    assert torch.allclose(torch.exp(ker.log_A_real), torch.full((1, 4), 0.5))
    inv = S4DKernel(H=1, N=8, init="inv", seq_len=64)
    n = np.arange(4)
    np.testing.assert_allclose(inv.A_imag[0].detach().numpy(), (8 / np.pi) * (8 / (2 * n + 1) - 1), rtol=1e-6)
    dts = torch.exp(S4DKernel(H=500, N=2, dt_range="reference").log_dt.detach())
    assert float(dts.min()) >= 1e-3 * (1 - 1e-6) and float(dts.max()) <= 1e-1 * (1 + 1e-6)
    task = torch.exp(S4DKernel(H=500, N=2, seq_len=64).log_dt.detach())        # S4D's default range, the same rule
    assert float(task.min()) >= (1 / 64) * (1 - 1e-6) and float(task.max()) <= 1 + 1e-6
    with pytest.raises(ValueError, match="seq_len"):
        S4DKernel(H=1, N=2)                     # the task range needs the task's length, as for S4D


def test_fft_causal_conv_equals_direct_convolution():
    g = torch.Generator().manual_seed(1)
    u = torch.randn(2, 3, 17, generator=g, dtype=torch.float64)
    k = torch.randn(3, 17, generator=g, dtype=torch.float64)
    y = fft_causal_conv(u, k).numpy()
    for b in range(2):
        for h in range(3):
            np.testing.assert_allclose(y[b, h], np.convolve(u[b, h].numpy(), k[h].numpy())[:17], atol=1e-12)


def test_linear_s4d_exp_sum_equals_its_impulse_response_and_jacobian():
    torch.manual_seed(5)
    model = S4D(width=1, state=6, linear=True, dt_min=0.05, dt_max=0.3)
    T = 48
    poles, coefs, d0 = model.exp_sum()
    s = np.arange(T)
    rhohat = np.real((coefs[None, :] * poles[None, :] ** s[:, None]).sum(1))
    rhohat[0] += d0
    scale = np.max(np.abs(rhohat))
    np.testing.assert_allclose(memory_probe(model, T, method="impulse"), rhohat, atol=1e-5 * scale)
    np.testing.assert_allclose(memory_probe(model, T, method="jacobian", n=4), rhohat, atol=1e-5 * scale)
    with pytest.raises(ValueError, match="linear single-channel"):
        S4D(width=2, linear=True, seq_len=16).exp_sum()


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def test_range_pairs_name_both_ends():
    from numerics.memory_functions.models.s4d import S4DKernel, S4DLayer

    for build in (lambda: S4DKernel(2, 4, dt_min=1e3, dt_max=0.1), lambda: S4DLayer(2, 4, dt_min=1e3, dt_max=0.1)):
        with pytest.raises(ValueError, match="dt_min=1000.0"):
            build()
    assert S4DKernel(2, 4, dt_min=0.1, dt_max=0.1) is not None          # a single dt is a range too


def test_layer_takes_numpy_integer_sizes_and_probe_bounds_seed():
    """S4DLayer(np.array(2)) failed with 'iteration over a 0-d array'; seed 10**30 with an unnamed overflow."""
    from numerics.memory_functions.models.s4d import S4DLayer
    layer = S4DLayer(np.array(2), np.int16(4), seq_len=16)
    assert layer.D.shape == (2,)
    with pytest.raises(ValueError, match="seed must be an integer <="):
        memory_probe(torch.nn.Identity(), 8, seed=10**30)
