r"""Tempered-stable Levy SDE for the log-rate: the characteristic equation for the spectral exponent beta.

Source: L. Livi, "Anti-Collapse Dynamics and the Emergence of Multi-Time-Scale Learning in Recurrent
Neural Networks", arXiv:2606.29519 (2026), the coarse-grained SDE of the log-rate (re-derived in
``docs/papers/anti-collapse.md``, section "The Lévy SDE for the log-rate"; the paper's full text is
not available, so the conventions below are the toolkit's and are stated in full).

Model
-----
The log-rate ``zeta = log mubar`` of a unit follows

.. math::

    d\zeta = F(\zeta)\,dt + \sqrt{2\eta_G}\,dW + dJ ,

with a drift that saturates on the left, ``F(zeta) -> kappa > 0`` as ``zeta -> -inf`` (long time scales),
and ``J`` a symmetric tempered alpha-stable (CTS) Levy process with Levy measure

.. math::

    \nu(dy) = \eta_J\, C\, e^{-\lambda |y|}\, |y|^{-1-\alpha}\, dy, \qquad 0 < \alpha < 2,\ \lambda > 0 .

``C`` (``C_a`` in ``docs/papers/anti-collapse.md``) is a free normalisation, default 1: only the product
``eta_J C`` enters.

Jump symbol
-----------
For ``|beta| <= lambda`` and ``alpha != 1``

.. math::

    \Psi^*(\beta) = \int (\cosh\beta y - 1)\,\nu(dy)
      = \eta_J C\,\Gamma(-\alpha)\,[(\lambda-\beta)^\alpha + (\lambda+\beta)^\alpha - 2\lambda^\alpha],

and for ``alpha = 1`` the limit
``eta_J C [(lambda-beta) ln(lambda-beta) + (lambda+beta) ln(lambda+beta) - 2 lambda ln lambda]``;
``Psi* = +inf`` for ``|beta| > lambda`` (the integral diverges). The toolkit evaluates the equivalent form,
with ``x = |beta| / lambda`` and ``Gamma(-alpha) = Gamma(2-alpha) / (alpha (alpha-1))``,

.. math::

    \Psi^*(\beta) = \eta_J C \lambda^\alpha \frac{\Gamma(2-\alpha)}{\alpha}
        \sum_{\pm} (1 \pm x) \ln(1 \pm x)\, \mathrm{exprel}((\alpha-1)\ln(1 \pm x)),
    \qquad \mathrm{exprel}(z) = (e^z - 1)/z ,

which is continuous through ``alpha = 1`` (no ``Gamma(-alpha)`` pole, no ``1/(alpha-1)`` cancellation),
and for ``x <= 1/2`` the series (every term positive, so ``Psi* >= 0`` and no cancellation at small beta)

.. math::

    \Psi^*(\beta) = 2 \eta_J C \lambda^\alpha \frac{\Gamma(2-\alpha)}{\alpha} \sum_{k \ge 1} c_k x^{2k},
    \quad c_1 = \frac{\alpha}{2},\quad c_{k+1} = c_k \frac{(\alpha-2k)(\alpha-2k-1)}{(2k+1)(2k+2)} .

In particular ``Psi*(beta) = eta_J C Gamma(2-alpha) lambda^(alpha-2) beta^2 + O(beta^4)``: half the jump
variance ``int y^2 nu(dy)`` times ``beta^2``.

Characteristic function and root
--------------------------------
The adjoint generator acting on ``p = exp(beta zeta)`` in the saturated region gives

.. math::

    \Phi(\beta) = \eta_G \beta^2 + \Psi^*(\beta) - \kappa \beta .

``Phi(0) = 0``, ``Phi'(0) = -kappa < 0`` and ``Phi`` is strictly convex on ``[0, lambda]``, so it has at most
one root ``beta*`` in ``(0, lambda)``, which exists iff ``Phi(lambda) > 0``. Otherwise the tempering sets
the tail and the effective exponent is ``beta_eff = lambda``. With ``eta_J = 0``: ``beta = kappa / eta_G``
(Gaussian noise with a saturated drift already gives a power law). The stationary density has
``p(zeta) ~ A exp(beta_eff zeta)`` as ``zeta -> -inf``, hence ``p(tau) ~ A tau^(-1-beta_eff)`` for the time
scales ``tau = exp(-zeta)``; raising ``eta_J`` or ``eta_G``, or lowering ``kappa``, lowers ``beta_eff``.

Threshold and phases
--------------------
For ``lambda >= 1`` and ``kappa > eta_G``: ``beta_eff < 1 <=> Phi(1) > 0 <=> eta_J > eta_J*`` with

.. math::

    \eta_J^* = \frac{\kappa - \eta_G}{C\,\Gamma(-\alpha)\,[(\lambda-1)^\alpha + (\lambda+1)^\alpha - 2\lambda^\alpha]}
             = \frac{\kappa - \eta_G}{\Psi^*(1)/\eta_J} .

``eta_J* = 0`` if ``eta_G >= kappa`` (Gaussian noise alone already gives ``beta <= 1``) or ``lambda < 1``
(then ``beta_eff <= lambda < 1`` for every ``eta_J > 0``). Phases (:func:`phase`): "collapsed" (no power-law
window: a non-saturating drift, e.g. linear OU, gives Gaussian zeta and log-normal tau), "concentrated"
(``beta > 1``: finite mean time scale, summable envelope), "extended" (``beta < 1``: divergent mean time
scale), "boundary" (``beta = 1``: on the critical manifold ``eta_G + Psi*(1) = kappa``). The same words
name the phases measured from data (:func:`numerics.anticollapse.estimators.phase_rule`), plus "unresolved" when the
measurement cannot decide (too few tail units, a poor tail fit); :data:`PHASES` is the one vocabulary.

Parameters and precision
------------------------
Every function takes the SDE parameters either as one :class:`LevyParams` (first positional argument after
``beta``, the parameter object that :class:`numerics.anticollapse.sde.SDEConfig` embeds, so theory and simulation are driven by one
object) or as the keywords ``eta_G, kappa, eta_J, alpha, lam, C`` (never both). Precision follows the
toolkit's one convention: ``method="float"`` (float64, vectorised over ``beta``) or ``method="mp"`` (an
``mpmath.mpf`` correct to ``dps`` digits, default the ambient ``mpmath.mp.dps``, in a local mpmath
context; parameters may then be ints, Fractions or mpf); :func:`Phi_symbolic` gives the sympy form.

>>> p = LevyParams(eta_G=0.1, kappa=0.5, eta_J=0.0, alpha=1.5, lam=3.0)
>>> round(characteristic_root(p), 12)          # kappa / eta_G
5.0
>>> characteristic_root(eta_G=0.1, kappa=0.5, eta_J=0.0, alpha=1.5, lam=3.0) == characteristic_root(p)
True
>>> jump_symbol(0.0, eta_J=1.0, alpha=0.5, lam=2.0)
0.0
"""

from __future__ import annotations

import dataclasses
import numbers
from typing import Any, Literal, overload

