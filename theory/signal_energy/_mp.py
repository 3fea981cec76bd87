"""(private) Arbitrary-precision arithmetic of :mod:`theory.signal_energy` (mpmath, ``dps`` digits in local contexts):
``Q`` from log-gamma differences, ``Q_{n,0..t}``, ``S`` by a top-down sum, Euler-Maclaurin or (long sums, python-flint
installed) the certified ball's midpoint; ``log Q`` is :func:`theory.signal_energy._factorial_logs._log_Q`."""

from __future__ import annotations

import importlib.util
import math

import mpmath

from . import _ball
from ._factorial_logs import _ab_mp, _guard_bits, _log_Q  # noqa: F401 (_log_Q: re-exported for the float path)


_S_MP_DIRECT_MAX_T = 100_000
_S_EM_MAX_RATIO = 1.0 / 64.0    # Euler-Maclaurin for S when t <= n/64 (smooth summand)
_S_MP_VIA_BALL_MIN_TERMS = 2_000    # more top terms than this: the ball's O(1)-in-t methods, if installed


def _Q_mp(n: int, k: int, dps: int):
    m = k + 2
    prec = int(dps * 3.33) + 10
    with mpmath.mp.workprec(prec + _guard_bits(n, m)):
        a, d = _ab_mp(n, m)
        q = mpmath.mp.mpf(n) / ((k + 1) * (k + 2)) * mpmath.exp(a) * -mpmath.expm1(-d)
    with mpmath.mp.workprec(prec):
        return +q


def _Q_all_mp(n: int, t: int, dps: int) -> list:
    mp = mpmath.mp
    prec = int(dps * 3.33) + 10
    out = []
    with mp.workprec(prec + int(math.log2(n)) + 2 * int(math.log2(t + 2)) + 24):
        N = mp.mpf(n)
        pr, pf = (N + 1) / N, (N - 1) / N            # m = 2
        for k in range(t + 1):
            m = k + 2
            out.append(N * (pr - pf) / ((k + 1) * m))
            pr = pr * (N + m) / N
            pf = pf * (N - m) / N                    # exactly 0 once m = n: the falling factorial vanishes
    with mp.workprec(prec):
        return [+q for q in out]


