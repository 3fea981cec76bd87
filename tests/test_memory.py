"""theory.memory: the four memory-function families, their scaling mu(alpha), mixtures, linear RelMSE."""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import given, strategies as st
from scipy.special import ai_zeros

from numerics.memory_functions.targets import linear_target, make_dataset
from theory.memory import (KINDS, airy_shift_scale, area_expression, area_target, exp_area, exp_tau,
                           expected_linear_relmse, impulse_lag, memory_function, mixed_memory_function,
                           poly_area, poly_exponent)
from numerics.stats import agreement, z_for_false_alarm


# --- area of the smooth families --------------------------------------------------------------------
@given(T=st.integers(4, 4096), alpha=st.floats(1e-6, 1.0), kind=st.sampled_from(["exp", "poly"]))
def test_area_matches_budget(T, alpha, kind):
    rho = memory_function(kind, alpha, T)
    A = 1.0 + alpha * (T / 4.0 - 1.0)           # A(alpha) of docs/papers/memory-functions.md, written out
    assert abs(math.fsum(rho) - A) <= 1e-10 * A
    assert rho[0] == 1.0 and np.all(np.diff(rho) <= 0)


@pytest.mark.parametrize("area_max", [1.5, 10.0, 99.0])
def test_area_budget_parameter(area_max):
    for kind in ("exp", "poly"):
        rho = memory_function(kind, 0.7, 100, area_max=area_max)
        assert abs(math.fsum(rho) - (1 + 0.7 * (area_max - 1))) <= 1e-10 * area_max


def test_closed_form_areas_against_direct_sums():
    with mpmath.workdps(40):
        for T in (1, 2, 7, 50):
            for tau in ("0.3", "1", "17.5", "1e6"):
                direct = mpmath.fsum(mpmath.exp(-s / mpmath.mpf(tau)) for s in range(T))
                assert abs(exp_area(mpmath.mpf(tau), T, method="mp", dps=40) - direct) < mpmath.mpf(10) ** -35 * direct
            for p in ("-0.5", "0.25", "0.999999999", "1", "1.0000001", "3.5"):
                direct = mpmath.fsum(mpmath.mpf(k) ** -mpmath.mpf(p) for k in range(1, T + 1))
                assert abs(poly_area(mpmath.mpf(p), T, method="mp", dps=40) - direct) < mpmath.mpf(10) ** -30 * direct


def test_symbolic_areas_exact():
    T, tau, p = (sympy.Symbol(n, positive=True) for n in ("T", "tau", "p"))
    e = area_expression("exp").subs({T: 5, tau: sympy.Rational(1, 2)})
    assert sympy.simplify(e - sum(sympy.exp(-2 * s) for s in range(5))) == 0
    h = area_expression("poly").subs({T: 6, p: 3})
    assert h == sum(sympy.Rational(1, k ** 3) for k in range(1, 7))
    with pytest.raises(ValueError, match="kind"):
        area_expression("impulse")


def test_scaling_is_monotone_in_alpha():
    alphas = np.linspace(0.0, 1.0, 21)
    for T in (8, 100, 1024):
        taus = [exp_tau(a, T) for a in alphas]
        ps = [poly_exponent(a, T) for a in alphas]
        assert taus[0] == 0.0 and math.isinf(ps[0])
        assert np.all(np.diff(taus) > 0) and np.all(np.diff(ps) < 0)
        lags = [impulse_lag(a, T) for a in alphas]
        assert np.all(np.diff(lags) >= 0) and lags[-1] == T - 1
        ms, sig = zip(*[airy_shift_scale(a, T) for a in alphas[1:]])
        assert np.all(np.diff(ms) >= 0) and np.all(np.diff(sig) <= 0)
        # pointwise: more memory at every lag s >= 1
        for kind in ("exp", "poly"):
            R = np.array([memory_function(kind, a, T) for a in alphas])
            assert np.all(np.diff(R[:, 1:], axis=0) > 0)


def test_alpha_zero_is_delta_for_every_kind():
    for kind in KINDS:
        rho = memory_function(kind, 0.0, 17)
        assert rho.dtype == np.float64 and rho.shape == (17,)
        assert rho[0] == 1.0 and not np.any(rho[1:])