import mpmath
import numpy as np
import sympy
from scipy.optimize import brentq
from scipy.special import exprel, gamma as _gamma

from theory._args import (PARAM_MAX, as_choice, as_method_dps, as_real, as_real_array,
                          elementwise, scalar_or_array)
from theory._args import FloatOrMp   # the Literal type of the method argument
from theory._types import FloatArray, Real, RealArray, mpf   # the number types each method returns

__all__ = [
    "LevyParams", "jump_symbol", "jump_exponent", "Phi", "characteristic_root", "threshold_eta_J",
    "critical_eta_J", "critical_kappa", "phase", "phase_of_beta", "Phi_symbolic", "PHASES", "DRIFTS",
]

#: The phase labels of the time-scale spectrum (see :func:`phase`), in one fixed order.
# The mp paths evaluate Gamma(-alpha) and powers at non-integer alpha, whose cost grows about as dps^2:
# Phi at 30,000 digits takes 1.5 s, at 100,000 digits 15 s (the root finder about half that per digit count).
MP_MAX_DPS = 30_000
PHASES = ("collapsed", "concentrated", "extended", "boundary", "unresolved")
#: The drift models of :func:`phase`: "saturating" (left saturation) or "linear" (OU, no saturation).
DRIFTS = ("saturating", "linear")
_SERIES_X = 0.5       # below this |x| = |beta|/lambda the series is used (|x|^2 <= 1/4 per term)
_SERIES_TERMS = 40    # 0.25^40 ~ 1e-24: float64 converged for every alpha in (0, 2)
_EXPREL_SERIES = 0.1  # below this |z| the complex exprel(z) from its Taylor series (12 terms: error < 1e-20)
_CHECK_DPS = 50       # digits at which LevyParams checks its ranges (exact inputs stay exact)
_NO_NOISE = ("eta_G and eta_J are both 0: without noise there is no stationary tail "
             "(need eta_G > 0 or eta_J > 0)")


# ----------------------------------------------------------------------------------------------------
# the parameter spec
# ----------------------------------------------------------------------------------------------------
# (name, minimum, open_min, maximum, open_max) of each field: the domain stated in the module docstring
_DOMAIN = (("eta_G", 0, False, None, False), ("kappa", 0, True, None, False), ("eta_J", 0, False, None, False),
           ("alpha", 0, True, 2, True), ("lam", 0, True, None, False), ("C", 0, True, None, False))
_FIELDS = tuple(d[0] for d in _DOMAIN)
_JUMP = ("eta_J", "alpha", "lam", "C")


@dataclasses.dataclass(frozen=True)
class LevyParams:
    r"""The six parameters of the log-rate SDE, checked once: Gaussian and jump noise, drift, Levy measure.

    The SDE ``d zeta = F dt + sqrt(2 eta_G) dW + dJ`` with drift saturating at ``kappa`` and ``J`` a
    symmetric tempered alpha-stable Levy process with Levy measure
    ``nu(dy) = eta_J C exp(-lam |y|) |y|^(-1-alpha) dy`` (module docstring). Source: Livi (2026),
    arXiv:2606.29519, the coarse-grained SDE of the log-rate, as re-derived in ``docs/papers/anti-collapse.md``;
    the normalisation ``C`` (the paper's ``C_a``) is a free parameter, default 1 (the toolkit's convention:
    only ``eta_J C`` enters). One object drives both theory (:func:`Phi`, :func:`characteristic_root`,
    :func:`phase`, ...) and simulation (``numerics.anticollapse.sde.SDEConfig`` embeds it). Values are kept as
    given (ints, Fractions and mpf stay exact for ``method="mp"``) after a range check at 50 digits;
    ``jump()`` and ``as_dict()`` return them as keywords.

    Parameters
    ----------
    eta_G : float
        Gaussian noise intensity, ``eta_G >= 0``.
    kappa : float
        Drift saturation (the drift's limit on the left), ``kappa > 0``.
    eta_J : float
        Jump intensity, ``eta_J >= 0``.
    alpha : float
        Stability index, ``0 < alpha < 2``.
    lam : float
        Tempering rate, ``lam > 0``.
    C : float
        Normalisation of the Levy measure, ``C > 0`` (default 1).

    Returns
    -------
    LevyParams
        A frozen record of the six values.

    Raises
    ------
    TypeError
        A value that is not a real number (bools are rejected).
    ValueError
        A value outside its range, NaN or infinite.

    Examples
    --------
    >>> p = LevyParams(eta_G=0.25, kappa=1.0, eta_J=0.5, alpha=1.5, lam=3.0)
    >>> p.jump()
    {'eta_J': 0.5, 'alpha': 1.5, 'lam': 3.0, 'C': 1.0}
    >>> LevyParams(eta_G=0.25, kappa=1.0, eta_J=0.5, alpha=2.0, lam=3.0)
    Traceback (most recent call last):
    ...
    ValueError: alpha must be in (0, 2), got 2.0

    Without jumps ``Phi(beta) = eta_G beta^2 - kappa beta``, whose root is ``kappa / eta_G``:

    >>> q = LevyParams(eta_G=0.25, kappa=1.0, eta_J=0.0, alpha=1.5, lam=10.0)
    >>> float(Phi(2.0, q)), float(characteristic_root(q))          # 0.25 * 4 - 2, and 1 / 0.25
    (-1.0, 4.0)
    """
    eta_G: Real
    kappa: Real
    eta_J: Real
    alpha: Real
    lam: Real
    C: Real = 1.0

    def __post_init__(self) -> None:
        with mpmath.workdps(_CHECK_DPS):
            for name, lo, open_lo, hi, open_hi in _DOMAIN:
                _as_mpf(name, getattr(self, name), minimum=lo, open_min=open_lo, maximum=hi, open_max=open_hi)

    def jump(self) -> dict:
        """The Levy-measure keywords ``eta_J, alpha, lam, C`` (those of :func:`jump_symbol` and of
        :mod:`numerics.anticollapse.levy_sampling`)."""
        return {k: getattr(self, k) for k in _JUMP}

    def as_dict(self) -> dict:
        """All six parameters as keywords."""
        return {k: getattr(self, k) for k in _FIELDS}


def _spec(params: Any, names: tuple[str, ...], kw: dict) -> dict:
    """The parameters ``names`` from a LevyParams or from keywords (``None`` = not given; ``C`` defaults to 1)."""
    given = {k: v for k, v in kw.items() if v is not None}
    if params is not None:
        if not isinstance(params, LevyParams):
            raise TypeError(f"params must be a LevyParams, got {type(params).__name__} {params!r}")
        if given:
            raise TypeError(f"pass either params=LevyParams(...) or the keywords {sorted(given)}, not both")
        return {k: getattr(params, k) for k in names}
    missing = [k for k in names if k not in given and k != "C"]
    if missing:
        raise TypeError(f"missing parameter(s) {missing}: pass them as keywords or as a LevyParams")
    return {k: given.get(k, 1.0) for k in names}


