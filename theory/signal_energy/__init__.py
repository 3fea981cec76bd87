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
splitting); ``Q_all``: ``k < MAX_LENGTH``.

Arrays
------
``Q``, ``S`` (float path), ``log_Q`` and ``log_S`` broadcast over integer arrays of ``n`` and ``k`` / ``t``
with numpy semantics: each element is computed by the scalar path (same accuracy); a scalar in gives a
float out, an array gives a float64 array of the broadcast shape.
"""

from __future__ import annotations

import math  # noqa: F401 (doctests)
from fractions import Fraction
from typing import Any, Callable, Literal, overload

import mpmath
import numpy as np  # noqa: F401 (doctests)

from theory._args import DEFAULT_DPS, FLOAT_INT_MAX, MAX_LENGTH, as_dps, as_int
from theory._args import EnergyMethod, FloatOrMp   # the Literal types of the method argument
from theory._types import FloatArray, Int, IntArray, arb, mpf   # the number types each method returns

from . import _ball, _exact, _float, _mp
from ._checks import (MAX_EXACT_BITS, MAX_EXACT_DEN_BITS, MAX_SERIES_K, MAX_SERIES_T, METHODS, _broadcast,
                      _check_exact_cost, _check_log_method, _check_method)
from ._exact import trace_moment
from ._rows import Q_series, S_series, hultman_row, stirling1_row
from ._symbolic import Q_symbolic, S_symbolic, generating_function, trace_moment_symbolic

__all__ = [
    "Q", "S", "Q_all", "log_Q", "log_S", "trace_moment", "hultman_row", "stirling1_row", "Q_series",
    "S_series", "trace_moment_symbolic", "Q_symbolic", "S_symbolic", "generating_function", "METHODS",
    "DEFAULT_DPS",            # the default digits of the float paths through mpmath (theory._args)
    "MAX_SERIES_K", "MAX_SERIES_T", "MAX_EXACT_BITS", "MAX_EXACT_DEN_BITS", "MAX_QALL_MP_T", "S_ball_is_direct",
]


# the paths of each arithmetic, by quantity: the one dispatch of Q and S
_PATHS: dict[str, dict[str, Callable[..., Any]]] = {
    "exact": {"Q": _exact._Q_exact, "S": _exact._S_exact},
    "float": {"Q": _float._Q_float, "S": _float._S_float_sized},
    "mp": {"Q": _mp._Q_mp, "S": _mp._S_mp},
    "ball": {"Q": _ball._Q_ball, "S": _ball._S_ball},
}
_VECTORS = {"Q": _float._Q_float_vector, "S": _float._S_float_vector}


MAX_QALL_MP_T = 10**5     # Q_all(method="mp"): about 1-3 s for 1e5 depths at 30 digits (measured)


def _energy(quantity: str, n, k, method, dps):
    """``Q`` or ``S`` (``quantity``) by ``method``: the float path over integer arrays when given arrays, else
    the scalar path of that arithmetic, after the argument checks and (exact) the cost bound."""
    method, dps = _check_method(method, dps)
    if method == "float":
        out = _VECTORS[quantity](n, k)
        if out is not None:
            return out
    n = as_int("n", n, minimum=1)
    k = as_int("k" if quantity == "Q" else "t", k, minimum=0)
    if method == "exact":
        _check_exact_cost(n, k, quantity)
    path = _PATHS[method][quantity]
    return path(n, k) if method in ("exact", "float") else path(n, k, dps)


def S_ball_is_direct(n: int, t: int, dps: int) -> bool:
    """Whether ``S(n, t, method="ball", dps=dps)`` sums all ``t + 1`` certified terms, O(t) work (neither the
    1/n^2 series, the supercritical top terms nor Euler-Maclaurin reaches the accuracy): the cost of a ball
    ``S`` is known before it is computed. Domain as :func:`S`, ``dps`` as for "ball".

    >>> S_ball_is_direct(10**18, 10**6, 20), S_ball_is_direct(100, 50, 20)
    (False, True)
    """
    n, t = as_int("n", n, minimum=1), as_int("t", t, minimum=0)
    return _ball._S_ball_is_direct(n, t, as_dps(dps))


@overload
def Q(n: IntArray, k: Int | IntArray, *, method: Literal["float"] = ..., dps: None = ...) -> FloatArray: ...
@overload
def Q(n: Int, k: IntArray, *, method: Literal["float"] = ..., dps: None = ...) -> FloatArray: ...
@overload
def Q(n: Int, k: Int, *, method: Literal["float"] = ..., dps: None = ...) -> float: ...
@overload
def Q(n: Int, k: Int, *, method: Literal["exact"], dps: None = ...) -> Fraction: ...
@overload
def Q(n: Int, k: Int, *, method: Literal["mp"], dps: int | None = ...) -> mpf: ...
@overload
def Q(n: Int, k: Int, *, method: Literal["ball"], dps: int | None = ...) -> arb: ...
def Q(n: Int | IntArray, k: Int | IntArray, *, method: EnergyMethod = "float",
      dps: int | None = None) -> float | FloatArray | Fraction | mpf | arb:
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
    return _energy("Q", n, k, method, dps)


@overload
def S(n: IntArray, t: Int | IntArray, *, method: Literal["float"] = ..., dps: None = ...) -> FloatArray: ...
@overload
def S(n: Int, t: IntArray, *, method: Literal["float"] = ..., dps: None = ...) -> FloatArray: ...
@overload
def S(n: Int, t: Int, *, method: Literal["float"] = ..., dps: None = ...) -> float: ...
@overload
def S(n: Int, t: Int, *, method: Literal["exact"], dps: None = ...) -> Fraction: ...
@overload
def S(n: Int, t: Int, *, method: Literal["mp"], dps: int | None = ...) -> mpf: ...
@overload
def S(n: Int, t: Int, *, method: Literal["ball"], dps: int | None = ...) -> arb: ...
def S(n: Int | IntArray, t: Int | IntArray, *, method: EnergyMethod = "float",
      dps: int | None = None) -> float | FloatArray | Fraction | mpf | arb:
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
    * "mp": ``dps`` digits. Where more than 2000 top terms matter and python-flint is installed, the
      midpoint of the certified ball below (O(1) in t: under 0.2 s at t = 1e8 for every n,
      ``benchmarks/bench_S_mp.py``); otherwise a direct top-down sum with guard digits, or mpmath's
      Euler-Maclaurin for long sums with ``t <= n/64`` (without the extra, 1-20+ s between the critical and
      the supercritical regime at t = 1e8);
    * "ball": certified arb ball. For ``t > 2000`` in the subcritical and critical range (``c = t/sqrt(n)``
      up to about 30 at 40 digits: at most ``_S_BALL_SERIES_MAX_G`` = 400 series terms), the exact 1/n^2
      series truncated after G terms plus a proved remainder bound, O(G^2) big-integer work independent
      of t, G ~ c^2/4 + O(c sqrt(dps)) (``theory.signal_energy._ball._S_ball_series``, the math is there); far supercritical
      (``theory.signal_energy._ball_super``: about ``dps n/t`` top terms within 1e5 steps), the top terms and a proved
      tail bound; in between (``c`` past about ``sqrt(3.33 dps ln 2)``, ~10 at 40 digits, and ``t/n`` small
      enough for the remainder to fall), Euler-Maclaurin on the top window with a proved remainder
      (``theory.signal_energy._ball_em``, O(1) in t); otherwise (t <= 2000, or none of them reaches the accuracy, e.g.
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
    return _energy("S", n, t, method, dps)


@overload
def log_Q(n: IntArray, k: Int | IntArray, *, method: Literal["float"] = ..., dps: None = ...) -> FloatArray: ...
@overload
def log_Q(n: Int, k: IntArray, *, method: Literal["float"] = ..., dps: None = ...) -> FloatArray: ...
@overload
def log_Q(n: Int, k: Int, *, method: Literal["float"] = ..., dps: None = ...) -> float: ...
@overload
def log_Q(n: Int, k: Int, *, method: Literal["mp"], dps: int | None = ...) -> mpf: ...
def log_Q(n: Int | IntArray, k: Int | IntArray, *, method: FloatOrMp = "float",
          dps: int | None = None) -> float | FloatArray | mpf:
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
        out = _broadcast(_mp._log_Q, n, k, "k")
        if out is not None:
            return out
    return _mp._log_Q(as_int("n", n, minimum=1), as_int("k", k, minimum=0), dps)


@overload
def log_S(n: IntArray, t: Int | IntArray, *, method: Literal["float"] = ..., dps: None = ...) -> FloatArray: ...
@overload
def log_S(n: Int, t: IntArray, *, method: Literal["float"] = ..., dps: None = ...) -> FloatArray: ...
@overload
def log_S(n: Int, t: Int, *, method: Literal["float"] = ..., dps: None = ...) -> float: ...
@overload
def log_S(n: Int, t: Int, *, method: Literal["mp"], dps: int | None = ...) -> mpf: ...
def log_S(n: Int | IntArray, t: Int | IntArray, *, method: FloatOrMp = "float",
          dps: int | None = None) -> float | FloatArray | mpf:
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
        s = _mp._S_mp(n, t, dps + 5)       # log S >= log(t + 1) >= 0; at t = 0, S = 1 exactly
        with mpmath.mp.workprec(prec + 20):
            value = mpmath.log(s)
        with mpmath.mp.workprec(prec):
            return +value
    out = _broadcast(_float._log_S, n, t, "t")
    if out is not None:
        return out
    return _float._log_S(as_int("n", n, minimum=1, maximum=FLOAT_INT_MAX),
                        as_int("t", t, minimum=0, maximum=FLOAT_INT_MAX))


@overload
def Q_all(n: Int, k: Int, *, method: Literal["float"] = ..., dps: None = ...) -> FloatArray: ...
@overload
def Q_all(n: Int, k: Int, *, method: Literal["mp"], dps: int | None = ...) -> list[mpf]: ...
def Q_all(n: Int, k: Int, *, method: FloatOrMp = "float", dps: int | None = None) -> FloatArray | list[mpf]:
    r"""``[Q_{n,0}, ..., Q_{n,k}]`` as a float64 array in O(k) time (``method="mp"``: a list of mpf).

    Cumulative sums of ``log1p(j/n)`` and ``log1p(-j/n)``, then ``Q = (n/((k+1)(k+2))) e^a (1 - e^{b-a})``:
    no cancellation in any regime (sub-, critical, supercritical; ``k + 2 > n`` included). Entries beyond
    float64's range are ``inf`` (use :func:`log_Q`). Relative error grows like ``(1 + a_j) * sqrt(j) * eps``
    from the plain cumulative sums (:func:`Q` and :func:`S` use compensated sums). Source: Theorem 2.1.

    ``method="mp"``: the products ``n^(m)/n^m`` and ``n_(m)/n^m`` updated term by term at ``dps`` digits
    plus guard bits for their difference (``log2 n`` bits at small m) and the ``k`` roundings; O(k).

    Parameters
    ----------
    n : int
        Width, ``n >= 1``.
    k : int
        Last depth, ``0 <= k <= MAX_LENGTH - 2`` (the array has ``k + 1`` entries); ``k <= MAX_QALL_MP_T``
        (1e5) for "mp", an O(k) loop of mpf products.
    method : {"float", "mp"}
        A float64 array, or a list of ``mpmath.mpf``.
    dps : int, optional
        Digits for "mp"; None: the ambient ``mpmath.mp.dps``.

    Returns
    -------
    numpy.ndarray or list of mpmath.mpf
        ``Q_{n,j}`` for ``j = 0..k``.

    Raises
    ------
    TypeError, ValueError
        As for :func:`Q`; ``k`` beyond the array bound.

    Examples
    --------
    >>> np.allclose(Q_all(4, 3), [1, 1, 17/16, 21/16], rtol=1e-14, atol=0)
    True
    >>> [str(q) for q in Q_all(4, 3, method="mp", dps=10)]
    ['1.0', '1.0', '1.0625', '1.3125']
    """
    n = as_int("n", n, minimum=1, maximum=FLOAT_INT_MAX)
    method, dps = _check_log_method(method, dps)
    # mp: an O(k) loop of mpf products (1-3 s for 1e5 depths at 30 digits): a stated maximum
    k = as_int("k", k, minimum=0, maximum=(MAX_QALL_MP_T if method == "mp" else MAX_LENGTH - 2))
    if method == "mp":
        return _mp._Q_all_mp(n, k, dps)
    return _float._Q_all_float(n, k)


# The public functions defined in the private submodules are this package's: the API site documents a module's
# own members (autosummary, imported members off), so without this they would have no page at all. Doctests
# still run in the defining file (doctest matches functions by their globals, not by __module__).
for _name in __all__:
    _obj = globals()[_name]
    if callable(_obj) and getattr(_obj, "__module__", "").startswith(f"{__name__}._"):
        _obj.__module__ = __name__
del _name, _obj
