"""theory.levy: the CTS jump symbol, the characteristic equation for beta, threshold, phases, mp and sympy
paths. References are independent of the closed forms: mpmath quadrature of the defining integral, direct
sign evaluation of Phi, sympy evaluation, and the special cases printed in docs/papers/anti-collapse.md."""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import given, strategies as st

from theory.levy import (LevyParams, Phi, Phi_symbolic, characteristic_root, critical_eta_J, critical_kappa,
                         jump_exponent, jump_symbol, phase, phase_of_beta, threshold_eta_J)


def _psi_by_quadrature(beta, eta_J, alpha, lam, C=1.0, dps=30):
    """int (cosh(beta y) - 1) nu(dy) by mpmath quad, after y = t^(1/(2-alpha)) which makes the integrand
    smooth at 0 (y^(1-alpha) dy = dt/(2-alpha)); cosh - 1 written as 2 sinh^2 to avoid cancellation."""
    with mpmath.workdps(dps):
        b, a, lm = mpmath.mpf(beta), mpmath.mpf(alpha), mpmath.mpf(lam)

        def g(t):
            y = t ** (1 / (2 - a))
            return 2 * mpmath.sinh(b * y / 2) ** 2 / y ** 2 * mpmath.exp(-lm * y) / (2 - a)

        return float(2 * eta_J * C * mpmath.quad(g, [0, 1, 10, 100, mpmath.inf]))


# --- jump symbol against the defining integral ------------------------------------------------------
@pytest.mark.parametrize("alpha", [0.3, 0.75, 1.0, 1.25, 1.5, 1.9])
@pytest.mark.parametrize("beta", [1e-7, 0.05, 0.4, 1.1, 1.7, -0.9])
def test_jump_symbol_equals_defining_integral(alpha, beta):
    eta_J, lam, C = 0.7, 1.8, 1.3
    ref = _psi_by_quadrature(abs(beta), eta_J, alpha, lam, C)
    got = jump_symbol(beta, eta_J=eta_J, alpha=alpha, lam=lam, C=C)
    assert abs(got - ref) <= 1e-12 * ref


@pytest.mark.parametrize("alpha", [0.4, 1.0, 1.6])
def test_jump_symbol_matches_spec_bracket_form(alpha):
    # the forms printed in docs/papers/anti-collapse.md, evaluated directly in mpmath (not the exprel/series form of the module)
    lam, b = 2.5, 1.3
    with mpmath.workdps(40):
        if alpha == 1.0:
            br = ((lam - b) * mpmath.log(lam - b) + (lam + b) * mpmath.log(lam + b) - 2 * lam * mpmath.log(lam))
        else:
            a = mpmath.mpf(alpha)
            br = mpmath.gamma(-a) * ((lam - b) ** a + (lam + b) ** a - 2 * lam ** a)
        ref = float(0.9 * br)
    assert abs(jump_symbol(b, eta_J=0.9, alpha=alpha, lam=lam) - ref) <= 1e-14 * ref


def test_jump_symbol_vectorised_and_infinite_beyond_lambda():
    b = np.array([[0.0, 0.5], [2.0, 2.0001]])
    v = jump_symbol(b, eta_J=1.0, alpha=1.5, lam=2.0)
    assert v.shape == (2, 2) and v[0, 0] == 0.0 and np.isfinite(v[1, 0]) and v[1, 1] == np.inf
    for i, bi in enumerate(b.ravel()[:3]):
        assert v.ravel()[i] == jump_symbol(float(bi), eta_J=1.0, alpha=1.5, lam=2.0)
    assert jump_symbol(-2.5, eta_J=1.0, alpha=0.5, lam=2.0) == np.inf
    assert isinstance(jump_symbol(0.3, eta_J=1.0, alpha=0.5, lam=2.0), float)


def test_jump_symbol_continuous_through_alpha_one():
    at1 = jump_symbol(0.8, eta_J=1.0, alpha=1.0, lam=1.5)
    for d in (1e-4, 1e-7):
        for a in (1 - d, 1 + d):
            assert abs(jump_symbol(0.8, eta_J=1.0, alpha=a, lam=1.5) - at1) <= 10 * d * at1


