r"""(private) Vectorised float64 ``Q_{n,k}`` over integer arrays: O(1) numpy work per element.

``Q_{n,k} = n / ((k+1)(k+2)) * exp(a) * (1 - exp(-d))`` with ``m = k + 2``,
``a = log(n^(m) / n^m) = sum_{j<m} log1p(j/n)`` and ``d = a - b``, ``b = log(n_(m) / n^m)`` (``d = inf``
for ``m > n``): the representation of :func:`theory.signal_energy.Q`'s float path (Seleznova 2026,
Theorem 2.1). Instead of the O(m) compensated sums of the scalar path, ``a`` and ``b`` come from Stirling's
formula ``log Gamma(y) = (y - 1/2) log y - y + log(2 pi)/2 + w(y)`` written so that nothing large cancels:

* ``a = (m - 1/2) m/n + (n + m - 1/2) L(m/n) + w(n+m) - w(n)`` with ``L(x) = log1p(x) - x``
  (for ``m/n <= 1``; beyond, ``(n + m - 1/2) log1p(m/n) - m + w(n+m) - w(n)``, where the cancellation is
  bounded by a factor ``1 / log 2``);
* ``b = -(m-1)(m-1/2)/n - (n - m + 1/2) L(-(m-1)/n) + w(n) - w(n-m+1)`` (for ``(m-1)/n <= 1/2``; beyond,
  ``-(n - m + 1/2) log1p(-(m-1)/n) - m + 1 + w(n) - w(n-m+1)``).

``L`` comes from an atanh series for ``-1/2 <= x <= 1`` (:func:`_log1p_minus_x`); ``w(y)`` is the Stirling series (8 terms, absolute error < 1e-16) for ``y >= 10`` and
``gammaln(y) - (y - 1/2) log y + y - log(2 pi)/2`` below (no cancellation of size for small y). The relative
error of the result is a few ulps times ``max(1, a)`` (the ``exp`` amplification, as in the scalar path);
``tests/test_signal_energy.py`` measures it against mpmath over n up to 1e18.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln

_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)
# Stirling series of w(y) = log Gamma(y) - (y - 1/2) log y + y - log(2 pi)/2: B_{2j} / (2j (2j - 1) y^(2j-1))
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156, -3617 / 122400)
_L_TERMS = 17


def _log1p_minus_x(x: np.ndarray) -> np.ndarray:
    """``log1p(x) - x`` to a few ulps relative for ``x > -1``.

    For ``-1/2 <= x <= 1``: with ``s = x / (2 + x)`` (``|s| <= 1/3``), ``log1p(x) = 2 atanh(s)`` and
    ``x = 2s / (1 - s)`` give ``L = -2 s^2 / (1 - s) + 2 s^3 sum_j s^(2j) / (2j + 3)``, two terms that never
    cancel by more than a factor 1.1 (17 terms of the series reach 1e-17); elsewhere ``log1p(x) - x``.
    """
    mid = (x >= -0.5) & (x <= 1.0)
    if mid.all():
        return _log1p_minus_x_series(x)
    out = np.log1p(x) - x
    if mid.any():
        out[mid] = _log1p_minus_x_series(x[mid])
    return out


def _log1p_minus_x_series(x: np.ndarray) -> np.ndarray:
    """The atanh series of :func:`_log1p_minus_x` for ``-1/2 <= x <= 1`` (Horner in place: this is the array
    path's inner loop, timed by ``benchmarks/bench_signal_energy.py``)."""
    sv = x / (2.0 + x)
    s2 = sv * sv
    top = float(s2.max()) if s2.size else 0.0    # terms s^(2j) < 1e-17 beyond j: fewer for small x
    terms = _L_TERMS if top >= 1.0 / 9.0 else max(1, min(_L_TERMS, int(-17 / math.log10(top)) + 1)) if top > 0 else 1
    acc = np.full_like(sv, 1.0 / (2 * terms + 1))
    for j in range(terms - 2, -1, -1):
        acc *= s2
        acc += 1.0 / (2 * j + 3)
    acc *= sv
    acc -= 1.0 / (1.0 - sv)
    acc *= s2
    acc *= 2.0
    return acc


def _stirling_w(y: np.ndarray) -> np.ndarray:
    """``w(y) = log Gamma(y) - (y - 1/2) log y + y - log(2 pi)/2`` for ``y >= 1``."""
    big = y >= 10.0
    if big.all():
        return _stirling_series(y)
    out = np.empty_like(y)
    out[big] = _stirling_series(y[big])
    ys = y[~big]
    out[~big] = gammaln(ys) - (ys - 0.5) * np.log(ys) + ys - _HALF_LOG_2PI
    return out


def _stirling_series(yb: np.ndarray) -> np.ndarray:
    """The Stirling series of :func:`_stirling_w` for ``y >= 10`` (Horner in place)."""
    inv2 = 1.0 / yb
    inv2 *= inv2
    # term j ~ |c_j| / y^(2j+1) against 1e-17 / y: fewer terms for large y (two for y >= 1e4)
    ymin = float(yb.min()) if yb.size else 10.0
    terms = next((j for j in range(1, len(_STIRLING)) if abs(_STIRLING[j]) * ymin ** (-2 * j) < 1e-17),
                 len(_STIRLING))
    acc = np.full_like(yb, _STIRLING[terms - 1])
    for c in reversed(_STIRLING[:terms - 1]):
        acc *= inv2
        acc += c
    acc /= yb
    return acc


def log_rising_ratio(n: np.ndarray, m: np.ndarray, w_n: np.ndarray) -> np.ndarray:
    """``a = log(n^(m) / n^m)`` (float arrays, ``n >= 1``, ``m >= 0``; ``w_n = w(n)``)."""
    x = m / n
    out = _stirling_w(n + m)
    out -= w_n
    out += (m - 0.5) * x + (n + m - 0.5) * _log1p_minus_x(x)
    far = np.flatnonzero(x > 1.0)           # few elements: the form without L, overwritten as one subset
    if far.size:
        nf, mf = n[far], m[far]
        out[far] = (nf + mf - 0.5) * np.log1p(x[far]) - mf + (_stirling_w(nf + mf) - w_n[far])
    return out


def log_falling_ratio(n: np.ndarray, m: np.ndarray, w_n: np.ndarray) -> np.ndarray:
    """``b = log(n_(m) / n^m)`` for ``1 <= m <= n`` (float arrays; ``w_n = w(n)``).

    ``w(n+1) = w(n) + 1 - (n + 1/2) log1p(1/n)`` (from ``Gamma(n+1) = n Gamma(n)``) removes ``n + 1``:
    ``b = -(m-1)(m-1/2)/n - (n - m + 1/2) L(-(m-1)/n) + w(n) - w(n-m+1)``.
    """
    y = -(m - 1.0) / n
    out = w_n - _stirling_w(n - m + 1.0)
    out -= (m - 1.0) * (m - 0.5) / n + (n - m + 0.5) * _log1p_minus_x(y)
    far = np.flatnonzero(y < -0.5)          # few elements: the form without L, overwritten as one subset
    if far.size:
        nf, mf = n[far], m[far]
        out[far] = -(nf - mf + 0.5) * np.log1p(y[far]) - mf + 1.0 + (w_n[far] - _stirling_w(nf - mf + 1.0))
    return out


# Beyond a = 8 the rounding of the O(a)-sized terms of ``a`` reaches ~5e-15 relative (measured against mpmath
# over n up to 1e18): those elements take the scalar path (compensated sums, or mpmath past a = 30).
A_VECTOR_MAX = 8.0
# n < 10: w(n) would come from gammaln with a cancellation of its O(n log n) size: the scalar path instead.
N_VECTOR_MIN = 10


def Q_float_array(n: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(Q, scalar)`` for broadcast int64 arrays ``n >= 1``, ``k >= 0``: float64 ``Q_{n,k}`` (module
    docstring) and the mask of elements (``a > A_VECTOR_MAX`` or ``n < N_VECTOR_MIN``) that the caller
    evaluates one by one."""
    n, k = np.broadcast_arrays(n, k)
    shape = n.shape
    n, k = n.ravel(), k.ravel()                    # 1-d inside: masked assignment needs arrays, not 0-d scalars
    nf, kf = n.astype(np.float64), k.astype(np.float64)
    mf = kf + 2.0
    w_n = _stirling_w(nf)
    a = log_rising_ratio(nf, mf, w_n)
    fin = (k + 2) <= n
    if fin.all():
        d = a - log_falling_ratio(nf, mf, w_n)
    else:
        d = np.full_like(a, np.inf)
        d[fin] = a[fin] - log_falling_ratio(nf[fin], mf[fin], w_n[fin])
    scalar = ~(a <= A_VECTOR_MAX) | (n < N_VECTOR_MIN)
    with np.errstate(over="ignore"):
        out = nf / ((kf + 1.0) * (kf + 2.0)) * np.exp(np.minimum(a, A_VECTOR_MAX)) * -np.expm1(-d)
    return out.reshape(shape), scalar.reshape(shape)
