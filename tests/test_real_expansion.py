"""Tests of theory.real_expansion (real-weight energies at any depth) and numerics.signal_propagation.real_energy_mc.

References independent of the code under test: the exact rows (theory/data/real_wick_rows.json, from the
Pfaffian route), the n^(k-1) formula of numerics.signal_propagation.real_wick.row_identities (fitted earlier on k <= 9), the
proved inequality Q^R >= Q (complex closed form), brute-force sums, mpmath, and Monte Carlo.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from numerics.signal_propagation.real_energy_mc import real_energy_mc
from numerics.signal_propagation.real_wick import row_identities
from theory import real_expansion as rx
from theory.horizon import depth_for_scale, scale_from_energies, sigma_for_horizon
from theory.real_rows import real_row, real_rows_max_k, verification_rows
from theory.regimes import breakdown_depth, critical_curve
from theory.signal_energy import Q as complex_Q
from numerics.stats import z_for_false_alarm

K = real_rows_max_k()


def exact_Q(n: int, k: int) -> Fraction:
    row = real_row(k)
    return Fraction(sum(c * n**j for j, c in enumerate(row)), n ** (k + 1))


# --------------------------------------------------------------------------------------------------
# the coefficients
# --------------------------------------------------------------------------------------------------
def test_rows_reach_60_and_sum_to_double_factorial():
    assert K == 60
    for k in range(K + 1):                  # n = 1 is no interpolation node of the Pfaffian route
        assert sum(real_row(k)) == math.prod(range(2 * k - 1, 0, -2))


def test_a2_is_the_issue_formula_and_the_row_identity():
    for k in range(K + 1):
        expected = Fraction(2 * k**4 + 16 * k**3 - 8 * k**2 - 16 * k + 3 - 3 * (-1) ** k, 48)
        assert rx.coefficient_value(2, k) == expected
    # numerics.signal_propagation.real_wick's n^(k-1) identity (an earlier, independent fit on k <= 9) holds on every row
    for k in range(2, K + 1):
        assert all(holds for name, _, holds in row_identities(k, real_row(k)) if "n^(k-1)" in name)


def all_rows():
    rows = {k: real_row(k) for k in range(K + 1)}
    rows.update(verification_rows())
    return rows


def test_verification_rows_are_rows():
    rows = verification_rows()
    assert sorted(rows) == list(range(61, 81))
    for k, row in rows.items():                     # identities the Pfaffian route does not use as nodes
        assert len(row) == k + 2 and row[0] == 0 and row[-1] == 1 and row[k] == 0
        assert sum(row) == math.prod(range(2 * k - 1, 0, -2))
        assert all(holds for _, _, holds in row_identities(k, row))


@pytest.mark.parametrize("m", range(0, rx.M_MAX + 1))
def test_every_coefficient_reproduces_every_row(m):
    """Rows <= 60 (the fit rows and the held-out ones) and the verification rows 61..80 (computed after the fits)."""
    for k, row in all_rows().items():
        j = k + 1 - m
        expected = row[j] if 0 <= j <= k + 1 else 0
        assert rx.coefficient_value(m, k) == expected, (m, k)


@pytest.mark.parametrize("m", [2, 5, 10])
def test_fit_from_other_rows_gives_the_same_coefficient(m):
    """A fit on the highest rows (not the committed fit rows) finds the same quasi-polynomial."""
    da, db = rx.coefficient_shape(m)
    size = da + db + 2
    rows = {k: real_row(k) for k in range(K + 1)}
    assert rx.fit_coefficient(m, rows, range(K + 1 - size, K + 1)) == rx.coefficient(m)


def test_coefficient_records_hold_out_rows():
    for m in range(2, rx.M_MAX + 1):
        rec = rx.coefficient_record(m)
        da, db = rx.coefficient_shape(m)
        assert rec["fit_rows"] == (0, da + db + 1) and rec["verified_rows"] == (da + db + 2, 80)
    assert rx.coefficient_record(10)["held_out"] == 43


def test_fit_coefficient_bad_input():
    rows = {k: real_row(k) for k in range(10)}
    with pytest.raises(ValueError, match="ks"):
        rx.fit_coefficient(2, rows, [0, 1, 2])
    with pytest.raises(ValueError, match="rows"):
        rx.fit_coefficient(3, rows, range(5, 14))
    with pytest.raises(ValueError, match="m"):
        rx.fit_coefficient(1, rows)
    with pytest.raises(TypeError, match="m"):
        rx.coefficient(2.0)
    with pytest.raises(ValueError, match="m"):
        rx.coefficient(rx.M_MAX + 1)


@pytest.mark.parametrize("m", [0, 2, 3, 7, 15])
def test_partial_sums_are_the_cumulative_sums(m):
    C, D = rx.partial_sum(m)
    acc = Fraction(0)
    for t in range(90):
        acc += rx.coefficient_value(m, t)
        assert rx._quasi(C, D, t) == acc


# --------------------------------------------------------------------------------------------------
# QR, SR
# --------------------------------------------------------------------------------------------------
def test_exact_rows_are_served_exactly():
    for n, t in [(1, 7), (4, 3), (16, 2), (400, 60), (10**9, 45)]:
        r = rx.QR(n, t)
        # the error is the rounding of the exact row to float64, exactly (issue 43: it was 0.0)
        assert r.source == "exact rows" and r.value == float(exact_Q(n, t))
        assert r.error == float(abs(Fraction(r.value) - exact_Q(n, t))) and r.error <= 2**-53 * r.value
        assert rx.SR(n, t).value == float(sum(exact_Q(n, k) for k in range(t + 1)))


@pytest.mark.parametrize("n,k", [(3600, 60), (2500, 55), (900, 60), (10**6, 41), (700, 50)])
def test_truncated_expansion_within_its_error_on_exact_rows(n, k):
    for m_top in (rx.M_MAX, 11):
        v, e = rx.truncated_expansion(n, k, m_top=m_top, quantity="Q")
        assert abs(Fraction(v) - exact_Q(n, k)) <= Fraction(e)
        assert e < 0.01 * v
    v, e = rx.truncated_expansion(n, k, quantity="S", base=30)
    exact = sum(exact_Q(n, j) for j in range(31, k + 1))
    assert abs(Fraction(v) - exact) <= Fraction(e)


@pytest.mark.parametrize("n,k", [(6400, 80), (1600, 70), (900, 75), (10**5, 61)])
def test_expansion_within_its_error_on_the_verification_rows(n, k):
    """Rows 61..80 were computed after every a_m was fitted: a held-out test of QR's value and error."""
    row = verification_rows()[k]
    exact = Fraction(sum(c * n**j for j, c in enumerate(row)), n ** (k + 1))
    r = rx.QR(n, k)
    assert r.source == "expansion" and abs(Fraction(r.value) - exact) <= Fraction(r.error)


