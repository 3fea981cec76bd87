"""The author's two 1e-30 floors ("author" variants), the leak-only and half-sample time scales, and the
long-horizon re-diagnosis from saved weights."""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
torch.set_num_threads(1)

from numerics.anticollapse import spectra as sp  # noqa: E402
from numerics.anticollapse.envelope_gate import window_gate  # noqa: E402
import tiny_inputs as tiny  # noqa: E402
import tiny_torch  # noqa: E402


def _author_mean_log_mu(a, r, lags):
    """The author's definition, written out: mu_{t,l} = prod_W a_p (1 + sum_W r_p / a_p) for every window,
    log(clamp(|mu|, 1e-30)), mean over sequences and windows (diagnostics.py of lorenzolivi/anticollapse)."""
    B, T, H = a.shape
    out = np.zeros((len(lags), H))
    for j, l in enumerate(lags):
        vals = []
        for t in range(l - 1, T):
            w = slice(t - l + 1, t + 1)
            mu = np.prod(a[:, w], axis=1) * (1.0 + np.sum(r[:, w] / a[:, w], axis=1))
            vals.append(np.log(np.maximum(np.abs(mu), 1e-30)))
        out[j] = np.mean(vals, axis=(0, 1))
    return out


def test_transport_clamp_matches_the_author_definition():
    rng = np.random.default_rng(0)
    B, T, H = 2, 60, 4
    tau = np.array([0.2, 2.0, 8.0, 40.0])               # the fast units fall below 1e-30 within the lags
    a = np.exp(-1.0 / tau) * np.exp(0.05 * rng.standard_normal((B, T, H)))
    a = np.minimum(a, 0.999)
    r = 0.01 * rng.standard_normal((B, T, H))
    lags = np.array([5, 20, 35, 50])
    kw = dict(T=T, hidden=H, rate_lags=lags, envelope_lags=lags)
    ra, _ = sp.rates_and_envelope_from_leaks([(a, r)], variant="author", **kw)
    ro, _ = sp.rates_and_envelope_from_leaks([(a, r)], **kw)
    ref = _author_mean_log_mu(a, r, lags)
    np.testing.assert_allclose(ra.mean_log_gamma, ref, rtol=1e-12, atol=1e-12)
    # the clamp bites only where the transport is below 1e-30: the fast units' slopes flatten, tau inflates
    assert np.all(ref[:, 0] >= math.log(1e-30)) and np.any(ro.mean_log_gamma[:, 0] < math.log(1e-30))
    assert ra.tau[0] > 2 * ro.tau[0]
    np.testing.assert_allclose(ra.tau[1:], ro.tau[1:], rtol=1e-12)
    assert ra.variant == "author" and ro.variant == "no_floor"


def _aic_best_author(l, f):
    """The author's envelope fit written out: log(max(f, 1e-30)) by exp / power / tempered least squares, AIC."""
    y = np.log(np.maximum(f, 1e-30))
    designs = {"exponential": np.c_[np.ones_like(l), l], "power": np.c_[np.ones_like(l), np.log(l)],
               "tempered": np.c_[np.ones_like(l), np.log(l), l]}
    aic = {}
    for m, X in designs.items():
        coef, *_ = np.linalg.lstsq(X, y, rcond=None)
        rss = float(np.sum((y - X @ coef) ** 2))
        aic[m] = l.size * np.log(rss / l.size + 1e-30) + 2 * X.shape[1]
    return min(aic, key=aic.get), aic


def test_envelope_floor_matches_the_author_definition():
    l = np.linspace(4, 384, 128)
    tau = np.geomspace(1.0, 5.0, 128)               # all faster than 384 / 69
    f = np.mean(np.exp(-l[:, None] / tau[None, :]), axis=1)
    assert np.sum(f < 1e-30) > 0                       # the envelope falls below the floor on this grid
    best, aic = _aic_best_author(l, f)
    g = window_gate(l, f, variant="author")
    assert g.best == best
    assert all(abs(g.aic[m] - aic[m]) <= 1e-9 * abs(aic[m]) for m in aic)
    # zeros are fine for the author's floor, not for ours
    f0 = f.copy()
    f0[-1] = 0.0
    assert window_gate(l, f0, variant="author").best == _aic_best_author(l, f0)[0]
    with pytest.raises(ValueError, match="f must be > 0"):
        window_gate(l, f0)
    with pytest.raises(ValueError, match="variant"):
        window_gate(l, f, variant="theirs")


