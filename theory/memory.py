r"""Controllable memory functions rho(s, alpha) and the closed forms attached to them.

Source: H. Jiang, Z. Bao, S. Wang, Q. Li, "Numerical Investigation of Sequence Modeling Theory using
Controllable Memory Functions", arXiv:2506.05678 (2025), Sec. 2 (Theorem 2.1: a linear, causal,
time-homogeneous target is ``y(t) = sum_{s=0}^{t} rho(s) x(t-s)``; four parametric families with a
temporal strength ``alpha in [0, 1]`` and a scaling ``mu(alpha)``). Only the abstract and two seed
summaries are available, so the exact scalings below are **the toolkit's own convention**
(``docs/papers/memory-functions.md``), exposed as functions and parameters.

Convention (lags ``s = 0, ..., T-1``; ``alpha = 0`` is always ``delta_0``, i.e. ``y = x``)
------------------------------------------------------------------------------------------
Area budget (smooth kernels): ``A(alpha) = 1 + alpha (A_max - 1)``, ``A_max = T/4`` by default
(clipped to 1 for ``T < 4``, where the smooth families degenerate to ``delta_0``); ``1 <= A_max < T``.

``"exp"``      ``rho(s) = exp(-s/tau)``, ``tau = exp_tau(alpha, T)`` solves the geometric-sum closed form
               ``sum_{s<T} q^s = (1 - q^T)/(1 - q) = A(alpha)``, ``q = exp(-1/tau)``.
``"poly"``     ``rho(s) = (1+s)^(-p)``, ``p = poly_exponent(alpha, T)`` solves
               ``sum_{s<T} (1+s)^(-p) = H_T^{(p)} = zeta(p) - zeta(p, T+1) = A(alpha)`` (generalised
               harmonic number / Hurwitz zeta; ``H_T`` at ``p = 1``).
``"impulse"``  ``rho(s) = 1[s = m]``, ``m = impulse_lag(alpha, T) = floor(alpha (T-1) + 1/2)`` (round
               half up).
``"airy"``     ``rho(s) = Ai(sigma (s - m))`` with the same shift ``m`` and ``sigma`` from
               :func:`airy_shift_scale`: the largest scale at which every oscillation has at least
               ``samples_per_period`` (default 8) samples per local period at every lag. With the
               modulus-phase form ``Ai(-x) = M(x) cos theta(x)``, ``theta'(x) = 1 / (pi M(x)^2)``,
               ``M^2 = Ai(-x)^2 + Bi(-x)^2`` (decreasing in x), the local angular frequency in lags is
               ``sigma theta'(sigma (m - s))``, largest at ``s = 0``; sigma solves
               ``sigma theta'(sigma m) = 2 pi / samples_per_period``. For ``0 < alpha < 1/(2(T-1))``
               the shift is 0 and ``rho(s) = Ai(sigma s)`` (the family is discontinuous at alpha = 0).

Mixtures: ``rho = (1-lam) rho_a/||rho_a||_2 + lam rho_b/||rho_b||_2`` (:func:`mixed_memory_function`).

Linear-model risk: :func:`expected_linear_relmse` (weights ``w_s = T - s``).
"""

from __future__ import annotations

import functools
import inspect
import math
from typing import Any, Literal, overload

import mpmath
import numpy as np
import sympy
from scipy.optimize import brentq
from scipy.special import airy

from theory._args import DEFAULT_DPS, MAX_LENGTH, as_choice, as_int, as_method_dps, as_mp_real, as_real, as_real_array
from theory._args import FloatOrMp   # the Literal type of the method argument
from theory._types import Real, mpf   # the number types each method returns

#: The four memory-function families of :func:`memory_function`.
__all__ = ["KINDS", "DEFAULT_SAMPLES_PER_PERIOD", "default_area_max", "area_target", "exp_area", "poly_area",
           "area_expression", "exp_tau", "poly_exponent", "impulse_lag", "airy_phase_rate", "airy_shift_scale",
           "memory_function", "mixed_memory_function", "lag_weights", "expected_linear_relmse"]

KINDS = ("exp", "poly", "impulse", "airy")
_MIN_SOLVE_DPS = 15     # the tau / p solves return float64: fewer working digits could not resolve it
DEFAULT_SAMPLES_PER_PERIOD = 8


