"""Tests of theory.structured_init and its numerics (Haar sampler, structured Monte Carlo, real identity-noise rows).

Independent references: the moments of a uniform law by its midpoint expansion (no division by b - a),
sympy integrals of the per-network energy of n = 2, 3 iid moduli, brute-force symbolic Gaussian expectations of
``tr((W^k)^* W^k)`` at n = 2 (Isserlis / Wick on the expanded polynomial), the n = 1 groups O(1) = {+1, -1} and
U(1) = phases, scipy's Haar samplers, and Monte Carlo z-tests (z from ``numerics.stats.z_for_false_alarm``).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics.signal_propagation.haar import (_energy_bound, haar_rounding, haar_statistics,
                                              householder_defect_bound, sample_haar)
from numerics.signal_propagation.identity_noise import identity_noise_real_energies, mixed_words
from numerics.signal_propagation.structured_mc import estimate_structured, sample_init
from numerics.stats import agreement, z_for_false_alarm
from theory.structured_init import (MAX_IDENTITY_DEPTH, MAX_VARIANCE_T, IdentityNoiseInit, OrthogonalInit,
                                    Q_structured, RingInit, RotationBlocksInit, S_structured, as_init,
                                    haar_moments, identity_noise_expansion, structured_variance)
from validation.checks import structured_inits as chk
from validation.registry import FAIL, PASS


# --- independent references -----------------------------------------------------------------------------
def ref_mu(a: F, b: F, m: int) -> F:
    """E u^m for u uniform on [a, b] by the midpoint expansion u = c + h s, s uniform on [-1, 1]: valid at a = b."""
    c, h = (a + b) / 2, (b - a) / 2
    return sum((math.comb(m, i) * c ** (m - i) * h ** i / (i + 1) for i in range(0, m + 1, 2)), F(0))


def ref_f_moments(a: F, b: F, coeffs: dict) -> tuple[F, F]:
    """(E f, E f^2) for the polynomial f(u) = sum_m coeffs[m] u^m."""
    sq: dict = {}
    for i, x in coeffs.items():
        for j, y in coeffs.items():
            sq[i + j] = sq.get(i + j, 0) + x * y
    return (sum((x * ref_mu(a, b, m) for m, x in coeffs.items()), F(0)),
            sum((x * ref_mu(a, b, m) for m, x in sq.items()), F(0)))


def f_coeffs(quantity: str, d: int, gamma_norm: bool) -> dict:
    """The per-coordinate energy f(u) as polynomial coefficients (module docstring of theory.structured_init)."""
    if quantity == "Q":
        return {d: 1, d + 1: -1} if gamma_norm else {d: 1}
    return {0: 1, d + 1: -1} if gamma_norm else {m: 1 for m in range(d + 1)}


def rel(x, exact: F) -> float:
    with mpmath.workdps(80):
        e = mpmath.mpf(exact.numerator) / exact.denominator
        return float(abs(mpmath.mpf(x) - e) / abs(e)) if e else float(abs(mpmath.mpf(x)))


def gaussian_expectation(poly: sympy.Expr, zs, ws, field: str) -> sympy.Rational:
    """E of a polynomial in Gaussian entries: complex (z, w = conj z; E z^a w^b = delta_ab a!) or real (z only;
    E z^m = (m-1)!! for even m). The brute-force symbolic route (Isserlis/Wick on every monomial)."""
    gens = list(zs) + list(ws)
    out = sympy.Integer(0)
    for mon, coef in sympy.Poly(sympy.expand(poly), *gens).terms():
        e = sympy.sympify(coef)
        for i in range(len(zs)):
            a = mon[i]
            if field == "complex":
                b = mon[len(zs) + i]
                e *= sympy.factorial(a) if a == b else 0
            else:
                e *= 0 if a % 2 else sympy.factorial2(a - 1)
        out += e
    return out


def brute_identity_Q(n: int, k: int, alpha, beta, field: str) -> F:
    """(1/n) E tr((W^k)^* W^k) for W = alpha I + beta G / sqrt(n), n tiny, by symbolic expectation."""
    zs = sympy.symbols(f"z0:{n * n}")
    ws = sympy.symbols(f"w0:{n * n}") if field == "complex" else ()
    s = sympy.sqrt(n)
    W = sympy.Matrix(n, n, lambda i, j: alpha * (1 if i == j else 0) + beta * zs[i * n + j] / s)
    Wc = W.subs(dict(zip(zs, ws))) if field == "complex" else W
    M, Mc = W ** k, Wc ** k
    tr = sum(M[i, j] * Mc[i, j] for i in range(n) for j in range(n))
    val = gaussian_expectation(tr, zs, ws, field) / n
    return F(int(sympy.fraction(val)[0]), int(sympy.fraction(val)[1]))


# --- orthogonal -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("field", ["real", "complex"])
@pytest.mark.parametrize("method,dps,kind", [("exact", None, F), ("float", None, float), ("mp", 40, mpmath.mpf)])
def test_orthogonal_energies_are_one_and_t_plus_one(field, method, dps, kind):
    init = OrthogonalInit(field)
    for n, d in [(1, 0), (3, 7), (10**30, 10**6)]:
        q = Q_structured(n, d, init, method=method, dps=dps)
        s = S_structured(n, d, init, method=method, dps=dps)
        v = structured_variance(n, d, init, method=method, dps=dps)
        assert isinstance(q, kind) and q == 1 and s == d + 1 and v == 0


def test_haar_moments_at_n_1_are_the_groups_plus_minus_one_and_the_phases():
    # O(1) = {+1, -1}: W_11 = +-1; U(1) = {e^{i phi}}: |W_11| = 1, |tr W^j|^2 = 1
    assert haar_moments(1, "real") == {"W_11": 0, "W_11^2": 1, "W_11^4": 1, "(tr W)^2": 1, "tr W^2": 1}
    assert haar_moments(1) == haar_moments(1, "complex") == {"Re W_11": 0, "|W_11|^2": 1, "|W_11|^4": 1, "|tr W|^2": 1,
                                                                "|tr W^2|^2": 1, "|tr W^3|^2": 1}


def _z_ok(est, se, exact, m):
    return agreement(est, se, exact, z=z_for_false_alarm(m=m))


@pytest.mark.parametrize("field", ["real", "complex"])
@pytest.mark.parametrize("n", [2, 5])
def test_haar_statistics_of_both_samplers_match_the_exact_moments(field, n):
    runs = [haar_statistics(n, 6000, field=field, seed=11 + n, sampler=s) for s in ("qr", "scipy")]
    exact = haar_moments(n, field)
    m = sum(r.mean.size for r in runs) + runs[0].mean.size
    for r in runs:
        ex = np.array([float(exact[k]) for k in r.names])
        a = _z_ok(r.mean, r.se, ex, m)
        assert a.ok, (r.sampler, dict(zip(r.names, a.zscores)))
    # the two samplers against each other: a two-sample z-test on every statistic
    a, b = runs
    diff = _z_ok(a.mean - b.mean, np.hypot(a.se, b.se), np.zeros_like(a.mean), m)
    assert diff.ok, dict(zip(a.names, diff.zscores))


@pytest.mark.parametrize("field", ["real", "complex"])
def test_qr_without_the_sign_fix_is_caught(field):
    """Mutation: LAPACK's Q alone (no diag(R_ii/|R_ii|)) has Re Q_11 <= 0, and the z-test of E W_11 = 0 fails."""
    from numerics.signal_propagation.ginibre import sample_ginibre

    Z = sample_ginibre(5, 3000, field=field, seed=3, normalised=False)
    Q = np.linalg.qr(Z)[0]
    x = Q[:, 0, 0].real
    assert np.all(x <= 0)
    assert not _z_ok([x.mean()], [x.std(ddof=1) / math.sqrt(x.size)], [0.0], 1).ok
    W = sample_haar(5, 3000, field=field, seed=3)              # the same Z with the fix passes
    y = W[:, 0, 0].real
    assert _z_ok([y.mean()], [y.std(ddof=1) / math.sqrt(y.size)], [0.0], 1).ok


