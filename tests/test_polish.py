"""The certified polish: the certificate rule on synthetic curves, and L-BFGS on a model with a known optimum."""

import math

import numpy as np
import pytest
import torch

from numerics.memory_functions.bench.polish import PolishSpec, certificate, polish
import tiny_inputs as tiny


def _curve(floor, amp, rate, n):
    return [floor * (1 + amp * rate ** i) for i in range(n + 1)]


def test_certificate_accepts_a_flat_curve_with_a_small_gradient():
    c = certificate(_curve(1e-4, 1e-3, 0.99, 600), [1e-7] * 601, 1.0)
    assert c["certified"] and abs(c["change"]) < 0.01 and c["grad_ratio"] == pytest.approx(1e-7) and c["reason"] == ""


@pytest.mark.parametrize("rel, grad, g0, why", [
    (_curve(1e-4, 1.0, 0.999, 600), [1e-7] * 601, 1.0, "changed"),        # still falling: 1% rule says no
    (_curve(1e-4, 1e-3, 0.99, 600), [1e-2] * 601, 1.0, "||g||"),          # flat, but the gradient is large
    (_curve(1e-4, 1e-3, 0.99, 300), [1e-7] * 301, 1.0, "only 300"),       # too few float64 iterations
    ([1e-4] * 600 + [math.nan], [1e-7] * 601, 1.0, "not finite"),
])
def test_certificate_can_say_no(rel, grad, g0, why):
    c = certificate(rel, grad, g0)
    assert not c["certified"] and why in c["reason"]


def test_certificate_change_is_measured_over_the_window_only():
    # a big drop long ago, then flat: certified over the last 500; the same drop inside the window: not
    early = [1.0] + [1e-4] * 600
    late = [1e-4] * 200 + [5e-5] * 401
    assert certificate(early, [0.0] * 601, 1.0)["certified"]
    c = certificate(late, [0.0] * 601, 1.0)
    assert not c["certified"] and c["change"] == pytest.approx(1.0)


def test_certificate_rejects_mismatched_curves():
    with pytest.raises(ValueError, match="equal lengths"):
        certificate([1.0, 1.0], [1.0], 1.0)


class _Recurrence(torch.nn.Module):
    """h_t = a h_{t-1} + b x_t, yhat_t = c h_t: kernel c b a^s (an exactly representable exponential)."""

    def __init__(self, a, b, c):
        super().__init__()
        self.a, self.b, self.c = (torch.nn.Parameter(torch.tensor(float(v))) for v in (a, b, c))

    def forward(self, x):                                    # (B, T, 1) -> (B, T, 1)
        h, out = torch.zeros_like(x[:, 0]), []
        for t in range(x.shape[1]):
            h = self.a * h + self.b * x[:, t]
            out.append(self.c * h)
        return torch.stack(out, 1)


def _data(lam=0.8, gain=0.5, n=32, T=24):
    x = np.random.default_rng(0).standard_normal((n, T))
    rho = gain * lam ** np.arange(T)
    y = np.stack([np.convolve(xi, rho)[:T] for xi in x])
    return x, y


def test_polish_reaches_the_known_optimum_of_a_linear_recurrence():
    x, y = _data()
    model = _Recurrence(0.5, 1.0, 0.2)
    r = polish(model, x, y, PolishSpec(f32_iters=50, f64_iters=400, window=20, check_every=5))
    assert r.start_relmse > 1e-2
    assert r.relmse < 1e-16          # the optimum is exactly 0; float64 round-off leaves ~1e-19
    assert float(model.a.detach()) == pytest.approx(0.8, abs=1e-7)
    assert float((model.b * model.c).detach()) == pytest.approx(0.5, abs=1e-7)
    assert r.certified and r.f64_iters >= 20 and r.curve["stage"][0] == "f32" and r.curve["stage"][-1] == "f64"


def test_polish_with_too_short_a_float64_stage_is_an_upper_bound():
    x, y = _data()
    r = polish(_Recurrence(0.5, 1.0, 0.2), x, y, PolishSpec(f64_iters=5, window=20))
    assert not r.certified and "only 5" in r.reason and r.relmse < r.start_relmse


def test_polish_spec_rejects_bad_settings():
    with pytest.raises(ValueError, match="polish.window"):
        PolishSpec(window=0)
    with pytest.raises(TypeError, match="PolishSpec"):
        polish(_Recurrence(0.5, 1.0, 0.2), *_data(), {"f64_iters": 3})


