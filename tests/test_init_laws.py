"""Tests of theory.init_laws: the laws (moments, cumulants, refusals, the parser), the exact rows law_row.

Independent references: the laws' moments by numerical integration (scipy.integrate / scipy.stats, never the
closed forms under test), the moment-cumulant relation by sympy's series of the cumulant generating function,
brute-force expectations (tests/test_law_rows.py), the real Gaussian rows, hand-derived rows (P_2, P_3 of the spec),
and properties (n = 1 gives m_{2k}; Rademacher Q_{n,2} = 1).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
import scipy.integrate
import scipy.stats
import sympy
from hypothesis import given
from hypothesis import strategies as st

from theory.init_laws import laws as L
from theory.init_laws.rows import law_P, law_row, law_rows_max_k, shape_terms
from theory.real_rows import real_row

NAMED = ["gaussian", "uniform", "rademacher", "sparse:0.05", "sparse:0.3", "student:6", "student:9", "student:30"]


# --------------------------------------------------------------------------------------------------
# laws: moments against numerical integration, cumulants against sympy
# --------------------------------------------------------------------------------------------------
def numerical_moment(name: str, j: int) -> float:
    if name == "gaussian":
        return scipy.stats.norm.moment(j)
    if name == "uniform":
        s = math.sqrt(3)
        return scipy.integrate.quad(lambda x: x**j / (2 * s), -s, s)[0]
    if name == "rademacher":
        return 1.0
    if name.startswith("sparse:"):
        p = float(Fraction(name.split(":")[1]))
        return p * scipy.stats.norm.moment(j) / p ** (j / 2)
    # Student t: E|T|^j = nu^(j/2) Gamma((j+1)/2) Gamma((nu-j)/2) / (sqrt(pi) Gamma(nu/2)) (scipy's own
    # integration is not accurate enough in the tails), rescaled by ((nu-2)/nu)^(j/2)
    nu = mpmath.mpf(name.split(":")[1])
    with mpmath.workdps(30):
        mom = nu ** (j / 2) * mpmath.gamma((j + 1) / 2) * mpmath.gamma((nu - j) / 2) / (
            mpmath.sqrt(mpmath.pi) * mpmath.gamma(nu / 2))
        return float(mom * ((nu - 2) / nu) ** (j / 2))


@pytest.mark.parametrize("name", NAMED)
def test_moments_against_numerical_integration(name):
    law = L.as_law(name)
    top = law.max_order or 16
    for j in range(2, min(top, 16) + 1, 2):
        assert float(law.moment(j)) == pytest.approx(numerical_moment(name, j), rel=1e-9)
    assert law.moment(2) == 1 and law.moment(3) == 0 and law.moment(0) == 1


@pytest.mark.parametrize("name", ["gaussian", "uniform", "rademacher", "sparse:0.25", "student:13"])
def test_cumulants_from_the_cumulant_generating_function(name):
    law = L.as_law(name)
    x = sympy.Symbol("x")
    top = min(law.max_order or 12, 12)
    mgf = sum(sympy.Rational(law.moment(j).numerator, law.moment(j).denominator) * x**j / sympy.factorial(j)
              for j in range(0, top + 1, 2))
    cgf = sympy.series(sympy.log(mgf), x, 0, top + 1).removeO()
    for j in range(2, top + 1, 2):
        kappa = cgf.coeff(x, j) * sympy.factorial(j)
        assert law.cumulant(j) == Fraction(int(sympy.fraction(kappa)[0]), int(sympy.fraction(kappa)[1]))


def test_known_cumulants_and_validity():
    assert L.gaussian().cumulant(6) == 0 and L.rademacher().cumulant(4) == -2
    assert L.uniform().cumulant(4) == Fraction(-6, 5)
    assert L.sparse("0.05").cumulant(4) == 57                   # 3/p - 3
    assert L.student_t(6).max_order == 4 and L.student_t(6).max_depth == 2
    assert L.student_t("6.5").max_order == 6 and L.student_t(7).max_depth == 3
    assert L.gaussian().max_order is None and L.from_moments(3, 15, 105).max_order == 8


def test_student_moments_refused_at_and_beyond_nu():
    law = L.student_t(6)
    law.moment(4)
    with pytest.raises(ValueError, match="j=6: .* infinite"):
        law.moment(6)
    with pytest.raises(ValueError, match="j=8"):
        law.cumulant(8)


# --------------------------------------------------------------------------------------------------
# from_moments: the moment problem's boundary, just inside and just outside
# --------------------------------------------------------------------------------------------------
def test_from_moments_boundaries():
    L.from_moments(1)                                           # Rademacher: m4 = 1 is possible
    with pytest.raises(ValueError, match="^m4 must be >= 1"):
        L.from_moments(Fraction(999, 1000))
    L.from_moments(3, 9)                                        # m6 = m4^2: singular, still a law (two atoms)
    with pytest.raises(ValueError, match="^m6=899/100 is impossible"):
        L.from_moments(3, Fraction(899, 100))
    L.from_moments(1, 1, 1)                                     # Rademacher's own
    with pytest.raises(ValueError, match="^m6=2 is impossible"):
        L.from_moments(1, 2)                                    # m4 = 1 forces g = +-1: every moment 1
    # Gaussian moments are a law; a later impossible moment is named, not the earlier ones
    L.from_moments(3, 15, 105, 945)
    with pytest.raises(ValueError, match="^m10=200 is impossible"):
        L.from_moments(3, 15, 105, 200)


def test_from_moments_of_every_named_law_pass():
    for name in ["gaussian", "uniform", "rademacher", "sparse:0.05", "student:30"]:
        law = L.as_law(name)
        L.from_moments(*[law.moment(j) for j in range(4, 21, 2)])


@pytest.mark.parametrize("args,exc,match", [
    ((), TypeError, "needs at least m4"),
    (("x",), ValueError, "m4 must be a real number"),
    ((None,), TypeError, "m4 must be a real number"),
    ((True,), TypeError, "m4 must be a real number, not a bool"),
    ((float("nan"),), ValueError, "m4 must be finite"),
    ((3, [1]), TypeError, "m6 must be a real number"),
])
def test_from_moments_bad_arguments(args, exc, match):
    with pytest.raises(exc, match=match):
        L.from_moments(*args)


# --------------------------------------------------------------------------------------------------
# the parser and the named constructors
# --------------------------------------------------------------------------------------------------
def test_parser_round_trips_names():
    for name in NAMED + ["moments:3,15", "moments:1.5,4"]:
        law = L.as_law(name)
        assert L.as_law(law.name) == law
        assert L.as_law(law) is law
    assert L.as_law("SPARSE: 0.05") == L.sparse(Fraction(1, 20))
    assert L.as_law("student_t:6") == L.student_t(6) == L.as_law("t:6")
    assert L.sparse(0.05).name == "sparse:0.05" and L.student_t(6).name == "student:6"


@pytest.mark.parametrize("bad,exc,match", [
    ("cauchy", ValueError, "init must be a law"),
    ("sparse", ValueError, "init must be a law"),
    ("sparse:0", ValueError, r"init='sparse:0': p must be in \(0, 1\]"),
    ("sparse:1.5", ValueError, "p must be in"),
    ("sparse:abc", ValueError, "p must be a probability"),
    ("student:2", ValueError, r"nu must be in \(2, 1e6\]"),
    ("student:-3", ValueError, "nu must be in"),
    ("moments:0.5", ValueError, "m4 must be >= 1"),
    (3, TypeError, "init must be a law name"),
    (None, TypeError, "init must be a law name"),
])
def test_parser_refusals_are_one_line_and_name_the_argument(bad, exc, match):
    with pytest.raises(exc, match=match) as info:
        L.as_law(bad)
    assert "\n" not in str(info.value)


def test_constructor_refusals():
    with pytest.raises(ValueError, match=r"^p must be in \(0, 1\]"):
        L.sparse(0)
    L.sparse(1)                                                 # p = 1: the Gaussian moments
    assert L.sparse(1).moment(8) == L.gaussian().moment(8)
    with pytest.raises(ValueError, match="^nu must be in"):
        L.student_t(2)
    L.student_t(Fraction(2001, 1000))
    with pytest.raises(TypeError, match="^p must be a probability"):
        L.sparse([0.1])


# --------------------------------------------------------------------------------------------------
# rows
# --------------------------------------------------------------------------------------------------
def test_symbolic_rows_match_the_spec():
    m4, m6 = sympy.symbols("m4 m6", positive=True)
    assert law_row(2) == (0, m4 - 1, 0, 1)
    assert [sympy.expand(c) for c in law_row(3)] == [0, m6 - 3 * m4 - 2, 3 * m4 + 1, 0, 1]
    k4, k6 = sympy.symbols("kappa4 kappa6", real=True)
    assert law_row(3, basis="cumulants") == (0, 12 * k4 + k6 + 4, 3 * k4 + 10, 0, 1)


@pytest.mark.parametrize("k", range(0, 13))
def test_gaussian_rows_are_the_real_rows(k):
    assert k <= law_rows_max_k(), "the committed table must reach k = 12"
    assert law_row(k, "gaussian") == tuple(real_row(k))


@pytest.mark.parametrize("name", ["uniform", "rademacher", "sparse:0.05", "moments:2,7,30"])
def test_law_row_is_the_symbolic_row_at_the_moments(name):
    law = L.as_law(name)
    for k in range(0, min(law_rows_max_k(), law.max_depth or 99) + 1):
        subs = {sympy.Symbol(f"m{j}", positive=True): sympy.Rational(law.moment(j).numerator, law.moment(j).denominator)
                for j in range(4, 2 * k + 1, 2)}
        sym = [sympy.sympify(c).subs(subs) for c in law_row(k)]
        assert [sympy.Rational(c.numerator, c.denominator) for c in law_row(k, law)] == sym


small_n = st.integers(1, 40)


@given(k=st.integers(0, 12))
def test_n_one_gives_the_moment(k):
    if k > law_rows_max_k():
        return
    for name in ["uniform", "rademacher", "sparse:0.05", "gaussian"]:
        assert law_P(1, k, name) == L.as_law(name).moment(2 * k)       # the single index: E g^(2k)


@given(n=small_n)
def test_rademacher_Q2_is_one(n):
    assert law_P(n, 2, "rademacher") == n**3


@given(n=small_n, k=st.integers(0, 10))
def test_rows_are_monotone_in_the_moments(n, k):
    # every shape weight is a product of moments with a nonnegative falling factorial: Rademacher <= uniform
    # <= Gaussian <= sparse (moment by moment)
    if k > law_rows_max_k():
        return
    vals = [law_P(n, k, name) for name in ["rademacher", "uniform", "gaussian", "sparse:0.5"]]
    assert vals == sorted(vals)


def test_rows_beyond_the_moments_are_refused_naming_k():
    with pytest.raises(ValueError, match=r"^k=3: E tr\(\(G\^k\)\^T G\^k\) is infinite for student:6"):
        law_row(3, "student:6")
    assert law_row(2, "student:6")[1] == 5                    # m_4 - 1 = 6 - 1
    with pytest.raises(ValueError, match="^k=4: the row needs m_8"):
        law_row(4, "moments:3,15")
    with pytest.raises(ValueError, match="k must be an integer <= "):
        law_row(law_rows_max_k() + 1, "uniform")
    with pytest.raises(TypeError, match="law must be a law name"):
        law_row(2, 3.0)
    with pytest.raises(ValueError, match="basis"):
        law_row(2, basis="cumulant")


def test_shape_terms_partition_k():
    for k in range(law_rows_max_k() + 1):
        assert all(sum(p) == k and 1 <= V <= k + 1 for V, p, _ in shape_terms(k))