def test_small_beta_is_half_the_jump_variance():
    # Psi*(b) = b^2/2 int y^2 nu(dy) + O(b^4); int y^2 nu = 2 eta_J C Gamma(2-a) lam^(a-2)
    for a in (0.5, 1.0, 1.7):
        var = 2 * 0.6 * math.gamma(2 - a) * 1.2 ** (a - 2)
        b = 1e-5
        assert abs(jump_symbol(b, eta_J=0.6, alpha=a, lam=1.2) / (0.5 * var * b * b) - 1) < 1e-9


@given(beta=st.floats(-3, 3), alpha=st.floats(0.01, 1.99), lam=st.floats(0.05, 5), eta_J=st.floats(0, 10))
def test_psi_nonnegative_even_and_convex(beta, alpha, lam, eta_J):
    kw = dict(eta_J=eta_J, alpha=alpha, lam=lam)
    v = jump_symbol(beta, **kw)
    assert v >= 0.0
    assert v == jump_symbol(-beta, **kw)
    if abs(beta) < 0.9 * lam:                     # midpoint convexity on a small chord
        h = 0.05 * lam
        assert jump_symbol(beta - h, **kw) + jump_symbol(beta + h, **kw) >= 2 * v * (1 - 1e-12) - 1e-300


# --- the root ----------------------------------------------------------------------------------------
@given(eta_G=st.floats(0, 2), kappa=st.floats(0.05, 5), eta_J=st.floats(1e-3, 5), alpha=st.floats(0.05, 1.95),
       lam=st.floats(0.1, 6))
def test_root_is_the_unique_sign_change(eta_G, kappa, eta_J, alpha, lam):
    kw = dict(eta_G=eta_G, kappa=kappa, eta_J=eta_J, alpha=alpha, lam=lam)
    r = characteristic_root(**kw)
    assert 0.0 < r <= lam
    grid = np.linspace(0, lam, 401)[1:-1]
    phi = Phi(grid, **kw)
    if r == lam:
        assert Phi(lam, **kw) <= 0.0 and np.all(phi < 0.0)       # no root: tempering sets the tail
    else:
        # a sign change within a relative 1e-13 of r (Phi can be very steep near lam, where Psi*' is
        # infinite for alpha < 1, so |Phi(r)| itself is not a fair yardstick)
        d = 1e-13 * r
        assert Phi(r - d, **kw) <= 0.0 <= Phi(min(r + d, lam), **kw)
        assert np.all(phi[grid < r * (1 - 1e-9)] < 0) and np.all(phi[grid > r * (1 + 1e-9)] > 0)


def test_gaussian_only_gives_kappa_over_eta_G():
    for lam in (0.1, 1.0, 100.0):
        kw = dict(eta_G=0.2, kappa=0.9, eta_J=0.0, alpha=1.3, lam=lam)
        assert characteristic_root(**kw) == 0.9 / 0.2
        assert Phi(0.9 / 0.2, **kw) == 0.0                    # no jumps: Psi* = 0 even beyond lam
    assert jump_symbol([0.5, 5.0], eta_J=0.0, alpha=0.5, lam=1.0).tolist() == [0.0, 0.0]


@pytest.mark.parametrize("alpha", [0.5, 1.0, 1.5])
def test_monotonicity_claims(alpha):
    base = dict(eta_G=0.2, kappa=1.0, eta_J=0.6, alpha=alpha, lam=2.0)
    r0 = characteristic_root(**base)
    assert r0 < base["lam"]                                  # a genuine root, so strict changes are visible
    for key, factor in (("eta_J", 1.5), ("eta_G", 1.5), ("kappa", 1 / 1.5)):
        assert characteristic_root(**{**base, key: base[key] * factor}) < r0, key