@pytest.mark.parametrize("field", ["real", "complex"])
def test_haar_energy_per_draw_is_one_within_the_rounding_bound(field):
    r = haar_rounding(32, 20, 12, field=field, seed=4)
    assert np.all(r.deviation <= r.bound)
    assert np.all(r.defect <= householder_defect_bound(32))
    assert np.all(r.bound < 1e-10) and np.all(r.deviation > 0)       # computed in float64: not exactly 1
    # a matrix 1e-9 away from orthogonal leaves the bound of an orthogonal one far behind: 2k 1e-9 = 4e-8
    W = sample_haar(32, 1, field=field, seed=4)[0] * (1 + 1e-9)
    v = np.ones(32)
    for _ in range(20):
        v = W @ v
    assert abs(np.vdot(v, v).real / 32 - 1) > 100 * r.bound.max()


def test_rounding_bound_grows_with_the_defect_and_the_depth():
    b = _energy_bound(16, 10, np.array([0.0, 1e-12, 1e-6]))
    assert np.all(np.diff(b) > 0) and b[2] >= 10 * 1e-6          # a defect eta costs about k eta
    assert _energy_bound(16, 20, np.array([0.0]))[0] > _energy_bound(16, 10, np.array([0.0]))[0]


@pytest.mark.parametrize("field", ["real", "complex"])
def test_orthogonal_driven_energy_mean_and_variance_by_monte_carlo(field):
    n, t = 12, 10
    e = estimate_structured(n, t, 3000, OrthogonalInit(field), seed=21)
    ts = np.arange(t + 1)
    c = 2.0 if field == "real" else 1.0          # h(t) ~ N(0, (t+1) I) given W: (t+1) chi^2 / n
    m = 2 * (t + 1)
    assert _z_ok(e.driven_mean, e.driven_se, ts + 1.0, m).ok
    assert _z_ok(e.driven_var, e.driven_var_se, c * (ts + 1.0) ** 2 / n, m).ok
    assert np.max(np.abs(e.Q_mean - 1)) < 1e-12 and np.max(np.abs(e.S_mean - ts - 1)) < 1e-11
    assert np.max(e.Q_var) < 1e-25                                   # no fluctuation of the per-network energy


