"""Time-scale diagnostics of PyTorch RNNs (numerics.anticollapse.gated.rnn_timescales).

Known spectra by construction: the gate's input and recurrent rows are zeroed and its bias set, so the leak
of unit q is the constant ``a_q = sigmoid(b_q)``; the diagonals of the other recurrent blocks are zeroed, so
the first-order term is exactly 0 (the off-diagonal weights stay random: the dynamics are not trivial).
Then ``log Gamma_{t,l} = l log a_q`` and the rate estimator must return ``tau_q = -1/log a_q`` up to float64
rounding of the prefix sums.
"""

import math

import numpy as np
import pytest
import torch
from torch import nn

from numerics.anticollapse.gated import diagnostics as gd
from numerics.anticollapse import spectra as sp
from numerics.anticollapse.gated import rnn_timescales as rt
from numerics.anticollapse.envelope_gate import window_gate
from numerics.anticollapse.estimators import phase_rule, tail_beta
from numerics.anticollapse.gated.gated_rnn import build_gated_rnn
from numerics.stats import z_for_false_alarm
import tiny_inputs as tiny
import tiny_torch

RTOL = 1e-10        # float64: a relative error ~1e-16 per step, summed over at most a few hundred steps


def _with_leaks(cell: str, a: np.ndarray, d_in: int = 2, seed: int = 0) -> nn.Module:
    """nn.GRU/LSTM whose gate (GRU z, LSTM f) is the constant a_q and whose first-order term is 0."""
    H = a.size
    torch.manual_seed(seed)
    m = (nn.GRU if cell == "gru" else nn.LSTM)(d_in, H, batch_first=True).double()
    gate, zero_diag = (1, (0, 2)) if cell == "gru" else (1, (0, 2))   # GRU (r, z, n); LSTM (i, f, g, o)
    rows = slice(gate * H, (gate + 1) * H)
    with torch.no_grad():
        m.weight_ih_l0[rows].zero_()
        m.weight_hh_l0[rows].zero_()
        m.bias_hh_l0[rows].zero_()
        m.bias_ih_l0[rows].copy_(torch.logit(torch.as_tensor(a, dtype=torch.float64)))
        for j in zero_diag:
            m.weight_hh_l0[j * H:(j + 1) * H].fill_diagonal_(0.0)
    return m


@pytest.mark.parametrize("cell", ["gru", "lstm"])
@pytest.mark.parametrize("bias", [True, False])
def test_recomputed_states_equal_torch_outputs(cell, bias):
    torch.manual_seed(1)
    m = (nn.GRU if cell == "gru" else nn.LSTM)(3, 7, num_layers=3, bias=bias, batch_first=True).double()
    x = torch.randn(4, 25, 3, dtype=torch.float64)
    out, _ = m(x)
    w = rt.as_rnn(m)
    assert (w.cell, w.input_size, w.hidden, w.num_layers) == (cell, 3, 7, 3)
    u = x
    for k in range(3):
        u = rt.run_layer(w, k, u)[0]
    assert torch.allclose(u, out, rtol=0, atol=1e-13)


def test_first_order_term_is_the_jacobian_diagonal():
    """r_p + a_p = the diagonal of dh_p/dh_{p-1} (GRU) and of dc_p/dc_{p-1} with o_{p-1} fixed (LSTM), by autograd."""
    torch.manual_seed(2)
    H, t = 6, 9
    x = torch.randn(1, 12, 3, dtype=torch.float64)
    gru = nn.GRU(3, H, batch_first=True).double()
    h, a, r = rt.run_layer(rt.as_rnn(gru), 0, x)
    cell = nn.GRUCell(3, H).double()
    cell.load_state_dict({k[:-3]: v for k, v in gru.state_dict().items()})
    J = torch.autograd.functional.jacobian(lambda hp: cell(x[:, t], hp[None])[0], h[0, t - 1])
    assert torch.allclose(torch.diagonal(J), a[0, t] + r[0, t], rtol=0, atol=1e-14)

    lstm = nn.LSTM(3, H, batch_first=True).double()
    _, a, r = rt.run_layer(rt.as_rnn(lstm), 0, x)
    lc = nn.LSTMCell(3, H).double()
    lc.load_state_dict({k[:-3]: v for k, v in lstm.state_dict().items()})
    with torch.no_grad():
        _, (h2, c2) = lstm(x[:, :t - 1])                         # state after step t-2
        o_prev = torch.sigmoid((lc.weight_ih @ x[0, t - 1] + lc.bias_ih + lc.weight_hh @ h2[0, 0] + lc.bias_hh)[3 * H:])
        _, (_, c1) = lstm(x[:, :t])                              # c_{t-1}
    step = lambda c: lc(x[:, t], ((o_prev * torch.tanh(c))[None], c[None]))[1][0]   # noqa: E731
    J = torch.autograd.functional.jacobian(step, c1[0, 0])
    assert torch.allclose(torch.diagonal(J), a[0, t] + r[0, t], rtol=0, atol=1e-14)