# ----------------------------------------------------------------------------------------------------
# argument checks (float path)
# ----------------------------------------------------------------------------------------------------
def _jump_params(eta_J: Any, alpha: Any, lam: Any, C: Any) -> tuple[float, float, float, float]:
    eta_J = as_real("eta_J", eta_J, minimum=0.0, maximum=PARAM_MAX)
    alpha = as_real("alpha", alpha, minimum=0.0, maximum=2.0, open_min=True, open_max=True)
    lam = as_real("lam", lam, minimum=0.0, open_min=True, maximum=PARAM_MAX)
    C = as_real("C", C, minimum=0.0, open_min=True, maximum=PARAM_MAX)
    return eta_J, alpha, lam, C


def _drift_params(eta_G: Any, kappa: Any) -> tuple[float, float]:
    eta_G = as_real("eta_G", eta_G, minimum=0.0, maximum=PARAM_MAX)
    kappa = as_real("kappa", kappa, minimum=0.0, open_min=True, maximum=PARAM_MAX)
    return eta_G, kappa


# ----------------------------------------------------------------------------------------------------
# float64 path
# ----------------------------------------------------------------------------------------------------
def _series_coefficients(alpha: float) -> np.ndarray:
    """``c_1 .. c_K`` of the module docstring's positive series (``c_1 = alpha/2``)."""
    coef = np.empty(_SERIES_TERMS)
    coef[0] = alpha / 2.0
    for k in range(1, _SERIES_TERMS):
        coef[k] = coef[k - 1] * (alpha - 2 * k) * (alpha - 2 * k - 1) / ((2 * k + 1) * (2 * k + 2))
    return coef


def _series(x2: np.ndarray, alpha: float) -> np.ndarray:
    """``2 sum_k c_k x^(2k)`` by Horner in ``x^2`` (real x: x2 >= 0; imaginary x = i v: x2 = -v^2)."""
    acc = np.zeros_like(x2)
    for c in _series_coefficients(alpha)[::-1]:
        acc = acc * x2 + c
    return 2.0 * acc * x2


def _bracket_over_prefactor(x: np.ndarray, alpha: float) -> np.ndarray:
    r"""``B(x) = [(1-x)^alpha + (1+x)^alpha - 2] / (alpha - 1)`` for ``0 <= x <= 1``, i.e.
    ``Psi* / (eta_J C lambda^alpha Gamma(2-alpha) / alpha)``; nonnegative, continuous in alpha."""
    out = np.empty_like(x)
    small = x <= _SERIES_X
    out[small] = _series(x[small] ** 2, alpha)
    big = ~small
    xb = x[big]
    lp = np.log1p(xb)
    if alpha < 0.5:     # the form below cancels to O(alpha) from O(1) as alpha -> 0: expm1 of alpha ln(1+-x)
        with np.errstate(divide="ignore"):                  # ln(1-x) = -inf at x = 1: (1-x)^alpha = 0
            out[big] = (np.expm1(alpha * lp) + np.expm1(alpha * np.log1p(-xb))) / (alpha - 1.0)
        return out
    term_p = (1.0 + xb) * lp * exprel((alpha - 1.0) * lp)
    term_m = np.zeros_like(xb)
    inner = xb < 1.0                            # at x = 1 the (1-x) term is exactly 0
    lm = np.log1p(-xb[inner])
    term_m[inner] = (1.0 - xb[inner]) * lm * exprel((alpha - 1.0) * lm)
    out[big] = term_p + term_m
    return out


def _exprel_complex(z: np.ndarray) -> np.ndarray:
    """``(e^z - 1) / z`` for complex z without cancellation: Taylor series near 0, else
    ``expm1(x) cos y - 2 sin^2(y/2) + i e^x sin y`` (numpy's complex expm1 loses digits near 0)."""
    out = np.empty_like(z)
    small = np.abs(z) < _EXPREL_SERIES
    zs = z[small]
    acc = np.ones_like(zs)
    for k in range(12, 0, -1):                  # 1 + z/2! (1 + z/3 (1 + ...)) = sum z^k / (k+1)!
        acc = 1.0 + acc * zs / (k + 1)
    out[small] = acc
    zb = z[~small]
    x, y = zb.real, zb.imag
    out[~small] = (np.expm1(x) * np.cos(y) - 2.0 * np.sin(0.5 * y) ** 2 + 1j * np.exp(x) * np.sin(y)) / zb
    return out


def _bracket_imaginary(v: np.ndarray, alpha: float) -> np.ndarray:
    r"""``B(i v)`` for real ``v >= 0`` (real, <= 0): the bracket of :func:`_bracket_over_prefactor` at an
    imaginary argument, ``2 Re[(1 + i v) L exprel((alpha-1) L)]`` with ``L = log(1 + i v)`` (principal
    branch: ``1 + i v`` never crosses the cut), and the same series with ``x^2 = -v^2`` for ``v <= 1/2``."""
    out = np.empty_like(v)
    small = v <= _SERIES_X
    out[small] = _series(-v[small] ** 2, alpha)
    w = 1.0 + 1j * v[~small]
    L = np.log(w)
    out[~small] = 2.0 * (w * L * _exprel_complex((alpha - 1.0) * L)).real
    return out


def _prefactor(eta_J: float, alpha: float, lam: float, C: float) -> float:
    """``eta_J C lam^alpha Gamma(2-alpha) / alpha``: equals ``eta_J C lam^alpha Gamma(-alpha) (alpha-1)``
    without the pole of Gamma(-alpha) at alpha = 1."""
    return eta_J * C * lam ** alpha * _gamma(2.0 - alpha) / alpha


def _jump_symbol_float(beta, eta_J, alpha, lam, C):
    eta_J, alpha, lam, C = _jump_params(eta_J, alpha, lam, C)
    b = as_real_array("beta", beta)
    if eta_J == 0.0:                                # no jumps: nu = 0, the integral is 0 for every beta
        return scalar_or_array(np.zeros(b.shape))
    x = np.abs(b) / lam
    out = np.full(x.shape, np.inf)
    inside = x <= 1.0
    out[inside] = _prefactor(eta_J, alpha, lam, C) * _bracket_over_prefactor(x[inside], alpha)
    return scalar_or_array(out)


@overload
def jump_symbol(beta: Real, params: LevyParams | None = ..., /, *, eta_J: Real | None = ...,
                alpha: Real | None = ..., lam: Real | None = ..., C: Real | None = ...,
                method: Literal["float"] = ..., dps: None = ...) -> float: ...
@overload
def jump_symbol(beta: Real | RealArray, params: LevyParams | None = ..., /, *, eta_J: Real | RealArray | None = ...,
                alpha: Real | RealArray | None = ..., lam: Real | RealArray | None = ...,
                C: Real | RealArray | None = ..., method: Literal["float"] = ...,
                dps: None = ...) -> float | FloatArray: ...
@overload
def jump_symbol(beta: Real, params: LevyParams | None = ..., /, *, eta_J: Real | None = ...,
                alpha: Real | None = ..., lam: Real | None = ..., C: Real | None = ..., method: Literal["mp"],
                dps: int | None = ...) -> mpf: ...
