"""Tests of theory.signal_energy against independent references.

References: exact Fractions from the product formula written out here (not the module's code path), the
the Hultman rows printed in docs/papers/signal-propagation.md, Stirling numbers from sympy, ``n = 1`` values ``k!``, and 40+-digit mpmath.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st
from sympy.functions.combinatorial.numbers import stirling

import theory.signal_energy as se
from theory.signal_energy import _ball as se_ball
from theory.signal_energy import Q, Q_all, S, hultman_row, log_Q, log_S, trace_moment
from fuzz_oracle import arb_Q   # Q as an arb ball written out from Theorem 2.1 (tests/ is on sys.path)


def ref_Q(n: int, k: int) -> Fraction:
    """Q_{n,k} = (n^(k+2) - n_(k+2)) / ((k+1)(k+2) n^(k+1)) from plain products (Seleznova 2026, Theorem 2.1)."""
    rising = math.prod(n + j for j in range(k + 2))
    falling = math.prod(n - j for j in range(k + 2))
    return Fraction(rising - falling, (k + 1) * (k + 2) * n ** (k + 1))


def ref_S(n: int, t: int) -> Fraction:
    return sum((ref_Q(n, k) for k in range(t + 1)), Fraction(0))


def ref_S_fast(n: int, t: int) -> Fraction:
    """ref_S with the products updated incrementally (the same formula; fast enough for t of a few 1000)."""
    rising, falling = n * (n + 1), n * (n - 1)
    num = 0                                 # sum_k (rising_k - falling_k) n^(t-k) / ((k+1)(k+2)), integer
    for k in range(t + 1):
        m = k + 2
        num = num * n + (rising - falling) // ((k + 1) * m)
        rising *= n + m
        falling *= n - m
    return Fraction(num, n ** (t + 1))


def rel(a, b) -> float:
    return abs(float((Fraction(a) - b) / b))


def mp_rel(a, b: Fraction, dps: int = 200):
    with mpmath.workdps(dps):
        exact = mpmath.mpf(b.numerator) / b.denominator
        return abs((a - exact) / exact)


def frac_of_arb(a) -> Fraction:
    m, e = a.man_exp()
    return Fraction(int(m)) * Fraction(2) ** int(e)


# --- the paper's printed rows ---------------------------------------------------------------------------------
PAPER_ROWS = {0: [0, 1], 1: [0, 0, 1], 2: [0, 1, 0, 1], 3: [0, 0, 5, 0, 1], 4: [0, 8, 0, 15, 0, 1]}


@pytest.mark.parametrize("k", sorted(PAPER_ROWS))
def test_hultman_rows_printed_in_the_paper(k):
    assert hultman_row(k) == PAPER_ROWS[k]


@pytest.mark.parametrize("k", range(0, 16))
def test_hultman_row_from_stirling_definition(k):
    # H_{k,j} = c(k+2, j) / C(k+2, 2) for k - j odd, else 0 (sympy's unsigned Stirling numbers)
    want = [sympy.Rational(stirling(k + 2, j, kind=1, signed=False), math.comb(k + 2, 2)) if (k - j) % 2 else 0
            for j in range(k + 2)]
    assert hultman_row(k) == want
    assert sum(hultman_row(k)) == math.factorial(k)          # n = 1: E|g|^(2k) = k!


@pytest.mark.parametrize("k", range(0, 12))
def test_n_equals_one_is_factorial(k):
    assert Q(1, k, method="exact") == math.factorial(k)


# --- properties ------------------------------------------------------------------------------------
small_n = st.integers(1, 300)
small_k = st.integers(0, 80)


@given(n=small_n, k=small_k)
def test_exact_matches_product_formula(n, k):
    assert Q(n, k, method="exact") == ref_Q(n, k)


@given(n=small_n, k=small_k)
def test_Q_at_least_one_and_monotone(n, k):
    q = ref_Q(n, k)
    assert Q(n, k, method="exact") >= 1
    assert Q(n, k + 1, method="exact") >= q                  # increasing in k
    assert Q(n + 1, k, method="exact") <= q                  # decreasing in n


@given(n=st.integers(1, 60), t=st.integers(0, 40))
def test_S_is_sum_of_Q_and_at_least_t_plus_one(n, t):
    s = S(n, t, method="exact")
    assert s == ref_S(n, t)
    assert s >= t + 1


@given(n=st.integers(1, 10**6), k=st.integers(0, 400))
def test_float_matches_exact(n, k):
    assert rel(Q(n, k), ref_Q(n, k)) <= 1e-13


@given(n=st.integers(1, 10**6), t=st.integers(0, 150))
def test_float_S_matches_exact(n, t):
    assert rel(S(n, t), ref_S(n, t)) <= 1e-13


@given(n=st.integers(1, 10**4), k=st.integers(0, 200), dps=st.integers(5, 60))
def test_mp_matches_exact(n, k, dps):
    assert mp_rel(Q(n, k, method="mp", dps=dps), ref_Q(n, k)) <= mpmath.mpf(10) ** (1 - dps)


@given(n=st.integers(1, 500), t=st.integers(0, 60), dps=st.integers(5, 40))
def test_mp_S_matches_exact(n, t, dps):
    assert mp_rel(S(n, t, method="mp", dps=dps), ref_S(n, t)) <= mpmath.mpf(10) ** (1 - dps)


@given(n=st.integers(1, 10**6), k=st.integers(0, 40))
def test_symbolic_equals_numeric(n, k):
    assert se.Q_symbolic(k).subs(sympy.Symbol("n", positive=True, integer=True), n) == sympy.Rational(
        ref_Q(n, k).numerator, ref_Q(n, k).denominator)


@pytest.mark.parametrize("t", [0, 1, 5, 17])
def test_S_symbolic_and_series(t):
    n = sympy.Symbol("n", positive=True, integer=True)
    for nv in (1, 3, 1000):
        assert se.S_symbolic(t).subs(n, nv) == sympy.Rational(ref_S(nv, t).numerator, ref_S(nv, t).denominator)
    s = se.S_series(t)
    assert s[0] == t + 1 and (t < 2 or s[1] == math.comb(t + 3, 5))


def test_generating_function_coefficients():
    u = sympy.Symbol("u")
    for nv in (2, 5):
        ser = sympy.series(se.generating_function(u, nv), u, 0, 10).removeO()
        for k in range(8):
            # (1/n) E tr(...) = Q n^k / ... : E tr = Q_{n,k} n^(k+1)
            assert ser.coeff(u, k + 2) * sympy.factorial(k) == ref_Q(nv, k) * nv ** (k + 1)


@given(n=st.integers(1, 10**5), t=st.integers(0, 600))
def test_Q_all_matches_exact(n, t):
    got = Q_all(n, t)
    assert got.shape == (t + 1,) and got.dtype == np.float64
    for k in sorted({0, t // 3, t // 2, t}):
        exact = ref_Q(n, k)
        if exact > Fraction(np.finfo(np.float64).max):
            assert got[k] == np.inf
        else:
            assert rel(got[k], exact) <= 1e-12


def test_Q_all_overflow_is_inf_not_nan():
    q = Q_all(10, 2000)
    fin = q[np.isfinite(q)]
    assert not np.any(np.isnan(q)) and np.isinf(q[-1])
    assert np.all(np.diff(fin) >= -1e-13 * fin[1:])            # increasing in k, up to rounding
    # the last finite entry is the last k with Q below float64's maximum (not lost to e^a overflowing)
    k_last = fin.size - 1
    assert log_Q(10, k_last) < math.log(np.finfo(np.float64).max) < log_Q(10, k_last + 1)


@pytest.mark.parametrize("n,k", [(1, 30), (7, 50), (100, 400), (10**6, 3), (10**9, 2000)])
def test_log_Q_and_log_S(n, k):
    with mpmath.workdps(60):
        lq = mpmath.log(mpmath.mpf(ref_Q(n, k).numerator) / ref_Q(n, k).denominator)
        s = ref_S(n, k) if k <= 400 else None
        assert abs(log_Q(n, k) - lq) <= 1e-15 * max(1.0, abs(lq)) + 1e-17
        if s is not None:
            ls = mpmath.log(mpmath.mpf(s.numerator) / s.denominator)
            assert abs(log_S(n, k) - ls) <= 1e-14 * max(1.0, abs(ls))


def test_float_overflow_raises_and_points_to_logs():
    with pytest.raises(OverflowError, match="log_Q"):
        Q(100, 10**4)
    with pytest.raises(OverflowError, match="log_S"):
        S(100, 10**4)


# --- precision ladder and balls ---------------------------------------------------------------------
LADDER = (15, 30, 60, 120)


@pytest.mark.parametrize("n,k", [(1, 0), (3, 7), (10**4, 150), (10**12, 10**6), (10**15, 10**5), (10**18, 3),
                                 (50, 3000), (2**70, 2**20)])
def test_mp_precision_ladder_Q(n, k):
    vals = {d: Q(n, k, method="mp", dps=d) for d in LADDER}
    with mpmath.workdps(130):
        for lo, hi in zip(LADDER, LADDER[1:]):
            assert abs(vals[lo] - vals[hi]) <= mpmath.mpf(10) ** (1 - lo) * abs(vals[hi])
    if k <= 3000 and n <= 10**15:
        assert mp_rel(vals[120], ref_Q(n, k), 300) <= mpmath.mpf(10) ** -119


@pytest.mark.parametrize("n,t", [(5, 20), (10**4, 300), (10**9, 300), (30, 400)])
def test_mp_precision_ladder_S(n, t):
    vals = {d: S(n, t, method="mp", dps=d) for d in LADDER}
    with mpmath.workdps(130):
        for lo, hi in zip(LADDER, LADDER[1:]):
            assert abs(vals[lo] - vals[hi]) <= mpmath.mpf(10) ** (1 - lo) * abs(vals[hi])
    assert mp_rel(vals[120], ref_S(n, t), 300) <= mpmath.mpf(10) ** -119


# --- torture ladder: digits delivered = digits asked at every (n, k) ------------------------------------
TORTURE_K = (10, 10**3, 10**6, 10**9, 10**12, 10**15, 10**20, 10**25, 10**30)
TORTURE_N = (12, 10**3, 10**6, 10**9, 10**12, 10**18)


def arb_to_mpf(b):
    """The ball's midpoint as an mpf, exactly (the caller's working precision must hold its mantissa)."""
    man, exp = b.mid().man_exp()
    return mpmath.mpf((int(man), int(exp)))


@pytest.mark.parametrize("n", TORTURE_N)
def test_mp_torture_ladder_Q(n):
    """Q mp at 15/25/50 digits within 10^(1-dps) of a ball at 200 bits more, k up to 1e30 (issue 33: the
    amplification by exp of a large logarithm cost up to 106 bits at n = 12, k = 1e30)."""
    for k in TORTURE_K:
        ball = arb_Q(n, k, 400)
        for dps in (15, 25, 50):
            q = Q(n, k, method="mp", dps=dps)
            with mpmath.workprec(800):
                ref = arb_to_mpf(ball)
                err = abs(q - ref) / ref
            assert err <= mpmath.mpf(10) ** (1 - dps), (n, k, dps, err)


@pytest.mark.parametrize("n,t", [(10**10, 10**8), (10**15, 10**6), (10**6, 10**5)])
def test_S_mp_long_sums_match_the_mpmath_only_path(n, t, monkeypatch):
    """Long S sums take the ball's midpoint (O(1) in t) when python-flint is there: the same digits as the
    mpmath-only path (top-down sum / sumem, forced here), an independent evaluation."""
    from theory.signal_energy import _mp
    assert _mp._S_via_ball(n, t, 40) is not None            # the routed path is the one under test
    fast = S(n, t, method="mp", dps=40)
    monkeypatch.setattr(_mp, "_S_via_ball", lambda *_: None)   # the mpmath-only paths, as without python-flint
    native = S(n, t, method="mp", dps=50)
    with mpmath.workdps(60):
        assert abs(fast - native) <= mpmath.mpf(10) ** -39 * native


def test_mp_does_not_touch_global_precision():
    before = mpmath.mp.prec
    Q(10**12, 10**6, method="mp", dps=200)
    S(100, 50, method="mp", dps=200)
    assert mpmath.mp.prec == before


@pytest.mark.parametrize("n,k", [(1, 5), (10, 5), (100, 500), (10**6, 1000), (10**12, 10)])
def test_ball_contains_exact(n, k):
    for dps in (15, 40):
        b = Q(n, k, method="ball", dps=dps)
        exact = ref_Q(n, k)
        assert abs(frac_of_arb(b.mid()) - exact) <= frac_of_arb(b.rad())
        assert frac_of_arb(b.rad()) <= Fraction(1, 10**dps) * exact


@pytest.mark.parametrize("n,t", [(3, 40), (100, 50), (10**6, 300)])
def test_ball_S_contains_exact(n, t):
    b = S(n, t, method="ball", dps=30)
    exact = ref_S(n, t)
    assert abs(frac_of_arb(b.mid()) - exact) <= frac_of_arb(b.rad()) <= Fraction(1, 10**30) * exact


# --- huge but valid inputs ----------------------------------------------------------------------------
def test_huge_n_float_equals_mp():
    for n, k in [(10**15, 10**5), (10**18, 10**6), (10**18, 0)]:
        q = Q(n, k)
        with mpmath.workdps(40):
            assert abs(q - Q(n, k, method="mp", dps=40)) <= 1e-13 * q


@pytest.mark.parametrize("n,k", [(10**1000, 5), (10**1000, 40), (2**900 - 8, 5), (2**900 - 7, 5), (3**700, 2)])
def test_mp_past_float64_widths_against_exact_integers(n, k):
    """n + k + 2 on both sides of 2^900, where the guard bits of theory.signal_energy._factorial_logs switch from
    float to exact-integer logs (issue 43: dropping the log2(n+m) term there made Q(10**1000, 5, "mp", 30) = 0.0):
    Q and log Q at 30 digits against the exact Fraction of Theorem 2.1 evaluated at 80 digits."""
    exact = ref_Q(n, k)
    assert mp_rel(Q(n, k, method="mp", dps=30), exact, dps=80) <= mpmath.mpf(10) ** -30
    with mpmath.workdps(80):
        log_exact = mpmath.log1p(mpmath.mpf((exact - 1).numerator) / (exact - 1).denominator)
        assert abs(log_Q(n, k, method="mp", dps=30) / log_exact - 1) <= mpmath.mpf(10) ** -29
    assert arb_contains_fraction(Q(n, k, method="ball", dps=30), exact)


def test_subcritical_series_leading_term():
    # Q = 1 + C(k+2,4)/n^2 + O(k^8/n^4): the float path resolves a deviation of 1e-14
    n, k = 10**9, 100
    q = Q(n, k, method="exact")
    assert q - 1 - Fraction(math.comb(k + 2, 4), n * n) == sum(
        Fraction(c, n ** (2 * g)) for g, c in enumerate(se.Q_series(k)) if g >= 2)


# --- bad input ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("fn", [Q, S, log_Q, log_S, Q_all])
@pytest.mark.parametrize("bad,exc,name", [
    ((2.5, 3), TypeError, "n"), ((4, 3.0), TypeError, "k|t"), ((True, 3), TypeError, "n"),
    ((4, False), TypeError, "k|t"), ((float("nan"), 3), TypeError, "n"), ((0, 3), ValueError, "n"),
    ((-4, 3), ValueError, "n"), ((4, -1), ValueError, "k|t"), (("4", 3), TypeError, "n"), ((None, 3), TypeError, "n"),
])
def test_bad_arguments(fn, bad, exc, name):
    with pytest.raises(exc, match=name):
        fn(*bad)


@pytest.mark.parametrize("fn", [Q, S])
def test_bad_method_and_dps(fn):
    with pytest.raises(ValueError, match="method"):
        fn(4, 3, method="fast")
    with pytest.raises(TypeError, match="method"):
        fn(4, 3, method=None)
    with pytest.raises(ValueError, match="dps"):
        fn(4, 3, method="mp", dps=0)
    with pytest.raises(TypeError, match="dps"):
        fn(4, 3, method="mp", dps=30.0)
    with pytest.raises(ValueError, match="dps"):
        fn(4, 3, method="float", dps=30)


def test_hultman_bad_input():
    with pytest.raises(ValueError, match="k"):
        hultman_row(-1)
    with pytest.raises(TypeError, match="k"):
        hultman_row(1.0)


# --- exact paths: FLINT and the Python-int fallback --------------------------------------------------
def horner_S(n: int, t: int) -> Fraction:
    """S by the plain O(t) Horner loop over integer trace moments (independent of the binary splitting)."""
    num = 0
    for k in range(t + 1):
        num = num * n + (math.prod(n + j for j in range(k + 2)) - math.prod(n - j for j in range(k + 2))) \
            // ((k + 1) * (k + 2))
    return Fraction(num, n ** (t + 1))


def _without_flint(monkeypatch):
    """The Python-int fallback of the exact paths: python-flint reported missing where they ask for it."""
    from theory.signal_energy import _checks, _exact

    for mod in (_checks, _exact):
        monkeypatch.setattr(mod, "_flint_or_none", lambda: None)


@pytest.mark.parametrize("flint_on", [True, False])
@pytest.mark.parametrize("n,t", [(1, 0), (1, 7), (2, 5), (3, 40), (7, 6), (10, 9), (10, 10), (37, 100), (10**6, 60)])
def test_exact_paths_with_and_without_flint(monkeypatch, flint_on, n, t):
    if not flint_on:
        _without_flint(monkeypatch)
    assert S(n, t, method="exact") == horner_S(n, t)
    q = Q(n, t, method="exact")
    assert q == ref_Q(n, t) and math.gcd(q.numerator, q.denominator) == 1


def test_exact_large_arguments_agree_between_flint_and_fallback(monkeypatch):
    pytest.importorskip("flint")
    a = Q(10**9, 2000, method="exact"), S(10**6, 300, method="exact")
    _without_flint(monkeypatch)
    assert (Q(10**9, 2000, method="exact"), S(10**6, 300, method="exact")) == a


# --- certified series for S (ball) ----------------------------------------------------------------------
def arb_contains_fraction(b, x: Fraction) -> bool:
    import flint
    with flint.ctx.workprec(4 * max(64, x.numerator.bit_length(), x.denominator.bit_length())):
        return bool(b.contains(flint.arb(x.numerator) / flint.arb(x.denominator)))


@pytest.mark.parametrize("G", [1, 2, 3, 5])
def test_series_head_is_the_truncated_series_summed_term_by_term(G):
    # reference: the exact coefficients of every Q_{n,k} (Hultman rows), summed over k one by one, far beyond
    # the 4G - 3 interpolation points of the Newton form; both integer types (Python int, FLINT fmpz)
    flint = pytest.importorskip("flint")
    running = [0] * G                       # sum_{k<=t} q_g(k), g < G
    for t in range(90):
        for g, c in enumerate(se.Q_series(t)[:G]):
            running[g] += c
        for n in (1, 3, 10**6):
            expected = sum(Fraction(c, n ** (2 * g)) for g, c in enumerate(running))
            for Z in (int, flint.fmpz):
                assert Fraction(se_ball._series_head(n, t, G, Z), n ** (2 * (G - 1))) == expected


@pytest.mark.parametrize("n,t", [(10**9, 5000), (10**10, 2500), (10**12, 3000), (10**14, 10**4), (2**80, 7777)])
def test_ball_S_series_contains_exact(n, t):
    pytest.importorskip("flint")
    assert se_ball._S_ball_series_terms(n, t, 140) is not None          # the series path is the one tested
    for dps in (15, 40):
        b = S(n, t, method="ball", dps=dps)
        exact = S(n, t, method="exact")
        assert arb_contains_fraction(b, exact)
        assert frac_of_arb(b.rad()) <= Fraction(1, 10**dps) * exact


@pytest.mark.parametrize("G", [1, 2, 3])
def test_series_remainder_bound_is_rigorous_with_few_terms(G):
    # few terms: the remainder term carries the whole error, and the ball must still contain S
    flint = pytest.importorskip("flint")
    for n, t in [(10**8, 2001), (10**9, 3000), (10**7, 500)]:   # 500: below the series threshold of S
        b = se_ball._S_ball_series(n, t, G, 200)
        exact = S(n, t, method="exact")
        assert arb_contains_fraction(b, exact)
        with flint.ctx.workprec(200):
            # the ball is [T_G, T_G + R] up to rounding: its lower end is within rounding of T_G <= S
            assert frac_of_arb(b.rad()) > 0


# critical range: c = t / sqrt(n) from 1.6 to 25 (X = (t + 5/2)^2 / 2n from 1.3 to 310), where the
# remainder bound needs its general form (rho < 1, not X < 1)
CRITICAL = [(10**7, 5000), (10**6, 3000), (10**5, 2500), (4 * 10**4, 2500), (10**4, 2500)]


@pytest.mark.parametrize("n,t", CRITICAL)
def test_critical_ball_contains_the_exact_value(n, t):
    pytest.importorskip("flint")
    exact = S(n, t, method="exact")
    assert exact == ref_S_fast(n, t)
    for dps in (15, 40):
        target = int(dps * 3.33) + 4
        assert se_ball._S_ball_series_terms(n, t, target + 4) is not None     # the series path is the one tested
        assert math.comb(t + 2, 2) > n                                      # beyond the old x <= 1/16 range
        b = S(n, t, method="ball", dps=dps)
        assert arb_contains_fraction(b, exact)
        assert frac_of_arb(b.rad()) <= Fraction(1, 10**dps) * exact


@pytest.mark.parametrize("n,t", CRITICAL[:3])
def test_critical_remainder_bound_holds_with_too_few_terms(n, t):
    # few terms: the remainder carries most of the value, and the ball must still contain S
    flint = pytest.importorskip("flint")
    exact = S(n, t, method="exact")
    X = Fraction(2 * t + 5, 2) ** 2 / (2 * n)
    first = next(G for G in range(1, 50) if X * X < (2 * G + 2) * (2 * G + 3))   # rho < 1 from here on
    for G in range(max(1, first - 1), first + 4):
        b = se_ball._S_ball_series(n, t, G, 200)
        assert arb_contains_fraction(b, exact)
        if G < first:
            assert not b.is_finite()        # rho >= 1: no bound, an infinite radius
        else:
            with flint.ctx.workprec(200):
                assert b.is_finite() and frac_of_arb(b.rad()) > 0


@given(st.integers(2001, 3000), st.floats(0.3, 20.0))
def test_critical_ball_property(t, c):
    pytest.importorskip("flint")
    n = max(1, round((t / c) ** 2))
    b = S(n, t, method="ball", dps=20)
    assert arb_contains_fraction(b, S(n, t, method="exact"))


def test_critical_ball_at_t_1e8_agrees_with_mp():
    # c = 1 and c = 10 at t = 10**8: against the mp path (Euler-Maclaurin of the analytic summand, another route)
    pytest.importorskip("flint")
    for n in (10**16, 10**14):
        b = S(n, 10**8, method="ball", dps=40)
        m = S(n, 10**8, method="mp", dps=45)
        with mpmath.workdps(50):
            assert abs(mpmath.mpf(b.mid().str(50, radius=False)) - m) <= mpmath.mpf(10) ** -39 * m
            assert mpmath.mpf(b.rad().str(5, radius=False)) <= mpmath.mpf(10) ** -40 * m


def test_ball_S_large_t_agrees_with_mp():
    pytest.importorskip("flint")
    b = S(10**18, 10**8, method="ball", dps=40)
    m = S(10**18, 10**8, method="mp", dps=40)
    with mpmath.workdps(45):
        assert abs(mpmath.mpf(b.mid().str(45, radius=False)) - m) <= mpmath.mpf(10) ** -37 * m


# --- method="mp" for Q_all / log_Q / log_S, the shared precision default ---------------------------------------
def test_default_dps_is_the_ambient_precision():
    # dps=None: mpmath's own convention, the caller's mpmath.mp.dps (tests/test_ambient_precision.py)
    with mpmath.workdps(30):
        assert mp_rel(Q(10**4, 50, method="mp"), ref_Q(10**4, 50)) <= mpmath.mpf(10) ** -29
    assert Q(10**4, 50, method="mp") == Q(10**4, 50, method="mp", dps=mpmath.mp.dps)
    with pytest.raises(ValueError, match="dps"):
        Q(4, 3, method="mp", dps=10**6)


@pytest.mark.parametrize("n,t", [(1, 5), (4, 10), (100, 150), (10**6, 40)])
def test_Q_all_mp_matches_exact(n, t):
    vals = Q_all(n, t, method="mp", dps=40)
    assert len(vals) == t + 1
    for k, v in enumerate(vals):
        assert mp_rel(v, ref_Q(n, k)) <= mpmath.mpf(10) ** -39


@pytest.mark.parametrize("n,t", [(1, 5), (4, 10), (100, 150), (10**6, 40), (10**9, 3)])
def test_log_Q_log_S_mp_match_exact(n, t):
    with mpmath.workdps(120):
        lq = mpmath.log(mpmath.mpf(ref_Q(n, t).numerator) / ref_Q(n, t).denominator)
        ls = mpmath.log(mpmath.mpf(ref_S(n, t).numerator) / ref_S(n, t).denominator)
        for got, want in ((log_Q(n, t, method="mp", dps=40), lq), (log_S(n, t, method="mp", dps=40), ls)):
            assert abs(got - want) <= mpmath.mpf(10) ** -39 * max(abs(want), mpmath.mpf(10) ** -30)


@pytest.mark.parametrize("fn", [Q_all, log_Q, log_S])
def test_mp_method_arguments(fn):
    with pytest.raises(ValueError, match="method"):
        fn(4, 3, method="exact")
    with pytest.raises(ValueError, match="dps"):
        fn(4, 3, method="float", dps=30)
    with pytest.raises(TypeError, match="dps"):
        fn(4, 3, method="mp", dps=30.0)


def test_S_early_stop_pinned_at_large_t():
    # the top-down float sum stops early; a looser stop gives a 4.1e-13 error here
    s = S(2 * 10**11, 4_000_000)
    with mpmath.workdps(30):
        m = S(2 * 10**11, 4_000_000, method="mp", dps=30)
        assert abs(s - m) <= 1e-13 * m


# --- the m <= n boundary of the falling factorial n_(m), m = k + 2 ----------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_falling_factorial_boundary_against_wick(n):
    """At m = k + 2 = n the falling factorial is n! (not 0), one step further it vanishes: trace_moment and
    every path of Q must match the Wick enumeration (an independent count of pairings) on both sides."""
    from numerics.signal_propagation.wick import wick_polynomial

    for k in (n - 3, n - 2, n - 1):
        if k < 0:
            continue
        exact = sum(c * n**j for j, c in enumerate(wick_polynomial(k)))
        assert trace_moment(n, k) == exact, (n, k)
        q = Fraction(exact, n ** (k + 1))
        assert Q(n, k, method="exact") == q
        assert abs(Q(n, k) - float(q)) <= 4e-16 * float(q)
        assert abs(float(Q(n, k, method="mp", dps=30)) - float(q)) <= 4e-16 * float(q)


@pytest.mark.parametrize("n", [1, 12, 64, 10**18])
def test_S_ball_at_t_0_is_one(n):
    """S(12, 0, method="ball") raised ZeroDivisionError (issue 33); S_{n,0} = Q_{n,0} = 1."""
    b = S(n, 0, method="ball", dps=20)
    assert abs(frac_of_arb(b.mid()) - 1) <= frac_of_arb(b.rad()) and frac_of_arb(b.rad()) < Fraction(1, 10**20)


def test_Q_all_mp_has_a_stated_maximum():
    """Q_all(8, 3.5e6, method="mp") ran for minutes (issue 33 fuzz): refused past MAX_QALL_MP_T, naming k."""
    with pytest.raises(ValueError, match="k must be an integer <= 100000"):
        Q_all(8, se.MAX_QALL_MP_T + 1, method="mp", dps=30)
