"""relu's weight-tying term in closed form (theory.relu_tying: driven b_2, free b_3): each step of the driven
derivation against an independent reference (the bivariate orthant moments and the reduced integral by scipy
quadrature, the Stein step by a Monte Carlo of the unreduced integral), both closed forms against the
tied-correction module's Monte Carlo, the three methods against each other, the limits, bad input at the edges
of the domain (sigma's and the depths')."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate

from numerics.signal_propagation.tied_correction import tied_correction_profile
from numerics.stats import z_for_false_alarm
from theory.nonlinear import MAX_SIGMA
from theory.relu_tying import MAX_T_DRIVEN, MAX_T_FREE, relu_tying_b

SQ2 = math.sqrt(2.0)
SIGMAS = (0.5, 1.0, SQ2, 2.5, 6.0)
B3_FREE = 2.0 / math.pi * (1.0 + 1.0 / math.pi + math.asin(1.0 / math.pi) + math.sqrt(math.pi ** 2 - 1) / math.pi ** 2)


def relu_tying_b2(sigma, **kw):
    """Driven relu's b_2 (the closed form the first tests take apart)."""
    return relu_tying_b(2, sigma, driven=kw.pop("driven", True), **kw)


def _population(sigma: float) -> dict:
    """The population quantities of the derivation, written out again here from the model."""
    s2 = sigma * sigma
    K0 = 0.5                                        # E relu(x_0)^2
    v1 = s2 * K0 + 1.0                              # Var g_1
    K1 = v1 / 2.0
    m = 1.0 / math.sqrt(2.0 * math.pi)             # E relu(x_0)
    C = m * math.sqrt(v1) * m                       # E relu(x_0) E relu(g_1): x_0 is independent of g_1
    A = sigma * C / math.sqrt(K0)
    B = sigma * math.sqrt(K1 - C * C / K0)
    return dict(s2=s2, K0=K0, v1=v1, K1=K1, m=m, C=C, A=A, B=B, v2=A * A + B * B + 1.0)


def _wedge(f, slope: float, limit: float = 12.0) -> float:
    """``E[f(X, Y) 1{X > 0, Y > slope X}]`` for independent standard normals by scipy's adaptive quadrature over
    the wedge (the integrand smooth inside it)."""
    dens = lambda y, x: f(x, y) * math.exp(-(x * x + y * y) / 2.0) / (2.0 * math.pi)  # noqa: E731
    val, err = integrate.dblquad(dens, 0.0, limit, lambda x: slope * x, limit, epsabs=1e-12, epsrel=1e-12)
    assert err < 1e-9
    return val


@pytest.mark.parametrize("rho", [-0.9, -0.3, 0.0, 0.18, 0.6, 0.95])
def test_orthant_moments_against_quadrature(rho):
    """The two bivariate moments the closed form is made of: E[v^2 1{u,v > 0}] and E[u 1{u,v > 0}]."""
    th, r = math.acos(rho), math.sqrt(1.0 - rho * rho)
    slope = -rho / r                                # u = X > 0 and v = rho X + r Y > 0
    assert _wedge(lambda x, y: (rho * x + r * y) ** 2, slope) == pytest.approx(
        (math.pi - th + math.sin(th) * math.cos(th)) / (2.0 * math.pi), abs=1e-9)
    assert _wedge(lambda x, y: x, slope) == pytest.approx((1.0 + rho) / (2.0 * math.sqrt(2.0 * math.pi)), abs=1e-9)