# --- ring: exact closed forms against the independent references ----------------------------------------
rationals = st.fractions(min_value=0, max_value=1, max_denominator=12)


@settings(max_examples=40, deadline=None)
@given(r1=rationals, r2=rationals, d=st.integers(0, 9), gamma_norm=st.booleans(), quantity=st.sampled_from("QS"),
       blocks=st.booleans(), n=st.integers(1, 50))
def test_ring_exact_mean_and_variance_equal_the_midpoint_reference(r1, r2, d, gamma_norm, quantity, blocks, n):
    lo, hi = sorted((r1, r2))
    n = 2 * n if blocks else n
    init = (RotationBlocksInit if blocks else RingInit)(lo, hi, gamma_norm=gamma_norm)
    mean, second = ref_f_moments(lo * lo, hi * hi, f_coeffs(quantity, d, gamma_norm))
    fn = Q_structured if quantity == "Q" else S_structured
    assert fn(n, d, init, method="exact") == mean
    assert structured_variance(n, d, init, quantity=quantity, method="exact") == (2 if blocks else 1) * (
        second - mean * mean) / n


@settings(max_examples=40, deadline=None)
@given(r1=rationals, r2=rationals, d=st.integers(0, 60), gamma_norm=st.booleans(), quantity=st.sampled_from("QS"),
       dps=st.integers(10, 50))
def test_ring_float_and_mp_equal_exact(r1, r2, d, gamma_norm, quantity, dps):
    lo, hi = sorted((r1, r2))
    init = RingInit(lo, hi, gamma_norm=gamma_norm)
    fn = Q_structured if quantity == "Q" else S_structured
    for value, exact in [(fn(7, d, init), fn(7, d, init, method="exact")),
                         (structured_variance(7, d, init, quantity=quantity),
                          structured_variance(7, d, init, quantity=quantity, method="exact"))]:
        if exact == 0:
            assert value == 0
        elif abs(exact) > F(1, 10**300):
            assert rel(value, exact) <= 3e-16
    assert rel(fn(7, d, init, method="mp", dps=dps), fn(7, d, init, method="exact")) <= 10.0 ** (1 - dps) or \
        fn(7, d, init, method="exact") == 0


def test_per_network_variance_is_var_f_over_n_by_symbolic_integration():
    """The per-network energy e = (1/n) sum_j f(u_j) of n = 2 and 3 iid moduli, integrated with sympy."""
    u = sympy.symbols("u0:3")
    a, b = sympy.Rational(1, 4), sympy.Rational(81, 100)
    for quantity, d, gamma_norm in [("Q", 3, False), ("S", 2, False), ("Q", 2, True), ("S", 3, True)]:
        c = f_coeffs(quantity, d, gamma_norm)
        f = [sum(x * ui ** m for m, x in c.items()) for ui in u]
        init = RingInit(F(1, 2), F(9, 10), gamma_norm=gamma_norm)
        for n in (2, 3):
            e = sum(f[:n]) / n
            mean, second = e, e * e
            for ui in u[:n]:
                mean = sympy.integrate(mean, (ui, a, b)) / (b - a)
                second = sympy.integrate(second, (ui, a, b)) / (b - a)
            var = second - mean ** 2
            assert structured_variance(n, d, init, quantity=quantity, method="exact") == F(str(var)), (quantity, n)


