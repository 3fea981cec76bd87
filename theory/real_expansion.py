r"""Real-weight energies at any depth: the large-n expansion of ``Q^R_{n,k}`` and ``S^R_{n,t}``, its exact
coefficients and the real scaling functions.

Quantity: ``P_k(n) = E tr((G^k)^T G^k)`` for an ``n x n`` matrix ``G`` with iid ``N(0, 1)`` entries, and
``Q^R_{n,k} = P_k(n) / n^(k+1)``, ``S^R_{n,t} = sum_{k<=t} Q^R_{n,k}`` (real weights ``W = G / sqrt(n)`` of
M. Seleznova, "How Long Does Infinite Width Last?", arXiv:2605.05113 (2026), Sec. 2, which states only
``Q^R >= Q``; ``S`` counts ``t + 1`` inputs, the toolkit's convention). No closed form is known. Everything
below is the toolkit's own result, documented in ``docs/results/real-weight-expansion.md``; its status is
**verified on exact rows, not proved**.

The coefficients
----------------
Write ``P_k(n) = sum_{m=0}^{k} a_m(k) n^(k+1-m)``, so that ``Q^R_{n,k} = sum_m a_m(k) n^(-m)`` (a finite sum:
``a_m(k) = 0`` for ``m >= k + 1``). Then ``a_0 = 1`` (proved), ``a_1 = 0`` (observed on every row) and, for
``2 <= m <= M_MAX = 15``,

.. math::

    a_m(k) = A_m(k) + (-1)^k B_m(k)\quad\text{for every } k \ge 0,

with ``A_m`` a polynomial of degree ``2m`` (m even) or ``2m - 1`` (m odd) and ``B_m`` one of degree ``2m - 4``,
both with rational coefficients (``a_2(k) = (2k^4 + 16k^3 - 8k^2 - 16k + 3 - 3(-1)^k) / 48``). Each pair is
determined by exact rational linear algebra from the rows ``k = 0 .. N_m - 1`` (``N_m`` = the number of
unknowns) of ``theory/data/real_wick_rows.json`` and **verified exactly on every other row up to k = 80**
(``81 - N_m`` rows held out: 75 for m = 2, 43 for m = 10, 24 for m = 15; the rows 61..80, a verification set
computed after the fits, :func:`theory.real_rows.verification_rows`); :func:`coefficient_record` gives the
rows of each. The committed values are in ``theory/data/real_expansion.json`` (written by
``benchmarks/real_expansion/fit_coefficients.py``); :func:`fit_coefficient` redoes a fit from any rows.

The expansion at any depth (:func:`QR`, :func:`SR`)
---------------------------------------------------
For ``t <= 60`` the energies are the exact rows. Beyond, the truncated large-n series

.. math::

    Q^R_{n,t} \approx \sum_{m=0}^{M_V} a_m(t)\,n^{-m},\qquad M_V = M_{MAX} - 2 = 13,

and, for ``S``, the exact ``S^R_{n,60}`` plus ``sum_{m<=M_V} (b_m(t) - b_m(60)) n^(-m)`` with the exact
partial sums ``b_m(t) = sum_{k<=t} a_m(k)`` (quasi-polynomials again, by Faulhaber's and Euler's power sums),
so every depth costs O(1). The **error estimate** is the size of the first two omitted terms (``m = 14, 15``,
whose coefficients are known) times ``(1 + 2 rho) / (1 - rho)``, ``rho = (c^2 / 15)^2``, ``c = t / sqrt(n)``
(plus, on the float path, a bound on the rounding): at fixed c the terms decay like the Taylor terms of
``e^{c^2}`` (the real scaling functions below), whose next pair is ``c^4 / (15 * 16) < rho`` times the omitted
pair; the factor allows twice that. It is an estimate, not a bound; ``validation/checks/real_expansion.py``
checks it against the exact rows k = 41..80 (about 4000 points, rows 61..80 held out from every fit; the
largest actual-to-estimated ratio is 0.99) and against Monte Carlo. **Domain**: ``t <= 60`` (exact), or ``rho <= 1/2`` (``c <= 3.26``) and a relative
error estimate ``<= REL_ERROR_MAX = 1e-2``; beyond, a ValueError naming ``t``. :func:`max_depth` gives the
largest t at any n: 88 at ``n = 10^3`` (c = 2.8), 2934 at ``10^6`` (c = 2.9), ``3.26 sqrt(n)`` from ``10^10``
on. The issue's Monte Carlo points (256, 100), (1024, 200), (4096, 300) (c = 6.25, 6.25, 4.7) lie outside:
the first omitted terms there exceed the value by orders of magnitude.

The scaling functions (:func:`scaling_series`)
----------------------------------------------
At fixed ``c = k / sqrt(n)``, ``a_m(k) n^(-m)`` splits by the degree of its terms:

.. math::

    Q^R_{n,k} = F_0(c) + n^{-1/2} F_1(c) + n^{-1} F_2(c) + n^{-3/2} F_3(c) + O(n^{-2}),\qquad
    F_j(c) = \sum_m [k^{2m-j}]A_m(k)\; c^{2m-j},

exact rational Taylor coefficients to ``c^(2 M_MAX - j)``; the ``(-1)^k`` parts enter only from ``n^(-2)`` on
(``deg B_m = 2m - 4``). ``F_0`` equals the complex critical curve ``(2/c^2) sinh(c^2/2)`` on all 16 known
coefficients. ``F_1, F_2, F_3`` are entire with coefficients of order ``1/(p/2)!``: they grow like ``e^{c^2}``,
against ``e^{c^2/2}`` for the complex curve (the real eigenvalues of real Ginibre matrices), and
``F_1(c) - int_0^c e^{u^2} du`` has coefficients below ``5e-4 / (p/2)!`` from ``c^13`` on (observed).

>>> QR(16, 2).value                      # the exact row n^3 + 2n: 1 + 2/16^2
1.0078125
>>> r = QR(10**6, 1000)                  # c = 1: the expansion, about 2e-14 relative (rounding included)
>>> round(r.value, 10), r.error < 1e-13, r.source
(1.0426213998, True, 'expansion')
>>> QR(400, 100)
Traceback (most recent call last):
    ...
ValueError: k must be <= 60 at n=400 (the exact rows reach k = 60; the large-n expansion serves c = k/sqrt(n) up to 3.26 and a relative error estimate up to 0.01), got k = 100 (c = 5)
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from typing import Literal, overload

import mpmath
import numpy as np

from ._args import FLOAT_INT_MAX, FloatOrMp, Quantity, as_int, as_int_array, check_size, short_int
from ._types import FloatArray, Int, IntArray, mpf
from .results import Energy
from .real_rows import real_Q, real_rows_max_k

__all__ = ["COEFFICIENTS_FILE", "M_MAX", "M_VALUE", "REL_ERROR_MAX", "RHO_MAX", "MAX_T_LINEAR",
           "MAX_FIT_M", "coefficient_shape",
           "fit_coefficient", "fit_quasi", "quasi_value", "quasi_partial_sum", "coefficient", "coefficient_record", "coefficient_value", "partial_sum", "QR", "SR",
           "max_depth", "scaling_series", "scaling_function", "real_energies_any", "truncated_expansion",
           "real_breakdown_depth", "breakdown_law"]

COEFFICIENTS_FILE = resources.files("theory") / "data" / "real_expansion.json"    # a Traversable
REL_ERROR_MAX = 1e-2      # the largest relative error estimate the expansion is served with
RHO_MAX = 0.5             # the largest tail ratio (c^2 / M_MAX)^2 the error estimate is trusted at
MAX_T_LINEAR = 10**6      # real_energies_any, real_breakdown_depth: O(t) float work (about 6 CPU-s at 1e6)
MAX_FIT_M = 64            # fit_coefficient: a_64 would need rows to k = 255


# --------------------------------------------------------------------------------------------------
# the coefficients a_m(k) = A_m(k) + (-1)^k B_m(k)
# --------------------------------------------------------------------------------------------------
def coefficient_shape(m) -> tuple[int, int]:
    """``(deg A_m, deg B_m)`` of the quasi-polynomial ``a_m``: ``(2m, 2m-4)`` for even m, ``(2m-1, 2m-4)`` for
    odd m (m >= 2); ``B_m`` is absent (degree -1) for m < 2. The shape every fit assumes (observed)."""
    m = as_int("m", m, minimum=0)
    if m < 2:
        return (0 if m == 0 else -1), -1
    return (2 * m if m % 2 == 0 else 2 * m - 1), 2 * m - 4


def _row_coefficient(rows, m: int, k: int) -> int:
    """``a_m(k)`` read from a row: the coefficient of ``n^(k+1-m)`` (0 below ``n^0``)."""
    j = k + 1 - m
    row = rows[k]
    return int(row[j]) if 0 <= j < len(row) else 0


def fit_coefficient(m, rows, ks=None) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    r"""Fit ``a_m(k) = A_m(k) + (-1)^k B_m(k)`` exactly on the rows ``ks`` (default ``k = 0..N_m-1``).

    ``rows``: a mapping ``k -> row`` (entry j the coefficient of ``n**j`` of ``E tr((G^k)^T G^k)``), e.g.
    ``{k: real_row(k) ...}``; ``ks``: exactly ``N_m = deg A_m + deg B_m + 2`` distinct row indices
    (:func:`coefficient_shape`), ``2 <= m <= MAX_FIT_M = 64``. Exact rational linear algebra (sympy ``DomainMatrix`` over QQ). Returns the
    monomial coefficients ``(A_m, B_m)`` as Fractions (entry i multiplies ``k**i``). Raises ValueError if the
    rows do not determine them (a singular system) or a row is missing.

    >>> from theory.real_rows import real_row
    >>> A, B = fit_coefficient(2, {k: real_row(k) for k in range(6)})
    >>> [str(x) for x in A], [str(x) for x in B]      # (2k^4 + 16k^3 - 8k^2 - 16k + 3 - 3(-1)^k) / 48
    (['1/16', '-1/3', '-1/6', '1/3', '1/24'], ['-1/16'])
    """
    m = as_int("m", m, minimum=2, maximum=MAX_FIT_M)
    da, db = coefficient_shape(m)
    size = da + db + 2
    if ks is not None and (isinstance(ks, (str, bytes)) or not isinstance(ks, Iterable)):
        raise TypeError(f"ks must be an iterable of row indices (integers >= 0) or None, got {ks!r:.60}")
    ks = list(range(size)) if ks is None else [as_int("ks[]", k, minimum=0) for k in itertools.islice(ks, size + 1)]
    if len(ks) != size or len(set(ks)) != size:
        raise ValueError(f"ks must hold {size} distinct row indices for m = {m}, got {len(ks)} ({len(set(ks))} distinct)")
    if not isinstance(rows, Mapping):
        raise TypeError(f"rows must be a mapping k -> row (a sequence of integers), got {type(rows).__name__}")
    missing = [k for k in ks if k not in rows]
    if missing:
        raise ValueError(f"rows lacks the rows k = {missing[:5]} needed by the fit of a_{m} (m={m})")
    for k in ks:
        row = rows[k]
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or not all(
                isinstance(c, (int, np.integer)) and not isinstance(c, (bool, np.bool_)) for c in row):
            raise TypeError(f"rows[{k}] must be a sequence of integers (coefficients of n**j), got {row!r:.60}")
    try:
        return fit_quasi({k: _row_coefficient(rows, m, k) for k in ks}, da, db)
    except ValueError:
        raise ValueError(f"the rows k = {ks} do not determine a_{m} (singular system)") from None


def fit_quasi(points: Mapping, deg_a: int, deg_b: int) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """The quasi-polynomial ``A(k) + (-1)^k B(k)`` (``deg A = deg_a``, ``deg B = deg_b``; -1: absent) through the
    points ``{k: value}`` (exactly ``deg_a + deg_b + 2`` of them; ints or Fractions), by exact rational linear
    algebra. Returns the monomial coefficients ``(A, B)`` as Fractions; ValueError if singular.

    >>> fit_quasi({0: 0, 1: 0, 2: 1}, 2, -1)              # k (k - 1) / 2
    ((Fraction(0, 1), Fraction(-1, 2), Fraction(1, 2)), ())
    """
    from sympy import QQ
    from sympy.polys.matrices import DomainMatrix
    from sympy.polys.matrices.exceptions import DMNonInvertibleMatrixError

    if not isinstance(points, Mapping):
        raise TypeError(f"points must be a mapping k -> value (rationals), got {type(points).__name__}")
    deg_a = as_int("deg_a", deg_a, minimum=-1, maximum=4 * MAX_FIT_M)
    deg_b = as_int("deg_b", deg_b, minimum=-1, maximum=4 * MAX_FIT_M)
    ks = [as_int("points[k]", k, minimum=0) for k in points]
    _as_rationals("points", points.values())
    size = deg_a + deg_b + 2
    if len(ks) != size:
        raise ValueError(f"points must hold {size} values for deg_a={deg_a}, deg_b={deg_b}, got {len(ks)}")
    mat = DomainMatrix([[QQ(k**i) for i in range(deg_a + 1)] + [QQ((-1) ** k * k**i) for i in range(deg_b + 1)]
                        for k in ks], (size, size), QQ)
    rhs = DomainMatrix([[QQ(Fraction(points[k]).numerator, Fraction(points[k]).denominator)] for k in ks],
                       (size, 1), QQ)
    try:
        sol = [Fraction(int(x.numerator), int(x.denominator)) for x in mat.lu_solve(rhs).to_Matrix()]
    except DMNonInvertibleMatrixError:
        raise ValueError(f"the points k = {ks} do not determine a quasi-polynomial of degrees "
                         f"({deg_a}, {deg_b}) (singular system)") from None
    return tuple(sol[:deg_a + 1]), tuple(sol[deg_a + 1:])


def quasi_value(A, B, k: int) -> Fraction:
    """``A(k) + (-1)^k B(k)`` exactly (Horner in Fractions; ``A``, ``B`` monomial coefficients, entry i times k^i).

    >>> quasi_value((Fraction(1), Fraction(2)), (Fraction(1),), 3)     # 1 + 2*3 - 1
    Fraction(6, 1)
    """
    return _quasi(_as_rationals("A", A), _as_rationals("B", B), as_int("k", k, minimum=0))


_MAX_COEFFICIENTS = 10**4      # a quasi-polynomial's coefficients (the committed ones have a few dozen)


def _as_rationals(name: str, values) -> tuple[Fraction, ...]:
    """A sequence of ints / Fractions as Fractions (TypeError naming ``name`` otherwise)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"{name} must be a sequence of rationals (ints or Fractions), got {type(values).__name__}")
    check_size(name, values, _MAX_COEFFICIENTS)     # before iterating a broadcast view of 10**12 elements
    out = []
    for x in values:
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer, Fraction)):
            raise TypeError(f"{name} must hold rationals (ints or Fractions), got {x!r:.40}")
        out.append(Fraction(int(x)) if isinstance(x, (int, np.integer)) else x)
    return tuple(out)


