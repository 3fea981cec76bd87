r"""Real-weight regimes from the exact rows: ``Q^R / Q^C`` along ``k = c sqrt(n)`` and the real correction.

Source of the quantities: M. Seleznova, "How Long Does Infinite Width Last? Signal Propagation in Long-Range
Linear Recurrences", arXiv:2605.05113 (2026), Sec. 2 (``Q^R_{n,k} >= Q_{n,k}`` coefficient by coefficient)
and the critical regime ``Q_{n,k} -> f(c) = (2/c^2) sinh(c^2/2)`` with the ``O(n^-1/2)`` correction of
:func:`theory.regimes.critical_correction` (complex weights). Here ``k = c sqrt(n)`` exactly: the rows are
polynomials, so ``n = (k / c)^2`` need not be an integer, and every value is an exact rational.

What the exact rows (k <= 60) show
----------------------------------
* ``Q^R / Q^C >= 1`` everywhere (the paper's inequality), but the ratio tends to 1 along every ray:
  ``Q^R_{n,k} = f(c) + (F_1^C(c) + D(c)) / sqrt(n) + O(1/n)``, the same critical curve as complex weights.
  In the genus expansion the complex row has only ``n^(k+1-2g)`` terms (steps of ``1/n^2`` at fixed k);
  the real row also has the non-orientable ones, one crosscap per ``1/n``, whose leading k-power makes
  them ``O(n^-1/2)`` at fixed c.
* ``D(c) = lim sqrt(n) (Q^R - Q^C)`` along the ray, estimated by :func:`real_correction` (polynomial
  extrapolation in ``1/k`` of the exact values); its Taylor series ``D(c) = sum_h d_h c^(2h-1)`` has
  ``d_h`` = the leading coefficient (in k) of the real-minus-complex coefficient of ``n^(k+1-h)``, fitted
  exactly on the rows (:data:`CORRECTION_SERIES`: each ``d_h`` from a quasi-polynomial fit that then holds
  on further rows; observed, not proved). No closed form is derived here; the full scaling functions and
  the expansion at any depth: :mod:`theory.real_expansion`.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from theory._args import as_int, as_real, as_real_array
from theory.real_rows import real_row, real_rows_max_k
from theory.regimes import critical_curve
from theory.signal_energy import hultman_row

__all__ = ["ratio_along_ray", "real_correction", "series_correction", "real_limit", "regimes_data", "RAYS",
           "CORRECTION_SERIES"]

# d_h (h = 2..6) of D(c) = sum d_h c^(2h-1): leading coefficients of (real - complex) [n^(k+1-h)] as
# quasi-polynomials in k (degree 2h-1 plus (-1)^k times a lower one), fitted on the rows k <= 30 and then
# holding on 23, 19, 14, 9 and 4 further rows (d_1 = 0: no n^k term).
CORRECTION_SERIES = {2: Fraction(1, 4), 3: Fraction(17, 240), 4: Fraction(229, 10080), 5: Fraction(347, 80640),
                     6: Fraction(89, 118272)}


def _value(row, n: Fraction, k: int) -> Fraction:
    return sum((c * n**j for j, c in enumerate(row)), Fraction(0)) / n ** (k + 1)


C_MIN = 1e-3    # c is taken as a rational of denominator <= 1e6: below 1e-3 that rounding exceeds 0.1%


def _as_c(c) -> Fraction:
    c = as_real("c", c, minimum=C_MIN, maximum=8.0)
    return Fraction(c).limit_denominator(10**6)


def ratio_along_ray(c, k: int | None = None) -> list[tuple[int, Fraction, Fraction, Fraction]]:
    """``[(j, n, Q^R_{n,j}, Q^C_{n,j})]`` for j = 1..k with ``n = (j / c)^2`` exactly (c as a rational,
    ``1e-3 <= c <= 8``; k <= 60, default all rows)."""
    c = _as_c(c)
    last = real_rows_max_k() if k is None else as_int("k", k, minimum=1, maximum=real_rows_max_k())
    out = []
    for j in range(1, last + 1):
        n = (Fraction(j) / c) ** 2
        out.append((j, n, _value(real_row(j), n, j), _value(hultman_row(j), n, j)))
    return out


def _extrapolate(c: Fraction, value, points: int, degree: int) -> tuple[float, float]:
    """``value(k, n, qr, qc)`` along the ray, extrapolated to ``1/k = 0``: even and odd k fitted separately
    (the coefficients carry ``(-1)^k`` parts) by least-squares polynomials in ``1/k`` through the last
    ``points`` values of each parity; returns the mean of the two and an error estimate (the largest of
    their difference and the change from ``degree - 1``; an estimate, not a bound)."""
    rows = ratio_along_ray(c)
    ests = []
    for parity in (0, 1):
        sel = [r for r in rows if r[0] % 2 == parity][-points:]
        x = np.array([1.0 / r[0] for r in sel])
        y = np.array([float(value(*r)) for r in sel])
        ests.append([np.polynomial.polynomial.polyfit(x, y, d)[0] for d in (degree - 1, degree)])
    err = max(abs(ests[0][1] - ests[1][1]), abs(ests[0][1] - ests[0][0]), abs(ests[1][1] - ests[1][0]))
    return float(0.5 * (ests[0][1] + ests[1][1])), float(err)


def _fit_args(points, degree) -> tuple[int, int]:
    degree = as_int("degree", degree, minimum=1, maximum=8)
    points = as_int("points", points, minimum=degree + 2, maximum=14)
    return points, degree


def real_correction(c, *, points: int = 10, degree: int = 5) -> tuple[float, float]:
    """``(D(c), err)``: ``lim sqrt(n) (Q^R - Q^C)`` along ``k = c sqrt(n)``, extrapolated from the exact
    values k <= 60 (:func:`_extrapolate`; ``sqrt(n) = k / c`` exactly)."""
    c = _as_c(c)
    points, degree = _fit_args(points, degree)
    return _extrapolate(c, lambda k, n, qr, qc: Fraction(k) / c * (qr - qc), points, degree)


def real_limit(c, *, points: int = 10, degree: int = 5) -> tuple[float, float]:
    """``(lim Q^R_{n,k}, err)`` along ``k = c sqrt(n)``, extrapolated like :func:`real_correction`."""
    c = _as_c(c)
    points, degree = _fit_args(points, degree)
    return _extrapolate(c, lambda k, n, qr, qc: qr, points, degree)


def series_correction(c) -> float:
    """``sum_h d_h c^(2h-1)`` over :data:`CORRECTION_SERIES` (truncated; accurate for small c)."""
    c = as_real("c", c, minimum=0.0, maximum=8.0)
    return float(sum(d * c ** (2 * h - 1) for h, d in CORRECTION_SERIES.items()))


RAYS = (0.5, 1.0, 2.0)


def regimes_data(rays=RAYS) -> dict:
    """Per ray: the exact ratios ``(k, n, Q^R / Q^C)``, the extrapolated limit and correction, ``f(c)``."""
    rays = as_real_array("rays", rays, minimum=0.0).ravel()
    if not np.all((rays >= C_MIN) & (rays <= 8)):
        raise ValueError(f"rays must hold values c with {C_MIN:g} <= c <= 8, got {rays.tolist()!r:.80}")
    out = {}
    for c in rays.tolist():
        rows = ratio_along_ray(c)
        out[c] = {"ratios": [(k, float(n), float(qr / qc)) for k, n, qr, qc in rows],
                  "min_ratio_exact_ge_1": all(qr >= qc for _, _, qr, qc in rows),
                  "limit": real_limit(c), "f": float(critical_curve(c)), "D": real_correction(c),
                  "series": series_correction(c)}
    return out