def jump_symbol(beta: Real | RealArray, params: LevyParams | None = None, /, *, eta_J: Any = None, alpha: Any = None,
                lam: Any = None, C: Any = None, method: FloatOrMp = "float",
                dps: int | None = None) -> float | FloatArray | mpf:
    r"""The CTS jump symbol ``Psi*(beta) = int (cosh(beta y) - 1) nu(dy)``, vectorised over ``beta``.

    Source: arXiv:2606.29519 (Livi 2026), coarse-grained SDE; ``docs/papers/anti-collapse.md``. Closed
    form (module docstring): ``eta_J C Gamma(-alpha) [(lam-beta)^alpha + (lam+beta)^alpha - 2 lam^alpha]``
    for ``alpha != 1``, the ``x ln x`` form at ``alpha = 1``; even in ``beta``; ``+inf`` for
    ``|beta| > lam`` when ``eta_J > 0`` (and ``0`` everywhere when ``eta_J = 0``). Domain: ``eta_J >= 0``,
    ``0 < alpha < 2``, ``lam > 0``, ``C > 0``, finite ``beta``. Parameters: a :class:`LevyParams` or the
    keywords (``C`` default 1). ``method="float"``: a float for scalar ``beta``, else a float64 array of the
    same shape; ``method="mp"``: scalar ``beta``, an ``mpmath.mpf`` correct to ``dps`` digits
    (``mpmath.inf`` beyond ``lam``), with guard digits for the small-``beta`` cancellation.

    Parameters
    ----------
    beta : float or array of float
        Where to evaluate; finite (a scalar for "mp").
    params : LevyParams, optional
        All SDE parameters in one object (positional only); or give them as keywords, never both.
    eta_J, alpha, lam, C : float
        Jump intensity ``>= 0``, stable index ``0 < alpha < 2``, tempering ``lam > 0``, normalisation
        ``C > 0`` (default 1).
    method : {"float", "mp"}
        float64, or an ``mpmath.mpf`` correct to ``dps`` digits.
    dps : int, optional
        Digits for "mp", at most :data:`MP_MAX_DPS`; None: the ambient ``mpmath.mp.dps`` (docs/conventions.md).

    Returns
    -------
    float, numpy.ndarray or mpmath.mpf
        ``Psi*(beta)``, ``+inf`` for ``|beta| > lam`` when ``eta_J > 0``.

    Raises
    ------
    TypeError
        A parameter that is not a real number, a missing parameter, or both ``params`` and keywords.
    ValueError
        A parameter outside its domain, an unknown ``method`` or a bad ``dps``.

    Examples
    --------
    >>> jump_symbol([0.0, 3.0], eta_J=1.0, alpha=1.5, lam=2.0).tolist()
    [0.0, inf]
    >>> import math   # alpha = 1/2, beta = lam: Gamma(-1/2) [sqrt(2 lam) - 2 sqrt(lam)]
    >>> v = jump_symbol(2.0, eta_J=1.0, alpha=0.5, lam=2.0)
    >>> abs(v - (-2 * math.sqrt(math.pi)) * (2.0 - 2 * math.sqrt(2.0))) < 1e-14
    True
    >>> abs(jump_symbol(1.0, eta_J=1.0, alpha=1.0, lam=2.0) - (3 * math.log(3) - 4 * math.log(2))) < 1e-15
    True
    >>> from fractions import Fraction
    >>> v = jump_symbol(1, eta_J=1, alpha=Fraction(1, 2), lam=2, method="mp", dps=40)  # Gamma(-1/2)[1+sqrt3-2sqrt2]
    >>> with mpmath.workdps(40):
    ...     ref = -2 * mpmath.sqrt(mpmath.pi) * (1 + mpmath.sqrt(3) - 2 * mpmath.sqrt(2))
    ...     print(abs(v - ref) < mpmath.mpf(10) ** -38)
    True
    """
    p = _spec(params, _JUMP, dict(eta_J=eta_J, alpha=alpha, lam=lam, C=C))
    method, dps = as_method_dps(method, dps, max_dps=MP_MAX_DPS)
    if method == "mp":
        return _phi_mp(beta, 0, None, p, dps)
    return _jump_symbol_float(beta, **p)


def jump_exponent(u: Any, params: LevyParams | None = None, /, *, eta_J: Any = None, alpha: Any = None,
                  lam: Any = None, C: Any = None):
    r"""The Levy-Khintchine exponent of the jumps, ``log E exp(i u J_1) = int (cos(u y) - 1) nu(dy)``
    ``= Psi*(i u)`` (real, ``<= 0``), vectorised over real ``u`` (float64).

    Source: the Levy measure of ``docs/papers/anti-collapse.md`` (arXiv:2606.29519, SDE section); the
    closed form is :func:`jump_symbol`'s at ``beta = i u``,
    ``eta_J C Gamma(-alpha) [(lam - i u)^alpha + (lam + i u)^alpha - 2 lam^alpha]``, evaluated in the same
    pole-free form (no ``Gamma(-alpha)`` pole, no ``1/(alpha - 1)`` cancellation: accurate through
    ``alpha = 1``) with complex logarithms. Domain as :func:`jump_symbol`, every real ``u``.
    At small ``u`` it is ``-u^2/2 int y^2 nu(dy)``; ``-inf`` once the value passes float64 (``|u|^alpha``
    beyond ~1e308). :func:`numerics.anticollapse.levy_sampling.cts_log_cf` is ``dt`` times it.

    >>> import math   # alpha = 1: 2 [Re((lam - iu) log(lam - iu)) - lam log lam]
    >>> ref = 2 * ((complex(2, -3) * complex(math.log(math.hypot(2, 3)), -math.atan2(3, 2))).real - 2 * math.log(2))
    >>> abs(jump_exponent(3.0, eta_J=1.0, alpha=1.0, lam=2.0) - ref) < 1e-14
    True
    """
    p = _spec(params, _JUMP, dict(eta_J=eta_J, alpha=alpha, lam=lam, C=C))
    eta_J, alpha, lam, C = _jump_params(**p)
    v = np.abs(as_real_array("u", u)) / lam
    with np.errstate(over="ignore", invalid="ignore"):
        out = _prefactor(eta_J, alpha, lam, C) * _bracket_imaginary(v, alpha)
    if np.any(np.isnan(out)):     # lam^alpha underflows while (|u|/lam)^alpha overflows: 0 * inf
        raise ValueError(f"|u|/lam up to {np.max(v):.3g} is beyond float64 in the lam-scaled form (lam={lam}, "
                         f"alpha={alpha}): use a larger lam or smaller |u|")
    return scalar_or_array(out)


@overload
def Phi(beta: Real, params: LevyParams | None = ..., /, *, eta_G: Real | None = ..., kappa: Real | None = ...,
        eta_J: Real | None = ..., alpha: Real | None = ..., lam: Real | None = ..., C: Real | None = ...,
        method: Literal["float"] = ..., dps: None = ...) -> float: ...
