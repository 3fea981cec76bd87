"""Tests of numerics.signal_propagation.wick: exact Wick counts against independent references."""

import itertools
import math
import re
from collections import defaultdict

import numba
import numpy as np
import pytest

import numerics.signal_propagation.wick as wick
from numerics.signal_propagation.wick import count_pairings, polynomial_string, wick_polynomial, wick_polynomial_reference
from theory.signal_energy import hultman_row


def _double_factorial(m):
    return math.prod(range(m, 0, -2))


# --- complex: Hultman numbers ------------------------------------------------------------------------
@pytest.mark.parametrize("k", range(0, 9))
def test_complex_equals_hultman_row(k):
    assert wick_polynomial(k, "complex") == hultman_row(k)


@pytest.mark.parametrize("k", range(0, 7))
def test_complex_equals_pure_python_reference(k):
    assert wick_polynomial(k) == wick_polynomial_reference(k)


# --- real: the printed polynomials, n = 1, reference ------------------------------------------
SPEC_REAL = {  # signal-propagation.md, "Where the formula comes from" (coefficient of n^j at index j)
    2: [0, 2, 0, 1],
    3: [0, 4, 10, 0, 1],
    4: [0, 48, 28, 28, 0, 1],
    5: [0, 304, 468, 110, 62, 0, 1],
}


@pytest.mark.parametrize("k", sorted(SPEC_REAL))
def test_real_matches_spec(k):
    assert wick_polynomial(k, "real") == SPEC_REAL[k]


@pytest.mark.parametrize("k", range(0, 7))
def test_real_equals_pure_python_reference(k):
    assert wick_polynomial(k, "real") == wick_polynomial_reference(k, "real")


@pytest.mark.parametrize("k", range(0, 9))
def test_row_sums_are_the_n1_moments(k):
    # n = 1: E|g|^(2k) = k! (complex), E g^(2k) = (2k-1)!! (real); the row sum counts all pairings
    assert sum(wick_polynomial(k)) == math.factorial(k)
    assert sum(wick_polynomial(k, "real")) == _double_factorial(2 * k - 1)


@pytest.mark.parametrize("k", range(0, 9))
def test_real_dominates_complex_coefficientwise(k):
    real, cplx = wick_polynomial(k, "real"), wick_polynomial(k)
    assert len(real) == len(cplx) == k + 2
    assert all(r >= c for r, c in zip(real, cplx))
    assert real[k + 1] == 1 and cplx[k + 1] == 1        # the identity pairing: n^(k+1)


def test_published_table_matches_counter():
    """The real polynomials printed in the module docstring are what the counter computes.

    k = 9 (3.4e7 matchings, seconds) is compared by the validation check ``wick.real_table`` (full profile).
    """
    rows = re.findall(r"^(\d)\s+``(.+?)``", wick.__doc__.replace("\n      + ", " + "), flags=re.M)
    table = {int(k): poly for k, poly in rows}
    assert sorted(table) == list(range(10))
    for k, poly in table.items():
        if k == 9:
            continue
        assert polynomial_string(wick_polynomial(k, "real")) == poly


# --- an exact, independent reference: symbolic Gaussian moments at small n ---------------------------
def _poly_mul(p, q):
    out = defaultdict(int)
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            out[tuple(a + b for a, b in zip(m1, m2))] += c1 * c2
    return out


def _matrix_power_entries(n, k):
    """Entries of G^k as integer polynomials in the n^2 variables g_ij (dict: exponent tuple -> coeff)."""
    nv = n * n

    def var(i, j):
        e = [0] * nv
        e[i * n + j] = 1
        return {tuple(e): 1}

    G = [[var(i, j) for j in range(n)] for i in range(n)]
    P = [[{tuple([0] * nv): int(i == j)} for j in range(n)] for i in range(n)]
    for _ in range(k):
        new = []
        for i in range(n):
            row = []
            for j in range(n):
                acc = defaultdict(int)
                for m in range(n):
                    for mono, c in _poly_mul(P[i][m], G[m][j]).items():
                        acc[mono] += c
                row.append({mo: c for mo, c in acc.items() if c})
            new.append(row)
        P = new
    return P


def _moment_by_expansion(n, k, field):
    """E tr((G^k)^* G^k) from the entries' polynomials and the Gaussian moments (no Wick pairing)."""
    total = 0
    for row in _matrix_power_entries(n, k):
        for p in row:
            if field == "complex":
                # E z^a conj(z)^b = delta_ab a!  for a proper complex Gaussian with E|z|^2 = 1
                total += sum(c * c * math.prod(math.factorial(e) for e in mono) for mono, c in p.items())
            else:
                # E g^(2m) = (2m-1)!!, odd moments vanish
                for mono, c in _poly_mul(p, p).items():
                    if all(e % 2 == 0 for e in mono):
                        total += c * math.prod(_double_factorial(e - 1) for e in mono)
    return total


