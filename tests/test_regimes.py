"""Tests of theory.regimes against independent references.

References: mpmath at 40-60 digits (sinh, quadrature of the curve, the correction formula of docs/papers/signal-propagation.md written
out), exact Fractions from the product formula, brute-force scans for the breakdown depth, a fixed-seed
Monte Carlo for the feedforward moments (verdict |estimate - exact| <= z se).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import theory.regimes as rg
from theory.regimes import (breakdown_depth, critical_correction, critical_curve, critical_S_curve,
                            feedforward_mean, feedforward_second_moment, regime)
from test_signal_energy import ref_Q   # the independent product-formula reference (tests/ is on sys.path)
from validation.checks.signal_energy import feedforward_energies
from numerics.stats import z_for_false_alarm

EPS = np.finfo(np.float64).eps


def mp_f(c, dps=50):
    with mpmath.workdps(dps):
        y = mpmath.mpf(c) ** 2 / 2
        return mpmath.mpf(1) if y == 0 else mpmath.sinh(y) / y


# --- f(c) ---------------------------------------------------------------------------------------------
@given(c=st.floats(0.0, 37.5))
def test_curve_matches_mpmath(c):
    assert abs(critical_curve(c) - float(mp_f(c))) <= (8 + c * c) * EPS * float(mp_f(c))


@pytest.mark.parametrize("c", [0.0, 1e-300, 1e-160, 1e-8, 1e-3, 0.0447, 0.0448, 6.32, 6.33, 37.7])
def test_curve_at_branch_points(c):
    assert abs(critical_curve(c) - float(mp_f(c))) <= (8 + c * c) * EPS * float(mp_f(c))
    assert critical_curve(-c) == critical_curve(c)           # even


def test_curve_vectorised_and_overflow():
    c = np.array([[0.0, 0.5], [2.0, 40.0]])
    out = critical_curve(c)
    assert out.shape == (2, 2) and out[1, 1] == np.inf and not np.any(np.isnan(out))
    assert [critical_curve(x) for x in c.ravel()] == out.ravel().tolist()
    assert isinstance(critical_curve(1.5), float)


def test_curve_mp_local_precision():
    before = mpmath.mp.prec
    v = critical_curve(Fraction(1, 3), dps=60)
    assert mpmath.mp.prec == before
    with mpmath.workdps(70):
        assert abs(v - mp_f(mpmath.mpf(1) / 3, 80)) < mpmath.mpf(10) ** -59


# --- F(c) ----------------------------------------------------------------------------------------------
def quad_F(c):
    """int_0^c (2/x^2) sinh(x^2/2) dx by Gauss-Legendre quadrature (independent of the closed form)."""
    with mpmath.workdps(40):
        return mpmath.quad(lambda x: mp_f(x), [0, c])


@pytest.mark.parametrize("c", [0.0, 1e-5, 0.3, 1.0, 2.5, 7.0, 12.64, 12.66, 20.0, 30.0])
def test_S_curve_matches_quadrature(c):
    ref = quad_F(c)
    assert abs(critical_S_curve(c) - float(ref)) <= (16 + c * c) * EPS * float(ref) + 1e-300
    with mpmath.workdps(40):
        assert abs(critical_S_curve(c, dps=30) - ref) <= mpmath.mpf(10) ** -29 * abs(ref)


@given(c=st.floats(0.0, 37.0))
def test_S_curve_float_matches_mp_closed_form(c):
    ref = float(critical_S_curve(c, dps=30))
    assert abs(critical_S_curve(c) - ref) <= (16 + c * c) * EPS * ref


def asymptotic_F(c: int, dps: int):
    """F(c) = e^y/c^3 sum_m (2m+1)!!/c^(2m) + sqrt(pi/2) erf(c/sqrt 2) for an integer c >> 1 (terms summed until
    they fall below 10^-dps; y = c^2/2 exact): the large-c series, independent of the erfi closed form."""
    with mpmath.workdps(dps + 2 * len(str(c)) + 20):      # y exact, e^y's amplification covered
        y = mpmath.mpf(c * c) / 2
        inv, term, acc, m = mpmath.mpf(1) / (c * c), mpmath.mpf(1), mpmath.mpf(1), 0
        while term > mpmath.mpf(10) ** -(dps + 5):
            term *= (2 * m + 3) * inv
            acc += term
            m += 1
        return mpmath.exp(y) / mpmath.mpf(c) ** 3 * acc + mpmath.sqrt(mpmath.pi / 2) * mpmath.erf(c / mpmath.sqrt(2))


@pytest.mark.parametrize("c", [10**3, 10**8, 10**15, 10**30])
def test_mp_curves_at_huge_c(c):
    """The mp curves keep their digits where exp(c^2/2) amplifies the rounding of c^2/2 by c^2 (issue 33:
    F(1e30) at 25 digits came out negative)."""
    for dps in (15, 25, 50):
        F, f = critical_S_curve(c, dps=dps), critical_curve(c, dps=dps)
        ref_F = asymptotic_F(c, dps + 10)
        with mpmath.workdps(dps + 2 * len(str(c)) + 20):
            y = mpmath.mpf(c * c) / 2
            ref_f = mpmath.exp(y) / (2 * y) * -mpmath.expm1(-2 * y)
            assert abs(F - ref_F) <= mpmath.mpf(10) ** (1 - dps) * ref_F, (c, dps)
            assert abs(f - ref_f) <= mpmath.mpf(10) ** (1 - dps) * ref_f, (c, dps)


def test_mp_curves_refuse_astronomical_c():
    with pytest.raises(ValueError, match="c must satisfy"):
        critical_S_curve(mpmath.mpf("1e2000"), dps=20)


def test_S_curve_odd_and_derivative():
    c = np.linspace(0.1, 9.0, 25)
    assert np.array_equal(critical_S_curve(-c), -critical_S_curve(c))
    h = 1e-4   # central difference: F' = f to O(h^2)
    deriv = (critical_S_curve(c + h) - critical_S_curve(c - h)) / (2 * h)
    assert np.allclose(deriv, critical_curve(c), rtol=1e-6)


# --- correction ----------------------------------------------------------------------------------------
def mp_corrected(n, k):
    """The first correction of docs/papers/signal-propagation.md written out literally, 50 digits."""
    with mpmath.workdps(50):
        sn = mpmath.sqrt(n)
        c = k / sn
        y = c * c / 2
        return (2 / c**2) * (mpmath.sinh(y) * (1 - c**3 / (6 * sn) - 3 / (c * sn)) + (3 * c / (2 * sn)) * mpmath.cosh(y))


@pytest.mark.parametrize("n,k", [(10**4, 50), (10**4, 150), (10**6, 3000), (10**8, 12345), (10**12, 10**5)])
def test_correction_matches_spec_formula(n, k):
    ref = mp_corrected(n, k)
    got = rg.Q_critical_form(n, k)
    assert abs(got - float(ref)) <= 1e-13 * float(ref)


@given(c=st.floats(1e-6, 37.5))
def test_correction_matches_mpmath(c):
    with mpmath.workdps(50):
        cm = mpmath.mpf(c)
        y = cm * cm / 2
        ref = float(3 / cm * (mpmath.cosh(y) - mpmath.sinh(y) / y) - cm / 3 * mpmath.sinh(y))
    assert abs(critical_correction(c) - ref) <= (64 + c * c) * EPS * abs(ref)


def test_correction_small_c_series():
    c = np.array([1e-6, 1e-3, 1e-2])
    assert np.allclose(critical_correction(c) / c**3, 1 / 12, rtol=1e-4, atol=0)   # g = c^3/12 + O(c^7)
    assert critical_correction(0.0) == 0.0


@pytest.mark.parametrize("c", [0.5, 1.0, 2.0])
def test_correction_removes_sqrt_n_error(c):
    # Q = f + g/sqrt(n) + h/n + a/n^(3/2) + ... at fixed c, so e_n = (Q - f - g/sqrt n) n = h + a/sqrt(n) + O(1/n).
    # (1) the rate: (e_1e4 - e_1e8) / (e_1e6 - e_1e8) = (1e-2 - 1e-4) / (1e-3 - 1e-4) = 11 up to the O(1/n)
    #     terms (relative ~ 1/sqrt(1e4) = 1%, allowed 5%): a wrong g leaves an O(sqrt n) term and breaks it;
    # (2) (Q - f) sqrt(n) - g = h/sqrt(n) + ...: below 1/sqrt(n) (|h(c)| < 0.5 for c <= 2, so |e_n| < 0.5).
    scaled = []
    for n in (10**4, 10**6, 10**8):
        k = round(c * math.sqrt(n))
        q = Q_mp(n, k)
        cc = k / math.sqrt(n)
        scaled.append((q - (critical_curve(cc) + critical_correction(cc) / math.sqrt(n))) * n)
        assert abs((q - critical_curve(cc)) * math.sqrt(n) - critical_correction(cc)) <= 1 / math.sqrt(n)
    assert abs((scaled[0] - scaled[2]) / (scaled[1] - scaled[2]) / 11 - 1) < 0.05


def Q_mp(n, k):
    from theory.signal_energy import Q

    with mpmath.workdps(30):
        return float(Q(n, k, method="mp", dps=30))


# --- supercritical / uniform forms ----------------------------------------------------------------------
def test_geometric_form_is_uniform_in_supercritical_range():
    from theory.signal_energy import log_S

    n = 10**4
    ts = (400, 1000, 3000, 10**4, 10**5)
    errs = [abs(math.exp(rg.S_geometric_form(n, t, log=True) - log_S(n, t)) - 1) for t in ts]
    # relative error ~ n/t^2 (measured factor 0.6-1.4): uniform far beyond t ~ n^(2/3) and t ~ n
    assert all(e <= 3 * n / t**2 for e, t in zip(errs, ts)) and np.all(np.diff(errs) < 0)
    with pytest.raises(ValueError, match="t"):
        rg.S_geometric_form(n, 100)


def test_plain_supercritical_form_on_log_scale():
    from theory.signal_energy import log_S

    # log S - log form, from S ~ Q_{n,t} rho/(rho-1) with log Q = log(n/((t+1)(t+2))) + sum_{j<t+2} log1p(j/n)
    # expanded in j/n (m = t + 2: m(m-1)/2n - m^3/6n^2 + m^4/12n^3 - ...) and rho/(rho-1) = (n/t)(1 + t/n
    # - 1/t + 2n/t^2 + ...):  5t/(2n) - t^3/(6n^2) + t^4/(12n^3) + 2n/t^2 + R, where R collects the geometric
    # form's own error (|.| <= 1.5 n/t^2 for t/sqrt(n) >= 10, test above), the next term of the exponent
    # (m^5/(20 n^4)), cross terms O(t^2/n^2) and O(1/t). The plain form is off by t^3/(6n^2) = 4.5 at t = 3e4.
    n = 10**6
    for t in (10**4, 3 * 10**4):
        diff = log_S(n, t) - rg.S_supercritical_form(n, t, log=True)
        lead = 5 * t / (2 * n) - t**3 / (6 * n**2) + t**4 / (12 * n**3) + 2 * n / t**2
        assert abs(diff - lead) <= 1.5 * n / t**2 + t**5 / (10 * n**4) + 10 * t**2 / n**2 + 5 / t


def test_subcritical_deviation_leading_term():
    from theory.signal_energy import S

    # S/(t+1) - 1 = C(t+3,5)/((t+1) n^2) + O(t^8/n^4) exactly (the 1/n^2 coefficient s_1 = C(t+3,5)), so the
    # ratio to t^4/(120 n^2) is (t+3)(t+2)(t-1)/t^3 = 1 + 4/t + 1/t^2 - 6/t^3, up to the next order
    # t^8/(17280 n^4) / (t^4/(120 n^2)) = t^4/(144 n^2) (from f(c) = 1 + c^4/24 + c^8/1920 + ...) and lower
    # powers of t at that order: bounded by t^4/(100 n^2), plus float rounding.
    n = 10**8
    for t in (100, 300, 1000):
        dev = S(n, t, method="exact") / (t + 1) - 1
        first = 4 / t + 1 / t**2 - 6 / t**3
        assert abs(float(dev) / rg.S_subcritical_deviation(n, t) - 1 - first) <= t**4 / (100 * n**2) + 1e-13


# --- regime ----------------------------------------------------------------------------------------------
def test_regime_thresholds_exact():
    assert regime(100, 4) == "subcritical" and regime(100, 5) == "critical"     # c = 0.5 is critical
    assert regime(100, 30) == "critical" and regime(100, 31) == "supercritical"  # c = 3 is critical
    n = 10**18                                           # sqrt(n) = 1e9 exactly: no float rounding
    assert regime(n, 5 * 10**8 - 1) == "subcritical" and regime(n, 5 * 10**8) == "critical"
    assert regime(n, 3 * 10**9) == "critical" and regime(n, 3 * 10**9 + 1) == "supercritical"
    assert regime(16, 8, c_sub=2.0, c_super=2.0) == "critical"
    with pytest.raises(ValueError, match="c_super"):
        regime(16, 4, c_sub=2.0, c_super=1.0)


# --- breakdown depth -----------------------------------------------------------------------------------
def brute_breakdown(n, tol, quantity):
    tol = Fraction(tol)
    total = Fraction(0)
    for t in range(10**6):
        q = ref_Q(n, t)
        total += q
        dev = total / (t + 1) - 1 if quantity == "S" else q - 1
        if dev > tol:
            return t
    raise AssertionError("not found")


@given(n=st.integers(1, 400), tol=st.floats(1e-9, 50.0), quantity=st.sampled_from(["S", "Q"]))
def test_breakdown_matches_brute_force(n, tol, quantity):
    assert breakdown_depth(n, tol, quantity=quantity) == brute_breakdown(n, tol, quantity)


def test_breakdown_exact_ties():
    # Q_{4,2} - 1 = 1/16 exactly; S_{4,2}/3 - 1 = 1/48: "> tol" is strict
    assert breakdown_depth(4, 1 / 16, quantity="Q") == 3
    assert breakdown_depth(4, 0.0625 * (1 - 1e-15), quantity="Q") == 2
    assert brute_breakdown(4, Fraction(1, 16), "Q") == 3


@pytest.mark.parametrize("n,tol,quantity", [(10**10, 1e-3, "S"), (10**18, 1e-3, "Q"), (10**18, 0.5, "Q"),
                                            (10**7, 2.0, "S"), (10**15, 1e-6, "Q")])
def test_breakdown_boundary_at_huge_n(n, tol, quantity):
    from theory.signal_energy import Q, S

    t = breakdown_depth(n, tol, quantity=quantity)

    def dev(tt):
        with mpmath.workdps(40):
            v = S(n, tt, method="mp", dps=40) / (tt + 1) if quantity == "S" else Q(n, tt, method="mp", dps=40)
            return v - 1

    with mpmath.workdps(40):
        assert dev(t - 1) <= tol < dev(t)
    # the sqrt(n) law: t* / sqrt(n) is close to the limit-curve value
    c = rg._guess_c(quantity, tol)
    assert abs(t / math.sqrt(n) / c - 1) < 1e-3


def test_breakdown_bad_input():
    for bad in (0.0, -1.0):
        with pytest.raises(ValueError, match="tol"):
            breakdown_depth(100, bad)
    with pytest.raises(ValueError, match="tol"):
        breakdown_depth(100, float("nan"))
    with pytest.raises(TypeError, match="tol"):
        breakdown_depth(100, True)
    with pytest.raises(ValueError, match="quantity"):
        breakdown_depth(100, 0.1, quantity="R")
    with pytest.raises(TypeError, match="n"):
        breakdown_depth(100.0, 0.1)


# --- feedforward contrast ------------------------------------------------------------------------------
@pytest.mark.parametrize("n,L", [(1, 0), (1, 5), (3, 7), (10**6, 10**6)])
def test_feedforward_mean_and_second_moment_exact(n, L):
    assert feedforward_mean(n, L, method="exact") == 1 and feedforward_mean(n, L) == 1.0
    if L <= 7:
        assert feedforward_second_moment(n, L, method="exact") == Fraction(n + 1, n) ** L
        assert feedforward_second_moment(n, L, field="real", method="exact") == Fraction(n + 2, n) ** L
    # the float path: (1 + 1/n)^n -> e at n = 10**6 (relative 5e-7 below e)
    if n == 10**6:
        assert abs(feedforward_second_moment(n, L) / math.e - 1 + 1 / (2 * n)) < 1e-11


def test_feedforward_n1_moments_from_gaussian_moments():
    # n = 1: |g|^2 ~ Exp(1) with E|g|^4 = 2 (complex); g^2 ~ chi^2_1 with E g^4 = 3 (real)
    assert feedforward_second_moment(1, 4, method="exact") == 2**4
    assert feedforward_second_moment(1, 4, field="real", method="exact") == 3**4


@pytest.mark.parametrize("field", ["complex", "real"])
def test_feedforward_monte_carlo(field):
    n, L, samples = 3, 4, 40_000
    rng = np.random.default_rng(np.random.SeedSequence(20261203).spawn(2)[field == "real"])
    e = feedforward_energies(n, L, samples, field=field, rng=rng)
    z = z_for_false_alarm(m=4)
    for est, exact in ((e, 1.0), (e**2, float(feedforward_second_moment(n, L, field=field, method="exact")))):
        assert abs(est.mean() - exact) <= z * est.std(ddof=1) / math.sqrt(samples)


def test_feedforward_bad_input():
    with pytest.raises(ValueError, match="field"):
        feedforward_second_moment(3, 2, field="quaternion")
    with pytest.raises(ValueError, match="method"):
        feedforward_mean(3, 2, method="mp")
    with pytest.raises(ValueError, match="L"):
        feedforward_second_moment(3, -1)
    with pytest.raises(OverflowError):
        feedforward_second_moment(1, 2000)


# --- bad input everywhere -------------------------------------------------------------------------------
@pytest.mark.parametrize("fn", [critical_curve, critical_S_curve, critical_correction])
def test_curve_bad_input(fn):
    with pytest.raises(ValueError, match="c"):
        fn(float("nan"))
    with pytest.raises(ValueError, match="c"):
        fn(np.array([1.0, np.inf]))
    with pytest.raises(TypeError, match="c"):
        fn("1.0")
    with pytest.raises(TypeError, match="c"):
        fn(True)


def test_curve_dps_bad_input():
    with pytest.raises(ValueError, match="dps"):
        critical_curve(1.0, dps=0)
    with pytest.raises(TypeError, match="c"):
        critical_S_curve(np.array([1.0, 2.0]), dps=20)
    with pytest.raises(ValueError, match="c"):
        critical_S_curve(float("inf"), dps=20)
    with pytest.raises(ValueError, match="c"):
        critical_correction(-1.0)


@pytest.mark.parametrize("fn", [rg.Q_critical_form, rg.S_critical_form, rg.S_supercritical_form, regime,
                                rg.S_subcritical_deviation])
def test_forms_bad_input(fn):
    with pytest.raises(TypeError, match="n"):
        fn(10.5, 3)
    with pytest.raises(ValueError, match="n"):
        fn(0, 3)
    with pytest.raises(ValueError, match="t|k"):
        fn(10, -1)


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def test_Q_critical_form_outside_its_domain():
    from theory.regimes import Q_critical_form
    from theory.signal_energy import Q

    with pytest.raises(ValueError, match="n=1, k=32"):
        Q_critical_form(1, 32)
    assert Q_critical_form(1, 32, corrected=False) > 0
    got = Q_critical_form(10**6, 1000)                     # inside: close to the exact value
    assert abs(got - Q(10**6, 1000)) <= 1e-5 * Q(10**6, 1000)