def test_rotation_blocks_share_a_modulus_by_symbolic_integration():
    u0, u1 = sympy.symbols("u0 u1")
    a, b = sympy.Rational(0), sympy.Rational(1)
    e = (2 * u0 ** 3 + 2 * u1 ** 3) / 4                  # n = 4: two blocks, each modulus on two coordinates
    mean = sympy.integrate(sympy.integrate(e, (u0, a, b)), (u1, a, b))
    var = sympy.integrate(sympy.integrate(e * e, (u0, a, b)), (u1, a, b)) - mean ** 2
    assert structured_variance(4, 3, RotationBlocksInit(0, 1), quantity="Q", method="exact") == F(str(var))
    assert Q_structured(4, 3, RotationBlocksInit(0, 1), method="exact") == F(str(mean)) == F(1, 4)


def test_the_phase_does_not_enter():
    for theta in (0.0, math.pi / 10, 2 * math.pi):
        for fn in (Q_structured, S_structured):
            assert fn(8, 5, RingInit(F(1, 2), 1, theta), method="exact") == fn(8, 5, RingInit(F(1, 2), 1),
                                                                                method="exact")


def test_driven_mean_closed_form_beyond_the_direct_sum():
    """t > 2000 uses the Lerch closed form: equal to a direct 60-digit sum of the moments mu_m (closed form per
    m, no recursion) near the switch and far beyond, for r_max < 1 and r_max = 1."""
    for init in (RingInit(F(1, 2), F(99, 100)), RingInit(F(1, 2), 1), RingInit(0, 1), RingInit(F(9, 10), F(9, 10))):
        a, b = init.a, init.b
        for t in (1999, 2000, 2001, 2600):
            with mpmath.workdps(60):
                am, bm = mpmath.mpf(a.numerator) / a.denominator, mpmath.mpf(b.numerator) / b.denominator
                ref = mpmath.fsum((bm ** (m + 1) - am ** (m + 1)) / ((m + 1) * (bm - am)) if a != b else am ** m
                                  for m in range(t + 1))
                got = S_structured(8, t, init, method="mp", dps=40)
                assert abs(got - ref) <= mpmath.mpf(10) ** -39 * ref, (init, t)
    # t -> oo with r_max < 1: -log(1 - b) / b at a = 0 (the tail is below 1e-300 at t = 1e6)
    with mpmath.workdps(40):
        limit = 4 * mpmath.log(mpmath.mpf(4) / 3)
        assert abs(S_structured(8, 10**6, RingInit(0, F(1, 2)), method="mp", dps=30) - limit) < mpmath.mpf(10) ** -29


def test_closed_forms_in_the_module_docstring():
    a, b = F(1, 4), F(1)
    init = RingInit(F(1, 2), 1)
    assert Q_structured(3, 4, init, method="exact") == (b ** 5 - a ** 5) / (5 * (b - a))
    assert S_structured(3, 3, RingInit(F(1, 2), 1, gamma_norm=True), method="exact") == 1 - ref_mu(a, b, 4)


@settings(max_examples=30, deadline=None)
@given(r1=rationals, r2=rationals, d=st.integers(0, 12))
def test_ring_properties(r1, r2, d):
    lo, hi = sorted((r1, r2))
    ring, norm = RingInit(lo, hi), RingInit(lo, hi, gamma_norm=True)
    q = [Q_structured(5, k, ring, method="exact") for k in range(d + 2)]
    assert all(1 >= x >= y >= 0 for x, y in zip(q, q[1:]))                 # u <= 1: non-increasing
    assert S_structured(5, d, ring, method="exact") == sum(q[:d + 1]) <= d + 1
    s_norm = [S_structured(5, k, norm, method="exact") for k in range(d + 2)]
    assert s_norm[d] == sum(Q_structured(5, k, norm, method="exact") for k in range(d + 1))
    assert all(0 <= x <= y <= 1 for x, y in zip(s_norm, s_norm[1:]))
    v = [structured_variance(n, d, ring, quantity="S", method="exact") for n in (1, 4, 10)]
    assert v[0] == 4 * v[1] == 10 * v[2] >= 0                              # exactly 1/n


def test_disc_fluctuation_grows_like_2_ln_2_t():
    """The results page: for the whole disc without normalisation, E f^2 = sum_{j,l<T} 1/(j+l+1) = 2 ln 2 T - 1/2
    + O(1/T) (T = t + 1), so n Var S_t grows linearly in t while S_t ~ log t."""
    for t in (100, 1000, 10**4):
        second = structured_variance(1, t, RingInit(0, 1)) + S_structured(1, t, RingInit(0, 1)) ** 2
        assert abs(second - (2 * math.log(2) * (t + 1) - 0.5)) < 2.0 / t


