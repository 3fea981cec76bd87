"""theory.complexity: tail-energy complexity (sorted and positional) and entropy effective rank."""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

from theory.complexity import (COUPLINGS, coupling_matrix, effective_rank, effective_support,
                               entropy_effective_rank, exp_tail_energy, poly_tail_energy, singular_values,
                               tail_energy, tail_energy_curve)
from theory.memory import exp_tau, memory_function, poly_exponent

vectors = st.lists(st.floats(-5, 5, allow_nan=False), min_size=1, max_size=40).filter(lambda v: any(v))


@given(rho=vectors)
def test_tail_energy_properties(rho):
    r = np.array(rho)
    srt = tail_energy_curve(r)
    pos = tail_energy_curve(r, kind="positional")
    assert srt[0] == pytest.approx(1.0) and srt[-1] == 0.0 and pos[0] == pytest.approx(1.0)
    assert np.all(np.diff(srt) <= 1e-15) and np.all(np.diff(pos) <= 1e-15)
    # the best s-term set is at least as good as the first s lags
    assert np.all(srt <= pos + 1e-12)
    # sorted tail energy = relative error of the best s-sparse approximation (brute force for small T)
    if r.size <= 8:
        r = r / np.abs(r).max()
        for s in range(r.size + 1):
            best = min(
                np.sum(np.where(np.isin(np.arange(r.size), keep), 0.0, r) ** 2)
                for keep in _subsets(r.size, s)
            )
            assert tail_energy(r, s) == pytest.approx(best / np.sum(r * r), abs=1e-12)


def _subsets(n, k):
    from itertools import combinations
    return [list(c) for c in combinations(range(n), k)]


