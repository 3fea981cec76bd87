r"""Initialisation for a horizon: the weight scale that keeps a width-n linear recurrence critical up to depth t.

Source: M. Seleznova, "How Long Does Infinite Width Last? Signal Propagation in Long-Range Linear
Recurrences", arXiv:2605.05113 (2026), Theorem 2.1 (the exact energies ``Q_{n,k}``, ``S_{n,t}`` of
:mod:`theory.signal_energy`; ``docs/papers/signal-propagation.md``). The question and the tool are the
toolkit's own (not in the paper).

The question answered
---------------------
Weights ``W = sigma G / sqrt(n)``, ``G`` an ``n x n`` complex Ginibre matrix (``E|G_ij|^2 = 1``). Every
entry of ``W^k`` is a sum of products of k entries, so the energies scale exactly:

.. math::

    g_k(\sigma) := \frac{E\|W^k x\|^2}{E\|x\|^2} = \sigma^{2k} Q_{n,k}, \qquad
    \frac{E\|h(t)\|^2}{n} = \sum_{k=0}^{t} \sigma^{2k} Q_{n,k}
    \quad (h(t) = W h(t-1) + x(t),\ h(-1) = 0,\ E x x^* = I).

At infinite width (``Q = 1``) the scale ``sigma = 1`` is *critical*: the free recurrence preserves the
norm at every depth (``g_k = 1``) and every input of the driven recurrence is remembered with unit weight
(``E||h(t)||^2 / n = t + 1``). Because ``Q_{n,k} / 1`` does not depend on sigma, no scale removes the
finite-width deviation *relative to the same-sigma infinite-width network*; what a practitioner can choose
is sigma so that the width-n network stays close to the **critical infinite-width behaviour** over the whole
horizon. The tool answers, uniformly over the depths ``j = 0..t``:

.. math::

    \text{free (quantity "Q")}:\quad p_j(\sigma) = \sigma^{2j} Q_{n,j}, \qquad
    \text{driven (quantity "S")}:\quad p_j(\sigma) = \frac{1}{j+1}\sum_{k=0}^{j}\sigma^{2k}Q_{n,k}
    = \frac{E\|h(j)\|^2}{n\,(j+1)},

    \mathrm{dev}(\sigma; n, t) = \max_{0 \le j \le t} |p_j(\sigma) - 1| .

* the **feasible interval** ``[sigma_low, sigma_high] = {sigma : dev(sigma) <= tol}`` (empty when no
  scale works for this horizon);
* the **minimax scale** ``sigma* = argmin dev`` (reported as ``sigma``) and its deviation;
* the **endpoint scale** ``sigma_end`` with ``p_t(sigma_end) = 1`` exactly (energy at depth t equal to the
  critical infinite-width value; for Q, ``sigma_end = Q_{n,t}^{-1/(2t)}``);
* the deviation of plain **Glorot** (``sigma = 1``, see below): ``Q_{n,t} - 1`` resp. ``S_{n,t}/(t+1) - 1``.

Each ``p_j`` is increasing in sigma (positive coefficients), so ``{sigma : |p_j - 1| <= tol}`` is an
interval and the feasible set, an intersection of intervals, is one too; ``max_j p_j - 1`` increases and
``1 - min_j p_j`` decreases with sigma, so ``sigma*`` is where they cross (bisection). For Q the bounds are
explicit: ``log sigma_high^2 = min_j (log(1+tol) - log Q_j)/j``, ``log sigma_low^2 = max_j (log(1-tol) -
log Q_j)/j``. Since ``log Q_{n,k} ~ k^4/(24 n^2)`` grows faster than the ``2k log sigma`` a scale can
offset, a tuned scale extends the horizon only by a constant factor: the ``sqrt(n)`` law of
:func:`theory.regimes.breakdown_depth` remains (compare :func:`glorot_table`).

Glorot for a square matrix: Glorot/Xavier initialisation draws entries with variance
``2/(fan_in + fan_out)``, which for ``n x n`` is ``1/n``: exactly ``sigma = 1`` here (normal or uniform;
only the variance enters these second moments). For reference, PyTorch's ``nn.RNN`` default
``U(-1/sqrt n, 1/sqrt n)`` has variance ``1/(3n)``, i.e. ``sigma = 1/sqrt 3``; He/Kaiming (fan-in) has
``sigma = sqrt 2``.

Conventions and domain: complex Ginibre weights (real weights: the exact rows for t <= 60 and the large-n
expansion of :mod:`theory.real_expansion` beyond, at any t it serves; :mod:`numerics.signal_propagation.horizon_mc` adds Monte
Carlo as the check); ``S`` counts t + 1 inputs (x(0) included; if your inputs start at t = 1, your horizon
``t`` is the toolkit's ``t - 1``); integers ``n >= 1``, ``t >= 1``; ``0 < tol < 1``. The tool is about a
dense Gaussian recurrent matrix: a diagonal LRU/SSM parametrisation with prescribed eigenvalue moduli has
no finite-width correction of this kind.

Methods: ``"float"`` (float64 log-energies from :func:`theory.signal_energy.Q_all`, bisection to a
relative 1e-14 in ``log sigma``), ``"mp"`` (each ``Q_{n,k}`` from the mp closed form and every root refined
in mpmath at ``dps`` digits, local precision). sigma is an algebraic number (a root of a polynomial with
rational coefficients), so no ``"exact"`` method is offered for it; :func:`depth_for_scale` has one.

>>> r = sigma_for_horizon(1024, 40, 0.05, quantity="Q")
>>> r.glorot_deviation > 0.05 and r.feasible           # Glorot fails at t = 1.25 sqrt(n), a tuned sigma works
True
>>> r.sigma_low < r.sigma < r.sigma_high < 1.0 and r.deviation < 0.05
True
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from fractions import Fraction
from typing import cast

import mpmath
import numpy as np
from scipy.special import gammaln

from ._args import as_choice, as_dps, as_int, as_real, as_real_array, check_size
from ._args import Field, FloatOrExact, FloatOrMp, Quantity   # the Literal types of the option arguments
from ._types import mpf
from .signal_energy import Q as _Q
from .signal_energy import Q_all, trace_moment

__all__ = ["HorizonScale", "QUANTITIES", "METHODS", "log_energies", "gain_curve", "scale_from_energies",
           "sigma_for_horizon", "depth_for_scale", "max_horizon", "glorot_table"]

QUANTITIES = ("Q", "S")
METHODS = ("float", "mp")
DEPTH_METHODS = ("float", "exact")
_X_BRACKET = 60.0            # |log sigma^2| <= 60: sigma in [1e-13, 1e13], far outside any feasible scale
_MAX_T = 10**7               # O(t) arrays: a horizon beyond this is out of this tool's range
_SCALE_MAX_T = 500_000       # sigma_for_horizon (float): ~60 O(t) bisection sweeps, about 3 s at 5e5
_MP_MAX_T = 5_000            # method "mp": O(t) mp operations per bisection step (~8 s per 1000 depths)
_EXACT_MAX_T = 4_000         # depth_for_scale(method="exact"): O(t^2) big-integer work
MAX_HORIZON_N = 10**9        # max_horizon / glorot_table: ~2 s at n = 1e9 (t_max ~ sqrt(n), ~40 solves)
FIELDS = ("complex", "real")      # the Gaussian weight field (the vocabulary: field=)
REAL_ROWS_SOURCE = "exact real Wick rows (theory.real_rows)"
REAL_EXPANSION_SOURCE = "exact real Wick rows k <= 60, large-n expansion beyond (theory.real_expansion)"



# --------------------------------------------------------------------------------------------------
# result
# --------------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class HorizonScale:
    r"""The answer of the horizon problem: the weight scale that keeps a width-n recurrence near critical up to depth t.

    Weights ``W = sigma G/sqrt(n)`` (complex Ginibre ``G``, or real), ``p_j(sigma)`` the energy at depth j
    relative to the critical infinite-width value (``sigma^{2j} Q_{n,j}`` for ``quantity="Q"``, the running
    mean of those for ``"S"``: :func:`gain_curve`) and ``dev(sigma) = max_{0<=j<=t} |p_j(sigma) - 1|``
    (module docstring). The energies are exact (Seleznova 2026, Theorem 2.1, for complex weights); the
    question is the toolkit's own. Returned by :func:`sigma_for_horizon` and :func:`scale_from_energies`
    (and by :mod:`numerics.signal_propagation.horizon_mc` for estimated energies), not built by hand.
    Values are floats (``method="float"``) or ``mpmath.mpf`` (``method="mp"``).

    Parameters
    ----------
    n : int or None
        Width, recorded only (None when the energies were given without one).
    t : int
        The horizon: the last depth constrained, ``t >= 1``.
    tol : float
        Tolerance on ``dev``, ``0 < tol < 1``.
    quantity : {"Q", "S"}
        Free recurrence or driven recurrence (running mean).
    field : {"complex", "real"}
        The Gaussian field of the weight entries (the weight law of the energies).
    method : {"float", "mp"}
        float64, or mpmath at ``dps`` digits.
    source : str
        Where the energies came from (closed form, exact real rows, large-n expansion, Monte Carlo).
    sigma : float or mpmath.mpf
        The minimax scale ``argmin_sigma dev(sigma)``.
    deviation : float or mpmath.mpf
        ``dev(sigma)`` at the minimax scale.
    sigma_low, sigma_high : float, mpmath.mpf or None
        The feasible interval ``{sigma : dev(sigma) <= tol}``; both None when it is empty.
    sigma_endpoint : float or mpmath.mpf
        The root of ``p_t(sigma) = 1`` (for Q: ``Q_{n,t}^(-1/(2t))``).
    glorot_deviation : float or mpmath.mpf
        The deviation of plain Glorot (``sigma = 1``), signed: ``max_j p_j(1) - 1`` when the energies
        overshoot more than they undershoot, else ``-(1 - min_j p_j(1))``.
    dps : int or None
        Digits of the mp values; None for "float".
    se : dict
        Monte Carlo standard errors (jackknife over independent batches) of the fields computed from
        estimated energies; empty for closed forms and exact rows.

    Returns
    -------
    HorizonScale
        A frozen record; ``feasible`` says whether the interval is non-empty, ``to_dict()`` gives
        JSON-ready values (decimal strings of ``dps`` digits for mp values).

    Examples
    --------
    ``Q_{4,0..3} = 1, 1, 17/16, 21/16``; with ``tol = 1/2`` each depth bounds ``sigma^2``: ``[1/2, 3/2]``
    (j = 1), ``[(8/17)^(1/2), (24/17)^(1/2)]`` (j = 2), ``[(8/21)^(1/3), (24/21)^(1/3)]`` (j = 3), whose
    intersection is the last one:

    >>> r = sigma_for_horizon(4, 3, 0.5, quantity="Q")
    >>> r.feasible, abs(r.sigma_low - (8 / 21) ** (1 / 6)) < 1e-12, abs(r.sigma_high - (8 / 7) ** (1 / 6)) < 1e-12
    (True, True, True)
    >>> abs(r.sigma_endpoint - (16 / 21) ** (1 / 6)) < 1e-12, round(r.glorot_deviation, 12)    # Q_{4,3} - 1
    (True, 0.3125)
    >>> r.to_dict()["feasible"], r.se
    (True, {})
    """

    n: int | None
    t: int
    tol: float
    quantity: str
    field: str
    method: str
    source: str
    sigma: float | mpf
    deviation: float | mpf
    sigma_low: float | mpf | None
    sigma_high: float | mpf | None
    sigma_endpoint: float | mpf
    glorot_deviation: float | mpf
    dps: int | None = None
    se: dict[str, float] = dataclasses.field(default_factory=dict)
    init: str | None = None

    @property
    def feasible(self) -> bool:
        """Whether some scale keeps ``dev <= tol`` over the whole horizon."""
        return self.sigma_low is not None

    def to_dict(self) -> dict:
        """JSON-ready: floats, or decimal strings with ``dps`` digits for mp values."""
        def conv(v):
            if isinstance(v, mpmath.mpf):
                return mpmath.nstr(v, self.dps or 15)
            return None if v is None else float(v) if isinstance(v, (float, np.floating)) else v

        out = {f.name: conv(getattr(self, f.name)) for f in dataclasses.fields(self) if f.name != "se"}
        out["feasible"] = self.feasible
        out["se"] = {k: float(v) for k, v in self.se.items()}
        return out


# --------------------------------------------------------------------------------------------------
# energies and the gain curve
# --------------------------------------------------------------------------------------------------
def log_energies(n, k) -> np.ndarray:
    r"""``[log Q_{n,0}, ..., log Q_{n,k}]`` (natural logs, float64, complex Ginibre), finite for every depth.

    From :func:`theory.signal_energy.Q_all`; entries past float64's range (``Q_{n,j} > 1.8e308``, i.e.
    ``j^2/(2n) > ~700``) come from ``log Gamma(n+j+2) - log Gamma(n) - (j+1) log n - log((j+1)(j+2))``
    (Theorem 2.1 without the falling factorial, which is below ``e^{-1400}`` of the rising one there).
    Domain: ``n >= 1``, ``0 <= k <= 1e7``.

    >>> np.round(np.exp(log_energies(4, 3)), 12).tolist()          # 1, 1, 17/16, 21/16
    [1.0, 1.0, 1.0625, 1.3125]
    """
    n = as_int("n", n, minimum=1)
    k = as_int("k", k, minimum=0, maximum=_MAX_T)
    q = Q_all(n, k)
    with np.errstate(divide="ignore"):
        out = np.log(q)
    bad = ~np.isfinite(out)
    if np.any(bad):
        j = np.flatnonzero(bad).astype(np.float64)
        out[bad] = (gammaln(n + j + 2) - gammaln(float(n)) - (j + 1) * math.log(n) - np.log((j + 1) * (j + 2)))
    return out


def _log_curve(L: np.ndarray, x: float, quantity: str) -> np.ndarray:
    """``log p_j`` for ``j = 0..t`` at ``x = log sigma^2`` (float64, overflow-free)."""
    a = L + x * np.arange(L.size)
    if quantity == "Q":
        return a
    return np.logaddexp.accumulate(a) - np.log(np.arange(1, L.size + 1))


def gain_curve(n, t, sigma, *, quantity: Quantity = "S") -> np.ndarray:
    r"""The energy at every depth up to t, relative to the critical infinite-width value: ``p_j(sigma)``, ``j = 0..t``.

    ``quantity="Q"``: ``p_j = sigma^{2j} Q_{n,j}`` (free recurrence, ``E||h_j||^2/||h_0||^2``);
    ``quantity="S"``: ``p_j = (1/(j+1)) sum_{k<=j} sigma^{2k} Q_{n,k}`` (driven recurrence,
    ``E||h(j)||^2 / (n (j+1))``, the toolkit's t + 1 inputs). Weights ``W = sigma G/sqrt(n)``, ``G``
    complex Ginibre; exact energies ``Q_{n,k}`` of Seleznova (2026), Theorem 2.1, through their float64
    logs (:func:`log_energies`), so no overflow before the result itself leaves float64 (then ``inf``).
    At infinite width and ``sigma = 1`` every ``p_j`` is 1.

    Parameters
    ----------
    n : int
        Width, ``n >= 1``.
    t : int
        Last depth, ``0 <= t <= 1e7``.
    sigma : float
        Scale of the weights, ``sigma > 0`` (1: Glorot).
    quantity : {"Q", "S"}
        Driven recurrence (default) or free recurrence.

    Returns
    -------
    numpy.ndarray
        ``p_0, ..., p_t``, float64 (``p_0 = 1``); ``inf`` past float64's range.

    Raises
    ------
    TypeError
        ``n`` or ``t`` not an integer, ``sigma`` not real, ``quantity`` not a string.
    ValueError
        ``n < 1``, ``t`` outside ``0..1e7``, ``sigma <= 0`` or not finite, an unknown ``quantity``.

    Examples
    --------
    >>> gain_curve(4, 2, 1.0, quantity="S").tolist()            # S_{4,j}/(j+1): 1, 1, 49/48
    [1.0, 1.0, 1.0208333333333333]
    >>> np.round(gain_curve(1, 3, 0.5, quantity="Q"), 12).tolist()            # n = 1: Q_{1,j} = j!, times 4^(-j)
    [1.0, 0.25, 0.125, 0.09375]
    """
    sigma = as_real("sigma", sigma, minimum=0.0, open_min=True)
    quantity = as_choice("quantity", quantity, QUANTITIES)
    with np.errstate(over="ignore"):
        return np.exp(_log_curve(log_energies(n, t), 2.0 * math.log(sigma), quantity))


# --------------------------------------------------------------------------------------------------
# the solver on a vector of energies (float and mp)
# --------------------------------------------------------------------------------------------------
def _expm1(v: float) -> float:
    return math.expm1(min(v, 700.0))      # beyond, "huge" is all the bisections need to know


class _FloatProblem:
    def __init__(self, L: np.ndarray, quantity: str):
        self.L, self.quantity = L, quantity

    def up(self, x):        # max_j p_j - 1 (increasing in x)
        return _expm1(float(np.max(_log_curve(self.L, x, self.quantity))))

    def down(self, x):      # 1 - min_j p_j (decreasing in x)
        return -_expm1(float(np.min(_log_curve(self.L, x, self.quantity))))

    def end(self, x):       # p_t - 1 (increasing in x)
        return _expm1(float(_log_curve(self.L, x, self.quantity)[-1]))


class _MpProblem:
    """The same functions with mpf energies ``E_k`` at the current working precision."""

    def __init__(self, E: list, quantity: str):
        self.E, self.quantity = E, quantity

    def curve(self, x):
        s = mpmath.exp(x)
        p, acc, w = [], mpmath.mpf(0), mpmath.mpf(1)
        for j, e in enumerate(self.E):
            term = w * e
            acc += term
            p.append(term if self.quantity == "Q" else acc / (j + 1))
            w *= s
        return p

    def up(self, x):
        return max(self.curve(x)) - 1

    def down(self, x):
        return 1 - min(self.curve(x))

    def end(self, x):
        return self.curve(x)[-1] - 1


def _bisect(f, lo, hi, steps: int):
    """Root of an increasing ``f`` on ``[lo, hi]`` (``f(lo) <= 0 < f(hi)``) by bisection."""
    for _ in range(steps):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) <= 0 else (lo, mid)
    return (lo + hi) / 2


def _solve(prob, tol, lo, hi, steps):
    """(x*, dev*, x_low, x_high, x_end) for a problem object; x = log sigma^2."""
    x_star = _bisect(lambda x: prob.up(x) - prob.down(x), lo, hi, steps)
    dev = max(prob.up(x_star), prob.down(x_star))
    if dev <= tol:
        x_low = _bisect(lambda x: tol - prob.down(x), lo, x_star, steps)
        x_high = _bisect(lambda x: prob.up(x) - tol, x_star, hi, steps)
    else:
        x_low = x_high = None
    x_end = _bisect(prob.end, lo, hi, steps)
    return x_star, dev, x_low, x_high, x_end


def _as_tol(tol):
    return as_real("tol", tol, minimum=0.0, maximum=1.0, open_min=True, open_max=True)


def _as_energies(energies, method: str):
    """(exact list or None, float64 log-energies) of :func:`scale_from_energies`' ``energies``."""
    if isinstance(energies, tuple) and len(energies) == 2 and isinstance(energies[0], str) and energies[0] == "log":
        L = as_real_array("energies", energies[1])
        exact = None
    else:
        if (isinstance(energies, (str, bytes)) or not hasattr(energies, "__iter__")
                or (isinstance(energies, np.ndarray) and energies.ndim != 1)):
            raise TypeError(f"energies must be a sequence E_0..E_t of positive reals, got {type(energies).__name__}")
        check_size("energies", energies, _MAX_T + 1)      # before list() copies a broadcast view
        exact = list(energies)
        if len(exact) > (_MP_MAX_T if method == "mp" else _MAX_T) + 1:
            raise ValueError(f"energies: at most {_MAX_T} + 1 values ({_MP_MAX_T} + 1 for method 'mp'), "
                             f"got {len(exact)}")
        for e in exact:
            if isinstance(e, (bool, np.bool_)) or not isinstance(e, (numbers.Real, mpmath.mpf)):
                raise TypeError(f"energies must hold real numbers (floats, ints, Fractions, mpf), got {e!r:.40}")
            if not e > 0:  # type: ignore[operator]   # Real and mpf compare with 0
                raise ValueError(f"energies must be positive, got {e!r:.40}")
        # logs without float overflow (big ints, Fractions, mpf beyond 1.8e308)
        with mpmath.workdps(20):
            L = np.array([float(mpmath.log(mpmath.mpf(e.numerator) / e.denominator if isinstance(e, Fraction)
                                           else mpmath.mpf(e))) for e in exact])
    if L.ndim != 1 or L.size < 2 or not np.all(np.isfinite(L)):
        raise ValueError(f"energies must hold E_0..E_t with t >= 1, finite and positive; got {L.size} values")
    return exact, L


def scale_from_energies(energies, tol, *, quantity: Quantity = "S", method: FloatOrMp = "float", dps: int | None = None,
                        n: int | None = None, field: Field = "complex", source: str = "given energies",
                        init: str | None = None) -> HorizonScale:
    r"""Solve the horizon problem of the module docstring for given energies ``E_k``, ``k = 0..t``.

    ``energies``: ``Q_{n,0..t}`` of any weight law (``E_0 = 1``, positive), as floats, Fractions or mpf;
    with ``method="float"`` their natural logs may be passed instead as a ``numpy`` array via
    ``energies=("log", L)``. Used by :func:`sigma_for_horizon` (closed forms) and by
    :mod:`numerics.signal_propagation.horizon_mc` (exact real Wick rows, Monte Carlo). ``n``, ``field`` and ``init`` (the
    name of an iid law of the entries, :mod:`theory.init_laws`) are recorded only.

    >>> r = scale_from_energies([1, 1, Fraction(17, 16), Fraction(21, 16)], 0.2, quantity="Q")   # n = 4, t = 3
    >>> r.feasible, round(r.sigma_endpoint ** 6 * 21 / 16, 12)                     # p_3(sigma_end) = 1
    (True, 1.0)
    """
    tol = _as_tol(tol)
    quantity = as_choice("quantity", quantity, QUANTITIES)
    method = as_choice("method", method, METHODS)
    if method == "float" and dps is not None:
        raise ValueError(f"dps applies only to method 'mp', got dps={dps!r} with method 'float'")
    # recorded only, but recorded right: a width, a weight law, a text
    n = None if n is None else as_int("n", n, minimum=1)
    field = as_choice("field", field, FIELDS)
    if not isinstance(source, str):
        raise TypeError(f"source must be a str, got {type(source).__name__}")
    if init is not None and not isinstance(init, str):
        raise TypeError(f"init must be a law's name (a str) or None here, got {type(init).__name__}")
    exact, L = _as_energies(energies, method)
    t = L.size - 1
    prob = _FloatProblem(L, quantity)
    sol = _solve(prob, tol, -_X_BRACKET, _X_BRACKET, 200)
    glorot = prob.up(0.0) if prob.up(0.0) >= prob.down(0.0) else -prob.down(0.0)
    if method == "mp":
        if exact is None:
            raise ValueError("method 'mp' needs the energies themselves, not their logs")
        dps = as_dps(dps)
        sol, glorot = _refine_mp(exact, quantity, tol, sol, dps)
    x_star, dev, x_low, x_high, x_end = sol
    with mpmath.workdps(dps or 15):
        sig = (lambda x: mpmath.exp(x / 2)) if method == "mp" else (lambda x: math.exp(x / 2))
        return HorizonScale(n=n, t=t, tol=tol, quantity=quantity, field=field, method=method, source=source,
                            sigma=sig(x_star), deviation=dev, sigma_low=None if x_low is None else sig(x_low),
                            sigma_high=None if x_high is None else sig(x_high), sigma_endpoint=sig(x_end),
                            glorot_deviation=glorot, dps=dps, init=init)


def _refine_mp(exact, quantity, tol, sol, dps):
    """Redo the bisections in mpmath inside a bracket of +-1e-9 around the float roots."""
    with mpmath.workdps(dps + 10):
        E = [mpmath.mpf(e.numerator) / e.denominator if isinstance(e, Fraction) else mpmath.mpf(e) for e in exact]
        prob = _MpProblem(E, quantity)
        steps = int((dps + 10) * 3.33) - 25          # from a 2e-9 bracket down to 10^-(dps+10)
        tolm = mpmath.mpf(tol)

        def refine(f, x0):
            lo, hi = mpmath.mpf(x0) - mpmath.mpf(1e-9), mpmath.mpf(x0) + mpmath.mpf(1e-9)
            if not (f(lo) <= 0 < f(hi)):            # float root off by more than the bracket: full range
                lo, hi = mpmath.mpf(-_X_BRACKET), mpmath.mpf(_X_BRACKET)
                return _bisect(f, lo, hi, int((dps + 12) * 3.33) + 8)
            return _bisect(f, lo, hi, steps)

        x_star = refine(lambda x: prob.up(x) - prob.down(x), sol[0])
        dev = max(prob.up(x_star), prob.down(x_star))
        x_low = x_high = None
        if dev <= tolm:
            x_low = refine(lambda x: tolm - prob.down(x), sol[2] if sol[2] is not None else x_star)
            x_high = refine(lambda x: prob.up(x) - tolm, sol[3] if sol[3] is not None else x_star)
        x_end = refine(prob.end, sol[4])
        up0, down0 = prob.up(mpmath.mpf(0)), prob.down(mpmath.mpf(0))
        glorot = up0 if up0 >= down0 else -down0
    with mpmath.workdps(dps):
        conv = [None if v is None else +v for v in (x_star, dev, x_low, x_high, x_end)]
        return tuple(conv), +glorot


# --------------------------------------------------------------------------------------------------
# public API, complex weights
# --------------------------------------------------------------------------------------------------
def sigma_for_horizon(n, t, tol, *, quantity: Quantity = "S", field: Field = "complex", method: FloatOrMp = "float",
                      dps: int | None = None, init=None) -> HorizonScale:
    r"""The scale sigma that keeps a width-n recurrence within ``tol`` of critical infinite width up to depth t.

    Returns a :class:`HorizonScale`: the minimax ``sigma`` (``argmin_sigma max_{j<=t} |p_j(sigma) - 1|``),
    its deviation, the feasible interval ``[sigma_low, sigma_high]``, the endpoint root ``sigma_end``
    (``p_t = 1``) and the Glorot deviation (sigma = 1); ``p_j`` as in the module docstring
    (``quantity="Q"``: free recurrence ``sigma^{2j} Q_{n,j}``; ``"S"``: driven, running mean). Exact
    energies from Theorem 2.1 of Seleznova (2026). Domain: integers ``n >= 1``, ``1 <= t <= 5e5``
    (about 3 s there; ``<= 5000`` for ``method="mp"``: about 8 s per 1000 depths at 30 digits), ``0 < tol < 1``;
    ``field="real"``: the exact real-weight rows of :mod:`theory.real_rows` for depths ``<= 60`` and the
    large-n expansion of :mod:`theory.real_expansion` beyond, with its error estimate in ``source``
    (``t <= theory.real_expansion.max_depth(n, quantity="Q")``; Monte Carlo as a check:
    :func:`numerics.signal_propagation.horizon_mc.sigma_for_horizon`). ``method``: "float" or "mp" (``dps`` digits; None: the
    ambient ``mpmath.mp.dps``).

    Parameters
    ----------
    n : int
        Width, ``n >= 1``.
    t : int
        The horizon: the depth up to which the energies must stay within ``tol`` of 1,
        ``1 <= t <= 5e5`` (``<= 5000`` for "mp").
    tol : float
        Tolerance, ``0 < tol < 1``.
    quantity : {"Q", "S"}
        Free recurrence (``sigma^{2j} Q_{n,j}``) or driven recurrence (running mean of those).
    field : {"complex", "real"}
        Complex Ginibre weights, or real ones (exact rows to depth 60, the large-n expansion beyond).
    method : {"float", "mp"}
        float64, or mpmath at ``dps`` digits.
    dps : int, optional
        Digits for "mp"; None: the ambient ``mpmath.mp.dps`` (docs/conventions.md).
    init : Law or str, optional
        iid entries of another law of variance 1 (``"uniform"``, ``"rademacher"``, ``"sparse:0.05"``,
        ``"student:6"``, a :class:`theory.init_laws.Law`): the energies of :func:`theory.init_laws.energy.Q_law`
        (exact rows to depth 12, the large-n expansion beyond within its domain); the entries are real, so
        ``field`` is not used; ``method="float"`` only. The scale multiplies W, so ``p_j = sigma^(2j) Q_{n,j}``
        as for the Gaussian. A law whose energy is infinite at some depth ``<= t`` (Student t, ``2j >= nu``) is
        refused: no scale makes it finite.

    Returns
    -------
    HorizonScale
        ``sigma`` (minimax), its deviation, ``sigma_low``/``sigma_high``, ``sigma_endpoint`` and the Glorot
        deviation; floats, or ``mpmath.mpf`` for "mp".

    Raises
    ------
    TypeError
        ``n`` or ``t`` not an integer, ``tol`` not real.
    ValueError
        A value out of range, ``field="real"`` with ``t`` beyond the real energies' domain, an unknown ``method``
        or ``quantity``, ``dps`` with "float".

    Examples
    --------
    >>> r = sigma_for_horizon(4, 3, 0.5, quantity="Q", method="mp", dps=25)
    >>> with mpmath.workdps(25):                       # Q_{4,3} = 21/16, so sigma_end = (16/21)^(1/6)
    ...     bool(abs(r.sigma_endpoint - (mpmath.mpf(16) / 21) ** (mpmath.mpf(1) / 6)) < mpmath.mpf(10) ** -23)
    True
    """
    n = as_int("n", n, minimum=1)
    field = as_choice("field", field, FIELDS)
    if init is not None:
        return _law_sigma_for_horizon(n, t, tol, quantity, method, dps, init)
    if field == "real":
        return _real_sigma_for_horizon(n, t, tol, quantity, method, dps)
    method = as_choice("method", method, METHODS)
    t = as_int("t", t, minimum=1, maximum=_MP_MAX_T if method == "mp" else _SCALE_MAX_T)
    tol = _as_tol(tol)
    quantity = as_choice("quantity", quantity, QUANTITIES)
    if method == "float":
        if dps is not None:
            raise ValueError(f"dps applies only to method 'mp', got dps={dps!r} with method 'float'")
        return scale_from_energies(("log", log_energies(n, t)), tol, quantity=quantity, n=n,
                                   source="closed form (Seleznova 2026, Thm 2.1)")
    dps = as_dps(dps)
    E = [_Q(n, k, method="mp", dps=dps + 10) for k in range(t + 1)]
    return scale_from_energies(E, tol, quantity=quantity, method="mp", dps=dps, n=n,
                               source="closed form (Seleznova 2026, Thm 2.1), mpmath")


def _real_sigma_for_horizon(n, t, tol, quantity, method, dps) -> HorizonScale:
    """Real weights: the exact committed rows (depths <= 60) and the large-n expansion beyond."""
    from .real_expansion import _check_served, real_energies_any

    method = as_choice("method", method, METHODS)
    t = as_int("t", t, minimum=1, maximum=_MP_MAX_T if method == "mp" else _SCALE_MAX_T)
    _check_served(n, t, "Q", "t")          # the energies Q^R_{n,0..t} (S sums them): the horizon t names the depth
    tol, quantity = _as_tol(tol), as_choice("quantity", quantity, QUANTITIES)
    if method == "float" and dps is not None:
        raise ValueError(f"dps applies only to method 'mp', got dps={dps!r} with method 'float'")
    E, _, source = real_energies_any(n, t, method=method, dps=None if method == "float" else as_dps(dps) + 10)
    source = REAL_ROWS_SOURCE if source == "exact real rows" else source
    if method == "float":
        return scale_from_energies(("log", np.log(np.asarray(E, dtype=np.float64))), tol, quantity=quantity, n=n, field="real", source=source)
    return scale_from_energies(E, tol, quantity=quantity, method="mp", dps=dps, n=n, field="real", source=source)


def _law_energies(n: int, t: int, law) -> tuple[np.ndarray, str]:
    """``Q_{n,0..t}`` of iid weights of ``law`` (float64) and their source; the one-line ValueError of
    :mod:`theory.init_laws.energy` where a depth is infinite (Student t) or beyond the served domain."""
    from .init_laws.energy import law_energies_any, law_max_depth

    try:
        E, _, source = law_energies_any(n, t, law)
    except ValueError as exc:
        top = law_max_depth(n, law, quantity="Q")
        why = str(exc).split(": ", 1)[-1]
        raise ValueError(f"init={law.name}: its energies at n={n} are served to depth {top} only, below the horizon "
                         f"t={t} ({why}); Monte Carlo goes further: numerics.signal_propagation.horizon_mc with "
                         "method='mc'") from None
    return E, source


def _law_sigma_for_horizon(n, t, tol, quantity, method, dps, init) -> HorizonScale:
    """:func:`sigma_for_horizon` for iid weights of a law (``init``): the energies of ``theory.init_laws``."""
    from .init_laws.laws import as_law

    law = as_law(init, name="init")
    if as_choice("method", method, METHODS) != "float" or dps is not None:
        raise ValueError(f"init={law.name} takes method='float' only (its energies beyond the exact rows are a "
                         f"float64 expansion), got method={method!r}" + (f", dps={dps!r}" if dps is not None else ""))
    t = as_int("t", t, minimum=1, maximum=_SCALE_MAX_T)
    tol, quantity = _as_tol(tol), as_choice("quantity", quantity, QUANTITIES)
    if law.max_depth is not None and t > law.max_depth:
        d = law.max_depth + 1
        raise ValueError(f"init={law.name}: the mean energy E||W^j x||^2 is infinite from depth {d} on (m_{2 * d} = "
                         f"E g^{2 * d} is infinite for nu = {law.param}): no scale keeps t={t} finite")
    E, source = _law_energies(n, t, law)
    return scale_from_energies(("log", np.log(E)), tol, quantity=quantity, n=n, field="real", source=source,
                               init=law.name)


def _law_depth_for_scale(n: int, sigma: float, tol: float, quantity: str, method: str, max_t, init) -> int:
    """:func:`depth_for_scale` for iid weights of a law: the first violation among the served depths; a depth
    with an infinite energy (Student t) is a violation."""
    from .init_laws.energy import law_max_depth
    from .init_laws.laws import as_law

    law = as_law(init, name="init")
    if method != "float":
        raise ValueError(f"init={law.name} takes method='float' only, got method={method!r}")
    served = law_max_depth(n, law, quantity="Q")
    infinite = None if law.max_depth is None else law.max_depth + 1
    cap = min(served, _MAX_T) if infinite is None else min(served, infinite - 1)
    max_t = cap if max_t is None else as_int("max_t", max_t, minimum=1, maximum=max(cap, 1))
    if max_t >= 1:
        E, _ = _law_energies(n, max_t, law)
        j = _first_violation_float(np.log(E), sigma, tol, quantity)
        if j is not None:
            return j - 1
    if infinite is not None and max_t == cap:
        return infinite - 1                       # the energy is infinite at the next depth: beyond any tol
    if max_t < cap:
        raise ValueError(f"no violation of tol={tol} up to max_t={max_t} at n={n}, sigma={sigma}; raise max_t")
    raise ValueError(f"no violation of tol={tol} up to depth {cap}, the end of the energies of init={law.name} at "
                     f"n={n} (exact rows to 12, the large-n expansion to its domain: "
                     "theory.init_laws.energy.law_max_depth); beyond, Monte Carlo: "
                     "numerics.signal_propagation.horizon_mc.depth_with_se(method='mc', init=...)")


# The float path's rounding: log Q_j from Q_all carries ~ (1 + |log Q_j|) sqrt(j) eps, the log curve adds j x and
# a running logaddexp (j + 1 roundings); 2**-40 per unit of those magnitudes bounds it with a wide margin.
_CURVE_ROUNDING = 2.0**-40


def _first_violation_float(L: np.ndarray, sigma: float, tol: float, quantity: str, exact=None) -> int | None:
    """The first depth j with ``|p_j(sigma) - 1| > tol`` from the float64 log-energies ``L``. A depth whose float
    deviation lies within its rounding bound of ``tol`` (a tol below float64's resolution, 1e-300, or a tie) is
    decided in exact rationals by ``exact(k) -> E_k`` (a Fraction, or None where no exact energy exists: then,
    and past depth ``_EXACT_MAX_T``, the float comparison stands)."""
    x = 2.0 * math.log(sigma)
    with np.errstate(over="ignore", invalid="ignore"):
        c = _log_curve(L, x, quantity)
        dev = np.abs(np.expm1(c))
        j = np.arange(L.size)
        err = _CURVE_ROUNDING * (j + 1.0) * (1.0 + np.abs(L) + abs(x) * j + np.abs(c)) * (1.0 + dev)
        sure = (dev == np.inf) | (dev - err > tol)
    for i in np.flatnonzero(dev + err > tol).tolist():
        if sure[i] or exact is None or i > _EXACT_MAX_T:
            return i
        verdict = _exact_exceeds(exact, i, Fraction(sigma), Fraction(tol), quantity)
        if verdict is None or verdict:
            return i
    return None


def _exact_exceeds(exact, j: int, sigma: Fraction, tol: Fraction, quantity: str) -> bool | None:
    """Whether ``|p_j(sigma) - 1| > tol`` in exact rationals (None if an energy has no exact value)."""
    s2 = sigma * sigma
    energies = [exact(k) for k in ((j,) if quantity == "Q" else range(j + 1))]
    if any(e is None for e in energies):
        return None
    p = energies[0] * s2**j if quantity == "Q" else sum((e * s2**k for k, e in enumerate(energies)), Fraction(0)) / (j + 1)
    return abs(p - 1) > tol


def _first_violation_exact(energies, sigma: Fraction, tol: Fraction, quantity: str) -> int | None:
    """The first depth j with ``|p_j(sigma) - 1| > tol`` in exact rationals (energies: Q_0, Q_1, ... as Fractions)."""
    s2, w, acc = sigma * sigma, Fraction(1), Fraction(0)
    for j, energy in enumerate(energies):
        term = w * energy
        acc += term
        p = term if quantity == "Q" else acc / (j + 1)
        if abs(p - 1) > tol:
            return j
        w *= s2
    return None


def depth_for_scale(n, sigma, tol, *, quantity: Quantity = "S", method: FloatOrExact = "float",
                    max_t: int | None = None, field: Field = "complex", init=None) -> int:
    r"""The horizon reachable at scale sigma: the largest t with ``|p_j(sigma) - 1| <= tol`` for all ``j <= t``.

    ``p_j`` as in the module docstring (complex Ginibre, exact energies of Seleznova 2026, Thm 2.1). At
    ``sigma = 1`` this is ``breakdown_depth(n, tol, quantity) - 1`` (:func:`theory.regimes.breakdown_depth`).
    The horizon is finite for every sigma (``log Q_{n,k}`` grows faster than linearly in k). The search
    scans depths in doubling blocks, O(t) work; ``method="exact"`` compares exact rationals (``sigma`` and
    ``tol`` taken at their exact binary values; ``t <= 4000``). Raises ValueError if no violation is found up
    to ``max_t`` (default: the cap, 1e7 or 4000). Domain: ``n >= 1``, ``sigma > 0``, ``0 < tol < 1``.
    ``field="real"``: the real-weight energies ``Q^R_{n,k}``, exact rows for k <= 60 and the large-n
    expansion of :mod:`theory.real_expansion` beyond (``method="float"``; ``max_t`` up to its domain,
    :func:`theory.real_expansion.max_depth`); ``method="exact"`` compares the exact rows only, so its horizon
    must be below 60.

    Parameters
    ----------
    n : int
        Width, ``n >= 1``.
    sigma : float
        Scale of ``W = sigma G / sqrt(n)``, ``sigma > 0``.
    tol : float
        Tolerance, ``0 < tol < 1``.
    quantity : {"Q", "S"}
        Free or driven recurrence, as for :func:`sigma_for_horizon`.
    method : {"float", "exact"}
        float64 comparisons, or exact rationals (``t <= 4000``). The float path decides a depth whose deviation
        lies within float64 rounding of ``tol`` (a tie, or a ``tol`` below float resolution such as 1e-300) in
        exact rationals too, so both methods give one depth (up to depth 4000 and, for real weights, on the
        exact rows).
    max_t : int, optional
        The largest depth searched (default and bound: 1e7, or 4000 for "exact"; for real weights the real
        energies' domain, or 60 for "exact").
    field : {"complex", "real"}
        Complex Ginibre weights (closed form), or real ones (exact rows, the large-n expansion beyond).
    init : Law or str, optional
        iid entries of another law (:func:`sigma_for_horizon`; ``method="float"``): the energies of
        :func:`theory.init_laws.energy.Q_law` up to their served depth. Where the energy is infinite
        (Student t: from ``2k >= nu``) the horizon ends before that depth.

    Returns
    -------
    int
        The horizon ``t >= 0`` (``p_0 = 1`` always).

    Raises
    ------
    TypeError
        ``n`` or ``max_t`` not an integer, ``sigma`` or ``tol`` not real.
    ValueError
        A value out of range, or no violation up to ``max_t`` (real weights: up to the end of their domain).

    Examples
    --------
    >>> depth_for_scale(4, 1.0, 1/16, quantity="Q", method="exact")              # Q_{4,3} - 1 = 5/16 > 1/16 = Q_{4,2} - 1
    2
    >>> depth_for_scale(4, 1.0, 0.3, quantity="Q", field="real")             # Q^R_{4,2} = 1 + 2/16, Q^R_{4,3} = 1 + 44/64
    2
    >>> t_best, s_best = max_horizon(10**6, 0.01)                        # the minimax scale of that horizon
    >>> depth_for_scale(10**6, 1.0, 0.01) < depth_for_scale(10**6, s_best, 0.01) == t_best
    True
    """
    n = as_int("n", n, minimum=1)
    sigma = as_real("sigma", sigma, minimum=0.0, open_min=True)
    tol = _as_tol(tol)
    quantity = as_choice("quantity", quantity, QUANTITIES)
    method = as_choice("method", method, DEPTH_METHODS)
    if as_choice("field", field, FIELDS) == "real" and init is None:
        return _real_depth_for_scale(n, sigma, tol, quantity, method, max_t)
    if init is not None:
        return _law_depth_for_scale(n, sigma, tol, quantity, method, max_t, init)
    cap = _EXACT_MAX_T if method == "exact" else _MAX_T
    max_t = cap if max_t is None else as_int("max_t", max_t, minimum=1, maximum=cap)
    T = min(64, max_t)
    while True:
        if method == "float":
            j = _first_violation_float(log_energies(n, T), sigma, tol, quantity,
                                       exact=lambda k: Fraction(trace_moment(n, k), n ** (k + 1)))
        else:
            exact = (Fraction(trace_moment(n, k), n ** (k + 1)) for k in range(T + 1))
            j = _first_violation_exact(exact, Fraction(sigma), Fraction(tol), quantity)
        if j is not None:
            return j - 1
        if T >= max_t:
            raise ValueError(f"no violation of tol={tol} up to max_t={max_t} at n={n}, sigma={sigma}; raise max_t")
        T = min(2 * T, max_t)


def _real_depth_for_scale(n: int, sigma: float, tol: float, quantity: str, method: str, max_t) -> int:
    """:func:`depth_for_scale` for real weights: exact rows (depths <= 60), the large-n expansion beyond (float)."""
    from .real_expansion import MAX_T_LINEAR, QR, max_depth, real_energies_any
    from .real_rows import real_Q, real_energies, real_rows_max_k

    last = real_rows_max_k() if method == "exact" else max(real_rows_max_k(), max_depth(n, quantity="Q"))
    cap = min(last, MAX_T_LINEAR)          # the depths whose Q^R the energies need (S sums them)
    max_t = cap if max_t is None else as_int("max_t", max_t, minimum=1, maximum=cap)
    T = min(64, max_t)
    L = np.empty(0)
    while True:
        if method == "float":
            # each doubling adds only the new depths' log-energies (the expansion costs O(1) per depth)
            new = real_energies_any(n, T)[0] if L.size == 0 else QR(n, np.arange(L.size, T + 1)).value
            L = np.concatenate([L, np.log(np.asarray(new, dtype=np.float64))])
            j = _first_violation_float(L, sigma, tol, quantity,
                                       exact=lambda k: real_Q(n, k) if k <= real_rows_max_k() else None)
        else:
            j = _first_violation_exact(real_energies(n, T), Fraction(sigma), Fraction(tol), quantity)
        if j is not None:
            return j - 1
        if T >= max_t:
            break
        T = min(2 * T, max_t)
    if max_t < cap:
        raise ValueError(f"no violation of tol={tol} up to max_t={max_t} at n={n}, sigma={sigma}; raise max_t")
    what = ("the last exact real row; method='float' goes further with the large-n expansion" if method == "exact"
            else "the end of the real energies' domain (theory.real_expansion.max_depth); beyond, "
                 "numerics.signal_propagation.horizon_mc.depth_with_se(method='mc') (Monte Carlo)")
    raise ValueError(f"no violation of tol={tol} up to depth {cap} ({what}) at n={n}, sigma={sigma}")


def max_horizon(n, tol, *, quantity: Quantity = "S", init=None) -> tuple[int, float]:
    r"""The longest horizon that any weight scale can keep within ``tol`` of critical infinite width, and that scale.

    ``t_max = max{t : min_sigma dev(sigma; n, t) <= tol}`` with ``dev`` of the module docstring (uniform over
    the depths ``0..t``), and the minimax sigma of :func:`sigma_for_horizon` at ``t_max``. ``min_sigma dev``
    is non-decreasing in t (more constraints), so galloping and bisection on t find it. Exact energies of
    Seleznova (2026), Theorem 2.1 (the question is the toolkit's own); complex Ginibre weights, float method.
    A tuned scale extends Glorot's horizon by a constant factor only: both grow like ``sqrt(n)``
    (:func:`glorot_table`). Cost grows like ``sqrt(n)``: about 2 s at ``n = 1e9``, and about as much with ``init``
    (the law's energies are computed once per ``(n, init)``; ``benchmarks/bench_law_energies.py``).

    Parameters
    ----------
    n : int
        Width, ``1 <= n <= MAX_HORIZON_N`` (1e9).
    tol : float
        Tolerance, ``0 < tol < 1``.
    quantity : {"Q", "S"}
        Driven recurrence (default) or free recurrence.
    init : Law or str, optional
        iid entries of another law (:func:`sigma_for_horizon`): its energies, up to their served depth (a
        ValueError names n where the longest horizon lies beyond it).

    Returns
    -------
    tuple of (int, float)
        ``(t_max, sigma)``, ``t_max >= 1`` (depth 1 is always reachable).

    Raises
    ------
    TypeError
        ``n`` not an integer, ``tol`` not real, ``quantity`` not a string.
    ValueError
        ``n`` outside ``1..1e9``, ``tol`` outside ``(0, 1)``, an unknown ``quantity``, or a horizon beyond 1e7.

    Examples
    --------
    By hand at ``n = 1`` (``Q_{1,j} = j!``), ``tol = 0.4``: depth j confines ``sigma^2`` to
    ``[(0.6/j!)^(1/j), (1.4/j!)^(1/j)]``; for j = 1, 2, 3 these are ``[0.6, 1.4]``, ``[0.548, 0.837]``,
    ``[0.464, 0.616]`` (common part ``[0.6, 0.616]``), and j = 4 gives ``[0.398, 0.491]``: empty.

    >>> t, s = max_horizon(1, 0.4, quantity="Q")
    >>> t, 0.6 <= s * s <= (1.4 / 6) ** (1 / 3)
    (3, True)

    At ``n = 64`` against the explicit bounds of the module docstring, ``log sigma^2`` between
    ``max_j (log(1-tol) - log Q_j)/j`` and ``min_j (log(1+tol) - log Q_j)/j``, with exact ``Q_j``:

    >>> def bounds(n, t, tol):
    ...     L = [math.log(trace_moment(n, j) / n ** (j + 1)) for j in range(1, t + 1)]
    ...     return (max((math.log(1 - tol) - l) / j for j, l in enumerate(L, 1)),
    ...             min((math.log(1 + tol) - l) / j for j, l in enumerate(L, 1)))
    >>> t, s = max_horizon(64, 0.1, quantity="Q")
    >>> lo, hi = bounds(64, t, 0.1)
    >>> lo <= 2 * math.log(s) <= hi, bounds(64, t + 1, 0.1)[0] > bounds(64, t + 1, 0.1)[1]
    (True, True)
    """
    n = as_int("n", n, minimum=1, maximum=MAX_HORIZON_N)
    tol = _as_tol(tol)

    top = _MAX_T if init is None else _law_top(n, init)

    def ok(t):
        if t > top:
            if init is not None and _law_infinite(init, t):
                return False                          # an infinite energy: no scale
            raise ValueError(f"n={n}: the longest horizon at tol={tol} lies beyond depth {top}, the end of the "
                             f"energies of init={init} at this width (exact rows, the large-n expansion); "
                             "use Monte Carlo (numerics.signal_propagation.horizon_mc)")
        return sigma_for_horizon(n, t, tol, quantity=quantity, init=init).feasible

    lo = max(1, depth_for_scale(n, 1.0, tol, quantity=quantity, init=init))     # sigma = 1 reaches it: feasible
    if not ok(lo):
        return 0, 1.0
    hi = 2 * lo
    while ok(hi):
        lo, hi = hi, 2 * hi
        if hi > _MAX_T:
            raise ValueError(f"max_horizon(n={n}) exceeds {_MAX_T}")
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo, cast(float, sigma_for_horizon(n, lo, tol, quantity=quantity, init=init).sigma)   # float path: a float


def _law_top(n: int, init) -> int:
    """The deepest depth with a finite, served energy of iid weights of ``init`` at width n."""
    from .init_laws.energy import law_max_depth
    from .init_laws.laws import as_law

    law = as_law(init, name="init")
    served = law_max_depth(n, law, quantity="Q")
    return served if law.max_depth is None else min(served, law.max_depth)


def _law_infinite(init, t: int) -> bool:
    from .init_laws.laws import as_law

    top = as_law(init, name="init").max_depth
    return top is not None and t > top


def glorot_table(ns, tol, *, quantity: Quantity = "S", init=None) -> list[dict]:
    r"""How far plain Glorot (sigma = 1) and the best weight scale each stay near infinite width, per width.

    Rows: ``n``, ``t_glorot`` (:func:`depth_for_scale` at sigma = 1), ``t_best`` and ``sigma_best``
    (:func:`max_horizon`), ``gain = t_best / t_glorot`` (None if ``t_glorot = 0``) and
    ``c_glorot = t_glorot / sqrt(n)``, ``c_best = t_best / sqrt(n)`` (the sqrt(n) law: both ratios tend to
    constants as n grows, so a tuned scale gains a constant factor). Exact energies of Seleznova (2026),
    Theorem 2.1; complex Ginibre weights ``W = sigma G/sqrt(n)``, float method.

    Parameters
    ----------
    ns : int or sequence of int
        One width or several, each ``1 <= n <= MAX_HORIZON_N`` (1e9; about 2 s each at the top).
    tol : float
        Tolerance, ``0 < tol < 1``.
    quantity : {"Q", "S"}
        Driven recurrence (default) or free recurrence.
    init : Law or str, optional
        iid entries of another law (:func:`sigma_for_horizon`).

    Returns
    -------
    list of dict
        One row per width, keys ``n, t_glorot, t_best, sigma_best, gain, c_glorot, c_best``.

    Raises
    ------
    TypeError
        ``ns`` not a width or a sequence of widths (integers), ``tol`` not real.
    ValueError
        A width outside ``1..1e9``, ``tol`` outside ``(0, 1)``, an unknown ``quantity``.

    Examples
    --------
    At ``n = 1`` (``Q_{1,j} = j!``) Glorot keeps ``tol = 0.4`` up to depth 1 (``Q_{1,2} = 2``); the best scale
    reaches depth 3 (:func:`max_horizon`'s example):

    >>> row = glorot_table(1, 0.4, quantity="Q")[0]
    >>> row["t_glorot"], row["t_best"], row["gain"], row["c_best"]
    (1, 3, 3.0, 3.0)
    >>> row = glorot_table([256], 0.1)[0]
    >>> row["t_best"] >= row["t_glorot"]
    True
    """
    tol = _as_tol(tol)
    if isinstance(ns, (int, np.integer)) and not isinstance(ns, bool):
        ns = [ns]
    try:
        if isinstance(ns, (str, bytes)):
            raise TypeError
        check_size("ns", ns)
        ns = list(ns)
    except TypeError:
        raise TypeError(f"ns must be a width or a sequence of widths (integers), got {ns!r:.40}") from None
    rows = []
    for i, n in enumerate(ns):
        n = as_int(f"ns[{i}]", n, minimum=1, maximum=MAX_HORIZON_N)
        tg = depth_for_scale(n, 1.0, tol, quantity=quantity, init=init)
        tb, sb = max_horizon(n, tol, quantity=quantity, init=init)
        rows.append({"n": n, "t_glorot": tg, "t_best": tb, "sigma_best": sb,
                     "gain": tb / tg if tg else None, "c_glorot": tg / math.sqrt(n), "c_best": tb / math.sqrt(n)})
    return rows
