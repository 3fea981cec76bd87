"""Tests of the two routes to the iid-law rows: numerics.signal_propagation.law_rows (shape enumeration) and
numerics.signal_propagation.law_cumulants (set partitions of the slots, cumulant form), and of the committed table.

Independent references: the cumulant route against the shape route (no shared code), a brute-force sum over every
index assignment with exact moments, the real Gaussian rows (theory/data/real_wick_rows.json, the Pfaffian route),
and the counts of shapes / even set partitions (OEIS A005046).
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
import sympy

from numerics.signal_propagation import law_cumulants as lc
from numerics.signal_propagation import law_rows as lr
from theory.init_laws.rows import COUNTS_FILE, cumulant_terms, law_row, law_rows_max_k, shape_terms, terms_in_cumulants
from theory.real_rows import real_row


def cumulant_poly(counts, k):
    n = sympy.Symbol("n")
    kap = {s: sympy.Symbol(f"kappa{2 * s}") for s in range(2, k + 1)}
    return sympy.expand(sum(c * n**V * sympy.Mul(*[kap[s] for s in mu if s > 1]) for (V, mu), c in counts.items()))


def table_poly(k):
    n = sympy.Symbol("n")
    kap = {s: sympy.Symbol(f"kappa{2 * s}") for s in range(2, k + 1)}
    return sympy.expand(sum(c * n**j * sympy.Mul(*[kap[s] for s in mu]) for (j, mu), c in cumulant_terms(k).items()))


# --------------------------------------------------------------------------------------------------
# the two routes agree, and the table is what the fast route computes
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("k", range(0, 8))
def test_cumulant_route_equals_committed_table(k):
    assert cumulant_poly(lc.cumulant_counts(k), k) == table_poly(k)


@pytest.mark.parametrize("k", range(0, 10))
def test_shape_route_reproduces_committed_table(k):
    assert lr.shape_counts(k) == {(V, p): c for V, p, c in shape_terms(k)}


def test_shape_counts_and_even_partition_counts():
    # shapes (the DFS's leaves), and A005046 (even set partitions of 2k points) for the cumulant route
    assert [sum(lr.shape_counts(k).values()) for k in range(1, 8)] == [2, 5, 19, 92, 559, 4189, 37664]
    assert [sum(lc.cumulant_counts(k).values()) for k in range(1, 7)] == [1, 4, 31, 379, 6556, 150349]


def test_committed_table_reaches_twelve_and_sums_to_bell_like_counts():
    data = json.loads(COUNTS_FILE.read_text())
    assert law_rows_max_k() >= 12
    assert [r["k"] for r in data["rows"]] == list(range(law_rows_max_k() + 1))
    for r in data["rows"]:
        assert r["shapes"] == sum(c for _, _, c in r["terms"])
        assert all(sum(p) == r["k"] for _, p, _ in r["terms"])          # lambda partitions k


@pytest.mark.parametrize("k", range(0, 13))
def test_gaussian_specialisation_equals_real_rows(k):
    if k > law_rows_max_k():
        pytest.fail("the committed table must reach k = 12")
    assert law_row(k, "gaussian") == tuple(real_row(k))


def brute_force_row_value(n, k, moment):
    """sum over every index assignment of E prod entries (exact), the definition of P_k(n)."""
    total = 0
    for a, b in itertools.product(range(n), repeat=2):
        for mid1 in itertools.product(range(n), repeat=k - 1):
            p1 = (a,) + mid1 + (b,)
            c1 = Counter((p1[s], p1[s - 1]) for s in range(1, k + 1))
            for mid2 in itertools.product(range(n), repeat=k - 1):
                p2 = (a,) + mid2 + (b,)
                c = c1 + Counter((p2[s], p2[s - 1]) for s in range(1, k + 1))
                if all(v % 2 == 0 for v in c.values()):
                    total += math.prod(moment(v) for v in c.values())
    return total


@pytest.mark.parametrize("n,k", [(1, 4), (2, 3), (2, 4), (3, 3), (2, 5), (3, 4)])
def test_symbolic_row_equals_brute_force_sum(n, k):
    moment = lambda v: 1 if v == 2 else sympy.Symbol(f"m{v}", positive=True)       # noqa: E731
    row = law_row(k)
    assert sympy.expand(sum(c * n**j for j, c in enumerate(row)) - brute_force_row_value(n, k, moment)) == 0


# --------------------------------------------------------------------------------------------------
# top mode, logs and resume, executors
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("k", range(1, 10))
def test_top_counts_are_the_rows_high_V_shapes(k):
    full = {(V, p): c for V, p, c in shape_terms(k)}
    for top in range(0, 6):
        assert lr.shape_counts(k, top=top) == {key: c for key, c in full.items() if key[0] >= k + 1 - top}


def test_top_terms_give_the_top_coefficients():
    k = 9
    top = 3
    got = terms_in_cumulants([(V, p, c) for (V, p), c in lr.shape_counts(k, top=top).items()], jmin=k + 1 - top)
    assert got == {key: c for key, c in cumulant_terms(k).items() if key[0] >= k + 1 - top}


def test_ladder_is_the_only_top_shape_far_beyond_the_rows():
    assert lr.shape_counts(40, top=0) == {(41, (1,) * 40): 1}
    c = lr.shape_counts(30, top=2)                  # a_2(k) at the Gaussian moments: the real rows' a_2
    gauss = sum(cnt * math.prod(math.prod(range(2 * r - 1, 0, -2)) for r in p) *
                sum(s for j, s in enumerate(_falling(V)) if j == 29) for (V, p), cnt in c.items())
    assert gauss == real_row(30)[29]


def _falling(V):
    """Coefficients (entry j: n**j) of n(n-1)...(n-V+1), from sympy's falling factorial (an independent
    reference for the rows' own Stirling recursion)."""
    x = sympy.Symbol("x")
    return [int(c) for c in reversed(sympy.Poly(sympy.ff(x, V), x).all_coeffs())]