@pytest.mark.parametrize("T", [16, 300])
@pytest.mark.parametrize("alpha", [0.1, 0.5, 1.0])
def test_tail_energy_closed_forms(T, alpha):
    e = memory_function("exp", alpha, T)
    p = memory_function("poly", alpha, T)
    tau, pp = exp_tau(alpha, T), poly_exponent(alpha, T)
    for s in (0, 1, 3, T // 2, T - 1, T):
        for kind in ("sorted", "positional"):      # decreasing kernels: both kinds coincide
            assert tail_energy(e, s, kind=kind) == pytest.approx(exp_tail_energy(tau, T, s), rel=1e-12, abs=1e-300)
            assert tail_energy(p, s, kind=kind) == pytest.approx(poly_tail_energy(pp, T, s), rel=1e-12)


def test_poly_tail_energy_at_2p_equal_1():
    T, s = 20, 5
    direct = sum(1 / k for k in range(s + 1, T + 1)) / sum(1 / k for k in range(1, T + 1))
    assert poly_tail_energy(0.5, T, s) == pytest.approx(direct, rel=1e-14)


def test_tail_energy_of_sparse_kernels():
    for alpha in (0.2, 0.9):
        r = memory_function("impulse", alpha, 64)
        m = int(np.argmax(r))
        assert tail_energy(r, 1) == 0.0
        assert tail_energy(r, m, kind="positional") == 1.0 and tail_energy(r, m + 1, kind="positional") == 0.0
    assert tail_energy(np.ones(4), np.array([0, 2, 9])).tolist() == [1.0, 0.5, 0.0]


def test_effective_support():
    assert effective_support(np.eye(5)[3]) == 1.0
    assert effective_support(np.ones(7)) == pytest.approx(4.0)          # (T + 1) / 2
    # positional: 1 + energy-weighted mean lag
    r = np.array([1.0, 0.0, 2.0])
    assert effective_support(r, kind="positional") == pytest.approx(1 + (0 * 1 + 2 * 4) / 5)


def test_entropy_effective_rank_values():
    assert entropy_effective_rank([1.0, 1.0, 1.0, 1.0]) == pytest.approx(4.0)
    assert entropy_effective_rank([5.0, 0.0, 0.0]) == 1.0
    # p = (3/4, 1/4): exp(-(3/4 log 3/4 + 1/4 log 1/4)), hand-derived
    assert entropy_effective_rank([3.0, 1.0]) == pytest.approx(math.exp(-(0.75 * math.log(0.75) + 0.25 * math.log(0.25))))


@pytest.mark.parametrize("m", [0, 1, 5, 15])
def test_toeplitz_shift_has_rank_T_minus_m(m):
    # docs/papers/memory-functions.md: the Toeplitz coupling of an impulse is a shift matrix with T - m unit singular values
    T = 16
    r = np.zeros(T)
    r[m] = 1.0
    sv = singular_values(r)
    assert np.allclose(sv[: T - m], 1.0) and np.allclose(sv[T - m:], 0.0)
    assert effective_rank(r) == pytest.approx(T - m)
    assert effective_rank(r, coupling="lag") == 1.0


def test_hankel_rank_counts_exponential_modes():
    s = np.arange(200)
    one = 0.97 ** s
    assert effective_rank(one, coupling="hankel") == pytest.approx(1.0, abs=1e-10)
    three = one + 0.5 * 0.7 ** s - 0.2 * 0.9 ** s
    sv = singular_values(three, coupling="hankel")
    assert sv[3] <= 1e-12 * sv[0] and sv[2] > 1e-6 * sv[0]
    assert 1.0 < effective_rank(three, coupling="hankel") < 3.0


def test_coupling_matrices_shapes_and_svd():
    r = memory_function("airy", 0.5, 33)
    assert coupling_matrix(r).shape == (33, 33)
    H = coupling_matrix(r, coupling="hankel")
    assert H.shape == (17, 17) and H[3, 5] == r[8]
    for c in COUPLINGS:
        sv = singular_values(r, coupling=c)
        assert np.allclose(sv, np.linalg.svd(coupling_matrix(r, coupling=c), compute_uv=False))


def test_effective_rank_lag_tracks_support():
    # "lag" coupling: exp/poly/airy grow with alpha, impulse stays 1
    for kind in ("exp", "poly", "airy"):
        ranks = [effective_rank(memory_function(kind, a, 128), coupling="lag") for a in (0.1, 0.5, 1.0)]
        assert ranks[0] < ranks[1] < ranks[2]
    assert {effective_rank(memory_function("impulse", a, 128), coupling="lag") for a in (0.1, 0.5, 1.0)} == {1.0}


def test_bad_input():
    with pytest.raises(ValueError, match="rho"):
        tail_energy([np.nan, 1.0], 1)
    with pytest.raises(ValueError, match="identically zero"):
        tail_energy([0.0, 0.0], 1)
    with pytest.raises(ValueError, match="s"):
        tail_energy([1.0], -1)
    with pytest.raises(TypeError, match="s"):
        tail_energy([1.0], 1.5)
    with pytest.raises(TypeError, match="s"):
        tail_energy([1.0], np.array([0.5]))
    with pytest.raises(ValueError, match="kind"):
        tail_energy([1.0], 0, kind="binary")
    with pytest.raises(ValueError, match="coupling"):
        effective_rank([1.0], coupling="circulant")
    with pytest.raises(ValueError, match="sv"):
        entropy_effective_rank([-1.0])
    with pytest.raises(ValueError, match="tau"):
        exp_tail_energy(0.0, 10, 1)
    with pytest.raises(ValueError, match="s"):
        poly_tail_energy(1.0, 10, 11)


@pytest.mark.parametrize("p, T, s", [(100.0, 10**4, 5000), (10.0, 1000, 3), (1000.0, 10**6, 10**6 - 1), (0.3, 2000, 1000)])
def test_poly_tail_energy_mp_against_direct_sums(p, T, s):
    """Large p and T, where mpmath's Hurwitz zeta(2p, a) keeps only ~10 of 30 digits: the closed form must
    match the defining finite sums to 28 digits."""
    import mpmath

    with mpmath.workdps(60):
        q = 2 * mpmath.mpf(p)
        stop = min(T, s + 20000)        # terms (1+t)^(-2p) beyond are below 1e-60 of the first for these p
        num = mpmath.fsum((1 + mpmath.mpf(t)) ** -q for t in range(s, stop)) if p > 1 else \
            mpmath.fsum((1 + mpmath.mpf(t)) ** -q for t in range(s, T))
        den = mpmath.fsum((1 + mpmath.mpf(t)) ** -q for t in range(min(T, 20000) if p > 1 else T))
        ref = num / den
        got = poly_tail_energy(p, T, s, method="mp", dps=30)
        assert abs(got - ref) <= mpmath.mpf(10) ** -28 * ref