def _S_mp_route(n: int, t: int, dps: int) -> tuple[str, int]:
    """How ``S(n, t, method="mp", dps=dps)`` is evaluated, and the number of top terms that matter: ``("ball",
    terms)`` (the certified ball's midpoint, O(1) in t), ``("top-down", terms)`` (:func:`_S_mp_top_down`, O(terms))
    or ``("euler-maclaurin", terms)`` (:func:`_S_em_mpmath`: mpmath's ``sumem``, seconds to hours). The command
    line's up-front cost estimate reads it."""
    prec = int(dps * 3.33) + 10
    # Terms decay like exp(-(t - k) t / n) below the top, so only ~ n/t * prec * ln 2 terms matter.
    # (in integers: n / t overflows a float past n ~ 1e308 t; t / ratio <= n below compares a float with an int exactly)
    needed = t + 1 if t == 0 else min(t + 1, n * (prec + 20) * 7 // (10 * t) + 2)
    ball = importlib.util.find_spec("flint") is not None and not _ball._S_ball_is_direct(n, t, dps + 3)
    mpmath_route = _S_mpmath_route(n, t, needed)
    if ball and (needed > _S_MP_VIA_BALL_MIN_TERMS or mpmath_route == "euler-maclaurin"):
        return "ball", needed
    return mpmath_route, needed


def _S_mpmath_route(n: int, t: int, needed: int) -> str:
    """The route without python-flint's ball: mpmath's ``sumem`` for long sums it can take, else top-down."""
    return "euler-maclaurin" if needed > _S_MP_DIRECT_MAX_T and t / _S_EM_MAX_RATIO <= n else "top-down"


def _S_mp(n: int, t: int, dps: int):
    prec = int(dps * 3.33) + 10
    route, needed = _S_mp_route(n, t, dps)
    if route == "ball":
        mid = _S_via_ball(n, t, dps)
        if mid is not None:
            with mpmath.mp.workprec(prec):
                return mpmath.mpf(mid)             # the midpoint rounded once, to the target precision
        route = _S_mpmath_route(n, t, needed)      # the ball unavailable after all: mpmath alone
    s = _S_em_mpmath(n, t, dps) if route == "euler-maclaurin" else _S_mp_top_down(n, t, prec)
    with mpmath.mp.workprec(prec):
        return +s


def _S_via_ball(n: int, t: int, dps: int) -> tuple[int, int] | None:
    """``S`` as the certified ball's midpoint ``(mantissa, exponent)`` where the ball is O(1) in t (1/n^2
    series, supercritical top terms, Euler-Maclaurin on the top window) and python-flint is installed; else None.

    The ball has at least ``3.33 (dps + 3)`` bits of relative accuracy, so its midpoint is correct to ``dps``
    digits: 0.001-0.1 s at t = 1e8, where mpmath's ``sumem`` over the whole range takes 20 s or more
    (``benchmarks/bench_S_mp.py``).
    """
    if importlib.util.find_spec("flint") is None:
        return None
    if _ball._S_ball_is_direct(n, t, dps + 3):
        return None
    man, exp = _ball._S_ball(n, t, dps + 3).mid().man_exp()
    return int(man), int(exp)


def _S_mp_top_down(n: int, t: int, prec: int):
    """sum_{k<=t} Q_k from k = t downwards with products PR = n^(m)/n^m, PF = n_(m)/n^m (m = k + 2).

    Guard bits cover the cancellation PR - PF (up to log2 n bits at small m) and the rounding of t
    divisions; the loop stops once the remaining k + 1 terms (each smaller than the current one, since
    Q increases with k) cannot change the sum at the working precision.
    """
    mp = mpmath.mp
    m_top = t + 2
    guard = int(math.log2(n)) + int(math.log2(t + 2)) + _guard_bits(n, m_top) + 24
    with mp.workprec(prec + guard):
        N = mp.mpf(n)
        a, d = _ab_mp(n, m_top)
        pr = mp.exp(a)
        pf = pr * mp.exp(-d) if m_top <= n else mp.zero
        total = mp.zero
        eps = mp.mpf(2) ** (-(prec + 8))
        for k in range(t, -1, -1):
            m = k + 2
            term = N * (pr - pf) / ((k + 1) * m)
            total += term
            if (k + 1) * term < eps * total:
                break
            # step m -> m - 1: remove the factor j = m - 1
            pr = pr * N / (N + (m - 1))
            if m - 1 == n:                       # PF becomes nonzero again: n_(n) / n^n = n! / n^n
                pf = mp.exp(mp.loggamma(N + 1) - n * mp.log(N))
            elif m - 1 < n:
                pf = pf * N / (N - (m - 1))
    return total


def _S_em(n: int, t: int, dps: int):
    """``S`` where the direct sum is too long (``t <= n/64``): the certified ball's midpoint when python-flint is
    installed (O(1) in t), else mpmath's Euler-Maclaurin (:func:`_S_em_mpmath`; seconds to minutes)."""
    mid = _S_via_ball(n, t, dps)
    if mid is None:
        return _S_em_mpmath(n, t, dps)
    with mpmath.mp.workprec(int(dps * 3.33) + 10):
        return mpmath.mpf(mid)


def _S_em_mpmath(n: int, t: int, dps: int):
    """Euler-Maclaurin summation of the analytic summand Q(n, k) over k = 0..t (needs t << n)."""
    m_max = t + 2
    mp = mpmath.mp
    prec = int(dps * 3.33) + 20 + _guard_bits(n, 2)
    with mp.workprec(prec):
        N = mp.mpf(n)
        lg_n, lg_n1, log_n = mp.loggamma(N), mp.loggamma(N + 1), mp.log(N)

        def g(k):
            m = k + 2
            a = mp.loggamma(N + m) - lg_n - m * log_n
            d = mp.loggamma(N + m) + mp.loggamma(N - m + 1) - lg_n - lg_n1
            return N / ((k + 1) * (k + 2)) * mp.exp(a) * -mp.expm1(-d)

        value, err = mp.sumem(g, [0, t], error=True)
        if not abs(err) <= abs(value) * mp.mpf(2) ** (-(int(dps * 3.33) + 4)):
            raise ArithmeticError(f"Euler-Maclaurin did not converge for S(n={n}, t={t}) (m_max={m_max})")
        return value
