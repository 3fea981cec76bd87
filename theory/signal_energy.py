r"""Exact finite-width signal energies of linear recurrences with Ginibre weights.

Source: M. Seleznova, "How Long Does Infinite Width Last? Signal Propagation in Long-Range Linear
Recurrences", arXiv:2605.05113 (2026), Theorem 2.1 (re-derived and checked in
``docs/papers/signal-propagation.md``).

Model and convention
--------------------
``W = G / sqrt(n)`` with ``G`` an ``n x n`` complex Ginibre matrix (iid proper complex Gaussians,
``E|G_ij|^2 = 1``, ``E G_ij^2 = 0``).

* Free recurrence ``h(k) = W h(k-1)``:  ``Q_{n,k} = E||W^k x||^2 / E||x||^2 = (1/n) E tr((W^k)^* W^k)``.
* Driven recurrence ``h(t) = W h(t-1) + x(t)``, ``h(-1) = 0``, iid unit inputs:
  ``S_{n,t} = E||h(t)||^2 / n = sum_{k=0}^{t} Q_{n,k}`` (**t + 1 terms: the toolkit counts x(0)**;
  if your inputs start at t = 1, your S is ``S_{n,t-1}``).

With the rising factorial ``n^(m) = n(n+1)...(n+m-1)`` and the falling one ``n_(m) = n(n-1)...(n-m+1)``:

.. math::

    E\,tr((G^k)^* G^k) = \frac{n^{(k+2)} - n_{(k+2)}}{(k+1)(k+2)}, \qquad
    Q_{n,k} = \frac{n^{(k+2)} - n_{(k+2)}}{(k+1)(k+2)\, n^{k+1}} .

Valid for every integer ``n >= 1`` and ``k >= 0`` (for ``k + 2 > n`` the falling term vanishes).
``Q`` is a polynomial in ``1/n^2`` whose coefficients are Hultman numbers (:func:`hultman_row`).
Infinite width: ``Q = 1``, ``S = t + 1``. The real-Gaussian case has no closed form
(see ``numerics.signal_propagation.wick``); ``Q^R >= Q``.

Evaluation methods
------------------
``"exact"``  ``fractions.Fraction`` from integer arithmetic: factorial products and the sum S by binary
             splitting, one normalisation (gcd) at the end; FLINT ``fmpz``/``fmpq`` when python-flint
             is installed (extra ``certified``), Python ints otherwise.
``"float"``  float64 via ``Q = (n/((k+1)(k+2))) e^a (1 - e^{-(a-b)})`` with
             ``a = sum_{j<k+2} log1p(j/n)``, ``b = sum_{j<k+2} log1p(-j/n)``: no cancellation in any
             regime (the naive difference of the two factorial products loses ``log10(n/k^2)`` digits).
             Relative error <= 1e-13 wherever the value fits in float64 (OverflowError beyond: use
             :func:`log_Q`). Long sums are done with log-gamma differences in mpmath.
``"mp"``     ``mpmath.mpf`` correct to ``dps`` digits; the same identity with ``loggamma`` differences,
             O(1) in k; the working precision is raised locally (never the global ``mp.dps``) by the
             digits that the cancellation ``log Gamma(n + k + 2) - log Gamma(n)`` costs.
``"ball"``   a python-flint ``arb`` ball certified to contain the exact value, with relative accuracy
             at least ``dps`` digits (optional extra ``certified``); long sums S by the 1/n^2 series
             with a proved remainder bound (subcritical and critical, O(1) in t), by Euler-Maclaurin
             with a proved remainder (between critical and supercritical) or by their top terms with a
             proved tail bound (supercritical); the proofs are in
             ``docs/papers/signal-propagation.md`` ("Certified balls").

Printing high-precision values
-------------------------------
Returned ``mpf`` values keep their ``dps`` digits, but ``print(x)`` / ``str(x)`` format with mpmath's
*global* precision (15 digits by default), which the toolkit never changes (precision is always local).
So ``print(Q(1024, 64, method="mp", dps=50))`` shows 15 digits of a 50-digit value: print it with
``mpmath.nstr(x, 50)`` (or inside ``with mpmath.workdps(50):``). Returning a subclass that prints at its
own precision would not survive arithmetic (``x + 1`` is a plain ``mpf`` again), so the toolkit documents
this instead.

Cost bounds
-----------
Exact integer paths grow with their arguments; they raise a ValueError up front beyond
``k, t <= MAX_SERIES_K`` (Stirling/Hultman rows and the symbolic forms: O(k^2) big-integer operations),
``S_series``: ``t <= MAX_SERIES_T`` (O(t^3)), ``method="exact"`` and ``trace_moment``: the rising factorial
at most ``MAX_EXACT_BITS`` bits: ``(k+2) log2(n+k+2)`` (``Q``; without python-flint also
``(k+1) log2(n) <= MAX_EXACT_DEN_BITS``, the Fraction's quadratic gcd) and ``(t+1) log2(n (t+2))`` (``S``, binary
splitting); ``Q_all``: ``t < MAX_LENGTH``.

Arrays
------
``Q``, ``S`` (float path), ``log_Q`` and ``log_S`` broadcast over integer arrays of ``n`` and ``k`` / ``t``
with numpy semantics: each element is computed by the scalar path (same accuracy); a scalar in gives a
float out, an array gives a float64 array of the broadcast shape.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import mpmath
import numpy as np
import sympy

from ._args import DEFAULT_DPS, FLOAT_INT_MAX, MAX_LENGTH, as_choice, as_dps, as_int, as_int_array, as_real, elementwise
from ._args import EnergyMethod, FloatOrMp   # the Literal types of the method argument
from ._summation import compensated_cumsum
from . import _ball_em, _ball_super
from ._vector_float import Q_float_array

METHODS = ("exact", "float", "mp", "ball")
MAX_SERIES_K = 1000               # stirling1_row, hultman_row, Q_series, *_symbolic (O(k^2) big-int ops)
MAX_SERIES_T = 300                # S_series (O(t^3))
MAX_EXACT_BITS = 1 << 22          # trace_moment, Q/S(method="exact"): integers up to ~4 Mbit (~2 s)
MAX_EXACT_DEN_BITS = 1 << 17      # Q(method="exact") without python-flint: n^(k+1), a quadratic Python gcd
_FLOAT_DIRECT_MAX_M = 4096      # longer log1p sums go through log-gamma differences
_FLOAT_DIRECT_MAX_A = 30.0      # beyond e^30 the exp() amplification of rounding matters: use mp
_S_DIRECT_MAX_T = 1 << 22       # float/mp S by direct summation up to here
_S_DIRECT_MAX_TERMS = 1 << 25   # ... and beyond, while the early-stopping direct sum needs fewer terms
_S_MP_DIRECT_MAX_T = 100_000
_S_EM_MAX_RATIO = 1.0 / 64.0    # Euler-Maclaurin for S when t <= n/64 (smooth summand)
_CHUNK = 1 << 20
_LOG_FLOAT_MAX = math.log(np.finfo(np.float64).max)

__all__ = [
    "Q", "S", "Q_all", "log_Q", "log_S", "trace_moment", "hultman_row", "stirling1_row", "Q_series",
    "S_series", "trace_moment_symbolic", "Q_symbolic", "S_symbolic", "generating_function", "METHODS",
    "DEFAULT_DPS",            # the default digits of the float paths through mpmath (theory._args)
]


# --------------------------------------------------------------------------------------------------
# argument checks
# --------------------------------------------------------------------------------------------------
def _check_method(method, dps):
    method = as_choice("method", method, METHODS)
    if method in ("exact", "float"):
        if dps is not None:
            raise ValueError(f"dps applies only to method 'mp' or 'ball', not {method!r}; got dps={dps!r}")
        return method, None
    return method, as_dps(dps)          # None: the ambient mpmath precision


def _check_exact_cost(n: int, k: int, quantity: str) -> None:
    """Exact paths: refuse up front what would take minutes (documented bounds, module docstring)."""
    if quantity in ("Q", "trace") and (k + 2) * (n + k + 2).bit_length() > MAX_EXACT_BITS:
        raise ValueError(f"k must satisfy (k+2) log2(n+k+2) <= {MAX_EXACT_BITS} for exact integers (got n={n}, "
                         f"k={k}): use method='mp'")
    # python-flint normalises once (fmpq); without it the Fraction's gcd is quadratic in the denominator
    if quantity == "Q" and _flint_or_none() is None and (k + 1) * (n.bit_length() - 1) > MAX_EXACT_DEN_BITS:
        raise ValueError(f"k must satisfy (k+1) log2(n) <= {MAX_EXACT_DEN_BITS} for method='exact' without "
                         f"python-flint (got n={n}, k={k}): install seqtheory[certified] or use method='mp'")
    # S: binary splitting, integers of ~ t log2(n t) bits (one gcd at the end)
    if quantity == "S" and (k + 1) * (n * (k + 2)).bit_length() > MAX_EXACT_BITS:
        raise ValueError(f"t must satisfy (t+1) log2(n (t+2)) <= {MAX_EXACT_BITS} for method='exact' "
                         f"(got n={n}, t={k}): use method='mp'")


def _broadcast(fn, n, k, k_name: str):
    """The scalar ``fn(n, k)`` over integer arrays (:func:`theory._args.elementwise`); None for scalars."""
    return elementwise(lambda **kw: fn(kw["n"], kw[k_name]), np.float64, {"n": n, k_name: k},
                       lambda name, v: as_int_array(name, v, minimum=1 if name == "n" else 0))


# --------------------------------------------------------------------------------------------------
# exact integer pieces
# --------------------------------------------------------------------------------------------------
def _prod_range(lo: int, hi: int) -> int:
    """Product of the integers in [lo, hi) by binary splitting (fast for long ranges of big numbers)."""
    if hi - lo <= 16:
        return math.prod(range(lo, hi))
    mid = (lo + hi) // 2
    return _prod_range(lo, mid) * _prod_range(mid, hi)


def trace_moment(n: int, k: int) -> int:
    r"""``E tr((G^k)^* G^k)`` for an n x n complex Ginibre ``G`` (unit-variance entries), exactly.

    Source: Seleznova (2026), Theorem 2.1: ``(n^(k+2) - n_(k+2)) / ((k+1)(k+2))``; an integer
    polynomial in n whose coefficients are the Hultman numbers. Valid for integers n >= 1, k >= 0.

    >>> [trace_moment(3, k) for k in range(4)]
    [3, 9, 30, 126]
    >>> trace_moment(1, 5) == math.factorial(5)   # n = 1: E|g|^(2k) = k!
    True
    """
    n = as_int("n", n, minimum=1)
    k = as_int("k", k, minimum=0)
    _check_exact_cost(n, k, "trace")
    m = k + 2
    rising = _prod_range(n, n + m)
    falling = _prod_range(n - m + 1, n + 1) if m <= n else 0
    num, rem = divmod(rising - falling, (k + 1) * (k + 2))
    assert rem == 0
    return num


# --------------------------------------------------------------------------------------------------
# Stirling and Hultman numbers, 1/n^2 series
# --------------------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _stirling1_row_cached(m: int) -> tuple[int, ...]:
    row = [1]  # c(0, 0) = 1
    for i in range(m):  # multiply the polynomial by (x + i)
        new = [0] * (len(row) + 1)
        for j, c in enumerate(row):
            new[j] += i * c
            new[j + 1] += c
        row = new
    return tuple(row)


def stirling1_row(m: int) -> list[int]:
    """Unsigned Stirling numbers of the first kind ``c(m, j)``, j = 0..m: ``x^(m) = sum_j c(m,j) x^j``.

    >>> stirling1_row(4)
    [0, 6, 11, 6, 1]
    """
    m = as_int("m", m, minimum=0, maximum=MAX_SERIES_K + 2)
    return list(_stirling1_row_cached(m))


def hultman_row(k: int) -> list[int]:
    r"""Coefficients of ``E tr((G^k)^* G^k)`` in n: entry j is the coefficient of ``n**j``, j = 0..k+1.

    These are the Hultman numbers (OEIS A164652): ``H_{k,j} = c(k+2, j) / C(k+2, 2)`` when ``k - j`` is
    odd, else 0 (``c`` unsigned Stirling numbers of the first kind), i.e. the distribution of the cycle
    count of the commutator of a permutation of ``S_k`` with the long cycle. Row polynomial:
    ``sum_j H_{k,j} x^j = (x^(k+2) - x_(k+2)) / ((k+1)(k+2))``. Source: Seleznova (2026), Sec. 2.

    Parameters
    ----------
    k : int
        The power, ``0 <= k <= MAX_SERIES_K`` (1000).

    Returns
    -------
    list of int
        ``k + 2`` exact integers; their sum is ``k!`` (the value at ``n = 1``).

    Raises
    ------
    TypeError
        ``k`` is not an integer.
    ValueError
        ``k`` outside ``0..MAX_SERIES_K``.

    Examples
    --------
    >>> hultman_row(0), hultman_row(2), hultman_row(4)
    ([0, 1], [0, 1, 0, 1], [0, 8, 0, 15, 0, 1])
    >>> sum(hultman_row(6)) == math.factorial(6)    # n = 1
    True
    """
    k = as_int("k", k, minimum=0, maximum=MAX_SERIES_K)
    c = _stirling1_row_cached(k + 2)
    denom = (k + 1) * (k + 2) // 2
    out = []
    for j in range(k + 2):
        if (k - j) % 2 == 1:
            q, r = divmod(c[j], denom)
            assert r == 0
            out.append(q)
        else:
            out.append(0)
    return out


def Q_series(k: int) -> list[int]:
    r"""Coefficients ``q_g`` of ``Q_{n,k} = sum_g q_g n^(-2g)``, g = 0..floor((k+1)/2) (finite, exact).

    ``q_g = H_{k, k+1-2g}``; ``q_0 = 1`` and ``q_1 = C(k+2, 4)``, so ``Q = 1 + C(k+2,4)/n^2 + O(k^8/n^4)``.
    Source: Seleznova (2026), Sec. 2 (only powers ``n^(k+1-2g)`` occur).

    >>> Q_series(4)
    [1, 15, 8]
    >>> all(Q_series(k)[1] == math.comb(k + 2, 4) for k in range(2, 30))
    True
    """
    row = hultman_row(k)
    return [row[k + 1 - 2 * g] for g in range((k + 1) // 2 + 1)]


def S_series(t: int) -> list[int]:
    """Coefficients ``s_g`` of ``S_{n,t} = sum_g s_g n^(-2g)``; ``s_0 = t + 1``, ``s_1 = C(t+3, 5)``.

    >>> S_series(4)[:2], math.comb(7, 5)
    ([5, 21], 21)
    """
    t = as_int("t", t, minimum=0, maximum=MAX_SERIES_T)
    out: list[int] = []
    for k in range(t + 1):
        for g, c in enumerate(Q_series(k)):
            if g == len(out):
                out.append(0)
            out[g] += c
    return out


# --------------------------------------------------------------------------------------------------
# symbolic forms (sympy)
# --------------------------------------------------------------------------------------------------
def _symbol(n, name: str = "n"):
    """The width: None -> the positive integer symbol n; a sympy expression with free symbols is kept;
    a number must be an integer >= 1 (the closed forms are polynomials in 1/n: n = 0 divides by zero)."""
    if n is None:
        return sympy.Symbol(name, positive=True, integer=True)
    if isinstance(n, sympy.Basic) and n.free_symbols:
        return n
    return sympy.Integer(as_int(name, n, minimum=1))


def _series_variable(u):
    """u: None -> the symbol u; a symbolic expression; or a real number with |u| < 1 (where the series converges)."""
    if u is None:
        return sympy.Symbol("u")
    if isinstance(u, sympy.Basic) and u.free_symbols:
        return u
    if isinstance(u, sympy.Basic) and u.is_real:
        u = float(u)
    value = as_real("u", u, minimum=-1.0, maximum=1.0, open_min=True, open_max=True)
    return sympy.Rational(u) if isinstance(u, (int, np.integer)) else sympy.Float(value)


def trace_moment_symbolic(k: int, n=None) -> sympy.Expr:
    """``E tr((G^k)^* G^k)`` as a sympy polynomial in the symbol ``n`` (Hultman coefficients)."""
    row = hultman_row(k)
    n = _symbol(n)
    return sympy.Add(*[c * n**j for j, c in enumerate(row) if c])


def Q_symbolic(k: int, n=None) -> sympy.Expr:
    """``Q_{n,k}`` as a sympy expression in ``n``: a polynomial in ``1/n^2`` (Theorem 2.1).

    >>> Q_symbolic(3)
    1 + 5/n**2
    """
    series = Q_series(k)
    n = _symbol(n)
    return sympy.Add(*[c / n ** (2 * g) for g, c in enumerate(series) if c])


def S_symbolic(t: int, n=None) -> sympy.Expr:
    """``S_{n,t} = sum_{k<=t} Q_{n,k}`` as a sympy expression in ``n``."""
    series = S_series(t)
    n = _symbol(n)
    return sympy.Add(*[c / n ** (2 * g) for g, c in enumerate(series) if c])


def generating_function(u=None, n=None) -> sympy.Expr:
    r"""``(1-u)^(-n) - (1+u)^n = sum_k E tr((G^k)^* G^k) u^(k+2) / k!`` (Seleznova 2026, Sec. 2).

    >>> import sympy
    >>> u = sympy.Symbol("u")
    >>> ser = sympy.series(generating_function(u, 3), u, 0, 6).removeO()
    >>> [ser.coeff(u, k + 2) * sympy.factorial(k) for k in range(4)] == [trace_moment(3, k) for k in range(4)]
    True
    """
    u = _series_variable(u)
    n = _symbol(n)
    return (1 - u) ** (-n) - (1 + u) ** n


# --------------------------------------------------------------------------------------------------
# the logs of the two factorial ratios:  a = log(n^(m) / n^m),  d = a - log(n_(m) / n^m)  (d = inf if m > n)
# --------------------------------------------------------------------------------------------------
def _a_lower_bound(n: int, m: int) -> float:
    """A positive lower bound of a = sum_{j<m} log1p(j/n) >= m(m-1) / (2(n+m)); m >= 2."""
    return m * (m - 1) / (2.0 * (n + m))


def _guard_bits(n: int, m: int) -> int:
    """Bits lost when a is formed as a difference of log-gamma values of size ~ (n+m) log(n+m)."""
    if n + m < 2**900:
        big = (n + m) * max(1.0, math.log(n + m)) + 2.0
        return int(math.log2(big) - math.log2(_a_lower_bound(n, m))) + 24
    # past float64 (n ~ 1e1000 from the command line): the same bound in logs, from exact ints (+1 bit
    # bounds the +2.0 above)
    log2_big = math.log2(n + m) + math.log2(math.log(n + m)) + 1.0
    return int(log2_big - (math.log2(m * (m - 1)) - math.log2(2 * (n + m)))) + 24


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


# --------------------------------------------------------------------------------------------------
# Q
# --------------------------------------------------------------------------------------------------
def Q(n: int, k: int, *, method: EnergyMethod = "float", dps: int | None = None):
    r"""Signal energy of the free recurrence, ``Q_{n,k} = (1/n) E tr((W^k)^* W^k)``, ``W = G/sqrt(n)``.

    .. math:: Q_{n,k} = \frac{n^{(k+2)} - n_{(k+2)}}{(k+1)(k+2)\, n^{k+1}}

    Source: Seleznova (2026), Theorem 2.1. Domain: integers ``n >= 1``, ``k >= 0``; complex Ginibre
    weights with variance 1/n.

    Parameters
    ----------
    n : int or array of int
        Width, ``n >= 1``. Integer arrays broadcast against ``k`` (numpy rules) on the float path.
    k : int or array of int
        Depth (the power of ``W``), ``k >= 0``.
    method : {"float", "exact", "mp", "ball"}
        "float": float64, relative error <= 1e-13; "exact": a ``Fraction``; "mp": an ``mpmath.mpf``
        correct to ``dps`` digits; "ball": a certified python-flint ``arb`` with ``dps`` digits of
        relative accuracy (needs the ``certified`` extra).
    dps : int, optional
        Decimal digits for "mp" and "ball" (``MIN_DPS..MAX_DPS`` of ``theory._args``). None: the ambient
        ``mpmath.mp.dps`` at call time (mpmath's convention; see docs/conventions.md). Must be None for
        "float" and "exact".

    Returns
    -------
    float, numpy.ndarray, fractions.Fraction, mpmath.mpf or flint.arb
        ``Q_{n,k}`` (an array of the broadcast shape for array arguments).

    Raises
    ------
    TypeError
        ``n`` or ``k`` is not an integer (bools and floats are rejected), or ``method`` is not a string.
    ValueError
        ``n < 1``, ``k < 0``, an unknown ``method``, ``dps`` out of range or given for "float"/"exact",
        or an exact result too large to compute in seconds (``MAX_EXACT_BITS``; use "mp").
    OverflowError
        "float" past float64's range (``log Q > 709.78``); use :func:`log_Q` or "mp".

    Examples
    --------
    >>> Q(1, 3, method="exact")          # n = 1: E|g|^6 = 3! = 6
    Fraction(6, 1)
    >>> Q(4, 2, method="exact")          # 1 + C(4,4)/n^2
    Fraction(17, 16)
    >>> Q(10**6, 0)
    1.0
    >>> q = Q(np.array([[1], [4]]), np.array([2, 3]))     # float path: broadcasts over integer arrays
    >>> q.shape, bool(abs(q[1, 0] - Q(4, 2)) < 1e-14)      # vectorised: the scalar accuracy, not its bits
    ((2, 2), True)
    >>> import mpmath
    >>> mpmath.nstr(Q(10**12, 10**6, method="mp", dps=30), 30)    # ~ 2 sinh(1/2) + g(1)/10**6 (critical)
    '1.04219069359507468409620718562'
    """
    method, dps = _check_method(method, dps)
    if method == "float":
        out = _Q_float_vector(n, k)
        if out is not None:
            return out
    n = as_int("n", n, minimum=1)
    k = as_int("k", k, minimum=0)
    if method == "exact":
        _check_exact_cost(n, k, "Q")
        return _Q_exact(n, k)
    if method == "float":
        return _Q_float(n, k)
    if method == "mp":
        return _Q_mp(n, k, dps)
    return _Q_ball(n, k, dps)


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
            f"Q(n={n}, k={k}) = {mpmath.nstr(q, 6)} exceeds float64; use log_Q(n, k) or method='mp'")
    return float(q)


def _Q_mp(n: int, k: int, dps: int):
    m = k + 2
    prec = int(dps * 3.33) + 10
    with mpmath.mp.workprec(prec + _guard_bits(n, m)):
        a, d = _ab_mp(n, m)
        q = mpmath.mp.mpf(n) / ((k + 1) * (k + 2)) * mpmath.exp(a) * -mpmath.expm1(-d)
    with mpmath.mp.workprec(prec):
        return +q


def _flint_or_none():
    """The python-flint module (optional extra ``certified``), or None."""
    try:
        import flint
    except ImportError:  # pragma: no cover - exercised only without the extra
        return None
    return flint


def _fraction(flint, num, den) -> Fraction:
    """``num / den`` as a Fraction with a single gcd (FLINT's when available, then no second one)."""
    if flint is None:
        return Fraction(int(num), int(den))
    q = flint.fmpq(num, den)                 # normalised once, by FLINT's subquadratic gcd
    return _coprime_fraction(int(q.p), int(q.q))


def _coprime_fraction(p: int, q: int) -> Fraction:
    """A Fraction from a coprime pair (q > 0) without the gcd that ``Fraction(p, q)`` would redo."""
    from_coprime = getattr(Fraction, "_from_coprime_ints", None)     # Python >= 3.12
    if from_coprime is not None:
        return from_coprime(p, q)
    return Fraction(p, q, _normalize=False)  # type: ignore[call-overload]   # Python 3.10 / 3.11


def _Q_exact(n: int, k: int) -> Fraction:
    """Q as a Fraction: rising/falling factorials by binary splitting (FLINT ``fmpz.rising`` when
    python-flint is installed, :func:`_prod_range` otherwise), then one normalisation."""
    flint = _flint_or_none()
    if flint is None:
        return Fraction(trace_moment(n, k), n ** (k + 1))
    m = k + 2
    Z = flint.fmpz
    diff = Z(n).rising(m) - (Z(n - m + 1).rising(m) if m <= n else 0)
    return _fraction(flint, diff, (k + 1) * (k + 2) * Z(n) ** (k + 1))


def _flint():
    try:
        import flint
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise ImportError("method='ball' needs python-flint: pip install 'seqtheory[certified]'") from exc
    return flint


def _Q_ball(n: int, k: int, dps: int):
    flint = _flint()
    arb = flint.arb
    m = k + 2
    target = int(dps * 3.33) + 4
    prec = target + _guard_bits(n, m)
    while True:
        with flint.ctx.workprec(prec):
            N = arb(n)
            lg_n = N.lgamma()
            a = arb(n + m).lgamma() - lg_n - m * N.log()
            if m <= n:
                d = arb(n + m).lgamma() + arb(n - m + 1).lgamma() - lg_n - arb(n + 1).lgamma()
                q = N * a.exp() * (-(-d).expm1()) / ((k + 1) * (k + 2))
            else:
                q = N * a.exp() / ((k + 1) * (k + 2))
        if q.rel_accuracy_bits() >= target:
            return q
        prec *= 2


def log_Q(n: int, k: int, *, method: FloatOrMp = "float", dps: int | None = None):
    r"""``log Q_{n,k}`` (natural log) as a float, for the range where ``Q`` overflows float64.

    Computed from the mp path (20 digits, log-gamma differences), so it is accurate to a relative
    1e-15 whenever ``log Q >= 1e-3`` and to an absolute 1e-17 near 0. ``method="mp"``: an mpmath.mpf
    correct to ``dps`` digits (default: the ambient ``mpmath.mp.dps``). Source and domain as :func:`Q`.

    Parameters
    ----------
    n, k : int or array of int
        As for :func:`Q` (arrays broadcast on the float path).
    method : {"float", "mp"}
        float64 or an ``mpmath.mpf``.
    dps : int, optional
        Digits for "mp"; None: the ambient ``mpmath.mp.dps``.

    Returns
    -------
    float, numpy.ndarray or mpmath.mpf
        The natural logarithm of ``Q_{n,k}``; finite for every valid ``(n, k)``.

    Raises
    ------
    TypeError, ValueError
        As for :func:`Q`.

    Examples
    --------
    >>> round(log_Q(100, 10**4), 6) > 709        # Q itself overflows float64 here
    True
    """
    method, dps = _check_log_method(method, dps)
    if method == "float":
        out = _broadcast(_log_Q, n, k, "k")
        if out is not None:
            return out
    return _log_Q(as_int("n", n, minimum=1), as_int("k", k, minimum=0), dps)


def _log_Q(n: int, k: int, dps: int | None = None):
    if k <= 1:                  # Q_{n,0} = Q_{n,1} = 1 exactly: log Q = 0, not the rounding of a cancelling sum
        return 0.0 if dps is None else mpmath.mpf(0)
    m = k + 2
    prec = 90 if dps is None else int(dps * 3.33) + 10
    # log Q >= log(1 + C(k+2, 4)/n^2) >= 1/(2 n^2) for k >= 2 (Q_{n,0} = Q_{n,1} = 1): 2 log2 n more bits
    # keep the relative accuracy of the small result of a cancelling sum
    guard = _guard_bits(n, m) + (2 * n.bit_length() + 8 if dps is not None else 0)
    with mpmath.mp.workprec(prec + guard):
        a, d = _ab_mp(n, m)
        # log Q can be near 0 (Q ~ 1 + k^4/(24 n^2)): the guard bits keep its relative accuracy
        value = mpmath.log(mpmath.mp.mpf(n) / ((k + 1) * (k + 2))) + a + mpmath.log(-mpmath.expm1(-d))
    if dps is None:
        return float(value)
    with mpmath.mp.workprec(prec):
        return +value


def _check_log_method(method, dps):
    """log_Q / log_S / Q_all: method "float" (no dps) or "mp" (dps digits, default the ambient precision)."""
    method = as_choice("method", method, ("float", "mp"))
    return _check_method(method, dps)


def Q_all(n: int, t: int, *, method: FloatOrMp = "float", dps: int | None = None):
    r"""``[Q_{n,0}, ..., Q_{n,t}]`` as a float64 array in O(t) time (``method="mp"``: a list of mpf).

    Cumulative sums of ``log1p(j/n)`` and ``log1p(-j/n)``, then ``Q = (n/((k+1)(k+2))) e^a (1 - e^{b-a})``:
    no cancellation in any regime (sub-, critical, supercritical; ``k + 2 > n`` included). Entries beyond
    float64's range are ``inf`` (use :func:`log_Q`). Relative error grows like ``(1 + a_k) * sqrt(k) * eps``
    from the plain cumulative sums (:func:`Q` and :func:`S` use compensated sums). Source: Theorem 2.1.

    ``method="mp"``: the products ``n^(m)/n^m`` and ``n_(m)/n^m`` updated term by term at ``dps`` digits
    plus guard bits for their difference (``log2 n`` bits at small m) and the ``t`` roundings; O(t).

    Parameters
    ----------
    n : int
        Width, ``n >= 1``.
    t : int
        Last depth, ``0 <= t <= MAX_LENGTH - 2`` (the array has ``t + 1`` entries).
    method : {"float", "mp"}
        A float64 array, or a list of ``mpmath.mpf``.
    dps : int, optional
        Digits for "mp"; None: the ambient ``mpmath.mp.dps``.

    Returns
    -------
    numpy.ndarray or list of mpmath.mpf
        ``Q_{n,k}`` for ``k = 0..t``.

    Raises
    ------
    TypeError, ValueError
        As for :func:`Q`; ``t`` beyond the array bound.

    Examples
    --------
    >>> np.allclose(Q_all(4, 3), [1, 1, 17/16, 21/16], rtol=1e-14, atol=0)
    True
    >>> [str(q) for q in Q_all(4, 3, method="mp", dps=10)]
    ['1.0', '1.0', '1.0625', '1.3125']
    """
    n = as_int("n", n, minimum=1, maximum=FLOAT_INT_MAX)
    t = as_int("t", t, minimum=0, maximum=MAX_LENGTH - 2)
    method, dps = _check_log_method(method, dps)
    if method == "mp":
        return _Q_all_mp(n, t, dps)
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


def _Q_all_fix_overflow(n: int, q: np.ndarray) -> None:
    """Entries where e^a overflowed although Q itself fits (a factor (k+1)(k+2)/n below): in log form."""
    bad = np.flatnonzero(~np.isfinite(q))
    # Q increases with k, so once log Q passes the float64 limit every later entry is inf too.
    for i in bad:
        lq = log_Q(n, int(i))
        if lq > _LOG_FLOAT_MAX:
            break
        q[i] = math.exp(lq)


# --------------------------------------------------------------------------------------------------
# S
# --------------------------------------------------------------------------------------------------
def S(n: int, t: int, *, method: EnergyMethod = "float", dps: int | None = None):
    r"""Signal energy of the driven recurrence, ``S_{n,t} = E||h(t)||^2 / n = sum_{k=0}^{t} Q_{n,k}``.

    ``h(t) = W h(t-1) + x(t)``, ``h(-1) = 0``, iid inputs with ``E x x^* = I``; **t + 1 terms** (x(0)
    counts: the toolkit's convention, which reproduces ``S ~ t + 1``; with inputs from t = 1 use
    ``S(n, t - 1)``). No hypergeometric closed form exists (Gosper's algorithm fails), so S is the sum of
    the closed-form terms of Theorem 2.1 (Seleznova 2026):

    * "exact": an exact Fraction, O(t) big-integer operations;
    * "float": float64 with relative error <= 1e-13 (sum of ``Q_{n,k}/Q_{n,t}`` from compensated
      reverse sums times an accurate ``Q_{n,t}``; the sum stops once the remaining terms are below
      1e-18 of it, after ~ ``45 n/t`` terms in the supercritical range); for ``t > 4.2e6``,
      ``t <= n/64`` and more than ``3.3e7`` terms needed, the Euler-Maclaurin formula on the analytic
      summand (mpmath ``sumem``) replaces the direct sum;
    * "mp": ``dps`` digits (direct sum with guard digits; Euler-Maclaurin for long sums with ``t <= n/64``);
    * "ball": certified arb ball. For ``t > 2000`` in the subcritical and critical range (``c = t/sqrt(n)``
      up to about 30 at 40 digits: at most ``_S_BALL_SERIES_MAX_G`` = 400 series terms), the exact 1/n^2
      series truncated after G terms plus a proved remainder bound, O(G^2) big-integer work independent
      of t, G ~ c^2/4 + O(c sqrt(dps)) (:func:`_S_ball_series`, the math is there); far supercritical
      (``theory._ball_super``: about ``dps n/t`` top terms within 1e5 steps), the top terms and a proved
      tail bound; in between (``c`` past about ``sqrt(3.33 dps ln 2)``, ~10 at 40 digits, and ``t/n`` small
      enough for the remainder to fall), Euler-Maclaurin on the top window with a proved remainder
      (``theory._ball_em``, O(1) in t); otherwise (t <= 2000, or none of them reaches the accuracy, e.g.
      c ~ 26 at 300 digits) the direct sum of certified terms, O(t). Proofs:
      ``docs/papers/signal-propagation.md``, "Certified balls".

    Domain: integers ``n >= 1``, ``t >= 0``.

    Parameters
    ----------
    n : int or array of int
        Width, ``n >= 1`` (integer arrays broadcast against ``t`` on the float path).
    t : int or array of int
        Last time step, ``t >= 0``: the sum has ``t + 1`` terms.
    method : {"float", "exact", "mp", "ball"}
        As for :func:`Q`.
    dps : int, optional
        Decimal digits for "mp" and "ball"; None: the ambient ``mpmath.mp.dps``. As for :func:`Q`.

    Returns
    -------
    float, numpy.ndarray, fractions.Fraction, mpmath.mpf or flint.arb
        ``S_{n,t}``.

    Raises
    ------
    TypeError, ValueError
        As for :func:`Q` (with ``t`` for ``k``).
    OverflowError
        "float" past float64's range; use :func:`log_S` or "mp".

    Examples
    --------
    >>> S(4, 2, method="exact")        # 1 + 1 + (1 + 1/16)
    Fraction(49, 16)
    >>> S(10**6, 0)
    1.0
    """
    method, dps = _check_method(method, dps)
    if method == "float":
        out = _S_float_vector(n, t)
        if out is not None:
            return out
    n = as_int("n", n, minimum=1)
    t = as_int("t", t, minimum=0)
    if method == "exact":
        _check_exact_cost(n, t, "S")
        return _S_exact(n, t)
    if method == "float":
        return _S_float(_float_sized("n", n), _float_sized("t", t))
    if method == "mp":
        return _S_mp(n, t, dps)
    return _S_ball(n, t, dps)


def log_S(n: int, t: int, *, method: FloatOrMp = "float", dps: int | None = None):
    """``log S_{n,t}`` (natural log) as a float, for the range where ``S`` overflows float64.

    ``method="mp"``: an mpmath.mpf correct to ``dps`` digits (the log of the mp path of :func:`S`).
    Source and domain as :func:`S`.

    Parameters
    ----------
    n, t : int or array of int
        As for :func:`S`.
    method : {"float", "mp"}
        float64 or an ``mpmath.mpf``.
    dps : int, optional
        Digits for "mp"; None: the ambient ``mpmath.mp.dps``.

    Returns
    -------
    float, numpy.ndarray or mpmath.mpf
        The natural logarithm of ``S_{n,t}`` (``>= log(t + 1)``).

    Raises
    ------
    TypeError, ValueError
        As for :func:`S`.

    Examples
    --------
    >>> log_S(100, 10**4) > 709
    True
    >>> import mpmath
    >>> x = log_S(100, 10**4, method="mp", dps=40)
    >>> with mpmath.workdps(40):
    ...     bool(abs(x - mpmath.log(S(100, 10**4, method="mp", dps=45))) < mpmath.mpf(10) ** -35)
    True
    """
    method, dps = _check_log_method(method, dps)
    if method == "mp":
        n = as_int("n", n, minimum=1)
        t = as_int("t", t, minimum=0)
        prec = int(dps * 3.33) + 10
        s = _S_mp(n, t, dps + 5)       # log S >= log(t + 1) >= 0; at t = 0, S = 1 exactly
        with mpmath.mp.workprec(prec + 20):
            value = mpmath.log(s)
        with mpmath.mp.workprec(prec):
            return +value
    out = _broadcast(_log_S, n, t, "t")
    if out is not None:
        return out
    return _log_S(as_int("n", n, minimum=1, maximum=FLOAT_INT_MAX), as_int("t", t, minimum=0, maximum=FLOAT_INT_MAX))


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
    return math.log(_S_ratio_sum(n, t)) + log_Q(n, t)


def _S_exact(n: int, t: int) -> Fraction:
    r"""S as a Fraction by binary splitting of two hypergeometric sums, one normalisation at the end.

    ``S = S_R - S_F`` with ``S_R = sum_k n^(k+2) / ((k+1)(k+2) n^(k+1))`` (rising) and ``S_F`` the same with
    the falling factorial. Term ratios: ``r_R(j) = (n+j+1) j / ((j+2) n)``, ``r_F(j) = (n-j-1) j / ((j+2) n)``
    (``r_F`` vanishes from ``j = n - 1`` on, as the falling factorial does), first terms ``(n +- 1)/2``.
    Binary splitting gives ``sum_{k=1}^{t} prod_{j<=k} r(j) = T / Q`` in ``O(M(t log(nt)) log t)`` with
    integers only (FLINT ``fmpz`` when python-flint is installed, Python ints otherwise); then
    ``S = ((n+1)(Q + T_R) - (n-1)(Q + T_F)) / (2Q)`` and a single gcd.
    """
    flint = _flint_or_none()
    Z = int if flint is None else flint.fmpz
    _, _, q, t_r, t_f = _S_split(Z(n), 1, t + 1)
    num = (n + 1) * (q + t_r) - (n - 1) * (q + t_f)
    return _fraction(flint, num, 2 * q)


def _S_split(n, a: int, b: int):
    """(P_R, P_F, Q, T_R, T_F) over j in [a, b): T / Q = sum_{k=a}^{b-1} prod_{j=a}^{k} p(j) / q(j)."""
    if b - a <= 24:
        p_r, p_f, q, t_r, t_f = n * 0 + 1, n * 0 + 1, n * 0 + 1, n * 0, n * 0
        for j in range(b - 1, a - 1, -1):       # Horner from the top: T <- p(j) (Q_j + T), Q <- q(j) Q
            qj = (j + 2) * n
            t_r = (n + j + 1) * j * (q + t_r)
            t_f = (n - j - 1) * j * (q + t_f)
            q = q * qj
            p_r = p_r * ((n + j + 1) * j)
            p_f = p_f * ((n - j - 1) * j)
        return p_r, p_f, q, t_r, t_f
    mid = (a + b) // 2
    pr1, pf1, q1, tr1, tf1 = _S_split(n, a, mid)
    pr2, pf2, q2, tr2, tf2 = _S_split(n, mid, b)
    return pr1 * pr2, pf1 * pf2, q1 * q2, tr1 * q2 + pr1 * tr2, tf1 * q2 + pf1 * tf2


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
            raise OverflowError(f"S(n={n}, t={t}) exceeds float64; use log_S(n, t) or method='mp'")
        return float(s)
    ratio = _S_ratio_sum(n, t)
    log_s = math.log(ratio) + log_Q(n, t)
    if log_s > _LOG_FLOAT_MAX - 1e-9:
        raise OverflowError(f"S(n={n}, t={t}) = exp({log_s:.6g}) exceeds float64; use log_S(n, t) or method='mp'")
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


def _S_mp(n: int, t: int, dps: int):
    prec = int(dps * 3.33) + 10
    # Terms decay like exp(-(t - k) t / n) below the top, so only ~ n/t * prec * ln 2 terms matter.
    needed = t + 1 if t == 0 else min(t + 1, int(n / t * (prec + 20) * 0.7) + 2)
    if needed > _S_MP_DIRECT_MAX_T and t <= n * _S_EM_MAX_RATIO:
        s = _S_em(n, t, dps)
    else:
        s = _S_mp_top_down(n, t, prec)
    with mpmath.mp.workprec(prec):
        return +s


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


_S_BALL_SERIES_MIN_T = 2000       # below: the O(t) direct sum is cheap
_S_BALL_SERIES_MAX_G = 400        # series terms at most (O(G^2) big-integer work; c = t/sqrt(n) up to ~ 20)


def _series_head(n: int, t: int, G: int, Z=int):
    r"""The exact integer ``n^(2(G-1)) T_G``, ``T_G = sum_{k<=t} sum_{g<G} q_g(k) n^(-2g)`` (see :func:`_S_ball_series`).

    ``P(k) = sum_{g<G} q_g(k) n^(2(G-1-g))`` is an integer polynomial in k of degree ``D = 4(G-1)``, so its
    values at ``k = 0..D`` give its Newton form ``P(k) = sum_i Delta^i P(0) C(k, i)`` and
    ``sum_{k<=t} P(k) = sum_i Delta^i P(0) C(t+1, i+1)`` exactly. The values come from one table of the
    elementary symmetric polynomials ``e_j(0, ..., m-1)`` (``e_j <- e_j + m e_(j-1)`` as m is added):
    O(G^2) big-integer operations in all, in the integer type ``Z`` (FLINT's ``fmpz`` halves the time).
    One extra value checks that the degree is what the math says.
    """
    D = 4 * (G - 1)
    n2 = Z(n) * n
    e = [Z(1)] + [Z(0)] * (2 * G)             # e_j(0..m-1) for j = 0..2G-1, starting from the empty set
    values = []
    for m in range(D + 3):                    # after adding m: the set {0..m}, i.e. k = m - 1 below
        for j in range(2 * G - 1, 0, -1):
            e[j] += m * e[j - 1]
        if m < 1:
            continue
        acc = Z(0)
        for g in range(G):                    # Horner in n^2
            acc = acc * n2 + e[2 * g + 1]
        q, r = divmod(acc, m * (m + 1) // 2)  # C(k+2, 2) with k = m - 1
        assert r == 0
        values.append(q)
    diffs = []
    for _ in range(D + 2):
        diffs.append(values[0])
        values = [b - a for a, b in zip(values, values[1:])]
    assert diffs[-1] == 0                     # degree D: the (D+1)-th difference vanishes
    total, comb = Z(0), Z(t + 1)              # comb = C(t+1, i+1)
    for i in range(D + 1):
        total += diffs[i] * comb
        comb = comb * (t - i) // (i + 2)
    return int(total)


def _remainder_log2(n: int, t: int, G: int) -> float:
    """log2 of the remainder bound ``R`` of :func:`_S_ball_series` (float, only to choose G); +inf where
    ``rho >= 1/2``."""
    log_x = 2 * math.log(t + 2.5) - math.log(2) - math.log(n)     # log X, in logs: n may exceed float64
    if 2 * log_x >= math.log((2 * G + 2) * (2 * G + 3) / 2):
        return math.inf
    log_r = math.log(t + 2.5) + 2 * G * log_x - math.lgamma(2 * G + 2) - math.log(4 * G + 1) + math.log(2)
    return log_r / math.log(2)


def _S_log2_estimate(n: int, t: int) -> float:
    """A rough lower estimate of ``log2 S_{n,t}`` (not a bound: it only chooses G, and a ball that misses its
    accuracy is recomputed with more terms): ``S >= t + 1``, and ``S ~ Q_{n,t} n/t`` once the top terms
    dominate (they fall like ``e^(-(t-k) t/n)`` below the top)."""
    top = _log_Q(n, t) + min(math.log(t + 1.0), math.log(n) - math.log(t)) - 2.0
    return max(math.log2(t + 1.0), top / math.log(2))


def _S_ball_series_terms(n: int, t: int, target: int) -> int | None:
    """The number G of series terms whose remainder is below about 2^-target of S, or None (another path)."""
    if t <= _S_BALL_SERIES_MIN_T:
        return None
    allowed = _S_log2_estimate(n, t) - target
    for G in range(1, _S_BALL_SERIES_MAX_G + 1):
        if _remainder_log2(n, t, G) + 0.1 <= allowed:
            return G
    return None


def _S_ball_series(n: int, t: int, G: int, prec: int):
    r"""Certified ``S_{n,t}`` from the first G terms of its 1/n^2 series and a rigorous remainder bound.

    Used in the subcritical and the critical regime (``c = t / sqrt(n)`` up to about 30 at 40 digits:
    ``G <= _S_BALL_SERIES_MAX_G``). The math (proof in ``docs/papers/signal-propagation.md``, "Certified
    balls"). With ``m = k + 2``, ``x^(m) - x_(m) = 2 sum_j c(m, m-j) x^(m-j)`` over odd j, where
    ``c(m, m-j) = e_j(0, 1, ..., m-1)`` (elementary symmetric polynomial; ``x^(m) = prod_{i<m} (x + i)``).
    Hence (Seleznova 2026, Theorem 2.1) ``Q_{n,k} = sum_{g>=0} q_g(k) n^{-2g}`` with
    ``q_g(k) = e_{2g+1}(0..m-1) / C(m, 2) >= 0``, and

    * *exactness of the kept terms*: ``c(m, m-j)`` is a polynomial in m of degree 2j vanishing at
      ``m = 0, ..., j`` (Stirling polynomials; Graham-Knuth-Patashnik (6.43)-(6.44)), so ``q_g`` is a
      polynomial in k of degree 4g (the division by ``C(m, 2)`` is exact: it vanishes at m = 0, 1) and
      ``T_G = sum_{k<=t} sum_{g<G} q_g(k) n^{-2g}`` is an exact rational (:func:`_series_head`);
    * *the remainder*: ``e_j(a) <= (sum_i a_i)^j / j!`` for ``a_i >= 0`` (every product of j distinct
      entries occurs j! times in the expansion of ``(sum a)^j``) gives ``q_g(k) <= y_k^{2g} / (2g+1)!`` with
      ``y_k = C(k+2, 2) / n <= (k + 3/2)^2 / (2n)``. As ``v^(4g)`` increases,
      ``sum_{k<=t} (k + 3/2)^(4g) <= integral_{3/2}^{t+5/2} v^(4g) dv``, so with ``X = (t + 5/2)^2 / (2n)``
      ``sum_{k<=t} y_k^{2g} <= (t + 5/2) X^{2g} / (4g+1)`` and
      ``0 <= S_{n,t} - T_G <= R = (t + 5/2) X^{2G} / ((4G+1) (2G+1)! (1 - rho))``,
      ``rho = X^2 / ((2G+2)(2G+3))`` (the ratio of consecutive bounds is at most rho; needs rho < 1).
      No smallness of X is needed: the series of ``sinh(X)/X`` converges for every X.

    The returned ball is ``T_G`` (rounded outward) plus ``R * [0, 1]`` (R evaluated in ball arithmetic);
    since ``S >= t + 1``, its relative radius is at most ``R / (t + 1)`` plus rounding. An infinite radius
    when rho >= 1 (too few terms).
    """
    flint = _flint()
    arb = flint.arb
    num = _series_head(n, t, G, flint.fmpz)
    with flint.ctx.workprec(prec):
        head = arb(num) / arb(n * n) ** (G - 1)
        X = arb(2 * t + 5) ** 2 / arb(8 * n)
        rho = X * X / ((2 * G + 2) * (2 * G + 3))
        if not rho < 1:
            return head + arb(0, "inf")
        rem = (arb(2 * t + 5) / 2) * X ** (2 * G) / (arb(math.factorial(2 * G + 1)) * (4 * G + 1) * (1 - rho))
        return head + rem * arb(0.5, 0.5)                # [0, 1] * R: the remainder is non-negative


def _S_ball_is_direct(n: int, t: int, dps: int) -> bool:
    """Whether ``S(n, t, method="ball", dps=dps)`` sums all t + 1 certified terms (neither the series nor the
    supercritical top terms apply): the command line's up-front cost notice asks this."""
    target = int(dps * 3.33) + 4
    return (_S_ball_series_terms(n, t, target + 4) is None and not _ball_super.applies(n, t, target)
            and _ball_em.plan(n, t, target) is None)


def _S_ball_em(flint, n: int, t: int, dps: int, target: int):
    """Between the critical series and the supercritical top terms: Euler-Maclaurin on the top window with a
    proved remainder (:mod:`theory._ball_em`), or None if the ball misses its accuracy."""
    plan = _ball_em.plan(n, t, target)
    if plan is None:
        return None
    K, a = plan[0], plan[1]
    head = _S_ball(n, K, dps + 1) if a == K + 1 else None     # K < t: the series (or a short direct sum)
    m = n + t + 2
    prec = target + m.bit_length() + m.bit_length().bit_length() + 30   # log-gamma terms of size m log m
    ball = _ball_em.S_ball_em(flint, n, t, target, prec, head)
    return ball if ball.rel_accuracy_bits() >= target else None


_S_BALL_EM_FIRST_G = 64          # the series with more terms than this: Euler-Maclaurin first (where it applies)


def _S_ball(n: int, t: int, dps: int):
    """Certified S: the 1/n^2 series (sub- and critical), the supercritical top terms, Euler-Maclaurin on the
    top window (in between), each only where it applies and reaches the accuracy; else the direct sum."""
    flint = _flint()
    target = int(dps * 3.33) + 4
    G = _S_ball_series_terms(n, t, target + 4)
    series = [] if G is None else [lambda: _S_ball_by_series(n, t, G, target)]
    others = [lambda: _S_ball_by_super(flint, n, t, target), lambda: _S_ball_em(flint, n, t, dps, target)]
    attempts = series + others if G is not None and G <= _S_BALL_EM_FIRST_G else others + series
    for attempt in attempts:
        ball = attempt()
        if ball is not None:
            return ball
    return _S_ball_direct(flint, n, t, target)


def _S_ball_by_series(n: int, t: int, G: int, target: int):
    """The 1/n^2 series ball with G terms, more if the estimate of S that chose G was too high; None past
    ``_S_BALL_SERIES_MAX_G`` terms."""
    while G <= _S_BALL_SERIES_MAX_G:
        ball = _S_ball_series(n, t, G, target + 40)
        if ball.rel_accuracy_bits() >= target:
            return ball
        G += G // 4 + 2
    return None


def _S_ball_by_super(flint, n: int, t: int, target: int):
    """Supercritical: the top terms and a proved tail bound (:mod:`theory._ball_super`), or None."""
    if not _ball_super.applies(n, t, target):
        return None
    prec = target + 2 * int(math.log2(t + 2)) + 40
    for _ in range(3):                      # not accurate after that: the bounds are too loose here
        ball = _ball_super.S_ball_super(flint, n, t, target, prec)
        if ball.rel_accuracy_bits() >= target:
            return ball
        prec *= 2
    return None


def _S_ball_direct(flint, n: int, t: int, target: int):
    """The direct O(t) sum of certified terms, the precision doubled until the ball is accurate enough."""
    arb = flint.arb
    prec = target + int(math.log2(n)) + int(math.log2(t + 2)) + 24
    while True:
        with flint.ctx.workprec(prec):
            N = arb(n)
            pr, pf = (N + 1) / N, (N - 1) / N
            total = arb(0)
            for k in range(t + 1):
                m = k + 2
                total += N * (pr - pf) / ((k + 1) * m)
                pr *= (N + m) / N
                pf *= (N - m) / N
        if total.rel_accuracy_bits() >= target:
            return total
        prec *= 2
