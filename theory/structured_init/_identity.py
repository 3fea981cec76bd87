r"""(private) Identity plus complex Gaussian noise, ``W = alpha I + beta X``, ``X = G / sqrt(n)`` complex Ginibre.

``W^k = sum_j C(k, j) alpha^(k-j) beta^j X^j`` (I commutes with X), and ``E tr((X^j)^* X^l) = 0`` for ``j != l``
(the law of X is invariant under ``X -> e^{i phi} X``, which multiplies the trace by ``e^{i (l - j) phi}``), so

.. math:: Q(n, k) = \sum_{j=0}^{k} \binom{k}{j}^2 A^{k-j} B^{j} Q_{n,j}, \qquad A = |\alpha|^2,\ B = |\beta|^2,

with ``Q_{n,j}`` the Ginibre energy of :func:`theory.signal_energy.Q`, and
``S(n, t) = sum_{j<=t} B^j Q_{n,j} w_j``, ``w_j = sum_{k=j}^{t} C(k, j)^2 A^(k-j)``. Every term is >= 0: no
cancellation on any path.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
from scipy.special import gammaln, logsumexp

from theory.signal_energy import Q as _Q
from theory.signal_energy import Q_all

__all__: list[str] = []


def _weights_exact(A: Fraction, t: int) -> list[Fraction]:
    """``w_j = sum_{k=j}^{t} C(k, j)^2 A^(k-j)``, ``j = 0..t``, exactly."""
    return [sum((Fraction(math.comb(k, j) ** 2) * A ** (k - j) for k in range(j, t + 1)), Fraction(0))
            for j in range(t + 1)]


def identity_exact(quantity: str, n: int, depth: int, A: Fraction, B: Fraction) -> Fraction:
    q = [_Q(n, j, method="exact") for j in range(depth + 1)]
    if quantity == "Q":
        k = depth
        return sum((math.comb(k, j) ** 2 * A ** (k - j) * B ** j * q[j] for j in range(k + 1)), Fraction(0))
    w = _weights_exact(A, depth)
    return sum((B ** j * q[j] * w[j] for j in range(depth + 1)), Fraction(0))


def identity_mp(quantity: str, n: int, depth: int, A: Fraction, B: Fraction, dps: int):
    """mp at ``dps`` digits: a sum of non-negative terms at a few guard digits (each term's relative error is
    a few units of the working precision)."""
    guard = dps + 5 + int(math.log10(depth + 2))
    q = Q_all(n, depth, method="mp", dps=guard)
    with mpmath.workdps(guard):
        Am, Bm = mpmath.mpf(A.numerator) / A.denominator, mpmath.mpf(B.numerator) / B.denominator
        if quantity == "Q":
            k = depth
            out = mpmath.fsum(math.comb(k, j) ** 2 * Am ** (k - j) * Bm ** j * q[j] for j in range(k + 1))
        else:
            w = [mpmath.fsum(math.comb(k, j) ** 2 * Am ** (k - j) for k in range(j, depth + 1))
                 for j in range(depth + 1)]
            out = mpmath.fsum(Bm ** j * q[j] * w[j] for j in range(depth + 1))
    with mpmath.workdps(dps):
        return +out


def _log_power(log_x: float, e: np.ndarray) -> np.ndarray:
    """``e * log x`` for ``e >= 0`` with ``0 * log 0 = 0`` (``x^0 = 1`` also at x = 0)."""
    e = np.maximum(e, 0)
    with np.errstate(invalid="ignore"):
        return np.where(e == 0, 0.0, e * log_x)


def identity_float(quantity: str, n: int, depth: int, A: float, B: float) -> float:
    """float64 from the log-terms ``log(C(k,j)^2 A^(k-j) B^j Q_{n,j})`` and a log-sum-exp: relative error about
    ``1e-13`` (the ``Q_all`` entries and the exponentials of terms up to ``exp(709)``)."""
    q = Q_all(n, depth)
    with np.errstate(divide="ignore"):
        lq, la, lb = np.log(q), math.log(A) if A > 0 else -math.inf, math.log(B) if B > 0 else -math.inf
    k = np.arange(depth + 1)[:, None] if quantity == "S" else np.array([[depth]])
    j = np.arange(depth + 1)[None, :]
    with np.errstate(invalid="ignore"):
        logc = np.where(j <= k, 2 * (gammaln(k + 1) - gammaln(j + 1) - gammaln(np.maximum(k - j, 0) + 1)), -np.inf)
    terms = logc + _log_power(la, k - j) + _log_power(lb, j + 0 * k) + lq[None, :]
    terms = np.where(j <= k, terms, -np.inf)
    total = float(logsumexp(terms))
    if total > 709.78:
        raise OverflowError(f"the energy exceeds float64's range (log = {total:.1f}); use method='mp'")
    return math.exp(total)