# ----------------------------------------------------------------------------------------------------
# scaling mu(alpha)
# ----------------------------------------------------------------------------------------------------
def default_area_max(T: int) -> float:
    """The default area budget ``A_max = max(1, T/4)`` (toolkit convention).

    >>> default_area_max(1024)
    256.0
    >>> default_area_max(3)
    1.0
    """
    T = as_int("T", T, minimum=2)
    return max(1.0, T / 4.0)


def _area_max(T: int, area_max: Any) -> float:
    if area_max is None:
        return default_area_max(T)
    return as_real("area_max", area_max, minimum=1.0, maximum=T, open_max=True)


def area_target(alpha: float, T: int, *, area_max: float | None = None) -> float:
    """The area budget ``A(alpha) = 1 + alpha (A_max - 1)`` of the smooth families.

    >>> area_target(0.0, 1024), area_target(1.0, 1024), area_target(0.5, 9, area_max=3)
    (1.0, 256.0, 2.0)
    """
    alpha = as_real("alpha", alpha, minimum=0.0, maximum=1.0)
    T = as_int("T", T, minimum=2)
    return 1.0 + alpha * (_area_max(T, area_max) - 1.0)


def _excess(alpha: float, T: int, area_max: Any) -> float:
    """``A(alpha) - 1``, computed without the cancellation of subtracting 1 from A."""
    return alpha * (_area_max(T, area_max) - 1.0)


@overload
def exp_area(tau: Real, T: int, *, method: Literal["float"] = ..., dps: None = ...) -> float: ...
@overload
def exp_area(tau: Real, T: int, *, method: Literal["mp"], dps: int | None = ...) -> mpf: ...
def exp_area(tau: Real, T: int, *, method: FloatOrMp = "float", dps: int | None = None) -> float | mpf:
    r"""Closed-form area of ``exp(-s/tau)`` over ``s = 0..T-1`` (geometric sum), as ``mpmath.mpf``.

    .. math:: \sum_{s=0}^{T-1} e^{-s/\tau} = \frac{1 - e^{-T/\tau}}{1 - e^{-1/\tau}}
              = \frac{\operatorname{expm1}(-T/\tau)}{\operatorname{expm1}(-1/\tau)}

    Valid for ``tau > 0`` (``tau = 0`` gives 1, ``tau = inf`` gives T). Evaluated with ``expm1`` in a
    local mpmath context, so it is accurate also for ``tau >> T``. ``method="float"``: a float (evaluated at
    :data:`theory._args.DEFAULT_DPS` digits); ``method="mp"``: an ``mpmath.mpf`` to ``dps`` digits.

    >>> from mpmath import mpf, e
    >>> float(exp_area(mpf(1), 2)) == float(1 + 1 / e)
    True
    >>> float(exp_area(0, 7)), float(exp_area(math.inf, 7))
    (1.0, 7.0)
    """
    T = as_int("T", T, minimum=1)
    method, dps = as_method_dps(method, dps)
    with mpmath.workdps(dps or DEFAULT_DPS):
        tau = as_mp_real("tau", tau, allow_inf=True)        # a Fraction or a Decimal exactly, not via float
        if tau < 0:
            raise ValueError(f"tau must be >= 0, got {tau}")
        if tau == 0:
            out = mpmath.mpf(1)
        elif mpmath.isinf(tau):
            out = mpmath.mpf(T)
        else:
            out = mpmath.expm1(-T / tau) / mpmath.expm1(-1 / tau)
    return float(out) if method == "float" else out


def _exp_excess(u, T: int):
    """``sum_{s=1}^{T-1} e^{-u s}`` for ``u = 1/tau > 0`` (current mpmath precision)."""
    return mpmath.exp(-u) * mpmath.expm1(-(T - 1) * u) / mpmath.expm1(-u)