def test_tempering_sets_the_tail():
    kw = dict(eta_G=0.01, kappa=3.0, eta_J=0.05, alpha=0.7, lam=0.5)
    assert Phi(0.5, **kw) < 0 and characteristic_root(**kw) == 0.5


# --- threshold and critical manifold ------------------------------------------------------------------
@given(eta_G=st.floats(0, 0.9), alpha=st.floats(0.05, 1.95), lam=st.floats(1.0, 8.0))
def test_threshold_gives_beta_one(eta_G, alpha, lam):
    kw = dict(eta_G=eta_G, kappa=1.0, alpha=alpha, lam=lam)
    ej = threshold_eta_J(**kw)
    assert ej > 0
    if lam > 1.0:
        assert abs(characteristic_root(eta_J=ej, **kw) - 1.0) < 1e-10
        assert characteristic_root(eta_J=ej * 1.01, **kw) < 1.0 < characteristic_root(eta_J=ej * 0.99, **kw)
    else:                                  # lam = 1: beta_eff = 1 up to eta_J*, below 1 beyond
        # beta_eff = 1 up to eta_J*; beyond, Phi(1) > 0 puts the root below 1 (for alpha < 1 only by a hair:
        # Psi*' is infinite at lam, so compare the signs of Phi(1) rather than the roots)
        assert characteristic_root(eta_J=ej * 0.99, **kw) == 1.0 >= characteristic_root(eta_J=ej * 1.01, **kw)
        assert Phi(1.0, eta_J=ej * 0.99, **kw) < 0 < Phi(1.0, eta_J=ej * 1.01, **kw)
    assert abs(Phi(1.0, eta_J=ej, **kw)) < 1e-12


def test_threshold_special_cases():
    assert threshold_eta_J(eta_G=1.0, kappa=1.0, alpha=1.5, lam=3.0) == 0.0
    assert threshold_eta_J(eta_G=0.1, kappa=1.0, alpha=1.5, lam=0.99) == 0.0
    # lam < 1: any eta_J > 0 gives beta_eff < 1
    assert characteristic_root(eta_G=0.01, kappa=1.0, eta_J=1e-6, alpha=1.5, lam=0.99) <= 0.99


def test_critical_manifold_and_phases():
    g = np.linspace(0, 0.8, 5)
    ej = critical_eta_J(g, kappa=0.8, alpha=1.2, lam=2.0)
    for gi, e in zip(g[:-1], ej[:-1]):
        assert abs(critical_kappa(eta_G=gi, eta_J=e, alpha=1.2, lam=2.0) - 0.8) < 1e-14
        assert phase(eta_G=gi, kappa=0.8, eta_J=e, alpha=1.2, lam=2.0, tol=1e-8) == "boundary"
        assert phase(eta_G=gi, kappa=0.8, eta_J=2 * e, alpha=1.2, lam=2.0) == "extended"
        assert phase(eta_G=gi, kappa=0.8, eta_J=e / 2, alpha=1.2, lam=2.0) == "concentrated"
        assert phase(eta_G=gi, kappa=0.8, eta_J=e / 2, alpha=1.2, lam=2.0, drift="linear") == "collapsed"
    assert ej[-1] == 0.0
    with pytest.raises(ValueError, match="eta_G"):
        critical_eta_J(0.9, kappa=0.8, alpha=1.2, lam=2.0)
    with pytest.raises(ValueError, match="lam"):
        critical_eta_J(0.1, kappa=0.8, alpha=1.2, lam=0.5)
    assert [phase_of_beta(b) for b in (0.3, 1.0 + 1e-12, 1.7, None)] == \
        ["extended", "boundary", "concentrated", "collapsed"]


def test_phase_of_beta_boundary_includes_its_tolerance():
    """|beta - 1| <= tol is the boundary, both ends of the band included: tol = 0 at beta = 1 exactly, and the
    band's edges (binary fractions, so that beta - 1 is exactly the tol)."""
    assert phase_of_beta(1.0, tol=0.0) == "boundary"
    assert phase_of_beta(1.25, tol=0.25) == "boundary" and phase_of_beta(0.75, tol=0.25) == "boundary"
    assert phase_of_beta(1.25, tol=0.125) == "concentrated" and phase_of_beta(0.75, tol=0.125) == "extended"


