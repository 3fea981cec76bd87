r"""Complexity measures of a memory function: tail-energy complexity and effective rank.

Source: Jiang, Bao, Wang, Li, arXiv:2506.05678 (2025) (seed summaries: a *tail-energy complexity*
``C(rho, s)`` that captures the magnitude decay of rho beyond binary sparsity and tracks TCN error; an
*effective-rank* theory that tracks Transformer error). The paper's formulas are not available; the
definitions below are the toolkit's (``docs/papers/memory-functions.md``).

Tail energy
-----------
``kind="sorted"`` (default): normalised best-s-term tail energy over magnitudes sorted decreasingly,
``|rho|_(1) >= |rho|_(2) >= ...``:

.. math:: C(\rho, s) = \frac{\sum_{i > s} |\rho|_{(i)}^2}{\sum_i |\rho|_{(i)}^2},

the relative squared l2 error of the best approximation of rho by s nonzero lags (any positions).
``kind="positional"``: ``C_pos(rho, s) = sum_{t >= s} rho(t)^2 / sum_t rho(t)^2``, the energy a
causal filter of length s (receptive field s) misses. Both equal 1 at ``s = 0`` and
``C <= C_pos`` for every s (the best s-term set beats the first s lags); for a magnitude-decreasing
kernel (exp, poly) they coincide.

Effective rank
--------------
``exp(-sum_i p_i log p_i)``, ``p_i = sigma_i / sum_j sigma_j`` (Roy and Vetterli, EUSIPCO 2007), of a
coupling matrix chosen by ``coupling``:

``"toeplitz"`` (default, spec): the T x T lower-triangular Toeplitz ``R_ts = rho(t - s)``, the
              input-output map of the linear target (``y = R x``).
``"hankel"``  the Hankel matrix ``H_ij = rho(i + j)`` (``ceil(T/2)`` rows): the map from past inputs to
              future outputs; its rank is the minimal state dimension of a linear recurrence realising
              rho (Kronecker), i.e. the number of exponential modes (see ``theory.prony``).
``"lag"``     ``diag(|rho(s)|)``: rho in the basis of shift operators ``y = sum_s rho(s) S^s x``; its
              singular values are ``|rho(s)|`` and the rank counts the lags (shift patterns) an
              attention mechanism must retrieve; an impulse has rank 1.
"""

from __future__ import annotations

import math
from typing import Literal, overload

import mpmath
import numpy as np
from scipy.linalg import hankel

from theory._args import DEFAULT_DPS, as_choice, as_int, as_method_dps, as_real, as_real_array
from theory._args import FloatOrMp   # the Literal type of the method argument
from theory._types import Real, mpf   # the number types each method returns

# Hurwitz zeta at 30,000 digits takes minutes: the tail-energy closed forms stop at 100 digits
_TAIL_MAX_DPS = 100

__all__ = ["TAIL_KINDS", "COUPLINGS", "tail_energy", "tail_energy_curve", "effective_support", "exp_tail_energy",
           "poly_tail_energy", "coupling_matrix", "singular_values", "entropy_effective_rank", "effective_rank"]

TAIL_KINDS = ("sorted", "positional")
COUPLINGS = ("toeplitz", "hankel", "lag")


def _as_memory(rho) -> np.ndarray:
    r = as_real_array("rho", rho)
    if r.ndim != 1 or r.size < 1:
        raise ValueError(f"rho must be a non-empty 1-d array of lags, got shape {r.shape}")
    if not np.any(r):
        raise ValueError("rho must not be identically zero")
    return r


def _tail_curve(r: np.ndarray, kind: str) -> np.ndarray:
    """``C(rho, s)`` for ``s = 0..len(rho)`` (suffix sums: accurate down to tiny tails)."""
    u = r / np.max(np.abs(r))          # scale-free; avoids underflow of tiny squares
    e = u * u
    if kind == "sorted":
        e = np.sort(e)[::-1]
    suffix = np.concatenate([np.cumsum(e[::-1])[::-1], [0.0]])
    return suffix / suffix[0]