@pytest.mark.parametrize("cell", ["gru", "lstm"])
def test_known_spectrum_recovered_to_float_precision(cell):
    a = 1.0 - np.geomspace(0.5, 1e-4, 24)                          # tau from 1.44 to 10^4 steps
    m = _with_leaks(cell, a)
    x = np.random.default_rng(0).standard_normal((3, 128, 2))
    res = rt.rnn_timescales(m, x, n_boot=50)
    d = res.layers[0]
    leak = torch.sigmoid(torch.logit(torch.as_tensor(a))).numpy()  # the gate exactly as the cell computes it
    assert np.allclose(d.tau, -1.0 / np.log(leak), rtol=RTOL, atol=0)
    assert np.all(d.rates.first_order_size == 0.0)
    assert np.allclose(d.envelope.measured, np.mean(leak[None, :] ** d.envelope.lags[:, None], axis=1), rtol=RTOL)


def test_pareto_spectrum_tail_beta_and_phase():
    """Time scales drawn from a Pareto law (beta = 0.6, tau >= 2, over 4 decades): the tail fit of the
    recovered tau covers beta within z bootstrap standard errors from the same run (z for a 1e-6 false-alarm
    rate), and every label is the toolkit's estimators applied to the exact spectrum."""
    beta, H = 0.6, 300
    tau = 2.0 * (1.0 - np.random.default_rng(1).random(H)) ** (-1.0 / beta)
    a = np.exp(-1.0 / tau)
    lags = np.arange(2, 512, 4)
    res = rt.rnn_timescales(_with_leaks("gru", a), np.zeros((1, 512, 2)), n_boot=1000, envelope_lags=lags)
    d = res.layers[0]
    assert np.allclose(d.tau, tau, rtol=RTOL)
    se = float(np.std(d.tail.boot))
    assert abs(d.tail.beta - beta) <= z_for_false_alarm(1e-6) * se
    ref = tail_beta(tau, n_boot=1000, seed=0)
    assert d.tail.beta == pytest.approx(ref.beta, rel=1e-9) and np.allclose(d.tail.ci, ref.ci, rtol=1e-9)
    gate = window_gate(lags.astype(float), np.mean(a[None, :] ** lags[:, None], axis=1))
    assert (d.gate.passed, d.gate.reason) == (gate.passed, gate.reason)
    assert d.phase == phase_rule(d.tail.ci, gate.passed, r2=d.tail.r2)
    # the envelope stops at 510 steps, far below the tail's 1e4: the spectrum is not resolved at this scale
    assert not d.resolution.resolved


def test_constant_gate_is_collapsed():
    d = rt.rnn_timescales(_with_leaks("lstm", np.full(20, 0.97)), np.ones((2, 64, 2)), n_boot=50).layers[0]
    assert np.allclose(d.tau, -1.0 / math.log(0.97), rtol=RTOL)
    assert d.tail is None and "no tail fit" in d.note
    assert d.phase == "collapsed" and not d.gate.passed