def test_beyond_rows_real_exceeds_complex_and_mp_agrees():
    """Q^R >= Q (proved coefficient by coefficient) holds for the expansion within its error; mp = float."""
    for n, t in [(10**4, 61), (10**4, 250), (10**6, 1000), (10**6, 2900), (10**12, 10**6)]:
        r = rx.QR(n, t)
        assert r.source == "expansion" and r.value + r.error >= float(complex_Q(n, t))
        m = rx.QR(n, t, method="mp", dps=40)
        with mpmath.workdps(40):
            assert abs(m.value - r.value) <= 1e-12 * r.value + 2 * r.error
            assert m.error <= r.error


@pytest.mark.parametrize("quantity", ["Q", "S"])
@pytest.mark.parametrize("n,t", [(1000, 88), (4096, 150), (10**6, 2000)])
def test_the_error_estimate_is_the_documented_one(quantity, n, t):
    """The mp path's error is the module docstring's estimate: the two omitted terms (m = 14, 15) times
    (1 + 2 rho) / (1 - rho), rho = (c^2 / 15)^2, written here from the committed coefficients in exact rationals
    (S: their partial sums b_m(t) - b_m(60) summed term by term), plus at most the value's rounding."""
    rho = (Fraction(t * t, n) / rx.M_MAX) ** 2
    if quantity == "Q":
        omitted = [rx.coefficient_value(m, t) / Fraction(n) ** m for m in (rx.M_MAX - 1, rx.M_MAX)]
    else:
        omitted = [sum((rx.coefficient_value(m, k) for k in range(K + 1, t + 1)), Fraction(0)) / Fraction(n) ** m
                   for m in (rx.M_MAX - 1, rx.M_MAX)]
    documented = (abs(omitted[0]) + abs(omitted[1])) * (1 + 2 * rho) / (1 - rho)
    r = (rx.QR if quantity == "Q" else rx.SR)(n, t, method="mp", dps=30)
    with mpmath.workdps(40):
        est = mpmath.mpf(documented.numerator) / documented.denominator
        assert est * (1 - 1e-12) <= r.error <= est * (1 + 1e-12) + mpmath.mpf(10) ** -29 * abs(r.value)
    f = (rx.QR if quantity == "Q" else rx.SR)(n, t)                   # float: the same plus a rounding bound
    assert float(est) * (1 - 1e-9) <= f.error <= float(est) * (1 + 1e-9) + 1e-13 * f.value


