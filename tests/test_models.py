"""Benchmark models (numerics.memory_functions.models): shapes, causality, exact receptive field, probes, training,
determinism, bad specs (the S4D's kernel and exponential sum: tests/test_s4d.py)."""

from __future__ import annotations


import time

import numpy as np
import pytest

import torch  # noqa: E402  (the models under test are torch modules)

from numerics.memory_functions.models.compose import Sequential  # noqa: E402
from numerics.memory_functions.models.lstm import LSTM  # noqa: E402
from numerics.memory_functions.bench.probe import memory_probe  # noqa: E402
from numerics.memory_functions.models.s4d import S4D, fft_causal_conv  # noqa: E402
from numerics.memory_functions.models.tcn import TCN  # noqa: E402
from numerics.memory_functions.bench.trainer import TrainSpec, train  # noqa: E402
from numerics.memory_functions.models.transformer import Transformer  # noqa: E402
from numerics.memory_functions.bench.zoo import build_model, normalize_model_spec  # noqa: E402
import tiny_inputs as tiny  # noqa: E402

torch.set_num_threads(1)

SPECS = {
    "lstm": {"arch": "lstm", "width": 6, "layers": 2},
    "s4d": {"arch": "s4d", "width": 4, "state": 8, "layers": 2},
    "s4d_inv": {"arch": "s4d", "width": 4, "state": 8, "init": "inv"},
    "tcn": {"arch": "tcn", "channels": 4, "levels": 3, "kernel_size": 3},
    "transformer": {"arch": "transformer", "d_model": 8, "heads": 2, "layers": 2},
    "transformer_learned": {"arch": "transformer", "d_model": 8, "heads": 4, "pos": "learned", "max_len": 32},
    "lstm->tcn": {"arch": "sequential", "interface": 3, "stages": [{"arch": "lstm", "width": 5},
                                                                   {"arch": "tcn", "channels": 4, "levels": 2}]},
    "tcn->transformer->s4d": {"arch": "sequential", "interface": 4, "stages": [
        {"arch": "tcn", "channels": 4, "levels": 2}, {"arch": "transformer", "d_model": 8, "heads": 2},
        {"arch": "s4d", "width": 4, "state": 4}]},
}


@pytest.mark.parametrize("name", list(SPECS))
def test_shape_and_causality(name):
    torch.manual_seed(0)
    model = build_model(SPECS[name], seq_len=20)
    x = torch.randn(3, 20, 1)
    y = model(x)
    assert y.shape == (3, 20, 1)
    # changing the input from t0 on must leave every earlier output unchanged: bit for bit, except that
    # an FFT convolution (S4D) mixes all positions at float32 rounding level
    t0 = 11
    x2 = x.clone()
    x2[:, t0:] = torch.randn(3, 20 - t0, 1)
    y2 = model(x2)
    y, y2 = y.detach(), y2.detach()
    before = float((y[:, :t0] - y2[:, :t0]).abs().max())
    after = float((y[:, t0:] - y2[:, t0:]).abs().max())
    assert before <= (1e-5 * float(y.abs().max()) if "s4d" in name else 0.0)
    assert after > 1e-3


def test_parameter_counts_match_hand_formulas():
    w, d = 7, 1
    # torch LSTM: per layer 4w (d_in + w) weights and 2 * 4w biases; readout w + 1
    lstm = LSTM(width=w, layers=2)
    assert lstm.n_params == (4 * w * (d + w) + 8 * w) + (4 * w * (w + w) + 8 * w) + (w + 1)
    c, k, L = 5, 3, 3
    # level 0: conv(1->c), conv(c->c), 1x1 down(1->c); levels >= 1: two conv(c->c); readout c + 1
    tcn = TCN(channels=c, levels=L, kernel_size=k)
    conv = lambda ci, co, kk: ci * co * kk + co  # noqa: E731
    expect = conv(1, c, k) + conv(c, c, k) + conv(1, c, 1) + (L - 1) * 2 * conv(c, c, k) + c + 1
    assert tcn.n_params == expect
    # S4D: per layer log_dt (H), C (H N/2 complex = H N reals), log_A_real and A_imag (H N/2 each), D (H)
    H, N = 4, 6
    lin = S4D(width=H, state=N, linear=True, seq_len=16)                    # + bias-free encoder and decoder
    assert lin.n_params == H + H * N + 2 * H * N // 2 + H + H + H
    comp = Sequential(LSTM(width=3, d_out=4), TCN(channels=2, levels=1, d_in=4))
    assert comp.n_params == comp.stages[0].n_params + comp.stages[1].n_params


