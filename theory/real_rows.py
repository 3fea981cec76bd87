r"""Exact real-weight energies ``Q^R_{n,k}`` from the committed rows (data, not computation).

``P_k(n) = E tr((G^k)^T G^k)`` for an ``n x n`` matrix ``G`` with iid ``N(0, 1)`` entries is a polynomial in
n with integer coefficients; ``Q^R_{n,k} = P_k(n) / n^(k+1)`` is the real-weight counterpart of
:func:`theory.signal_energy.Q` (Seleznova 2026, arXiv:2605.05113, Sec. 2: no closed form is known, and
``Q^R_{n,k} >= Q_{n,k}``). The rows k <= 60 are computed by ``numerics.signal_propagation.real_wick_pfaffian`` (the
polynomial-time Pfaffian route, checked against the matching enumeration, the loop equations and Monte
Carlo) and committed in ``theory/data/real_wick_rows.json`` (package data: an installed wheel has it); this
module only reads that file, so the theory layer can use exact real energies without importing numerics.
Entry j of a row multiplies ``n**j``. Beyond the rows: :mod:`theory.real_expansion` (the large-n expansion).

>>> real_row(2)                      # n^3 + 2n
(0, 2, 0, 1)
>>> real_Q(4, 2)                     # 1 + 2 / 16
Fraction(9, 8)
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import lru_cache
from importlib import resources

from ._args import as_int

__all__ = ["ROWS_FILE", "VERIFICATION_FILE", "real_rows_max_k", "real_row", "real_Q", "real_energies",
           "verification_rows"]

ROWS_FILE = resources.files("theory") / "data" / "real_wick_rows.json"    # a Traversable: .read_text()
VERIFICATION_FILE = resources.files("theory") / "data" / "real_wick_rows_verification.json"


@lru_cache(maxsize=1)
def _rows() -> dict[int, tuple[int, ...]]:
    data = json.loads(ROWS_FILE.read_text(encoding="utf-8"))
    return {int(r["k"]): tuple(int(c) for c in r["coefficients"]) for r in data["rows"]}


def real_rows_max_k() -> int:
    """The largest k with a committed row (60)."""
    return max(_rows())


def real_row(k) -> tuple[int, ...]:
    """Coefficients of ``E tr((G^k)^T G^k)`` (entry j: ``n**j``), ``0 <= k <= real_rows_max_k()``."""
    k = as_int("k", k, minimum=0, maximum=real_rows_max_k())
    return _rows()[k]


def real_Q(n, k) -> Fraction:
    """Exact ``Q^R_{n,k} = P_k(n) / n^(k+1)``; integers ``n >= 1``, ``0 <= k <= real_rows_max_k()``."""
    n = as_int("n", n, minimum=1)
    row = real_row(k)
    return Fraction(sum(c * n**j for j, c in enumerate(row)), n ** (len(row) - 1))


def real_energies(n, k) -> list[Fraction]:
    """``[Q^R_{n,0}, ..., Q^R_{n,k}]`` exactly; ``n >= 1``, ``0 <= k <= real_rows_max_k()`` (60). Deeper depths
    have no exact row: :func:`theory.real_expansion.QR` gives them with an error estimate (the ValueError says so).

    >>> real_energies(2, 2)
    [Fraction(1, 1), Fraction(1, 1), Fraction(3, 2)]
    """
    n = as_int("n", n, minimum=1)
    k = as_int("k", k, minimum=0)
    if k > real_rows_max_k():
        raise ValueError(f"k must be <= {real_rows_max_k()} (the committed exact rows), got k = {k}; deeper depths: "
                         f"QR(n, k) (theory.real_expansion, seqtheory.QR) gives Q^R_(n,k) with an error estimate")
    return [real_Q(n, j) for j in range(k + 1)]


@lru_cache(maxsize=1)
def verification_rows() -> dict[int, tuple[int, ...]]:
    """Rows 61..80, a verification set (``theory/data/real_wick_rows_verification.json``): computed by one run of
    the Pfaffian route after the expansion's coefficients were fitted on the rows <= 60, so they are held out
    for every check that uses them; not served by :func:`real_row` (whose domain stays k <= 60).

    >>> rows = verification_rows()
    >>> min(rows), max(rows), sum(rows[80]) == __import__("math").prod(range(159, 0, -2))   # n = 1: 159!!
    (61, 80, True)
    """
    data = json.loads(VERIFICATION_FILE.read_text(encoding="utf-8"))
    return {int(r["k"]): tuple(int(c) for c in r["coefficients"]) for r in data["rows"]}