@pytest.mark.parametrize("sigma", [0.5, SQ2, 6.0])
def test_reduced_integral_against_quadrature(sigma):
    """After Stein's lemma: b_2 q_2 = sigma^2 (E[1{g2 > 0} relu(g1)^2] - K1 / 2) + 2 sigma^2 m E[relu(g2) 1{g1 > 0}],
    with (g1, g2) jointly Gaussian, by two-dimensional quadrature (not the orthant closed forms)."""
    p = _population(sigma)
    cov = p["A"] * sigma * math.sqrt(p["K0"])       # g1 and g2 share zeta_1
    a = cov / math.sqrt(p["v1"])                    # g2 = a X + c Y with g1 = sqrt(v1) X
    c = math.sqrt(p["v2"] - a * a)
    # both integrands vanish outside g1 > 0 (X > 0) and g2 > 0 (Y > -a X / c)
    first = _wedge(lambda x, y: p["v1"] * x * x, -a / c)                    # 1{g2 > 0} relu(g1)^2
    second = _wedge(lambda x, y: a * x + c * y, -a / c)                     # relu(g2) 1{g1 > 0}
    b2q2 = p["s2"] * (first - p["K1"] / 2.0) + 2.0 * p["s2"] * p["m"] * second
    assert b2q2 / (p["v2"] / 2.0) == pytest.approx(relu_tying_b2(sigma), abs=1e-8)


@pytest.mark.parametrize("sigma", [1.0, SQ2])
def test_unreduced_integral_by_monte_carlo(sigma):
    """Before Stein's lemma: b_2 q_2 = E[d_theta psi . IF_theta], psi = relu(g2)^2 differentiated along (A, B),
    the influences of K_1 and C; a Monte Carlo with its se from the same run."""
    p = _population(sigma)
    dA = {"K1": 0.0, "C": sigma / math.sqrt(p["K0"])}
    dB = {"K1": p["s2"] / (2.0 * p["B"]), "C": -p["s2"] * p["C"] / (p["K0"] * p["B"])}
    rng = np.random.default_rng(11)
    sums = np.zeros(2)
    N, chunks = 1 << 20, 4
    for _ in range(chunks):
        x0, z1, x1, z2, x2 = rng.standard_normal((5, N))
        h1 = np.maximum(sigma * math.sqrt(p["K0"]) * z1 + x1, 0.0)
        r2 = np.maximum(p["A"] * z1 + p["B"] * z2 + x2, 0.0)
        IF = {"K1": h1 ** 2 - p["K1"], "C": np.maximum(x0, 0.0) * h1 - p["C"]}
        v = sum(2.0 * r2 * (dA[k] * z1 + dB[k] * z2) * IF[k] for k in IF)
        sums += v.sum(), (v * v).sum()
    n = N * chunks
    mean = sums[0] / n
    se = math.sqrt((sums[1] / n - mean * mean) / (n - 1))
    q2 = p["v2"] / 2.0
    assert abs(mean / q2 - relu_tying_b2(sigma)) <= z_for_false_alarm(m=2) * se / q2


def test_whole_derivation_against_the_tied_correction_monte_carlo():
    """The closed form against tied_correction_profile's Monte Carlo of the same term (its series arithmetic
    through the recursion, the Gaussian integral by sampling) at five sigmas."""
    z = z_for_false_alarm(m=len(SIGMAS))
    for i, sigma in enumerate(SIGMAS):
        r = tied_correction_profile(2, 1 << 20, phi="relu", sigma=sigma, driven=True, seed=100 + i)
        assert abs(r.b[2] - relu_tying_b2(sigma)) <= z * r.se[2], (sigma, r.b[2], r.se[2])
        free = tied_correction_profile(2, 1 << 18, phi="relu", sigma=sigma, driven=False, seed=200 + i)
        assert relu_tying_b2(sigma, driven=False) == 0.0 and abs(free.b[2]) <= z * free.se[2]


@pytest.mark.parametrize("sigma, seed", [(SQ2, 300), (0.7, 301), (9.0, 302)])
def test_free_b3_against_the_tied_correction_monte_carlo(sigma, seed):
    """Free relu's b_3 (the same at every sigma: relu is homogeneous) against the module's Monte Carlo."""
    r = tied_correction_profile(3, 1 << 20, phi="relu", sigma=sigma, seed=seed)
    b3 = relu_tying_b(3, sigma)
    assert b3 == B3_FREE
    assert abs(r.b[3] - b3) <= z_for_false_alarm(m=3) * r.se[3], (sigma, r.b[3], r.se[3])
    # b_1 = 0 and b_2 = 0 free: the closed forms and the Monte Carlo
    for t in (1, 2):
        assert relu_tying_b(t, sigma) == 0.0 and abs(r.b[t]) <= z_for_false_alarm(m=6) * r.se[t]