def _quasi(A, B, k: int) -> Fraction:
    """``A(k) + (-1)^k B(k)`` exactly (Horner in Fractions)."""
    def horner(c):
        acc = Fraction(0)
        for x in reversed(c):
            acc = acc * k + x
        return acc
    return horner(A) + (-1 if k % 2 else 1) * horner(B)


@lru_cache(maxsize=1)
def _data() -> dict:
    data = json.loads(COEFFICIENTS_FILE.read_text(encoding="utf-8"))
    out = {}
    for rec in data["coefficients"]:
        out[int(rec["m"])] = {"A": tuple(Fraction(x) for x in rec["A"]), "B": tuple(Fraction(x) for x in rec["B"]),
                              "fit_rows": tuple(rec["fit_rows"]), "verified_rows": tuple(rec["verified_rows"])}
    return out


M_MAX = 15                # the largest m with a committed a_m (theory/data/real_expansion.json)
M_VALUE = M_MAX - 2       # the expansion's value uses m <= M_VALUE; m = M_VALUE + 1, + 2 give its error


def coefficient(m) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """The committed ``(A_m, B_m)`` (monomial coefficients, Fractions), ``0 <= m <= M_MAX``; ``a_0 = 1``,
    ``a_1 = 0``.

    >>> [str(x) for x in coefficient(3)[1]]            # B_3(k) = -(2k^2 - 6k + 3) / 64
    ['-3/64', '3/32', '-1/32']
    """
    m = as_int("m", m, minimum=0, maximum=M_MAX)
    if m == 0:
        return (Fraction(1),), ()
    if m == 1:
        return (), ()
    rec = _data()[m]
    return rec["A"], rec["B"]