def tail_energy(rho, s, *, kind: str = "sorted"):
    """Tail-energy complexity ``C(rho, s)`` (default ``kind="sorted"``; see the module docstring).

    ``s`` is an integer ``>= 0`` or an array of them (then an array is returned); ``s >= len(rho)``
    gives 0.

    Parameters
    ----------
    rho : array_like of float
        The memory function ``rho(0), ..., rho(T-1)``: a non-empty 1-d array, not identically zero.
    s : int or array of int
        Terms kept, ``s >= 0``.
    kind : {"sorted", "positional"}
        Keep the ``s`` largest squared entries, or the first ``s`` lags.

    Returns
    -------
    float or numpy.ndarray
        The fraction of ``sum rho^2`` not kept, in ``[0, 1]``.

    Raises
    ------
    TypeError
        ``rho`` not an array of reals, ``kind`` not a string, ``s`` not an integer.
    ValueError
        ``rho`` empty, not 1-d, non-finite or all zero; ``s < 0``; an unknown ``kind``.

    Examples
    --------
    >>> tail_energy([3.0, 0.0, 4.0], 1)                      # keep the 4: 9 / 25 remains
    0.36
    >>> tail_energy([3.0, 0.0, 4.0], 1, kind="positional")   # lags >= 1: 16 / 25
    0.64
    >>> tail_energy([1.0, 1.0], [0, 1, 2]).tolist()
    [1.0, 0.5, 0.0]
    """
    r = _as_memory(rho)
    kind = as_choice("kind", kind, TAIL_KINDS)
    prof = _tail_curve(r, kind)
    if np.ndim(s) == 0:
        return float(prof[min(as_int("s", s, minimum=0), r.size)])
    ss = np.asarray(s)
    if ss.dtype.kind not in "iu":
        raise TypeError(f"s must be an integer or an array of integers, got dtype {ss.dtype}")
    if np.any(ss < 0):
        raise ValueError("s must be >= 0")
    return prof[np.minimum(ss, r.size)]


def tail_energy_curve(rho, *, kind: str = "sorted") -> np.ndarray:
    """``C(rho, s)`` for every ``s = 0..len(rho)`` (decreasing from 1 to 0)."""
    return _tail_curve(_as_memory(rho), as_choice("kind", kind, TAIL_KINDS))


def effective_support(rho, *, kind: str = "sorted") -> float:
    r"""How many lags carry the energy of a memory function: the area under its tail-energy curve.

    ``sum_{s=0}^{T-1} C(rho, s) = sum_i i |rho|_(i)^2 / sum_i |rho|_(i)^2`` (1-based ranks ``i`` of the
    magnitudes sorted decreasingly, :func:`tail_energy`): the energy-weighted mean rank, a scalar summary of
    the tail-energy curve. It is 1 for a single nonzero lag and ``(T+1)/2`` for a flat kernel of T lags; with
    ``kind="positional"`` it is ``1 +`` the energy-weighted mean lag. The definition is the toolkit's
    (``docs/papers/memory-functions.md``; the tail energy after Jiang, Bao, Wang, Li 2025).

    Parameters
    ----------
    rho : array_like of float
        The memory function ``rho(0), ..., rho(T-1)``: a non-empty 1-d array, not identically zero.
    kind : {"sorted", "positional"}
        Rank the lags by magnitude (default) or take them in lag order.

    Returns
    -------
    float
        The effective support, in ``[1, T]``.

    Raises
    ------
    TypeError
        ``rho`` not an array of reals, ``kind`` not a string.
    ValueError
        ``rho`` empty, not 1-d, non-finite or all zero; an unknown ``kind``.

    Examples
    --------
    >>> effective_support([0.0, 5.0, 0.0])
    1.0
    >>> round(effective_support([1.0, 1.0, 1.0]), 12)                      # (T + 1) / 2
    2.0
    >>> round(effective_support([3.0, 4.0]), 12)                           # (1 * 16 + 2 * 9) / 25
    1.36
    >>> round(effective_support([3.0, 4.0], kind="positional"), 12)        # 1 + (0 * 9 + 1 * 16) / 25
    1.64
    """
    prof = tail_energy_curve(rho, kind=kind)
    return float(np.sum(prof[:-1]))


