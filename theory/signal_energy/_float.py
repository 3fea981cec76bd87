"""(private) float64 arithmetic of :mod:`theory.signal_energy`: scalar ``Q`` from compensated log1p sums, the
vectorised path over integer arrays (:mod:`theory.signal_energy._vector`), ``Q_{n,0..t}`` by cumulative sums, and
``S`` from compensated reverse sums of ``Q_{n,k}/Q_{n,t}`` (Euler-Maclaurin in mpmath for long smooth sums)."""

from __future__ import annotations

import math

import mpmath
import numpy as np

from theory._args import short_int, FLOAT_INT_MAX, LOG_FLOAT_MAX, as_int_array
from theory._summation import compensated_cumsum

from ._factorial_logs import _ab_float, _ab_mp, _guard_bits, _use_float_direct
from ._mp import _S_EM_MAX_RATIO, _Q_mp, _S_em, _log_Q
from ._vector import Q_float_array


_S_DIRECT_MAX_T = 1 << 22       # float/mp S by direct summation up to here
_S_DIRECT_MAX_TERMS = 1 << 25   # ... and beyond, while the early-stopping direct sum needs fewer terms
_CHUNK = 1 << 20


def _Q_float_vector(n, k):
    """Float ``Q`` over integer arrays, vectorised (:mod:`theory._vector_float`; the few elements with
    ``a > 8`` through :func:`_Q_float`); None for scalars. Same accuracy as the scalar path (<= 1e-14)."""
    if not any(isinstance(v, (np.ndarray, list, tuple)) for v in (n, k)):
        return None
    n_arr, k_arr = np.broadcast_arrays(as_int_array("n", n, minimum=1), as_int_array("k", k, minimum=0))
    out, scalar = Q_float_array(n_arr, k_arr)
    if out.ndim == 0:
        return _Q_float(int(n_arr), int(k_arr)) if scalar else out.item()
    for idx in zip(*np.nonzero(scalar)):
        out[idx] = _Q_float(int(n_arr[idx]), int(k_arr[idx]))
    return out


def _Q_float(n: int, k: int) -> float:
    m = k + 2
    if _use_float_direct(n, m):
        a, d = _ab_float(n, m)
        return n / ((k + 1) * (k + 2)) * math.exp(a) * -math.expm1(-d)
    q = _Q_mp(n, k, 20)
    if q > mpmath.mpf(np.finfo(np.float64).max):
        raise OverflowError(
            f"Q(n={short_int(n)}, k={short_int(k)}) = exp({mpmath.nstr(mpmath.log(q), 6)}) exceeds float64; use "
            "log_Q(n, k) or method='mp'")
    return float(q)


def _Q_all_fix_overflow(n: int, q: np.ndarray) -> None:
    """Entries where e^a overflowed although Q itself fits (a factor (k+1)(k+2)/n below): in log form."""
    bad = np.flatnonzero(~np.isfinite(q))
    # Q increases with k, so once log Q passes the float64 limit every later entry is inf too.
    for i in bad:
        lq = _log_Q(n, int(i))
        if lq > LOG_FLOAT_MAX:
            break
        q[i] = math.exp(lq)


def _float_sized(name: str, value: int) -> int:
    """``value`` if the float64 path can take it (at most :data:`theory._args.FLOAT_INT_MAX`)."""
    if value > FLOAT_INT_MAX:
        raise ValueError(f"{name} must be an integer <= 1e300 for method='float' (use method='exact' or 'mp'), "
                         f"got about 1e{int(math.log10(value))}")
    return value


def _log_S(n: int, t: int) -> float:
    if _S_use_em(n, t):
        with mpmath.mp.workdps(20):
            return float(mpmath.log(_S_em(n, t, 20)))
    return math.log(_S_ratio_sum(n, t)) + _log_Q(n, t)