@overload
def Phi(beta: Real | RealArray, params: LevyParams | None = ..., /, *, eta_G: Real | RealArray | None = ...,
        kappa: Real | RealArray | None = ..., eta_J: Real | RealArray | None = ...,
        alpha: Real | RealArray | None = ..., lam: Real | RealArray | None = ..., C: Real | RealArray | None = ...,
        method: Literal["float"] = ..., dps: None = ...) -> float | FloatArray: ...
@overload
def Phi(beta: Real, params: LevyParams | None = ..., /, *, eta_G: Real | None = ..., kappa: Real | None = ...,
        eta_J: Real | None = ..., alpha: Real | None = ..., lam: Real | None = ..., C: Real | None = ...,
        method: Literal["mp"], dps: int | None = ...) -> mpf: ...
def Phi(beta: Real | RealArray, params: LevyParams | None = None, /, *, eta_G: Any = None, kappa: Any = None,
        eta_J: Any = None, alpha: Any = None, lam: Any = None, C: Any = None, method: FloatOrMp = "float",
        dps: int | None = None) -> float | FloatArray | mpf:
    r"""The characteristic function ``Phi(beta) = eta_G beta^2 + Psi*(beta) - kappa beta`` (vectorised).

    Source: arXiv:2606.29519, adjoint generator on ``exp(beta zeta)`` in the saturated region of the drift;
    ``docs/papers/anti-collapse.md``. Domain as :func:`jump_symbol` plus ``eta_G >= 0``, ``kappa > 0``;
    ``+inf`` for ``|beta| > lam`` when ``eta_J > 0``. Its positive root is the tail exponent. ``method``
    and ``dps`` as :func:`jump_symbol`.

    Parameters
    ----------
    beta : float or array of float
        Where to evaluate; finite (a scalar for "mp").
    params : LevyParams, optional
        All SDE parameters in one object (positional only); or give them as keywords, never both.
    eta_G, kappa : float
        Gaussian noise intensity ``eta_G >= 0`` and the drift's saturation level ``kappa > 0``.
    eta_J, alpha, lam, C : float
        The jump parameters of :func:`jump_symbol`.
    method : {"float", "mp"}
        float64, or an ``mpmath.mpf`` correct to ``dps`` digits.
    dps : int, optional
        Digits for "mp", at most :data:`MP_MAX_DPS`; None: the ambient ``mpmath.mp.dps``.

    Returns
    -------
    float, numpy.ndarray or mpmath.mpf
        ``Phi(beta)``.

    Raises
    ------
    TypeError, ValueError
        As for :func:`jump_symbol`.

    Examples
    --------
    >>> Phi(0.0, eta_G=0.2, kappa=1.0, eta_J=0.5, alpha=0.7, lam=3.0)
    0.0
    >>> Phi(2.0, eta_G=0.25, kappa=1.0, eta_J=0.0, alpha=0.7, lam=3.0)   # Gaussian: root at kappa/eta_G = 4
    -1.0
    >>> Phi(4, eta_G=0.25, kappa=1, eta_J=0, alpha=1.5, lam=5, method="mp") == 0
    True
    """
    p = _spec(params, _FIELDS, dict(eta_G=eta_G, kappa=kappa, eta_J=eta_J, alpha=alpha, lam=lam, C=C))
    method, dps = as_method_dps(method, dps, max_dps=MP_MAX_DPS)
    if method == "mp":
        return _phi_mp(beta, p["eta_G"], p["kappa"], {k: p[k] for k in _JUMP}, dps)
    eta_G, kappa = _drift_params(p["eta_G"], p["kappa"])
    b = as_real_array("beta", beta)
    psi = np.asarray(_jump_symbol_float(b, *(p[k] for k in _JUMP)), dtype=np.float64)
    with np.errstate(invalid="ignore"):
        out = np.where(np.isinf(psi), np.inf, eta_G * b * b + psi - kappa * b)
    return scalar_or_array(np.asarray(out, dtype=np.float64))


def _phi_scalar(b: float, eta_G: float, kappa: float, pref: float, alpha: float, lam: float) -> float:
    x = np.array([abs(b) / lam])
    return float(eta_G * b * b + pref * _bracket_over_prefactor(x, alpha)[0] - kappa * b)


@overload
def characteristic_root(params: LevyParams | None = ..., /, *, eta_G: Real | None = ..., kappa: Real | None = ...,
                        eta_J: Real | None = ..., alpha: Real | None = ..., lam: Real | None = ...,
                        C: Real | None = ..., method: Literal["float"] = ..., dps: None = ...) -> float: ...
@overload
def characteristic_root(params: None = ..., /, *, eta_G: Real | RealArray | None = ...,
                        kappa: Real | RealArray | None = ..., eta_J: Real | RealArray | None = ...,
                        alpha: Real | RealArray | None = ..., lam: Real | RealArray | None = ...,
                        C: Real | RealArray | None = ..., method: Literal["float"] = ...,
                        dps: None = ...) -> float | FloatArray: ...
@overload
def characteristic_root(params: LevyParams | None = ..., /, *, eta_G: Real | None = ..., kappa: Real | None = ...,
                        eta_J: Real | None = ..., alpha: Real | None = ..., lam: Real | None = ...,
                        C: Real | None = ..., method: Literal["mp"], dps: int | None = ...) -> mpf: ...
def characteristic_root(params: LevyParams | None = None, /, *, eta_G: Any = None, kappa: Any = None,
                        eta_J: Any = None, alpha: Any = None, lam: Any = None, C: Any = None,
                        method: FloatOrMp = "float", dps: int | None = None) -> float | FloatArray | mpf:
    r"""The tail exponent ``beta_eff``: the root ``beta*`` of ``Phi`` in ``(0, lam)``, or ``lam`` if none.

    Source: arXiv:2606.29519; ``docs/papers/anti-collapse.md`` ("Root"). ``Phi(0) = 0``, ``Phi'(0) = -kappa``
    and ``Phi`` is strictly convex on ``[0, lam]``, so the root exists iff ``Phi(lam) > 0`` and is then
    unique; it is bracketed by halving from ``lam/2`` until ``Phi < 0`` and solved with
    :func:`scipy.optimize.brentq` (relative accuracy ~1e-15; ``method="mp"``: the bracketing Anderson-Bjorck
    solver of :func:`mpmath.findroot` to ``dps`` digits). If ``Phi(lam) <= 0`` the tempering sets the
    tail: ``lam`` is returned. If ``eta_J = 0`` the answer is ``kappa / eta_G`` (``lam`` is irrelevant).
    Domain: ``eta_G >= 0``, ``kappa > 0``, ``eta_J >= 0``, ``eta_G + eta_J > 0``, ``0 < alpha < 2``,
    ``lam > 0``, ``C > 0``.

    Parameters
    ----------
    params : LevyParams, optional
        All SDE parameters in one object (positional only); or give them as keywords, never both.
    eta_G, kappa, eta_J, alpha, lam, C : float or array of float
        As for :func:`Phi`; arrays broadcast on the float path (one root per element).
    method : {"float", "mp"}
        float64 (relative accuracy ~1e-15), or an ``mpmath.mpf`` correct to ``dps`` digits.
    dps : int, optional
        Digits for "mp", at most :data:`MP_MAX_DPS`; None: the ambient ``mpmath.mp.dps``.

    Returns
    -------
    float, numpy.ndarray or mpmath.mpf
        ``beta_eff = min(beta*, lam)``; ``kappa / eta_G`` when ``eta_J = 0``.

    Raises
    ------
    TypeError, ValueError
        As for :func:`jump_symbol`; also ``eta_G = eta_J = 0`` (no noise: no stationary law).

    Examples
    --------
    >>> characteristic_root(eta_G=0.2, kappa=0.5, eta_J=0.0, alpha=1.0, lam=1.0)
    2.5
    >>> characteristic_root(eta_G=0.01, kappa=5.0, eta_J=0.01, alpha=0.5, lam=0.3)   # tempering sets it
    0.3
    >>> r = characteristic_root(eta_G=0, kappa=1, eta_J=1, alpha=1, lam=2, method="mp", dps=50)
    >>> abs(Phi(r, eta_G=0, kappa=1, eta_J=1, alpha=1, lam=2, method="mp", dps=50)) < mpmath.mpf(10) ** -45
    True
    >>> abs(float(r) - characteristic_root(eta_G=0, kappa=1, eta_J=1, alpha=1, lam=2)) < 1e-14
    True
    >>> characteristic_root(eta_G=0.2, kappa=0.5, eta_J=[0.0, 0.0], alpha=1.0, lam=[1.0, 2.0]).tolist()   # arrays
    [2.5, 2.5]
    """
    p = _spec(params, _FIELDS, dict(eta_G=eta_G, kappa=kappa, eta_J=eta_J, alpha=alpha, lam=lam, C=C))
    method, dps = as_method_dps(method, dps, max_dps=MP_MAX_DPS)
    if method == "mp":
        return _root_mp(p, dps)
    if any(isinstance(v, (np.ndarray, list, tuple)) for v in p.values()):
        return _root_elementwise(p)
    return _root_float(p)