@pytest.mark.parametrize("n,kmax", [(2, 6), (3, 3)])
@pytest.mark.parametrize("field", ["complex", "real"])
def test_polynomial_values_match_direct_gaussian_moments(n, kmax, field):
    for k in range(kmax + 1):
        poly = wick_polynomial(k, field)
        assert sum(c * n**j for j, c in enumerate(poly)) == _moment_by_expansion(n, k, field)


# --- determinism and work items ----------------------------------------------------------------------
@pytest.mark.parametrize("k,field", [(7, "complex"), (6, "real")])
def test_bit_identical_for_any_thread_count(k, field):
    # call the parallel kernels directly: count_pairings runs small cases on one thread anyway
    kernel, prefixes = ((wick._complex_counts, wick._permutation_prefixes(k)) if field == "complex"
                        else (wick._real_counts, wick._matching_prefixes(k)))
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = kernel(k, prefixes)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = kernel(k, prefixes)
    finally:
        numba.set_num_threads(before)
    assert one.dtype == np.int64 and np.array_equal(one, two)
    assert np.array_equal(one, count_pairings(k, field))
    assert numba.get_num_threads() == before


def test_thread_count_restored_after_large_case():
    before = numba.get_num_threads()
    rows = count_pairings(9)                 # 362880 permutations: the parallel path
    assert rows.shape == (72, 11) and numba.get_num_threads() == before


def test_work_items_partition_the_pairings():
    # complex k = 5: 5 * 4 prefixes of 3! permutations each; real k = 5: 9 * 7 prefixes of 5!! matchings
    c, r = count_pairings(5), count_pairings(5, "real")
    assert c.shape == (20, 7) and set(c.sum(axis=1)) == {6}
    assert r.shape == (63, 7) and set(r.sum(axis=1)) == {15}


def test_prefix_sets_are_complete():
    perms = {tuple(row) for row in wick._permutation_prefixes(6)}
    assert perms == set(itertools.permutations(range(6), 2))
    m = wick._matching_prefixes(4)
    assert m.shape == (7 * 5, 4) and len({tuple(row) for row in m}) == 35


# --- bad input ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("bad,exc,msg", [
    (-1, ValueError, "k must be an integer >= 0"),
    (17, ValueError, "k must be an integer <= 16"),
    (3.0, TypeError, "k must be an integer"),
    (True, TypeError, "k must be an integer"),
    ("3", TypeError, "k must be an integer"),
])
def test_bad_k(bad, exc, msg):
    with pytest.raises(exc, match=msg):
        wick_polynomial(bad)
    with pytest.raises(exc, match=msg):
        wick_polynomial_reference(bad)


def test_bad_field():
    with pytest.raises(ValueError, match="field must be one of"):
        wick_polynomial(3, "quaternion")
    with pytest.raises(TypeError, match="field must be a string"):
        wick_polynomial(3, None)


def test_progress_bar_path_gives_the_same_rows():
    # with a bar the work items run in slices (one kernel call each): the rows must not change
    assert np.array_equal(count_pairings(6, progress=True), count_pairings(6, progress=False))
    assert np.array_equal(count_pairings(5, "real", progress=True), count_pairings(5, "real"))
    with pytest.raises(TypeError, match="progress must be"):
        wick_polynomial(3, progress="yes")


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


@pytest.mark.parametrize("call", ["wick_polynomial", "count_pairings", "estimate_Q", "estimate_S"])
@pytest.mark.parametrize("bad", [1, "threads", object()])
def test_executor_must_have_map(call, bad):
    from numerics.signal_propagation import ginibre, wick

    fn = {"wick_polynomial": lambda e: wick.wick_polynomial(3, executor=e),
          "count_pairings": lambda e: wick.count_pairings(3, executor=e),
          "estimate_Q": lambda e: ginibre.estimate_Q(3, 2, 16, seed=0, executor=e),
          "estimate_S": lambda e: ginibre.estimate_S(3, 2, 16, seed=0, executor=e)}[call]
    with pytest.raises(TypeError, match="executor"):
        fn(bad)


def test_executor_results_unchanged():
    from concurrent.futures import ThreadPoolExecutor

    from numerics.signal_propagation import wick

    with ThreadPoolExecutor(2) as ex:
        assert wick.wick_polynomial(5, executor=ex) == wick.wick_polynomial(5)