def test_mp_uses_a_local_precision_and_the_ambient_default():
    before = mpmath.mp.prec
    Q_structured(8, 10, RingInit(F(999, 1000), 1, gamma_norm=True), method="mp", dps=200)
    assert mpmath.mp.prec == before
    with mpmath.workdps(50):
        x = S_structured(8, 10, RingInit(F(1, 3), 1), method="mp")
    assert rel(x, S_structured(8, 10, RingInit(F(1, 3), 1), method="exact")) < 1e-49


def test_deep_cancellation_is_resolved():
    # r_min, r_max 1e-15 apart: the variance cancels ~30 digits; normalised Q at |lambda| ~ 1 cancels too
    init = RingInit(1 - F(1, 10**15), 1, gamma_norm=True)
    for quantity in "QS":
        ex = structured_variance(3, 40, init, quantity=quantity, method="exact")
        assert rel(structured_variance(3, 40, init, quantity=quantity), ex) < 3e-16
        assert rel(structured_variance(3, 40, init, quantity=quantity, method="mp", dps=30), ex) < 1e-29
    assert rel(Q_structured(3, 40, init), Q_structured(3, 40, init, method="exact")) < 3e-16


# --- ring: Monte Carlo ----------------------------------------------------------------------------------
RING_MC = [(4, RingInit(F(1, 2), F(99, 100))), (64, RingInit(F(9, 10), F(999, 1000), math.pi / 10, True)),
           (8, RotationBlocksInit(F(1, 2), 1, gamma_norm=True)), (300, RingInit(0, 1))]


@pytest.mark.parametrize("n,init", RING_MC)
def test_ring_monte_carlo_means_and_variances(n, init):
    t = 16
    e = estimate_structured(n, t, 4000, init, seed=5)
    ks = range(t + 1)
    Q = np.array([Q_structured(n, k, init) for k in ks])
    S = np.array([S_structured(n, k, init) for k in ks])
    VQ = np.array([structured_variance(n, k, init, quantity="Q") for k in ks])
    VS = np.array([structured_variance(n, k, init, quantity="S") for k in ks])
    keep = VS > 0
    pieces = [(e.Q_mean, e.Q_se, Q), (e.S_mean[keep], e.S_se[keep], S[keep]), (e.driven_mean, e.driven_se, S),
              (e.Q_var[VQ > 0], e.Q_var_se[VQ > 0], VQ[VQ > 0]), (e.S_var[keep], e.S_var_se[keep], VS[keep])]
    pieces = [(x[s > 0], s[s > 0], y[s > 0]) for x, s, y in pieces]
    m = sum(p[0].size for p in pieces)
    for est, se, ex in pieces:
        a = _z_ok(est, se, ex, m)
        assert a.ok, a.zscores


def test_ring_monte_carlo_rejects_a_wrong_law_and_a_wrong_width_law():
    """The z-tests can fail: |lambda| uniform (not |lambda|^2) and a variance without its 1/n are rejected."""
    n, t = 16, 8
    e = estimate_structured(n, t, 4000, RingInit(0, 1), seed=6)
    ks = np.arange(1, t + 1)
    assert not _z_ok(e.Q_mean[1:], e.Q_se[1:], 1 / (2 * ks + 1.0), ks.size).ok          # E r^(2k), r uniform
    assert _z_ok(e.Q_mean[1:], e.Q_se[1:], 1 / (ks + 1.0), ks.size).ok                  # E u^k, u uniform
    var_f = np.array([structured_variance(1, k, RingInit(0, 1), quantity="Q") for k in ks])
    assert not _z_ok(e.Q_var[1:], e.Q_var_se[1:], var_f / (n / 2), ks.size).ok
    assert _z_ok(e.Q_var[1:], e.Q_var_se[1:], var_f / n, ks.size).ok


def test_sample_init_follows_the_ring_law():
    W = sample_init(64, 64, RingInit(F(1, 2), F(9, 10), math.pi / 10), seed=2)
    lam = np.diagonal(W, axis1=1, axis2=2)
    assert np.all(np.abs(np.abs(lam) - 0.7) <= 0.2 + 1e-15)
    assert np.all((np.angle(lam) >= -1e-15) & (np.angle(lam) <= math.pi / 10 + 1e-15))
    u = (np.abs(lam) ** 2).ravel()                   # uniform on [1/4, 81/100]: mean 0.53, var 0.56^2/12
    assert _z_ok([u.mean()], [u.std(ddof=1) / math.sqrt(u.size)], [0.53], 2).ok
    assert np.array_equal(W[:32], sample_init(64, 32, RingInit(F(1, 2), F(9, 10), math.pi / 10), seed=2))