def coefficient_record(m) -> dict:
    """How ``a_m`` was obtained: ``{"m", "fit_rows": (first, last), "verified_rows": (first, last), "held_out"}``
    (fitted on every row of the first range, verified exactly on every row of the second), ``2 <= m <= M_MAX``.

    >>> coefficient_record(10)
    {'m': 10, 'fit_rows': (0, 37), 'verified_rows': (38, 80), 'held_out': 43}
    """
    m = as_int("m", m, minimum=2, maximum=M_MAX)
    rec = _data()[m]
    lo, hi = rec["verified_rows"]
    return {"m": m, "fit_rows": rec["fit_rows"], "verified_rows": rec["verified_rows"], "held_out": hi - lo + 1}


def coefficient_value(m, k) -> Fraction:
    """``a_m(k)`` exactly from the committed quasi-polynomial (``0 <= m <= M_MAX``, ``k >= 0``): the coefficient of
    ``n^(k+1-m)`` in ``E tr((G^k)^T G^k)`` (verified on the rows k <= 80, the formula beyond).

    >>> from theory.real_rows import real_row
    >>> coefficient_value(2, 4), real_row(4)[3]        # n^5 + 28 n^3 + ...
    (Fraction(28, 1), 28)
    """
    A, B = coefficient(m)
    return _quasi(A, B, as_int("k", k, minimum=0))


# --------------------------------------------------------------------------------------------------
# partial sums b_m(t) = sum_{k<=t} a_m(k): quasi-polynomials by Faulhaber's and Euler's power sums
# --------------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def _bernoulli(j: int) -> Fraction:
    """Bernoulli number ``B_j`` with ``B_1 = -1/2`` (``sum_{i<=j} C(j+1, i) B_i = 0``)."""
    if j == 0:
        return Fraction(1)
    return -sum((math.comb(j + 1, i) * _bernoulli(i) for i in range(j)), Fraction(0)) / (j + 1)


@lru_cache(maxsize=None)
def _power_sum(p: int) -> tuple[Fraction, ...]:
    """Coefficients (entry i: ``t**i``) of ``sum_{k=0}^t k^p`` (``0^0 = 1``): Faulhaber's formula
    ``sum_{k=1}^t k^p = sum_j C(p+1, j) B+_j t^(p+1-j) / (p+1)`` with ``B+_1 = +1/2``."""
    out = [Fraction(0)] * (p + 2)
    for j in range(p + 1):
        b = Fraction(1, 2) if j == 1 else _bernoulli(j)
        out[p + 1 - j] += math.comb(p + 1, j) * b / (p + 1)
    out[0] += 1 if p == 0 else 0
    return tuple(out)


