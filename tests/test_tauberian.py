"""theory.tauberian: envelopes from densities and spectra, the Pareto closed form, the Tauberian asymptote,
learnability-window scaling. References: scipy/mpmath quadrature, scipy's upper incomplete gamma, Monte
Carlo means with a z * se verdict, and the algebraic inverses of the scaling laws."""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, strategies as st
from scipy import special

from theory.tauberian import (envelope_from_density, envelope_from_spectrum, horizon, horizon_exponential,
                              horizon_power, learnability_kappa, pareto_envelope,
                              samples_to_detect, tauberian_asymptote)
from numerics.stats import z_for_false_alarm


# --- finite spectra ------------------------------------------------------------------------------------
def test_single_time_scale_gives_an_exponential():
    l = np.linspace(0, 100, 11)
    assert np.allclose(envelope_from_spectrum(l, [7.0]), np.exp(-l / 7.0), rtol=1e-14, atol=0)


def test_spectrum_weights_infinite_tau_and_blocks():
    l = np.array([[0.0, 3.0], [10.0, 30.0]])
    f = envelope_from_spectrum(l, [2.0, np.inf, 5.0], weights=[1.0, 2.0, 1.0])
    ref = (np.exp(-l / 2.0) + 2.0 + np.exp(-l / 5.0)) / 4.0
    assert f.shape == (2, 2) and np.allclose(f, ref, rtol=1e-15, atol=0)
    tau = np.random.default_rng(0).uniform(1, 100, 3000)       # forces several blocks of lags
    lags = np.arange(0.0, 2000.0)
    big = envelope_from_spectrum(lags, tau)
    assert np.allclose(big[[0, 999, 1999]], [np.mean(np.exp(-x / tau)) for x in (0.0, 999.0, 1999.0)],
                       rtol=1e-13, atol=0)


# --- densities and the Pareto closed form -----------------------------------------------------------------
@pytest.mark.parametrize("beta", [0.4, 1.0, 1.8])
def test_pareto_closed_form_matches_quadrature(beta):
    tm = 3.0
    lags = np.array([0.0, 0.5, 2.9, 3.0, 3.1, 40.0, 900.0])     # both sides of the x = 1 branch switch
    closed = pareto_envelope(lags, beta=beta, tau_min=tm)
    quad = envelope_from_density(lags, lambda t: beta * tm ** beta * t ** (-1.0 - beta), support=(tm, math.inf))
    assert np.allclose(closed, quad, rtol=1e-10, atol=0)
    assert closed[0] == 1.0


def test_pareto_mp_and_float_agree_and_beta_one_closed_form():
    for x in (0.25, 1.0, 7.0):
        mpv = pareto_envelope(Fraction(x).limit_denominator(), beta=Fraction(3, 2), tau_min=1, method="mp", dps=40)
        with mpmath.workdps(40):
            ref = mpmath.quad(lambda t: mpmath.exp(-mpmath.mpf(x) / t) * mpmath.mpf(3) / 2 * t ** (-mpmath.mpf(5) / 2),
                              [1, 10, mpmath.inf])
            assert abs(mpv - ref) < mpmath.mpf(10) ** -35
        assert abs(float(mpv) - pareto_envelope(x, beta=1.5)) < 1e-14
    x = np.array([0.01, 0.5, 1.0, 2.0, 50.0])
    assert np.allclose(pareto_envelope(x, beta=1.0), -np.expm1(-x) / x, rtol=1e-14, atol=0)


def test_density_mp_path():
    v = envelope_from_density([2.0], lambda t: mpmath.exp(-t), method="mp", dps=30)          # int e^{-2/t - t} dt
    with mpmath.workdps(30):
        ref = 2 * mpmath.sqrt(2) * mpmath.besselk(1, 2 * mpmath.sqrt(2))
        assert abs(v[0] - ref) < mpmath.mpf(10) ** -25
    assert mpmath.mp.dps == 15


def test_lognormal_density_envelope_against_monte_carlo():
    mu, sigma, n = math.log(30.0), 1.2, 200_000
    tau = np.exp(np.random.default_rng(8).normal(mu, sigma, n))
    lags = np.array([5.0, 50.0, 500.0])
    quad = envelope_from_density(lags, lambda t: math.exp(-(math.log(t) - mu) ** 2 / (2 * sigma ** 2))
                                 / (t * sigma * math.sqrt(2 * math.pi)))
    samples = np.exp(-lags[:, None] / tau[None, :])
    est, se = samples.mean(axis=1), samples.std(axis=1, ddof=1) / math.sqrt(n)
    z = z_for_false_alarm(1e-6, m=lags.size)
    assert np.all(np.abs(est - quad) <= z * se)