@overload
def poly_area(p: Real, T: int, *, method: Literal["float"] = ..., dps: None = ...) -> float: ...
@overload
def poly_area(p: Real, T: int, *, method: Literal["mp"], dps: int | None = ...) -> mpf: ...
def poly_area(p: Real, T: int, *, method: FloatOrMp = "float", dps: int | None = None) -> float | mpf:
    r"""Closed-form area of ``(1+s)^(-p)`` over ``s = 0..T-1``: the generalised harmonic number.

    .. math:: \sum_{s=0}^{T-1} (1+s)^{-p} = H_T^{(p)} = \zeta(p) - \zeta(p, T+1) \quad (p \ne 1),
              \qquad H_T^{(1)} = H_T .

    The Hurwitz-zeta difference is valid for every real ``p != 1`` by analytic continuation (the
    finite-difference identity ``zeta(p, a) - zeta(p, a+T) = sum_{k<T} (a+k)^(-p)``); near ``p = 1`` both
    terms are ``~ 1/(p-1)``, so the working precision is raised locally by the digits lost. ``method`` and
    ``dps`` as :func:`exp_area`.

    >>> float(poly_area(2, 3)) == 1 + 1/4 + 1/9
    True
    >>> float(poly_area(1, 4)) == float(mpmath.harmonic(4))
    True
    >>> float(poly_area(0, 5))
    5.0
    """
    T = as_int("T", T, minimum=1)
    method, dps = as_method_dps(method, dps, max_dps=_ZETA_MAX_DPS)
    dps = dps or DEFAULT_DPS
    # -100 <= p <= 1000: far beyond any memory kernel; Hurwitz zeta at p = -200 takes a second, -1e10 minutes
    p = as_real("p", p, minimum=-100.0, maximum=1000.0) if not isinstance(p, mpmath.mpf) else p
    with mpmath.workdps(dps):
        out = 1 + _poly_excess(mpmath.mpf(p), T, dps)
    return float(out) if method == "float" else out


_ZETA_MAX_DPS = 500    # Hurwitz zeta: 0.02 s at 100 digits, 1.3 s at 1000, 22 s at 3000


def _poly_excess(p, T: int, dps: int):
    """``sum_{k=2}^{T} k^(-p)`` via Hurwitz zeta (or harmonic numbers at p = 1)."""
    if T == 1:
        return mpmath.mpf(0)
    if abs(p) < mpmath.mpf(10) ** (-(dps + 10)):
        # sum k^-p = (T - 1) - p log(T!) + O(p^2): mpmath's zeta divides by zero at p ~ -1e-192
        return (T - 1) - p * mpmath.loggamma(T + 1)
    dist = abs(p - 1)
    if dist < mpmath.mpf(10) ** (-dps):
        return mpmath.harmonic(T) - 1
    extra = int(max(0, -mpmath.log10(dist))) + 10
    with mpmath.workdps(dps + extra):
        return mpmath.zeta(p, 2) - mpmath.zeta(p, T + 1)


def area_expression(kind: str):
    """The symbolic area ``sum_{s<T} rho(s)`` of a smooth family as a sympy expression.

    ``"exp"`` in ``(tau, T)``; ``"poly"`` in ``(p, T)`` as ``harmonic(T, p)`` (generalised harmonic
    number ``H_T^{(p)}``; sympy rewrites it as ``zeta(p) - zeta(p, T + 1)``).

    >>> import sympy
    >>> tau, T, p = sympy.symbols("tau T p", positive=True)
    >>> sympy.simplify(area_expression("exp").subs({T: 3, tau: 1}) - (1 + sympy.exp(-1) + sympy.exp(-2)))
    0
    >>> area_expression("poly").subs({T: 3, p: 2})
    49/36
    """
    kind = as_choice("kind", kind, ("exp", "poly"))
    T = sympy.Symbol("T", positive=True)
    if kind == "exp":
        tau = sympy.Symbol("tau", positive=True)
        return (1 - sympy.exp(-T / tau)) / (1 - sympy.exp(-1 / tau))
    p = sympy.Symbol("p", positive=True)
    return sympy.harmonic(T, p)


# The root is returned as a float: 100 digits is far more than it can hold, and brentq at 1000 digits takes
# minutes (Hurwitz zeta at each step).
_SOLVE_MAX_DPS = 100


