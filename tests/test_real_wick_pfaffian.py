"""Tests of the polynomial-time real-weight rows (numerics.signal_propagation.real_wick_pfaffian), the loop equations
(numerics.signal_propagation.loop_equations) and the quaternion Monte Carlo of the duality (numerics.signal_propagation.quaternion_ginibre).

References: the matching enumeration (numerics.signal_propagation.real_wick, algorithm="enumerate"; k <= 10 in
tests/test_real_weights.py), the Schwinger-Dyson
recursion (a third algorithm), hand-computed word moments, Monte Carlo with se from the same run.
"""

from __future__ import annotations

import doctest
import math
from fractions import Fraction

import pytest

import numerics.signal_propagation.loop_equations as le
import numerics.signal_propagation.quaternion_ginibre as qg
import numerics.signal_propagation.real_wick_pfaffian as pf
from numerics.signal_propagation.ginibre import estimate_Q
from numerics.signal_propagation.loop_equations import loop_equation_polynomial, word_moment
from numerics.signal_propagation.quaternion_ginibre import quaternion_moments
from numerics.signal_propagation.real_wick import published_rows, real_wick_polynomial, row_identities
from numerics.signal_propagation.real_wick_pfaffian import interpolate_row, pfaffian_values, real_wick_rows, value_bound
from validation.checks.real_pfaffian import verdict_mc, verdict_same_rows
from validation.registry import FAIL, PASS
from numerics.stats import z_for_false_alarm


@pytest.mark.parametrize("module", [pf, le, qg])
def test_doctests(module):
    assert doctest.testmod(module, raise_on_error=False).failed == 0


def test_rows_equal_the_loop_equations_k_le_12():
    rows = real_wick_rows(12)
    for k in range(13):
        assert rows[k] == loop_equation_polynomial(k), k


def test_rows_equal_the_enumerated_published_rows_11_12():
    """k = 11, 12 were produced by the enumeration (13 CPU-min for k = 12) before the Pfaffian route existed."""
    enumerated = {11: [0, 3532234752, 5376333888, 3345068432, 1197738296, 253612716, 40483862, 3485268, 343698,
                       8632, 1030, 0, 1],
                  12: [0, 78257198592, 121387827840, 79540893056, 28949224688, 6912740032, 1050472668, 126621152,
                       8473032, 677080, 13672, 1412, 0, 1]}
    rows = real_wick_rows(12)
    assert all(rows[k] == v for k, v in enumerated.items())


def test_runs_with_different_primes_and_roots_agree():
    """K = 12 and K = 21 use different roots-of-unity orders (15, 23) and different primes."""
    small, big = real_wick_rows(12), real_wick_rows(21)
    assert all(small[k] == big[k] for k in small)


def test_identities_on_every_row_to_60():
    """A fresh run reproduces the published rows <= 30; every published row (<= 60) satisfies the identities."""
    published = published_rows()
    assert max(published) == 60
    assert real_wick_rows(30) == {k: row for k, row in published.items() if k <= 30}
    for k, row in published.items():
        assert all(holds for _, _, holds in row_identities(k, row)), k
        assert sum(row) == math.prod(range(2 * k - 1, 0, -2))            # n = 1 is not a node: a real check
        if k >= 1:
            assert row[k] == 0
        assert sum(c * (-2) ** j for j, c in enumerate(row)) == 2 * (-1) ** (k + 1) * math.factorial(k + 1)


def test_value_bound_holds_and_values_are_the_rows_at_the_nodes():
    values = pfaffian_values(14)
    rows = published_rows()
    for k, vals in values.items():
        for m, v in enumerate(vals, start=1):
            assert abs(v) <= value_bound(k, m)
            assert v == sum(c * (-2 * m) ** j for j, c in enumerate(rows[k]))