def test_sr_is_the_sum_of_qr():
    n, t = 10**5, 200
    s = rx.SR(n, t)
    parts = rx.QR(n, np.arange(t + 1))
    assert abs(s.value - parts.value.sum()) <= s.error + parts.error.sum() + 1e-12 * s.value
    with mpmath.workdps(30):
        sm = rx.SR(n, t, method="mp", dps=30)
        assert abs(sm.value - s.value) <= 1e-11 * s.value


def test_done_when_point():
    """t = 1000, n = 10^6: the expansion, with an error estimate far below the real-complex difference."""
    r = rx.QR(10**6, 1000)
    assert r.source == "expansion" and 0 < r.error < 1e-12
    assert r.value - float(complex_Q(10**6, 1000)) > 1e-4          # the real correction F_1(1) / 1000


def test_arrays_broadcast_and_match_scalars():
    ns = np.array([[10**4], [10**6]])
    ts = np.array([10, 61, 150])
    r = rx.QR(ns, ts)
    assert r.value.shape == (2, 3) and r.source == "exact rows and expansion"
    for i in range(2):
        for j in range(3):
            s = rx.QR(int(ns[i, 0]), int(ts[j]))
            assert r.value[i, j] == s.value and r.error[i, j] == s.error
    assert isinstance(rx.QR(10**6, 100).value, float)


