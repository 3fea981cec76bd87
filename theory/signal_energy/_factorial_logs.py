"""(private) The logs of the two factorial ratios of ``Q_{n,k}`` (Seleznova 2026, Theorem 2.1), shared by the float,
mp and ball paths of :mod:`theory.signal_energy` (and ``log Q`` from them, :func:`_log_Q`): ``a = log(n^(m) / n^m)``, ``d = a - log(n_(m) / n^m)`` (``d = inf``
if ``m > n``), ``m = k + 2``."""

from __future__ import annotations

import math

import mpmath
import numpy as np


_FLOAT_DIRECT_MAX_M = 4096      # longer log1p sums go through log-gamma differences
_FLOAT_DIRECT_MAX_A = 30.0      # beyond e^30 the exp() amplification of rounding matters: use mp


def _a_lower_bound(n: int, m: int) -> float:
    """A positive lower bound of a = sum_{j<m} log1p(j/n) >= m(m-1) / (2(n+m)); m >= 2."""
    return m * (m - 1) / (2.0 * (n + m))


def _guard_bits(n: int, m: int) -> int:
    """Guard bits for a working precision that gives ``e^a`` and ``1 - e^(-d)`` to the target's relative accuracy.

    ``a`` and ``d`` are differences of log-gamma values of size ``L ~ (n+m) log(n+m)``, so their *absolute*
    error is ``~ L 2^-p`` at working precision p. Two needs follow:

    * ``e^a`` (and ``e^(-d)``): its relative error *is* the absolute error of ``a``: ``log2 L`` bits (the
      amplification by exp of a large logarithm: at n = 12, k = 1e30, ``L ~ 7e31``, 106 bits);
    * ``1 - e^(-d) ~ d`` when ``d`` is small: the relative error of ``d >= a >= a_lower`` is
      ``L / a_lower 2^-p``: ``log2(1 / a_lower)`` bits more when ``a_lower < 1``.
    """
    if n + m < 2**900:
        log2_big = math.log2((n + m) * max(1.0, math.log(n + m)) + 2.0)
        log2_a_lower = math.log2(_a_lower_bound(n, m))
    else:
        # past float64 (n ~ 1e1000 from the command line): the same bounds in logs, from exact ints (+1 bit
        # bounds the +2.0 above)
        log2_big = math.log2(n + m) + math.log2(math.log(n + m)) + 1.0
        log2_a_lower = math.log2(m * (m - 1)) - math.log2(2 * (n + m))
    return int(log2_big + max(0.0, -log2_a_lower)) + 24


def _ab_mp(n: int, m: int):
    """(a, d) as mpf at the current working precision (the caller adds :func:`_guard_bits`)."""
    mp = mpmath.mp
    N = mp.mpf(n)
    lg_n = mp.loggamma(N)
    a = mp.loggamma(N + m) - lg_n - m * mp.log(N)
    if m <= n:
        # d = a - b = log Gamma(n+m) + log Gamma(n-m+1) - log Gamma(n) - log Gamma(n+1)
        d = mp.loggamma(N + m) + mp.loggamma(N - m + 1) - lg_n - mp.loggamma(N + 1)
    else:
        d = mp.inf
    return a, d


def _ab_float(n: int, m: int) -> tuple[float, float]:
    """(a, d) in float64 by compensated summation of log1p terms (m <= _FLOAT_DIRECT_MAX_M)."""
    x = np.arange(m, dtype=np.float64) / float(n)
    la = np.log1p(x)
    a = math.fsum(la)
    if m <= n:
        d = math.fsum(la - np.log1p(-x))
    else:
        d = math.inf
    return a, d


def _use_float_direct(n: int, m: int) -> bool:
    return m <= _FLOAT_DIRECT_MAX_M and n < 2**1000 and m * m / (2.0 * n) <= _FLOAT_DIRECT_MAX_A


def _log_Q(n: int, k: int, dps: int | None = None):
    if k <= 1:                  # Q_{n,0} = Q_{n,1} = 1 exactly: log Q = 0, not the rounding of a cancelling sum
        return 0.0 if dps is None else mpmath.mpf(0)
    m = k + 2
    prec = 90 if dps is None else int(dps * 3.33) + 10
    # log Q >= log(1 + C(k+2, 4)/n^2) >= 1/(2 n^2) for k >= 2 (Q_{n,0} = Q_{n,1} = 1): 2 log2 n more bits
    # keep the relative accuracy of the small result of a cancelling sum (the float path adds them only when
    # the result is small: at n = 1e40, k = 1e5 it was -3.8e-35 for log Q = 4.2e-62)
    small = dps is not None
    while True:
        guard = _guard_bits(n, m) + (2 * n.bit_length() + 8 if small else 0)
        with mpmath.mp.workprec(prec + guard):
            a, d = _ab_mp(n, m)
            value = mpmath.log(mpmath.mp.mpf(n) / ((k + 1) * (k + 2))) + a + mpmath.log(-mpmath.expm1(-d))
        if small or abs(value) > 1e-3:
            break
        small = True
    if dps is None:
        return float(value)
    with mpmath.mp.workprec(prec):
        return +value
