r"""Tempered-stable Levy SDE for the log-rate: the characteristic equation for the spectral exponent beta.

Source: L. Livi, "Anti-Collapse Dynamics and the Emergence of Multi-Time-Scale Learning in Recurrent
Neural Networks", arXiv:2606.29519 (2026), the coarse-grained SDE of the log-rate (re-derived in
``docs/papers/anti-collapse.md``, section "Coarse-grained SDE for the log-rate"; the paper's full text is
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

``C`` (the spec's ``C_a``) is a free normalisation, default 1: only the product ``eta_J C`` enters.

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
name the phases measured from data (:func:`numerics.estimators.phase_rule`), plus "unresolved" when the
measurement cannot decide (too few tail units, a poor tail fit); :data:`PHASES` is the one vocabulary.

Precision paths: float64 (vectorised numpy/scipy), ``*_mp`` functions with a ``dps`` argument and a local
mpmath context, and :func:`Phi_symbolic` (sympy).

>>> round(characteristic_root(eta_G=0.1, kappa=0.5, eta_J=0.0, alpha=1.5, lam=3.0), 12)   # kappa / eta_G
5.0
>>> jump_symbol(0.0, eta_J=1.0, alpha=0.5, lam=2.0)
0.0
"""

from __future__ import annotations

import numbers
from typing import Any

import mpmath
import numpy as np
import sympy
from scipy.optimize import brentq
from scipy.special import exprel, gamma as _gamma

from theory._args import PARAM_MAX, as_choice, as_int, as_real, as_real_array

__all__ = [
    "jump_symbol", "Phi", "characteristic_root", "threshold_eta_J", "critical_eta_J", "critical_kappa",
    "phase", "phase_of_beta", "jump_symbol_mp", "Phi_mp", "characteristic_root_mp", "Phi_symbolic",
    "PHASES", "DEFAULT_DPS",
]

PHASES = ("collapsed", "concentrated", "extended", "boundary", "unresolved")
DRIFTS = ("saturating", "linear")
DEFAULT_DPS = 30
_SERIES_X = 0.5       # below this x = |beta|/lambda the positive series is used (x^2 <= 1/4 per term)
_SERIES_TERMS = 40    # 0.25^40 ~ 1e-24: float64 converged for every alpha in (0, 2)


# ----------------------------------------------------------------------------------------------------
# argument checks
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


def _scalar_or_array(arr: np.ndarray):
    return float(arr) if arr.ndim == 0 else arr


# ----------------------------------------------------------------------------------------------------
# float64 path
# ----------------------------------------------------------------------------------------------------
def _bracket_over_prefactor(x: np.ndarray, alpha: float) -> np.ndarray:
    r"""``B(x) = alpha [(1-x)^alpha + (1+x)^alpha - 2] / (alpha (alpha-1))`` for ``0 <= x <= 1``, i.e.
    ``Psi* / (eta_J C lambda^alpha Gamma(2-alpha) / alpha)``; nonnegative, continuous in alpha."""
    out = np.empty_like(x)
    small = x <= _SERIES_X
    if np.any(small):
        x2 = x[small] ** 2
        coef = np.empty(_SERIES_TERMS)
        coef[0] = alpha / 2.0
        for k in range(1, _SERIES_TERMS):
            coef[k] = coef[k - 1] * (alpha - 2 * k) * (alpha - 2 * k - 1) / ((2 * k + 1) * (2 * k + 2))
        acc = np.zeros_like(x2)
        for c in coef[::-1]:                       # Horner in x^2
            acc = acc * x2 + c
        out[small] = 2.0 * acc * x2
    big = ~small
    if np.any(big):
        xb = x[big]
        lp = np.log1p(xb)
        term_p = (1.0 + xb) * lp * exprel((alpha - 1.0) * lp)
        term_m = np.zeros_like(xb)
        inner = xb < 1.0                            # at x = 1 the (1-x) term is exactly 0
        lm = np.log1p(-xb[inner])
        term_m[inner] = (1.0 - xb[inner]) * lm * exprel((alpha - 1.0) * lm)
        out[big] = term_p + term_m
    return out


