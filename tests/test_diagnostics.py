"""The diagnosis of gated RNNs: numerics.anticollapse.gated.diagnostics (leaks and first-order terms, the optimiser's
base rate) and the model-free numerics.anticollapse.spectra (transport, rate fit, envelopes, the second-order bound).

Independent references: autograd through the plain one-step recurrence (``GatedRNN.step``) for the exact Jacobian
products; a bound on the second-order remainder for the first-order transport; hand-derived closed forms (constant
leak: ``Gamma = (1-s)^l``, ``tau = -1/log(1-s)``; Adam's first step: ``v_hat = g^2``).
"""

from __future__ import annotations


import numpy as np
import pytest
import torch

from numerics.anticollapse import spectra as sp
from numerics.anticollapse.gated import diagnostics as gd
from numerics.anticollapse.gated.gated_rnn import ARCHITECTURES, build_gated_rnn, logit
from test_gated_rnn import D, ROUND, T, _exact_window_jacobian, _tiny, _x
import tiny_inputs as tiny
import tiny_torch

torch.set_num_threads(1)


@pytest.mark.parametrize("arch", ARCHITECTURES)
def test_one_step_diagonal_and_remainder_norm_are_exact(arch):
    """l = 1: Gamma_{t,1} = a_t + r_t is the exact Jacobian diagonal (no second order), and e_p is the
    inf-norm of J_p - diag(a_p) computed by autograd."""
    m = _tiny(arch, 0.5)
    x = _x()
    _, tr = m.run(x, trace=True)
    a, r = gd.leak_and_first_order(m, tr)
    g1 = sp.transport(a, r, 1)                                   # index i <-> t = i
    e = gd.one_step_jacobian_remainders(m, tr)
    for b in range(x.shape[0]):
        for t in range(T):
            J = _exact_window_jacobian(m, x[b], tr.h_prev[b, t], t, 1).numpy()
            assert np.allclose(np.diag(J), g1[b, t], rtol=0, atol=1e-14)
            off = np.abs(J - np.diag(a[b, t])).sum(axis=1).max()
            assert abs(off - e[b, t]) <= 1e-14


@pytest.mark.parametrize("arch", ARCHITECTURES)
@pytest.mark.parametrize("lag", [3, 7, 11])
def test_transport_equals_exact_jacobian_product_to_first_order(arch, lag):
    """|[J_t ... J_{t-l+1}]_qq - Gamma_{t,l}| <= the second-order bound (+ rounding), and the bound is below
    the first-order term itself, so the comparison resolves the first-order correction."""
    m = _tiny(arch, 1e-4)
    x = _x(B=1)
    _, tr = m.run(x, trace=True)
    a, r = gd.leak_and_first_order(m, tr)
    gam = sp.transport(a, r, lag)
    e = gd.one_step_jacobian_remainders(m, tr)
    resolved = []
    for t in range(lag - 1, T):
        J = _exact_window_jacobian(m, x[0], tr.h_prev[0, t - lag + 1], t, lag).numpy()
        window = slice(t - lag + 1, t + 1)
        bound = sp.second_order_bound(e[0, window], a[0, window].max(axis=1)) + lag * ROUND
        err = np.abs(np.diag(J) - gam[0, t - lag + 1])
        assert np.all(err <= bound), (t, err.max(), bound)
        # the zeroth-order product alone misses by more than the bound: the test sees the r_p terms
        resolved.extend(np.abs(np.diag(J) - np.prod(a[0, window], axis=0)) > bound)
    assert np.all(resolved)