@pytest.mark.parametrize("k,levels", [(2, 1), (2, 3), (3, 2), (4, 2), (2, 4)])
def test_tcn_receptive_field_is_exact(k, levels):
    torch.manual_seed(k * 10 + levels)
    tcn = TCN(channels=3, levels=levels, kernel_size=k)
    R = tcn.receptive_field()
    T = R + 12

    def reach(x):       # sum_b |d y_b(T-1) / d x_b(T-1-s)|, index = lag s
        x = x.requires_grad_(True)
        (g,) = torch.autograd.grad(tcn(x)[:, -1, 0].sum(), x)
        return g[:, :, 0].abs().sum(0).flip(0)

    # any weights: nothing beyond lag R-1 is ever seen
    assert torch.all(reach(torch.randn(16, T, 1))[R:] == 0)
    # positive weights and inputs keep every ReLU active, so each lag with a path through the
    # dilated taps gets a strictly positive derivative: exactly the lags s < R
    with torch.no_grad():
        for p in tcn.parameters():
            p.uniform_(0.1, 1.0)
    r = reach(torch.rand(2, T, 1) + 0.1)
    assert torch.all(r[:R] > 0) and torch.all(r[R:] == 0)
    assert R == 1 + 2 * (k - 1) * (2 ** levels - 1)


class _FixedConv(torch.nn.Module):
    """y = sum_s r(s) sigma(x(t-s)), a model whose derivative is known in closed form."""

    def __init__(self, r, nonlinear):
        super().__init__()
        self.r, self.nonlinear = torch.as_tensor(r, dtype=torch.float32), nonlinear

    def forward(self, x):
        u = torch.tanh(x) if self.nonlinear else x
        return fft_causal_conv(u.transpose(1, 2), self.r[None, :]).transpose(1, 2) + 0.3


def test_probe_recovers_a_known_memory_function():
    r = np.array([0.5, -1.0, 0.0, 2.0, 0.25, 0.0, 0.0, 0.0])
    lin = _FixedConv(r, nonlinear=False)
    np.testing.assert_allclose(memory_probe(lin, 8, method="impulse"), r, atol=1e-6)
    np.testing.assert_allclose(memory_probe(lin, 8, method="jacobian", n=3), r, atol=1e-6)
    # nonlinear: d y(t) / d x(t-s) = r(s) sech^2(x(t-s)); the probe's mean over its own inputs
    g = torch.Generator().manual_seed(11)
    x = torch.randn(64, 8, 1, generator=g)[:, :, 0].flip(1)        # the probe's draws, lag-indexed
    expect = r * (1 - torch.tanh(x) ** 2).mean(0).double().numpy()
    np.testing.assert_allclose(memory_probe(_FixedConv(r, True), 8, n=64, seed=11), expect, atol=1e-6)


def _toy_data(T=32, n=128, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, T))
    rho = 0.8 ** np.arange(T)
    y = np.stack([np.convolve(row, rho)[:T] for row in x])
    return x, y


@pytest.mark.parametrize("arch", ["lstm", "s4d", "tcn", "transformer"])
def test_smoke_training_reduces_the_loss(arch):
    x, y = _toy_data()
    torch.manual_seed(0)
    # the toy target decays in ~4.5 steps; S4D's default dt range [1e-3, 1e-1] starts with time scales of
    # 20-2000 steps, too slow to adapt in 90 steps, so this smoke test widens it
    s4d = {"arch": "s4d", "width": 4, "state": 8, "dt_min": 0.01, "dt_max": 0.5}
    model = build_model(SPECS[arch] if arch != "s4d" else s4d, seq_len=32)
    res = train(model, x, y, TrainSpec(steps=90, batch=16, lr=2e-2, log_every=30))
    assert res.relmse < 0.5 * res.initial_relmse
    assert res.curve_steps == [30, 60, 90] and len(res.curve_loss) == 3
    assert res.curve_loss[-1] < res.curve_loss[0]


