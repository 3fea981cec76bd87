r"""Exact rows ``P_k(n) = E tr((G^k)^T G^k)`` for iid entries of any symmetric law, from the committed shape table.

``G`` is ``n x n`` with iid entries of a symmetric law (:mod:`theory.init_laws.laws`), ``E g^2 = 1``; the real
weights ``W = G / sqrt(n)`` of Seleznova, arXiv:2605.05113 (2026), Sec. 2, beyond the Gaussian law (the
toolkit's own extension, ``docs/results/init-laws.md``). ``P_k`` is a polynomial of degree ``k + 1`` in n with
coefficients polynomial in the moments:

.. math:: P_k(n) = \sum_{(V, \lambda)} N_k(V, \lambda)\; n(n-1)\cdots(n-V+1) \prod_{r \in \lambda} m_{2r},

``N_k(V, lambda)`` the number of *shapes* (set partitions of the ``2k`` positions of the two index walks,
``V`` classes, every matrix entry used an even number of times, ``lambda`` the partition of ``k`` formed by
the entries' half-multiplicities): proved (expand the trace, factorise the expectation over distinct
entries, sum over the index values of each shape). The table ``N_k`` is law-independent; it is computed by
``numerics.signal_propagation.law_rows`` (shape enumeration) for ``k <= law_rows_max_k()`` = 12, checked
against the independent cumulant route (``numerics.signal_propagation.law_cumulants``, ``k <= 9``) and, at the
Gaussian moments, against the committed real rows, and committed in ``theory/data/law_shape_counts.json``
(written by ``benchmarks/init_laws/shape_counts.py``). This module only reads it.

>>> law_row(2, "rademacher")                       # n^3 + (m_4 - 1) n with m_4 = 1
(Fraction(0, 1), Fraction(0, 1), Fraction(0, 1), Fraction(1, 1))
>>> law_row(3)                                      # symbolic: polynomials in the moments
(0, -3*m4 + m6 - 2, 3*m4 + 1, 0, 1)
>>> law_row(3, basis="cumulants")
(0, 12*kappa4 + kappa6 + 4, 3*kappa4 + 10, 0, 1)
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from typing import Any

from .._args import as_choice, as_int
from .laws import Law, as_law

__all__ = ["COUNTS_FILE", "law_rows_max_k", "shape_terms", "law_row", "law_P", "cumulant_terms", "terms_in_cumulants"]

COUNTS_FILE = resources.files("theory") / "data" / "law_shape_counts.json"     # a Traversable


@lru_cache(maxsize=1)
def _table() -> dict[int, tuple[tuple[int, tuple[int, ...], int], ...]]:
    data = json.loads(COUNTS_FILE.read_text(encoding="utf-8"))
    return {int(r["k"]): tuple((int(V), tuple(int(x) for x in parts), int(c)) for V, parts, c in r["terms"])
            for r in data["rows"]}


def law_rows_max_k() -> int:
    """The largest k with a committed shape table (12)."""
    return max(_table())


def shape_terms(k) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """The committed shape table of ``P_k``: ``(V, lambda, N_k(V, lambda))`` triples, ``0 <= k <= law_rows_max_k()``.

    >>> shape_terms(2)                  # n(n-1)(n-2) + 3 n(n-1) + n m_4 = n^3 + (m_4 - 1) n
    ((1, (2,), 1), (2, (1, 1), 3), (3, (1, 1), 1))
    """
    k = as_int("k", k, minimum=0, maximum=law_rows_max_k())
    return _table()[k]


@lru_cache(maxsize=None)
def _falling(V: int) -> tuple[int, ...]:
    """Coefficients (entry j: ``n**j``) of ``n(n-1)...(n-V+1)``: the signed Stirling numbers of the first kind."""
    poly = [1]
    for i in range(V):
        nxt = [0] * (len(poly) + 1)
        for j, c in enumerate(poly):
            nxt[j + 1] += c
            nxt[j] -= i * c
        poly = nxt
    return tuple(poly)


def _row_from_terms(k: int, terms, moment) -> list:
    """``P_k``'s coefficients (entry j: ``n**j``, length ``k + 2``) from shape terms and a moment function
    ``moment(r) = m_{2r}`` (any ring: ints, Fractions, sympy)."""
    by_v: dict[int, Any] = {}                    # any ring: ints, Fractions, sympy
    for V, parts, count in terms:
        w = count
        for r in parts:
            if r > 1:
                w = w * moment(r)
        by_v[V] = by_v.get(V, 0) + w
    out: list = [0] * (k + 2)
    for V, w in by_v.items():
        for j, s in enumerate(_falling(V)):
            if s:
                out[j] = out[j] + s * w
    return out


def _gaussian_row_from_terms(k: int, terms) -> list[int]:
    """The Gaussian specialisation (``m_{2r} = (2r-1)!!``) of shape terms: integers, comparable with
    :func:`theory.real_rows.real_row`."""
    return [int(c) for c in _row_from_terms(k, terms, lambda r: math.prod(range(2 * r - 1, 0, -2)))]


@lru_cache(maxsize=None)
def _moment_symbols(top: int):
    """The sympy symbols ``m4, m6, ..., m{top}`` (a tuple; entry i is ``m_{2i+4}``)."""
    import sympy
    return tuple(sympy.Symbol(f"m{j}", positive=True) for j in range(4, top + 1, 2))


@lru_cache(maxsize=None)
def _cumulant_symbols(top: int):
    """The sympy symbols ``kappa4, kappa6, ..., kappa{top}`` (a tuple; entry i is ``kappa_{2i+4}``)."""
    import sympy
    return tuple(sympy.Symbol(f"kappa{j}", real=True) for j in range(4, top + 1, 2))


@lru_cache(maxsize=None)
def _moment_in_cumulants(r: int) -> dict[tuple[int, ...], int]:
    """``m_{2r}`` as ``{mu: coefficient}`` over the monomials ``prod_{s in mu} kappa_{2s}`` (``mu``: the half-orders
    >= 2, decreasing; ``kappa_2 = 1`` dropped): the number of set partitions of 2r points into even blocks of
    those sizes, ``m_j = sum_i C(j-1, i-1) kappa_i m_{j-i}``."""
    if r == 0:
        return {(): 1}
    out: dict[tuple[int, ...], int] = {}
    for s in range(1, r + 1):                      # the block of the first point has size 2s
        c = math.comb(2 * r - 1, 2 * s - 1)
        for mu, v in _moment_in_cumulants(r - s).items():
            key = tuple(sorted(mu + ((s,) if s > 1 else ()), reverse=True))
            out[key] = out.get(key, 0) + c * v
    return out


def cumulant_terms(k) -> dict[tuple[int, tuple[int, ...]], int]:
    r"""``P_k`` in the cumulant basis: ``{(j, mu): c}`` with ``P_k(n) = sum c n^j prod_{s in mu} kappa_{2s}``
    (``mu`` the half-orders >= 2 of the cumulants, decreasing), exact integers, ``0 <= k <= law_rows_max_k()``.
    The structure of the large-n expansion is read from these (:mod:`theory.init_laws.structure`).

    >>> sorted(cumulant_terms(2).items())            # n^3 + 2 n + kappa_4 n
    [((1, ()), 2), ((1, (2,)), 1), ((3, ()), 1)]
    """
    k = as_int("k", k, minimum=0, maximum=law_rows_max_k())
    return dict(_cumulant_terms(k))      # checked before the cache (k=0.0 equals 0 as a key); a copy for the caller


@lru_cache(maxsize=None)
def _cumulant_terms(k: int) -> dict[tuple[int, tuple[int, ...]], int]:
    return terms_in_cumulants(_table()[k])


def terms_in_cumulants(terms, jmin: int = 0) -> dict[tuple[int, tuple[int, ...]], int]:
    """Shape terms ``(V, lambda, count)`` in the cumulant basis, ``{(j, mu): c}`` for the powers ``n^j``, ``j >= jmin``
    (exact for those j when the terms hold every shape with ``V >= jmin``: a falling factorial
    ``n(n-1)...(n-V+1)`` has no power above ``n^V``)."""
    jmin = as_int("jmin", jmin, minimum=0)
    if isinstance(terms, (str, bytes)) or not hasattr(terms, "__iter__"):
        raise TypeError(f"terms must be a sequence of (V, lambda, count) triples, got {type(terms).__name__}")
    checked = []
    for term in terms:
        if not (isinstance(term, (tuple, list)) and len(term) == 3 and isinstance(term[1], (tuple, list))):
            raise TypeError(f"terms must hold (V, lambda, count) triples, got {term!r:.60}")
        checked.append((as_int("terms[V]", term[0], minimum=0),
                        tuple(as_int("terms[lambda]", r, minimum=1) for r in term[1]), as_int("terms[count]", term[2])))
    out: dict[tuple[int, tuple[int, ...]], int] = {}
    for V, parts, count in checked:
        if V < jmin:
            continue
        prod: dict[tuple[int, ...], int] = {(): count}
        for r in parts:
            if r == 1:
                continue
            nxt: dict[tuple[int, ...], int] = {}
            for mu, v in prod.items():
                for nu, w in _moment_in_cumulants(r).items():
                    key = tuple(sorted(mu + nu, reverse=True))
                    nxt[key] = nxt.get(key, 0) + v * w
            prod = nxt
        for j, s in enumerate(_falling(V)):
            if s and j >= jmin:
                for mu, v in prod.items():
                    out[(j, mu)] = out.get((j, mu), 0) + s * v
    return {key: v for key, v in out.items() if v}


def law_row(k, law=None, *, basis: str = "moments") -> tuple:
    r"""The exact coefficients of ``P_k(n) = E tr((G^k)^T G^k)`` (entry j multiplies ``n**j``, length ``k + 2``).

    Source: the committed shape table (module docstring; the toolkit's, ``docs/results/init-laws.md``).
    Convention: ``G`` iid entries of ``law`` with ``E g^2 = 1``; ``Q_{n,k} = P_k(n) / n^(k+1)``.

    Parameters
    ----------
    k : int
        Depth, ``0 <= k <= law_rows_max_k()`` (12).
    law : Law, str or None
        A :class:`~theory.init_laws.laws.Law` or its name ("uniform", "sparse:0.05", ...): Fractions. None: the
        symbolic row, sympy polynomials in the moments ``m4, m6, ...`` (``basis="moments"``) or the cumulants
        ``kappa4, kappa6, ...`` (``basis="cumulants"``).
    basis : {"moments", "cumulants"}
        The symbols of the symbolic row (ignored for a concrete law).

    Returns
    -------
    tuple
        ``k + 2`` Fractions (a law) or sympy expressions (None).

    Raises
    ------
    TypeError
        ``k`` not an integer, ``law`` not a law or a name.
    ValueError
        ``k`` out of range; an unknown law name; a law whose row is infinite or not given (``student:nu`` for
        ``2k >= nu``, ``moments:...`` beyond the moments given), naming ``k``.

    Examples
    --------
    >>> law_row(2, "gaussian")                  # n^3 + 2n, the real row
    (Fraction(0, 1), Fraction(2, 1), Fraction(0, 1), Fraction(1, 1))
    >>> law_row(3, "student:6")
    Traceback (most recent call last):
        ...
    ValueError: k=3: E tr((G^k)^T G^k) is infinite for student:6 (the row needs m_6 = E g^6, infinite for nu <= 6); the rows are finite for k <= 2
    """
    k = as_int("k", k, minimum=0, maximum=law_rows_max_k())
    basis = as_choice("basis", basis, ("moments", "cumulants"))
    if law is None:
        return _symbolic_row(k, basis)
    law = as_law(law, name="law")
    _check_depth(k, law)
    return tuple(Fraction(c) for c in _row_from_terms(k, _table()[k], lambda r: law.moment(2 * r)))


def _check_depth(k: int, law: Law) -> None:
    """ValueError naming k if ``P_k`` needs a moment the law lacks (``m_{2k}``: the shape with one index)."""
    top = law.max_depth
    if top is not None and k > top:
        if law.kind == "student":
            raise ValueError(f"k={k}: E tr((G^k)^T G^k) is infinite for {law.name} (the row needs m_{2 * k} = "
                             f"E g^{2 * k}, infinite for nu <= {2 * k}); the rows are finite for k <= {top}")
        raise ValueError(f"k={k}: the row needs m_{2 * k}, and {law.name} gives moments up to m_{2 * top} only "
                         f"(k <= {top})")


@lru_cache(maxsize=None)
def _symbolic_row(k: int, basis: str) -> tuple:
    import sympy
    if basis == "moments":
        syms = _moment_symbols(max(4, 2 * k))
        row = _row_from_terms(k, _table()[k], lambda r: syms[r - 2])
        return tuple(sympy.expand(c) for c in row)
    syms = _cumulant_symbols(max(4, 2 * k))
    out = [sympy.Integer(0)] * (k + 2)
    for (j, mu), c in cumulant_terms(k).items():
        out[j] += c * sympy.Mul(*[syms[s - 2] for s in mu])
    return tuple(sympy.expand(c) for c in out)


def law_P(n, k, law) -> Fraction:
    """``P_k(n)`` exactly at an integer ``n >= 1`` (a Fraction), ``0 <= k <= law_rows_max_k()``.

    >>> law_P(1, 4, "uniform") == as_law("uniform").moment(8)     # n = 1: E g^(2k)
    True
    """
    n = as_int("n", n, minimum=1)
    row = law_row(k, law)
    return sum((c * n**j for j, c in enumerate(row)), Fraction(0))