# --- Tauberian asymptote ---------------------------------------------------------------------------------
@given(beta=st.floats(0.05, 3.0), x=st.floats(0.5, 60.0))
def test_pareto_envelope_minus_asymptote_is_the_upper_gamma_tail(beta, x):
    # f = beta x^-beta (Gamma(beta) - Gamma(beta, x)): relative gap to A Gamma(beta) l^-beta is Q(beta, x)
    tm = 2.0
    l = x * tm
    asym = tauberian_asymptote(l, A=beta * tm ** beta, beta=beta)
    gap = 1.0 - pareto_envelope(l, beta=beta, tau_min=tm) / asym
    assert abs(gap - special.gammaincc(beta, x)) < 1e-12


def test_tauberian_ratio_tends_to_one():
    l = np.array([1e2, 1e3, 1e4])
    r = pareto_envelope(l, beta=0.7, tau_min=1.0) / tauberian_asymptote(l, A=0.7, beta=0.7)
    assert np.all(np.abs(r - 1) < 1e-15)


# --- learnability window ------------------------------------------------------------------------------------
def test_kappa_values():
    assert learnability_kappa(2.0) == 2.0 and learnability_kappa(1.5) == 3.0
    assert learnability_kappa(1.25) == 5.0


@given(a=st.floats(1.05, 2.0), tau=st.floats(1.0, 1000.0), logN=st.floats(1.0, 40.0))
def test_exponential_horizon_inverts_sample_complexity_and_is_logarithmic(a, tau, logN):
    N = math.exp(logN)
    h = horizon_exponential(N, tau=tau, a=a)
    assert abs(samples_to_detect(math.exp(-h / tau), a=a) / N - 1) < 1e-9
    step = horizon_exponential(N * N, tau=tau, a=a) - h             # additive in log N
    assert abs(step - tau * logN / learnability_kappa(a)) < 1e-9 * max(1.0, abs(step))


@given(a=st.floats(1.05, 2.0), beta=st.floats(0.1, 3.0), logN=st.floats(1.0, 20.0), A=st.floats(0.1, 10.0))
def test_power_horizon_inverts_sample_complexity_and_is_polynomial(a, beta, logN, A):
    N = math.exp(logN)
    h = horizon_power(N, beta=beta, a=a, A=A)
    assert abs(samples_to_detect(A * h ** -beta, a=a) / N - 1) < 1e-9
    ratio = horizon_power(N * N, beta=beta, a=a, A=A) / h            # multiplicative: N^(1/(beta kappa))
    assert abs(math.log(ratio) - logN / (beta * learnability_kappa(a))) < 1e-9 * max(1.0, logN)


def test_tabulated_horizon_agrees_with_closed_forms():
    lags = np.arange(1.0, 5001.0)
    f = 2.0 * lags ** -0.6
    N = np.array([1e3, 1e4, 1e5])
    h = horizon(N, lags, f, a=1.5)
    exact = horizon_power(N, beta=0.6, a=1.5, A=2.0)
    assert np.all(exact < 5000) and np.all((h <= exact) & (h > exact - 1))   # largest lag below the root
    assert horizon([1.0], [1.0, 2.0], [0.1, 0.01], a=2.0)[0] == -np.inf


# --- bad input -------------------------------------------------------------------------------------------
def test_bad_inputs():
    with pytest.raises(ValueError, match="tau"):
        envelope_from_spectrum([1.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="tau"):
        envelope_from_spectrum([1.0], [])
    with pytest.raises(ValueError, match="weights"):
        envelope_from_spectrum([1.0], [1.0, 2.0], weights=[1.0])
    with pytest.raises(ValueError, match="weights"):
        envelope_from_spectrum([1.0], [1.0], weights=[0.0])
    with pytest.raises(ValueError, match="lags"):
        envelope_from_spectrum([-1.0], [1.0])
    with pytest.raises(ValueError, match="beta"):
        pareto_envelope(1.0, beta=0.0)
    with pytest.raises(ValueError, match="tau_min"):
        pareto_envelope(1.0, beta=1.0, tau_min=-1.0)
    with pytest.raises(ValueError, match="beta"):
        pareto_envelope(1, beta=-1, method="mp")
    with pytest.raises(TypeError, match="density"):
        envelope_from_density([1.0], 3.0)
    with pytest.raises(ValueError, match="support"):
        envelope_from_density([1.0], lambda t: 1.0, support=(2.0, 1.0))
    with pytest.raises(ValueError, match="a must be"):
        learnability_kappa(1.0)
    with pytest.raises(ValueError, match="a must be"):
        samples_to_detect(0.1, a=2.5)
    with pytest.raises(ValueError, match="f must be"):
        samples_to_detect(0.0, a=2.0)
    with pytest.raises(ValueError, match="N"):
        horizon_power(0.5, beta=1.0, a=2.0)
    with pytest.raises(ValueError, match="lags"):
        tauberian_asymptote(0.0, A=1.0, beta=1.0)
    with pytest.raises(ValueError, match="same length"):
        horizon([10.0], [1.0, 2.0], [0.5], a=2.0)
