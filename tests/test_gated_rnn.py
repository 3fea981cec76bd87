"""Gated RNNs of the anti-collapse experiments (numerics.anticollapse.gated): the models, the delayed task,
forcing, seeded training, configs and sweep files, and the verdicts of the gated_rnn checks (the diagnosis:
tests/test_diagnostics.py).

Independent references: autograd through the plain one-step recurrence (``GatedRNN.step``) for the
hand-written BPTT; the numbers of docs/papers/anti-collapse.md for the task and the reference configuration.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from numerics.anticollapse.gated import diagnostics as gd  # noqa: E402
from numerics.anticollapse.gated.delayed_task import (  # noqa: E402
    make_delayed_task, pareto_lag_probabilities, pareto_lags, scaled_lag_range,
)
from numerics.anticollapse.gated.gated_rnn import ARCHITECTURES, GatedRNN, build_gated_rnn, logit  # noqa: E402
from numerics.anticollapse.gated.sweep import load_gated_sweep  # noqa: E402
from numerics.anticollapse.gated.train import (  # noqa: E402
    GatedConfig, apply_forcing, slow_units, train_gated,
)
from theory.levy import PHASES  # noqa: E402
from numerics.stats import z_for_false_alarm  # noqa: E402

D, H, T = 3, 4, 12
ROUND = 64 * np.finfo(np.float64).eps   # per-step rounding allowance of the float64 products


def _tiny(arch: str, eps: float, *, seed: int = 0, init_s: float = 0.3) -> GatedRNN:
    """A float64 network whose recurrent weights are ``eps`` times O(1) numbers (first order accurate)."""
    g = torch.Generator().manual_seed(seed)
    m = build_gated_rnn(arch, D, H, init_s=init_s).double()
    with torch.no_grad():
        m.W_h.weight.copy_(eps * torch.randn(H, H, generator=g, dtype=torch.float64))
        m.W_x.weight.copy_(torch.randn(H, D, generator=g, dtype=torch.float64))
        m.W_x.bias.copy_(0.3 * torch.randn(H, generator=g, dtype=torch.float64))
        if arch != "const":
            m.W_s.weight.copy_(0.5 * torch.randn(m.W_s.weight.shape, generator=g, dtype=torch.float64))
            m.U_s.weight.copy_(eps * torch.randn(m.U_s.weight.shape, generator=g, dtype=torch.float64))
    return m


def _x(seed: int = 1, B: int = 2) -> torch.Tensor:
    return torch.randn(B, T, D, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


def _loop(m: GatedRNN, x: torch.Tensor) -> torch.Tensor:
    h = x.new_zeros(x.shape[0], m.hidden)
    hs = []
    for t in range(x.shape[1]):
        h = m.step(x[:, t], h)
        hs.append(h)
    return torch.stack(hs, 1)


def _exact_window_jacobian(m: GatedRNN, x: torch.Tensor, h_start: torch.Tensor, t: int, lag: int) -> torch.Tensor:
    """d h_t / d h_{t-lag} for one sequence by autograd through ``step`` (steps t-lag+1..t)."""
    def f(h0):
        h = h0[None]
        for p in range(t - lag + 1, t + 1):
            h = m.step(x[None, p], h)
        return h[0]
    return torch.autograd.functional.jacobian(f, h_start)


# ------------------------------------------------------------------------------------------------ models
@pytest.mark.parametrize("arch", ARCHITECTURES)
def test_scan_and_handwritten_bptt_match_autograd_through_step(arch):
    m = _tiny(arch, 0.7)
    x = _x()
    y, _ = m.run(x)
    ref = m.readout(_loop(m, x))
    assert torch.allclose(y, ref, rtol=0, atol=1e-13)
    w = torch.randn_like(y, dtype=torch.float64)
    params = [p for p in m.parameters() if p.requires_grad]
    g_scan = torch.autograd.grad((y * w).sum(), params)
    g_ref = torch.autograd.grad((ref * w).sum(), params)
    for (name, _), a, b in zip([(n, p) for n, p in m.named_parameters() if p.requires_grad], g_scan, g_ref):
        assert torch.allclose(a, b, rtol=1e-12, atol=1e-13), name


@pytest.mark.parametrize("arch", ARCHITECTURES)
def test_initialisation_follows_the_spec(arch):
    m = build_gated_rnn(arch, 16, 8)
    _, tr = m.run(torch.randn(2, 5, 16), trace=True)
    # gate weights zero and b_s = logit(0.005): every gate starts at exactly 0.005 (float32)
    assert torch.allclose(tr.s, torch.full_like(tr.s, 0.005), rtol=1e-6, atol=0)
    if arch == "const":
        assert "s_const" in dict(m.named_buffers()) and not any("W_s" in n for n, _ in m.named_parameters())
    else:
        assert float(m.W_s.weight.detach().abs().max()) == 0.0 and float(m.U_s.weight.detach().abs().max()) == 0.0
        assert m.W_s.bias.shape == ((1,) if arch == "shared" else (8,))
    assert torch.equal(tr.h_prev[:, 1:], tr.h[:, :-1]) and float(tr.h_prev[:, 0].abs().max()) == 0.0
    assert abs(logit(0.005) - math.log(0.005 / 0.995)) < 1e-15


@pytest.mark.parametrize("arch", ARCHITECTURES)
def test_orthogonal_init_is_the_default_and_uniform_is_available(arch):
    m = build_gated_rnn(arch, 16, 8).double()
    eye = lambda n: torch.eye(n, dtype=torch.float64)  # noqa: E731
    Wh, Wx, Wo = (w.weight.detach() for w in (m.W_h, m.W_x, m.readout))
    assert torch.allclose(Wh @ Wh.T, eye(8), atol=1e-6)          # square: orthogonal
    assert torch.allclose(Wx @ Wx.T, eye(8), atol=1e-6)          # (8, 16): orthonormal rows
    assert abs(float(Wo.norm()) - 1.0) < 1e-6                    # (1, 8): a unit row
    u = build_gated_rnn(arch, 16, 8, init="uniform")
    assert float(u.W_h.weight.detach().abs().max()) <= 1 / math.sqrt(8) and m.init == "orthogonal" and u.init == "uniform"
    with pytest.raises(ValueError, match="init"):
        build_gated_rnn(arch, 16, 8, init="xavier")


def test_unit_row_parameters_are_exactly_the_per_unit_rows():
    assert set(build_gated_rnn("const", 3, 5).unit_row_parameters()) == {"W_x.weight", "W_x.bias", "W_h.weight"}
    assert set(build_gated_rnn("shared", 3, 5).unit_row_parameters()) == {"W_x.weight", "W_x.bias", "W_h.weight"}
    assert set(build_gated_rnn("diag", 3, 5).unit_row_parameters()) == {
        "W_x.weight", "W_x.bias", "W_h.weight", "W_s.weight", "W_s.bias", "U_s.weight"}






# ------------------------------------------------------------------------------------------------ task
def test_lag_seed_fixes_the_lags_across_training_seeds():
    a, b = (make_delayed_task(n_lags=8, lag_min=3, lag_max=256, seed=s, lag_seed=20260410) for s in (0, 1))
    assert np.array_equal(a.lags, b.lags) and not np.allclose(a.u, b.u)
    c, d = (make_delayed_task(n_lags=8, lag_min=3, lag_max=256, seed=s) for s in (0, 1))
    assert not np.array_equal(c.lags, d.lags)                  # lag_seed=None: lags follow the seed
    with pytest.raises(ValueError, match="lag_seed"):
        make_delayed_task(n_lags=8, lag_min=3, lag_max=256, lag_seed=-1)


def test_task_lags_coefficients_and_targets():
    task = make_delayed_task(n_lags=16, lag_min=2, lag_max=128, seed=3)
    assert task.lags.size == 16 and np.all(np.diff(task.lags) > 0) and task.lags.min() >= 2 and task.lags.max() <= 128
    assert np.allclose(task.coeffs, 0.6 * 0.85 ** np.arange(16), rtol=0, atol=1e-15)
    assert abs(np.linalg.norm(task.u) - 1) < 1e-12
    assert np.array_equal(make_delayed_task(n_lags=16, lag_min=2, lag_max=128, seed=3).lags, task.lags)
    assert not np.array_equal(make_delayed_task(n_lags=16, lag_min=2, lag_max=128, seed=4).lags, task.lags)
    quiet = make_delayed_task(n_lags=5, lag_min=1, lag_max=20, noise_std=0.0, seed=1)
    x, y = quiet.sample(3, 30, rng=np.random.default_rng(0))
    for n in range(3):
        for t in range(30):
            direct = sum(c * float(quiet.u @ x[n, t - l]) for l, c in zip(quiet.lags, quiet.coeffs) if t - l >= 0)
            assert abs(y[n, t, 0] - direct) < 1e-5
    l, p = pareto_lag_probabilities(8, 640, 1.6)
    assert abs(p[0] / p[-1] - 80 ** 1.6) < 1e-9 * 80 ** 1.6 and abs(p.sum() - 1) < 1e-12
    assert scaled_lag_range(1280) == (8, 640) and scaled_lag_range(256) == (2, 128)


def test_target_variance_matches_monte_carlo():
    task = make_delayed_task(n_lags=8, lag_min=1, lag_max=30, seed=5)
    n = 20000
    _, y = task.sample(n, int(task.lags.max()) + 1, rng=np.random.default_rng(9))
    v = y[:, -1, 0].astype(np.float64)                 # one time per sequence: independent samples
    var_hat = v.var(ddof=1)
    se = math.sqrt(np.mean((v - v.mean()) ** 4) - var_hat ** 2) / math.sqrt(n)
    assert abs(var_hat - task.target_variance) <= z_for_false_alarm() * se


# ------------------------------------------------------------------------------------------------ forcing, seeds
def test_forcing_touches_only_the_slow_rows_and_is_bounded():
    pytest.importorskip("numerics.anticollapse.levy_sampling")
    m = build_gated_rnn("diag", D, 10)
    rows = torch.tensor([2, 7])
    before = {k: p.detach()[rows].clone() for k, p in m.unit_row_parameters().items()}
    snapshot = {k: p.detach().clone() for k, p in m.named_parameters()}
    with torch.no_grad():                               # a fake optimiser step of RMS 1e-3 on every row
        for p in m.parameters():
            p.add_(1e-3)
    after_step = {k: p.detach().clone() for k, p in m.named_parameters()}
    n, _ = apply_forcing(m, before, rows, scale=1.0, alpha=1.5, clip=100.0, rng=np.random.default_rng(0))
    assert n == sum(b.numel() for b in before.values())
    for k, p in m.named_parameters():
        change = (p.detach() - after_step[k]).double()
        if k in before:
            keep = torch.ones(p.shape[0], dtype=torch.bool)
            keep[rows] = False
            assert float(change[keep].abs().max()) == 0.0
            assert float(change[rows].abs().max()) > 0.0
            assert float(change[rows].abs().max()) <= 1e-3 * 100.0 * (1 + 1e-5)   # rms * c
        else:
            assert float(change.abs().max()) == 0.0, k
    del snapshot


def test_slow_units_picks_largest_time_scales():
    tau = np.array([3.0, 9.0, np.inf, 1.0, 9.0])
    assert slow_units(tau, 1).tolist() == [2]
    assert slow_units(tau, 3).tolist() == [1, 2, 4]


_TINY = {"task": dict(T=24, n_lags=6, n_train=16, n_diag=4), "model": dict(hidden=16, init_s=0.05),
         "train": dict(batch=8, epochs=2, lr=5e-3, checkpoint_every=1),
         "diagnostics": dict(rate_lags=(12, 22, 8), envelope_lags=(2, 22, 8), n_boot=50, diag_batch=4)}


def _cfg(arch: str, **train) -> GatedConfig:
    return GatedConfig.from_dict({**_TINY, "model": {**_TINY["model"], "arch": arch},
                                  "train": {**_TINY["train"], **train}})


def test_training_is_deterministic_and_seeded():
    pytest.importorskip("numerics.anticollapse.estimators")
    pytest.importorskip("numerics.anticollapse.levy_sampling")
    cfg = _cfg("diag", forcing=1.0)
    a, b = train_gated(cfg, seed=1), train_gated(cfg, seed=1)
    c = train_gated(cfg, seed=2)
    assert a.step_loss == b.step_loss and np.array_equal(a.final.tau, b.final.tau)
    assert a.step_loss != c.step_loss
    assert len(a.checkpoints) == 3 and [k.epoch for k in a.checkpoints] == [0, 1, 2]
    assert a.forcing_stats["steps"] == 4 and a.forcing_stats["scalars"] > 0
    assert all(isinstance(row["phase"], str) for row in a.phase_trajectory())
    s = train_gated(_cfg("shared"), seed=1)
    assert np.array_equal(s.task.lags, a.task.lags)       # same seed, same task across architectures
    assert np.array_equal(c.task.lags, a.task.lags)       # the lag seed fixes the lags across seeds
    f = a.final
    assert f.phase in PHASES and f.phase_mixture in PHASES and f.resolution is not None


# ------------------------------------------------------------------------------------------------ configs
@pytest.mark.parametrize("section, bad, exc, word", [
    ("model", dict(arch="lstm"), ValueError, "arch"),
    ("model", dict(hidden=0), ValueError, "hidden"),
    ("model", dict(hidden=4.0), TypeError, "hidden"),
    ("model", dict(init_s=1.0), ValueError, "init_s"),
    ("model", dict(init="xavier"), ValueError, "init"),
    ("task", dict(T=200, lag_range=(8, 640)), ValueError, "lag_range"),
    ("task", dict(T=64, n_lags=40, lag_range=(2, 30)), ValueError, "n_lags"),
    ("task", dict(lag_seed=-3), ValueError, "lag_seed"),
    ("train", dict(forcing_alpha=2.5), ValueError, "forcing_alpha"),
    ("train", dict(forcing=-1.0), ValueError, "forcing"),
    ("train", dict(slow_fraction=0.0), ValueError, "slow_fraction"),
    ("train", dict(optimizer="rmsprop"), ValueError, "optimizer"),
    ("diagnostics", dict(envelope_lags=(4, 384)), ValueError, "envelope_lags"),
    ("diagnostics", dict(envelope="weighted"), ValueError, "envelope"),
    ("diagnostics", dict(envelope_grid="log"), ValueError, "envelope_grid"),
])
def test_bad_configs_are_rejected_clearly(section, bad, exc, word):
    with pytest.raises(exc, match=word):
        GatedConfig.from_dict({section: bad})


def test_lag_grids_must_fit_the_sequence():
    with pytest.raises(ValueError, match="rate_lags"):
        GatedConfig.from_dict({"task": dict(T=40), "diagnostics": dict(rate_lags=(64, 70, 32))})


def test_bad_inputs_are_rejected_clearly():
    with pytest.raises(ValueError, match="unknown field"):
        GatedConfig.from_dict({"model": {"hidden": 8, "width": 3}})
    with pytest.raises(ValueError, match="unknown field"):
        GatedConfig.from_dict({"hidden": 8})
    with pytest.raises(ValueError, match="sweep"):
        load_gated_sweep("no_such_sweep")
    with pytest.raises(ValueError, match="x must be"):
        build_gated_rnn("diag", 3, 4).run(torch.zeros(2, 5, 4))
    with pytest.raises(ValueError, match="n_lags"):
        pareto_lags(20, 1, 10, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="rate_lags"):
        gd.rates_and_envelope(build_gated_rnn("const", 3, 4), torch.zeros(1, 10, 3), rate_lags=[5, 20],
                              envelope_lags=[1, 2])


def test_sweep_files_match_the_spec():
    ref = load_gated_sweep("reference")
    assert set(ref.configs) == {"const", "const_forced", "shared", "diag"} and len(ref.seeds) == 10
    for name, c in ref.configs.items():
        t, m, tr, dg = c.task, c.model, c.train, c.diagnostics
        assert (m.hidden, t.T, tr.lr, tr.weight_decay, tr.batch, tr.epochs, tr.clip) == (512, 1280, 1e-3, 1e-4, 380, 1400, 1.0)
        assert (m.init_s, m.init, t.n_lags, t.lag_range, t.lag_exponent, t.coeff_base, t.coeff_decay, t.noise_std,
                t.d_in, t.lag_seed) == (0.005, "orthogonal", 16, (8, 640), 1.6, 0.6, 0.85, 0.3, 16, 20260410)
        assert (tr.forcing_alpha, tr.forcing_clip, tr.slow_fraction) == (1.5, 100.0, 0.1)
        assert tr.forcing == (1.0 if name == "const_forced" else 0.0) and m.arch == name.split("_")[0]
        # the author's grids: envelope linspace(4, 384, 128) of mu0, rate lags 64..384
        assert np.array_equal(c.lag_grid("envelope_lags"), np.unique(np.linspace(4, 384, 128).round().astype(int)))
        assert (dg.envelope, dg.envelope_grid, dg.rate_lags) == ("mu0", "linear", (64, 384, 32))
    for name in ("quick", "cpu"):
        p = load_gated_sweep(name)
        assert set(p.configs) == set(ref.configs)
        for c in p.configs.values():
            f = c.task.T / 1280                                # every time quantity scaled by T / 1280
            assert c.task.lag_range == scaled_lag_range(c.task.T) and abs(1 / c.model.init_s - 200 * f) < 1e-9
            assert c.lag_grid("envelope_lags")[-1] == c.task.lag_range[1]   # the envelope reaches the longest lag
    cpu = load_gated_sweep("cpu").configs["diag"]
    assert cpu.task.T >= 512 and cpu.model.hidden == 128 and cpu.lag_grid("envelope_lags")[-1] >= 256


# ------------------------------------------------------------------------------------------------ verdicts
from validation.checks import gated_rnn as checks  # noqa: E402
from validation.registry import INCONCLUSIVE, NOT_REPRODUCED, PASS  # noqa: E402
import tiny_inputs as tiny  # noqa: E402
import tiny_torch  # noqa: E402


def _ckpt(epoch=40, phase="collapsed", mixture="collapsed", resolved=True, tail=(1.5, 2.5), r2=0.95,
          q90=2.0, agree=True, gate=False, calibrated="collapsed"):
    c = {"epoch": epoch, "phase": phase, "phase_mixture": mixture, "resolved": resolved,
         "phase_calibrated": calibrated, "calibrated_gof_p": 0.5,
         "resolution_reason": "" if resolved else "envelope lags reach 256 < tau tail 3.3e+03 (the 0.995 quantile)",
         "note": "", "tau_median": 10.0, "tau_q90": 10.0 * q90, "tau_max": 50.0,
         "envelope_gate_passed": gate, "envelope_gate_reason": "" if gate else "power_window_residual_structure"}
    if tail is not None:
        c.update(beta_tail=sum(tail) / 2, beta_tail_ci=list(tail), beta_tail_r2=r2, beta_env=0.4,
                 beta_env_ci=[0.3, 0.5], beta_env_calibrated=0.45, beta_env_calibrated_ci=[0.35, 0.55],
                 beta_env_diff_ci=[-0.1, 0.1] if agree else [-0.4, -0.2], tail_envelope_agree=agree)
    else:
        c["note"] = "only 3 finite time scales (< 16): no tail fit"
    return c


def _data(**over):
    runs = {"const": [_ckpt(0), _ckpt(20), _ckpt()], "const_forced": [_ckpt(0), _ckpt(20), _ckpt()],
            "shared": [_ckpt(tail=(2.0, 3.0))], "diag": [_ckpt(tail=(0.5, 0.9), q90=20.0)]}
    runs.update(over)
    return {"seed0": runs, "seed1": runs}


def test_verdict_constgate():
    assert checks.verdict_constgate(_data()).verdict == PASS
    o = checks.verdict_constgate(_data(const=[_ckpt(0), _ckpt(20, phase="extended"), _ckpt()]))
    assert o.verdict == NOT_REPRODUCED and "epoch 20" in o.summary
    # our calibrated label counts beside the author's: a heavy-tailed ConstGate spectrum is evidence against
    o = checks.verdict_constgate(_data(const_forced=[_ckpt(), _ckpt(tail=(0.8, 1.4), calibrated="boundary")]))
    assert o.verdict == NOT_REPRODUCED and "calibrated boundary" in o.summary
    assert checks.verdict_constgate(_data(const=[_ckpt(mixture="boundary")])).verdict == NOT_REPRODUCED
    u = checks.verdict_constgate(_data(const=[_ckpt(), _ckpt(resolved=False)]))
    assert u.verdict == INCONCLUSIVE and "not resolved" in u.summary and "256" in u.summary


def test_verdict_diag_vs_shared():
    assert checks.verdict_diag_vs_shared(_data()).verdict == PASS
    # overlapping intervals are no evidence either way: inconclusive, with the reason
    o = checks.verdict_diag_vs_shared(_data(diag=[_ckpt(tail=(1.0, 2.2), q90=20.0)]))
    assert o.verdict == INCONCLUSIVE and "overlap" in o.summary
    # DiagGate's interval above SharedGate's, or a lighter upper tail: not reproduced
    assert checks.verdict_diag_vs_shared(_data(diag=[_ckpt(tail=(3.5, 4.5), q90=20.0)])).verdict == NOT_REPRODUCED
    assert checks.verdict_diag_vs_shared(_data(diag=[_ckpt(tail=(0.5, 0.9), q90=1.5)])).verdict == NOT_REPRODUCED
    # the claim is about tau samples: an envelope that does not reach the tail does not matter, a missing tail does
    assert checks.verdict_diag_vs_shared(_data(diag=[_ckpt(tail=(0.5, 0.9), q90=20.0, resolved=False)])).verdict == PASS
    assert checks.verdict_diag_vs_shared(_data(diag=[_ckpt(tail=None)])).verdict == INCONCLUSIVE


def test_verdict_tail_envelope():
    assert checks.verdict_tail_envelope(_data()).verdict == PASS
    assert checks.verdict_tail_envelope(_data(diag=[_ckpt(tail=(0.5, 0.9), agree=False)])).verdict == NOT_REPRODUCED
    o = checks.verdict_tail_envelope(_data(diag=[_ckpt(tail=(0.5, 0.9), r2=0.881)]))
    assert o.verdict == INCONCLUSIVE and "0.881" in o.summary
    u = checks.verdict_tail_envelope(_data(diag=[_ckpt(tail=(0.5, 0.9), resolved=False)]))
    assert u.verdict == INCONCLUSIVE and "not a verdict" in u.summary and "difference [-0.1, 0.1]" in u.summary


def _gate(pareto, few):
    fam = lambda k, keys: {str(b): {"passed": k, "n": 200} for b in keys}  # noqa: E731
    return {"passed": {"pareto_draws": fam(pareto, (0.5, 0.8, 1.2)), "pareto_quantiles": fam(0, (0.5, 0.8, 1.2)),
                       "few": fam(few, (1, 2, 3, 5))}}


def test_verdict_gate_discrimination():
    # a gate that passes 80% of heavy-tailed and 10% of few-exponential spectra separates them
    assert checks.verdict_gate_discrimination({"a": _gate(160, 20)["passed"]}).verdict == PASS
    # equal rates, or a small difference, do not
    o = checks.verdict_gate_discrimination({"a": _gate(12, 12)["passed"]})
    assert o.verdict == NOT_REPRODUCED and "binomial p" in o.summary
    assert checks.verdict_gate_discrimination({"a": _gate(60, 20)["passed"]}).verdict == NOT_REPRODUCED
    # every grid must separate
    two = {"a": _gate(160, 20)["passed"], "b": _gate(5, 5)["passed"]}
    assert checks.verdict_gate_discrimination(two).verdict == NOT_REPRODUCED


def test_verdict_reference_uses_all_three_rules():
    assert checks.verdict_reference(_data()).verdict == PASS
    # a phase-only rule would pass this (ConstGate collapsed), the three rules do not (Diag not below Shared)
    bad = checks.verdict_reference(_data(diag=[_ckpt(tail=(3.5, 4.5), q90=20.0)]))
    assert bad.verdict == NOT_REPRODUCED and "diag_vs_shared: not reproduced" in bad.summary
    assert checks.verdict_reference(_data(diag=[_ckpt(tail=(0.5, 0.9), r2=0.5, q90=20.0)])).verdict == INCONCLUSIVE


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def _bad_calls():
    """(call, exception, text the message must hold): each used to crash, pass silently or raise an error
    that did not name the parameter."""
    from numerics.anticollapse.gated import delayed_task, train

    return [
        (lambda: delayed_task.make_delayed_task(lag_exponent=0), ValueError, "lag_exponent"),
        (lambda: delayed_task.make_delayed_task(lag_exponent=10**6), ValueError, "lag_exponent"),
        (lambda: train.TaskSpec(T=32, n_lags=2, lag_range=1000), TypeError, "lag_range"),
        (lambda: train.TaskSpec(T=32, n_lags=2, lag_exponent=10**6), ValueError, "lag_exponent"),
        (lambda: train.slow_units(np.array([np.nan, 1.0]), 1), ValueError, "tau"),
        (lambda: train.train_gated(tiny_torch.gated_config(), progress=5), TypeError, "progress"),
    ]


@pytest.mark.parametrize("i", range(len(_bad_calls())))
def test_bad_argument_is_named(i):
    tiny.assert_named(*_bad_calls()[i])


def test_delayed_task_draws_in_blocks_the_stream_of_one_draw():
    from numerics.anticollapse.gated.delayed_task import make_delayed_task

    task = make_delayed_task(n_lags=4, lag_min=2, lag_max=40, d_in=3, seed=1)
    x, y = task.sample(3000, 700, rng=np.random.default_rng(3))        # 6.3e6 entries: several blocks
    rng = np.random.default_rng(3)
    x0, noise = rng.standard_normal((3000, 700, 3)), rng.standard_normal((3000, 700))
    y0, proj = task.noise_std * noise, x0 @ task.u
    for lag, c in zip(task.lags, task.coeffs):
        y0[:, lag:] += c * proj[:, :700 - lag]
    assert np.array_equal(x, x0.astype(np.float32)) and np.array_equal(y[..., 0], y0.astype(np.float32))


def test_forcing_checks_alpha_up_front_and_slow_units_names_its_bound():
    """A complex alpha passed when no row had moved (issue 33 fuzz); slow_units(tau=[]) named n_slow's bound
    without saying it is len(tau)."""
    m = build_gated_rnn("diag", D, 10)
    rows = torch.tensor([2, 7])
    before = {k: p.detach()[rows].clone() for k, p in m.unit_row_parameters().items()}      # no step: rms 0
    with pytest.raises(TypeError, match="alpha must be a real number"):
        apply_forcing(m, before, rows, scale=1.0, alpha=1 + 0j, clip=100.0, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"n_slow \(at most len\(tau\) = 0\)"):
        slow_units(np.array([]), 1)