def jump_symbol(beta: Any, *, eta_J: float, alpha: float, lam: float, C: float = 1.0):
    r"""The CTS jump symbol ``Psi*(beta) = int (cosh(beta y) - 1) nu(dy)``, vectorised over ``beta``.

    Source: arXiv:2606.29519 (Livi 2026), coarse-grained SDE; ``docs/papers/anti-collapse.md``. Closed
    form (module docstring): ``eta_J C Gamma(-alpha) [(lam-beta)^alpha + (lam+beta)^alpha - 2 lam^alpha]``
    for ``alpha != 1``, the ``x ln x`` form at ``alpha = 1``; even in ``beta``; ``+inf`` for
    ``|beta| > lam`` when ``eta_J > 0`` (and ``0`` everywhere when ``eta_J = 0``). Domain: ``eta_J >= 0``, ``0 < alpha < 2``, ``lam > 0``, ``C > 0``, finite ``beta``.
    Returns a float for scalar ``beta``, else a float64 array of the same shape.

    >>> jump_symbol([0.0, 3.0], eta_J=1.0, alpha=1.5, lam=2.0).tolist()
    [0.0, inf]
    >>> import math   # alpha = 1/2, beta = lam: Gamma(-1/2) [sqrt(2 lam) - 2 sqrt(lam)]
    >>> v = jump_symbol(2.0, eta_J=1.0, alpha=0.5, lam=2.0)
    >>> abs(v - (-2 * math.sqrt(math.pi)) * (2.0 - 2 * math.sqrt(2.0))) < 1e-14
    True
    >>> abs(jump_symbol(1.0, eta_J=1.0, alpha=1.0, lam=2.0) - (3 * math.log(3) - 4 * math.log(2))) < 1e-15
    True
    """
    eta_J, alpha, lam, C = _jump_params(eta_J, alpha, lam, C)
    b = as_real_array("beta", beta)
    if eta_J == 0.0:                                # no jumps: nu = 0, the integral is 0 for every beta
        return _scalar_or_array(np.zeros(b.shape))
    x = np.abs(b) / lam
    out = np.full(x.shape, np.inf)
    inside = x <= 1.0
    pref = eta_J * C * lam ** alpha * _gamma(2.0 - alpha) / alpha
    out[inside] = pref * _bracket_over_prefactor(x[inside], alpha)
    return _scalar_or_array(out)


def Phi(beta: Any, *, eta_G: float, kappa: float, eta_J: float, alpha: float, lam: float, C: float = 1.0):
    r"""The characteristic function ``Phi(beta) = eta_G beta^2 + Psi*(beta) - kappa beta`` (vectorised).

    Source: arXiv:2606.29519, adjoint generator on ``exp(beta zeta)`` in the saturated region of the drift;
    ``docs/papers/anti-collapse.md``. Domain as :func:`jump_symbol` plus ``eta_G >= 0``, ``kappa > 0``;
    ``+inf`` for ``|beta| > lam`` when ``eta_J > 0``. Its positive root is the tail exponent.

    >>> Phi(0.0, eta_G=0.2, kappa=1.0, eta_J=0.5, alpha=0.7, lam=3.0)
    0.0
    >>> Phi(2.0, eta_G=0.25, kappa=1.0, eta_J=0.0, alpha=0.7, lam=3.0)   # Gaussian: root at kappa/eta_G = 4
    -1.0
    """
    eta_G, kappa = _drift_params(eta_G, kappa)
    b = as_real_array("beta", beta)
    psi = np.asarray(jump_symbol(b, eta_J=eta_J, alpha=alpha, lam=lam, C=C), dtype=np.float64)
    with np.errstate(invalid="ignore"):
        out = np.where(np.isinf(psi), np.inf, eta_G * b * b + psi - kappa * b)
    return _scalar_or_array(np.asarray(out, dtype=np.float64))


def _phi_scalar(b: float, eta_G: float, kappa: float, pref: float, alpha: float, lam: float) -> float:
    x = np.array([abs(b) / lam])
    return float(eta_G * b * b + pref * _bracket_over_prefactor(x, alpha)[0] - kappa * b)


