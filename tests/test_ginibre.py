"""Tests of numerics.signal_propagation.ginibre: Monte Carlo against the closed forms, at |MC - exact| <= z se."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from numerics.signal_propagation.ginibre import BLOCK, estimate_feedforward, estimate_Q, estimate_S, sample_ginibre
from numerics.signal_propagation.wick import wick_polynomial
from theory.signal_energy import Q, S
from numerics.stats import agreement, z_for_false_alarm


def _real_Q(n, k_last):
    """Exact real-weight Q^R_{n,k}, k = 0..k_last, from the Wick enumeration (independent of the MC)."""
    return np.array([sum(c * n**j for j, c in enumerate(wick_polynomial(k, "real"))) / n ** (k + 1)
                     for k in range(k_last + 1)])


def _assert_agrees(est, exact, *, skip_first=False):
    lo = 1 if skip_first else 0
    m, s, e = est.mean[lo:], est.se[lo:], np.asarray(exact, float)[lo:]
    a = agreement(m, s, e, z=z_for_false_alarm(m=m.size))
    assert a.ok, f"max |z| = {a.max_abs_z:.2f} > {a.z:.2f}: z = {np.round(a.zscores, 2)}"


# --- the samplers ------------------------------------------------------------------------------------
@pytest.mark.parametrize("field", ["complex", "real"])
def test_entry_moments(field):
    G = sample_ginibre(6, 500, field=field, seed=11, normalised=False).ravel()
    sq = np.abs(G) ** 2                                    # E|G_ij|^2 = 1
    z = z_for_false_alarm(m=2)
    assert abs(sq.mean() - 1) <= z * sq.std(ddof=1) / math.sqrt(sq.size)
    g2 = (G * G).real                                      # E Re(G^2) = 0 (complex), = 1 (real)
    target = 0.0 if field == "complex" else 1.0
    assert abs(g2.mean() - target) <= z * g2.std(ddof=1) / math.sqrt(g2.size)
    assert np.iscomplexobj(G) == (field == "complex")


def test_sampler_scaling_and_prefix_stability():
    W = sample_ginibre(5, 70, seed=3)
    G = sample_ginibre(5, 70, seed=3, normalised=False)
    assert np.allclose(W, G / math.sqrt(5), rtol=1e-15, atol=0)
    assert np.array_equal(sample_ginibre(5, BLOCK + 3, seed=3), W[:BLOCK + 3])
    assert not np.array_equal(sample_ginibre(5, 4, seed=4), W[:4])


# --- Monte Carlo against the closed forms ------------------------------------------------------------
@pytest.mark.parametrize("method", ["trace", "probe"])
def test_Q_complex_agrees(method):
    n, k_last = 6, 4
    est = estimate_Q(n, k_last, 4000, seed=21, estimator=method)
    _assert_agrees(est, [float(Q(n, k, method="exact")) for k in range(k_last + 1)], skip_first=method == "trace")


@pytest.mark.parametrize("method", ["trace", "probe"])
def test_Q_real_agrees_with_wick(method):
    n, k_last = 5, 4
    est = estimate_Q(n, k_last, 4000, field="real", seed=22, estimator=method)
    _assert_agrees(est, _real_Q(n, k_last), skip_first=method == "trace")


@pytest.mark.parametrize("field", ["complex", "real"])
def test_S_agrees(field):
    n, t_last = 6, 5
    exact = ([float(S(n, t, method="exact")) for t in range(t_last + 1)] if field == "complex"
             else np.cumsum(_real_Q(n, t_last)))
    _assert_agrees(estimate_S(n, t_last, 3000, field=field, seed=23), exact)


@pytest.mark.parametrize("field,per_layer", [("complex", 1.0), ("real", 2.0)])
def test_feedforward_moments(field, per_layer):
    n, L = 16, 4
    est = estimate_feedforward(n, L, 3000, field=field, seed=24)
    _assert_agrees(est.first, np.ones(L + 1), skip_first=True)
    _assert_agrees(est.second, (1 + per_layer / n) ** np.arange(L + 1), skip_first=True)
    assert est.first.mean[0] == pytest.approx(1.0, rel=1e-14)     # unit start vector


def test_trace_estimator_is_exact_at_k0_and_k1_mean():
    est = estimate_Q(7, 2, 200, seed=2)
    assert est.mean[0] == 1.0 and est.se[0] == 0.0
    _assert_agrees(est, [1.0, 1.0, 1.0 + 1.0 / 49.0], skip_first=True)


@settings(max_examples=12)
@given(n=st.integers(3, 9), k=st.integers(1, 4), field=st.sampled_from(["complex", "real"]))
def test_property_mc_agrees_with_exact(n, k, field):
    """Hypothesis draws (n, k); the seed is derived from the example; k <= 2 sqrt(n) keeps tails tame."""
    k = min(k, int(2 * math.sqrt(n)))
    seed = 10_000 * n + 100 * k + (field == "real")
    est = estimate_Q(n, k, 1500, field=field, seed=seed)
    exact = ([float(Q(n, j, method="exact")) for j in range(k + 1)] if field == "complex" else _real_Q(n, k))
    _assert_agrees(est, exact, skip_first=True)


# --- reproducibility, chunking, checkpoints ------------------------------------------------------------
@pytest.mark.parametrize("func,args", [(estimate_Q, (5, 4, 150)), (estimate_S, (5, 4, 150)),
                                       (estimate_feedforward, (5, 3, 150))])
def test_results_do_not_depend_on_chunk(func, args):
    a = func(*args, seed=7, chunk=BLOCK)
    b = func(*args, seed=7, chunk=10 * BLOCK)
    c = func(*args, seed=7, chunk=1)       # rounded up to one block
    for x in (b, c):
        for u, v in ((a, x),) if func is not estimate_feedforward else ((a.first, x.first), (a.second, x.second)):
            assert np.array_equal(u.mean, v.mean) and np.array_equal(u.se, v.se)


def test_same_seed_same_result_and_metadata():
    a = estimate_Q(4, 3, 100, seed=5, field="real", estimator="probe")
    b = estimate_Q(4, 3, 100, seed=5, field="real", estimator="probe")
    assert np.array_equal(a.mean, b.mean)
    assert (a.samples, a.seed, a.method, a.field, a.n, a.quantity) == (100, 5, "probe", "real", 4, "Q")
    assert not np.array_equal(a.mean, estimate_Q(4, 3, 100, seed=6, field="real", estimator="probe").mean)


def test_checkpoints_are_running_estimates():
    est = estimate_Q(4, 3, 300, seed=8)
    cp = est.checkpoints
    assert cp.samples.tolist() == [32, 64, 128, 256, 300]
    assert np.array_equal(cp.mean[-1], est.mean) and np.array_equal(cp.se[-1], est.se)
    first = estimate_Q(4, 3, 64, seed=8)          # the first 64 draws of the longer run
    assert np.array_equal(cp.mean[1], first.mean) and np.array_equal(cp.se[1], first.se)


def test_standard_error_is_sd_over_root_n():
    # X_1 = ||W||_F^2 / n = (1/n^2) sum |G_ij|^2: check mean and se against a direct computation
    n, N = 3, 96
    est = estimate_Q(n, 1, N, seed=9)
    W = sample_ginibre(n, N, seed=9)
    x = (np.abs(W) ** 2).sum(axis=(1, 2)) / n
    assert est.mean[1] == pytest.approx(x.mean(), rel=1e-13)
    assert est.se[1] == pytest.approx(x.std(ddof=1) / math.sqrt(N), rel=1e-11)


# --- bad input -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs,exc,msg", [
    (dict(n=0), ValueError, "n must be an integer >= 1"),
    (dict(n=4.0), TypeError, "n must be an integer"),
    (dict(k=-1), ValueError, "k must be an integer >= 0"),
    (dict(samples=1), ValueError, "samples must be an integer >= 2"),
    (dict(field="quaternion"), ValueError, "field must be one of"),
    (dict(seed=-3), ValueError, "seed must be an integer >= 0"),
    (dict(seed=True), TypeError, "seed must be an integer"),
    (dict(estimator="magic"), ValueError, "estimator must be one of"),
    (dict(chunk=0), ValueError, "chunk must be an integer >= 1"),
    (dict(progress="yes"), TypeError, "progress must be"),
])
def test_bad_input_Q(kwargs, exc, msg):
    args = dict(n=4, k=2, samples=10)
    args.update(kwargs)
    pos = (args.pop("n"), args.pop("k"), args.pop("samples"))
    with pytest.raises(exc, match=msg):
        estimate_Q(*pos, **args)


def test_bad_input_S_feedforward_sampler():
    with pytest.raises(ValueError, match="t must be an integer >= 0"):
        estimate_S(4, -1, 10)
    with pytest.raises(ValueError, match="L must be an integer >= 0"):
        estimate_feedforward(4, -2, 10)
    with pytest.raises(ValueError, match="count must be an integer >= 0"):
        sample_ginibre(4, -1)
    with pytest.raises(ValueError, match="field must be one of"):
        estimate_S(4, 2, 10, field="quaternion")