# --- arbitrary precision and symbolic paths --------------------------------------------------------------
@pytest.mark.parametrize("alpha", [Fraction(1, 3), 1, Fraction(3, 2)])
def test_mp_path_matches_quadrature_to_many_digits(alpha):
    dps = 40
    with mpmath.workdps(dps + 10):
        a = mpmath.mpf(Fraction(alpha).numerator) / Fraction(alpha).denominator
        b, lam = mpmath.mpf(7) / 10, mpmath.mpf(2)

        def g(t):
            y = t ** (1 / (2 - a))
            return 2 * mpmath.sinh(b * y / 2) ** 2 / y ** 2 * mpmath.exp(-lam * y) / (2 - a)

        ref = 2 * mpmath.quad(g, [0, 1, 10, 100, mpmath.inf])
    got = jump_symbol(Fraction(7, 10), eta_J=1, alpha=alpha, lam=2, method="mp", dps=dps)
    with mpmath.workdps(dps):
        assert abs(got - ref) <= mpmath.mpf(10) ** (-dps + 2) * ref
    assert mpmath.mp.dps == 15                       # no leak into the global context


def test_mp_small_beta_keeps_relative_accuracy():
    with mpmath.workdps(60):
        b = mpmath.mpf(10) ** -20
        # leading series term: eta_J C Gamma(2-a) lam^(a-2) b^2, next O(b^4)
        ref = mpmath.gamma(mpmath.mpf(1) / 2) * mpmath.mpf(3) ** (mpmath.mpf(3) / 2 - 2) * b ** 2
        got = jump_symbol(b, eta_J=1, alpha=Fraction(3, 2), lam=3, method="mp", dps=30)
        assert abs(got / ref - 1) < mpmath.mpf(10) ** -28


def test_mp_root_agrees_with_float_root_and_is_a_root():
    kw = dict(eta_G=Fraction(1, 10), kappa=1, eta_J=Fraction(3, 10), alpha=Fraction(3, 2), lam=2)
    r = characteristic_root(**kw, method="mp", dps=50)
    with mpmath.workdps(50):
        assert abs(Phi(r, **kw, method="mp", dps=50)) < mpmath.mpf(10) ** -45
    assert abs(float(r) - characteristic_root(**{k: float(v) for k, v in kw.items()})) < 1e-14
    assert characteristic_root(eta_G=Fraction(1, 100), kappa=3, eta_J=Fraction(1, 20), alpha=Fraction(7, 10),
                                  lam=Fraction(1, 2), method="mp", dps=30) == mpmath.mpf(1) / 2


@pytest.mark.parametrize("alpha", [Fraction(1, 2), 1, None])
def test_symbolic_phi_matches_float(alpha):
    e = Phi_symbolic(alpha)
    vals = dict(beta=0.6, eta_G=0.3, kappa=1.1, eta_J=0.8, C=1.4, lam=1.7, alpha=1.25)
    subs = {s: vals[s.name] for s in e.free_symbols}
    a = vals["alpha"] if alpha is None else float(alpha)
    ref = Phi(0.6, eta_G=0.3, kappa=1.1, eta_J=0.8, C=1.4, lam=1.7, alpha=a)
    assert abs(float(e.subs(subs).evalf(30)) - ref) < 1e-13


def test_symbolic_phi_derivative_at_zero():
    e = Phi_symbolic(Fraction(1, 2))
    beta = sympy.Symbol("beta", real=True)
    assert sympy.simplify(sympy.diff(e, beta).subs(beta, 0)) == -sympy.Symbol("kappa", positive=True)


# --- bad input --------------------------------------------------------------------------------------------
_GOOD = dict(eta_G=0.1, kappa=1.0, eta_J=0.5, alpha=1.5, lam=2.0)