def _cfg(polish):
    return {"model": {"arch": "s4d", "width": 1, "state": 2, "layers": 1, "linear": True},
            "target": {"kind": "exp", "alpha": 0.5, "T": 16, "n_seq": 16},
            "train": {"steps": 20, "batch": 4, "schedule": "cosine2"}, **({"polish": polish} if polish else {})}


def test_a_polished_run_keeps_the_adam_answer_and_adds_the_polish():
    from numerics.memory_functions.bench.runs import RunConfig, execute_run

    plain, pol = RunConfig.from_dict(_cfg(None)), RunConfig.from_dict(_cfg({"f64_iters": 5, "window": 3}))
    assert "polish" not in plain.to_dict() and pol.to_dict()["polish"]["f64_iters"] == 5
    assert plain.run_id != pol.run_id
    r = execute_run(pol.to_dict())
    p = r["polish"]
    assert p["relmse"] <= p["start_relmse"] and p["f64_iters"] <= 5 and p["curve"]["iter"][0] == 0
    assert r["relmse"] == pytest.approx(p["start_relmse"], rel=1e-4)   # relmse: the Adam stage's (float32 eval)
    assert r["exp_sum"] != p["adam_exp_sum"]                           # export of the polished model, and Adam's


def test_sweep_polish_defaults_a_study_override_and_stop_after():
    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.sweep import expand_sweep, run_sweep

    doc = {"defaults": {"polish": {"f64_iters": 7}},
           "studies": {"a": {"models": {"m": _cfg(None)["model"]}, "kinds": ["exp"], "alphas": [0.5], "seeds": [0],
                             "polish": {"window": 3}},
                       "b": {"models": {"m": _cfg(None)["model"]}, "kinds": ["exp"], "alphas": [0.5], "seeds": [0],
                             "polish": None}}}
    a, b = expand_sweep(doc)
    assert (a.config.polish.f64_iters, a.config.polish.window) == (7, 3) and b.config.polish is None
    with ResultStore(":memory:") as st:
        s = run_sweep([a, b], st, progress=False, stop_after=0)
        assert s.ran == 0 and len(st) == 0                 # no job starts after the deadline; a rerun resumes


# The Levenberg-Marquardt finish

def test_the_lm_jacobian_is_the_autograd_jacobian():
    from numerics.memory_functions.bench.polish import _jacobian

    w = torch.tensor([[0.3, -1.2], [2.0, 0.7], [0.1, 0.4]], dtype=torch.float64)
    resid = lambda v: torch.tanh(w @ v) * v.sum()                     # N = 3 residuals of P = 2 parameters
    v = torch.tensor([0.2, -0.5], dtype=torch.float64)
    ref = torch.autograd.functional.jacobian(resid, v)              # reverse mode, row by row: (N, P)
    assert torch.allclose(_jacobian(resid, v).T, ref, rtol=0, atol=1e-15)


def test_lm_finish_reaches_the_optimum_that_a_short_lbfgs_stage_leaves():
    x, y = _data()
    model = _Recurrence(0.5, 1.0, 0.2)
    r = polish(model, x, y, PolishSpec(f64_iters=3, window=20, lm_iters=60))
    assert r.lm_iters >= 1 and "lm" in r.curve["stage"] and "Levenberg-Marquardt" in r.method
    assert r.relmse < 1e-16                                          # the optimum is exactly 0
    assert float(model.a.detach()) == pytest.approx(0.8, abs=1e-7)
    assert float((model.b * model.c).detach()) == pytest.approx(0.5, abs=1e-7)
    assert r.curve["stage"][-1] == "f64" and r.f64_iters > 3          # the L-BFGS window ran after it
    # At an exact zero the RelMSE is float64 noise (~1e-32), whose relative change over the window is O(1):
    # the rule cannot certify a representable target's floor, it reports it as an upper bound instead.
    assert not r.certified and "changed" in r.reason


def test_lm_finish_certifies_a_nonzero_floor_that_lbfgs_alone_does_not_reach():
    x, _ = _data()
    T = x.shape[1]
    rho = 0.5 * 0.8 ** np.arange(T) + 0.2 * (-0.3) ** np.arange(T)   # two poles: one recurrence cannot fit it
    y = np.stack([np.convolve(xi, rho)[:T] for xi in x])
    spec = PolishSpec(f64_iters=3, window=20, lm_iters=60)
    r = polish(_Recurrence(0.5, 1.0, 0.2), x, y, spec)
    assert r.certified and r.lm_iters >= 1 and 1e-4 < r.relmse < 1e-1
    assert r.grad_ratio <= spec.gtol and abs(r.change) < spec.rtol
    lm = [v for st, v in zip(r.curve["stage"], r.curve["relmse"]) if st == "lm"]
    assert all(b < a for a, b in zip(lm, lm[1:]))                    # accepted steps only: strictly decreasing
    short = polish(_Recurrence(0.5, 1.0, 0.2), x, y, PolishSpec(f64_iters=3, window=20))
    assert not short.certified and short.relmse > r.relmse            # the same L-BFGS stage alone: a bound