def _solve_decreasing(f, target, lo: float, hi: float, dps: int) -> float:
    """Root ``x`` of ``f(x) = target`` for decreasing ``f`` on ``[lo, hi]`` (mpmath, then float).

    The bracket is widened until it brackets the root; Illinois (safeguarded regula falsi) then
    converges superlinearly, and the float result is polished by bisection on the float grid so
    that the returned value is the closest double to the root (to a few ulps).
    """
    with mpmath.workdps(dps):
        target = mpmath.mpf(target)
        g = lambda x: f(mpmath.mpf(x)) - target  # noqa: E731
        for _ in range(200):
            if g(lo) > 0:
                break
            lo /= 2
        for _ in range(200):
            if g(hi) < 0:
                break
            hi *= 2
        a, b = mpmath.mpf(lo), mpmath.mpf(hi)
        ga, gb = g(a), g(b)
        if not (ga > 0 > gb):
            raise ArithmeticError("root not bracketed")  # cannot happen for 0 < target < sup f
        # Illinois iterations in the log variable (roots range over many decades).
        la, lb = mpmath.log(a), mpmath.log(b)
        side = 0
        tol = mpmath.mpf(2) ** (-(mpmath.mp.prec - 8))
        for _ in range(400):
            lc = (la * gb - lb * ga) / (gb - ga)
            gc = g(mpmath.exp(lc))
            if gc == 0 or abs(lb - la) < tol * (1 + abs(lc)):
                la = lb = lc
                break
            if gc > 0:
                la, ga = lc, gc
                if side == 1:
                    gb /= 2
                side = 1
            else:
                lb, gb = lc, gc
                if side == -1:
                    ga /= 2
                side = -1
        return float(mpmath.exp((la + lb) / 2))


def _solve_dps(work_dps) -> int:
    """Working digits of the tau / p solves (``work_dps``: an integer in [15, 100]: fewer could not resolve a
    float64 answer)."""
    return as_int("work_dps", work_dps, minimum=_MIN_SOLVE_DPS, maximum=_SOLVE_MAX_DPS)


@functools.lru_cache(maxsize=4096)
def _exp_tau_cached(excess: float, T: int, dps: int) -> float:
    if excess == 0.0:
        return 0.0
    # u = 1/tau; the excess sum_{s>=1} e^{-us} decreases from T-1 (u -> 0) to 0 (u -> inf).
    u = _solve_decreasing(lambda u: _exp_excess(u, T), excess, 1e-3 / T, 1.0, dps)
    return 1.0 / u


def exp_tau(alpha: float, T: int, *, area_max: float | None = None, work_dps: int = DEFAULT_DPS) -> float:
    """Time constant ``tau(alpha)`` of the exponential family: ``sum_{s<T} exp(-s/tau) = A(alpha)``.

    Solved on the geometric-sum closed form (:func:`exp_area`, written as
    ``sum_{s>=1} q^s = A(alpha) - 1`` to avoid cancellation) in a local ``work_dps``-digit mpmath context
    (the working digits of a float64 answer; ``dps`` names an mp result's digits elsewhere).
    ``tau = 0`` at ``alpha = 0`` (``delta_0``); ``tau`` increases strictly with alpha.

    >>> exp_tau(0.0, 64)
    0.0
    >>> T = 64; tau = exp_tau(1.0, T)
    >>> abs(float(exp_area(tau, T)) - T / 4) < 1e-12
    True
    """
    alpha = as_real("alpha", alpha, minimum=0.0, maximum=1.0)
    T = as_int("T", T, minimum=2)
    return _exp_tau_cached(_excess(alpha, T, area_max), T, _solve_dps(work_dps))


@functools.lru_cache(maxsize=4096)
def _poly_p_cached(excess: float, T: int, dps: int) -> float:
    if excess == 0.0:
        return math.inf
    # sum_{k=2}^T k^-p >= 2^-p, and <= 2^-p (1 + 2/(p-1)) for p > 1, so the root lies below
    # -log2(excess) + 3 whenever that exceeds 3; the solver widens the bracket if needed.
    hi = max(4.0, -math.log2(excess) + 3.0)
    return _solve_decreasing(lambda p: _poly_excess(p, T, dps), excess, 0.5, hi, dps)


def poly_exponent(alpha: float, T: int, *, area_max: float | None = None, work_dps: int = DEFAULT_DPS) -> float:
    """Exponent ``p(alpha)`` of the polynomial family: ``sum_{s<T} (1+s)^(-p) = A(alpha)``.

    Solved on the Hurwitz-zeta closed form (:func:`poly_area`) in a local ``work_dps``-digit context.
    ``p = inf`` at ``alpha = 0`` (``delta_0``); ``p`` decreases strictly with alpha (``p < 1`` is
    possible for large budgets: at T = 1024, ``A = 256`` needs ``p ~ 0.33``).

    >>> poly_exponent(0.0, 64)
    inf
    >>> p = poly_exponent(0.5, 64)
    >>> abs(float(poly_area(p, 64)) - area_target(0.5, 64)) < 1e-12
    True
    """
    alpha = as_real("alpha", alpha, minimum=0.0, maximum=1.0)
    T = as_int("T", T, minimum=2)
    return _poly_p_cached(_excess(alpha, T, area_max), T, _solve_dps(work_dps))


