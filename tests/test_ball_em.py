"""Tests of the certified S ball between the critical series and the supercritical top terms (theory._ball_em:
Euler-Maclaurin on the top window with a proved remainder), through S(method="ball") and directly.

References: S(method="exact") (a Fraction by binary splitting, another algorithm) and S(method="mp").
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

flint = pytest.importorskip("flint")

from theory.signal_energy import _ball as se_ball, _ball_em, _ball_super  # noqa: E402
from theory.signal_energy import S  # noqa: E402


def _contains(ball, value: Fraction) -> bool:
    with flint.ctx.workprec(4 * max(64, value.numerator.bit_length(), value.denominator.bit_length())):
        return bool(ball.contains(flint.arb(value.numerator) / flint.arb(value.denominator)))


# c = t / sqrt(n) from 16 to 67: windows that start at the cut K + 1 (the head S_{n,K} is a ball of its own)
# and windows higher up (the terms below bounded into the radius)
CASES = [(7000, 3000), (2000, 3000), (4500, 4000), (3000, 2100), (20000, 4000), (40000, 5000), (10**5, 5000)]


@pytest.mark.parametrize("n,t", CASES)
@pytest.mark.parametrize("dps", [15, 40])
def test_em_ball_contains_the_exact_value(n, t, dps):
    target = int(dps * 3.33) + 4
    assert _ball_em.plan(n, t, target) is not None
    ball = se_ball._S_ball_em(flint, n, t, dps, target)
    exact = S(n, t, method="exact")
    assert ball is not None and _contains(ball, exact)
    assert ball.rel_accuracy_bits() >= target


def test_both_kinds_of_window_are_tested():
    kinds = {(_ball_em.plan(n, t, 137)[1] == _ball_em.plan(n, t, 137)[0] + 1) for n, t in CASES}
    assert kinds == {True, False}


@pytest.mark.parametrize("P", [1, 2, 3])
def test_remainder_bound_is_rigorous_with_too_few_terms(P, monkeypatch):
    # few Bernoulli terms: the Euler-Maclaurin bound carries the error, and the ball must still contain S
    n, t = 20000, 4000
    K, a, _, _ = _ball_em.plan(n, t, 137)
    monkeypatch.setattr(_ball_em, "plan", lambda *args: (K, a, P, 2 * P * n / t))
    head = S(n, K, method="ball", dps=45) if a == K + 1 else None
    ball = _ball_em.S_ball_em(flint, n, t, 137, 260, head)
    assert _contains(ball, S(n, t, method="exact"))


def test_the_method_does_not_apply_below_its_cut_or_far_above():
    assert _ball_em.plan(10**16, 10**8, 137) is None            # c = 1: below the cut ~ 10 sqrt(n)
    assert _ball_em.plan(300, 3000, 137) is None                # t/n = 10: the remainder does not fall


def test_through_S_between_the_series_and_the_top_terms_against_mp():
    # t = 10**6, c = 35: the series needs more than 400 terms, the supercritical path more than 1e5 steps
    n, t, dps = 816_326_530, 10**6, 40
    target = int(dps * 3.33) + 4
    assert se_ball._S_ball_series_terms(n, t, target + 4) is None and not _ball_super.applies(n, t, target)
    assert _ball_em.plan(n, t, target) is not None and not se_ball._S_ball_is_direct(n, t, dps)
    ball = S(n, t, method="ball", dps=dps)
    m = S(n, t, method="mp", dps=dps)              # its direct top-down sum (93k terms; 45 digits would take sumem)
    with mpmath.workdps(dps + 10):
        mid = mpmath.mpf(ball.mid().str(dps + 10, radius=False))
        rad = mpmath.mpf(ball.rad().str(5, radius=False))
        assert abs(mid - m) <= rad + m * mpmath.mpf(10) ** -(dps - 1)
        assert rad <= m * mpmath.mpf(10) ** -dps


def test_cut_makes_the_falling_part_negligible():
    for n in (10, 10**6, 10**18):
        for bits in (50, 137, 400):
            K = _ball_em.cut(n, bits)
            assert (K + 2) * (K + 3) / n >= (bits + 10) * math.log(2)