def test_lm_finish_is_not_run_when_lbfgs_certifies_and_its_budget_is_the_stated_maximum():
    from numerics.memory_functions.bench.polish import MAX_LM_ITERS

    x, y = _data()
    r = polish(_Recurrence(0.5, 1.0, 0.2), x, y, PolishSpec(f64_iters=400, window=20, check_every=5, lm_iters=5))
    assert r.certified and r.lm_iters == 0 and "lm" not in r.curve["stage"]
    with pytest.raises(ValueError, match="polish.lm_iters"):
        PolishSpec(lm_iters=MAX_LM_ITERS + 1)


def test_run_ids_of_configs_without_the_finish_are_unchanged():
    from numerics.memory_functions.bench.runs import RunConfig

    plain = RunConfig.from_dict(_cfg({"f64_iters": 5}))
    assert "lm_iters" not in plain.to_dict()["polish"]
    assert RunConfig.from_dict(_cfg({"f64_iters": 5, "lm_iters": 0})).run_id == plain.run_id
    assert RunConfig.from_dict(_cfg({"f64_iters": 5, "lm_iters": 4})).run_id != plain.run_id


def test_a_float32_stage_long_enough_for_its_flatness_check_runs():
    """The float32 stage checks flatness without a gradient test (gtol = inf) once it has more than
    ``f32_window`` iterations; the profile's settings (1000 iterations, window 200) get there."""
    x, y = _data()
    spec = PolishSpec(f32_iters=60, f32_window=10, check_every=5, f64_iters=30, window=20)
    r = polish(_Recurrence(0.5, 1.0, 0.2), x, y, spec)
    n32 = sum(st == "f32" for st in r.curve["stage"])
    assert r.f32_iters > spec.f32_window and n32 > 1 and r.relmse < r.start_relmse
    assert certificate([1.0, 0.5, 0.5], [1.0, 1.0, 1.0], 1.0, window=1, gtol=math.inf)["certified"]


def test_a_diverged_adam_endpoint_is_reported_not_finite():
    x, y = _data()
    r = polish(_Recurrence(float("nan"), 1.0, 0.2), x, y, PolishSpec(f32_iters=5, f64_iters=5, window=2, lm_iters=3))
    assert not r.certified and r.reason == "not finite" and math.isnan(r.start_relmse) and r.lm_iters == 0


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def _bad_calls():
    """(call, exception, text the message must hold): each used to crash, pass silently or raise an error
    that did not name the parameter."""
    from numerics.memory_functions.bench import polish
    from numerics.memory_functions.models.lstm import LSTM

    x = np.zeros((4, 12))
    return [
        (lambda: polish.certificate([1e-3, 9e-4], [1.0, 0.1], 1.0, window=1, gtol=np.nan), ValueError, "gtol"),
        (lambda: polish.certificate([1e-3, 9e-4], [1.0, 0.1], 1.0, window=1, rtol=np.inf), ValueError, "rtol"),
        (lambda: polish.polish(LSTM(3), np.array([1, 2]), x, polish.PolishSpec()), ValueError, "x and y"),
        (lambda: polish.certificate([1e-3, 9e-4], [1.0, 0.1], True, window=1), TypeError, "g0"),
        (lambda: polish.certificate([1e-3, 9e-4], [1.0, 0.1], None, window=1), TypeError, "g0"),
        (lambda: polish.certificate([1e-3, 9e-4], [1.0, 0.1], np.nan, window=1), ValueError, "g0"),
        (lambda: polish.certificate([1e-3, 9e-4], [1.0, 0.1], -np.inf, window=1), ValueError, "g0"),
        (lambda: polish.certificate([1e-3, 9e-4], [1.0, 0.1], 1 + 2j, window=1), TypeError, "g0"),
    ]


@pytest.mark.parametrize("i", range(len(_bad_calls())))
def test_bad_argument_is_named(i):
    tiny.assert_named(*_bad_calls()[i])