def test_training_is_deterministic_under_a_seed():
    x, y = _toy_data(T=16, n=32)

    def once(seed):
        torch.manual_seed(seed)
        m = build_model(SPECS["lstm->tcn"])
        return train(m, x, y, TrainSpec(steps=15, batch=8, seed=seed, log_every=5))

    a, b, c = once(1), once(1), once(2)
    assert a.relmse == b.relmse and a.curve_loss == b.curve_loss
    assert a.relmse != c.relmse


def test_train_rejects_bad_data():
    m = LSTM(width=2)
    with pytest.raises(ValueError, match="same shape"):
        train(m, np.zeros((4, 8)), np.zeros((4, 7)), TrainSpec(steps=1))
    with pytest.raises(TypeError, match="TrainSpec"):
        train(m, np.zeros((4, 8)), np.zeros((4, 8)), {"steps": 1})


@pytest.mark.parametrize("spec,exc,match", [
    ({"arch": "gru"}, ValueError, r"spec\.arch"),
    ("lstm", TypeError, "spec must be a dict"),
    ({"arch": "lstm", "hidden": 4}, ValueError, "hidden"),
    ({"arch": "lstm", "width": 0}, ValueError, "width"),
    ({"arch": "lstm", "width": 2.0}, TypeError, r"spec\.width"),
    ({"arch": "s4d", "linear": "yes"}, TypeError, r"spec\.linear"),
    ({"arch": "s4d", "state": 5}, ValueError, "N"),
    ({"arch": "s4d", "init": "legs"}, ValueError, "init"),
    ({"arch": "s4d", "dt_min": 0.2, "dt_max": 0.1}, ValueError, "dt_max"),
    ({"arch": "tcn", "kernel_size": 1}, ValueError, "kernel_size"),
    ({"arch": "transformer", "d_model": 10, "heads": 4}, ValueError, "heads must divide d_model"),
    ({"arch": "transformer", "pos": "rope"}, ValueError, "pos"),
    ({"arch": "sequential", "stages": [{"arch": "lstm"}]}, ValueError, "stages"),
    ({"arch": "sequential", "stages": [{"arch": "lstm"}, {"arch": "tcn", "levels": -1}]}, ValueError,
     r"spec\.stages\[1\]"),
])
def test_bad_model_specs_are_rejected_naming_the_field(spec, exc, match):
    with pytest.raises(exc, match=match):
        normalize_model_spec(spec)


def test_build_model_initialises_like_the_constructor():
    from numerics.memory_functions.bench import zoo

    zoo._NORMALIZED.clear()                                   # first (uncached) and cached validation paths
    params = []
    for _ in range(2):
        torch.manual_seed(7)
        model = build_model({"arch": "tcn", "channels": 3, "levels": 2})
        params.append([p.detach().clone() for p in model.parameters()])
    torch.manual_seed(7)
    direct = [p.detach() for p in TCN(channels=3, levels=2).parameters()]
    for a, b, c in zip(*params, direct):
        assert torch.equal(a, b) and torch.equal(a, c)


def test_normalized_spec_fills_defaults_and_sequential_checks_widths():
    full = normalize_model_spec({"arch": "tcn"})
    assert full == {"arch": "tcn", "channels": 16, "levels": 6, "kernel_size": 2}
    assert normalize_model_spec(full) == full
    with pytest.raises(ValueError, match="expects d_in"):
        Sequential(LSTM(width=3, d_out=4), TCN(channels=2, d_in=5))
    with pytest.raises(TypeError, match="SeqModel"):
        Sequential(LSTM(), torch.nn.Linear(1, 1))
    with pytest.raises(ValueError, match="max_len"):
        Transformer(pos="learned", max_len=8)(torch.zeros(1, 9, 1))


