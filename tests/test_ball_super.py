"""Tests of the certified supercritical S ball (theory.signal_energy._ball_super via S(method="ball")).

Reference: S(method="exact") (a Fraction: binary splitting, a different algorithm) and S(method="mp").
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from theory.signal_energy import _ball_super
from theory.signal_energy import S


def _contains(ball, value: Fraction) -> bool:
    with mpmath.workdps(80):
        mid = mpmath.mpf(ball.mid().str(70, radius=False))
        rad = mpmath.mpf(ball.rad().str(10, radius=False))
        return abs(mid - mpmath.mpf(value.numerator) / value.denominator) <= rad * (1 + mpmath.mpf(10) ** -8)


@pytest.mark.parametrize("n, t, dps", [(50, 400, 30), (7, 300, 50), (1000, 2500, 40), (200, 900, 20)])
def test_ball_contains_the_exact_value_and_is_as_accurate_as_asked(n, t, dps):
    assert _ball_super.applies(n, t, int(dps * 3.33) + 4)
    ball = S(n, t, method="ball", dps=dps)
    assert _contains(ball, S(n, t, method="exact"))
    assert ball.rel_accuracy_bits() >= int(dps * 3.33) + 4


def test_critical_and_subcritical_do_not_take_this_path():
    assert not _ball_super.applies(10**16, 10**8, 137)      # c = 1: the terms do not decay from the top
    assert not _ball_super.applies(10**18, 10**6, 137)


def test_large_supercritical_against_mp():
    n, t = 10**10, 10**8
    ball = S(n, t, method="ball", dps=30)
    with mpmath.workdps(40):
        m = S(n, t, method="mp", dps=40)
        mid = mpmath.mpf(ball.mid().str(40, radius=False))
        assert abs(mid / m - 1) < mpmath.mpf(10) ** -29
