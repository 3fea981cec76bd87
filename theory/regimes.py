r"""The three depth-width regimes of linear recurrences with Ginibre weights, and the feedforward contrast.

Source: M. Seleznova, "How Long Does Infinite Width Last? Signal Propagation in Long-Range Linear
Recurrences", arXiv:2605.05113 (2026); the forms below are those of ``docs/papers/signal-propagation.md``
(re-derived there and checked against exact values by ``validation/checks/signal_energy.py``).

Conventions (as :mod:`theory.signal_energy`): ``W = G / sqrt(n)`` complex Ginibre, ``Q_{n,k}`` the free
energy after k steps, ``S_{n,t} = sum_{k=0}^{t} Q_{n,k}`` (t + 1 terms), and the scaling variable
``c = t / sqrt(n)`` (or ``k / sqrt(n)``). With ``y = c^2 / 2``:

.. math::

    f(c) = \frac{2}{c^2}\sinh\frac{c^2}{2} = \frac{\sinh y}{y}
         = \sum_{j\ge 0}\frac{y^{2j}}{(2j+1)!},\qquad f(0) = 1,

    F(c) = \int_0^c f(x)\,dx = \sum_{j\ge 0}\frac{c^{4j+1}}{4^j\,(2j+1)!\,(4j+1)}
         = \sqrt{\pi/2}\,\bigl(\mathrm{erfi}(c/\sqrt2) + \mathrm{erf}(c/\sqrt2)\bigr) - \frac{2\sinh(c^2/2)}{c}.

* subcritical ``t = o(sqrt n)``: ``Q -> 1``, ``S ~ t + 1``, ``S/(t+1) - 1 ~ t^4 / (120 n^2)``;
* critical ``t ~ c sqrt(n)``: ``Q_{n,k} -> f(c)``, ``S_{n,t} ~ sqrt(n) F(c)``;
* supercritical ``t >> sqrt(n)``: ``S ~ (n^2/t^3) exp(t^2/(2n))`` (plain form, ratio-accurate only for
  ``t << n^(2/3)``); uniform forms ``sqrt(n) F(t/sqrt n)`` (``t << n^(2/3)``) and
  ``Q_{n,t} rho/(rho - 1)``, ``rho = (n+t+1) t / (n (t+2))`` (all ``t >> sqrt n``).
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import Literal, overload

import mpmath
import numpy as np

from ._args import (FLOAT_INT_MAX, LOG_FLOAT_MAX, as_bool, as_choice, as_dps, as_int, as_int_array, as_real, as_real_array, elementwise,
                    scalar_or_array)
from ._args import FloatOrExact   # the Literal type of the method argument
from ._args import Field

__all__ = [
    "critical_curve", "critical_S_curve", "critical_correction", "Q_critical_form", "S_critical_form",
    "S_subcritical_deviation", "S_supercritical_form", "S_geometric_form", "regime", "REGIMES",
    "C_SUBCRITICAL", "C_SUPERCRITICAL", "breakdown_depth", "feedforward_mean", "feedforward_second_moment",
]

REGIMES = ("subcritical", "critical", "supercritical")
C_SUBCRITICAL = 0.5      # below: S/(t+1) - 1 ~ c^4/120 < 6e-4 and Q - 1 < 0.3%: infinite width holds
C_SUPERCRITICAL = 3.0    # above: Q_{n,t} ~ f(3) = 10, finite-width growth dominates by an order of magnitude

_SERIES_Y = 1e-3     # below this y = c^2/2, sinh(y)/y from its series (c = 0 and underflow of c^2)
_LARGE_Y = 20.0      # above, sinh(y)/y = exp(y - log 2y) (1 - e^{-2y}): finite past sinh's overflow
_MP_MAX_LOG10_C = 1000   # mp paths: |c| <= 1e1000 (guard digits ~ 2 log10 |c|, up to ~ 4000 for F)


def _elementwise(fn, dtype, **arrays):
    """:func:`theory._args.elementwise` over integer arrays (``n >= 1``, the others ``>= 0``)."""
    return elementwise(fn, dtype, arrays, lambda k, v: as_int_array(k, v, minimum=1 if k == "n" else 0))


def _amplification_digits(c) -> int:
    """Guard digits for ``e^(c^2/2)``: its relative error is the absolute error of ``y = c^2/2``, i.e. ``y``
    times the working precision's unit: ``log10(y)`` digits more (the amplification by exp of a large
    argument), with ``2 log10(1 + |c|)`` as the bound."""
    with mpmath.workdps(15):
        digits = int(2 * mpmath.log10(1 + abs(_to_mpf(c)))) + 1
    if digits > 2 * _MP_MAX_LOG10_C + 1:       # the guard's cost grows with log |c|: a stated maximum
        raise ValueError(f"c must satisfy |c| <= 1e{_MP_MAX_LOG10_C} on the mp path (guard digits ~ 2 log10 |c|), "
                         f"got {mpmath.nstr(_to_mpf(c), 5)}")
    return digits


def _mp_curve(c, dps):
    """sinh(y)/y at ``dps`` digits, local precision (y = c^2/2; guard digits for exp's amplification)."""
    with mpmath.workdps(dps + 10 + _amplification_digits(c)):
        y = _to_mpf(c) ** 2 / 2
        out = mpmath.mpf(1) if y == 0 else mpmath.sinh(y) / y
    with mpmath.workdps(dps):
        return +out


def critical_curve(c, *, dps: int | None = None):
    r"""The critical-regime limit of the free energy, ``f(c) = (2/c^2) sinh(c^2/2)``, ``f(0) = 1``.

    Source: Seleznova (2026), critical regime (``docs/papers/signal-propagation.md``, "The three regimes"):
    ``Q_{n,k} -> f(c)`` as ``n -> infinity`` with ``k = c sqrt(n)``. Domain: any real ``c`` (f is even)
    or an array of them; vectorised over numpy arrays (returns an array of the same shape; a scalar
    gives a float). With ``y = c^2/2``:

    .. math:: f(c) = \frac{\sinh y}{y} = \sum_{j \ge 0} \frac{y^{2j}}{(2j+1)!} .

    Float path: the series ``1 + y^2/6 + y^4/120`` for ``y < 1e-3`` (no 0/0 at c = 0, no underflow of
    c^2), ``sinh(y)/y`` in between, ``exp(y - log(2y)) (1 - e^{-2y})`` for ``y > 20`` (finite up to
    ``c ~ 37.8``; ``inf`` beyond float64's range). Relative error <= ``(4 + c^2) eps``: f's own
    condition number is ``c f'/f ~ c^2``, so that is what rounding ``c^2`` costs.
    ``dps``: an ``mpmath.mpf`` to ``dps`` digits instead (scalar ``c`` only; local precision).

    Parameters
    ----------
    c : float or array of float
        Depth in units of ``sqrt(n)``, ``c = k / sqrt(n)``; any finite real (an int, a Fraction or an
        ``mpf`` too on the mp path).
    dps : int, optional
        None: the float path. Otherwise the mp path at ``dps`` decimal digits (``MIN_DPS..MAX_DPS``).

    Returns
    -------
    float, numpy.ndarray or mpmath.mpf
        ``f(c)``; ``inf`` past float64's range on the float path.

    Raises
    ------
    TypeError
        ``c`` is not real (or an array of reals), ``dps`` not an integer.
    ValueError
        ``c`` is NaN or infinite, ``dps`` out of range.

    Examples
    --------
    >>> critical_curve(0.0)
    1.0
    >>> abs(critical_curve(2.0) - math.sinh(2.0) / 2.0) < 1e-15
    True
    >>> critical_curve(np.array([0.0, 1e-200])).tolist()
    [1.0, 1.0]
    >>> import mpmath
    >>> mpmath.nstr(critical_curve(2, dps=30), 25)      # sinh(2)/2
    '1.813430203923509383834107'
    """
    if dps is not None:
        dps = as_dps(dps)
        return _mp_curve(_as_mp_real("c", c), dps)
    arr = as_real_array("c", c)
    with np.errstate(over="ignore"):
        y = 0.5 * arr * arr
    out = np.empty_like(y)
    small = y < _SERIES_Y
    large = y > _LARGE_Y
    mid = ~(small | large)
    ys = y[small]
    y2 = ys * ys
    out[small] = 1.0 + y2 * (1.0 / 6.0 + y2 / 120.0)
    out[mid] = np.sinh(y[mid]) / y[mid]
    yl = y[large]
    with np.errstate(over="ignore", invalid="ignore"):     # c^2 itself overflows past c ~ 1.3e154: f = inf
        out[large] = np.where(np.isinf(yl), np.inf, np.exp(yl - np.log(2.0 * yl)) * -np.expm1(-2.0 * yl))
    return scalar_or_array(out)


def _as_mp_real(name, value):
    """A finite real scalar (int, Fraction, float, numpy real, mpf) for the mp paths, kept exact."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, mpmath.mpf)):
        raise TypeError(f"{name} must be a real scalar when dps is given, got {type(value).__name__} {value!r}")
    if isinstance(value, Fraction):
        return value
    if not mpmath.isfinite(value if isinstance(value, mpmath.mpf) else float(value)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return value if isinstance(value, (int, mpmath.mpf)) else float(value)


def _to_mpf(x):
    """mpf at the current working precision; Fractions divided there (not via float)."""
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    return mpmath.mpf(x)


# --------------------------------------------------------------------------------------------------
# the integrated curve F(c) = int_0^c f
# --------------------------------------------------------------------------------------------------
_F_ASYMPTOTIC_Y = 80.0   # above: F = e^y/c^3 sum (2m+1)!!/c^(2m); the series needs ~y terms, this ~25


def critical_S_curve(c, *, dps: int | None = None):
    r"""The critical-regime limit of the driven energy, ``F(c) = integral_0^c f(x) dx``.

    Source: Seleznova (2026), critical regime (``docs/papers/signal-propagation.md``): ``S_{n,t} ~ sqrt(n) F(c)``
    with ``c = t/sqrt(n)``, relative error ``O(n^(-1/2))``. Domain: real ``c`` (F is odd) or arrays.

    .. math::

        F(c) = \sum_{j\ge 0} \frac{c^{4j+1}}{4^j (2j+1)! (4j+1)}
             = \sqrt{\pi/2}\,\bigl(\mathrm{erfi}(c/\sqrt2) + \mathrm{erf}(c/\sqrt2)\bigr) - \frac{2\sinh(c^2/2)}{c}
             \sim \frac{e^{c^2/2}}{c^3} \sum_{m\ge 0} \frac{(2m+1)!!}{c^{2m}} \quad (c \to \infty).

    (The closed form follows by parts: ``int 2 sinh(x^2/2)/x^2 = -2 sinh(x^2/2)/x + 2 int cosh(x^2/2)``.)
    Float path (vectorised): the power series, all terms positive (no cancellation), for
    ``y = c^2/2 <= 80``; beyond, the asymptotic series (plus the ``sqrt(pi/2) erf`` term), whose terms
    are below 1e-17 after ~25 steps there. Relative error <= ``(16 + c^2) eps``; ``inf`` past float64
    (``|c| > ~37.9``). ``dps``: the closed form in mpmath (erfi, erf) with guard digits for its
    cancellation, to ``dps`` digits (scalar ``c``).

    Parameters
    ----------
    c : float or array of float
        Depth in units of ``sqrt(n)``, ``c = t / sqrt(n)``; any finite real.
    dps : int, optional
        None: the float path. Otherwise the mp path at ``dps`` digits, ``5 <= dps <= 3000`` (erfi costs
        0.1 s at 3000 digits).

    Returns
    -------
    float, numpy.ndarray or mpmath.mpf
        ``F(c)``; ``inf`` past float64's range on the float path.

    Raises
    ------
    TypeError
        ``c`` is not real, ``dps`` not an integer.
    ValueError
        ``c`` is NaN or infinite, ``dps`` out of range.

    Examples
    --------
    >>> critical_S_curve(0.0)
    0.0
    >>> abs(critical_S_curve(1.0) - (1 + 1/120 + 1/17280)) < 1e-6     # series, j = 0, 1, 2
    True
    >>> x = np.array([0.5, 3.0, 13.0])
    >>> bool(np.all(np.abs(critical_S_curve(x) / np.array([float(critical_S_curve(v, dps=30)) for v in x]) - 1) < 1e-14))
    True
    """
    if dps is not None:
        dps = as_int("dps", dps, minimum=5, maximum=3000)      # erfi: 0.1 s at 3000 digits, 3 s at 10,000
        return _mp_S_curve(_as_mp_real("c", c), dps)
    arr = as_real_array("c", c)
    sign = np.sign(arr)
    a = np.abs(arr)
    y = 0.5 * a * a
    out = np.zeros_like(a)
    ser = (y <= _F_ASYMPTOTIC_Y) & (a > 0)
    if np.any(ser):
        out[ser] = _F_series(a[ser])
    asy = y > _F_ASYMPTOTIC_Y
    if np.any(asy):
        out[asy] = _F_asymptotic(a[asy])
    out *= sign
    return scalar_or_array(out)


def _F_series(c: np.ndarray) -> np.ndarray:
    # term_{j+1}/term_j = (c^4/4) (4j+1) / ((2j+2)(2j+3)(4j+5)); terms rise until 2j ~ y, then fall fast
    c4 = c**4 / 4.0
    term = c.copy()
    total = c.copy()
    j = 0
    while True:
        term *= c4 * (4 * j + 1) / ((2 * j + 2) * (2 * j + 3) * (4 * j + 5))
        total += term
        j += 1
        if np.all(term <= 1e-17 * total) and 2 * j > c4.max() ** 0.5:
            return total


def _F_asymptotic(c: np.ndarray) -> np.ndarray:
    from scipy.special import erf

    inv = 1.0 / (c * c)
    term = np.ones_like(c)
    acc = np.ones_like(c)
    m = 0
    while np.any(term > 1e-17 * acc):
        term *= (2 * m + 3) * inv
        acc += term
        m += 1
    with np.errstate(over="ignore"):
        lead = np.exp(0.5 * c * c - 3.0 * np.log(c))
        return lead * acc + math.sqrt(math.pi / 2) * erf(c / math.sqrt(2.0))


def _mp_S_curve(c, dps):
    # erfi + erf and 2 sinh(y)/c cancel to ~ 1/c^2 (2 log10 c digits), and exp(c^2/2) inside both amplifies
    # the rounding of c^2/2 by c^2 (2 log10 c digits more): at c = 1e30 the guard of the cancellation alone
    # gave a negative F
    guard = 2 * _amplification_digits(c) + 5
    with mpmath.workdps(dps + 10 + guard):
        x = _to_mpf(c)
        if x == 0:
            out = mpmath.mpf(0)
        else:
            z = x / mpmath.sqrt(2)
            out = mpmath.sqrt(mpmath.pi / 2) * (mpmath.erfi(z) + mpmath.erf(z)) - 2 * mpmath.sinh(x * x / 2) / x
    with mpmath.workdps(dps):
        return +out


# --------------------------------------------------------------------------------------------------
# the first O(n^-1/2) correction in the critical regime
# --------------------------------------------------------------------------------------------------
def critical_correction(c):
    r"""The first finite-width correction to the critical free energy: ``g(c)`` in ``Q = f(c) + g(c)/sqrt(n)``.

    In the critical regime ``Q_{n,k} = f(c) + g(c)/sqrt(n) + O(1/n)`` with ``c = k/sqrt(n)`` exactly (not
    ``(k+1)/sqrt(n)``) and ``f`` the limit curve (:func:`critical_curve`). Source:
    ``docs/papers/signal-propagation.md`` (critical regime, first correction, re-derived from Theorem 2.1 of
    Seleznova 2026); complex Ginibre weights ``W = G/sqrt(n)``. With ``y = c^2/2``,

    .. math::

        Q = \frac{2}{c^2}\Bigl[\sinh y\,\Bigl(1 - \frac{c^3}{6\sqrt n} - \frac{3}{c\sqrt n}\Bigr)
            + \frac{3c}{2\sqrt n}\cosh y\Bigr] + O(1/n),\qquad
        g(c) = \frac{3}{c}\Bigl(\cosh y - \frac{\sinh y}{y}\Bigr) - \frac{c}{3}\sinh y .

    ``cosh y - sinh(y)/y = sum_{j>=1} 2j y^(2j)/(2j+1)!`` is summed as a series for ``y < 1`` (it cancels
    there); ``g(c) = c^3/12 + O(c^7)`` at small c, matching ``C(k+2,4)/n^2 = k^4/(24n^2) + k^3/(12n^2) + ...``.
    For ``y > 20`` (``c > 6.3``), ``g = (e^y/2)(3/c - 6/c^3 - c/3)`` to within ``e^{-y}``, evaluated in log form
    (``-inf`` past float64). Domain: real ``c >= 0``, or an array of them (vectorised).

    Parameters
    ----------
    c : float or array of float
        Depth in units of ``sqrt(n)``, ``c = k / sqrt(n)``; finite, ``c >= 0``.

    Returns
    -------
    float or numpy.ndarray
        ``g(c)`` (an array of the shape of ``c`` for an array); ``-inf`` past float64's range.

    Raises
    ------
    TypeError
        ``c`` is not real (or an array of reals).
    ValueError
        ``c`` is NaN, infinite or negative.

    Examples
    --------
    >>> critical_correction(0.0)
    0.0
    >>> abs(critical_correction(1e-3) / 1e-9 - 1 / 12) < 1e-9       # g = c^3/12 + O(c^7)
    True

    Against the exact energy at ``n = 10**12``, ``k = 10**6`` (``c = 1``): ``sqrt(n) (Q - f(1))`` is ``g(1)``
    up to the ``O(1/n)`` term, i.e. to about ``1/sqrt(n) = 1e-6``:

    >>> from theory.signal_energy import Q
    >>> g1 = (Q(10**12, 10**6, method="mp", dps=30) - critical_curve(1.0)) * 10**6
    >>> abs(g1 - critical_correction(1.0)) < 1e-5
    True

    Large ``c`` (the log form) against the closed form in 30-digit arithmetic:

    >>> with mpmath.workdps(30):
    ...     c = mpmath.mpf(7)
    ...     y = c * c / 2
    ...     g = 3 / c * (mpmath.cosh(y) - mpmath.sinh(y) / y) - c / 3 * mpmath.sinh(y)
    ...     bool(abs(critical_correction(7.0) / g - 1) < 1e-13)
    True
    """
    arr = as_real_array("c", c)
    if np.any(arr < 0):
        raise ValueError("c must be >= 0")
    y = 0.5 * arr * arr
    bracket = np.empty_like(y)                  # cosh y - sinh(y)/y
    small = y < 1.0
    ys = y[small]
    term = np.ones_like(ys)
    acc = np.zeros_like(ys)
    y2 = ys * ys
    for j in range(1, 12):                      # y < 1: terms below 1e-17 of the sum by j = 11
        term = term * y2 / ((2 * j) * (2 * j + 1))
        acc += 2 * j * term
    bracket[small] = acc
    mid = ~small & (y <= _LARGE_Y)
    bracket[mid] = np.cosh(y[mid]) - np.sinh(y[mid]) / y[mid]
    g = np.zeros_like(y)
    pos = (arr > 0) & (y <= _LARGE_Y)
    g[pos] = 3.0 * bracket[pos] / arr[pos] - arr[pos] / 3.0 * np.sinh(y[pos])
    # y > 20: g = (e^y / 2) (3/c - 6/c^3 - c/3) up to e^{-y}; the bracket is negative (c > 6), evaluated
    # in log form so that it reaches -inf only where g itself leaves float64
    big = y > _LARGE_Y
    cb = arr[big]
    h = 3.0 / cb - 6.0 / cb**3 - cb / 3.0
    with np.errstate(over="ignore"):
        g[big] = -np.exp(y[big] - math.log(2.0) + np.log(-h))
    return scalar_or_array(g)


def Q_critical_form(n, k, *, corrected: bool = True) -> float:
    r"""The critical-regime approximation of ``Q_{n,k}``: ``f(c)`` or ``f(c) + g(c)/sqrt(n)``, ``c = k/sqrt n``.

    Source: ``docs/papers/signal-propagation.md`` (Seleznova 2026, critical regime). Error ``O(n^(-1/2))`` for
    ``f`` alone and ``O(1/n)`` with the correction, at fixed ``c``. Domain: integers ``n >= 1``, ``k >= 0``.

    Far outside the critical window both terms overflow: the sum is then formed as
    ``f (1 + (g/f)/sqrt(n))`` with the large-c ratio ``g/f = 3c/2 - 3/c - c^3/6`` (+inf, never nan).
    With ``corrected``, the domain also requires ``|g/f| / sqrt(n) <= 1/2`` (the correction at most half the
    leading term, about ``k^3 <= 3 n^2``); beyond, the expansion has broken down and a ValueError is raised.
    ``n`` and ``k`` may be integer arrays (broadcast; a float64 array out).

    >>> Q_critical_form(10**6, 0, corrected=False)
    1.0
    >>> Q_critical_form(np.array([10**4, 10**6]), 100, corrected=False).tolist() == [critical_curve(1.0), critical_curve(0.1)]
    True
    """
    corrected = as_bool("corrected", corrected)
    out = _elementwise(lambda n, k: _Q_critical_form(n, k, corrected), np.float64, n=n, k=k)
    if out is not None:
        return out
    return _Q_critical_form(as_int("n", n, minimum=1, maximum=FLOAT_INT_MAX), as_int("k", k, minimum=0, maximum=FLOAT_INT_MAX), corrected)


def _Q_critical_form(n: int, k: int, corrected: bool) -> float:
    c = k / math.sqrt(n)
    f = critical_curve(c)
    if not corrected:
        return f
    g = critical_correction(c)
    out = f + g / math.sqrt(n)
    if math.isnan(out):         # inf - inf past float64: f (1 + (g/f)/sqrt n), g/f from the y > 20 forms
        ratio = 1.5 * c - 3.0 / c - c**3 / 6.0
        out = f * (1.0 + ratio / math.sqrt(n))
    else:
        ratio = g / f if math.isfinite(f) and f else 0.0
    if abs(ratio) / math.sqrt(n) > _MAX_CORRECTION:
        raise ValueError(f"n={n}, k={k} is outside the domain of the corrected critical form: its correction is "
                         f"{ratio / math.sqrt(n):+.3g} times the leading term (allowed: |g/f|/sqrt(n) <= "
                         f"{_MAX_CORRECTION}, about k^3 <= 3 n^2); use corrected=False or theory.signal_energy.Q")
    return out


# the first-order expansion is used only while its correction is at most half the leading term: beyond, the
# expansion has broken down (at n=1, k=32 it would give -1.2e223 for Q = 2.6e35)
_MAX_CORRECTION = 0.5


def S_critical_form(n, t, *, log: bool = False) -> float:
    r"""``sqrt(n) F(t/sqrt n)``: the critical limit of ``S_{n,t}``, also a uniform form for ``t << n^(2/3)``.

    Source: ``docs/papers/signal-propagation.md`` (Seleznova 2026, critical and supercritical regimes).
    Relative error ``O(n^(-1/2))`` at fixed ``c``; in the supercritical range it stays accurate while
    ``t << n^(2/3)`` (measured: relative error ~ ``t^3/(6n^2)``). Domain: integers ``n >= 1``, ``t >= 0``
    (``t >= 1`` with ``log``); ``inf`` past float64 unless ``log`` (natural log, via the mp closed form
    of F when F overflows).

    >>> S_critical_form(10**6, 0)
    0.0
    >>> import mpmath
    >>> abs(S_critical_form(10**4, 10**4, log=True) - float(mpmath.log(100 * critical_S_curve(100, dps=20)))) < 1e-9
    True
    """
    log = as_bool("log", log)
    n = as_int("n", n, minimum=1, maximum=FLOAT_INT_MAX)
    t = as_int("t", t, minimum=1 if log else 0, maximum=FLOAT_INT_MAX)
    c = t / math.sqrt(n)
    F = critical_S_curve(c)
    if not log:
        return math.sqrt(n) * F
    if math.isfinite(F):
        return 0.5 * math.log(n) + math.log(F)
    with mpmath.workdps(25):
        return 0.5 * math.log(n) + float(mpmath.log(critical_S_curve(c, dps=20)))


def S_subcritical_deviation(n, t) -> float:
    r"""Leading relative deviation of ``S`` from infinite width, ``t^4 / (120 n^2)``.

    Source: ``docs/papers/signal-propagation.md`` (subcritical regime): ``S_{n,t} = t + 1 + C(t+3,5)/n^2 + ...``
    so ``S/(t+1) - 1 = C(t+3,5)/((t+1) n^2) + O(t^8/n^4) ~ t^4/(120 n^2)`` for ``1 << t << sqrt(n)``.
    Domain: integers ``n >= 1``, ``t >= 0``.

    >>> S_subcritical_deviation(10**4, 10) == 10**4 / (120 * 10**8)
    True
    """
    n = as_int("n", n, minimum=1, maximum=FLOAT_INT_MAX)
    t = as_int("t", t, minimum=0, maximum=FLOAT_INT_MAX)
    return t**4 / (120.0 * n * n)


def S_supercritical_form(n, t, *, log: bool = False) -> float:
    r"""The plain supercritical asymptotics ``S ~ (n^2/t^3) exp(t^2/(2n))`` (natural log if ``log``).

    Source: Seleznova (2026), supercritical regime (``docs/papers/signal-propagation.md``). Caveats (same
    page): relative corrections ~ ``3n/t^2`` (slow), and as a *ratio* it holds only for
    ``sqrt(n) << t << n^(2/3)``; beyond, a factor ``exp(-t^3/(6n^2))`` matters and the form is right
    only on a log scale (for ``t << n``). Prefer :func:`S_geometric_form`. Domain: ``n >= 1``, ``t >= 1``.

    >>> S_supercritical_form(100, 10, log=True) == math.log(100**2 / 10**3) + 0.5
    True
    """
    log = as_bool("log", log)
    n = as_int("n", n, minimum=1, maximum=FLOAT_INT_MAX)
    t = as_int("t", t, minimum=1, maximum=FLOAT_INT_MAX)
    value = 2.0 * math.log(n) - 3.0 * math.log(t) + t * (t / (2.0 * n))
    return value if log else _exp_or_raise(value, "S_supercritical_form", n, t)


def _rho(n: int, t: int) -> Fraction:
    return Fraction((n + t + 1) * t, n * (t + 2))


def S_geometric_form(n, t, *, log: bool = False) -> float:
    r"""Uniform supercritical form ``S ~ Q_{n,t} rho/(rho - 1)``, ``rho = (n+t+1) t / (n (t+2))``.

    Source: ``docs/papers/signal-propagation.md`` (Seleznova 2026, supercritical regime, "Supercritical caveats").
    ``rho`` is the ratio ``Q_{n,t}/Q_{n,t-1}`` without the falling-factorial term, so this is the
    geometric sum of the last terms; valid for all ``t >> sqrt(n)`` (requires ``rho > 1``, i.e.
    ``t(t+1) > 2n``). ``Q_{n,t}`` is exact (:func:`theory.signal_energy.Q` / ``log_Q``). Natural log if
    ``log``. Domain: integers ``n >= 1``, ``t >= 1`` with ``t(t+1) > 2n``.

    >>> S_geometric_form(1, 2)        # rho = 2: Q_{1,2} = 2! = 2, times rho/(rho-1) = 2
    4.0
    """
    from .signal_energy import log_Q

    log = as_bool("log", log)
    n = as_int("n", n, minimum=1, maximum=FLOAT_INT_MAX)
    t = as_int("t", t, minimum=1, maximum=FLOAT_INT_MAX)
    if t * (t + 1) <= 2 * n:
        raise ValueError(f"t must satisfy t(t+1) > 2n (rho > 1) for the geometric form; got n={n}, t={t}")
    rho = _rho(n, t)
    value = log_Q(n, t) + math.log(rho / (rho - 1))
    return value if log else _exp_or_raise(value, "S_geometric_form", n, t)


def _exp_or_raise(log_value: float, name: str, n: int, t: int) -> float:
    if log_value > LOG_FLOAT_MAX:
        raise OverflowError(f"{name}(n={n}, t={t}) = exp({log_value:.6g}) exceeds float64; use log=True")
    return math.exp(log_value)


# --------------------------------------------------------------------------------------------------
# regime classification
# --------------------------------------------------------------------------------------------------
def regime(n, t, *, c_sub: float = C_SUBCRITICAL, c_super: float = C_SUPERCRITICAL) -> str:
    r"""Which depth-width regime ``(n, t)`` is in, by ``c = t/sqrt(n)``.

    The regimes are asymptotic (Seleznova 2026; ``docs/papers/signal-propagation.md``): subcritical
    ``t = o(sqrt n)``, critical ``t ~ c sqrt n``, supercritical ``t >> sqrt n``. At finite size the
    toolkit draws the lines at

    * ``c < c_sub = 0.5``: "subcritical" -- ``S/(t+1) - 1 ~ c^4/120 < 6e-4`` and ``Q - 1 < 0.3%``:
      infinite width is a good description;
    * ``c > c_super = 3``: "supercritical" -- ``Q_{n,t} ~ f(3) ~ 10``: finite-width growth dominates by
      an order of magnitude and ``S`` is carried by its last ~ ``n/t`` terms;
    * otherwise "critical" (``c_sub <= c <= c_super``).

    Both thresholds are keyword arguments (``0 <= c_sub <= c_super``). Domain: integers ``n >= 1``, ``t >= 0``.

    ``n`` and ``t`` may be integer arrays (broadcast; an array of strings out).

    Parameters
    ----------
    n : int or array of int
        Width, ``n >= 1``.
    t : int or array of int
        Depth, ``t >= 0``.
    c_sub, c_super : float
        The lines between the regimes, ``0 <= c_sub <= c_super`` (defaults 0.5 and 3).

    Returns
    -------
    str or numpy.ndarray of str
        "subcritical", "critical" or "supercritical".

    Raises
    ------
    TypeError
        ``n`` or ``t`` not an integer, ``c_sub`` or ``c_super`` not real.
    ValueError
        ``n < 1``, ``t < 0``, a negative threshold, or ``c_super < c_sub``.

    Examples
    --------
    >>> regime(1024, 8), regime(1024, 64), regime(1024, 200)
    ('subcritical', 'critical', 'supercritical')
    >>> regime(1024, np.array([8, 64, 200])).tolist()
    ['subcritical', 'critical', 'supercritical']
    """
    c_sub = as_real("c_sub", c_sub, minimum=0.0)
    c_super = as_real("c_super", c_super, minimum=0.0)
    if c_super < c_sub:
        raise ValueError(f"c_super must be >= c_sub, got c_sub={c_sub}, c_super={c_super}")
    out = _elementwise(lambda n, t: _regime(n, t, c_sub, c_super), "<U13", n=n, t=t)
    if out is not None:
        return out
    return _regime(as_int("n", n, minimum=1, maximum=FLOAT_INT_MAX), as_int("t", t, minimum=0, maximum=FLOAT_INT_MAX), c_sub, c_super)


def _regime(n: int, t: int, c_sub: float, c_super: float) -> str:
    # compare t^2 with c^2 n in exact arithmetic: no float rounding of sqrt(n) for n = 10**18
    c2 = t * t
    if Fraction(c2, n) < Fraction(c_sub) ** 2:
        return REGIMES[0]
    if Fraction(c2, n) > Fraction(c_super) ** 2:
        return REGIMES[2]
    return REGIMES[1]


# --------------------------------------------------------------------------------------------------
# breakdown depth
# --------------------------------------------------------------------------------------------------
_QUANTITIES = ("S", "Q")
_FLOAT_REL_ERR = 4e-13     # safety margin on the documented 1e-13 relative error of the float paths
_MP_DPS = 40
MAX_BREAKDOWN_N = 10**18
MAX_BREAKDOWN_TOL = 1e6
_EXACT_MAX_BITS = 4e6      # exact tie-breaking only while n^(t+1) has at most this many bits


def _exceeds(n: int, t: int, quantity: str, tol: float) -> bool:
    """Whether ``|S_{n,t}/(t+1) - 1| > tol`` (or ``|Q_{n,t} - 1| > tol``), decided with certainty.

    Both deviations are >= 0 (Q >= 1). Float first; when the float value lies within its error bound
    of ``tol``, mp at 40 digits; when that is still undecided (an exact tie is possible, e.g. a dyadic
    tol equal to ``Q - 1``), exact rational arithmetic while affordable, else 100-digit mp.
    """
    from . import signal_energy as se

    terms = t + 1 if quantity == "S" else 1
    try:
        v = se.S(n, t) / terms if quantity == "S" else se.Q(n, t)
        if abs((v - 1.0) - tol) > _FLOAT_REL_ERR * v + 1e-16:
            return v - 1.0 > tol
    except OverflowError:
        lv = (se.log_S(n, t) if quantity == "S" else se.log_Q(n, t)) - math.log(terms)
        if abs(lv - math.log1p(tol)) > 1e-12 * max(1.0, abs(lv)):
            return lv > math.log1p(tol)
    fn = se.S if quantity == "S" else se.Q
    with mpmath.workdps(_MP_DPS):
        vm = fn(n, t, method="mp", dps=_MP_DPS) / terms
        diff = vm - 1 - mpmath.mpf(tol)
        if abs(diff) > mpmath.mpf(10) ** (5 - _MP_DPS) * vm:
            return diff > 0
    if (t + 1) * math.log2(n + 1) > _EXACT_MAX_BITS:
        # an exact tie is out of reach of exact arithmetic here; 100 digits decide any non-tie
        with mpmath.workdps(100):
            return fn(n, t, method="mp", dps=100) / terms - 1 > mpmath.mpf(tol)
    try:
        return fn(n, t, method="exact") / terms - 1 > Fraction(tol)
    except ValueError:          # beyond the documented cost bound of the exact path: 100 digits decide
        with mpmath.workdps(100):
            return fn(n, t, method="mp", dps=100) / terms - 1 > mpmath.mpf(tol)


def _guess_c(quantity: str, tol: float) -> float:
    """c with limit deviation F(c)/c - 1 = tol (S) or f(c) - 1 = tol (Q), by bisection on [0, 37]."""
    lo, hi = 0.0, 37.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        dev = (critical_S_curve(mid) / mid if quantity == "S" else critical_curve(mid)) - 1.0
        lo, hi = (mid, hi) if dev <= tol else (lo, mid)
    return hi


def breakdown_depth(n, tol, *, quantity: str = "S") -> int:
    r"""The depth where width-n Glorot stops behaving like infinite width, to tolerance ``tol``.

    ``t*(n, tol) = min{t >= 0 : |S_{n,t}/(t+1) - 1| > tol}`` (``quantity="S"``, driven recurrence) or
    ``min{k : |Q_{n,k} - 1| > tol}`` (``quantity="Q"``, free recurrence); exact closed forms of
    Seleznova (2026), Theorem 2.1 (``docs/papers/signal-propagation.md``, "Breakdown depth").

    Both deviations are non-decreasing in t (``Q_{n,k}`` increases with k and ``S/(t+1)`` is the mean of
    ``Q_{n,0..t}``), so the set is an interval ``[t*, inf)``. The search starts at the critical-limit
    guess ``c sqrt(n)`` (``F(c)/c - 1 = tol``, resp. ``f(c) - 1 = tol``), gallops outwards by doubling
    steps and bisects: a handful of evaluations (the guess is off by O(1) steps at large n), so
    ``n = 10**18`` takes milliseconds for Q and about a second for S (Euler-Maclaurin sums); tiny
    tolerances (< 1e-10) at huge n need the 40-digit path near the boundary and take seconds. Every comparison is certified (float, then 40-digit mp, then exact
    rationals if still tied). For large n, ``t* ~ c(tol) sqrt(n)``: the sqrt(n) law
    (``c ~ (120 tol)^(1/4)`` for S and ``(24 tol)^(1/4)`` for Q at small tol).

    Domain: integer ``1 <= n <= MAX_BREAKDOWN_N = 10**18`` (beyond, the certified S sums take minutes), real
    ``0 < tol <= MAX_BREAKDOWN_TOL = 1e6``, ``quantity`` in ("S", "Q"). ``n`` may be an integer array
    (an int64 array out).

    Parameters
    ----------
    n : int or array of int
        Width, ``1 <= n <= 10**18``.
    tol : float
        Tolerance on the relative deviation from infinite width, ``0 < tol <= 1e6``.
    quantity : {"S", "Q"}
        The driven energy ``S/(t+1)`` (default) or the free energy ``Q``.

    Returns
    -------
    int or numpy.ndarray of int64
        The first depth whose deviation exceeds ``tol``.

    Raises
    ------
    TypeError
        ``n`` not an integer, ``tol`` not real, ``quantity`` not a string.
    ValueError
        ``n`` or ``tol`` out of range, an unknown ``quantity``.

    Examples
    --------
    >>> breakdown_depth(4, 1/16, quantity="Q")    # Q_{4,2} - 1 = 1/16 exactly (not > tol); Q_{4,3} - 1 = 5/16
    3
    >>> t = breakdown_depth(10**18, 1e-3)          # sqrt(n) law: t* / sqrt(n) -> (120 tol)^(1/4)
    >>> abs(t / 1e9 / 0.12 ** 0.25 - 1) < 1e-3
    True
    """
    tol = as_real("tol", tol, minimum=0.0, maximum=MAX_BREAKDOWN_TOL, open_min=True)
    quantity = _as_quantity(quantity)
    out = _elementwise(lambda n: _breakdown_depth(n, tol, quantity), np.int64, n=n)
    if out is not None:
        return out
    return _breakdown_depth(as_int("n", n, minimum=1, maximum=MAX_BREAKDOWN_N), tol, quantity)


def _breakdown_depth(n: int, tol: float, quantity: str) -> int:
    as_int("n", n, minimum=1, maximum=MAX_BREAKDOWN_N)

    def ok(t):
        return not _exceeds(n, t, quantity, tol)

    guess = max(0, int(round(_guess_c(quantity, tol) * math.sqrt(n))))
    # bracket: ok(lo) and not ok(hi)
    if ok(guess):
        lo, step = guess, 1
        hi = lo + step
        while ok(hi):
            lo, step = hi, step * 2
            hi = lo + step
    else:
        hi, step = guess, 1
        lo = hi - step
        while lo >= 0 and not ok(lo):
            hi, step = lo, step * 2
            lo = hi - step
        if lo < 0:
            if not ok(0):
                return 0
            lo = 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return hi


def _as_quantity(quantity):
    return as_choice("quantity", quantity, _QUANTITIES)


# --------------------------------------------------------------------------------------------------
# feedforward contrast
# --------------------------------------------------------------------------------------------------
_FIELDS = ("complex", "real")
_FF_METHODS = ("float", "exact")


@overload
def feedforward_mean(n: int, L: int, *, method: Literal["float"] = ...) -> float: ...
@overload
def feedforward_mean(n: int, L: int, *, method: Literal["exact"]) -> Fraction: ...
def feedforward_mean(n: int, L: int, *, method: FloatOrExact = "float") -> float | Fraction:
    r"""``E||W_L...W_1 x||^2 / ||x||^2 = 1`` exactly, for independent layers of the same law.

    Source: Seleznova (2026), feedforward contrast (``docs/papers/signal-propagation.md``): each layer
    multiplies the squared norm by an independent factor of mean 1 (complex or real Gaussian weights
    with variance 1/n), so there is **no** finite-width correction in the mean at any depth, unlike the
    recurrent ``Q_{n,k} = 1 + C(k+2,4)/n^2 + ...``. Domain: integers ``n >= 1``, ``L >= 0``.
    ``method``: "float" -> 1.0, "exact" -> Fraction(1).

    >>> feedforward_mean(7, 10**9), feedforward_mean(7, 3, method="exact")
    (1.0, Fraction(1, 1))
    """
    as_int("n", n, minimum=1)
    as_int("L", L, minimum=0)
    method = _as_ff_method(method)
    return Fraction(1) if method == "exact" else 1.0


@overload
def feedforward_second_moment(n: int, L: int, *, field: Field = ..., method: Literal["float"] = ...) -> float: ...
@overload
def feedforward_second_moment(n: int, L: int, *, field: Field = ..., method: Literal["exact"]) -> Fraction: ...
def feedforward_second_moment(n: int, L: int, *, field: Field = "complex",
                              method: FloatOrExact = "float") -> float | Fraction:
    r"""``E(||W_L...W_1 x||^2 / ||x||^2)^2 = (1 + 1/n)^L`` (complex) or ``(1 + 2/n)^L`` (real).

    Source: Seleznova (2026), feedforward contrast (``docs/papers/signal-propagation.md``). One layer:
    ``||Wx||^2 = sum_i |y_i|^2`` with iid ``y_i`` of variance ``1/n``; ``E|y|^4 = 2/n^2`` (complex) or
    ``3/n^2`` (real) gives ``1 + 1/n`` or ``1 + 2/n``; layers multiply independent factors. The second
    moment departs from 1 only at depth ``L ~ n`` (recurrent: ``t ~ sqrt n``). Domain: integers
    ``n >= 1``, ``L >= 0`` (``L <= 10**6`` with "exact": the Fraction has ~ L log2(n) bits); ``field`` in ("complex", "real"); ``method`` "float" (``exp(L log1p(a/n))``,
    accurate for huge n and L; OverflowError past float64) or "exact" (Fraction; cost grows with L).

    >>> feedforward_second_moment(2, 3, method="exact")
    Fraction(27, 8)
    >>> feedforward_second_moment(2, 3, field="real", method="exact")
    Fraction(8, 1)
    """
    n = as_int("n", n, minimum=1)
    L = as_int("L", L, minimum=0)
    field = as_choice("field", field, _FIELDS)
    method = _as_ff_method(method)
    a = 1 if field == "complex" else 2
    if method == "exact":
        as_int("L", L, maximum=10**6)
        return Fraction(n + a, n) ** L
    log_value = L * math.log1p(a / n)
    if log_value > LOG_FLOAT_MAX:
        raise OverflowError(f"feedforward_second_moment(n={n}, L={L}) exceeds float64")
    return math.exp(log_value)


def _as_ff_method(method):
    return as_choice("method", method, _FF_METHODS)