# --- identity plus noise --------------------------------------------------------------------------------
@pytest.mark.parametrize("n,k", [(2, 1), (2, 2), (2, 3), (3, 2)])
def test_identity_noise_complex_equals_the_brute_force_expectation(n, k):
    for alpha, beta in [(1, F(1, 2)), (F(-2, 3), 3), (0, 1)]:
        ref = brute_identity_Q(n, k, sympy.Rational(str(alpha)), sympy.Rational(str(beta)), "complex")
        assert Q_structured(n, k, IdentityNoiseInit(alpha, beta), method="exact") == ref


@pytest.mark.parametrize("n,k", [(2, 1), (2, 2), (2, 3), (3, 2)])
def test_identity_noise_real_rows_equal_the_brute_force_expectation(n, k):
    for alpha, beta in [(1, F(1, 2)), (F(-2, 3), 3)]:
        ref = brute_identity_Q(n, k, sympy.Rational(str(alpha)), sympy.Rational(str(beta)), "real")
        assert identity_noise_real_energies(n, k, alpha, beta)[k] == ref


def test_identity_noise_real_with_alpha_zero_is_the_real_ginibre_row():
    from theory.real_rows import real_Q

    for n, k in [(3, 5), (10, 8)]:
        assert identity_noise_real_energies(n, k, 0, 1)[k] == real_Q(n, k)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 10**6), d=st.integers(0, 30), alpha=st.fractions(-3, 3, max_denominator=5),
       beta=st.fractions(-3, 3, max_denominator=5), dps=st.integers(10, 40))
def test_identity_noise_paths_and_symmetries(n, d, alpha, beta, dps):
    init = IdentityNoiseInit(alpha, beta)
    q = Q_structured(n, d, init, method="exact")
    assert q == Q_structured(n, d, IdentityNoiseInit(-alpha, -beta), method="exact")     # only alpha^2, beta^2
    s = S_structured(n, d, init, method="exact")
    assert s == sum(Q_structured(n, k, init, method="exact") for k in range(d + 1))
    for quantity, fn, exact in (("Q", Q_structured, q), ("S", S_structured, s)):
        if exact:
            assert rel(fn(n, d, init), exact) < 1e-12
            assert rel(fn(n, d, init, method="mp", dps=dps), exact) < 10.0 ** (1 - dps)
        else:
            assert fn(n, d, init) == 0


def test_identity_noise_limits():
    from theory.signal_energy import Q

    assert Q_structured(9, 6, IdentityNoiseInit(0, F(1, 2)), method="exact") == F(1, 4) ** 6 * Q(9, 6, method="exact")
    assert Q_structured(9, 6, IdentityNoiseInit(F(3, 2), 0), method="exact") == F(9, 4) ** 6