def test_batchable_lstm_equals_nn_lstm_in_values_and_gradients():
    """``numerics.memory_functions.models._lstm_scan`` (hand-written backward) against ``nn.LSTM`` + autograd, in float64 so
    that the only difference is summation order (1e-12 covers reassociation of O(1) terms at 2^-52)."""
    from torch.func import functional_call, stack_module_state, vmap

    from numerics.memory_functions.models._common import make_batchable

    models = []
    for seed in (0, 1, 2):
        torch.manual_seed(seed)
        models.append(LSTM(width=5, layers=2).double())
    x = torch.randn(3, 4, 9, 1, dtype=torch.float64)
    w = torch.randn(3, 4, 9, 1, dtype=torch.float64)
    ref_out = torch.stack([m(xg) for m, xg in zip(models, x)])
    (ref_out * w).sum().backward()
    params, buffers = stack_module_state(models)
    base = make_batchable(LSTM(width=5, layers=2).double())
    out = vmap(lambda p, b, xg: functional_call(base, (p, b), (xg,)))(params, buffers, x)
    (out * w).sum().backward()
    torch.testing.assert_close(out, ref_out, rtol=1e-12, atol=1e-12)
    for name, p in params.items():
        ref = torch.stack([dict(m.named_parameters())[name].grad for m in models])
        torch.testing.assert_close(p.grad, ref, rtol=1e-12, atol=1e-12, msg=name)
    alone = make_batchable(models[0])                     # also without vmap (no leading member axis)
    torch.testing.assert_close(alone(x[0]), ref_out[0], rtol=1e-12, atol=1e-12)


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def _bad_calls():
    """(call, exception, text the message must hold): each used to crash, pass silently or raise an error
    that did not name the parameter."""
    from numerics.memory_functions.bench.grouped import train_group
    from numerics.memory_functions.bench.trainer import TrainSpec, make_optimizer
    from numerics.memory_functions.bench.trainer import train as train_model
    from numerics.memory_functions.models.compose import Sequential
    from numerics.memory_functions.models.lstm import LSTM

    x = np.zeros((4, 12))
    return [
        (lambda: train_model(LSTM(3), x, x, TrainSpec(steps=2, batch=2), progress=-3), TypeError, "progress"),
        (lambda: train_model(LSTM(3), object(), x, TrainSpec(steps=2, batch=2)), TypeError, "x and y"),
        (lambda: make_optimizer([], TrainSpec()), ValueError, "named"),
        (lambda: make_optimizer([1, 2], TrainSpec()), TypeError, "named"),
        (lambda: train_group([LSTM(3)], [(x, x)], [1]), TypeError, "specs"),
        (lambda: Sequential(1, 2), TypeError, "stages[0]"),
    ]


@pytest.mark.parametrize("i", range(len(_bad_calls())))
def test_bad_argument_is_named(i):
    tiny.assert_named(*_bad_calls()[i])


def test_memory_probe_estimates_memory_up_front():
    from numerics.memory_functions.bench.probe import memory_probe
    from numerics.memory_functions.models.lstm import LSTM

    t0 = time.perf_counter()
    with pytest.raises(ValueError, match=r"T=10000000 .*GiB"):
        memory_probe(LSTM(4), T=10**7)
    assert time.perf_counter() - t0 < 5
    assert memory_probe(LSTM(4), T=32).shape == (32,)


@pytest.mark.parametrize("build, name", [
    ("LSTM(layers=10**7)", "layers"), ("LSTM(width=10**6)", "width"), ("TCN(levels=10**7)", "levels"),
    ("TCN(channels=10**6)", "channels"), ("S4D(layers=10**7, seq_len=64)", "layers"),
    ("S4D(state=10**9, seq_len=64)", "state"), ("Transformer(layers=10**7)", "layers"),
    ("Transformer(d_model=10**6, heads=1)", "d_model"), ("build_gated_rnn('diag', hidden=10**6)", "hidden"),
])
def test_model_sizes_have_a_maximum(build, name):
    from numerics.anticollapse.gated.gated_rnn import build_gated_rnn  # noqa: F401
    from numerics.memory_functions.models.lstm import LSTM  # noqa: F401
    from numerics.memory_functions.models.s4d import S4D  # noqa: F401
    from numerics.memory_functions.models.tcn import TCN  # noqa: F401
    from numerics.memory_functions.models.transformer import Transformer  # noqa: F401

    t0 = time.perf_counter()
    with pytest.raises(ValueError, match=name):
        eval(build)
    assert time.perf_counter() - t0 < 5