def test_constant_leak_gives_closed_form_rates_and_envelope():
    """W_h = 0, U_s = 0, W_s = 0: Gamma = prod (1 - s_q) exactly, tau_q = -1/log(1 - s_q); the mu0 envelope
    is mean_q (1 - s_q)^l, the gelr envelope its Lambda-weighted mean, each equal to its mixture."""
    m = build_gated_rnn("diag", D, 6).double()
    s = np.array([0.01, 0.02, 0.05, 0.1, 0.2, 0.3])
    with torch.no_grad():
        m.W_h.weight.zero_()
        m.W_s.bias.copy_(torch.as_tensor([logit(v) for v in s], dtype=torch.float64))
    x = torch.randn(5, 40, D, dtype=torch.float64)
    lam = np.array([1.0, 2.0, 0.5, 1.0, 3.0, 1.0])
    lags = np.array([1, 4, 9, 20])
    kw = dict(rate_lags=np.arange(5, 30, 5), envelope_lags=lags, base_rate=lam, batch=2, window_stride=3)
    rates, env = gd.rates_and_envelope(m, x, **kw)
    tau_exact = -1.0 / np.log1p(-s)
    assert np.allclose(rates.tau, tau_exact, rtol=1e-9)
    assert np.allclose(rates.r2, 1.0)
    mu0 = np.array([np.mean((1 - s) ** l) for l in lags])
    assert env.observable == "mu0" and np.allclose(env.measured, mu0, rtol=1e-12)
    assert np.allclose(env.unit_mu0, (1 - s)[:, None] ** lags[None, :], rtol=1e-12)
    assert np.allclose(env.mixture, mu0, rtol=1e-9)
    gelr = np.array([np.sum(lam * (1 - s) ** l) / lam.sum() for l in lags])
    _, env2 = gd.rates_and_envelope(m, x, envelope="gelr", **kw)
    assert env2.observable == "gelr" and np.allclose(env2.measured, gelr, rtol=1e-12)
    assert np.allclose(env2.mixture, gelr, rtol=1e-9) and np.allclose(env.gelr, gelr, rtol=1e-12)


def test_saturated_gate_is_floored_not_fatal():
    """A float32 gate that rounds to s = 1 has leak 0: floored at LEAK_FLOOR (the author's clamp)."""
    m = build_gated_rnn("diag", D, 4)
    with torch.no_grad():
        m.W_s.bias.fill_(40.0)                         # sigmoid(40) == 1 in float32
    _, tr = m.run(torch.randn(1, 6, D), trace=True)
    a, _ = gd.leak_and_first_order(m, tr)
    assert float(tr.s.min()) == 1.0 and np.all(a == sp.LEAK_FLOOR)


def test_second_order_bound_special_values():
    assert sp.second_order_bound(np.array([0.1])) == 0.0
    assert sp.second_order_bound(np.array([0.1]), np.array([0.3])) == 0.0
    assert abs(sp.second_order_bound(np.array([0.1, 0.2, 0.3])) - (0.02 + 0.03 + 0.06 + 0.006)) < 1e-15


def test_adam_base_rate_after_one_step_is_lr_over_abs_gradient():
    m = _tiny("diag", 0.3).float()
    x = _x().float()
    opt = torch.optim.AdamW(m.parameters(), lr=1e-3, weight_decay=1e-4, eps=1e-8)
    lam0, meth0 = gd.optimizer_base_rate(m, opt)
    assert np.all(lam0 == 1.0) and "no second-moment" in meth0
    loss = m(x).pow(2).mean()
    loss.backward()
    g = m.W_h.weight.grad.detach().double().clone()
    gu = m.U_s.weight.grad.detach().double().clone()
    opt.step()
    lam, meth = gd.optimizer_base_rate(m, opt)
    # step 1: v = (1 - beta2) g^2, v_hat = v / (1 - beta2) = g^2; DiagGate: mean over the W_h and U_s rows
    expected = (1e-3 / (torch.cat([g, gu], dim=1).abs() + 1e-8)).mean(dim=1).numpy()
    assert np.allclose(lam, expected, rtol=1e-5) and "AdamW" in meth and "W_h+U_s" in meth
    sgd = torch.optim.SGD(m.parameters(), lr=0.05)
    assert np.all(gd.optimizer_base_rate(m, sgd)[0] == 0.05)


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def _bad_calls():
    """(call, exception, text the message must hold): each used to crash, pass silently or raise an error
    that did not name the parameter."""
    from numerics.anticollapse import spectra

    return [
        (lambda: spectra.second_order_bound(np.array([-691.0, 0.1])), ValueError, "e must be >= 0"),
        (lambda: spectra.second_order_bound(np.full(3, 1e300)), ValueError, "e is too large"),
        (lambda: spectra.author_label_text(np.nan), TypeError, "label"),
        (lambda: spectra.author_label_text(np.array([1, 2])), TypeError, "label"),
        (lambda: tiny_torch.diagnose_rates(window=27), TypeError, "window"),
        (lambda: tiny_torch.diagnose_rates(seed=0.0), TypeError, "seed"),
        (lambda: tiny_torch.diagnose_rates(epoch=1.5), TypeError, "epoch"),
        (lambda: tiny_torch.diagnose_rates(step=-1), ValueError, "step"),
        (lambda: spectra.LongDiagnosisSpec(rate_lags=0), TypeError, "rate_lags"),
        (lambda: spectra.LongDiagnosisSpec(envelope_lags=10**6), TypeError, "envelope_lags"),
    ]