def _S_use_em(n: int, t: int) -> bool:
    # The direct top-down sum stops after ~ 45 n/t terms (terms decay like exp(-(t-k) t/n) below the
    # top); mpmath's sumem slows down sharply once the summand grows like exp(k^2/2n) (measured: 53 s
    # at n = 1e14, t = 3.2e8, where the direct sum of 1.4e7 terms takes 1 s). Direct whenever it needs
    # fewer than _S_DIRECT_MAX_TERMS terms.
    return t > _S_DIRECT_MAX_T and t <= n * _S_EM_MAX_RATIO and 45 * n > _S_DIRECT_MAX_TERMS * t

_S_VECTOR_MAX_T = 1 << 16       # arrays: one compensated prefix sum of vectorised Q per distinct n up to here


def _S_float_vector(n, t):
    """Float ``S`` over integer arrays; None for scalars. Elements sharing an ``n`` (with ``t <= 2^16``)
    read one compensated prefix sum of the vectorised ``Q_{n,0..T}`` (terms <= 5e-15 relative, so the sums
    are as accurate as the scalar path); arrays of mostly distinct n, and long sums, go element by element."""
    if not any(isinstance(v, (np.ndarray, list, tuple)) for v in (n, t)):
        return None
    n_arr, t_arr = np.broadcast_arrays(as_int_array("n", n, minimum=1), as_int_array("t", t, minimum=0))
    out = np.empty(n_arr.shape, dtype=np.float64)
    values, inverse = np.unique(n_arr, return_inverse=True)
    inverse = inverse.reshape(n_arr.shape)
    grouped = 4 * len(values) <= n_arr.size
    for g, nv in enumerate(values.tolist()):
        sel = inverse == g
        ts = t_arr[sel]
        T = int(ts.max())
        if grouped and T <= _S_VECTOR_MAX_T:
            try:
                out[sel] = compensated_cumsum(_Q_float_vector(np.array([nv]), np.arange(T + 1)))[ts]
                continue
            except OverflowError:
                pass                    # some element overflows: the scalar path says which
        out[sel] = [_S_float(nv, int(tv)) for tv in ts.tolist()]
    return out.item() if out.ndim == 0 else out


def _S_float(n: int, t: int) -> float:
    if _S_use_em(n, t):
        s = _S_em(n, t, 20)
        if s > mpmath.mpf(np.finfo(np.float64).max):
            raise OverflowError(f"S(n={short_int(n)}, t={short_int(t)}) exceeds float64; use log_S(n, t) or method='mp'")
        return float(s)
    ratio = _S_ratio_sum(n, t)
    log_s = math.log(ratio) + _log_Q(n, t)
    if log_s > LOG_FLOAT_MAX - 1e-9:
        raise OverflowError(f"S(n={short_int(n)}, t={short_int(t)}) = exp({log_s:.6g}) exceeds float64; use log_S(n, t) or method='mp'")
    return ratio * _Q_float(n, t)


def _S_ratio_sum(n: int, t: int) -> float:
    """sum_{k<=t} Q_{n,k} / Q_{n,t} in float64, from compensated reverse sums, in chunks from the top.

    log(Q_k/Q_t) = log((t+1)(t+2)/((k+1)(k+2))) - (a_t - a_k) + log(1 - e^{-d_k}) - log(1 - e^{-d_t}),
    where a_t - a_k = sum_{j=k+2}^{t+1} log1p(j/n) is a short positive sum for the terms that matter, so
    each ratio is accurate to a few ulps relative to its own size. Terms below 1e-18 of the running total
    stop the loop (supercritical sums are dominated by their last ~n/t terms).
    """
    fn = float(n)
    log1m_t = math.log(-math.expm1(-_d_value(n, t + 2)))
    log_top = math.log((t + 1.0) * (t + 2.0))
    parts: list[float] = []
    carry = 0.0                      # a_t - a_{k1} for the current chunk top k1
    k1 = t
    while k1 >= 0:
        k0 = max(0, k1 - _CHUNK + 1)
        k = np.arange(k1, k0 - 1, -1, dtype=np.float64)            # descending k1..k0
        inc = np.log1p((k + 2.0) / fn)                               # a_{k+1} - a_k = log1p((k+2)/n)
        inc[0] = 0.0
        dA = compensated_cumsum(inc) + carry                         # a_t - a_k
        d = _d_chunk(n, k0, k1)[::-1]                                # d_k, descending
        logr = log_top - np.log((k + 1.0) * (k + 2.0)) - dA + np.log(-np.expm1(-d)) - log1m_t
        r = np.exp(logr)
        parts.append(math.fsum(r))
        total = math.fsum(parts)
        carry = float(dA[-1]) + math.log1p((k0 + 1.0) / fn)
        if k0 > 0 and (k0 + 1) * r[-1] < 1e-18 * total:
            break                                                    # the k0 remaining terms are all smaller
        k1 = k0 - 1
    return math.fsum(parts)