@pytest.mark.parametrize("build, name", [
    ("build_gated_rnn('diag', d_in=2, hidden=9500)", "hidden"), ("sinusoidal_encoding(10**8, 4)", "T"),
    ("S4DKernel(H=65075610, N=4, dt_min=1e-3, dt_max=0.1)", "H=65075610"), ("TemporalBlock(1, 11248, 2, 1)", "c_out"),
    ("Transformer(layers=1000)", "layers"),
    ("sinusoidal_encoding(8, 10**7)", "d"),
    ("jump_symbol(1.5, eta_J=0.05, alpha=1.5, lam=2.0, method='mp', dps=74896)", "dps"),
    ("Phi(1.5, eta_G=0.1, kappa=1.0, eta_J=0.05, alpha=1.5, lam=2.0, method='mp', dps=10**5)", "dps"),
])
def test_costly_sizes_have_a_maximum(build, name):
    from numerics.anticollapse.gated.gated_rnn import build_gated_rnn  # noqa: F401
    from numerics.memory_functions.models.s4d import S4DKernel  # noqa: F401
    from numerics.memory_functions.models.tcn import TemporalBlock  # noqa: F401
    from numerics.memory_functions.models.transformer import Transformer, sinusoidal_encoding  # noqa: F401
    from theory.levy import Phi, jump_symbol  # noqa: F401

    with pytest.raises(ValueError, match=name):
        eval(build)


def test_memory_probe_estimates_its_time_up_front(monkeypatch):
    """A recurrent probe steps through T sequentially: a long T that fits in memory can still run for hours;
    it is refused after a timing probe at a short T. The limit is lowered so that the test does not depend
    on this machine's speed (T = 2**24 estimated 200-1000 s here, depending on the load)."""
    from numerics.memory_functions.bench import probe
    from numerics.memory_functions.models.lstm import LSTM

    monkeypatch.setattr(probe, "MAX_PROBE_SECONDS", 1e-6)
    with pytest.raises(ValueError, match=r"T=4096 .* s \(timed"):
        probe.memory_probe(LSTM(3), T=4096, n=1)
    monkeypatch.setattr(probe, "_TIMED_ABOVE_T", 10**6)                  # below it: no timing, no limit
    assert probe.memory_probe(LSTM(3), T=4096, n=1).shape == (4096,)


def test_memory_probe_announces_a_long_probe(monkeypatch, capsys):
    from numerics.memory_functions.bench import probe
    from numerics.memory_functions.models.lstm import LSTM

    monkeypatch.setattr(probe, "_TIMED_ABOVE_T", 64)
    monkeypatch.setattr(probe, "_TIMING_T", 16)
    monkeypatch.setattr(probe, "_ANNOUNCE_SECONDS", 0.0)
    import torch
    torch.manual_seed(0)
    model = LSTM(3)
    got = probe.memory_probe(model, T=80, n=2)
    assert "memory_probe: T=80 will take about" in capsys.readouterr().err
    monkeypatch.setattr(probe, "_TIMED_ABOVE_T", 10**6)
    assert np.array_equal(got, probe.memory_probe(model, T=80, n=2))      # the timing run changes nothing


def test_messages_name_the_parameter_passed():
    """build_model(3) said "model must be a dict", dt_bounds('bogus') named dt_range for a parameter called name
    (issue 43): each message names the caller's parameter."""
    import inspect

    from numerics.memory_functions.bench.zoo import build_model
    from numerics.memory_functions.models.s4d import dt_bounds

    with pytest.raises(TypeError, match=r"^spec must be a dict"):
        build_model(3)
    assert list(inspect.signature(dt_bounds).parameters)[0] == "dt_range"
    with pytest.raises(ValueError, match=r"^dt_range must be one of"):
        dt_bounds(dt_range="bogus")