def characteristic_root(*, eta_G: float, kappa: float, eta_J: float, alpha: float, lam: float,
                        C: float = 1.0) -> float:
    r"""The tail exponent ``beta_eff``: the root ``beta*`` of ``Phi`` in ``(0, lam)``, or ``lam`` if none.

    Source: arXiv:2606.29519; ``docs/papers/anti-collapse.md`` ("Root"). ``Phi(0) = 0``, ``Phi'(0) = -kappa``
    and ``Phi`` is strictly convex on ``[0, lam]``, so the root exists iff ``Phi(lam) > 0`` and is then
    unique; it is bracketed by halving from ``lam/2`` until ``Phi < 0`` and solved with
    :func:`scipy.optimize.brentq` (relative accuracy ~1e-15). If ``Phi(lam) <= 0`` the tempering sets the
    tail: ``lam`` is returned. If ``eta_J = 0`` the answer is ``kappa / eta_G`` (``lam`` is irrelevant).
    Domain: ``eta_G >= 0``, ``kappa > 0``, ``eta_J >= 0``, ``eta_G + eta_J > 0``, ``0 < alpha < 2``,
    ``lam > 0``, ``C > 0``.

    >>> characteristic_root(eta_G=0.2, kappa=0.5, eta_J=0.0, alpha=1.0, lam=1.0)
    2.5
    >>> characteristic_root(eta_G=0.01, kappa=5.0, eta_J=0.01, alpha=0.5, lam=0.3)   # tempering sets it
    0.3
    """
    eta_G, kappa = _drift_params(eta_G, kappa)
    eta_J, alpha, lam, C = _jump_params(eta_J, alpha, lam, C)
    if eta_J == 0.0:
        if eta_G == 0.0:
            raise ValueError("eta_G and eta_J are both 0: without noise there is no stationary tail "
                             "(need eta_G > 0 or eta_J > 0)")
        return kappa / eta_G
    pref = eta_J * C * lam ** alpha * _gamma(2.0 - alpha) / alpha
    args = (eta_G, kappa, pref, alpha, lam)
    if _phi_scalar(lam, *args) <= 0.0:
        return lam
    lo = 0.5 * lam
    for _ in range(1100):                           # Phi'(0) = -kappa < 0: Phi < 0 just right of 0
        if _phi_scalar(lo, *args) < 0.0:
            break
        lo *= 0.5
    else:  # kappa ~ 1e-300: the root lies below float64's resolution of Phi
        raise ValueError(f"kappa={kappa!r} is too small against the noise: the root of Phi is not resolvable in "
                         "float64 (use characteristic_root_mp)")
    return float(brentq(_phi_scalar, lo, lam, args=args, xtol=1e-300, rtol=4 * np.finfo(float).eps,
                        maxiter=500))


def threshold_eta_J(*, eta_G: float, kappa: float, alpha: float, lam: float, C: float = 1.0) -> float:
    r"""The jump intensity ``eta_J*`` above which ``beta_eff < 1`` (broad, extended anti-collapse).

    Source: arXiv:2606.29519; ``docs/papers/anti-collapse.md`` ("Threshold"). For ``lam >= 1`` and
    ``kappa > eta_G``:

    ``eta_J* = (kappa - eta_G) / (C Gamma(-alpha) [(lam-1)^alpha + (lam+1)^alpha - 2 lam^alpha])``,

    i.e. ``Phi(1) = 0`` (``beta*(eta_J*) = 1``). Returns ``0.0`` if ``eta_G >= kappa`` (Gaussian noise alone
    gives ``beta = kappa/eta_G <= 1``) or ``lam < 1`` (``beta_eff <= lam < 1`` for every ``eta_J > 0``;
    at ``lam = 1`` the formula holds and ``beta_eff = 1`` for ``eta_J <= eta_J*``).

    >>> threshold_eta_J(eta_G=0.5, kappa=0.4, alpha=1.5, lam=2.0)
    0.0
    >>> threshold_eta_J(eta_G=0.1, kappa=1.0, alpha=1.5, lam=0.5)
    0.0
    >>> import math   # alpha = 1, lam = 1: C [2 ln 2] = 0.9 / eta_J*
    >>> abs(threshold_eta_J(eta_G=0.1, kappa=1.0, alpha=1.0, lam=1.0) - 0.9 / (2 * math.log(2))) < 1e-15
    True
    """
    eta_G, kappa = _drift_params(eta_G, kappa)
    _, alpha, lam, C = _jump_params(0.0, alpha, lam, C)
    if eta_G >= kappa or lam < 1.0:
        return 0.0
    psi1 = jump_symbol(1.0, eta_J=1.0, alpha=alpha, lam=lam, C=C)
    return (kappa - eta_G) / psi1


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
    psi1 = jump_symbol(1.0, eta_J=1.0, alpha=alpha, lam=lam, C=C)
    return _scalar_or_array((kappa - g) / psi1)


