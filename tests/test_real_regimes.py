"""Tests of numerics.signal_propagation.real_regimes (Q^R / Q^C along k = c sqrt n from the exact rows) and its verdict."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from numerics.signal_propagation.real_regimes import (CORRECTION_SERIES, ratio_along_ray, real_correction, real_limit,
                                   regimes_data, series_correction)
from theory.real_rows import real_row
from theory.regimes import critical_curve
from theory.signal_energy import hultman_row
from validation.checks.real_regimes import verdict_regimes
from validation.registry import FAIL, INCONCLUSIVE, PASS


def test_ratio_along_ray_is_exact_and_at_least_one():
    for k, n, qr, qc in ratio_along_ray(2, k=10):
        assert n == Fraction(k * k, 4)
        assert qr == sum(c * n**j for j, c in enumerate(real_row(k))) / n ** (k + 1)
        assert qc == sum(c * n**j for j, c in enumerate(hultman_row(k))) / n ** (k + 1)
        assert qr >= qc


def test_limit_is_the_complex_profile_and_correction_matches_the_series_at_small_c():
    for c in (0.25, 0.5):
        L, eL = real_limit(c)
        assert abs(L - float(critical_curve(c))) <= 10 * eL + 1e-12
        D, eD = real_correction(c)
        # the truncated series misses d_7 c^13 + ...: below 1e-3 c^13 for these c (d_h decreases ~ 0.2x per h)
        assert abs(D - series_correction(c)) <= 10 * eD + 1e-3 * c**13


def test_series_leading_term_is_the_n_k_minus_1_formula():
    """d_2 = 1/4: the k^3 term of the real-minus-complex n^(k-1) coefficient (4k^3 - ...)/16."""
    assert CORRECTION_SERIES[2] == Fraction(4, 16)


def test_verdict_regimes_on_synthetic_data():
    base = {"ratios": [(1, 4.0, 1.0), (2, 16.0, 1.01)], "min_ratio_exact_ge_1": True, "limit": (1.5, 1e-6),
            "f": 1.5, "D": (0.3, 1e-6), "series": 0.3}
    assert verdict_regimes({1.0: base}).verdict == PASS
    assert verdict_regimes({1.0: {**base, "min_ratio_exact_ge_1": False}}).verdict == FAIL
    assert verdict_regimes({1.0: {**base, "limit": (1.6, 1e-6)}}).verdict == INCONCLUSIVE


def test_regimes_data_on_the_rows_passes():
    assert verdict_regimes(regimes_data((0.5, 1.0))).verdict == PASS


@pytest.mark.parametrize("bad, exc", [(0.0, ValueError), (-1.0, ValueError), ("1", TypeError), (math.inf, ValueError)])
def test_bad_c(bad, exc):
    with pytest.raises(exc, match="c"):
        ratio_along_ray(bad)