@overload
def exp_tail_energy(tau: Real, T: int, s: int, *, method: Literal["float"] = ..., dps: None = ...) -> float: ...
@overload
def exp_tail_energy(tau: Real, T: int, s: int, *, method: Literal["mp"], dps: int | None = ...) -> mpf: ...
def exp_tail_energy(tau: Real, T: int, s: int, *, method: FloatOrMp = "float", dps: int | None = None) -> float | mpf:
    r"""Closed form of ``C(rho, s)`` for ``rho(t) = exp(-t/tau)``, ``t < T`` (both kinds coincide).

    .. math:: C = \frac{\sum_{t=s}^{T-1} q^{2t}}{\sum_{t=0}^{T-1} q^{2t}}
                = q^{2s}\,\frac{1 - q^{2(T-s)}}{1 - q^{2T}}, \qquad q = e^{-1/\tau},

    evaluated with ``expm1`` in a local mpmath context (``0 <= s <= T``; ``tau > 0``). ``method="float"``: a
    float (evaluated at :data:`theory._args.DEFAULT_DPS` digits); ``method="mp"``: an ``mpmath.mpf`` to ``dps``
    digits.

    >>> abs(exp_tail_energy(1.0, 2, 1) - math.exp(-2) / (1 + math.exp(-2))) < 1e-15
    True
    """
    tau = as_real("tau", tau, minimum=0.0, open_min=True)
    T = as_int("T", T, minimum=1)
    s = as_int("s", s, minimum=0, maximum=T)
    method, dps = as_method_dps(method, dps, max_dps=_TAIL_MAX_DPS)
    # exp(-u s) with u s ~ 1e300 (tau = 1e-300) needs the exponent to log10(u T) more digits than the result
    extra = max(0, int(math.log10(2.0) - math.log10(tau) + math.log10(T))) + 5
    with mpmath.workdps((dps or DEFAULT_DPS) + extra):
        u = 2 / mpmath.mpf(tau)
        out = mpmath.exp(-u * s) * mpmath.expm1(-u * (T - s)) / mpmath.expm1(-u * T)
    with mpmath.workdps(dps or DEFAULT_DPS):
        out = +out
    return float(out) if method == "float" else out


@overload
def poly_tail_energy(p: Real, T: int, s: int, *, method: Literal["float"] = ..., dps: None = ...) -> float: ...
@overload
def poly_tail_energy(p: Real, T: int, s: int, *, method: Literal["mp"], dps: int | None = ...) -> mpf: ...
def poly_tail_energy(p: Real, T: int, s: int, *, method: FloatOrMp = "float", dps: int | None = None) -> float | mpf:
    r"""Closed form of ``C(rho, s)`` for ``rho(t) = (1+t)^(-p)``, ``t < T`` (both kinds coincide).

    .. math:: C = \frac{\zeta(2p, s+1) - \zeta(2p, T+1)}{\zeta(2p, 1) - \zeta(2p, T+1)}
              \quad (2p \ne 1;\ \text{harmonic numbers at } 2p = 1),

    Hurwitz zeta in a local mpmath context (``sum_{t>=s}(1+t)^(-2p) = zeta(2p, s+1)``,
    truncated at T). ``method`` and ``dps`` as :func:`exp_tail_energy`.

    >>> abs(poly_tail_energy(1.0, 3, 1) - (1/4 + 1/9) / (1 + 1/4 + 1/9)) < 1e-15
    True
    """
    p = as_real("p", p, minimum=0.0)
    T = as_int("T", T, minimum=1)
    s = as_int("s", s, minimum=0, maximum=T)
    method, dps = as_method_dps(method, dps, max_dps=_TAIL_MAX_DPS)
    mp_out = method == "mp"
    dps = dps or DEFAULT_DPS
    # the numerator is a difference of two sums ~ T^(1-2p) (or harmonic numbers): up to log10(T) + log10(2p)
    # digits cancel when s is near T
    guard = int(math.log10(T + 1) + math.log10(max(2 * p, 1.0))) + 5
    with mpmath.workdps(dps + guard):
        q = 2 * mpmath.mpf(p)
        if abs(q - 1) < mpmath.mpf(10) ** (-dps):
            num = mpmath.harmonic(T) - mpmath.harmonic(s)
            den = mpmath.harmonic(T)
        else:
            extra = int(max(0, -mpmath.log10(abs(q - 1)))) + 10
            with mpmath.workdps(dps + extra):
                zT = _hurwitz(q, T + 1)
                num = _hurwitz(q, s + 1) - zT
                den = _hurwitz(q, 1) - zT
        out = num / den
    with mpmath.workdps(dps):
        out = +out
    return out if mp_out else float(out)