@pytest.mark.parametrize("key, value, exc", [
    ("alpha", 0.0, ValueError), ("alpha", 2.0, ValueError), ("alpha", -1.0, ValueError),
    ("lam", 0.0, ValueError), ("lam", -1.0, ValueError), ("kappa", 0.0, ValueError),
    ("kappa", -0.5, ValueError), ("eta_G", -0.1, ValueError), ("eta_J", -0.1, ValueError),
    ("C", 0.0, ValueError), ("alpha", float("nan"), ValueError), ("lam", float("inf"), ValueError),
    ("alpha", "1.5", TypeError), ("kappa", None, TypeError), ("eta_J", True, TypeError),
])
def test_bad_parameters_are_rejected_by_name(key, value, exc):
    kw = {**_GOOD, key: value}
    with pytest.raises(exc, match=key):
        characteristic_root(**kw)
    with pytest.raises(exc, match=key):
        Phi(0.5, **kw)
    with pytest.raises(exc, match=key):
        characteristic_root(**kw, method="mp", dps=20)


def test_other_bad_inputs():
    with pytest.raises(ValueError, match="eta_G and eta_J"):
        characteristic_root(eta_G=0.0, kappa=1.0, eta_J=0.0, alpha=1.0, lam=1.0)
    with pytest.raises(ValueError, match="beta"):
        jump_symbol([0.1, float("nan")], eta_J=1.0, alpha=1.0, lam=1.0)
    with pytest.raises(TypeError, match="beta"):
        jump_symbol("x", eta_J=1.0, alpha=1.0, lam=1.0)
    with pytest.raises(ValueError, match="alpha"):
        threshold_eta_J(eta_G=0.1, kappa=1.0, alpha=2.5, lam=2.0)
    with pytest.raises(ValueError, match="dps"):
        jump_symbol(0.1, eta_J=1, alpha=1, lam=1, method="mp", dps=0)
    with pytest.raises(ValueError, match="alpha"):
        Phi_symbolic(2)
    with pytest.raises(TypeError, match="alpha"):
        Phi_symbolic(1.5)
    with pytest.raises(ValueError, match="drift"):
        phase(**_GOOD, drift="ou")


# --- C enters (tests above use C = 1) -------------------------------------------------------------------
@pytest.mark.parametrize("alpha, lam", [(1.5, 3.0), (0.7, 2.0), (1.0, 1.5)])
def test_threshold_at_C_two_gives_beta_one(alpha, lam):
    kw = dict(eta_G=0.25, kappa=1.0, alpha=alpha, lam=lam)
    ej2 = threshold_eta_J(**kw, C=2.0)
    assert abs(characteristic_root(eta_J=ej2, **kw, C=2.0) - 1.0) < 1e-10
    # only eta_J C enters: doubling C halves the threshold (an independent route: the quadrature symbol)
    assert abs(ej2 - threshold_eta_J(**kw) / 2) <= 1e-14 * ej2
    assert abs(ej2 * _psi_by_quadrature(1.0, 1.0, alpha, lam, C=2.0) - 0.75) < 1e-12


# --- one spec: LevyParams ------------------------------------------------------------------------------
_P = LevyParams(eta_G=0.1, kappa=1.0, eta_J=0.3, alpha=1.5, lam=2.0, C=1.3)


def test_params_and_keywords_agree():
    kw = _P.as_dict()
    assert characteristic_root(_P) == characteristic_root(**kw)
    assert Phi(0.7, _P) == Phi(0.7, **kw)
    assert jump_symbol(0.7, _P) == jump_symbol(0.7, **_P.jump())
    assert phase(_P) == phase(**kw)
    assert threshold_eta_J(_P) == threshold_eta_J(**{k: v for k, v in kw.items() if k != "eta_J"})
    assert critical_kappa(_P) == critical_kappa(**{k: v for k, v in kw.items() if k != "kappa"})
    assert characteristic_root(_P, method="mp", dps=40) == characteristic_root(**kw, method="mp", dps=40)