def impulse_lag(alpha: float, T: int) -> int:
    """Lag of the impulse (and shift of the Airy kernel): ``m(alpha) = floor(alpha (T-1) + 1/2)``.

    >>> impulse_lag(0.0, 100), impulse_lag(1.0, 100), impulse_lag(0.5, 4), impulse_lag(0.5, 100)
    (0, 99, 2, 50)
    """
    alpha = as_real("alpha", alpha, minimum=0.0, maximum=1.0)
    T = as_int("T", T, minimum=2)
    return min(T - 1, int(math.floor(alpha * (T - 1) + 0.5)))


def airy_phase_rate(x):
    """``theta'(x) = 1 / (pi (Ai(-x)^2 + Bi(-x)^2))``: local angular frequency of ``Ai(-x)``.

    From the modulus-phase form ``Ai(-x) = M(x) cos theta(x)``, ``Bi(-x) = -M(x) sin theta(x)``
    (DLMF 9.8.3) and the Wronskian ``W(Ai, Bi) = 1/pi`` (DLMF 9.2.7), which give
    ``M^2 theta' = 1/pi`` (DLMF 9.8.18). It tends to ``sqrt(x)`` (the WKB rate) as ``x -> inf``.

    >>> import numpy as np
    >>> from scipy.special import gamma
    >>> ai0 = 1 / (3 ** (2 / 3) * gamma(2 / 3))     # Ai(0) (DLMF 9.2.3); Bi(0) = sqrt(3) Ai(0)
    >>> bool(np.isclose(airy_phase_rate(0.0), 1 / (np.pi * 4 * ai0 ** 2), rtol=1e-14))
    True

    For ``x >= 30`` the asymptotic series of the modulus (DLMF 9.8.20),
    ``pi sqrt(x) M^2 ~ sum_k (-1)^k (6k-1)!! / (k! 96^k) x^(-3k)`` to k = 3, is used (error < 1e-15
    there, and no overflow of Bi for huge x).

    >>> import mpmath
    >>> exact = 1 / (mpmath.pi * (mpmath.airyai(-40) ** 2 + mpmath.airybi(-40) ** 2))
    >>> bool(abs(airy_phase_rate(40.0) / float(exact) - 1) < 1e-15)
    True
    """
    x = as_real_array("x", x)
    big = x >= 30.0
    # x < -100: Bi(-x) ~ e^(2/3 |x|^1.5) overflows; the rate 1/(pi Bi^2) underflows to 0 long before
    x = np.where(x < -100.0, -100.0, x)
    xs = np.where(big, 1.0, x)
    a, _, b, _ = airy(-xs)
    xb = np.where(big, x, 30.0)
    u = xb ** -3.0
    asym = np.sqrt(xb) / (1.0 - u * (5.0 / 32.0 - u * (10395.0 / 18432.0 - u * (34459425.0 / 5308416.0))))
    with np.errstate(over="ignore"):
        return np.where(big, asym, 1.0 / (np.pi * (a * a + b * b)))


@functools.lru_cache(maxsize=4096)
def _airy_sigma_cached(m: int, spp: float) -> float:
    omega = 2.0 * math.pi / spp
    if m == 0:
        return omega / float(airy_phase_rate(0.0))
    f = lambda ls: math.exp(ls) * float(airy_phase_rate(math.exp(ls) * m)) - omega  # noqa: E731
    # the WKB rate sqrt(x) brackets the root within a factor 4 (theta'/sqrt(x) -> 1 from above;
    # theta'(0) ~ 0.63, so small m needs the wider upper end)
    wkb = math.log(omega ** (2.0 / 3.0) * m ** (-1.0 / 3.0))
    lo, hi = wkb - math.log(4.0), max(wkb + math.log(4.0), math.log(omega / 0.5) if m < 10 else -math.inf)
    return math.exp(brentq(f, lo, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=500))