@pytest.mark.parametrize("K", [3, 8, 13])
def test_flint_kernel_equals_the_numba_kernel_residue_by_residue(K):
    # the two eliminations, written independently (hand loops with parity halving / FLINT series), on the
    # same entries for two primes and every root-of-unity power used
    pytest.importorskip("flint")
    import numpy as np
    M, D, L = K + 1, 2 * K + 2, pf._roots_order(K)
    for p, omega in pf._primes(K, 2):
        fact = np.ones(2 * M + D + 2, dtype=np.int64)
        for i in range(1, len(fact)):
            fact[i] = fact[i - 1] * i % p
        for j in range((L + 1) // 2):
            w = pow(omega, j, p)
            cw = np.array([(pow(w, d, p) + pow(w, -d, p)) % p for d in range(D + 1)], dtype=np.int64)
            assert np.array_equal(pf._leading_ratios(M, D, p, fact, cw), pf._leading_ratios_flint(M, D, p, fact, cw))


def test_flint_backend_gives_the_loop_equation_and_committed_rows():
    pytest.importorskip("flint")
    rows = real_wick_rows(16, backend="flint")
    assert all(rows[k] == loop_equation_polynomial(k) for k in range(11))    # a third algorithm
    assert rows == {k: published_rows()[k] for k in range(17)}
    assert pfaffian_values(9, backend="flint") == pfaffian_values(9)
    with pytest.raises(ValueError, match="backend"):
        real_wick_rows(3, backend="nmod")
    with pytest.raises(ValueError, match="backend"):
        pfaffian_values(3, backend="gpu")


def test_interpolation_recovers_a_polynomial_and_rejects_a_wrong_value():
    row = [0, 7, -3, 0, 5]
    vals = [sum(c * (-2 * m) ** j for j, c in enumerate(row)) for m in range(1, 5)]
    assert interpolate_row(3, vals) == row
    bad = list(vals)
    bad[2] += 1                                                          # one wrong residue: not integral
    with pytest.raises(ValueError, match="not integral"):
        interpolate_row(3, bad)


def test_result_is_a_copy():
    rows = real_wick_rows(5)
    rows[5][1] = -1
    assert real_wick_rows(5)[5][1] == 304


@pytest.mark.parametrize("bad, exc", [(-1, ValueError), (pf.K_MAX_PFAFFIAN + 1, ValueError), (2.0, TypeError),
                                      (True, TypeError), ("3", TypeError)])
def test_bad_k(bad, exc):
    with pytest.raises(exc, match="k"):
        real_wick_rows(bad)
    with pytest.raises(exc, match="k"):
        real_wick_polynomial(bad)


def test_bad_method_and_executor():
    with pytest.raises(ValueError, match="algorithm"):
        real_wick_polynomial(3, algorithm="fast")
    with pytest.raises(TypeError, match="executor"):
        real_wick_polynomial(3, executor=object())


# --- loop equations ------------------------------------------------------------------------------------------
def test_word_moments_by_hand():
    assert word_moment("") == [0, 1]                     # tr I = n
    assert word_moment("0") == [0]                       # odd moments vanish
    assert word_moment("00") == [0, 1]                   # E tr(G^2) = sum_ij E G_ij G_ji = n
    assert word_moment("01") == [0, 0, 1]                # E tr(G G^T) = n^2
    assert word_moment(["0", "1"]) == [0, 1]               # E tr(G) tr(G^T) = E (sum G_ii)^2 = n
    assert word_moment(["0", "0", "", ""]) == [0, 0, 0, 1]  # n^2 E tr(G)^2
    # E tr(G^4), G_ab G_bc G_cd G_da: pairs (12)(34) force a = b = c = d (n), so do (14)(23) (n); (13)(24)
    # only a = c, b = d (n^2)
    assert word_moment("0000") == [0, 2, 1]


def test_word_moment_is_invariant_under_rotation_and_transpose():
    w = "0010111"
    base = word_moment(w + "0")
    assert word_moment("0" + w) == base                  # rotation
    assert word_moment(le._transpose(w + "0")) == base    # tr W = tr W^T


def test_loop_equations_bad_input():
    with pytest.raises(TypeError, match="words"):
        word_moment("012")
    with pytest.raises(ValueError, match="words"):
        word_moment([])
    with pytest.raises(ValueError, match="40 letters"):
        word_moment("01" * 21)
    with pytest.raises(ValueError, match="k"):
        loop_equation_polynomial(le.K_MAX_LOOP + 1)


# --- Monte Carlo ---------------------------------------------------------------------------------------------
def test_duality_by_quaternion_monte_carlo():
    """m = 2, k = 1..3: E tr(Q^k (Q^*)^k) = 16, 72, 400 = (-1)^(k+1) P_k(-4)."""
    rows = real_wick_rows(3)
    exact = [(-1) ** (k + 1) * sum(c * (-4) ** j for j, c in enumerate(rows[k])) for k in (1, 2, 3)]
    assert exact == [16, 72, 400]
    est = quaternion_moments(2, 3, 100_000, seed=11)
    z = z_for_false_alarm(m=3)
    assert all(abs(est.mean[k] - exact[k - 1]) <= z * est.se[k] for k in (1, 2, 3))


def test_row_30_against_real_monte_carlo():
    rows = published_rows()
    n, ks = 256, (20, 30)
    est = estimate_Q(n, 30, 1500, field="real", estimator="probe", seed=5, progress=False)
    z = z_for_false_alarm(m=len(ks))
    for k in ks:
        exact = float(Fraction(sum(c * n**j for j, c in enumerate(rows[k])), n ** (k + 1)))
        assert abs(est.mean[k] - exact) <= z * est.se[k], k


# --- verdicts on synthetic data ------------------------------------------------------------------------------
def test_verdict_same_rows():
    ref = {0: [0, 1], 1: [0, 0, 1]}
    assert verdict_same_rows(ref, {1: [0, 0, 1]}, "x").verdict == PASS
    assert verdict_same_rows(ref, {1: [0, 1, 1]}, "x").verdict == FAIL
    assert verdict_same_rows(ref, {}, "x").verdict == FAIL


def test_verdict_mc():
    ok = [(2, k, 16.0 + 0.01, 0.01, 16.0) for k in range(1, 4)]
    assert verdict_mc(ok, ["m", "k"]).verdict == PASS
    assert verdict_mc(ok + [(2, 4, 2600.0, 1.0, 2560.0)], ["m", "k"]).verdict == FAIL


def test_theory_loader_reads_the_same_rows():
    from theory.real_rows import real_Q, real_row, real_rows_max_k
    rows = published_rows()
    assert real_rows_max_k() == max(rows) == 60
    assert all(list(real_row(k)) == rows[k] for k in rows)
    assert real_Q(3, 4) == Fraction(3**5 + 28 * 3**3 + 28 * 9 + 48 * 3, 3**5)
    with pytest.raises(ValueError, match="k"):
        real_row(61)