def _d_value(n: int, m: int) -> float:
    if m > n:
        return math.inf
    if _use_float_direct(n, m):
        return _ab_float(n, m)[1]
    with mpmath.mp.workprec(80 + _guard_bits(n, m)):
        return float(_ab_mp(n, m)[1])


def _d_chunk(n: int, k0: int, k1: int) -> np.ndarray:
    """d_k for k = k0..k1 (ascending): d at k0 accurately, then compensated forward sums."""
    d0 = _d_value(n, k0 + 2)
    out = np.empty(k1 - k0 + 1)
    out[0] = d0
    if k1 > k0:
        if math.isinf(d0):
            out[1:] = np.inf
        else:
            x = np.arange(k0 + 2, k1 + 2, dtype=np.float64) / float(n)   # d_{k+1} - d_k: term j = k + 2
            n_ok = int(np.count_nonzero(x < 1.0))                          # x increases: a prefix
            out[1:] = np.inf
            if n_ok:
                xo = x[:n_ok]
                out[1:1 + n_ok] = d0 + compensated_cumsum(np.log1p(xo) - np.log1p(-xo))
    return out


def _S_float_sized(n: int, t: int) -> float:
    """The scalar float ``S`` for integers that fit float64 (:func:`_float_sized` names the one that does not)."""
    return _S_float(_float_sized("n", n), _float_sized("t", t))


def _Q_all_float(n: int, t: int) -> np.ndarray:
    """``Q_{n,0..t}`` in float64 by cumulative sums (see :func:`theory.signal_energy.Q_all`)."""
    # Two buffers of length t + 2 (plus the divisor), reused in place: this function is benchmarked
    # against a bare cumsum(log1p(.)) and allocation / page faults are a large part of its cost.
    x = np.arange(t + 2, dtype=np.float64)
    x /= float(n)                           # x_j = j / n
    q = np.log1p(x)                         # log(1 + x_j)
    np.cumsum(q, out=q)                     # a_m, m = 1..t+2
    # d_m = 2 sum_{j<m} arctanh(x_j) >= m(m-1)/n, so past m ~ sqrt(40 n) the factor n(1 - e^{-d}) is n
    # to within half an ulp; past m = n the falling factorial vanishes (d = inf). Only the prefix
    # needs arctanh and a cumsum.
    m_d = min(t + 2, n, math.isqrt(40 * n) + 2)
    d = x[:m_d]
    np.arctanh(d, out=d)                    # (1/2) log((1 + x)/(1 - x)) >= 0: no cancellation
    np.cumsum(d, out=d)                     # d_m / 2
    np.multiply(d, -2.0, out=d)
    np.expm1(d, out=d)
    np.multiply(d, -float(n), out=d)        # n (1 - e^{-d})
    x[m_d:] = float(n)
    q, fac = q[1:], x[1:]                   # m = k + 2, k = 0..t
    with np.errstate(over="ignore"):
        np.exp(q, out=q)
    den = np.arange(1, t + 2, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        q *= fac
        q /= den                            # (k + 1)
        den += 1.0
        q /= den                            # (k + 2)
    if not np.isfinite(q[-1]):
        _Q_all_fix_overflow(n, q)
    return q
