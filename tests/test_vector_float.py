"""Tests of the vectorised float Q (theory.signal_energy._vector via theory.signal_energy.Q over arrays).

Reference: Q(method="mp") at 40 digits, element by element (a different algorithm: log-gamma differences in
mpmath), and the scalar float path.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from theory.signal_energy._vector import Q_float_array, _log1p_minus_x, _stirling_w
from theory.signal_energy import Q


def _grid(size, n_max, c_max, seed):
    rng = np.random.default_rng(seed)
    n = np.round(10 ** rng.uniform(0, np.log10(n_max), size)).astype(np.int64)
    k = np.floor(rng.uniform(0, c_max, size) * np.sqrt(n)).astype(np.int64)
    return n, k


def _worst(n, k, values):
    return max(float(abs(mpmath.mpf(float(v)) / Q(int(a), int(b), method="mp", dps=40) - 1))
               for v, a, b in zip(values, n, k))


@pytest.mark.parametrize("seed", [0, 1])
def test_array_accuracy_against_mp_up_to_1e18(seed):
    n, k = _grid(400, 1e18, 4.0, seed)          # c up to 4: a up to 8 vectorised, beyond the scalar path
    assert _worst(n, k, Q(n, k)) <= 1e-14


def test_small_n_and_the_m_greater_than_n_branch():
    n = np.repeat(np.arange(1, 40), 12)
    k = np.tile(np.arange(0, 12), 39)
    assert _worst(n, k, Q(n, k)) <= 1e-14


def test_elements_beyond_the_vector_range_take_the_scalar_path():
    n = np.array([100, 100, 10**6])
    k = np.array([5, 60, 6000])                 # a ~ 0.2, ~ 19, ~ 18
    _, scalar = Q_float_array(n, k)
    assert scalar.tolist() == [False, True, True]
    out = Q(n, k)
    assert out[1] == Q(100, 60) and out[2] == Q(10**6, 6000)


def test_shapes_and_scalars():
    q = Q(np.array([[1], [4]]), np.array([2, 3]))
    assert q.shape == (2, 2)
    assert isinstance(Q(np.int64(4), np.array(2)), float)
    assert Q([10**18], [0]).tolist() == [1.0]
    with pytest.raises(OverflowError, match="exceeds float64"):
        Q(np.array([1, 2]), np.array([3, 400]))
    with pytest.raises(ValueError, match="n"):
        Q(np.array([0]), np.array([1]))


@settings(max_examples=60, deadline=None)
@given(st.floats(-0.5, 1.0))
def test_log1p_minus_x_against_mp(x):
    got = float(_log1p_minus_x(np.array([x]))[0])
    extra = 0 if x == 0 else max(0, -int(np.floor(np.log10(abs(x)))))       # log1p(x) - x cancels ~ |log10 x| digits
    with mpmath.workdps(40 + extra):
        ref = mpmath.log1p(mpmath.mpf(x)) - mpmath.mpf(x)
        assert abs(got - ref) <= 1e-15 * abs(ref) + 1e-300      # measured worst on a grid: 6.7e-16


@settings(max_examples=60, deadline=None)
@given(st.floats(1.0, 1e17))
def test_stirling_remainder_against_mp(y):
    got = float(_stirling_w(np.array([y]))[0])
    with mpmath.workdps(60):
        Y = mpmath.mpf(y)
        ref = mpmath.loggamma(Y) - (Y - 0.5) * mpmath.log(Y) + Y - mpmath.log(2 * mpmath.pi) / 2
        assert abs(got - ref) <= 2e-15 * max(1.0, abs(float(ref))) if y < 10 else abs(got - ref) <= 1e-17 + 1e-15 * abs(ref)


@pytest.mark.parametrize("n_value, t_max", [(10, 250), (1000, 1300), (10**6, 3000), (10**18, 3000)])
def test_S_over_an_array_of_depths_against_mp(n_value, t_max):
    from theory.signal_energy import S
    t = np.arange(0, t_max, 37)
    got = S(np.full(t.shape, n_value), t)
    worst = max(float(abs(mpmath.mpf(float(v)) / S(n_value, int(tt), method="mp", dps=40) - 1)) for v, tt in zip(got, t))
    assert worst <= 1e-13                      # the scalar float path's stated accuracy


def test_S_array_paths_agree_with_the_scalar_path():
    from theory.signal_energy import S
    n = np.array([[10**9], [10**10], [10**12]])
    t = np.array([0, 3, 40, 70000])             # t = 70000 > 2^16: the element-by-element path
    got = S(n, t)
    assert got.shape == (3, 4)
    for i in range(3):
        for j in range(4):
            ref = S(int(n[i, 0]), int(t[j]))
            assert abs(got[i, j] - ref) <= 1e-13 * ref


def test_both_sides_of_the_series_boundaries_in_one_array():
    """Elements just inside and just outside ``x = m/n <= 1`` (rising ratio) and ``(m-1)/n <= 1/2`` (falling
    ratio), mixed in one array: the far elements are overwritten as one subset, the near ones keep the L form;
    each must match mp and the single-element call (a slip in the subset bookkeeping shifts values)."""
    n_vals, k_vals = [], []
    for n in range(10, 24):
        for m in {n - 1, n, n + 1, n + 2, n // 2, n // 2 + 1, n // 2 + 2}:    # x = m/n and (m-1)/n at the edges
            if m >= 2:
                n_vals.append(n)
                k_vals.append(m - 2)
    n, k = np.array(n_vals), np.array(k_vals)
    x, y = (k + 2) / n, (k + 1) / n
    assert (x <= 1).any() and (x > 1).any() and (y <= 0.5).any() and (y > 0.5).any()
    values = Q(n, k)
    assert _worst(n, k, values) <= 1e-14
    assert [float(Q(np.array([a]), np.array([b]))[0]) for a, b in zip(n, k)] == values.tolist()