def airy_shift_scale(alpha: float, T: int, *, samples_per_period: float = DEFAULT_SAMPLES_PER_PERIOD
                     ) -> tuple[int, float]:
    """Shift ``m`` and scale ``sigma`` of the Airy family ``rho(s) = Ai(sigma (s - m))``.

    ``m = impulse_lag(alpha, T)``; ``sigma`` solves ``sigma theta'(sigma m) = 2 pi / samples_per_period``
    (:func:`airy_phase_rate`): the local period ``2 pi / (sigma theta'(sigma (m - s)))`` is smallest
    at ``s = 0`` (``theta'`` increases, since ``M^2`` decreases) and equals ``samples_per_period``
    there. Large shifts give ``sigma ~ (2 pi / spp)^(2/3) m^(-1/3)``.

    >>> m, sigma = airy_shift_scale(1.0, 1024)
    >>> m, round(2 * math.pi / (sigma * float(airy_phase_rate(sigma * m))), 9)
    (1023, 8.0)
    """
    spp = as_real("samples_per_period", samples_per_period, minimum=2.0, maximum=1e4)   # 1e5: no bracket
    m = impulse_lag(alpha, T)
    return m, _airy_sigma_cached(m, spp)


# ----------------------------------------------------------------------------------------------------
# the families
# ----------------------------------------------------------------------------------------------------
def _delta(T: int) -> np.ndarray:
    rho = np.zeros(T)
    rho[0] = 1.0
    return rho


def _rho_exp(alpha, T, *, area_max=None, work_dps=DEFAULT_DPS):
    tau = exp_tau(alpha, T, area_max=area_max, work_dps=work_dps)
    if tau == 0.0:
        return _delta(T)
    return np.exp(-np.arange(T) / tau)


def _rho_poly(alpha, T, *, area_max=None, work_dps=DEFAULT_DPS):
    p = poly_exponent(alpha, T, area_max=area_max, work_dps=work_dps)
    if math.isinf(p):
        return _delta(T)
    return np.exp(-p * np.log1p(np.arange(T, dtype=float)))


def _rho_impulse(alpha, T):
    rho = np.zeros(T)
    rho[impulse_lag(alpha, T)] = 1.0
    return rho


def _rho_airy(alpha, T, *, samples_per_period=DEFAULT_SAMPLES_PER_PERIOD):
    m, sigma = airy_shift_scale(alpha, T, samples_per_period=samples_per_period)
    return airy(sigma * (np.arange(T) - m))[0]


_FAMILIES = {"exp": _rho_exp, "poly": _rho_poly, "impulse": _rho_impulse, "airy": _rho_airy}


def _params_of(kind: str) -> set[str]:
    sig = inspect.signature(_FAMILIES[kind])
    return {n for n, p in sig.parameters.items() if p.kind is inspect.Parameter.KEYWORD_ONLY}


def memory_function(kind: str, alpha: float, T: int, **params) -> np.ndarray:
    """The memory function ``rho(s; alpha)``, ``s = 0..T-1``, as a float64 array (toolkit convention).

    ``kind`` in :data:`KINDS`; ``alpha in [0, 1]`` (0 gives ``delta_0`` for every kind); ``T >= 2``.
    Keyword parameters: ``area_max`` (default ``T/4``) and ``work_dps`` for ``"exp"``/``"poly"``;
    ``samples_per_period`` (default 8) for ``"airy"``; none for ``"impulse"``. See the module
    docstring for the formulas and :func:`exp_tau`, :func:`poly_exponent`, :func:`impulse_lag`,
    :func:`airy_shift_scale` for the scaling ``mu(alpha)``. Source: Jiang, Bao, Wang, Li (2025), Sec. 2,
    with the toolkit's scalings (``docs/papers/memory-functions.md``, "The four memory functions").

    Parameters
    ----------
    kind : {"exp", "poly", "impulse", "airy"}
        The family.
    alpha : float
        Temporal strength, ``0 <= alpha <= 1``.
    T : int
        Number of lags, ``2 <= T <= MAX_LENGTH``.
    **params
        ``area_max`` (``1 <= area_max < T``) and ``work_dps`` (working digits of the solve) for "exp" and
        "poly"; ``samples_per_period`` for "airy".

    Returns
    -------
    numpy.ndarray
        ``rho(0), ..., rho(T-1)``, float64.

    Raises
    ------
    TypeError
        ``kind`` not a string, ``alpha`` not real, ``T`` not an integer, or a keyword the family does
        not take.
    ValueError
        An unknown ``kind``, or a value outside its range.

    Examples
    --------
    >>> memory_function("impulse", 0.5, 5)
    array([0., 0., 1., 0., 0.])
    >>> memory_function("airy", 0.0, 3)
    array([1., 0., 0.])
    >>> bool(abs(memory_function("poly", 0.3, 200).sum() - area_target(0.3, 200)) < 1e-10)
    True
    """
    kind = as_choice("kind", kind, KINDS)
    alpha = as_real("alpha", alpha, minimum=0.0, maximum=1.0)
    T = as_int("T", T, minimum=2, maximum=MAX_LENGTH)
    allowed = _params_of(kind)
    unknown = set(params) - allowed
    if unknown:
        raise TypeError(f"memory_function(kind={kind!r}) got unexpected parameter(s) {sorted(unknown)}; "
                        f"allowed: {sorted(allowed) or 'none'}")
    if alpha == 0.0:
        # validate the parameters even on the trivial branch
        _FAMILIES[kind](0.5, T, **params)
        return _delta(T)
    return _FAMILIES[kind](alpha, T, **params)