@pytest.mark.parametrize("i", range(len(_bad_calls())))
def test_bad_argument_is_named(i):
    tiny.assert_named(*_bad_calls()[i])


def test_diagnose_rates_normalises_integer_types():
    """np.uint8(0) as epoch used to be stored as given, so the diagnosis differed from epoch=0's."""
    d = tiny_torch.diagnose_rates(epoch=np.uint8(3), step=np.int64(5))
    assert type(d.epoch) is int and type(d.step) is int and (d.epoch, d.step) == (3, 5)


def test_second_order_bound_stays_exact_on_valid_input():
    from numerics.anticollapse.spectra import second_order_bound

    e = np.array([0.1, 0.2, 0.3])         # e1 e2 + e1 e3 + e2 e3 + e1 e2 e3 at alpha = 1
    assert second_order_bound(e) == pytest.approx(0.02 + 0.03 + 0.06 + 0.006, rel=1e-12)
    assert second_order_bound(np.zeros(3)) == 0.0


def test_author_label_text_takes_the_phase_labels():
    from numerics.anticollapse.spectra import author_label_text
    from theory.levy import PHASES

    assert [author_label_text(p) for p in PHASES] == [p if p != "unresolved" else
                                                      "anti-collapsed (unresolved beta)" for p in PHASES]
    with pytest.raises(ValueError, match="label"):
        author_label_text("bogus")


def _bound_by_subsets(e, alpha):
    """R = sum over subsets S of the steps with |S| >= 2 of prod_S e prod_(not S) alpha, written out (Fractions)."""
    import itertools
    from fractions import Fraction
    H, total = len(e), Fraction(0)
    for r in range(2, H + 1):
        for S in itertools.combinations(range(H), r):
            term = Fraction(1)
            for p in range(H):
                term *= Fraction(e[p]) if p in S else Fraction(alpha[p])
            total += term
    return total


@pytest.mark.parametrize("e,alpha", [([0.5, 0.3], [1e300, 1e300]), ([1e-20, 1e-20, 3e-20], None),
                                     ([0.1, 0.2, 0.3], [1e-200, 0.5, 1e200]), ([0.25] * 5, [0.5] * 5)])
def test_second_order_bound_against_the_subset_sum(e, alpha):
    """alpha ~ 1e300 gave nan and tiny e/alpha gave 0 (issue 33): the bound against its definition."""
    ref = _bound_by_subsets(e, alpha or [1.0] * len(e))
    got = sp.second_order_bound(np.array(e), None if alpha is None else np.array(alpha))
    assert abs(got - float(ref)) <= 1e-13 * float(ref)


def test_scaled_lag_grid_bounds_and_diagnose_rates_arguments():
    with pytest.raises(ValueError, match="lo must be an integer <="):
        sp.scaled_lag_grid(640, 10**30, 300, 10, geometric=True)
    g = sp.scaled_lag_grid(64, 5000, 6000, 4)
    assert g.max() < 64 and g.min() >= 1


def test_second_order_bound_refuses_a_scalar_window():
    """second_order_bound(0.5) was "'float' object is not iterable" (issue 43): e is one norm per step."""
    with pytest.raises(TypeError, match=r"^e must be a sequence \(1-d array\)"):
        sp.second_order_bound(0.5)
    with pytest.raises(TypeError, match=r"^alpha must be a sequence"):
        sp.second_order_bound(np.array([0.1, 0.2]), 0.5)