def test_mixed_word_limits_and_the_first_order_expansion_on_exact_rows():
    words = mixed_words(12)
    for (j, l), p in words.items():
        top = p[(j + l) // 2] if len(p) > (j + l) // 2 else 0
        if j != l:
            assert top == min(j, l) + 1, (j, l, p)                          # lim E tr((X^T)^j X^l)
        else:
            assert p[j + 1] == 1 and (j == 0 or p[j] == 0)                  # Q^R_{n,j} = 1 + O(1/n^2)
    for k in range(11):
        for alpha, beta in [(1, F(1, 2)), (F(2, 3), F(5, 7))]:
            got = identity_noise_expansion(k, IdentityNoiseInit(alpha, beta, "real"))
            assert got == chk._first_order_from_rows(words, k, F(alpha), beta), k
            assert identity_noise_expansion(k, IdentityNoiseInit(alpha, beta))[1] == 0


def test_real_identity_noise_has_a_1_over_n_correction_and_complex_does_not():
    init_r, init_c = IdentityNoiseInit(1, F(1, 2), "real"), IdentityNoiseInit(1, F(1, 2))
    q_inf, c1 = identity_noise_expansion(6, init_r)
    assert c1 > 0
    rest = {n: (identity_noise_real_energies(n, 6, 1, F(1, 2))[6] - q_inf) * n - c1 for n in (10**3, 10**6)}
    assert abs(rest[10**6]) < abs(rest[10**3]) / 900                     # the rest is O(1/n^2): n (Q - Q_inf) -> c_1
    rest_c = {n: (Q_structured(n, 6, init_c, method="exact") - q_inf) * n for n in (10**3, 10**6)}
    assert abs(rest_c[10**6]) < abs(rest_c[10**3]) / 900                 # complex: n (Q - Q_inf) -> 0


@pytest.mark.parametrize("field", ["complex", "real"])
def test_identity_noise_monte_carlo(field):
    n, t, alpha, beta = 8, 6, 1, F(1, 2)
    init = IdentityNoiseInit(alpha, beta, field)
    e = estimate_structured(n, t, 3000, init, seed=8)
    Q = np.array([Q_structured(n, k, init) for k in range(t + 1)] if field == "complex" else
                 [float(q) for q in identity_noise_real_energies(n, t, alpha, beta)])
    m = 2 * t + 1
    assert _z_ok(e.Q_mean[1:], e.Q_se[1:], Q[1:], m).ok
    assert _z_ok(e.driven_mean, e.driven_se, np.cumsum(Q), m).ok


# --- names, bad input ------------------------------------------------------------------------------------
def test_names():
    assert as_init("orthogonal") == OrthogonalInit("real") and as_init("unitary") == OrthogonalInit("complex")
    assert as_init("ring") == RingInit()
    assert as_init("ring:r_min=0.9,r_max=0.999,gamma_norm=true") == RingInit(F(9, 10), F(999, 1000), gamma_norm=True)
    assert as_init("rotation-blocks:r_max=0.5") == RotationBlocksInit(0, F(1, 2))
    assert as_init("identity-noise:alpha=1,beta=0.1,field=real") == IdentityNoiseInit(1, F(1, 10), "real")
    assert Q_structured(4, 3, "ring:r_min=0.5", method="exact") == Q_structured(4, 3, RingInit(F(1, 2)), method="exact")


@pytest.mark.parametrize("kwargs,exc,name", [
    (dict(r_min=0.6, r_max=0.5), ValueError, "r_max"), (dict(r_min=-0.1), ValueError, "r_min"),
    (dict(r_max=1.5), ValueError, "r_max"), (dict(r_max=F(10**30 + 1, 10**30)), ValueError, "r_max"),
    (dict(theta_max=7.0), ValueError, "theta_max"), (dict(theta_max=-1.0), ValueError, "theta_max"),
    (dict(r_min="0.5"), TypeError, "r_min"), (dict(r_max=math.nan), ValueError, "r_max"),
    (dict(gamma_norm=1), TypeError, "gamma_norm"), (dict(r_min=True), TypeError, "r_min"),
])
def test_bad_ring_parameters(kwargs, exc, name):
    for cls in (RingInit, RotationBlocksInit):
        with pytest.raises(exc, match=name):
            cls(**kwargs)


def test_bad_arguments():
    with pytest.raises(ValueError, match="field"):
        OrthogonalInit("quaternion")
    with pytest.raises(ValueError, match="beta"):
        IdentityNoiseInit(1, 1e7)
    with pytest.raises(TypeError, match="init"):
        Q_structured(4, 2, 3.0)
    for bad in ("gaussian", "ring:rmin=0.5", "ring:r_min=x", "orthogonal:r_min=0.5", "ring:gamma_norm=maybe"):
        with pytest.raises(ValueError, match="init"):
            as_init(bad)
    with pytest.raises(ValueError, match="n must be even"):
        Q_structured(5, 2, RotationBlocksInit())
    with pytest.raises(ValueError, match="n must be even"):
        estimate_structured(5, 2, 8, RotationBlocksInit())
    for fn in (Q_structured, S_structured):
        with pytest.raises(ValueError, match="n"):
            fn(0, 2, "ring")
        with pytest.raises(ValueError, match="k|t"):
            fn(4, -1, "ring")
        with pytest.raises(TypeError, match="k|t"):
            fn(4, 2.0, "ring")
        with pytest.raises(ValueError, match="method"):
            fn(4, 2, "ring", method="ball")
        with pytest.raises(ValueError, match="dps"):
            fn(4, 2, "ring", dps=30)
        with pytest.raises(ValueError, match="numerics.signal_propagation.identity_noise"):
            fn(4, 2, IdentityNoiseInit(1, 1, "real"))
        with pytest.raises(ValueError, match="k|t"):
            fn(4, MAX_IDENTITY_DEPTH + 1, IdentityNoiseInit(1, 1))
    with pytest.raises(ValueError, match="quantity"):
        structured_variance(4, 2, "ring", quantity="R")
    with pytest.raises(ValueError, match="estimate_structured"):
        structured_variance(4, 2, IdentityNoiseInit(1, 1))
    with pytest.raises(ValueError, match="t"):
        structured_variance(4, MAX_VARIANCE_T + 1, "ring")
    with pytest.raises(ValueError, match="method='mp'"):
        S_structured(4, 20000, RingInit(0.9, 0.999), method="exact")
    with pytest.raises(ValueError, match="sampler"):
        haar_statistics(4, 10, sampler="mezzadri")
    with pytest.raises(ValueError, match="n must be >= 2"):
        haar_statistics(1, 10, sampler="scipy")
    with pytest.raises(ValueError, match="samples"):
        estimate_structured(4, 2, 2, "ring")
    with pytest.raises(TypeError, match="progress"):
        estimate_structured(4, 2, 8, "ring", progress="yes")


# --- the validation verdicts on synthetic data: each can fail ---------------------------------------------
def _ring_point(shift=0.0):
    t = 3
    x = np.linspace(1.0, 0.5, t + 1)
    se = np.full(t + 1, 0.01)
    return dict(label="p", n=8, Q=x, S=np.cumsum(x), VQ=x / 10, VS=x / 5, Q_mean=x + shift, Q_se=se,
                S_mean=np.cumsum(x), S_se=se, driven_mean=np.cumsum(x), driven_se=se, Q_var=x / 10,
                Q_var_se=se, S_var=x / 5, S_var_se=se)


def test_verdict_ring_passes_and_fails():
    assert chk.verdict_ring(dict(t=3, points=[_ring_point()])).verdict == PASS
    assert chk.verdict_ring(dict(t=3, points=[_ring_point(shift=0.1)])).verdict == FAIL     # 10 se off


def _orthogonal_data(excess=-1e-15, defect=1e-15):
    ts = np.arange(3)
    return dict(stats=[dict(field="real", sampler="qr", names=("W_11",), mean=np.array([0.001]),
                            se=np.array([0.01]), exact=np.array([0.0]))],
                rounding=[dict(field="real", n=4, k=3, deviation=1e-15, bound=1e-13, excess=excess, defect=defect,
                               defect_bound=1e-14)],
                driven=[dict(field="real", n=4, mean=ts + 1.0, se=np.full(3, 0.1), exact=ts + 1.0, var=ts + 1.0,
                             var_se=np.full(3, 0.1), var_exact=ts + 1.0, Q_dev=0.0, S_dev=0.0)])


def test_verdict_orthogonal_passes_and_fails():
    assert chk.verdict_orthogonal(_orthogonal_data()).verdict == PASS
    assert chk.verdict_orthogonal(_orthogonal_data(excess=1e-16)).verdict == FAIL
    assert chk.verdict_orthogonal(_orthogonal_data(defect=1e-13)).verdict == FAIL


def test_verdict_identity_noise_passes_and_fails():
    run = dict(field="real", n=8, Q=np.ones(3), S=np.arange(1.0, 4.0), Q_mean=np.ones(3), Q_se=np.full(3, 0.1),
               driven_mean=np.arange(1.0, 4.0), driven_se=np.full(3, 0.1))
    good = dict(runs=[run], expansion=[dict(k=1, q_inf=F(2), c1=F(0), rows=(F(2), F(0)))], tops=[(0, 2, 1)], k_rows=1)
    assert chk.verdict_identity_noise(good).verdict == PASS
    assert chk.verdict_identity_noise(dict(good, tops=[(0, 2, 2)])).verdict == FAIL
    assert chk.verdict_identity_noise(dict(good, expansion=[dict(k=1, q_inf=F(2), c1=F(1), rows=(F(2), F(0)))])
                                      ).verdict == FAIL


@pytest.mark.parametrize("value", ["uniform", "sparse:0.1", "student:5"])
def test_an_iid_law_where_a_structured_init_is_taken_says_where_it_belongs(value):
    from theory.init_laws.laws import as_law
    from theory.structured_init import Q_structured
    for v in (value, as_law(value)):
        with pytest.raises((TypeError, ValueError), match=r"^init .*that is an iid law of the entries.*Q_law / S_law"):
            Q_structured(16, 3, v)
    with pytest.raises(ValueError, match=r"^init must be one of .*got 'cauchy'$"):   # neither family: no hint
        Q_structured(16, 3, "cauchy")


@pytest.mark.parametrize("value", ["orthogonal", "ring:r_min=0.9,r_max=0.99", "identity-noise:alpha=1,beta=0.1"])
def test_a_structured_init_where_an_iid_law_is_taken_says_where_it_belongs(value):
    from theory.horizon import max_horizon
    from theory.init_laws import Q_law
    from theory.structured_init import as_init
    for v in (value, as_init(value)):
        for call in (lambda: Q_law(16, 3, v), lambda: max_horizon(64, 0.1, init=v)):
            with pytest.raises((TypeError, ValueError), match=r"that is a structured initialisation.*Q_structured"):
                call()
    with pytest.raises(ValueError, match=r"got 'cauchy'$"):
        Q_law(16, 3, "cauchy")
