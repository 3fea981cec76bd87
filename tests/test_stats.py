"""validation.stats: the Bonferroni critical value and the agreement rule, against scipy's normal tail."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

from validation.stats import Z_MIN, agreement, z_for_false_alarm


@pytest.mark.parametrize("p, m", [(1e-6, 1), (1e-6, 2), (1e-6, 10), (1e-6, 1000), (1e-9, 7), (1e-3, 50)])
def test_bonferroni_family_rate(p, m):
    """m two-sided comparisons at z: the union bound m * 2 * P(N > z) equals the family rate p (above the
    floor), computed from the normal survival function (not the quantile the code inverts; 1 - p/(2m) rounds
    to float64 before the inversion, so the agreement is to a relative 1e-6)."""
    z = z_for_false_alarm(p=p, m=m)
    family = m * 2 * norm.sf(z)
    if z > Z_MIN:
        assert abs(family - p) <= 1e-6 * p
    else:
        assert z == Z_MIN and family <= p


def test_bonferroni_grows_with_the_number_of_comparisons():
    zs = [z_for_false_alarm(p=1e-6, m=m) for m in (1, 2, 4, 8, 1000)]
    assert all(a < b for a, b in zip(zs, zs[1:]))
    # doubling m halves the per-comparison tail: 2 P(N > z_2m) = (1/2) 2 P(N > z_m)
    assert abs(norm.sf(z_for_false_alarm(1e-6, 20)) / norm.sf(z_for_false_alarm(1e-6, 10)) - 0.5) < 1e-6


@pytest.mark.parametrize("p, m", [(0.0, 1), (1.0, 1), (1e-6, 0)])
def test_bad_arguments(p, m):
    with pytest.raises(ValueError, match="p|m"):
        z_for_false_alarm(p=p, m=m)


def test_agreement_rule():
    a = agreement(np.array([1.0, 2.0]), np.array([0.1, 0.1]), np.array([1.0, 2.44]), z=4.5)
    assert a.ok and abs(a.max_abs_z - 4.4) < 1e-9
    assert not agreement(np.array([1.0]), np.array([0.1]), np.array([1.5]), z=4.5).ok