def test_domain_is_monotone_and_refused_beyond():
    for n in (400, 2000, 10**5, 10**8):
        md = rx.max_depth(n, quantity="Q")
        rx.QR(n, md)
        with pytest.raises(ValueError, match=r"^k must be <= "):
            rx.QR(n, md + 1)
        ts = np.arange(K + 1, md + 1, max(1, (md - K) // 50))
        if ts.size:
            r = rx.QR(n, ts)
            assert np.all(r.error <= rx.REL_ERROR_MAX * r.value)
    for n, t in ((256, 100), (1024, 200), (4096, 300)):        # the issue's Monte Carlo points: c = 6.25, 6.25, 4.7
        with pytest.raises(ValueError, match="k must be"):
            rx.QR(n, t)
        with pytest.raises(ValueError, match="t must be"):
            rx.SR(n, t)


@pytest.mark.parametrize("method", ["float", "mp"])
@pytest.mark.parametrize("energy,quantity", [(rx.QR, "Q"), (rx.SR, "S")])
def test_every_method_serves_the_same_domain(energy, quantity, method):
    """The mp path refuses exactly what the float path refuses (issue 43: the mp path once returned
    QR(1000, 100) = 78.6 +- 10 from the expansion, and an AttributeError past c = 3.26)."""
    for n in (400, 1000, 10**6):
        md = rx.max_depth(n, quantity=quantity)
        assert energy(n, md, method=method).value > 0
        for t in (md + 1, 2 * md + 100):          # just past the domain, and past rho = 1/2 (c > 3.26)
            with pytest.raises(ValueError, match=rf"^{'k' if quantity == 'Q' else 't'} must be <= {md} at n={n} "):
                energy(n, t, method=method)
    assert rx.max_depth(1000, quantity="Q") == 88     # the issue's point: QR(1000, 100) lies outside


@pytest.mark.parametrize("call,exc,match", [
    (lambda: rx.QR(10.0, 5), TypeError, "n"),
    (lambda: rx.QR(0, 5), ValueError, "n"),
    (lambda: rx.QR(10, -1), ValueError, "^k must"),
    (lambda: rx.SR(10, -1), ValueError, "^t must"),
    (lambda: rx.QR(10, 5, dps=30), ValueError, "dps"),
    (lambda: rx.QR(10, 5, method="exact"), ValueError, "method"),
    (lambda: rx.QR([10, 20], 5, method="mp"), TypeError, "n"),
    (lambda: rx.SR(10, 2.5), TypeError, "t"),
    (lambda: rx.max_depth(0, quantity="Q"), ValueError, "n"),
    (lambda: rx.scaling_series(4), ValueError, "j"),
    (lambda: rx.scaling_function(1, 3.5), ValueError, "c"),
    (lambda: rx.breakdown_law(0.995), ValueError, "tol"),
    (lambda: rx.real_breakdown_depth(10, 1.5), ValueError, "tol"),
    (lambda: rx.truncated_expansion(100, 10, m_top=3, quantity="Q"), ValueError, "m_top"),
])
def test_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# --------------------------------------------------------------------------------------------------
# scaling functions and the breakdown law
# --------------------------------------------------------------------------------------------------
def test_F0_is_the_complex_curve():
    c = np.linspace(0.0, 2.0, 21)
    assert np.allclose(rx.scaling_function(0, c), critical_curve(c), rtol=1e-9, atol=0)   # c^32 omitted


def test_F1_is_the_limit_of_the_rows():
    """sqrt(n) (Q^R - F_0) along k = c sqrt(n) at large n approaches F_1(c) (rows, exact rationals)."""
    c = Fraction(1, 2)
    for k, tol in ((40, 0.02), (60, 0.013)):
        n = (k / c) ** 2
        q = sum(Fraction(a) * n**j for j, a in enumerate(real_row(k))) / n ** (k + 1)
        approx = float((q - Fraction(critical_curve(0.5))) * k / c)
        assert abs(approx - rx.scaling_function(1, 0.5)) < tol * rx.scaling_function(1, 0.5) + 1e-12


def test_breakdown_law_matches_the_depths():
    for tol in (0.05, 0.6):
        law = rx.breakdown_law(tol)
        assert abs(float(critical_curve(law["c0"])) - 1 - tol) < 1e-12
        for n in (10**4, 10**6, 10**8):
            t_r = rx.real_breakdown_depth(n, tol)
            assert -0.5 <= t_r - (law["c0"] * math.sqrt(n) + law["delta_real"]) <= 1.5
            assert -0.5 <= breakdown_depth(n, tol, quantity="Q") - (law["c0"] * math.sqrt(n) + law["delta_complex"]) <= 1.5
            assert exact_or_served(n, t_r) > 1 + tol >= exact_or_served(n, t_r - 1)


def _crossing(tol, e, dps=60):
    """c(e) with F_0(c) + e F_1(c) + e^2 F_2(c) = 1 + tol, e = 1/sqrt(n): the crossing itself, solved at 60
    digits from the exact Taylor coefficients of F_1, F_2 (F_0 = (2/c^2) sinh(c^2/2) in closed form)."""
    with mpmath.workdps(dps):
        f1 = [mpmath.mpf(x.numerator) / x.denominator for x in rx.scaling_series(1)]
        f2 = [mpmath.mpf(x.numerator) / x.denominator for x in rx.scaling_series(2)]

        def g(c):
            return (2 * mpmath.sinh(c * c / 2) / (c * c) + e * mpmath.polyval(f1[::-1], c)
                    + e * e * mpmath.polyval(f2[::-1], c) - 1 - mpmath.mpf(tol))
        return mpmath.findroot(g, mpmath.mpf(1.5))


@pytest.mark.parametrize("tol", [0.05, 0.3, 0.95])
def test_breakdown_law_terms_are_the_derivatives_of_the_crossing(tol):
    """delta and delta_2 against finite differences of the crossing c(e) (t* = c sqrt(n), so c(e) = c_0 + delta e +
    delta_2 e^2 + ...): an independent route to the Taylor formula of breakdown_law (issue 43: the 1/2 of its
    delta_2 term could be dropped unseen, 187.7 -> 126.1 at tol 0.95)."""
    law = rx.breakdown_law(tol)
    e = mpmath.mpf(10) ** -12
    with mpmath.workdps(60):
        c0, cp, cm = _crossing(tol, 0), _crossing(tol, e), _crossing(tol, -e)
        delta = (cp - cm) / (2 * e)
        delta2 = (cp + cm - 2 * c0) / (2 * e * e)
    assert abs(law["c0"] - float(c0)) <= 1e-12
    assert abs(law["delta_real"] - float(delta)) <= 1e-9 * abs(float(delta))
    assert abs(law["delta2_real"] - float(delta2)) <= 1e-7 * abs(float(delta2))


def exact_or_served(n, t):
    return rx.QR(n, t).value


# --------------------------------------------------------------------------------------------------
# the horizon with real weights at any depth
# --------------------------------------------------------------------------------------------------
def test_real_horizon_beyond_the_rows():
    n, t = 4096, 150
    r = sigma_for_horizon(n, t, 0.1, field="real", quantity="Q")
    E, rel, src = rx.real_energies_any(n, t)
    assert r == scale_from_energies(("log", np.log(E)), 0.1, n=n, field="real", source=src, quantity="Q")
    assert "expansion" in r.source and rel < 1e-3
    rc = sigma_for_horizon(n, t, 0.1, quantity="Q")
    assert r.sigma_endpoint < rc.sigma_endpoint                    # Q^R > Q: a smaller scale is back at 1
    d = depth_for_scale(10**6, 1.0, 0.05, field="real", quantity="Q")
    assert d == rx.real_breakdown_depth(10**6, 0.05) - 1 < depth_for_scale(10**6, 1.0, 0.05, quantity="Q")


def test_real_horizon_mp_matches_float():
    a = sigma_for_horizon(4096, 80, 0.05, field="real", quantity="Q")
    b = sigma_for_horizon(4096, 80, 0.05, field="real", method="mp", dps=25, quantity="Q")
    assert abs(float(b.sigma) - a.sigma) < 1e-9


# --------------------------------------------------------------------------------------------------
# Monte Carlo (numerics.signal_propagation.real_energy_mc) against exact rows
# --------------------------------------------------------------------------------------------------
def test_real_energy_mc_against_exact_rows():
    n, t = 48, 12
    r = real_energy_mc(n, t, 3000, seed=4)
    exact_q = np.array([float(exact_Q(n, k)) for k in range(t + 1)])
    z = z_for_false_alarm(m=2 * t)
    assert np.all(np.abs(r.Q_mean[1:] - exact_q[1:]) <= z * r.Q_se[1:])
    assert np.all(np.abs(r.S_mean[1:] - np.cumsum(exact_q)[1:]) <= z * r.S_se[1:])
    assert np.all(r.Q_se[1:] > 0)


def test_real_energy_mc_reproducible_and_checked():
    a = real_energy_mc(8, 3, 10, seed=2)
    b = real_energy_mc(8, 3, 10, seed=2)
    assert np.array_equal(a.Q_mean, b.Q_mean) and np.array_equal(a.S_se, b.S_se)
    with pytest.raises(ValueError, match="n"):
        real_energy_mc(10**5, 3, 10)
    with pytest.raises(TypeError, match="samples"):
        real_energy_mc(8, 3, 10.0)
    with pytest.raises(ValueError, match="flops"):
        real_energy_mc(8192, 10**4, 10**6)


# --------------------------------------------------------------------------------------------------
# the verdicts of validation/checks/real_expansion.py on synthetic data: each can fail
# --------------------------------------------------------------------------------------------------
def test_verdicts_can_fail():
    from validation.checks import real_expansion as chk
    from validation.registry import FAIL, PASS
    good = {"m": 2, "refit_equal": True, "bad_rows": [], "fit_rows": (0, 5), "verified_rows": (6, 80)}
    assert chk.verdict_coefficients([good]).verdict == PASS
    assert chk.verdict_coefficients([dict(good, bad_rows=[61])]).verdict == FAIL
    assert chk.verdict_coefficients([dict(good, refit_equal=False)]).verdict == FAIL
    assert chk.verdict_coefficients([]).verdict == FAIL
    one, half = Fraction(1), Fraction(1, 2)
    assert chk.verdict_scaling([(0, one, one)], [(2, half, half)]).verdict == PASS
    assert chk.verdict_scaling([(0, one, half)], [(2, half, half)]).verdict == FAIL
    assert chk.verdict_scaling([(0, one, one)], [(2, half, one)]).verdict == FAIL
    case = ("Q", 3600, 60, 1.0, 1e-10, 1.0 + 5e-11)
    assert chk.verdict_expansion_rows([case]).verdict == PASS
    assert chk.verdict_expansion_rows([case[:5] + (1.0 + 2e-10,)]).verdict == FAIL
    mc = (1024, 61, "Q", 1.9, 1e-6, 1.91, 0.04, 1.66)
    refused = [(256, 100, False)]
    assert chk.verdict_expansion_mc([mc], refused).verdict == PASS
    assert chk.verdict_expansion_mc([mc[:5] + (2.5,) + mc[6:]], refused).verdict == FAIL      # 15 se off
    assert chk.verdict_expansion_mc([mc], [(256, 100, True)]).verdict == FAIL                  # served outside
    law = [(10**4, 201, 200.5, 207, 206.3)]
    at = [(1024, 61, 1.9, 1e-6, 1.91, 0.04, 1.95)]
    assert chk.verdict_breakdown(law, at).verdict == PASS
    assert chk.verdict_breakdown([(10**4, 203, 200.5, 207, 206.3)], at).verdict == FAIL
    assert chk.verdict_breakdown(law, [at[0][:4] + (2.5,) + at[0][5:]]).verdict == FAIL


def test_real_breakdown_depth_refuses_an_unreachable_scan_up_front():
    """n = 1e18 scanned for over a minute before failing (issue 33 fuzz): refused before the scan, naming n and
    the predicted crossing c0 sqrt(n) (c0: sinh(y)/y = 1 + tol at y = c0^2/2, about 1.04 at tol = 0.05)."""
    with pytest.raises(ValueError, match=r"n=1000000000000000000 is too large .*crossing lies near depth 1.04e\+09"):
        rx.real_breakdown_depth(10**18, 0.05)


def test_real_energy_mc_overflow_is_an_error_naming_t():
    """n = 8, t = 1000 returned NaN energies (issue 33 fuzz): a ValueError naming t instead."""
    from numerics.signal_propagation.real_energy_mc import real_energy_mc
    with pytest.raises(ValueError, match="t=1000 is too deep at n=8"):
        real_energy_mc(8, 1000, 16, probes=2)


def test_partial_sum_checks_m_before_its_cache():
    """partial_sum(0.0) returned the cached partial_sum(0) (0.0 == 0 as a cache key; issue 33 fuzz)."""
    rx.partial_sum(0)
    with pytest.raises(TypeError, match="m must be an integer"):
        rx.partial_sum(0.0)
    with pytest.raises(TypeError, match="m must be an integer"):
        rx.partial_sum(True)


# --- issue 43: widths past float64 -------------------------------------------------------------------------------
def test_rho_bound_is_decided_in_integers():
    """max_depth(10**100) never ended (a float scan by steps of one past 2**53); the rho bound
    t^4 <= RHO_MAX (n M_MAX)^2 is now decided in integers: just inside it, and one past it."""
    for n in (10**6, 10**12, 10**100):
        t = rx._rho_depth(n)
        lhs = lambda s: Fraction(s**2, n * rx.M_MAX) ** 2            # noqa: E731  rho, exactly
        assert lhs(t) <= Fraction(rx.RHO_MAX) < lhs(t + 1)
    assert rx.max_depth(10**100) <= rx._rho_depth(10**100)


def test_expansion_refuses_widths_past_1e300_by_name():
    """QR / SR (mp) past the exact rows at n = 10**400: "int too large to convert to float" before."""
    for fn in (rx.QR, rx.SR):
        with pytest.raises(ValueError, match=r"^n must be <= 1e300 for depths past the exact rows"):
            fn(10**400, 10**30, method="mp", dps=30)
        assert fn(10**400, 60, method="mp", dps=30).source == "exact rows"           # the rows take any n
