"""Tests of the initialisation-for-a-horizon tool (theory.horizon, numerics.signal_propagation.horizon_mc)."""

from __future__ import annotations

import doctest
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import numerics.signal_propagation.horizon_mc as hmc
import theory.horizon as th
from theory.horizon import depth_for_scale, gain_curve, max_horizon, sigma_for_horizon
from theory.regimes import breakdown_depth
from theory.signal_energy import trace_moment
from theory.real_rows import real_energies
from numerics.stats import z_for_false_alarm


def exact_Q(n, k):
    return Fraction(trace_moment(n, k), n ** (k + 1))


def exact_curve(n, t, sigma, quantity, energies=None):
    """p_j(sigma), j = 0..t, in exact rationals at the exact binary value of sigma."""
    E = energies or [exact_Q(n, k) for k in range(t + 1)]
    s2 = Fraction(sigma) ** 2
    terms = [s2 ** k * E[k] for k in range(t + 1)]
    if quantity == "Q":
        return terms
    out, acc = [], Fraction(0)
    for j, term in enumerate(terms):
        acc += term
        out.append(acc / (j + 1))
    return out


def exact_dev(n, t, sigma, quantity, energies=None):
    return float(max(abs(p - 1) for p in exact_curve(n, t, sigma, quantity, energies)))


def test_doctests():
    assert doctest.testmod(th, raise_on_error=False).failed == 0
    assert doctest.testmod(hmc, raise_on_error=False).failed == 0


# ----------------------------------------------------------------------------------------------------
# the definitions, checked in exact arithmetic
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("quantity", ["Q", "S"])
@pytest.mark.parametrize("n,t,tol", [(64, 6, 0.05), (256, 18, 0.05), (1024, 40, 0.05)])
def test_minimax_and_interval_match_exact_curve(n, t, tol, quantity):
    r = sigma_for_horizon(n, t, tol, quantity=quantity)
    assert r.feasible
    # the reported deviation is the exact deviation at the reported sigma
    assert abs(exact_dev(n, t, r.sigma, quantity) - r.deviation) <= 1e-12
    # minimax: moving sigma either way makes the worst depth worse
    for f in (1 - 1e-6, 1 + 1e-6):
        assert exact_dev(n, t, r.sigma * f, quantity) > r.deviation
    # interval ends: dev = tol there, > tol just outside
    for s, outward in ((r.sigma_low, 1 - 1e-9), (r.sigma_high, 1 + 1e-9)):
        assert abs(exact_dev(n, t, s, quantity) - tol) <= 1e-12
        assert exact_dev(n, t, s * outward, quantity) > tol
    # endpoint root: p_t(sigma_end) = 1
    assert abs(float(exact_curve(n, t, r.sigma_endpoint, quantity)[-1]) - 1) <= 1e-12
    # Glorot: sigma = 1
    assert abs(r.glorot_deviation - exact_dev(n, t, 1.0, quantity)) <= 1e-12


def test_Q_interval_explicit_bounds():
    """For Q the interval is explicit:
    log sigma^2 in [max_j (log(1-tol) - log Q_j)/j, min_j (log(1+tol) - log Q_j)/j]."""
    n, tol = 300, 0.03
    t = max_horizon(n, tol, quantity="Q")[0]                       # the longest feasible horizon: both bounds active
    r = sigma_for_horizon(n, t, tol, quantity="Q")
    with mpmath.workdps(40):
        logs = [mpmath.log(mpmath.mpf(q.numerator) / q.denominator) for q in (exact_Q(n, k) for k in range(t + 1))]
        hi = min((mpmath.log(1 + mpmath.mpf(tol)) - logs[j]) / j for j in range(1, t + 1))
        lo = max((mpmath.log(1 - mpmath.mpf(tol)) - logs[j]) / j for j in range(1, t + 1))
        assert abs(mpmath.exp(hi / 2) / r.sigma_high - 1) < 1e-13
        assert abs(mpmath.exp(lo / 2) / r.sigma_low - 1) < 1e-13