def _root_elementwise(p: dict) -> np.ndarray:
    """The float root over parameter arrays broadcast together (:func:`theory._args.elementwise`)."""
    return elementwise(lambda **kw: _root_float(kw), np.float64, p, as_real_array)


def _root_float(p: dict) -> float:
    """:func:`characteristic_root` on the float path for scalar parameters."""
    eta_G, kappa = _drift_params(p["eta_G"], p["kappa"])
    eta_J, alpha, lam, C = _jump_params(*(p[k] for k in _JUMP))
    if eta_J == 0.0:
        if eta_G == 0.0:
            raise ValueError(_NO_NOISE)
        return kappa / eta_G
    args = (eta_G, kappa, _prefactor(eta_J, alpha, lam, C), alpha, lam)
    if _phi_scalar(lam, *args) <= 0.0:
        return lam
    lo = 0.5 * lam
    for _ in range(1100):                           # Phi'(0) = -kappa < 0: Phi < 0 just right of 0
        if _phi_scalar(lo, *args) < 0.0:
            break
        lo *= 0.5
    else:  # kappa ~ 1e-300: the root lies below float64's resolution of Phi
        raise ValueError(f"kappa={kappa!r} is too small against the noise: the root of Phi is not resolvable in "
                         "float64 (use method='mp')")
    return float(brentq(_phi_scalar, lo, lam, args=args, xtol=1e-300, rtol=4 * np.finfo(float).eps,
                        maxiter=500))


def threshold_eta_J(params: LevyParams | None = None, /, *, eta_G: Any = None, kappa: Any = None,
                    alpha: Any = None, lam: Any = None, C: Any = None) -> float:
    r"""The jump intensity ``eta_J*`` above which ``beta_eff < 1`` (broad, extended anti-collapse).

    Source: arXiv:2606.29519; ``docs/papers/anti-collapse.md`` ("Threshold"). For ``lam >= 1`` and
    ``kappa > eta_G``:

    ``eta_J* = (kappa - eta_G) / (C Gamma(-alpha) [(lam-1)^alpha + (lam+1)^alpha - 2 lam^alpha])``,

    i.e. ``Phi(1) = 0`` (``beta*(eta_J*) = 1``). Returns ``0.0`` if ``eta_G >= kappa`` (Gaussian noise alone
    gives ``beta = kappa/eta_G <= 1``) or ``lam < 1`` (``beta_eff <= lam < 1`` for every ``eta_J > 0``;
    at ``lam = 1`` the formula holds and ``beta_eff = 1`` for ``eta_J <= eta_J*``). A :class:`LevyParams`
    may be passed: its ``eta_J`` is ignored.

    Parameters
    ----------
    params : LevyParams, optional
        All SDE parameters in one object (positional only); or give them as keywords, never both.
    eta_G, kappa, alpha, lam, C : float
        As for :func:`Phi` (no ``eta_J``: it is the answer).

    Returns
    -------
    float
        ``eta_J* >= 0``.

    Raises
    ------
    TypeError, ValueError
        As for :func:`jump_symbol`.

    Examples
    --------
    >>> threshold_eta_J(eta_G=0.5, kappa=0.4, alpha=1.5, lam=2.0)
    0.0
    >>> threshold_eta_J(eta_G=0.1, kappa=1.0, alpha=1.5, lam=0.5)
    0.0
    >>> import math   # alpha = 1, lam = 1: C [2 ln 2] = 0.9 / eta_J*
    >>> abs(threshold_eta_J(eta_G=0.1, kappa=1.0, alpha=1.0, lam=1.0) - 0.9 / (2 * math.log(2))) < 1e-15
    True
    """
    p = _spec(params, ("eta_G", "kappa", "alpha", "lam", "C"),
              dict(eta_G=eta_G, kappa=kappa, alpha=alpha, lam=lam, C=C))
    eta_G, kappa = _drift_params(p["eta_G"], p["kappa"])
    _, alpha, lam, C = _jump_params(0.0, p["alpha"], p["lam"], p["C"])
    if eta_G >= kappa or lam < 1.0:
        return 0.0
    return (kappa - eta_G) / _jump_symbol_float(1.0, 1.0, alpha, lam, C)


def critical_eta_J(eta_G: Any, *, kappa: float, alpha: float, lam: float, C: float = 1.0):
    r"""The critical manifold ``beta* = 1`` as ``eta_J(eta_G) = (kappa - eta_G) / (Psi*(1)/eta_J)``.

    Source: ``docs/papers/anti-collapse.md`` ("Phases": critical manifold ``eta_G + Psi*(1) = kappa``).
    Vectorised over ``eta_G``; domain ``0 <= eta_G <= kappa`` and ``lam >= 1`` (for ``lam < 1`` every
    ``eta_J > 0`` gives ``beta_eff < 1``: there is no manifold, ValueError). Points with ``eta_J`` above
    the line are extended (``beta < 1``), below it concentrated.

    >>> critical_eta_J([0.0, 1.0], kappa=1.0, alpha=1.0, lam=1.0).round(12).tolist()
    [0.721347520444, 0.0]
    """
    kappa = as_real("kappa", kappa, minimum=0.0, open_min=True)
    _, alpha, lam, C = _jump_params(0.0, alpha, lam, C)
    g = as_real_array("eta_G", eta_G, minimum=0.0)
    if np.any(g > kappa):
        raise ValueError(f"eta_G must be in [0, kappa] = [0, {kappa}] on the critical manifold")
    if lam < 1.0:
        raise ValueError(f"lam must be >= 1 for a critical manifold (got {lam}); for lam < 1 every "
                         "eta_J > 0 gives beta_eff <= lam < 1")
    return scalar_or_array((kappa - g) / _jump_symbol_float(1.0, 1.0, alpha, lam, C))