def critical_kappa(*, eta_G: float, eta_J: float, alpha: float, lam: float, C: float = 1.0) -> float:
    r"""The drift saturation on the critical manifold: ``kappa_c = eta_G + Psi*(1)`` (``+inf`` if
    ``lam < 1`` and ``eta_J > 0``). ``kappa < kappa_c`` gives ``beta < 1``.

    Source: ``docs/papers/anti-collapse.md`` ("Phases"). Domain as :func:`jump_symbol`, ``eta_G >= 0``.

    >>> critical_kappa(eta_G=0.3, eta_J=0.0, alpha=1.2, lam=2.0)
    0.3
    """
    eta_G = as_real("eta_G", eta_G, minimum=0.0)
    return eta_G + jump_symbol(1.0, eta_J=eta_J, alpha=alpha, lam=lam, C=C)


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


def phase(*, eta_G: float, kappa: float, eta_J: float, alpha: float, lam: float, C: float = 1.0,
          drift: str = "saturating", tol: float = 1e-9) -> str:
    r"""The theoretical phase of the SDE at these parameters.

    Source: ``docs/papers/anti-collapse.md`` ("Phases"). With ``drift="linear"`` (OU, no left saturation)
    zeta is Gaussian and tau log-normal: "collapsed" whatever the noise. With the saturating drift the
    phase is :func:`phase_of_beta` of :func:`characteristic_root` ("boundary" within ``tol`` of 1).

    >>> phase(eta_G=0.1, kappa=0.5, eta_J=0.0, alpha=1.5, lam=3.0)          # beta = 5
    'concentrated'
    >>> phase(eta_G=0.1, kappa=0.5, eta_J=0.0, alpha=1.5, lam=3.0, drift="linear")
    'collapsed'
    >>> phase(eta_G=0.5, kappa=0.5, eta_J=0.0, alpha=1.5, lam=3.0)          # beta = 1
    'boundary'
    """
    drift = as_choice("drift", drift, DRIFTS)
    beta = characteristic_root(eta_G=eta_G, kappa=kappa, eta_J=eta_J, alpha=alpha, lam=lam, C=C)
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
    elif isinstance(value, numbers.Rational) and not isinstance(value, numbers.Integral):
        out = mpmath.mpf(value.numerator) / value.denominator
    elif isinstance(value, numbers.Real):
        out = mpmath.mpf(value)
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


def _check_dps(dps: Any) -> int:
    return as_int("dps", dps, minimum=5, maximum=100_000)


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
    e = alpha - 1

    def term(u):                                # (1+u) ln(1+u) exprel((alpha-1) ln(1+u)); log1p keeps
        if u == -1:                             # ln(1+u) relatively exact at small u
            return mpmath.mpf(0)
        L = mpmath.log1p(u)
        return (1 + u) * (L if e == 0 else mpmath.expm1(e * L) / e)

    return eta_J * C * lam ** alpha * mpmath.gamma(2 - alpha) / alpha * (term(x) + term(-x))


def _guard_digits(b, lam) -> int:
    # the two log terms cancel to O(x^2) from O(x): log10(1/x) digits are lost at small x
    x = abs(b) / lam
    return 10 + (int(-mpmath.log10(x)) if 0 < x < 1 else 0)


def jump_symbol_mp(beta: Any, *, eta_J: Any, alpha: Any, lam: Any, C: Any = 1, dps: int = DEFAULT_DPS):
    r""":func:`jump_symbol` as an ``mpmath.mpf`` correct to ``dps`` digits (``mpmath.inf`` beyond ``lam``).

    Same closed form and domain as :func:`jump_symbol`; arguments may be ints, floats, Fractions or mpf.
    Evaluated in a local ``mpmath.workdps`` context with guard digits for the small-``beta`` cancellation.

    >>> from fractions import Fraction
    >>> v = jump_symbol_mp(1, eta_J=1, alpha=Fraction(1, 2), lam=2, dps=40)   # Gamma(-1/2)[1+sqrt3-2sqrt2]
    >>> with mpmath.workdps(40):
    ...     ref = -2 * mpmath.sqrt(mpmath.pi) * (1 + mpmath.sqrt(3) - 2 * mpmath.sqrt(2))
    ...     print(abs(v - ref) < mpmath.mpf(10) ** -38)
    True
    """
    dps = _check_dps(dps)
    with mpmath.workdps(dps):
        b = _as_mpf("beta", beta)
        params = _mp_params(eta_J, alpha, lam, C)
    with mpmath.workdps(dps + _guard_digits(b, params[2])):
        out = _psi_mp(b, *params)
    with mpmath.workdps(dps):
        return +out