def test_toolkit_gated_model_matches_diagnose(tmp_path):
    torch.manual_seed(3)
    m = build_gated_rnn("diag", 3, 20, init_s=0.05)
    with torch.no_grad():
        m.W_s.bias.copy_(torch.linspace(-6.0, 1.0, 20))
    x = torch.randn(2, 96, 3)
    res = rt.rnn_timescales(m, x.numpy(), n_boot=100, window_stride=2)
    m64 = build_gated_rnn("diag", 3, 20).double()
    m64.load_state_dict(m.state_dict())
    ref = gd.diagnose(m64, x.double(), rate_lags=sp.scaled_lag_grid(96, *sp.REFERENCE_RATE_LAGS),
                      envelope_lags=sp.scaled_lag_grid(96, *sp.REFERENCE_ENVELOPE_LAGS), n_boot=100, window_stride=2)
    assert np.array_equal(res.layers[0].tau, ref.tau) and res.layers[0].phase == ref.phase
    assert res.cell == "diag" and m.W_s.weight.dtype == torch.float32       # the caller's model is untouched
    torch.save(m.state_dict(), tmp_path / "diag.pt")
    again = rt.rnn_timescales(tmp_path / "diag.pt", x.numpy(), n_boot=100, window_stride=2)
    assert np.array_equal(again.layers[0].tau, ref.tau)


def test_layers_and_prefix(tmp_path):
    torch.manual_seed(4)
    net = nn.Sequential()
    net.rnn = nn.GRU(2, 5, num_layers=2, batch_first=True)
    net.head = nn.Linear(5, 1)
    path = tmp_path / "wrapped.pt"
    torch.save(net.state_dict(), path)
    x = np.random.default_rng(2).standard_normal((2, 40, 2))
    with pytest.raises(ValueError, match="prefix='rnn.'"):
        rt.rnn_timescales(path, x)
    both = rt.rnn_timescales(path, x, prefix="rnn.", n_boot=20)
    one = rt.rnn_timescales(net.rnn, x, layer=1, n_boot=20)
    assert sorted(both.layers) == [0, 1] and list(one.layers) == [1]
    assert np.array_equal(both.layers[1].tau, one.layers[1].tau)


@pytest.mark.parametrize("layout", ["bare", "model_state_dict", "state_dict", "model"])
def test_checkpoint_layouts(tmp_path, layout):
    torch.manual_seed(2)
    m = nn.GRU(3, 5, batch_first=True)
    sd = m.state_dict()
    obj = sd if layout == "bare" else {layout: sd, "epoch": 7, "optimizer": {"state": {}, "param_groups": []}}
    x = np.random.default_rng(1).standard_normal((2, 40, 3))
    got = rt.rnn_timescales(_save(tmp_path, obj), x, n_boot=20)
    assert np.array_equal(got.layers[0].tau, rt.rnn_timescales(m, x, n_boot=20).layers[0].tau)


def test_labels_are_consistent_and_large_first_order_term_warns(capsys):
    """An untrained GRU: its time scales carry a first-order term of size O(1), so the text warns; the author's
    "unresolved" (beta) is never printed next to a bare "resolved" (the envelope reaching the tail)."""
    torch.manual_seed(0)
    gru = nn.GRU(4, 32, batch_first=True)
    res = rt.rnn_timescales(gru, np.random.default_rng(0).standard_normal((8, 256, 4)), n_boot=100)
    s = res.layers[0].summary()
    assert s["first_order_size_median"] > rt.FIRST_ORDER_WARN
    from seqtheory.cli.timescales import _text

    text = _text(res)
    assert "warning: the first-order term is large" in text and "leak-only tau median" in text
    assert res.to_dict()["layers"][0]["warning"].startswith("warning:")
    assert s["phase_calibrated"] in ("collapsed", "extended", "boundary", "concentrated", "unresolved")
    fake = dict(s, phase="unresolved", first_order_size_median=0.1)
    assert rt.first_order_warning(fake) == ""
    assert "unresolved beta" in sp.author_label_text(fake["phase"])


def _save(tmp_path, obj, name="m.pt"):
    p = tmp_path / name
    torch.save(obj, p)
    return p