def test_infeasible_horizon():
    n = 256
    t, _ = max_horizon(n, 0.05, quantity="Q")
    assert sigma_for_horizon(n, t, 0.05, quantity="Q").feasible
    r = sigma_for_horizon(n, t + 1, 0.05, quantity="Q")
    assert not r.feasible and r.sigma_low is None and r.sigma_high is None and r.deviation > 0.05


@pytest.mark.parametrize("quantity", ["Q", "S"])
def test_mp_agrees_with_float_and_exact_endpoint(quantity):
    n, t, tol = 1024, 40, 0.05
    rf = sigma_for_horizon(n, t, tol, quantity=quantity)
    rm = sigma_for_horizon(n, t, tol, quantity=quantity, method="mp", dps=40)
    for name in ("sigma", "sigma_low", "sigma_high", "sigma_endpoint", "deviation"):
        assert abs(float(getattr(rm, name)) - getattr(rf, name)) <= 1e-11 * max(1.0, abs(getattr(rf, name)))
    E = [exact_Q(n, k) for k in range(t + 1)]
    with mpmath.workdps(60):
        s2 = rm.sigma_endpoint ** 2
        terms = [s2 ** k * mpmath.mpf(e.numerator) / e.denominator for k, e in enumerate(E)]
        p_t = terms[-1] if quantity == "Q" else mpmath.fsum(terms) / (t + 1)
        assert abs(p_t - 1) < mpmath.mpf(10) ** -37


def test_gain_curve_scaling_is_exact():
    n, t, sigma = 50, 12, 0.97
    p = gain_curve(n, t, sigma, quantity="Q")
    ref = exact_curve(n, t, sigma, "Q")
    assert np.allclose(p, [float(v) for v in ref], rtol=1e-13, atol=0)


# ----------------------------------------------------------------------------------------------------
# depth at a scale
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("quantity", ["Q", "S"])
@pytest.mark.parametrize("n,tol", [(16, 0.1), (1000, 0.03), (10**5, 0.2)])
def test_depth_at_glorot_is_breakdown_minus_one(n, tol, quantity):
    assert depth_for_scale(n, 1.0, tol, quantity=quantity) == breakdown_depth(n, tol, quantity=quantity) - 1


def test_depth_exact_matches_float():
    for sigma in (0.95, 0.999, 1.0, 1.003):
        for q in ("Q", "S"):
            assert depth_for_scale(200, sigma, 0.04, quantity=q, method="exact") == \
                depth_for_scale(200, sigma, 0.04, quantity=q)


def test_depth_and_max_horizon_consistent():
    for q in ("Q", "S"):
        t, s = max_horizon(4096, 0.05, quantity=q)
        assert depth_for_scale(4096, s, 0.05, quantity=q) == t
        assert t > depth_for_scale(4096, 1.0, 0.05, quantity=q)
        assert not sigma_for_horizon(4096, t + 1, 0.05, quantity=q).feasible


def test_glorot_table_sqrt_law():
    rows = th.glorot_table([1024, 16384], 0.05, quantity="Q")
    for r in rows:
        assert r["t_best"] > r["t_glorot"] and r["sigma_best"] < 1.0
    # the sqrt(n) law survives rescaling: t / sqrt(n) changes by less than the factor 4 of sqrt(n)
    assert 0.8 < rows[1]["c_best"] / rows[0]["c_best"] < 1.25


# ----------------------------------------------------------------------------------------------------
# Monte Carlo of the scaled recurrence
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("quantity", ["Q", "S"])
def test_recommended_sigma_against_simulated_recurrence(quantity):
    n, t, tol = 16, 6, 0.1
    r = sigma_for_horizon(n, t, tol, quantity=quantity)
    assert r.feasible
    mean, se = hmc.simulate_energies(n, r.sigma, t, 4000, quantity=quantity, seed=11)
    pred = gain_curve(n, t, r.sigma, quantity=quantity)
    idx = slice(1, None) if quantity == "Q" else slice(None)       # Q's j = 0 is exactly 1 (se = 0)
    z = z_for_false_alarm(1e-6, m=len(pred[idx]))
    assert np.all(np.abs(mean[idx] - pred[idx]) <= z * se[idx])
    if quantity == "Q":
        assert mean[0] == 1.0