def test_leak_only_and_half_sample_tau():
    rng = np.random.default_rng(1)
    B, T, H = 4, 200, 3
    s = np.array([0.02, 0.1, 0.3])
    a = np.broadcast_to(1.0 - s, (B, T, H)).copy()
    r = 0.05 * rng.standard_normal((B, T, H))
    rates, _ = sp.rates_and_envelope_from_leaks([(a, r)], T=T, hidden=H, rate_lags=[10, 20, 40],
                                                envelope_lags=[1, 5, 10])
    np.testing.assert_allclose(rates.tau_leak, -1.0 / np.log(1.0 - s), rtol=1e-12)
    even, _ = sp.rates_and_envelope_from_leaks([(a[0::2], r[0::2])], T=T, hidden=H, rate_lags=[10, 20, 40],
                                               envelope_lags=[1, 5, 10])
    np.testing.assert_allclose(rates.tau_halves[0], even.tau, rtol=1e-12)


def test_long_horizon_rediagnosis_reproduces_training_checkpoints():
    from numerics.anticollapse.gated.long_horizon import rediagnose_run, training_spec
    from numerics.anticollapse.spectra import LongDiagnosisSpec
    from numerics.anticollapse.gated.train import train_gated

    cfg = {"task": {"T": 40, "n_train": 16, "n_diag": 4, "lag_range": [2, 20], "n_lags": 4},
           "model": {"arch": "diag", "hidden": 16, "init_s": 0.1},
           "train": {"epochs": 2, "batch": 8, "checkpoint_every": 1},
           "diagnostics": {"rate_lags": [4, 20, 6], "envelope_lags": [2, 20, 8], "n_boot": 50, "diag_batch": 4}}
    run = train_gated(cfg, seed=3, keep_states=True)
    assert len(run.states) == len(run.checkpoints) == 3
    again = rediagnose_run(run.config, run.seed, run.states, training_spec(run.config))
    for old, new in zip(run.checkpoints, again):
        np.testing.assert_allclose(new.tau, old.tau, rtol=1e-10)
        assert new.phase == old.phase and new.epoch == old.epoch
        np.testing.assert_allclose(new.base_rate, old.base_rate, rtol=1e-12)
    longer = rediagnose_run(run.config, run.seed, run.states[-1:],
                            LongDiagnosisSpec(T=160, n_diag=4, diag_batch=2, window_stride=2, rate_lags=(16, 80, 6),
                                              envelope_lags=(2, 80, 8), n_boot=50))
    assert longer[0].envelope.lags[-1] == 80 and longer[0].rates.lags[0] == 16
    with pytest.raises(ValueError, match="states is empty"):
        rediagnose_run(run.config, run.seed, [], training_spec(run.config))
    with pytest.raises(ValueError, match="long_diagnosis.rate_lags"):
        LongDiagnosisSpec(T=100, rate_lags=(10, 200, 5))


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def test_rediagnose_run_states_must_be_a_list():
    from numerics.anticollapse.gated.long_horizon import rediagnose_run

    with pytest.raises(TypeError, match="states"):
        rediagnose_run(tiny_torch.gated_run().config, 0, 10**6, tiny.long_spec())


def test_long_diagnostic_inputs_are_announced(capsys):
    from numerics.anticollapse.gated.long_horizon import diagnostic_inputs

    run = tiny_torch.gated_run()
    diagnostic_inputs(run.config, run.seed, 32, 16)
    assert "delayed-task sequences" not in capsys.readouterr().err
    n = (1 << 25) // (32 * run.task.d_in) + 1                         # just past the announcement threshold
    assert diagnostic_inputs(run.config, run.seed, 32, n).shape == (n, 32, run.task.d_in)
    assert "delayed-task sequences" in capsys.readouterr().err