def Phi_mp(beta: Any, *, eta_G: Any, kappa: Any, eta_J: Any, alpha: Any, lam: Any, C: Any = 1,
           dps: int = DEFAULT_DPS):
    r""":func:`Phi` as an ``mpmath.mpf`` to ``dps`` digits (local context); domain as :func:`Phi`.

    >>> v = Phi_mp(4, eta_G=0.25, kappa=1, eta_J=0, alpha=1.5, lam=5, dps=30)
    >>> v == 0
    True
    """
    dps = _check_dps(dps)
    with mpmath.workdps(dps):
        g = _as_mpf("eta_G", eta_G, minimum=0)
        k = _as_mpf("kappa", kappa, minimum=0, open_min=True)
        b = _as_mpf("beta", beta)
        params = _mp_params(eta_J, alpha, lam, C)
    with mpmath.workdps(dps + _guard_digits(b, params[2])):
        psi = _psi_mp(b, *params)
        out = psi if mpmath.isinf(psi) else g * b * b + psi - k * b
    with mpmath.workdps(dps):
        return +out


def characteristic_root_mp(*, eta_G: Any, kappa: Any, eta_J: Any, alpha: Any, lam: Any, C: Any = 1,
                           dps: int = DEFAULT_DPS):
    r""":func:`characteristic_root` to ``dps`` digits: ``beta*`` in ``(0, lam)``, ``lam`` when
    ``Phi(lam) <= 0``, ``kappa/eta_G`` when ``eta_J = 0``. Same source and domain.

    The root is bracketed as in the float path and polished with the bracketing Anderson-Bjorck solver of
    :func:`mpmath.findroot` in a local context.

    >>> r = characteristic_root_mp(eta_G=0, kappa=1, eta_J=1, alpha=1, lam=2, dps=50)
    >>> with mpmath.workdps(50):
    ...     print(abs(Phi_mp(r, eta_G=0, kappa=1, eta_J=1, alpha=1, lam=2, dps=50)) < mpmath.mpf(10) ** -45)
    True
    >>> abs(float(r) - characteristic_root(eta_G=0, kappa=1, eta_J=1, alpha=1, lam=2)) < 1e-14
    True
    """
    dps = _check_dps(dps)
    work = dps + 15
    with mpmath.workdps(work):
        g = _as_mpf("eta_G", eta_G, minimum=0)
        k = _as_mpf("kappa", kappa, minimum=0, open_min=True)
        eJ, a, lam_, C_ = _mp_params(eta_J, alpha, lam, C)
        if eJ == 0:
            if g == 0:
                raise ValueError("eta_G and eta_J are both 0: without noise there is no stationary tail "
                                 "(need eta_G > 0 or eta_J > 0)")
            out = k / g
        else:
            def phi(b):
                with mpmath.workdps(work + _guard_digits(b, lam_)):
                    v = g * b * b + _psi_mp(b, eJ, a, lam_, C_) - k * b
                return +v

            if phi(lam_) <= 0:
                out = lam_
            else:
                lo = lam_ / 2
                while phi(lo) >= 0:
                    lo /= 2
                # findroot's tolerance is on |phi|: scale phi to O(1) near the root (eta_G ~ 1e30 otherwise
                # leaves |phi| ~ 1e-20 "not found" although the root is resolved)
                scale = max(mpmath.mpf(1), g * lam_ * lam_, k * lam_, abs(phi(lo)), abs(phi(lam_)))
                try:
                    out = mpmath.findroot(lambda b: phi(b) / scale, (lo, lam_), solver="anderson")
                except ValueError:
                    raise ValueError(f"no root of Phi resolved at dps={dps} for eta_G={eta_G}, kappa={kappa}, "
                                     f"eta_J={eta_J}, alpha={alpha}, lam={lam}, C={C}: raise dps") from None
    with mpmath.workdps(dps):
        return +out


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