def test_small_T_default_budget_degenerates_to_delta():
    for T in (2, 3):
        assert np.array_equal(memory_function("exp", 1.0, T), np.eye(T)[0])
        assert np.array_equal(memory_function("poly", 0.5, T), np.eye(T)[0])


# --- impulse and Airy -------------------------------------------------------------------------------
@given(T=st.integers(2, 5000), alpha=st.floats(0.0, 1.0, allow_subnormal=False))   # subnormal parameters are refused (theory._args.as_real)
def test_impulse_sits_at_m(T, alpha):
    rho = memory_function("impulse", alpha, T)
    m = impulse_lag(alpha, T)
    assert np.flatnonzero(rho).tolist() == [m] and rho[m] == 1.0
    assert abs(m - alpha * (T - 1)) <= 0.5


def test_impulse_lag_rounds_half_up():
    assert impulse_lag(0.25, 3) == 1          # 0.5 -> 1
    assert impulse_lag(0.75, 3) == 2          # 1.5 -> 2
    assert impulse_lag(0.5, 101) == 50 and impulse_lag(1.0, 2) == 1


@given(T=st.integers(2, 3000), alpha=st.floats(1e-4, 1.0), spp=st.sampled_from([4.0, 8.0, 12.0]))
def test_airy_oscillations_resolved_at_every_lag(T, alpha, spp):
    m, sigma = airy_shift_scale(alpha, T, samples_per_period=spp)
    # independent: zeros of Ai (scipy) mapped to lags s = m - a_k / sigma; half a period between
    # consecutive zeros must be >= spp / 2 samples wherever both zeros lie in the window
    a = -ai_zeros(200)[0]                       # positive: Ai(-a_k) = 0
    lags = m - a / sigma
    inside = lags >= -1e-9
    gaps = -np.diff(lags)[inside[1:]]
    assert np.all(gaps >= spp / 2 * (1 - 1e-12))
    # and the sampled kernel: sign changes at least spp/2 - 1 samples apart
    rho = memory_function("airy", alpha, T, samples_per_period=spp)
    flips = np.flatnonzero(np.sign(rho[1:]) != np.sign(rho[:-1]))
    assert np.all(np.diff(flips) >= spp / 2 - 1)


def test_airy_values_and_wkb_scale():
    T, alpha = 500, 0.6
    m, sigma = airy_shift_scale(alpha, T)
    rho = memory_function("airy", alpha, T)
    for s in (0, 17, m, m + 5, T - 1):
        assert abs(rho[s] - float(mpmath.airyai(sigma * (s - m)))) < 1e-13
    # large shifts: sigma ~ (2 pi / 8)^(2/3) m^(-1/3) (WKB phase 2/3 x^(3/2))
    m, sigma = airy_shift_scale(1.0, 10**6)
    assert abs(sigma / ((2 * math.pi / 8) ** (2 / 3) * m ** (-1 / 3)) - 1) < 1e-3
    # m = 0: the local frequency at x = 0 is 1 / (pi M(0)^2), M(0)^2 = 4 Ai(0)^2 (hand-derived)
    ai0 = 1 / (3 ** (2 / 3) * math.gamma(2 / 3))
    assert abs(airy_shift_scale(1e-9, 10)[1] - (2 * math.pi / 8) * math.pi * 4 * ai0 ** 2) < 1e-12


# --- mixtures --------------------------------------------------------------------------------------
def test_mixture_endpoints_and_routing():
    a = memory_function("exp", 0.4, 64, area_max=8)
    b = memory_function("airy", 0.4, 64, samples_per_period=10)
    kw = dict(area_max=8, samples_per_period=10)
    assert np.allclose(mixed_memory_function("exp", "airy", 0.0, 0.4, 64, **kw), a / np.linalg.norm(a))
    assert np.allclose(mixed_memory_function("exp", "airy", 1.0, 0.4, 64, **kw), b / np.linalg.norm(b))
    mid = mixed_memory_function("exp", "airy", 0.3, 0.4, 64, **kw)
    assert np.allclose(mid, 0.7 * a / np.linalg.norm(a) + 0.3 * b / np.linalg.norm(b))
    with pytest.raises(TypeError, match="neither"):
        mixed_memory_function("exp", "impulse", 0.5, 0.5, 64, samples_per_period=8)
    with pytest.raises(ValueError, match="lam"):
        mixed_memory_function("exp", "impulse", 1.5, 0.5, 64)