def _hurwitz(q, a: int):
    """Hurwitz ``zeta(q, a)`` (``q != 1``, analytic continuation below 1) at the current precision, by
    Euler-Maclaurin from ``a + N >= q + 2M``: mpmath's own ``zeta(q, a)`` loses digits at large q and a
    (10 of 30 at q = 200, a = 1e4, at any working precision).

    The direct part stops early once its terms fall below the precision (large q: geometric decay); the
    ``M`` correction terms shrink by ``((q + 2k) / (2 pi (a + N)))^2 <= 1/(2 pi)^2`` each."""
    eps = mpmath.eps * mpmath.mpf(2) ** -10
    M = int(mpmath.mp.dps / 1.5) + 4
    N = max(0, int(mpmath.ceil(q)) + 2 * M - a)
    total, j = mpmath.mpf(0), 0
    while j < N:
        term = mpmath.mpf(a + j) ** -q
        total += term
        j += 1
        if q > a + j and term < eps * abs(total):       # ratio of terms <= e^(-q/(a+j)) < 1/e: tail < term
            return total
    x = mpmath.mpf(a + N)
    out = total + x ** (1 - q) / (q - 1) + x ** -q / 2
    rising, power = q, x ** (-q - 1)            # rising = q (q+1) ... (q+2k-2), power = x^(-q-2k+1)
    for k in range(1, M + 1):
        out += mpmath.bernoulli(2 * k) / mpmath.factorial(2 * k) * rising * power
        rising *= (q + 2 * k - 1) * (q + 2 * k)
        power /= x * x
    return out


def coupling_matrix(rho, *, coupling: str = "toeplitz") -> np.ndarray:
    """The coupling matrix whose singular spectrum :func:`effective_rank` measures (see module doc).

    >>> coupling_matrix([1.0, 2.0, 3.0]).tolist()
    [[1.0, 0.0, 0.0], [2.0, 1.0, 0.0], [3.0, 2.0, 1.0]]
    >>> coupling_matrix([1.0, 2.0, 3.0], coupling="hankel").tolist()
    [[1.0, 2.0], [2.0, 3.0]]
    """
    r = _as_memory(rho)
    coupling = as_choice("coupling", coupling, COUPLINGS)
    T = r.size
    if coupling == "toeplitz":
        idx = np.arange(T)[:, None] - np.arange(T)[None, :]
        return np.where(idx >= 0, r[np.clip(idx, 0, None)], 0.0)
    if coupling == "hankel":
        L = (T + 1) // 2
        return hankel(r[:L], r[L - 1:])
    return np.diag(np.abs(r))


def singular_values(rho, *, coupling: str = "toeplitz") -> np.ndarray:
    """Singular values of :func:`coupling_matrix`, decreasing."""
    coupling = as_choice("coupling", coupling, COUPLINGS)
    if coupling == "lag":
        return np.sort(np.abs(_as_memory(rho)))[::-1]
    return np.linalg.svd(coupling_matrix(rho, coupling=coupling), compute_uv=False)


def entropy_effective_rank(sv) -> float:
    """``exp(-sum p_i log p_i)``, ``p_i = sigma_i / sum sigma_j`` (Roy-Vetterli); zeros contribute 0.

    >>> entropy_effective_rank([2.0, 2.0, 0.0])
    2.0
    >>> entropy_effective_rank([1.0])
    1.0
    """
    sv = as_real_array("sv", sv, minimum=0.0).ravel()
    total = float(sv.sum())
    if total == 0.0:
        raise ValueError("sv must contain a positive singular value")
    p = sv[sv > 0] / total
    return float(math.exp(-np.sum(p * np.log(p))))


def effective_rank(rho, *, coupling: str = "toeplitz") -> float:
    """Entropy effective rank of the coupling matrix of the memory function ``rho``.

    ``coupling``: "toeplitz" (default), "hankel" or "lag" (module docstring). Cost: an SVD of a
    ``T x T`` (Toeplitz) or ``T/2 x T/2`` (Hankel) matrix; "lag" is O(T).

    Parameters
    ----------
    rho : array_like of float
        The memory function ``rho(0), ..., rho(T-1)``: a non-empty 1-d array, not identically zero.
    coupling : {"toeplitz", "hankel", "lag"}
        The matrix whose singular values are used.

    Returns
    -------
    float
        ``exp`` of the entropy of the normalised singular values, between 1 and the matrix size.

    Raises
    ------
    TypeError
        ``rho`` not an array of reals, ``coupling`` not a string.
    ValueError
        ``rho`` empty, not 1-d, non-finite or all zero; an unknown ``coupling``.

    Examples
    --------
    >>> effective_rank([1.0, 0.0, 0.0, 0.0])               # identity: flat spectrum, full rank
    4.0
    >>> effective_rank([0.0, 0.0, 1.0, 0.0], coupling="lag")
    1.0
    >>> round(effective_rank([1.0, 0.5, 0.25, 0.125, 0.0625], coupling="hankel"), 12)  # one mode
    1.0
    """
    return entropy_effective_rank(singular_values(rho, coupling=coupling))