def mixed_memory_function(kind_a: str, kind_b: str, lam: float, alpha: float, T: int, **params) -> np.ndarray:
    r"""A memory function mixed from two families: ``(1-lam) rho_a/||rho_a||_2 + lam rho_b/||rho_b||_2``.

    Both components use the same ``alpha`` and ``T`` (:func:`memory_function`) and are normalised to unit
    Euclidean norm over the lags ``0..T-1`` before mixing, so ``lam`` weighs them on an equal footing.
    Source: Jiang, Bao, Wang, Li (2025), mixed targets (exponential + impulse, swept over ``lam in [0, 1]``);
    the normalisation is the toolkit's convention (``docs/papers/memory-functions.md``).

    Parameters
    ----------
    kind_a, kind_b : {"exp", "poly", "impulse", "airy"}
        The two families.
    lam : float
        Weight of ``rho_b``, ``0 <= lam <= 1`` (0: ``rho_a`` alone, normalised).
    alpha : float
        Temporal strength of both components, ``0 <= alpha <= 1``.
    T : int
        Number of lags, ``2 <= T <= MAX_LENGTH``.
    **params
        Family keywords (``area_max``, ``work_dps``, ``samples_per_period``): each goes to the families that
        accept it (e.g. ``area_max`` to "exp" and "poly").

    Returns
    -------
    numpy.ndarray
        ``rho(0), ..., rho(T-1)``, float64.

    Raises
    ------
    TypeError
        A kind not a string, ``lam`` or ``alpha`` not real, ``T`` not an integer, or a keyword that neither
        family accepts.
    ValueError
        An unknown kind, or a value outside its range.

    Examples
    --------
    >>> mixed_memory_function("impulse", "exp", 0.0, 0.5, 5)      # lam = 0: the unit impulse at lag 2
    array([0., 0., 1., 0., 0.])
    >>> ra = memory_function("exp", 1.0, 8)
    >>> r = mixed_memory_function("exp", "impulse", 0.25, 1.0, 8)  # the impulse sits at lag T - 1 = 7
    >>> np.round(r - 0.75 * ra / np.linalg.norm(ra), 12)
    array([0.  , 0.  , 0.  , 0.  , 0.  , 0.  , 0.  , 0.25])
    """
    kind_a = as_choice("kind_a", kind_a, KINDS)
    kind_b = as_choice("kind_b", kind_b, KINDS)
    lam = as_real("lam", lam, minimum=0.0, maximum=1.0)
    pa, pb = _params_of(kind_a), _params_of(kind_b)
    unknown = set(params) - pa - pb
    if unknown:
        raise TypeError(f"mixed_memory_function got parameter(s) {sorted(unknown)} accepted by neither "
                        f"{kind_a!r} nor {kind_b!r}")
    ra = memory_function(kind_a, alpha, T, **{k: v for k, v in params.items() if k in pa})
    rb = memory_function(kind_b, alpha, T, **{k: v for k, v in params.items() if k in pb})
    return (1.0 - lam) * ra / np.linalg.norm(ra) + lam * rb / np.linalg.norm(rb)


