"""Tests of numerics.signal_propagation.real_wick (real-weight moments) and the real_weights validation verdicts.

References: the Wick enumeration of numerics.signal_propagation.wick (a different algorithm), its pure-Python union-find
reference, the rows printed in docs/papers/signal-propagation.md, the wick docstring table, and synthetic data for the verdicts.
"""

from __future__ import annotations

import doctest
import math
import re
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
import pytest

import numerics.signal_propagation.real_wick as rw
import numerics.signal_propagation.wick as wick_module
from numerics.signal_propagation.ginibre import estimate_Q, estimate_S
from numerics.signal_propagation.real_wick import published_rows, real_counts, real_wick_polynomial, real_work_items, row_identities
from numerics.signal_propagation.wick import wick_polynomial, wick_polynomial_reference
from validation.checks.real_weights import verdict_identities, verdict_rows, verdict_rows_mc
from validation.registry import FAIL, PASS

SPEC_REAL = {2: [0, 2, 0, 1], 3: [0, 4, 10, 0, 1], 4: [0, 48, 28, 28, 0, 1], 5: [0, 304, 468, 110, 62, 0, 1]}


def test_doctests():
    assert doctest.testmod(rw, raise_on_error=False).failed == 0


@pytest.mark.parametrize("k", range(0, 6))
def test_matches_pure_python_reference(k):
    assert real_wick_polynomial(k, algorithm="enumerate") == wick_polynomial_reference(k, "real")
    assert real_wick_polynomial(k) == wick_polynomial_reference(k, "real")


@pytest.mark.parametrize("k", [6, 7, 8])
def test_matches_numba_enumeration(k):
    assert real_wick_polynomial(k, algorithm="enumerate") == wick_polynomial(k, "real", algorithm="enumerate")


@pytest.mark.parametrize("k", range(0, 11))
def test_pfaffian_route_matches_matching_enumeration(k):
    assert real_wick_polynomial(k) == real_wick_polynomial(k, algorithm="enumerate")
    assert wick_polynomial(k, "real") == real_wick_polynomial(k)


@pytest.mark.parametrize("k", sorted(SPEC_REAL))
def test_spec_rows(k):
    assert real_wick_polynomial(k) == SPEC_REAL[k]


def _wick_docstring_table() -> dict[int, list[int]]:
    """The table printed in numerics.signal_propagation.wick's docstring, parsed back into coefficient lists."""
    out = {}
    lines = wick_module.__doc__.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^(\d+)\s+``(.*)", line)
        if not m:
            continue
        text = m.group(2)
        while not text.endswith("``"):           # wrapped rows continue on the next line
            i += 1
            text += " " + lines[i].strip()
        k, coeffs = int(m.group(1)), [0] * (int(m.group(1)) + 2)
        for term in text.strip("`").replace(" ", "").split("+"):
            c, _, p = re.match(r"^(\d*)(n)?(?:\^(\d+))?$", term).groups()
            power = int(p) if p else (1 if _ == "n" else 0)
            coeffs[power] = int(c) if c else 1
        out[k] = coeffs
    return out


def test_wick_docstring_table_against_independent_algorithm():
    table = _wick_docstring_table()
    assert sorted(table) == list(range(10))
    for k, coeffs in table.items():
        assert real_wick_polynomial(k) == coeffs, k


def test_published_rows_reproduce_and_satisfy_identities():
    rows = published_rows()
    assert sorted(rows) == list(range(len(rows))) and max(rows) >= 11
    for k in range(0, 9):
        assert rows[k] == real_wick_polynomial(k, algorithm="enumerate")
    for k, coeffs in rows.items():
        assert all(holds for _, _, holds in row_identities(k, coeffs)), k


def test_work_items_cover_every_matching_once():
    for k in range(0, 9):
        items, weights = real_work_items(k)
        hist = real_counts(k, items)
        assert int((hist.sum(axis=1) * weights).sum()) == math.prod(range(2 * k - 1, 0, -2))


def test_bit_identical_for_any_thread_count():
    items, _ = real_work_items(8)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = rw._counts_parallel(8, items)
        numba.set_num_threads(min(max(2, before), numba.config.NUMBA_NUM_THREADS))   # the most numba allows
        two = rw._counts_parallel(8, items)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, two) and np.array_equal(one, rw._counts_serial(8, items))


@pytest.mark.parametrize("k", [4, 6, 8, 9])
def test_memo_kernel_rows_equal_plain_rows(k):
    items, _ = real_work_items(k)
    assert np.array_equal(real_counts(k, items, memo=True), real_counts(k, items, memo=False))


def test_memo_bit_identical_for_any_thread_count_and_grouping():
    items, _ = real_work_items(9)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = rw._counts_memo(9, items, 1)
        numba.set_num_threads(min(max(2, before), numba.config.NUMBA_NUM_THREADS))   # the most numba allows
        many = rw._counts_memo(9, items, 7)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, many)


def test_thread_pool_executor_gives_the_same_rows():
    with ThreadPoolExecutor(2) as ex:
        assert real_wick_polynomial(8, algorithm="enumerate", executor=ex) == real_wick_polynomial(8)
        assert wick_polynomial(7, "real", executor=ex, algorithm="enumerate") == wick_polynomial(7, "real")


def test_dask_local_cluster_bit_identical():
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cl, \
            distributed.Client(cl) as client:
        ex = client.get_executor()
        assert real_wick_polynomial(8, algorithm="enumerate", executor=ex) == real_wick_polynomial(8)
        assert np.array_equal(wick_module.count_pairings(7, "real", executor=ex), wick_module.count_pairings(7, "real"))
        assert np.array_equal(wick_module.count_pairings(8, "complex", executor=ex),
                              wick_module.count_pairings(8, "complex"))
        for func in (estimate_Q, estimate_S):
            a = func(6, 5, 300, field="real", seed=3, chunk=64, executor=ex)
            b = func(6, 5, 300, field="real", seed=3)
            assert np.array_equal(a.mean, b.mean) and np.array_equal(a.se, b.se)


# --- identities detect broken rows -------------------------------------------------------------------------
def test_identities_fail_on_broken_rows():
    good = SPEC_REAL[4]
    assert all(h for _, _, h in row_identities(4, good))
    for j, delta in ((1, 1), (3, -1), (4, 1)):      # change one coefficient: some identity must fail
        bad = list(good)
        bad[j] += delta
        assert not all(h for _, _, h in row_identities(4, bad))
    statuses = {s for _, s, _ in row_identities(4, good)}
    assert statuses == {"proved", "observed"}


# --- verdicts on synthetic data -----------------------------------------------------------------------------
def test_verdict_rows():
    pub = {0: [0, 1], 1: [0, 0, 1]}
    assert verdict_rows(pub, {0: [0, 1]}, {1: [0, 0, 1]}).verdict == PASS
    assert verdict_rows(pub, {0: [0, 2]}, {}).verdict == FAIL


def test_verdict_rows_mc():
    ok = [(32, k, 1.0 + 0.01, 0.01, 1.0) for k in range(1, 10)]
    assert verdict_rows_mc(ok).verdict == PASS
    assert verdict_rows_mc(ok + [(32, 10, 1.2, 0.01, 1.0)]).verdict == FAIL


def test_verdict_identities():
    assert verdict_identities({k: v for k, v in SPEC_REAL.items()}).verdict == PASS
    assert verdict_identities({3: [0, 4, 11, 0, 1]}).verdict == FAIL