def critical_kappa(params: LevyParams | None = None, /, *, eta_G: Any = None, eta_J: Any = None,
                   alpha: Any = None, lam: Any = None, C: Any = None) -> float:
    r"""The drift saturation on the critical manifold: ``kappa_c = eta_G + Psi*(1)`` (``+inf`` if
    ``lam < 1`` and ``eta_J > 0``). ``kappa < kappa_c`` gives ``beta < 1``.

    Source: ``docs/papers/anti-collapse.md`` ("Phases"). Domain as :func:`jump_symbol`, ``eta_G >= 0``;
    a :class:`LevyParams` may be passed (its ``kappa`` is ignored).

    >>> critical_kappa(eta_G=0.3, eta_J=0.0, alpha=1.2, lam=2.0)
    0.3
    """
    p = _spec(params, ("eta_G",) + _JUMP, dict(eta_G=eta_G, eta_J=eta_J, alpha=alpha, lam=lam, C=C))
    return as_real("eta_G", p["eta_G"], minimum=0.0) + _jump_symbol_float(1.0, *(p[k] for k in _JUMP))


def phase_of_beta(beta: Any, *, tol: float = 1e-9) -> str:
    r"""The phase named by a tail exponent: "concentrated" (``beta > 1``), "extended" (``beta < 1``),
    "boundary" (``|beta - 1| <= tol``), "collapsed" (``beta = None``: no power-law tail).

    Source: ``docs/papers/anti-collapse.md`` ("Phases"). ``beta`` must be > 0 or None.

    >>> [phase_of_beta(b) for b in (0.4, 1.0, 2.5, None)]
    ['extended', 'boundary', 'concentrated', 'collapsed']
    """
    tol = as_real("tol", tol, minimum=0.0)
    if beta is None:
        return "collapsed"
    beta = as_real("beta", beta, minimum=0.0, open_min=True)
    if abs(beta - 1.0) <= tol:
        return "boundary"
    return "concentrated" if beta > 1.0 else "extended"


def phase(params: LevyParams | None = None, /, *, eta_G: Any = None, kappa: Any = None, eta_J: Any = None,
          alpha: Any = None, lam: Any = None, C: Any = None, drift: str = "saturating",
          tol: float = 1e-9) -> str:
    r"""The theoretical phase of the SDE at these parameters.

    Source: ``docs/papers/anti-collapse.md`` ("Phases"). With ``drift="linear"`` (OU, no left saturation)
    zeta is Gaussian and tau log-normal: "collapsed" whatever the noise. With the saturating drift the
    phase is :func:`phase_of_beta` of :func:`characteristic_root` ("boundary" within ``tol`` of 1).
    ``drift`` is one of :data:`DRIFTS` (the names :class:`numerics.anticollapse.sde.SDEConfig` uses too).

    Parameters
    ----------
    params : LevyParams, optional
        All SDE parameters in one object (positional only); or give them as keywords, never both.
    eta_G, kappa, eta_J, alpha, lam, C : float
        As for :func:`characteristic_root` (scalars: one point, one label).
    drift : {"saturating", "linear"}
        The drift model.
    tol : float
        Half-width of the "boundary" band around ``beta = 1``.

    Returns
    -------
    str
        One of :data:`PHASES` ("collapsed", "concentrated", "extended" or "boundary").

    Raises
    ------
    TypeError
        An array parameter, or as for :func:`characteristic_root`.
    ValueError
        An unknown ``drift``, or as for :func:`characteristic_root`.

    Examples
    --------
    >>> phase(eta_G=0.1, kappa=0.5, eta_J=0.0, alpha=1.5, lam=3.0)          # beta = 5
    'concentrated'
    >>> phase(eta_G=0.1, kappa=0.5, eta_J=0.0, alpha=1.5, lam=3.0, drift="linear")
    'collapsed'
    >>> phase(eta_G=0.5, kappa=0.5, eta_J=0.0, alpha=1.5, lam=3.0)          # beta = 1
    'boundary'
    """
    drift = as_choice("drift", drift, DRIFTS)
    for name, v in dict(eta_G=eta_G, kappa=kappa, eta_J=eta_J, alpha=alpha, lam=lam, C=C).items():
        if isinstance(v, (np.ndarray, list, tuple)):     # one phase label per call (the root broadcasts)
            raise TypeError(f"{name} must be a real number (phase names one point), got {type(v).__name__}")
    beta = characteristic_root(params, eta_G=eta_G, kappa=kappa, eta_J=eta_J, alpha=alpha, lam=lam, C=C)
    if drift == "linear":
        return "collapsed"
    return phase_of_beta(beta, tol=tol)