@pytest.mark.parametrize("sigma", [Fraction(1, 3), 1, Fraction(7, 5), 2.5, 99, 100])
def test_methods_agree(sigma):
    exact = relu_tying_b2(sympy.Rational(sigma.numerator, sigma.denominator) if isinstance(sigma, Fraction)
                          else sympy.nsimplify(sigma), method="exact")
    assert isinstance(exact, sympy.Expr)
    mp = relu_tying_b2(sigma, method="mp", dps=40)
    assert isinstance(mp, mpmath.mpf)
    assert abs(mp - sympy.N(exact, 50)) < mpmath.mpf(10) ** -38
    assert relu_tying_b2(sigma) == pytest.approx(float(mp), rel=4e-16)
    # the exact method takes the Python number itself (a Fraction, int or float at its exact value)
    assert sympy.simplify(relu_tying_b2(sigma, method="exact") - exact) == 0


def test_exact_criticality_and_local_precision():
    b = relu_tying_b2(sympy.sqrt(2), method="exact")
    assert b.free_symbols == set()
    with mpmath.workdps(60):
        root2 = mpmath.sqrt(2)
    before = mpmath.mp.dps
    hi = relu_tying_b2(root2, method="mp", dps=50)
    assert mpmath.mp.dps == before                     # a local context, the global one untouched
    assert abs(hi - sympy.N(b, 60)) < mpmath.mpf(10) ** -48
    assert relu_tying_b2(SQ2, method="mp", dps=15) == pytest.approx(float(sympy.N(b, 30)), rel=1e-14)


@pytest.mark.parametrize("t, driven", [(1, False), (1, True), (2, False)])
def test_zeros_in_every_method(t, driven):
    assert relu_tying_b(t, SQ2, driven=driven) == 0.0
    assert relu_tying_b(t, SQ2, driven=driven, method="mp", dps=20) == 0
    assert relu_tying_b(t, sympy.sqrt(2), driven=driven, method="exact") == 0


@pytest.mark.parametrize("sigma", [Fraction(1, 3), SQ2, 100])
def test_free_b3_in_every_method(sigma):
    exact = relu_tying_b(3, sympy.nsimplify(sigma) if not isinstance(sigma, float) else sympy.sqrt(2), method="exact")
    pi = sympy.pi
    assert sympy.simplify(exact - 2 / pi * (1 + 1 / pi + sympy.asin(1 / pi) + sympy.sqrt(pi ** 2 - 1) / pi ** 2)) == 0
    mp = relu_tying_b(3, sigma, method="mp", dps=40)
    assert abs(mp - sympy.N(exact, 50)) < mpmath.mpf(10) ** -38
    assert relu_tying_b(3, sigma) == pytest.approx(float(mp), rel=4e-16)
    assert relu_tying_b(3, sigma) == pytest.approx(relu_tying_b2(MAX_SIGMA), abs=2e-4)   # driven b_2's limit


def test_limits():
    assert relu_tying_b2(1e-4) / (1e-8 / math.pi) == pytest.approx(1.0, abs=1e-7)       # ~ sigma^2 / pi
    assert B3_FREE - relu_tying_b2(MAX_SIGMA) == pytest.approx(0.0, abs=2e-4)     # free b_3: the inputs negligible
    assert relu_tying_b2(MAX_SIGMA) < B3_FREE


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=1e-3, max_value=MAX_SIGMA), st.floats(min_value=1e-3, max_value=MAX_SIGMA))
def test_increasing_in_sigma(a, b):
    lo, hi = sorted((a, b))
    assert relu_tying_b2(lo) <= relu_tying_b2(hi)
    assert relu_tying_b2(lo) > 0