# --- expected RelMSE of a linear model --------------------------------------------------------------
def test_expected_relmse_exact_small_case():
    # T = 3, rho = (1, 1, 1), rhohat = (1, 0, 0): error d = (0, -1, -1); weights (3, 2, 1)
    assert Fraction(expected_linear_relmse([1, 0, 0], [1, 1, 1])).limit_denominator(100) == Fraction(3, 6)
    assert expected_linear_relmse([1, 1, 1], [1, 1, 1]) == 0.0
    # shorter rhohat is zero-padded; longer T weights more positions
    assert expected_linear_relmse([2.0], [1.0, 0.0], T=4) == pytest.approx(1.0)


@pytest.mark.parametrize("kind,hat", [("exp", "poly"), ("airy", "exp"), ("impulse", "airy")])
def test_expected_relmse_against_monte_carlo(kind, hat):
    T, N = 64, 4000
    rho = memory_function(kind, 0.6, T)
    rhohat = 0.8 * memory_function(hat, 0.5, T)
    x, y = make_dataset(rho, N, seed=11)
    yhat = linear_target(x, rhohat)
    a = np.sum((yhat - y) ** 2, axis=1)
    b = np.sum(y ** 2, axis=1)
    R = a.mean() / b.mean()
    # delta method for a ratio of means
    se = np.std(a - R * b, ddof=1) / (b.mean() * np.sqrt(N))
    agr = agreement(R, se, expected_linear_relmse(rhohat, rho), z=z_for_false_alarm(1e-6, 3))
    assert agr.ok, agr.zscores


# --- bad input --------------------------------------------------------------------------------------
@pytest.mark.parametrize("alpha", [-0.1, 1.0000001, float("nan"), float("inf")])
def test_bad_alpha(alpha):
    with pytest.raises(ValueError, match="alpha"):
        memory_function("exp", alpha, 10)


def test_bad_inputs():
    with pytest.raises(TypeError, match="alpha"):
        memory_function("exp", "0.5", 10)
    with pytest.raises(ValueError, match="T"):
        memory_function("poly", 0.5, 1)
    with pytest.raises(TypeError, match="T"):
        memory_function("poly", 0.5, 10.0)
    with pytest.raises(ValueError, match="kind"):
        memory_function("gauss", 0.5, 10)
    with pytest.raises(TypeError, match="kind"):
        memory_function(None, 0.5, 10)
    with pytest.raises(TypeError, match="unexpected parameter"):
        memory_function("impulse", 0.5, 10, area_max=2)
    with pytest.raises(ValueError, match="area_max"):
        memory_function("exp", 0.5, 10, area_max=10)
    with pytest.raises(ValueError, match="samples_per_period"):
        memory_function("airy", 0.5, 10, samples_per_period=1)
    with pytest.raises(ValueError, match="rho"):
        expected_linear_relmse([1.0, 0.0], [np.nan, 1.0])
    with pytest.raises(ValueError, match="identically zero"):
        expected_linear_relmse([1.0], [0.0])
    with pytest.raises(ValueError, match="T"):
        expected_linear_relmse([1.0, 0.0], [1.0, 0.0], T=1)
    with pytest.raises(ValueError, match="dps"):
        exp_tau(0.5, 10, work_dps=5)
    assert area_target(1.0, 40) == 10.0


def test_exp_area_takes_fractions_and_decimals_exactly():
    """exp_area(Fraction(3), 48, method="mp") rejected a valid value (issue 33)."""
    import decimal
    from fractions import Fraction

    import mpmath
    from theory.memory import exp_area
    with mpmath.workdps(60):
        ref = sum(mpmath.exp(-mpmath.mpf(s) * 3 / 7) for s in range(48))     # tau = 7/3, summed term by term
        assert abs(exp_area(Fraction(7, 3), 48, method="mp", dps=50) - ref) <= mpmath.mpf(10) ** -48 * ref
        ref2 = sum(mpmath.exp(-mpmath.mpf(s) / mpmath.mpf("2.5")) for s in range(10))
        assert abs(exp_area(decimal.Decimal("2.5"), 10, method="mp", dps=50) - ref2) <= mpmath.mpf(10) ** -48 * ref2
    with pytest.raises(TypeError, match="tau must be a real number"):
        exp_area("3", 48, method="mp")