# ----------------------------------------------------------------------------------------------------
# arbitrary precision path (local mpmath context; never the global mp.dps)
# ----------------------------------------------------------------------------------------------------
def _as_mpf(name: str, value: Any, *, minimum=None, open_min=False, maximum=None, open_max=False):
    """A finite real (Python/NumPy number, Fraction, mpmath.mpf) as an mpf at the current precision."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a real number, not a bool")
    if isinstance(value, (np.integer, np.floating)):
        value = value.item()           # mpmath.mpf(np.int64(1)) raises; the Python number is the same value
    if isinstance(value, mpmath.mpf):
        out = +value
    elif isinstance(value, numbers.Integral):      # NumPy integers too (mpmath takes Python ints only)
        out = mpmath.mpf(int(value))
    elif isinstance(value, numbers.Rational):
        out = mpmath.mpf(int(value.numerator)) / int(value.denominator)
    elif isinstance(value, numbers.Real):
        out = mpmath.mpf(float(value))
    else:
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    if not mpmath.isfinite(out):
        raise ValueError(f"{name} must be finite, got {value!r}")
    # compared as mpf: a float range check would round values next to a bound (alpha = 2 - 1e-30) onto it
    below = minimum is not None and (out < minimum or (open_min and out == minimum))
    above = maximum is not None and (out > maximum or (open_max and out == maximum))
    if below or above:
        lo = "-inf" if minimum is None else minimum
        hi = "inf" if maximum is None else maximum
        raise ValueError(f"{name} must be in {'(' if open_min else '['}{lo}, {hi}{')' if open_max else ']'}, "
                         f"got {value!r}")
    return out


def _mp_params(eta_J, alpha, lam, C):
    return (_as_mpf("eta_J", eta_J, minimum=0, maximum=PARAM_MAX),
            _as_mpf("alpha", alpha, minimum=0, open_min=True, maximum=2, open_max=True),
            _as_mpf("lam", lam, minimum=0, open_min=True, maximum=PARAM_MAX),
            _as_mpf("C", C, minimum=0, open_min=True, maximum=PARAM_MAX))


def _psi_mp(b, eta_J, alpha, lam, C):
    """Psi*(b) at the current mpmath precision (inputs already mpf); caller adds guard digits."""
    x = abs(b) / lam
    if x > 1:
        return mpmath.inf
    if x == 0 or eta_J == 0:
        return mpmath.mpf(0)
    # at small alpha the two terms cancel to O(alpha x^2) from O(x): log10(1/alpha) more digits are lost
    with mpmath.workdps(mpmath.mp.dps + (int(-mpmath.log10(alpha)) + 1 if alpha < 1 else 0)):
        e = alpha - 1
        out = eta_J * C * lam ** alpha * mpmath.gamma(2 - alpha) / alpha * (_psi_term(x, e) + _psi_term(-x, e))
    return +out


def _psi_term(u, e):
    """``(1+u) ln(1+u) exprel((alpha-1) ln(1+u))``, ``e = alpha - 1``; log1p keeps ln(1+u) relatively exact
    at small u."""
    if u == -1:
        return mpmath.mpf(0)
    L = mpmath.log1p(u)
    return (1 + u) * (L if e == 0 else mpmath.expm1(e * L) / e)


def _guard_digits(b, lam) -> int:
    # the two log terms cancel to O(x^2) from O(x): log10(1/x) digits are lost at small x
    x = abs(b) / lam
    return 10 + (int(-mpmath.log10(x)) if 0 < x < 1 else 0)


def _phi_mp(beta, eta_G, kappa, jump: dict, dps: int):
    """``Phi(beta)`` (or ``Psi*(beta)`` when ``kappa`` is None) as an mpf to ``dps`` digits, local context."""
    with mpmath.workdps(dps):
        b = _as_mpf("beta", beta)
        g = _as_mpf("eta_G", eta_G, minimum=0)
        k = None if kappa is None else _as_mpf("kappa", kappa, minimum=0, open_min=True)
        params = _mp_params(*(jump[n] for n in _JUMP))
    with mpmath.workdps(dps + _guard_digits(b, params[2])):
        psi = _psi_mp(b, *params)
        out = psi if (k is None or mpmath.isinf(psi)) else g * b * b + psi - k * b
    with mpmath.workdps(dps):
        return +out


def _root_mp(p: dict, dps: int):
    """:func:`characteristic_root` to ``dps`` digits: bracketed as in the float path, polished by
    :func:`mpmath.findroot` (Anderson-Bjorck) in a local context with 15 guard digits."""
    work = dps + 15
    with mpmath.workdps(work):
        g = _as_mpf("eta_G", p["eta_G"], minimum=0)
        k = _as_mpf("kappa", p["kappa"], minimum=0, open_min=True)
        eJ, a, lam, C = _mp_params(*(p[n] for n in _JUMP))
        if eJ == 0:
            if g == 0:
                raise ValueError(_NO_NOISE)
            out = k / g
        else:
            def phi(b):
                with mpmath.workdps(work + _guard_digits(b, lam)):
                    v = g * b * b + _psi_mp(b, eJ, a, lam, C) - k * b
                return +v

            if phi(lam) <= 0:
                out = lam
            else:
                lo, hi = lam / 2, lam
                while phi(lo) >= 0:
                    lo, hi = lo / 2, lo
                # findroot's tolerances are absolute, on the step and on |phi|: solve for u = beta / hi in
                # (1/2, 1) with phi scaled to O(1) on that bracket (scales taken at lam ~ 1e30, or a root
                # ~ 1e-300, would accept any point of the bracket as the root)
                scale = max(abs(phi(lo)), abs(phi(hi)))
                try:
                    out = hi * mpmath.findroot(lambda u: phi(u * hi) / scale, (lo / hi, 1), solver="anderson")
                except ValueError:
                    out = None
                # findroot accepts a small |phi / scale|, not a sign change: a Phi far steeper near lam than
                # elsewhere (alpha -> 0) passes that test anywhere; the root is kept only if bracketed to dps
                delta = mpmath.mpf(10) ** -dps
                if out is None or not (phi(out * (1 - delta)) < 0 <= phi(min(lam, out * (1 + delta)))):
                    out = _bisect(phi, lo, hi, work)
    with mpmath.workdps(dps):
        return +out


def _bisect(phi, lo, hi, digits: int):
    """The sign change of ``phi`` on ``(lo, hi)`` (``phi(lo) < 0 <= phi(hi)``, ``hi <= 2 lo``) to ``digits``
    relative digits: slow but certain where the secant steps of findroot do not converge."""
    for _ in range(int(3.33 * digits) + 8):
        mid = (lo + hi) / 2
        if phi(mid) < 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


# ----------------------------------------------------------------------------------------------------
# symbolic form
# ----------------------------------------------------------------------------------------------------
def Phi_symbolic(alpha: Any = None) -> sympy.Expr:
    r"""``Phi(beta)`` as a sympy expression, valid for ``|beta| <= lam``.

    Symbols: ``beta, eta_G, kappa, eta_J, C, lam`` (positive except beta, real) and, for ``alpha=None``,
    ``alpha`` (the ``Gamma(-alpha)`` form, ``alpha != 1``). An exact ``alpha`` (int, Fraction, sympy
    Rational) in ``(0, 2)`` is substituted; ``alpha = 1`` gives the logarithmic form. Source: module
    docstring (``docs/papers/anti-collapse.md``).

    >>> e = Phi_symbolic()
    >>> b, k = sympy.Symbol("beta", real=True), sympy.Symbol("kappa", positive=True)
    >>> sympy.simplify(sympy.diff(e, b).subs(b, 0) + k)       # Phi'(0) = -kappa
    0
    >>> Phi_symbolic(1).subs(sympy.Symbol("beta", real=True), 0)
    0
    """
    beta = sympy.Symbol("beta", real=True)
    eta_G, kappa, eta_J, C, lam = sympy.symbols("eta_G kappa eta_J C lam", positive=True)
    if alpha is None:
        a = sympy.Symbol("alpha", positive=True)
    else:
        if isinstance(alpha, (bool, float, np.floating)) or not isinstance(alpha, (numbers.Rational,
                                                                                  sympy.Rational)):
            raise TypeError(f"alpha must be None or an exact rational (int, Fraction, sympy Rational), got {alpha!r}")
        a = sympy.Rational(alpha.numerator, alpha.denominator) if not isinstance(alpha, sympy.Basic) \
            else sympy.Rational(alpha)
        if not (0 < a < 2):
            raise ValueError(f"alpha must be in (0, 2), got {alpha!r}")
    if a == 1:
        psi = eta_J * C * ((lam - beta) * sympy.log(lam - beta) + (lam + beta) * sympy.log(lam + beta)
                           - 2 * lam * sympy.log(lam))
    else:
        psi = eta_J * C * sympy.gamma(-a) * ((lam - beta) ** a + (lam + beta) ** a - 2 * lam ** a)
    return eta_G * beta ** 2 + psi - kappa * beta