def test_params_are_validated_and_exclusive():
    with pytest.raises(ValueError, match="alpha"):
        LevyParams(eta_G=0.1, kappa=1.0, eta_J=0.3, alpha=2.0, lam=2.0)
    with pytest.raises(ValueError, match="kappa"):
        LevyParams(eta_G=0.1, kappa=0, eta_J=0.3, alpha=1.0, lam=2.0)
    with pytest.raises(TypeError, match="lam"):
        LevyParams(eta_G=0.1, kappa=1.0, eta_J=0.3, alpha=1.0, lam="2")
    with pytest.raises(TypeError, match="not both"):
        characteristic_root(_P, kappa=2.0)
    with pytest.raises(TypeError, match="params"):
        characteristic_root({"kappa": 1.0})
    with pytest.raises(TypeError, match="missing"):
        characteristic_root(eta_G=0.1, kappa=1.0)
    # exact values stay exact: a Fraction reaches the mp path unrounded
    p = LevyParams(eta_G=Fraction(1, 100), kappa=3, eta_J=Fraction(1, 20), alpha=Fraction(7, 10), lam=Fraction(1, 2))
    assert characteristic_root(p, method="mp") == mpmath.mpf(1) / 2


def test_precision_api():
    with pytest.raises(ValueError, match="dps"):
        jump_symbol(0.5, _P, dps=30)                       # dps only with method="mp"
    with pytest.raises(ValueError, match="method"):
        Phi(0.5, _P, method="ball")
    with pytest.raises(ValueError, match="dps"):
        characteristic_root(_P, method="mp", dps=10**9)
    with mpmath.workdps(30):
        v = jump_symbol(0.5, _P, method="mp")              # default: the ambient mpmath precision
    assert v == jump_symbol(0.5, _P, method="mp", dps=30) != jump_symbol(0.5, _P, method="mp", dps=60)
    assert isinstance(v, mpmath.mpf) and mpmath.mp.dps == 15
    assert abs(float(v) - jump_symbol(0.5, _P)) < 1e-15 * float(v)


# --- the jump exponent (characteristic function) ---------------------------------------------------------
def _exponent_by_quadrature(u, alpha, lam, dps=30):
    """int (cos(u y) - 1) nu(dy) by mpmath quad (eta_J = C = 1), cos - 1 = -2 sin^2 (no cancellation)."""
    with mpmath.workdps(dps):
        a, lm, uu = mpmath.mpf(alpha), mpmath.mpf(lam), mpmath.mpf(u)

        def g(t):
            y = t ** (1 / (2 - a))
            return -2 * mpmath.sin(uu * y / 2) ** 2 / y ** 2 * mpmath.exp(-lm * y) / (2 - a)

        return float(2 * mpmath.quad(g, [0, 1, 10, 100, mpmath.inf]))


@pytest.mark.parametrize("alpha", [0.3, 1.0, 1.0 + 1e-12, 1.5, 1.9])
@pytest.mark.parametrize("u", [1e-6, 0.3, 1.0, 2.5])
def test_jump_exponent_matches_quadrature(alpha, u):
    ref = _exponent_by_quadrature(u, alpha, 2.0)
    got = jump_exponent(u, eta_J=1.0, alpha=alpha, lam=2.0)
    assert abs(got - ref) <= 1e-12 * abs(ref)


def test_jump_exponent_is_the_symbol_at_imaginary_beta():
    # Psi*(i u) = eta_J C Gamma(-a) [(lam - iu)^a + (lam + iu)^a - 2 lam^a], away from the pole at a = 1
    a, lam, u = 1.4, 2.0, np.array([0.1, 0.9, 3.0, 10.0])
    ref = math.gamma(-a) * ((lam - 1j * u) ** a + (lam + 1j * u) ** a - 2 * lam ** a).real
    assert np.allclose(jump_exponent(u, eta_J=1.0, alpha=a, lam=lam), ref, rtol=1e-13, atol=0)