# ----------------------------------------------------------------------------------------------------
# risk of a linear model
# ----------------------------------------------------------------------------------------------------
def lag_weights(T: int) -> np.ndarray:
    """How often each lag is seen in a sequence of length T: ``w_s = T - s``, ``s = 0..T-1``.

    Lag ``s`` links the input at ``t - s`` to the output at ``t`` for the ``T - s`` outputs ``t = s..T-1``;
    these are the weights of :func:`expected_linear_relmse` (toolkit derivation,
    ``docs/papers/memory-functions.md``) and of ``weights="lag"`` in :func:`theory.prony.best_mterm_fit`.

    Parameters
    ----------
    T : int
        Sequence length, ``1 <= T <= MAX_LENGTH``.

    Returns
    -------
    numpy.ndarray
        ``T, T-1, ..., 1`` as float64.

    Raises
    ------
    TypeError
        ``T`` is not an integer.
    ValueError
        ``T`` outside ``1..MAX_LENGTH``.

    Examples
    --------
    >>> lag_weights(4)
    array([4., 3., 2., 1.])
    >>> float(lag_weights(100).sum()) == 100 * 101 / 2      # every (input, output) pair with s <= t once
    True
    """
    T = as_int("T", T, minimum=1, maximum=MAX_LENGTH)
    return np.arange(T, 0, -1, dtype=float)


def _as_kernel(name: str, rho) -> np.ndarray:
    arr = as_real_array(name, rho)
    if arr.ndim != 1 or arr.size < 1:
        raise ValueError(f"{name} must be a non-empty 1-d array of lags, got shape {arr.shape}")
    return arr


def expected_linear_relmse(rhohat, rho, *, T: int | None = None) -> float:
    r"""The expected relative MSE of a linear model with memory ``rhohat`` on the target with memory ``rho``.

    Inputs iid with zero mean and unit variance, sequences of length ``T`` (default ``len(rho)``;
    kernels are zero beyond their length). With ``d = rhohat - rho``,
    ``E (yhat(t) - y(t))^2 = sum_{s<=t} d(s)^2`` and ``E y(t)^2 = sum_{s<=t} rho(s)^2``; summing over
    ``t = 0..T-1`` counts lag ``s`` exactly ``T - s`` times (:func:`lag_weights`):

    .. math:: \mathcal{R}(\hat\rho) = \frac{\sum_{s} (T-s)(\hat\rho(s)-\rho(s))^2}{\sum_s (T-s)\rho(s)^2} .

    This is the ratio of expectations, i.e. the limit of the data RelMSE
    ``sum_{b,t}(yhat-y)^2 / sum_{b,t} y^2`` as the number of sequences grows (for N sequences the
    expected ratio differs by O(1/N)). Source: ``docs/papers/memory-functions.md`` (toolkit derivation for
    the linear, causal, time-homogeneous targets of Jiang, Bao, Wang, Li 2025, Theorem 2.1). Valid for any
    real kernels and iid unit-variance inputs (the distribution beyond the second moment does not enter).

    Parameters
    ----------
    rhohat : array_like of float
        The model's memory function, a non-empty 1-d array of lags.
    rho : array_like of float
        The target's memory function, a non-empty 1-d array of lags, not identically zero.
    T : int, optional
        Sequence length, at least the longer kernel's length (default: that length).

    Returns
    -------
    float
        The relative MSE, ``>= 0`` (1 for ``rhohat = 0``).

    Raises
    ------
    TypeError
        A kernel not an array of reals, ``T`` not an integer.
    ValueError
        A kernel empty, not 1-d or not finite; ``rho`` identically zero; ``T`` shorter than a kernel.

    Examples
    --------
    >>> expected_linear_relmse([0, 0, 0], [1, 0, 0])
    1.0
    >>> expected_linear_relmse([1, 0], [1, 1])   # (1 * 1) / (2 * 1 + 1 * 1)
    0.3333333333333333
    >>> expected_linear_relmse([1, 0], [1, 1], T=4) == 3 / 7      # weights 4, 3: (3 * 1) / (4 + 3)
    True
    """
    rh = _as_kernel("rhohat", rhohat)
    r = _as_kernel("rho", rho)
    n = max(rh.size, r.size)
    T = n if T is None else as_int("T", T, minimum=n)
    d = np.zeros(n)
    d[: rh.size] += rh
    d[: r.size] -= r
    w = lag_weights(T)[:n]
    den = float(np.dot(w[: r.size], r * r))
    if den == 0.0:
        raise ValueError("rho must not be identically zero (the relative MSE is undefined)")
    return float(np.dot(w, d * d)) / den
