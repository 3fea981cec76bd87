"""Tests of theory.init_laws.structure (the cumulant structure) and theory.init_laws.energy (Q_law, S_law).

Independent references: the exact rows (full k <= 12, and the top rows k <= 36 computed by the shape enumeration),
closed forms derived by hand (C(k, 2), k - s + 1, C(k - 2l + 2, 2)), the real-weight energies (theory.real_expansion,
another route), Monte Carlo with iid entries of each law (numerics.signal_propagation.ginibre.estimate_Q with
init=, and real_energy_mc), z from numerics.stats.z_for_false_alarm.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics.signal_propagation.ginibre import estimate_Q
from numerics.signal_propagation.real_energy_mc import real_energy_mc
from numerics.stats import z_for_false_alarm
from theory import real_expansion as rx
from theory.init_laws import energy as E
from theory.init_laws import structure as S
from theory.init_laws.laws import as_law
from theory.init_laws.rows import cumulant_terms, law_rows_max_k, terms_in_cumulants

K = law_rows_max_k()


# --------------------------------------------------------------------------------------------------
# the structure: every committed coefficient on every row
# --------------------------------------------------------------------------------------------------
def known_rows():
    """{k: (largest m known, {(m, mu): c})} from the full and the top rows."""
    out = {k: (2 * k + 2, {(k + 1 - j, mu): c for (j, mu), c in cumulant_terms(k).items()}) for k in range(K + 1)}
    for k, top, terms in S.top_rows():
        out[k] = (top, {(k + 1 - j, mu): c for (j, mu), c in terms_in_cumulants(terms, jmin=k + 1 - top).items()})
    return out


def test_every_committed_coefficient_reproduces_every_row():
    rows = known_rows()
    assert S.M_LAW >= 4 and max(rows) >= 30
    checked = 0
    for m in range(2, S.M_LAW + 1):
        for mu in S.monomials(m):
            for k, (top, coeffs) in rows.items():
                if m <= top:
                    assert S.coefficient_value(m, mu, k) == coeffs.get((m, mu), 0), (m, mu, k)
                    checked += 1
    # and no monomial occurs at m <= M_LAW that the committed table lacks
    for k, (top, coeffs) in rows.items():
        for (m, mu), c in coeffs.items():
            if mu and 2 <= m <= min(top, S.M_LAW):
                assert mu in S.monomials(m), (m, mu, k)
    # every known row, counted by hand: m = 2 on k = 0..36, m = 3 (3 monomials) on k = 1..28, m = 4 (6) on k = 1..18
    assert checked == 37 + 3 * 28 + 6 * 18


def test_first_order_closed_forms_on_every_row():
    for k, (top, coeffs) in known_rows().items():
        if top >= 2:
            assert coeffs.get((2, (2,)), 0) == math.comb(k, 2)
        for s in range(3, min(top, 2 * k + 2) + 1):
            assert coeffs.get((s, (s,)), 0) == max(k - s + 1, 0), (k, s)
        for l in range(2, top):
            assert coeffs.get((l + 1, (2,) * l), 0) == (math.comb(k - 2 * l + 2, 2) if k >= 2 * l - 2 else 0), (k, l)
        # nothing below those orders: kappa_(2s) never before m = s, kappa_4^l never before m = l + 1
        for (m, mu), c in coeffs.items():
            if mu:
                assert m >= max(mu) and m >= len(mu) + 1 and c > 0, (k, m, mu)


def test_records_hold_out_rows():
    for m in range(2, S.M_LAW + 1):
        for mu in S.monomials(m):
            rec = S.coefficient_record(m, mu)
            assert rec["held_out"] >= 3 and rec["verified_rows"][0] > rec["fit_rows"][1]


def test_orders_at_fixed_c():
    orders = {(r["m"], r["mu"]): r for r in S.orders()}
    for m in range(2, S.M_LAW + 1):
        assert orders[(m, (2,))]["degree"] == 2 * m - 2          # kappa_4 at order 1/n, every m
        assert orders[(m, (2,))]["order"] == 1
    assert min(r["order"] for r in S.orders() if r["mu"] == (3,)) == Fraction(5, 2)
    assert min(r["order"] for r in S.orders() if r["mu"] == (2, 2)) == 2


def test_kappa4_series_equals_the_conjectured_curve():
    series = S.kappa4_series()
    x = mpmath.mpf(1)
    with mpmath.workdps(40):
        taylor = mpmath.taylor(lambda c: mpmath.exp(c * c / 2) - (2 * mpmath.sinh(c * c / 2) / (c * c) if c else 1),
                               0, len(series) - 1)
    for p, (a, b) in enumerate(zip(series, taylor)):
        if p >= 2:
            assert abs(float(a) - float(b)) < 1e-25 * float(x), (p, a, b)
    assert np.allclose(S.kappa4_curve(np.array([0.0, 1e-4, 1.0])), [0.0, 5e-9, math.exp(0.5) - 2 * math.sinh(0.5)],
                       rtol=1e-6, atol=1e-15)


# --------------------------------------------------------------------------------------------------
# energies on the rows
# --------------------------------------------------------------------------------------------------
@given(n=st.integers(1, 10**6), k=st.integers(0, 12))
@settings(max_examples=40, deadline=None)
def test_exact_float_mp_agree_on_rows(n, k):
    for law in ("uniform", "sparse:0.05"):
        x = E.Q_law(n, k, law, method="exact").value
        assert E.Q_law(n, k, law).value == pytest.approx(float(x), rel=1e-15)
        with mpmath.workdps(40):
            assert abs(E.Q_law(n, k, law, method="mp").value - mpmath.mpf(x.numerator) / x.denominator) < mpmath.mpf(10) ** -35


@given(k=st.integers(0, 12))
def test_n_one_gives_the_moment(k):
    for law in ("uniform", "rademacher", "sparse:0.3"):
        assert E.Q_law(1, k, law, method="exact").value == as_law(law).moment(2 * k)


@given(n=st.integers(1, 500))
def test_rademacher_Q2_is_exactly_one(n):
    assert E.Q_law(n, 2, "rademacher", method="exact").value == 1


def test_gaussian_law_is_the_real_weight_energy():
    for n, t in ((64, 40), (10**6, 1000)):
        assert E.Q_law(n, t, "gaussian").value == rx.QR(n, t).value
        assert E.S_law(n, t, "gaussian").value == rx.SR(n, t).value


def test_S_is_the_sum_of_Q():
    for law in ("uniform", "sparse:0.2"):
        for n in (7, 300):
            s = sum(E.Q_law(n, k, law, method="exact").value for k in range(K + 1))
            assert E.S_law(n, K, law, method="exact").value == s


# --------------------------------------------------------------------------------------------------
# the expansion's error estimate against the exact rows (k <= 12, every width where it would be served)
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("law", ["uniform", "rademacher", "sparse:0.05", "sparse:0.3", "student:60"])
@pytest.mark.parametrize("quantity", ["Q", "S"])
def test_error_estimate_covers_the_exact_rows(law, quantity):
    gauss = as_law("gaussian")
    law_ = as_law(law)
    served = 0
    for k in range(8, K + 1):
        for n in [2**j for j in range(3, 21)]:
            v, e = E.truncated_law_expansion(n, k, law, quantity=quantity, base=7 if quantity == "S" else None)
            exact = float(E._exact(n, k, law_, quantity) - E._exact(n, k, gauss, quantity))
            total = float(E._exact(n, k, law_, quantity))
            if e <= E.REL_ERROR_MAX * total:                  # where the domain rule would serve it
                served += 1
                assert abs(v - exact) <= e, (n, k, v, exact, e)
    assert served >= 20


# --------------------------------------------------------------------------------------------------
# the domain and its refusals
# --------------------------------------------------------------------------------------------------
def test_heavy_tails_are_refused_with_one_line():
    with pytest.raises(ValueError, match=r"^k=3: E tr\(\(G\^k\)\^T G\^k\) is infinite for student:6") as info:
        E.Q_law(100, 3, "student:6")
    assert "\n" not in str(info.value)
    with pytest.raises(ValueError, match=r"^t=5: .* infinite for student:6"):
        E.S_law(100, 5, "student:6")
    assert E.Q_law(100, 2, "student:6").value == pytest.approx(1 + 5 / 100**2)


def test_sparse_at_np_10_stops_at_the_rows():
    assert E.law_max_depth(200, "sparse:0.05", quantity="Q") == K
    with pytest.raises(ValueError, match=r"^k=13 is beyond the domain of sparse:0.05 at n=200"):
        E.Q_law(200, 13, "sparse:0.05")          # each function names its own depth argument
    with pytest.raises(ValueError, match=r"^t=13 is beyond the domain of sparse:0.05 at n=200"):
        E.S_law(200, 13, "sparse:0.05")
    # a wide sparse network is served far beyond the rows
    assert E.law_max_depth(10**6, "sparse:0.05", quantity="Q") > 500


def test_exact_method_beyond_rows_and_moments_laws():
    with pytest.raises(ValueError, match="method='exact' serves the exact rows only"):
        E.Q_law(10**4, 20, "uniform", method="exact")
    with pytest.raises(ValueError, match=r"moments:3,15.*k=4|k=4.*m_8"):
        E.Q_law(10**4, 4, "moments:3,15")
    with pytest.raises(ValueError, match="law must be a law"):
        E.Q_law(10, 2, "cauchy")
    with pytest.raises(TypeError, match="n must be an integer"):
        E.Q_law(10.0, 2, "uniform")
    with pytest.raises(ValueError, match="method"):
        E.Q_law(10, 2, "uniform", method="ball")


def test_max_depth_is_served_and_the_next_is_not():
    for law, n in (("uniform", 10**4), ("rademacher", 4096), ("sparse:0.05", 10**5)):
        for quantity in ("Q", "S"):
            md = E.law_max_depth(n, law, quantity=quantity)
            fn = E.Q_law if quantity == "Q" else E.S_law
            assert fn(n, md, law).source in ("expansion", "exact rows")
            with pytest.raises(ValueError, match=f"^{'k' if quantity == 'Q' else 't'}={md + 1} is beyond the domain"):
                fn(n, md + 1, law)


@pytest.mark.parametrize("law", ["uniform", "rademacher", "sparse:0.3", "student:21", "moments:9/5,27/7,9,243/11"])
def test_law_coefficient_is_its_definition_at_every_depth(law):
    """One integer quasi-polynomial per (m, law) (from k0 on) against the definition, sum_mu kappa^mu c_{m,mu}(k)."""
    law = as_law(law)
    for m in range(2, S.M_LAW + 1):
        for k in range(0, 41):
            want = sum((S._kappa(law, mu) * S.coefficient_value(m, mu, k) for mu in S.monomials(m)), Fraction(0))
            assert S._law_coefficient(m, k, law) == want, (m, k)


@pytest.mark.parametrize("law,n,t", [("uniform", 4096, 86), ("rademacher", 10**5, 442), ("sparse:0.2", 10**4, 136),
                                     ("student:40", 10**4, 19), ("gaussian", 10**4, 275), ("moments:3,15", 100, 3)])
def test_law_energies_any_is_Q_law_at_every_depth(law, n, t):
    """The batch (vectorised Gaussian part, one set of guard terms, a cached table) against Q_law depth by depth:
    the same floats, values and errors; a smaller depth read from the cached table of a larger one the same."""
    E._TABLES.clear()
    Es, rel, src = E.law_energies_any(n, t, law)
    one = [E.Q_law(n, k, law) for k in range(t + 1)]
    assert Es.tolist() == [float(r.value) for r in one]
    beyond = [float(r.error) / abs(float(r.value)) for r in one[E.exact_depth(law) + 1:]]
    assert rel == (max(beyond) if beyond else 0.0)
    assert ("expansion" in src) == bool(beyond)
    small = E.law_energies_any(n, t - 3, law)                   # from the table of depth t
    E._TABLES.clear()
    fresh = E.law_energies_any(n, t - 3, law)
    assert small[0].tolist() == fresh[0].tolist() and small[1:] == fresh[1:]
    E._TABLES.clear()
    E.law_energies_any(n, t - 1, law)
    longer = E.law_energies_any(n, t, law)                      # one depth more than the table holds
    assert longer[0].tolist() == Es.tolist() and longer[1:] == (rel, src)


@pytest.mark.parametrize("law,n", [("uniform", 4096), ("sparse:0.05", 10**4), ("rademacher", 10**9), ("gaussian", 10**4)])
def test_law_energies_any_refuses_where_Q_law_first_refuses(law, n):
    md = E.law_max_depth(n, law, quantity="Q")
    E.law_energies_any(n, md, law)                               # just inside: served
    with pytest.raises(ValueError) as one:
        E.Q_law(n, md + 1, law)
    for t in (md + 1, md + 5):                                   # just outside, and beyond
        E._TABLES.clear()
        with pytest.raises(ValueError) as batch:
            E.law_energies_any(n, t, law)
        assert str(batch.value) == str(one.value)


def _unpruned_guard(n, t, law, quantity):
    """The guard over every term r = M_LAW+1..t, none left out, summed exactly rounded (math.fsum)."""
    r = np.arange(S.M_LAW + 1, t + 1)
    w = (t - r + 1.0) if quantity == "Q" else (t - r + 1.0) * (t - r + 2.0) / 2.0
    x = (E._log_excess(law, t)[S.M_LAW:t] - r * math.log(n)) + np.log(w)
    return math.inf if np.max(x) > 700 else math.fsum(np.exp(x[np.isfinite(x)]).tolist())


@pytest.mark.parametrize("law,n,t", [("uniform", 4096, 300), ("uniform", 10**6, 300), ("sparse:0.05", 400, 80), ("sparse:0.01", 10**4, 200),
                                     ("rademacher", 50, 200), ("rademacher", 10**63, 12), ("student:40", 10**3, 19), ("sparse:0.001", 50, 40)])
def test_guard_terms_give_every_smaller_depth_and_the_unpruned_sum(law, n, t):
    """The pruned terms of the largest depth give each smaller depth's guard exactly, and that is the sum over every
    term: the terms left out underflow to 0.0 there, and an exactly rounded sum does not see zeros."""
    law = as_law(law)
    for quantity in ("Q", "S"):
        terms = E._guard_terms(n, t, law, quantity)
        for k in range(S.M_LAW + 1, t + 1):
            g = E._guard(n, k, law, quantity)
            assert E._guard_at(k, *terms, quantity) == g == _unpruned_guard(n, k, law, quantity)
    if (law.name, n) == ("rademacher", 10**63):     # r = 5's term, e^-720, is subnormal: kept (the threshold is -746)
        assert 0.0 < E._guard(n, 6, law, "Q") < 1e-300
    if (law.name, n) == ("uniform", 10**6):         # terms falling like (2r/(e n))^r: most are pruned
        assert len(E._guard_terms(n, t, law, "Q")[0]) < (t - S.M_LAW) // 2


# --------------------------------------------------------------------------------------------------
# Monte Carlo beyond the rows (fast points; the validation check runs more)
# --------------------------------------------------------------------------------------------------
Z = z_for_false_alarm(1e-6, m=12)


@pytest.mark.parametrize("law,n,ks", [("uniform", 256, (14, 17, 19)), ("rademacher", 256, (14, 17, 19)),
                                      ("sparse:0.2", 512, (14, 18, 22)), ("student:100", 256, (14, 17, 19))])
def test_Q_law_beyond_rows_agrees_with_monte_carlo(law, n, ks):
    mc = real_energy_mc(n, max(ks), 120, probes=16, seed=41, init=law)
    for k in ks:
        r = E.Q_law(n, k, law)
        assert r.source == "expansion"
        assert abs(mc.Q_mean[k] - r.value) <= r.error + Z * mc.Q_se[k], (law, k, mc.Q_mean[k], r.value, mc.Q_se[k])
        s = E.S_law(n, k, law)
        assert abs(mc.S_mean[k] - s.value) <= s.error + Z * mc.S_se[k]


def test_sparse_np_10_rows_against_monte_carlo():
    n = 200                                         # n p = 10: exact rows only, Monte Carlo agrees with them
    est = estimate_Q(n, 8, 120, field="real", seed=7, init="sparse:0.05")
    exact = np.array([float(E.Q_law(n, k, "sparse:0.05", method="exact").value) for k in range(9)])
    se = np.where(est.se > 0, est.se, 1.0)
    assert np.all(np.abs(est.mean - exact) <= Z * se)


def test_long_fuzz_finds_are_refused_by_name():
    """benchmarks/fuzz.py found these on 2026-12-06: a cached float depth accepted, a float mu unnamed, a depth
    that allocated exabytes, an infinite error estimate returned."""
    from theory.init_laws import rows as R
    from theory.init_laws import structure as S
    from theory.real_expansion import MAX_T_LINEAR

    R.cumulant_terms(k=0)
    with pytest.raises(TypeError, match=r"^k must be an integer"):
        R.cumulant_terms(k=0.0)                       # after the integer's value is cached
    got = R.cumulant_terms(2)
    got.clear()
    assert R.cumulant_terms(2)                        # the caller's copy, not the cache
    with pytest.raises(TypeError, match=r"^mu must be an integer"):
        S.coefficient(3, 2.5)
    assert S.coefficient(3, 2) == S.coefficient(3, (2,))
    with pytest.raises(ValueError, match=rf"^t must be an integer <= {MAX_T_LINEAR}"):
        E.truncated_law_expansion(400, MAX_T_LINEAR + 1, "uniform")
    with pytest.raises(OverflowError, match=r"^t=1000000: the error estimate"):
        E.truncated_law_expansion(400, MAX_T_LINEAR, "uniform")


def test_depth_and_sample_shape_bounds_are_named(monkeypatch):
    """benchmarks/fuzz.py: law_max_depth at n = 1e18 allocated 24 GiB (its search reaches MAX_T_LINEAR at most,
    Q_law's bound on t), sample_entries took any shape to numpy."""
    from numerics.signal_propagation import law_sampling
    from numerics.signal_propagation.law_sampling import sample_entries
    from theory.real_expansion import MAX_T_LINEAR

    monkeypatch.setattr(law_sampling, "MAX_ELEMENTS", 24)            # the limit's edge without a gigabyte

    assert E.law_max_depth(10**18, "uniform", quantity="Q") <= MAX_T_LINEAR
    with pytest.raises(ValueError, match=rf"^k must be an integer <= {MAX_T_LINEAR}"):
        E.Q_law(10**18, MAX_T_LINEAR + 1, "uniform")
    rng = np.random.default_rng(0)
    assert sample_entries("uniform", (2, 3), rng).shape == (2, 3) and sample_entries("uniform", 4, rng).shape == (4,)
    assert sample_entries("uniform", (4, 6), rng).size == 24                          # just inside
    with pytest.raises(ValueError, match=r"more than the limit 24"):
        sample_entries("uniform", (5, 5), rng)                                         # just outside
    with pytest.raises(ValueError, match=r"^shape must be"):
        sample_entries("uniform", -1, rng)
    with pytest.raises(TypeError, match=r"^shape must be an integer"):
        sample_entries("uniform", 2.5, rng)