def test_numpy_scalars_are_accepted_on_both_paths():
    p = LevyParams(eta_G=np.float64(0.1), kappa=np.int64(1), eta_J=np.float32(0.25), alpha=1.5, lam=np.int64(2),
                   C=np.int64(1))
    ref = LevyParams(eta_G=0.1, kappa=1, eta_J=float(np.float32(0.25)), alpha=1.5, lam=2)
    assert characteristic_root(p) == characteristic_root(ref)
    assert characteristic_root(p, method="mp") == characteristic_root(ref, method="mp")
    assert jump_symbol(0.5, eta_J=1, alpha=1.5, lam=2, C=np.int64(1), method="mp") == \
        jump_symbol(0.5, eta_J=1, alpha=1.5, lam=2, C=1, method="mp")


def test_characteristic_root_broadcasts_over_arrays_with_the_scalar_accuracy():
    """The float path broadcasts (numpy semantics) and each element equals the scalar call."""
    from theory.levy import characteristic_root

    kw = dict(eta_G=0.1, kappa=1.0, alpha=1.5, lam=2.0)
    eta_J = np.array([[0.0, 0.05], [0.2, 1.0]])
    got = characteristic_root(eta_J=eta_J, **kw)
    assert got.shape == (2, 2)
    for idx in np.ndindex(got.shape):
        assert got[idx] == characteristic_root(eta_J=float(eta_J[idx]), **kw)
    assert isinstance(characteristic_root(eta_J=np.array(0.05), **kw), float)
    with pytest.raises(ValueError, match="eta_J"):
        characteristic_root(eta_J=[0.1, -1.0], **kw)


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


@pytest.mark.parametrize("key", ["eta_G", "eta_J", "lam", "C", "kappa"])
@pytest.mark.parametrize("value", [1e-30, 1e30])
def test_characteristic_root_mp_at_extreme_parameters(key, value):
    """The mp root at dps 30 agrees with dps 60 to 29 digits and with the float root to 1e-12 (mp used to
    give 6.31 for 9.99999999999999 at lam = 1e30)."""
    from theory.levy import Phi, characteristic_root

    p = {**dict(eta_G=0.1, kappa=1.0, eta_J=0.05, alpha=1.5, lam=2.0, C=1.0), key: value}
    a = characteristic_root(**p, method="mp", dps=30)
    b = characteristic_root(**p, method="mp", dps=60)
    f = characteristic_root(**p)
    with mpmath.workdps(60):
        assert abs(a - b) <= mpmath.mpf(10) ** -29 * abs(b)
    assert abs(f - float(b)) <= 1e-12 * float(b)
    if b < p["lam"]:              # an interior root: Phi changes sign there
        lo, hi = float(b) * (1 - 1e-9), float(b) * (1 + 1e-9)
        assert Phi(lo, **p, method="mp") < 0 < Phi(min(hi, p["lam"]), **p, method="mp")


def test_characteristic_root_small_alpha_float_and_mp():
    """alpha -> 0: the float symbol used to cancel to noise (root 1.0 instead of 1.99999999999999)."""
    from theory.levy import characteristic_root

    p = dict(eta_G=0.1, kappa=1.0, eta_J=0.05, alpha=1e-30, lam=2.0, C=1.0)
    b = characteristic_root(**p, method="mp", dps=60)
    assert abs(characteristic_root(**p) - float(b)) <= 1e-12
    assert abs(characteristic_root(**p, method="mp", dps=30) - b) <= mpmath.mpf(10) ** -28


def test_subnormal_parameters_are_refused_by_name():
    """Subnormal inputs gave nan/inf (issue 33): refused, naming the parameter."""
    from numerics.anticollapse.levy_sampling import cts_params
    with pytest.raises(ValueError, match="kappa must not be subnormal"):
        critical_eta_J(1.0, kappa=5e-324, alpha=1.5, lam=1.0)
    with pytest.raises(ValueError, match="eta_G must not be subnormal"):
        critical_kappa(eta_G=5e-324, eta_J=1.0, alpha=1.5, lam=1.0)
    with pytest.raises(ValueError, match="dt must not be subnormal"):
        cts_params(5e-324, eta_J=1.0, alpha=1.5, lam=1.0)