def test_real_weights_exact_rows_against_simulation():
    n, t, tol = 12, 7, 0.1
    r = hmc.sigma_for_horizon(n, t, tol, field="real", quantity="Q")
    E = hmc.real_energies(n, t)
    assert abs(exact_dev(n, t, r.sigma, "Q", E) - r.deviation) <= 1e-12
    mean, se = hmc.simulate_energies(n, r.sigma, t, 4000, field="real", seed=5, quantity="Q")
    pred = np.array([float(v) for v in exact_curve(n, t, r.sigma, "Q", E)])
    z = z_for_false_alarm(1e-6, m=t)
    assert np.all(np.abs(mean[1:] - pred[1:]) <= z * se[1:])
    # Q^R >= Q: real weights need a smaller scale to be back at 1 at depth t
    assert r.sigma_endpoint < sigma_for_horizon(n, t, tol, quantity="Q").sigma_endpoint


@pytest.mark.parametrize("field", ["real", "complex"])
def test_monte_carlo_path_against_exact(field):
    """The MC path (jackknife se) agrees with the exact energies within z * se."""
    n, t, tol = 24, 8, 0.2
    exact = hmc.sigma_for_horizon(n, t, tol, field=field, quantity="Q")
    mc = hmc.sigma_for_horizon(n, t, tol, field=field, method="mc", exact_max_k=0, samples=2048, seed=3, quantity="Q")
    z = z_for_false_alarm(1e-6, m=3)
    for name in ("sigma", "sigma_endpoint", "deviation"):
        assert mc.se[name] > 0
        assert abs(getattr(mc, name) - getattr(exact, name)) <= z * mc.se[name]


def test_real_beyond_rows_uses_the_expansion_and_monte_carlo_on_request():
    r = hmc.sigma_for_horizon(4096, 90, 0.3, field="real", quantity="Q")
    assert r == sigma_for_horizon(4096, 90, 0.3, field="real", quantity="Q") and "large-n expansion" in r.source and r.se == {}
    m = hmc.sigma_for_horizon(4096, 90, 0.3, field="real", method="mp", dps=20, quantity="Q")
    assert abs(float(m.sigma) - r.sigma) < 1e-9
    mc = hmc.sigma_for_horizon(64, 32, 0.3, field="real", method="mc", exact_max_k=20, samples=256, batches=8,
                               seed=1, quantity="Q")
    assert "Monte Carlo beyond" in mc.source and mc.se["sigma_endpoint"] > 0       # p_32 comes from the MC


def test_real_rows_to_60_are_exact_in_theory_and_numerics():
    """Every t <= 60 uses the committed exact rows (no Monte Carlo, no se), the same in both layers (theory, numerics)."""
    for quantity in ("Q", "S"):
        a = sigma_for_horizon(400, 60, 0.1, field="real", quantity=quantity)
        b = hmc.sigma_for_horizon(400, 60, 0.1, field="real", quantity=quantity)
        assert a == b and a.se == {} and a.source.startswith("exact real Wick rows")
    assert hmc.real_energies(400, 60) == real_energies(400, 60)