@pytest.mark.parametrize("kw, exc, match", [
    (dict(sigma=0.0), ValueError, "sigma must be > 0"),
    (dict(sigma=-1.0), ValueError, "sigma must be > 0"),
    (dict(sigma=MAX_SIGMA * (1 + 1e-15)), ValueError, "sigma must be <= 100"),
    (dict(sigma=math.nan), ValueError, "sigma"),
    (dict(sigma=math.inf), ValueError, "sigma"),
    (dict(sigma="1"), TypeError, "sigma"),
    (dict(sigma=True), TypeError, "sigma"),
    (dict(sigma=1.0, driven="yes"), TypeError, "driven"),
    (dict(sigma=1.0, method="sympy"), ValueError, "method"),
    (dict(sigma=1.0, method="float", dps=20), ValueError, "dps"),
    (dict(sigma=1.0, method="exact", dps=20), ValueError, "dps"),
    (dict(sigma=0.0, method="mp", dps=20), ValueError, "sigma must be > 0"),
    (dict(sigma=MAX_SIGMA * (1 + 1e-15), method="mp", dps=20), ValueError, "sigma must be <= 100"),
    (dict(sigma=0, method="exact"), ValueError, "sigma must be > 0"),
    (dict(sigma=sympy.Integer(0), method="exact"), ValueError, "sigma must be a positive"),
    (dict(sigma=-sympy.sqrt(2), method="exact"), ValueError, "sigma must be a positive"),
    (dict(sigma=sympy.Symbol("s", positive=True), method="exact"), ValueError, "free symbols"),
    (dict(sigma=sympy.I, method="exact"), ValueError, "sigma must be a positive"),
    (dict(sigma=100 + sympy.Rational(1, 10 ** 12), method="exact"), ValueError, "sigma must be <= 100"),
])
def test_bad_input_named(kw, exc, match):
    with pytest.raises(exc, match=match):
        relu_tying_b2(**kw)


@pytest.mark.parametrize("t, driven, exc, match", [
    (0, False, ValueError, "t must be an integer >= 1"),
    (MAX_T_FREE + 1, False, ValueError, "t must be an integer <= 3 for the free recurrence"),
    (MAX_T_DRIVEN + 1, True, ValueError, "t must be an integer <= 2 for the driven recurrence"),
    (2.0, False, TypeError, "t must be an integer"),
    (True, False, TypeError, "t"),
])
def test_depth_beyond_the_closed_forms_refused(t, driven, exc, match):
    for method in ("float", "mp", "exact"):
        with pytest.raises(exc, match=match):
            relu_tying_b(t, 1.0, driven=driven, method=method)


@pytest.mark.parametrize("t, driven", [(MAX_T_FREE, False), (MAX_T_DRIVEN, True)])
def test_depth_edge_inside(t, driven):
    for method in ("float", "mp", "exact"):
        assert 0.3 < float(relu_tying_b(t, 1.0, driven=driven, method=method)) < 1.3


@pytest.mark.parametrize("sigma", [MAX_SIGMA, sympy.Integer(100), 100 - sympy.Rational(1, 10 ** 12)])
def test_domain_edge_inside(sigma):
    method = "exact" if isinstance(sigma, sympy.Basic) else "float"
    assert 1.2 < float(relu_tying_b2(sigma, method=method)) < 1.24


def test_the_check_compares_the_monte_carlo_with_the_closed_form():
    """check nonlinear.tied_correction's reference row for driven relu at depth 2 is the closed form (small run)."""
    from theory.nonlinear import Recurrence
    from validation.checks import nonlinear as chk

    refs, _ = chk._tied_data(16, 1 << 12, 0)
    label = Recurrence("relu", SQ2, True).label
    rows = [r for r in refs if r[0] == label and r[1] == 2]
    assert len(rows) == 1
    assert rows[0][4] == relu_tying_b2(SQ2) and rows[0][4] > 0.5
    assert [r for r in refs if r[0] == label and r[1] == 1][0][4] == 0.0        # b_1 = 0 stays an exact zero
    free = Recurrence("relu", SQ2).label
    rows = [r for r in refs if r[0] == free and r[1] == 3]
    assert len(rows) == 1 and rows[0][4] == B3_FREE
    assert [r[4] for r in refs if r[0] == free and r[1] in (1, 2)] == [0.0, 0.0]