@lru_cache(maxsize=None)
def _alternating_sum(p: int) -> tuple[tuple[Fraction, ...], Fraction]:
    """``(U, V)`` with ``sum_{k=0}^t (-1)^k k^p = (-1)^t U(t) + V``: ``U(t) + U(t-1) = t^p`` solved from the top
    coefficient down (``2 u_l + sum_{i>l} C(i, l) (-1)^(i-l) u_i = [l = p]``), ``V = [p = 0] - U(0)``."""
    u = [Fraction(0)] * (p + 1)
    u[p] = Fraction(1, 2)
    for l in range(p - 1, -1, -1):
        u[l] = -sum((math.comb(i, l) * (-1) ** (i - l) * u[i] for i in range(l + 1, p + 1)), Fraction(0)) / 2
    return tuple(u), (1 if p == 0 else 0) - u[0]


def partial_sum(m) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """``(C_m, D_m)`` with ``b_m(t) = sum_{k=0}^t a_m(k) = C_m(t) + (-1)^t D_m(t)`` exactly, ``0 <= m <= M_MAX``
    (monomial coefficients; ``deg C_m = deg A_m + 1``, ``deg D_m = deg B_m``), so that
    ``S^R_{n,t} = sum_m b_m(t) n^(-m)``.

    >>> C, D = partial_sum(2)
    >>> sum(coefficient_value(2, k) for k in range(8)) == sum(c * 7**i for i, c in enumerate(C)) - sum(
    ...     d * 7**i for i, d in enumerate(D))
    True
    """
    # checked before the cache: a cached key equal to m (0.0 == 0, True == 1) would skip the check
    return _partial_sum(as_int("m", m, minimum=0, maximum=M_MAX))


@lru_cache(maxsize=None)
def _partial_sum(m: int) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    return quasi_partial_sum(*coefficient(m))


def quasi_partial_sum(A, B) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """``(C, D)`` with ``sum_{k=0}^t (A(k) + (-1)^k B(k)) = C(t) + (-1)^t D(t)`` exactly (monomial coefficients in,
    Fractions out; Faulhaber's and Euler's power sums).

    >>> quasi_partial_sum((Fraction(0), Fraction(1)), ())          # sum_{k<=t} k = (t + t^2) / 2
    ((Fraction(0, 1), Fraction(1, 2), Fraction(1, 2)), ())
    """
    A, B = _as_rationals("A", A), _as_rationals("B", B)
    C = [Fraction(0)] * (len(A) + 1)
    D = [Fraction(0)] * len(B)
    for i, x in enumerate(A):
        for j, y in enumerate(_power_sum(i)):
            C[j] += x * y
    for i, x in enumerate(B):
        U, V = _alternating_sum(i)
        C[0] += x * V
        for j, y in enumerate(U):
            D[j] += x * y
    return tuple(C), tuple(D)


# --------------------------------------------------------------------------------------------------
# evaluation: exact (for mp), float (arrays)
# --------------------------------------------------------------------------------------------------
def _terms_exact(n: int, t: int, quantity: str, base: int) -> list[Fraction]:
    """``[a_m(t) n^-m]`` (Q) or ``[(b_m(t) - b_m(base)) n^-m]`` (S) for m = 0..M_MAX, exact."""
    out = []
    for m in range(M_MAX + 1):
        if quantity == "Q":
            v = _quasi(*coefficient(m), t)
        else:
            v = _quasi(*_partial_sum(m), t) - _quasi(*_partial_sum(m), base)
        out.append(v / Fraction(n) ** m)
    return out