# ----------------------------------------------------------------------------------------------------
# bad input and the command line
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("call,exc,word", [
    (lambda: sigma_for_horizon(0, 5, 0.1, quantity="Q"), ValueError, "n"),
    (lambda: sigma_for_horizon(8, 0, 0.1, quantity="Q"), ValueError, "t"),
    (lambda: sigma_for_horizon(8, 5, 1.5, quantity="Q"), ValueError, "tol"),
    (lambda: sigma_for_horizon(8, 5, "0.1", quantity="Q"), TypeError, "tol"),
    (lambda: sigma_for_horizon(8.0, 5, 0.1, quantity="Q"), TypeError, "n"),
    (lambda: sigma_for_horizon(8, 5, 0.1, quantity="R"), ValueError, "quantity"),
    (lambda: sigma_for_horizon(8, 5, 0.1, method="exact", quantity="Q"), ValueError, "method"),
    (lambda: sigma_for_horizon(8, 5, 0.1, dps=30, quantity="Q"), ValueError, "dps"),
    (lambda: sigma_for_horizon(8, 61, 0.1, field="real", quantity="Q"), ValueError, "t must be <= 60 at n=8"),
    (lambda: sigma_for_horizon(8, 5, 0.1, field="quaternion", quantity="Q"), ValueError, "field"),
    (lambda: depth_for_scale(8, -1.0, 0.1, quantity="Q"), ValueError, "sigma"),
    (lambda: depth_for_scale(8, 1.0, 0.0, quantity="Q"), ValueError, "tol"),
    (lambda: depth_for_scale(8, 1.0, 0.1, method="exact", max_t=10**6, quantity="Q"), ValueError, "max_t"),
    (lambda: hmc.sigma_for_horizon(8, 5, 0.1, field="real", exact_max_k=61, quantity="Q"), ValueError, "exact_max_k"),
    (lambda: hmc.depth_with_se(8, 1.0, 0.1, field="real", method="mp", quantity="Q"), ValueError, "method"),
    (lambda: hmc.mc_energies(8, 5, 10, batches=8), ValueError, "samples"),
    (lambda: th.scale_from_energies([1, -1, 2], 0.1, quantity="Q"), ValueError, "energies"),
])
def test_bad_input(call, exc, word):
    with pytest.raises(exc, match=word):
        call()


# ----------------------------------------------------------------------------------------------------
# depth at a scale, real weights
# ----------------------------------------------------------------------------------------------------
def test_real_depth_exact_rows():
    for n, sigma, tol, q in ((64, 1.0, 0.05, "Q"), (40, 1.0, 0.03, "S"), (40, 0.998, 0.05, "Q"), (4, 1.0, 0.3, "Q")):
        E = hmc.real_energies(n, 8)
        dev = [abs(p - 1) for p in exact_curve(n, 8, sigma, q, E)]
        first = next(j for j, d in enumerate(dev) if d > Fraction(tol))
        assert first <= hmc.EXACT_REAL_MAX_K
        assert hmc.depth_with_se(n, sigma, tol, quantity=q, field="real")["depth"] == first - 1


def test_real_depth_monte_carlo_path():
    """With Monte Carlo energies only, the depth is the exact one whenever both decisions at the boundary
    (depth d within tol, d + 1 beyond) are clear by z standard errors of the same run's energies."""
    n, sigma, tol, samples, batches, seed = 16, 1.0, 0.18, 8192, 16, 4      # Q^R - 1 = 0.117 (j=4), 0.277 (j=5)
    exact = hmc.depth_with_se(n, sigma, tol, field="real", quantity="Q")["depth"]
    mc = hmc.depth_with_se(n, sigma, tol, field="real", method="mc", exact_max_k=0, samples=samples,
                             batches=batches, seed=seed, max_t=exact + 3, quantity="Q")
    means = hmc.mc_energies(n, exact + 3, samples, field="real", seed=seed, batches=batches)
    se = means.std(axis=0, ddof=1) / math.sqrt(batches)
    E = hmc.real_energies(n, exact + 1)
    z = z_for_false_alarm(1e-6, m=2)
    for j in (exact, exact + 1):
        margin = abs(abs(float(Fraction(sigma) ** (2 * j) * E[j]) - 1) - tol)
        assert margin > z * sigma ** (2 * j) * se[j]          # the test's premise: a clear decision
    assert mc["depth"] == exact and "Monte Carlo" in mc["source"]