def test_bad_files(tmp_path):
    x = np.zeros((1, 32, 3))
    (tmp_path / "text.pt").write_text("not a checkpoint")
    cases = [
        (tmp_path / "missing.pt", "no such file"),
        (tmp_path / "text.pt", "not a state dict readable with torch.load"),
        (_save(tmp_path, nn.GRU(3, 4), "module.pt"), "not a state dict readable"),       # a pickled module
        (_save(tmp_path, torch.zeros(3), "tensor.pt"), "expected a state dict"),
        (_save(tmp_path, {"fc.weight": torch.zeros(2, 2)}, "nokeys.pt"), "no recurrent weights"),
        (_save(tmp_path, nn.GRU(3, 4, bidirectional=True).state_dict(), "bi.pt"), "bidirectional"),
        (_save(tmp_path, nn.LSTM(3, 4, proj_size=2).state_dict(), "proj.pt"), "proj_size"),
        (_save(tmp_path, {**nn.GRU(3, 4).state_dict(), "weight_hh_l0": torch.zeros(10, 4)}, "shape.pt"),
         r"must be \(3H, H\) \(GRU\) or \(4H, H\)"),
        (_save(tmp_path, {**nn.LSTM(3, 4).state_dict(), "weight_ih_l0": torch.zeros(12, 3)}, "ih.pt"),
         r"weight_ih_l0 must be \(16, input_size\)"),
        (_save(tmp_path, {k: v for k, v in nn.GRU(3, 4, num_layers=2).state_dict().items() if k != "weight_ih_l1"},
               "l1.pt"), "missing weight_ih_l1"),
        (_save(tmp_path, {k: v for k, v in nn.GRU(3, 4).state_dict().items() if k != "bias_hh_l0"}, "b.pt"),
         "only one of"),
        (_save(tmp_path, {**nn.GRU(3, 4).state_dict(), "bias_ih_l0": torch.full((12,), float("nan"))}, "nan.pt"),
         "NaN or inf"),
        (_save(tmp_path, {**build_gated_rnn("diag", 3, 4).state_dict(), "W_h.weight": torch.zeros(4, 5)}, "g.pt"),
         "does not fit a toolkit 'diag' gated model"),
    ]
    for path, msg in cases:
        with pytest.raises(ValueError, match=msg):
            rt.rnn_timescales(path, x)


def test_bad_inputs_and_arguments():
    gru = nn.GRU(3, 4, batch_first=True)
    ok = np.zeros((1, 32, 3))
    with pytest.raises(ValueError, match=r"\(B, T, 3\) \(batch first\), got \(1, 32, 2\)"):
        rt.rnn_timescales(gru, np.zeros((1, 32, 2)))
    with pytest.raises(ValueError, match="NaN or inf"):
        rt.rnn_timescales(gru, np.where(np.arange(96).reshape(1, 32, 3) == 5, np.nan, 0.0))
    with pytest.raises(ValueError, match="T >= 16"):
        rt.rnn_timescales(gru, np.zeros((1, 8, 3)))
    with pytest.raises(ValueError, match="layer"):
        rt.rnn_timescales(gru, ok, layer=1)
    with pytest.raises(TypeError, match="nn.GRU, nn.LSTM"):
        rt.rnn_timescales(nn.RNN(3, 4), ok)
    with pytest.raises(TypeError, match="model must be"):
        rt.rnn_timescales(3.0, ok)
    with pytest.raises(ValueError, match="envelope_lags"):
        rt.rnn_timescales(gru, ok, envelope_lags=[5, 64])


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def _bad_calls():
    """(call, exception, text the message must hold): each used to crash, pass silently or raise an error
    that did not name the parameter."""
    from numerics.anticollapse.gated import rnn_timescales

    return [
        (lambda: rnn_timescales.load_state_dict("missing-model.pt"), ValueError, "path"),
        (lambda: rnn_timescales.run_layer(tiny_torch.rnn_weights(), 0, ""), ValueError, "x"),
        (lambda: rnn_timescales.rnn_timescales(tiny_torch.gru(), -10**30), ValueError, "x"),
    ]


@pytest.mark.parametrize("i", range(len(_bad_calls())))
def test_bad_argument_is_named(i):
    tiny.assert_named(*_bad_calls()[i])