def _scaled_quasi(P, Q, m: int, c: np.ndarray, n: np.ndarray, sign: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(P(t) + sign Q(t)) n^-m`` in float64 as ``sum_i p_i c^i n^(i/2 - m)`` (``c = t / sqrt(n)``): every
    term is bounded at bounded c, so nothing overflows and little cancels once n is large. Also returns the
    same sum with every coefficient taken in absolute value (the scale of the rounding errors)."""
    def horner(coef, absolute):
        acc = np.zeros(np.broadcast(c, n).shape)
        for i in range(len(coef) - 1, -1, -1):
            x = float(coef[i])
            acc = acc * c + (abs(x) if absolute else x) * n ** (i / 2.0 - m)
        return acc
    if not Q:
        return horner(P, False), horner(P, True)
    return horner(P, False) + sign * horner(Q, False), horner(P, True) + horner(Q, True)


_ROUNDING = 64 * np.finfo(np.float64).eps   # float path: a generous bound on the Horner sums' relative rounding


def _terms_float(n: np.ndarray, t: np.ndarray, quantity: str, base: int,
                 m_top: int) -> tuple[list[np.ndarray], np.ndarray]:
    """The float terms of :func:`_terms_exact` (m <= m_top) and the rounding scale of the value's (m <= m_top - 2)."""
    nf, tf = n.astype(np.float64), t.astype(np.float64)
    c = tf / np.sqrt(nf)
    sign = np.where(t % 2 == 1, -1.0, 1.0)
    out, scale = [], np.zeros(np.broadcast(nf, tf).shape)
    for m in range(m_top + 1):
        if quantity == "Q":
            v, a = _scaled_quasi(*coefficient(m), m, c, nf, sign)
        else:
            C, D = _partial_sum(m)
            at_base = float(_quasi(C, D, base)) * nf ** (-float(m))
            v, a = _scaled_quasi(C, D, m, c, nf, sign)
            v, a = v - at_base, a + np.abs(at_base)
        out.append(v)
        if m <= m_top - 2:
            scale = scale + a
    return out, scale


def _rho(n, t, m_top: int = M_MAX):
    """The tail ratio ``(c^2 / m_top)^2`` of the error estimate (float; arrays broadcast)."""
    return (np.asarray(t, dtype=np.float64) ** 2 / np.asarray(n, dtype=np.float64) / m_top) ** 2


def _value_error(terms, rho):
    """The value (terms m <= len(terms) - 3) and the error estimate (the two omitted terms (1 + 2 rho) / (1 - rho))."""
    value = sum(terms[:-2])
    tail = abs(terms[-2]) + abs(terms[-1])
    r = min(rho, RHO_MAX) if isinstance(rho, Fraction) else np.minimum(rho, RHO_MAX)
    return value, tail * (1 + 2 * r) / (1 - r)


def _exact_row_energy(n: int, t: int, quantity: str) -> Fraction:
    """``Q^R_{n,t}`` or ``S^R_{n,t}`` from the exact rows (:func:`theory.real_rows.real_Q`)."""
    if quantity == "Q":
        return real_Q(n, t)
    return sum((real_Q(n, k) for k in range(t + 1)), Fraction(0))


# --------------------------------------------------------------------------------------------------
# the domain and the public energies
# --------------------------------------------------------------------------------------------------
def _float_value_error(n: np.ndarray, t: np.ndarray, quantity: str, base: int | None = None, m_top: int = M_MAX):
    """Value and error estimate on the float path: the truncation estimate plus the rounding bound."""
    base = real_rows_max_k() if base is None else base
    terms, scale = _terms_float(n, t, quantity, base, m_top)
    value, err = _value_error(terms, _rho(n, t, m_top))
    return value, err + _ROUNDING * scale


def truncated_expansion(n, t, *, quantity: Quantity = "S", m_top: int = M_MAX, base: int | None = None):
    """``(value, error)`` of the raw truncated expansion at any ``(n, t)``, float64 arrays, no domain check: for
    the checks of the error estimate against exact rows.

    ``quantity="Q"``: ``sum_{m <= m_top - 2} a_m(t) n^-m``; ``"S"``: ``sum_{m <= m_top - 2} (b_m(t) - b_m(base))
    n^-m`` (``base`` default 60: add the exact ``S^R_{n,base}`` yourself). ``error``: the terms ``m_top - 1`` and
    ``m_top`` times ``(1 + 2 rho) / (1 - rho)``, ``rho = (c^2/m_top)^2``, plus the rounding bound (module
    docstring). ``4 <= m_top <= M_MAX``;
    ``m_top = 11`` uses only coefficients fitted on rows k <= 40.

    >>> v, e = truncated_expansion(3600, 60, quantity="Q")   # c = 1: compare with the exact row
    >>> bool(abs(v - float(_exact_row_energy(3600, 60, "Q"))) <= e)
    True
    """
    from ._args import as_choice
    quantity = as_choice("quantity", quantity, ("Q", "S"))
    m_top = as_int("m_top", m_top, minimum=4, maximum=M_MAX)
    base = real_rows_max_k() if base is None else as_int("base", base, minimum=0)
    nn, tt = np.broadcast_arrays(as_int_array("n", n, minimum=1), as_int_array("t", t, minimum=0))
    v, e = _float_value_error(nn, tt, quantity, base, m_top)
    return (float(v), float(e)) if np.ndim(v) == 0 else (v, e)


def _rho_served(n: int, t: int) -> bool:
    """``rho = (t^2 / (n M_MAX))^2 <= RHO_MAX``, decided in integers (exact for every n and t: in float64 a
    step of one in t is lost past 2**53, and the scan below never ended at n = 1e100)."""
    r = Fraction(RHO_MAX)
    return t**4 * r.denominator <= r.numerator * (n * M_MAX) ** 2


def _rho_depth(n: int) -> int:
    """The largest t with ``rho <= RHO_MAX``: ``floor((RHO_MAX (n M_MAX)^2)^(1/4))`` in integers."""
    r = Fraction(RHO_MAX)
    return math.isqrt(math.isqrt(r.numerator * (n * M_MAX) ** 2 // r.denominator))


def _served(n: int, t: int, quantity: str) -> bool:
    if t <= real_rows_max_k():
        return True
    if not _rho_served(n, t):
        return False
    v, e = _float_value_error(np.array(n), np.array(t), quantity)
    if quantity == "S":
        v = v + float(_exact_row_energy(n, real_rows_max_k(), "S"))
    return bool(np.isfinite(v) and e <= REL_ERROR_MAX * abs(v))


@lru_cache(maxsize=1024)
def _max_depth(n: int, quantity: str) -> int:
    K = real_rows_max_k()
    if n > FLOAT_INT_MAX:
        # the served depths are decided on the float64 error estimate (n^-m in float64)
        raise ValueError(f"n must be <= 1e300 for depths past the exact rows (> {K}): the large-n expansion's "
                         f"domain is decided in float64; got n = {short_int(n)}")
    hi = _rho_depth(n)                                                  # rho > RHO_MAX beyond
    if hi <= K or not _served(n, K + 1, quantity):
        return K
    lo = K + 1                                                          # served(lo); find the last served
    if _served(n, hi, quantity):
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if _served(n, mid, quantity) else (lo, mid)
    return lo


def max_depth(n, *, quantity: Quantity = "S") -> int:
    """The largest depth at which :func:`QR` (``quantity="Q"``) or :func:`SR` (``"S"``, the default) serves width n: the
    exact rows (``t <= 60``) or the expansion while ``rho = (c^2/15)^2 <= 1/2`` and the relative error estimate
    is ``<= REL_ERROR_MAX`` (module docstring; the estimate grows with t, found by bisection).

    >>> max_depth(10**6, quantity="Q"), max_depth(100, quantity="Q"), max_depth(10**12, quantity="Q")   # c = 2.93, 60, 3.26
    (2934, 60, 3256777)
    """
    from ._args import as_choice
    n = as_int("n", n, minimum=1)
    return _max_depth(n, as_choice("quantity", quantity, ("Q", "S")))


def _domain_error(n: int, t: int, quantity: str, name: str | None = None) -> ValueError:
    md, name = _max_depth(n, quantity), name or _DEPTH[quantity]
    c = math.log10(t) - math.log10(n) / 2                # log10 of c = t / sqrt(n), for ints of any size
    return ValueError(f"{name} must be <= {md} at n={short_int(n)} (the exact rows reach {name} = {real_rows_max_k()}; "
                      f"the large-n expansion serves c = {name}/sqrt(n) up to {math.sqrt(M_MAX * math.sqrt(RHO_MAX)):.3g} "
                      f"and a relative error estimate up to {REL_ERROR_MAX:g}), got {name} = {short_int(t)} "
                      f"(c = {10 ** c if c < 300 else math.inf:.3g})")


_DEPTH = {"Q": "k", "S": "t"}        # the vocabulary: Q-type depth k, S-type depth t (docs/api/vocabulary.md)


def _check_served(n: int, depth: int, quantity: str, name: str) -> None:
    """A ValueError naming the caller's parameter ``name`` when ``depth`` is beyond :func:`max_depth` at width n."""
    if depth > real_rows_max_k() and depth > _max_depth(n, quantity):
        raise _domain_error(n, depth, quantity, name)


def _energy(n, t, method, dps, quantity: str) -> Energy:
    from ._args import as_method_dps
    method, dps = as_method_dps(method, dps)
    name = _DEPTH[quantity]
    if method == "mp":
        return _energy_mp(as_int("n", n, minimum=1), as_int(name, t, minimum=0), dps, quantity)
    nn, tt = np.broadcast_arrays(as_int_array("n", n, minimum=1), as_int_array(name, t, minimum=0))
    shape, nn, tt = nn.shape, nn.ravel(), tt.ravel()
    K = real_rows_max_k()
    value, error = np.empty(nn.shape), np.zeros(nn.shape)
    exact = tt <= K
    for i in np.flatnonzero(exact).tolist():
        row = _exact_row_energy(int(nn[i]), int(tt[i]), quantity)
        value[i] = float(row)
        error[i] = float(abs(Fraction(value[i]) - row))          # the rounding of the exact row to float64
    if not exact.all():
        for n_u in np.unique(nn[~exact]).tolist():
            t_max = int(tt[~exact & (nn == n_u)].max())
            if t_max > _max_depth(n_u, quantity):
                raise _domain_error(n_u, t_max, quantity)
        v, e = _float_value_error(nn[~exact], tt[~exact], quantity)
        if quantity == "S":
            # the exact S^R_{n,60} in float64 and the sum: two more roundings of the result
            v = v + np.array([float(_exact_row_energy(int(x), K, "S")) for x in nn[~exact].tolist()])
            e = e + 2 * np.finfo(np.float64).eps * np.abs(v)
        value[~exact], error[~exact] = v, e
    source = "exact rows" if exact.all() else "expansion" if not exact.any() else "exact rows and expansion"
    if not shape:
        return Energy(float(value[0]), float(error[0]), source)
    return Energy(value.reshape(shape), error.reshape(shape), source)


def _rounded(x: Fraction) -> tuple[mpf, Fraction]:
    """``x`` at the working precision and the exact size of that rounding (for the error field)."""
    v = mpmath.mpf(x.numerator) / x.denominator
    man, exp = v.man_exp
    exact_v = Fraction(int(man) * 2**int(exp)) if exp >= 0 else Fraction(int(man), 2**int(-exp))
    return v, abs(exact_v - x)


def _energy_mp(n: int, t: int, dps: int, quantity: str) -> Energy:
    """The mp path: exact rational arithmetic (rows, or the expansion's terms), rounded once to ``dps`` digits;
    the error is the truncation estimate (0 on the rows) plus the size of that final rounding."""
    K = real_rows_max_k()
    with mpmath.workdps(dps):
        def mpf_of(x: Fraction):
            return mpmath.mpf(x.numerator) / x.denominator
        if t <= K:
            value, rounding = _rounded(_exact_row_energy(n, t, quantity))
            return Energy(value, mpf_of(rounding), "exact rows")
        if t > _max_depth(n, quantity):
            raise _domain_error(n, t, quantity)
        terms = _terms_exact(n, t, quantity, K)
        exact_sum, err = _value_error(terms[:M_MAX + 1], Fraction(float(_rho(n, t))))
        if quantity == "S":
            exact_sum += _exact_row_energy(n, K, "S")
        value, rounding = _rounded(exact_sum)
        return Energy(value, mpf_of(err + rounding), "expansion")


@overload
def QR(n: Int, k: Int, *, method: Literal["float"] = ..., dps: None = ...) -> Energy[float]: ...
@overload
def QR(n: IntArray, k: Int | IntArray, *, method: Literal["float"] = ..., dps: None = ...) -> Energy[FloatArray]: ...
@overload
def QR(n: Int, k: IntArray, *, method: Literal["float"] = ..., dps: None = ...) -> Energy[FloatArray]: ...
@overload
def QR(n: Int, k: Int, *, method: Literal["mp"], dps: int | None = ...) -> Energy[mpf]: ...
def QR(n: Int | IntArray, k: Int | IntArray, *, method: FloatOrMp = "float",
       dps: int | None = None) -> Energy[float] | Energy[FloatArray] | Energy[mpf]:
    r"""The real-weight energy ``Q^R_{n,k} = E tr((G^k)^T G^k) / n^(k+1)`` at any depth, with an error estimate.

    Source: the quantity of Seleznova (2026), arXiv:2605.05113, Sec. 2 (real Gaussian weights
    ``W = G / sqrt(n)``, ``Q^R >= Q``); the values are the toolkit's: the exact rows for ``k <= 60``
    (:mod:`theory.real_rows`), the large-n expansion of the module docstring beyond (verified coefficients
    ``a_m``, m <= 13, and the first omitted terms as the error estimate). Domain: integers ``n >= 1``,
    ``k >= 0`` with ``k <= max_depth(n, quantity="Q")`` (e.g. 2934 at ``n = 10^6``; always ``k <= 60``); outside,
    a ValueError naming ``k`` and the domain. Cost O(1) per value. Convention: ``Q^R_{n,0} = 1``.

    Parameters
    ----------
    n : int or array of int
        Width ``n >= 1`` (arrays broadcast against ``k`` on the float path).
    k : int or array of int
        Depth (the power of ``W``), ``k >= 0``.
    method : {"float", "mp"}
        float64 (arrays allowed), or mpmath at ``dps`` digits (scalars; the expansion's sum is exact
        rational arithmetic, rounded once).
    dps : int, optional
        Digits for "mp"; None: the ambient ``mpmath.mp.dps``.

    Returns
    -------
    theory.results.Energy
        ``value``, ``error`` (an estimate of ``|value - Q^R|``: the truncation estimate, 0 on the exact rows,
        plus the rounding of the result to float64 or to ``dps`` digits: on an exact row the error is exactly
        that rounding, 0 when the row is held exactly) and ``source``; it prints the value to the digits its
        error supports.

    Raises
    ------
    TypeError
        ``n`` or ``k`` not an integer (or integer array), ``method`` not a string.
    ValueError
        ``n < 1``, ``k < 0``, ``k`` beyond :func:`max_depth`, an unknown method, ``dps`` with "float".

    Examples
    --------
    >>> QR(4, 3).value, QR(4, 3).source                  # n^4 + 10 n^2 + 4 n over n^4
    (1.6875, 'exact rows')
    >>> r = QR(10**6, 1000, method="mp", dps=30)
    >>> mpmath.nstr(r.value, 20), r.error < 1e-14
    ('1.0426213997913565614', True)
    >>> QR(10**6, 1000, method="mp", dps=40)            # the digits the error supports, not 40
    Energy(value=1.0426213997913566, error=5.8e-15, source='expansion')
    >>> QR(10**6, [10, 1000, 2000]).value.round(8).tolist()
    [1.0, 1.0426214, 1.82639885]
    """
    return _energy(n, k, method, dps, "Q")


@overload
def SR(n: Int, t: Int, *, method: Literal["float"] = ..., dps: None = ...) -> Energy[float]: ...
@overload
def SR(n: IntArray, t: Int | IntArray, *, method: Literal["float"] = ..., dps: None = ...) -> Energy[FloatArray]: ...
@overload
def SR(n: Int, t: IntArray, *, method: Literal["float"] = ..., dps: None = ...) -> Energy[FloatArray]: ...
@overload
def SR(n: Int, t: Int, *, method: Literal["mp"], dps: int | None = ...) -> Energy[mpf]: ...
def SR(n: Int | IntArray, t: Int | IntArray, *, method: FloatOrMp = "float",
       dps: int | None = None) -> Energy[float] | Energy[FloatArray] | Energy[mpf]:
    r"""The real-weight driven energy ``S^R_{n,t} = sum_{k=0}^t Q^R_{n,k}`` (``t + 1`` terms) with an error estimate.

    As :func:`QR`: exact rows for ``t <= 60``; beyond, the exact ``S^R_{n,60}`` plus the expansion's partial
    sums ``sum_m (b_m(t) - b_m(60)) n^(-m)`` (:func:`partial_sum`, O(1) in t) with the two omitted terms as
    the error estimate. Same domain rule (``t <= max_depth(n, quantity="S")``), arguments and returns.
    Source: Seleznova (2026), Sec. 2 (the quantity, driven recurrence ``h(t) = W h(t-1) + x(t)``); the
    values are the toolkit's.

    Parameters
    ----------
    n : int or array of int
        Width ``n >= 1``.
    t : int or array of int
        Depth ``t >= 0``.
    method : {"float", "mp"}
        float64 (arrays allowed) or mpmath at ``dps`` digits.
    dps : int, optional
        Digits for "mp"; None: the ambient ``mpmath.mp.dps``.

    Returns
    -------
    theory.results.Energy
        ``value``, ``error``, ``source``, as for :func:`QR`.

    Raises
    ------
    TypeError
        ``n`` or ``t`` not an integer (or integer array).
    ValueError
        ``n < 1``, ``t < 0``, ``t`` beyond the domain, an unknown method, ``dps`` with "float".

    Examples
    --------
    >>> SR(4, 2).value                                      # 1 + 1 + 9/8
    3.125
    >>> r = SR(10**6, 1000)
    >>> round(r.value / 1001, 8), r.error < 1e-9
    (1.00850254, True)
    """
    return _energy(n, t, method, dps, "S")


def real_energies_any(n, k, *, method: FloatOrMp = "float",
                      dps: int | None = None) -> tuple[list[Fraction | mpf] | FloatArray, float, str]:
    """``(E, rel_error, source)``: ``E = [Q^R_{n,0}, ..., Q^R_{n,k}]`` (float64 array, or for "mp" a list of
    exact Fractions on the rows and ``mpf`` beyond), the largest relative error estimate among them and a
    source text; for :mod:`theory.horizon`. Domain: :func:`QR`'s, ``k <= MAX_T_LINEAR = 1e6``.

    >>> E, err, src = real_energies_any(10**6, 100)           # the float path's rounding bound dominates here
    >>> len(E), err < 1e-13, src
    (101, True, 'exact real rows k <= 60, large-n expansion beyond (relative error estimate <= 1.4e-14)')
    """
    from ._args import as_method_dps
    n = as_int("n", n, minimum=1)
    k = as_int("k", k, minimum=0, maximum=MAX_T_LINEAR)
    method, dps = as_method_dps(method, dps)
    K = real_rows_max_k()
    exact: list[Fraction | mpf] = [_exact_row_energy(n, j, "Q") for j in range(min(k, K) + 1)]
    if k <= K:
        # exact Fractions ("mp"), or each rounded once to float64 (relative 2^-53)
        return (exact, 0.0, "exact real rows") if method == "mp" else \
            (np.array([float(e) for e in exact]), 2.0**-53, "exact real rows")
    E: list[Fraction | mpf] | FloatArray
    if method == "mp":
        tail = [QR(n, j, method="mp", dps=dps) for j in range(K + 1, k + 1)]
        rel = max(float(r.error / r.value) for r in tail)
        E = exact + [r.value for r in tail]
    else:
        r = QR(n, np.arange(K + 1, k + 1))
        rel = float(np.max(r.error / r.value))
        E = np.concatenate([np.array([float(e) for e in exact]), r.value])
    return E, rel, f"exact real rows k <= {K}, large-n expansion beyond (relative error estimate <= {rel:.2g})"


# --------------------------------------------------------------------------------------------------
# the scaling functions F_j
# --------------------------------------------------------------------------------------------------
def scaling_series(j) -> list[Fraction]:
    r"""Exact Taylor coefficients of ``F_j``, ``j = 0..3`` (module docstring): entry p multiplies ``c**p``,
    ``p = 0..2 M_MAX - j``; ``[c^p] F_j = [k^p] A_m`` with ``2m - j = p`` (zero when ``p - j`` is odd).

    >>> [str(x) for x in scaling_series(0)[:9]]          # (2/c^2) sinh(c^2/2) = 1 + c^4/24 + c^8/1920 + ...
    ['1', '0', '0', '0', '1/24', '0', '0', '0', '1/1920']
    >>> [str(x) for x in scaling_series(1)[:8]]          # F_1 = c^3/3 + 17 c^5/240 + 37 c^7/1680 + ...
    ['0', '0', '0', '1/3', '0', '17/240', '0', '37/1680']
    """
    j = as_int("j", j, minimum=0, maximum=3)
    out = [Fraction(0)] * (2 * M_MAX - j + 1)
    for p in range(len(out)):
        if (p + j) % 2 == 0:
            A, _ = coefficient((p + j) // 2)
            out[p] = A[p] if p < len(A) else Fraction(0)
    return out


def scaling_function(j, c) -> float | np.ndarray:
    """``F_j(c)`` from its truncated Taylor series (:func:`scaling_series`), float64, arrays allowed.

    The series is exact up to ``c^(2 M_MAX - j)``; the omitted terms are of order ``c^(2 M_MAX)/(M_MAX)!``
    (relative ``1e-7`` at c = 1.5, ``1e-3`` at c = 2.2), so use it for ``0 <= c <= 2`` (ValueError beyond 3).

    >>> round(float(scaling_function(0, 1.0)), 12) == round(2 * math.sinh(0.5), 12)
    True
    """
    from ._args import as_real_array
    j = as_int("j", j, minimum=0, maximum=3)
    arr = as_real_array("c", c, minimum=0.0)
    if arr.size and float(arr.max()) > 3.0:
        raise ValueError(f"c must be <= 3 for the truncated series of F_{j}, got {float(arr.max()):g}")
    coef = [float(x) for x in scaling_series(j)]
    out = np.polynomial.polynomial.polyval(arr, coef)
    return float(out) if out.ndim == 0 else out


# --------------------------------------------------------------------------------------------------
# the real breakdown depth and its law
# --------------------------------------------------------------------------------------------------
def real_breakdown_depth(n, tol) -> int:
    """The first depth t with ``|Q^R_{n,t} - 1| > tol`` (real weights, ``sigma = 1``; ``Q^R >= 1``, so the first
    ``Q^R_{n,t} > 1 + tol``): the real counterpart of :func:`theory.regimes.breakdown_depth` with
    ``quantity="Q"``, from the exact rows and the expansion (float; scanned in doubling blocks). Equal to
    ``theory.horizon.depth_for_scale(n, 1.0, tol, quantity="Q", field="real") + 1``. Domain: ``n >= 1``, ``0 < tol < 1``,
    with the crossing at most :func:`max_depth` (else ValueError naming tol) and at most ``MAX_T_LINEAR = 1e6``
    (else ValueError naming n: the law of :func:`breakdown_law` gives it there).

    >>> real_breakdown_depth(10**6, 0.05), real_breakdown_depth(16, 0.05)
    (1041, 4)
    """
    from ._args import as_real
    n = as_int("n", n, minimum=1)
    tol = as_real("tol", tol, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    domain = max(real_rows_max_k(), _max_depth(n, "Q"))
    cap = min(domain, MAX_T_LINEAR)
    if cap < domain and _critical_c(tol) * math.sqrt(n) - 100 > cap:
        # up front: the crossing lies at c0 sqrt(n) + O(1) (c0 of the critical curve, the same for both weight
        # laws; the shift delta of breakdown_law is a few units), past the scan's end: a minute of scanning
        # would end in the error below
        raise ValueError(f"n={n} is too large for the O(t) scan (the crossing lies near depth "
                         f"{_critical_c(tol) * math.sqrt(n):.3g} > {cap}, MAX_T_LINEAR): use breakdown_law(tol) there")
    T = 64
    while True:
        T = min(T, cap)
        E = real_energies_any(n, T)[0]
        hit = np.flatnonzero(np.asarray(E) > 1.0 + tol)
        if hit.size:
            return int(hit[0])
        if T == cap and cap < domain:
            raise ValueError(f"n={n} is too large for the O(t) scan (no crossing up to depth {cap}, MAX_T_LINEAR): "
                             f"use breakdown_law(tol) there")
        if T == cap:
            raise ValueError(f"tol={tol} is not exceeded up to depth {cap} at n={n}, the end of the real energies' "
                             f"domain (theory.real_expansion.max_depth): choose a smaller tol")
        T *= 2


def _critical_c(tol: float) -> float:
    """``c0`` with ``f(c0) = sinh(y)/y = 1 + tol``, ``y = c0^2/2`` (bisection; 0 < tol < 1)."""
    lo, hi = 0.0, 4.0                                  # f(4) = sinh(8)/8 > 186
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        y = mid * mid / 2
        f = 1.0 + y * y / 6.0 if y < 1e-4 else math.sinh(y) / y
        lo, hi = (mid, hi) if f <= 1.0 + tol else (lo, mid)
    return hi


def breakdown_law(tol) -> dict:
    r"""The breakdown law ``t*(n) = c_0 sqrt(n) + delta + delta_2 / sqrt(n) + O(1/n)`` for ``Q`` at tolerance ``tol``.

    The crossing ``Q = 1 + tol`` of ``Q = F_0(c) + F_1(c)/sqrt(n) + F_2(c)/n + ...`` at ``c = t/sqrt(n)``:
    ``c_0`` solves ``F_0(c_0) = 1 + tol`` (the curve is the same for both weight laws); the first correction
    is a constant shift, ``delta = -F_1(c_0) / F_0'(c_0)``, with the real ``F_1`` of :func:`scaling_function`
    (``delta_real``) or the complex ``g`` of :func:`theory.regimes.critical_correction` (``delta_complex``); the
    second, real only, ``delta_2 = -(F_0''(c_0) delta^2 / 2 + F_1'(c_0) delta + F_2(c_0)) / F_0'(c_0)``
    (``delta2_real``). The breakdown depth is the first integer past the crossing. Source: the toolkit's
    (``docs/results/real-weight-expansion.md``). Domain: ``0 < tol <= 0.99`` (``c_0 <= 2.09``, where the series
    of ``F_1``, ``F_2`` are accurate to 1e-4 relative).

    >>> law = breakdown_law(0.05)
    >>> round(law["c0"], 6), round(law["delta_real"], 3), round(law["delta_complex"], 3)
    (1.042776, -2.582, -0.48)
    """
    from ._args import as_real
    from .regimes import critical_correction, critical_curve
    tol = as_real("tol", tol, minimum=0.0, maximum=0.99, open_min=True)
    lo, hi = 0.0, 2.2
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if float(critical_curve(mid)) - 1.0 < tol else (lo, mid)
    c0 = 0.5 * (lo + hi)
    y = 0.5 * c0 * c0
    f1 = 2.0 * math.cosh(y) / c0 - 4.0 * math.sinh(y) / c0**3                     # F_0', F_0 = 2 sinh(y) / c^2
    f2 = 2.0 * math.sinh(y) - 6.0 * math.cosh(y) / c0**2 + 12.0 * math.sinh(y) / c0**4
    F1 = float(scaling_function(1, c0))
    dF1 = float(np.polynomial.polynomial.polyval(c0, np.polynomial.polynomial.polyder(
        [float(x) for x in scaling_series(1)])))
    delta = -F1 / f1
    delta2 = -(0.5 * f2 * delta**2 + dF1 * delta + float(scaling_function(2, c0))) / f1
    return {"tol": tol, "c0": c0, "slope": f1, "delta_real": delta, "delta2_real": delta2,
            "delta_complex": -float(critical_correction(c0)) / f1}