# ----------------------------------------------------------------------------------------------------
# depth_for_scale with real weights (exact rows to 60, the expansion beyond)
# ----------------------------------------------------------------------------------------------------
REAL_DEPTH_CASES = ((64, 1.0, 0.05, "Q"), (40, 1.0, 0.03, "S"), (40, 0.998, 0.05, "Q"), (4, 1.0, 0.3, "Q"),
                    (100, 1.0, 0.2, "S"), (10**6, 1.1, 0.5, "Q"))


@pytest.mark.parametrize("n,sigma,tol,q", REAL_DEPTH_CASES)
def test_theory_real_depth_from_the_exact_curve(n, sigma, tol, q):
    # reference: the first violation of the exact rational curve written out in this file
    E = real_energies(n, 30)
    dev = [abs(p - 1) for p in exact_curve(n, 30, sigma, q, E)]
    first = next(j for j, d in enumerate(dev) if d > Fraction(tol))
    for method in ("float", "exact"):
        assert depth_for_scale(n, sigma, tol, quantity=q, method=method, field="real") == first - 1
    assert hmc.depth_with_se(n, sigma, tol, quantity=q, field="real")["depth"] == first - 1


def test_theory_real_depth_beyond_the_rows_and_bad_input():
    from theory.real_expansion import real_breakdown_depth
    d = depth_for_scale(10**6, 1.0, 0.3, field="real", quantity="Q")                 # the expansion: c = 1.5
    assert d == real_breakdown_depth(10**6, 0.3) - 1 and 1400 < d < depth_for_scale(10**6, 1.0, 0.3, quantity="Q")
    with pytest.raises(ValueError, match="method='float'"):
        depth_for_scale(10**6, 1.0, 0.3, field="real", method="exact", quantity="Q")   # exact comparisons: the rows only
    with pytest.raises(ValueError, match="max_t"):
        depth_for_scale(64, 1.0, 0.05, field="real", max_t=10**6, quantity="Q")
    with pytest.raises(ValueError, match="raise max_t"):
        depth_for_scale(10**6, 1.0, 0.3, field="real", max_t=5, quantity="Q")
    with pytest.raises(ValueError, match="field"):
        depth_for_scale(64, 1.0, 0.05, field="quaternion", quantity="Q")


def test_monte_carlo_sizes_take_numpy_integers():
    """batches=np.int8(16) overflowed in samples // batches (issue 33)."""
    import numpy as np
    from numerics.signal_propagation import horizon_mc as hm
    # t = 64 lies beyond the exact real rows (k <= 60): the Monte Carlo runs (within them it is not needed)
    r = hm.sigma_for_horizon(8, 64, 0.5, field="real", method="mc", samples=np.int16(4096), batches=np.int8(16), quantity="Q")
    assert "4096 draws, 16 batches" in r.source
    d = hm.depth_with_se(8, 1.0, 0.1, field="real", method="mc", samples=4096, batches=np.int8(16), exact_max_k=0, quantity="Q")
    assert "4096 draws, 16 batches" in d["source"]


@pytest.mark.parametrize("n,t", [(64, 600), (1, 200), (1000, 1500)])
def test_log_energies_past_float64_against_exact_integers(n, t):
    """Past float64 (Q_{n,k} > 1.8e308) log_energies switches to its log-gamma form; both sides of the switch
    against log Q from Theorem 2.1's exact integers (products of n + j and n - j), taken at 30 digits."""
    L = th.log_energies(n, t)
    assert L.max() > math.log(np.finfo(float).max)             # the switch is crossed
    rising, falling = n * (n + 1), n * (n - 1)
    for k in range(t + 1):
        m = k + 2
        if k in (0, 1, t // 2, t - 1, t) or k % 37 == 0:
            with mpmath.workdps(30):
                exact = mpmath.log(mpmath.mpf(rising - falling)) - mpmath.log((k + 1) * m) - (k + 1) * mpmath.log(n)
            assert abs(L[k] - float(exact)) <= 1e-12 * max(1.0, abs(float(exact))), k
        rising *= n + m
        falling *= n - m