def test_log_resume_and_executor(tmp_path):
    log = tmp_path / "k7.jsonl"
    ref = lr.shape_counts(7)
    assert lr.shape_counts(7, log_file=log, chunks=16) == ref
    lines = log.read_text().splitlines()
    assert len(lines) == 16
    # a killed run: keep half the chunks; the rerun computes only the rest and appends them
    log.write_text("\n".join(lines[:8]) + "\n")
    assert lr.shape_counts(7, log_file=log, chunks=16) == ref
    assert len(log.read_text().splitlines()) == 16
    with ThreadPoolExecutor(2) as ex:
        assert lr.shape_counts(8, executor=ex, chunks=5) == lr.shape_counts(8, chunks=3)


def test_prefix_items_are_the_restricted_growth_prefixes():
    items = lr.prefix_items(6, 4).tolist()
    assert len(items) == 15 and items[0] == [0, 0, 0, 0] and items[-1] == [0, 1, 2, 3]     # Bell(4)


@pytest.mark.parametrize("bad,exc", [(-1, ValueError), (lr.K_MAX_SHAPES + 1, ValueError), (2.0, TypeError),
                                     (True, TypeError)])
def test_bad_k(bad, exc):
    with pytest.raises(exc, match="k"):
        lr.shape_counts(bad)


def test_bad_arguments_name_themselves():
    with pytest.raises(ValueError, match="top"):
        lr.shape_counts(5, top=lr.MAX_TOP + 1)
    with pytest.raises(ValueError, match="k must be an integer <= 14"):
        lr.shape_counts(15)
    assert lr.shape_counts(15, top=1)                # top mode goes further
    with pytest.raises(ValueError, match="chunks"):
        lr.shape_counts(5, chunks=0)
    with pytest.raises(TypeError, match="executor"):
        lr.shape_counts(5, executor=3)
    with pytest.raises(TypeError, match="log"):
        lr.shape_counts(5, log_file=3)
    with pytest.raises(ValueError, match="k"):
        lc.cumulant_counts(lc.K_MAX_CUMULANTS + 1)
