r"""Envelopes as Laplace transforms of time-scale distributions, the Tauberian power law, learnability windows.

Sources: L. Livi, arXiv:2606.29519 (2026) (envelope as a mixture of exponentials, Tauberian link) and
L. Livi, "Learnability Window in Gated Recurrent Neural Networks", arXiv:2512.05790 (sample complexity
under alpha-stable gradient noise), as re-derived in ``docs/papers/anti-collapse.md`` ("Effective
learning rates, time scales, envelope").

Envelope
--------
A unit with time scale ``tau`` contributes ``exp(-l / tau)`` at lag ``l``; the population envelope is

.. math::

    f(l) = \int_0^\infty e^{-l/\tau}\, p(\tau)\, d\tau
    \quad\text{or, for a finite spectrum,}\quad
    f(l) = \frac{\sum_q w_q e^{-l/\tau_q}}{\sum_q w_q}

(:func:`envelope_from_density`, :func:`envelope_from_spectrum`); ``f(0) = 1`` and ``f`` is completely
monotone. Substituting ``u = l / tau`` turns ``f`` into a Laplace transform in ``1/tau``.

Tauberian link
--------------
If ``p(tau) ~ A tau^(-1-beta)`` as ``tau -> inf`` (``beta > 0``), then

.. math::

    f(l) \sim A\, \Gamma(\beta)\, l^{-\beta}, \qquad l \to \infty

(:func:`tauberian_asymptote`; Abelian direction of Karamata's theorem, Feller, *An Introduction to
Probability Theory*, vol. II, XIII.5; the converse holds for monotone densities). Exactly solvable case,
the Pareto density ``p = beta tau_m^beta tau^(-1-beta)`` on ``tau >= tau_m``, ``x = l / tau_m``
(:func:`pareto_envelope`):

.. math::

    f(l) = \beta x^{-\beta} \gamma(\beta, x) = e^{-x} {}_1F_1(1; 1+\beta; x)
         = \beta\Gamma(\beta) x^{-\beta} - \beta x^{-\beta}\Gamma(\beta, x),

which tends to ``beta tau_m^beta Gamma(beta) l^(-beta)`` exponentially fast in ``x``. Bounded or
log-normal ``tau`` gives ``f`` decaying faster than every power: the collapsed shape.

Learnability window
-------------------
With gradient noise in the domain of attraction of an alpha-stable law (``1 < a <= 2``), the signal of
lag ``l`` summed over ``N`` samples grows like ``N f(l)`` while the noise grows like ``N^(1/a)``, so the
lag becomes detectable once ``N^(1-1/a) f(l) >= c``:

.. math::

    N(l) = (c / f(l))^{\kappa_a}, \qquad \kappa_a = \frac{a}{a-1}

(:func:`samples_to_detect`; ``a = 2``, Gaussian noise, gives the familiar ``f^{-2}``). Inverting for the
largest detectable lag (the horizon) with ``N`` samples: exponential ``f = e^{-l/tau}`` gives
``l(N) = tau (ln N / kappa_a - ln c)``, logarithmic in N (:func:`horizon_exponential`); power-law
``f = A l^(-beta)`` gives ``l(N) = (A N^(1/kappa_a) / c)^(1/beta)``, polynomial in N
(:func:`horizon_power`). :func:`horizon` does the same on a tabulated envelope.

>>> round(float(envelope_from_spectrum([0.0, 10.0], [10.0, float("inf")])[1]), 6)   # (e^-1 + 1)/2
0.68394
"""

from __future__ import annotations

import math
from typing import Any, Callable, Literal, overload

import mpmath
import numpy as np
from scipy import integrate, special

from theory._args import PARAM_MAX, as_method_dps, as_real, as_real_array, scalar_or_array, as_float64
from theory._args import FloatOrMp   # the Literal type of the method argument
from theory._types import FloatArray, Real, RealArray, mpf   # the number types each method returns

# Tail exponents are O(1); beyond 100, Gamma(beta) overflows float64 at 171 and inf * 0 gives nan.
_BETA_MAX = 100.0
# tanh-sinh quadrature of envelope_from_density: 1.4 s at 100 digits, 12 s at 300
_QUAD_MAX_DPS = 100

__all__ = [
    "envelope_from_spectrum", "envelope_from_density", "pareto_envelope",
    "tauberian_asymptote", "learnability_kappa", "samples_to_detect", "horizon_exponential", "horizon_power",
    "horizon",
]

_SPECTRUM_BLOCK = 1 << 22       # lags x time scales evaluated in blocks of about this many exponentials


# ----------------------------------------------------------------------------------------------------
# envelopes
# ----------------------------------------------------------------------------------------------------
def envelope_from_spectrum(lags: Any, tau: Any, *, weights: Any = None) -> np.ndarray:
    r"""The envelope of a population of units with the given time scales: ``f(l) = sum_q w_q e^(-l/tau_q) / sum_q w_q``.

    A unit with time scale ``tau`` contributes ``exp(-l / tau)`` at lag ``l``; the envelope is their weighted
    mean, the discrete form of the Laplace transform ``int exp(-l/tau) p(tau) dtau``
    (:func:`envelope_from_density`). Source: Livi (2026), arXiv:2606.29519, envelope
    ``||mu_{t,l}||_1 ~ (1/H) sum_q exp(-l/tau_q)`` (``docs/papers/anti-collapse.md``). ``f(0) = 1`` and ``f`` is
    completely monotone. Evaluated in blocks of about 4M exponentials (memory stays bounded).

    Parameters
    ----------
    lags : float or array of float
        Lags ``l >= 0``, any shape.
    tau : array_like of float
        Time scales ``tau_q > 0``; ``inf`` allowed (a non-decaying unit contributes ``w_q`` at every lag).
    weights : array_like of float, optional
        One nonnegative weight per time scale, not all zero (default: equal weights).

    Returns
    -------
    numpy.ndarray
        ``f(l)``, float64, shaped like ``lags`` (0-d for a scalar).

    Raises
    ------
    TypeError
        A non-real argument.
    ValueError
        ``lags`` negative or not finite, ``tau`` empty, NaN or ``<= 0``, ``weights`` negative, all zero or
        not one per time scale.

    Examples
    --------
    >>> envelope_from_spectrum([0, 5], [5.0]).round(12).tolist()       # a single tau: exp(-l/tau)
    [1.0, 0.367879441171]
    >>> f = envelope_from_spectrum([0.0, 10.0], [10.0, float("inf")], weights=[1, 3])
    >>> float(f[0]), bool(abs(f[1] - (math.exp(-1) + 3) / 4) < 1e-15)       # (1 e^-1 + 3 e^0) / 4
    (1.0, True)
    """
    l = as_real_array("lags", lags, minimum=0.0)
    t = as_float64("tau", tau, "an array of real numbers").ravel()
    if t.size == 0 or np.any(np.isnan(t)) or np.any(t <= 0):
        raise ValueError("tau must be a nonempty array of values > 0 (inf allowed for non-decaying units)")
    w = np.ones(t.size) if weights is None else as_real_array("weights", weights, minimum=0.0).ravel()
    if w.shape != t.shape:
        raise ValueError(f"weights must have one entry per time scale ({t.size}), got {w.size}")
    total = float(w.sum())
    if not total > 0:
        raise ValueError("weights must not all be 0")
    inv = np.zeros_like(t)
    fin = np.isfinite(t)
    inv[fin] = 1.0 / t[fin]
    flat = l.ravel()
    out = np.empty(flat.size)
    block = max(1, _SPECTRUM_BLOCK // t.size)
    for i in range(0, flat.size, block):
        out[i:i + block] = np.exp(-np.outer(flat[i:i + block], inv)) @ w
    return (out / total).reshape(l.shape)


@overload
def envelope_from_density(lags: Real | RealArray, density: Callable[[Any], Any], *, support: tuple[float, float] = ...,
                          method: Literal["float"] = ..., dps: None = ...) -> FloatArray: ...
@overload
def envelope_from_density(lags: Real | RealArray, density: Callable[[Any], Any], *, support: tuple[float, float] = ...,
                          method: Literal["mp"], dps: int | None = ...) -> list[mpf]: ...
def envelope_from_density(lags: Real | RealArray, density: Callable[[Any], Any], *,
                          support: tuple[float, float] = (0.0, math.inf), method: FloatOrMp = "float",
                          dps: int | None = None) -> FloatArray | list[mpf]:
    r"""``f(l) = int exp(-l/tau) p(tau) dtau`` over ``support`` by numerical quadrature.

    ``density`` is a callable ``p(tau)`` (need not be normalised: the integral is returned as is).
    ``method="float"``: scipy ``quad`` on subintervals split at ``l/10, l, 10 l`` (where the integrand of a
    heavy-tailed density has its mass), float64 array out. ``method="mp"``: ``mpmath.quad`` in a local
    ``workdps(dps)`` context (default: the ambient ``mpmath.mp.dps``) with the same split, a list of
    ``mpf`` out (``density`` then receives mpf). Domain: ``0 <= support[0] < support[1] <= inf``,
    ``lags >= 0``.

    >>> v = envelope_from_density([3.0], lambda t: 1.0, support=(1.0, 2.0))   # int_1^2 e^{-3/t} dt
    >>> ref = 2 * math.exp(-1.5) - math.exp(-3) + 3 * (special.exp1(3) - special.exp1(1.5))
    >>> bool(abs(v[0] - ref) < 1e-12)
    True
    """
    l = as_real_array("lags", lags, minimum=0.0)
    if not callable(density):
        raise TypeError(f"density must be a callable p(tau), got {density!r}")
    a, b = _support(support)
    method, dps = as_method_dps(method, dps, max_dps=_QUAD_MAX_DPS)

    def cuts(li):
        pts = [p for p in (0.1 * li, li, 10.0 * li) if a < p < b] if li > 0 else []
        return [a, *pts, b]

    if method == "float":
        return _density_quad_float(l, density, cuts)
    return _density_quad_mp(l, density, cuts, dps)


def _support(support) -> tuple[float, float]:
    try:
        a, b = support
    except (TypeError, ValueError):
        raise TypeError(f"support must be a pair (tau_lo, tau_hi), got {support!r}") from None
    a = as_real("support[0]", a, minimum=0.0)
    if not (isinstance(b, (int, float)) and b == math.inf):
        b = as_real("support[1]", b, minimum=0.0)
    if not a < b:
        raise ValueError(f"support must satisfy 0 <= tau_lo < tau_hi, got {support!r}")
    return a, b


def _density_quad_float(l: np.ndarray, density, cuts) -> np.ndarray:
    def integrand(t, li):
        return math.exp(-li / t) * float(density(t)) if t > 0 else 0.0

    out = np.empty(l.size)
    for i, li in enumerate(l.ravel()):
        c = cuts(float(li))
        out[i] = math.fsum(integrate.quad(integrand, c[j], c[j + 1], args=(float(li),), limit=200,
                                          epsabs=0.0, epsrel=1e-12)[0] for j in range(len(c) - 1))
    return out.reshape(l.shape)


def _density_quad_mp(l: np.ndarray, density, cuts, dps: int) -> list:
    res = []
    with mpmath.workdps(dps):
        for li in l.ravel():
            L = mpmath.mpf(float(li))
            c = [mpmath.mpf(x) if x != math.inf else mpmath.inf for x in cuts(float(li))]
            res.append(mpmath.quad(lambda t: mpmath.exp(-L / t) * density(t) if t > 0 else mpmath.mpf(0), c))
    return res


def _pareto_params(beta: Any, tau_min: Any) -> tuple[float, float]:
    return (as_real("beta", beta, minimum=0.0, open_min=True, maximum=_BETA_MAX),
            as_real("tau_min", tau_min, minimum=0.0, open_min=True, maximum=PARAM_MAX))


@overload
def pareto_envelope(lags: Real, *, beta: Real, tau_min: Real = ..., method: Literal["float"] = ...,
                    dps: None = ...) -> float: ...
@overload
def pareto_envelope(lags: Real | RealArray, *, beta: Real | RealArray, tau_min: Real | RealArray = ...,
                    method: Literal["float"] = ..., dps: None = ...) -> float | FloatArray: ...
@overload
def pareto_envelope(lags: Real, *, beta: Real, tau_min: Real = ..., method: Literal["mp"],
                    dps: int | None = ...) -> mpf: ...
def pareto_envelope(lags: Real | RealArray, *, beta: Real | RealArray, tau_min: Real | RealArray = 1.0,
                    method: FloatOrMp = "float", dps: int | None = None) -> float | FloatArray | mpf:
    r"""Closed-form envelope of the Pareto time-scale density ``beta tau_min^beta tau^(-1-beta)``, ``tau >=
    tau_min``: ``f(l) = beta x^(-beta) gamma(beta, x) = e^(-x) 1F1(1; 1+beta; x)``, ``x = l / tau_min``.

    Source: direct integration (module docstring; ``u = l/tau`` turns the integral into a lower incomplete
    gamma function). Domain ``beta > 0``, ``tau_min > 0``, ``lags >= 0``. ``method="float"`` (vectorised):
    the confluent hypergeometric form for ``x < 1`` (no ``x^(-beta)`` underflow) and the regularised
    incomplete gamma ``beta Gamma(beta) x^(-beta) P(beta, x)`` beyond. ``method="mp"`` (one lag; ints,
    Fractions, mpf kept exact): an ``mpmath.mpf`` to ``dps`` digits with mpmath's incomplete gamma in a local
    context. ``f(0) = 1``; ``beta = 1``: ``(1 - e^(-x)) / x``.

    Parameters
    ----------
    lags : float or array of float
        Lags ``l >= 0`` (a scalar for "mp").
    beta : float
        Tail exponent, ``beta > 0``.
    tau_min : float
        Smallest time scale, ``tau_min > 0``.
    method : {"float", "mp"}
        float64 (vectorised), or an ``mpmath.mpf`` to ``dps`` digits.
    dps : int, optional
        Digits for "mp"; None: the ambient ``mpmath.mp.dps`` (docs/conventions.md).

    Returns
    -------
    float, numpy.ndarray or mpmath.mpf
        ``f(l)``, decreasing from ``f(0) = 1``.

    Raises
    ------
    TypeError
        A non-real argument.
    ValueError
        A value out of its domain, an unknown ``method`` or a bad ``dps``.

    Examples
    --------
    >>> pareto_envelope([0.0, 2.0], beta=1.0).round(14).tolist()
    [1.0, 0.43233235838169]
    >>> v = pareto_envelope(2, beta=1, method="mp", dps=40)
    >>> with mpmath.workdps(40):
    ...     print(abs(v - (1 - mpmath.exp(-2)) / 2) < mpmath.mpf(10) ** -39)
    True
    """
    method, dps = as_method_dps(method, dps)
    if method == "mp":
        return _pareto_envelope_mp(lags, beta, tau_min, dps)
    b, tm = _pareto_params(beta, tau_min)
    x = as_real_array("lags", lags, minimum=0.0) / tm
    out = np.empty_like(x)
    small = x < 1.0
    out[small] = np.exp(-x[small]) * special.hyp1f1(1.0, 1.0 + b, x[small])
    xb = x[~small]
    out[~small] = b * special.gamma(b) * xb ** (-b) * special.gammainc(b, xb)
    return scalar_or_array(out)


def _pareto_envelope_mp(l: Any, beta: Any, tau_min: Any, dps: int):
    with mpmath.workdps(dps + 10):
        L, b, tm = (mpmath.mpf(_as_exact(n, v)) for n, v in (("lags", l), ("beta", beta), ("tau_min", tau_min)))
        if L < 0:
            raise ValueError(f"lags must be >= 0, got {l!r}")
        if b <= 0:
            raise ValueError(f"beta must be > 0, got {beta!r}")
        if tm <= 0:
            raise ValueError(f"tau_min must be > 0, got {tau_min!r}")
        x = L / tm
        out = mpmath.mpf(1) if x == 0 else b * x ** (-b) * mpmath.gammainc(b, 0, x)
    with mpmath.workdps(dps):
        return +out


def _as_exact(name: str, v: Any):
    """A real number for mpmath: ints, Fractions and mpf pass exactly; floats are checked finite."""
    from fractions import Fraction

    if isinstance(v, (bool, np.bool_)):
        raise TypeError(f"{name} must be a real number, not a bool")
    if isinstance(v, mpmath.mpf):
        return v
    if isinstance(v, Fraction):
        return mpmath.mpf(v.numerator) / v.denominator
    if isinstance(v, (int, np.integer)):
        return int(v)
    return as_real(name, v)


def tauberian_asymptote(lags: Any, *, A: float, beta: float):
    r"""The power law that the envelope follows at large lags when time scales have a power-law tail.

    If the time-scale density has ``p(tau) ~ A tau^(-1-beta)`` as ``tau -> inf``, the envelope
    ``f(l) = int exp(-l/tau) p(tau) dtau`` satisfies ``f(l) ~ A Gamma(beta) l^(-beta)`` as ``l -> inf``; this
    function returns that asymptote. Source: Karamata's Abelian/Tauberian theorem (Feller, vol. II, XIII.5),
    as stated in ``docs/papers/anti-collapse.md`` ("Tauberian link", after Livi 2026, arXiv:2606.29519).
    Valid as ``l -> inf`` only (a ratio tending to 1, not a bound); domain ``A > 0``, ``0 < beta <= 100``,
    ``lags > 0``.

    Parameters
    ----------
    lags : float or array of float
        Lags ``l > 0``.
    A : float
        Tail amplitude of the density, ``A > 0``.
    beta : float
        Tail exponent, ``0 < beta <= 100``.

    Returns
    -------
    float or numpy.ndarray
        ``A Gamma(beta) l^(-beta)`` (a float for a scalar lag).

    Raises
    ------
    TypeError
        A non-real argument.
    ValueError
        ``A``, ``beta`` or a lag out of its domain, or not finite.

    Examples
    --------
    >>> abs(tauberian_asymptote(4.0, A=2.0, beta=0.5) - math.sqrt(math.pi)) < 1e-15    # 2 Gamma(1/2) / 2
    True

    Against the exact envelope of the Pareto density ``beta tau^(-1-beta)`` on ``tau >= 1`` (``A = beta``),
    whose deviation from the asymptote falls like ``e^(-l)``:

    >>> bool(abs(pareto_envelope(50.0, beta=1.5) / tauberian_asymptote(50.0, A=1.5, beta=1.5) - 1) < 1e-12)
    True
    """
    A = as_real("A", A, minimum=0.0, open_min=True, maximum=PARAM_MAX)
    beta = as_real("beta", beta, minimum=0.0, open_min=True, maximum=_BETA_MAX)
    l = as_real_array("lags", lags)
    if np.any(l <= 0):
        raise ValueError("lags must be > 0")
    return scalar_or_array(A * special.gamma(beta) * l ** (-beta))


# ----------------------------------------------------------------------------------------------------
# learnability window
# ----------------------------------------------------------------------------------------------------
def learnability_kappa(a: float) -> float:
    r"""``kappa_a = a / (a - 1)``: the sample-complexity exponent under alpha-stable noise of index ``a``.

    Source: arXiv:2512.05790 (Livi), as stated in ``docs/papers/anti-collapse.md``; domain ``1 < a <= 2``
    (for ``a <= 1`` the noise has no mean and averaging does not help).

    >>> learnability_kappa(2.0), learnability_kappa(1.5)
    (2.0, 3.0)
    """
    a = as_real("a", a, minimum=1.0, maximum=2.0, open_min=True)
    return a / (a - 1.0)


def samples_to_detect(f: Any, *, a: float, c: float = 1.0):
    r"""Samples needed to detect a lag whose envelope value is ``f``: ``N = (c / f)^(a/(a-1))``.

    Source: arXiv:2512.05790; derivation in the module docstring. Domain ``0 < f``, ``1 < a <= 2``,
    ``c > 0`` (the noise-to-signal constant). Vectorised over ``f``.

    >>> samples_to_detect([0.1, 0.01], a=2.0).round(6).tolist()
    [100.0, 10000.0]
    """
    k = learnability_kappa(a)
    c = as_real("c", c, minimum=0.0, open_min=True)
    fa = as_real_array("f", f)
    if np.any(fa <= 0):
        raise ValueError("f must be > 0")
    return scalar_or_array((c / fa) ** k)


def horizon_exponential(N: Any, *, tau: float, a: float, c: float = 1.0):
    r"""Largest detectable lag with ``N`` samples for ``f = exp(-l/tau)``: ``tau (ln N / kappa_a - ln c)``
    (logarithmic in N; negative means not even lag 0 is detectable). Domain ``N >= 1``, ``tau > 0``.

    >>> round(horizon_exponential(1e6, tau=10.0, a=2.0), 10) == round(10.0 * math.log(1e6) / 2, 10)
    True
    """
    tau = as_real("tau", tau, minimum=0.0, open_min=True)
    k = learnability_kappa(a)
    c = as_real("c", c, minimum=0.0, open_min=True)
    n = as_real_array("N", N, minimum=1.0)
    return scalar_or_array(tau * (np.log(n) / k - math.log(c)))


def horizon_power(N: Any, *, beta: float, a: float, A: float = 1.0, c: float = 1.0):
    r"""Largest detectable lag with ``N`` samples for ``f = A l^(-beta)``: ``(A N^(1/kappa_a) / c)^(1/beta)``
    (polynomial in N, exponent ``1 / (beta kappa_a)``). Domain ``N >= 1``, ``beta > 0``, ``A > 0``.

    >>> horizon_power(1e4, beta=0.5, a=2.0)       # (1e4^(1/2))^2
    10000.0
    """
    beta = as_real("beta", beta, minimum=0.0, open_min=True)
    k = learnability_kappa(a)
    A = as_real("A", A, minimum=0.0, open_min=True)
    c = as_real("c", c, minimum=0.0, open_min=True)
    n = as_real_array("N", N, minimum=1.0)
    with np.errstate(over="ignore"):
        out = (A * n ** (1.0 / k) / c) ** (1.0 / beta)
    if not np.all(np.isfinite(out)):
        raise ValueError(f"beta={beta!r} too small for these N, A, c: the horizon exceeds float64")
    return scalar_or_array(out)


def horizon(N: Any, lags: Any, f: Any, *, a: float, c: float = 1.0) -> np.ndarray:
    r"""The longest lag detectable with N samples, read off a tabulated envelope (the learnability horizon).

    Lag ``l_i`` is detectable once ``N >= samples_to_detect(f_i) = (c / f_i)^(a/(a-1))``: under gradient noise
    in the domain of attraction of an ``a``-stable law the signal of a lag grows like ``N f(l)`` and the noise
    like ``N^(1/a)`` (module docstring). Returns the largest qualifying ``l_i`` for each ``N`` (``-inf`` when
    none qualifies: never NaN); the envelope need not be monotone, every qualifying lag counts. Source:
    Livi, arXiv:2512.05790 (learnability window), as re-derived in ``docs/papers/anti-collapse.md``; closed
    forms for exponential and power-law envelopes: :func:`horizon_exponential`, :func:`horizon_power`.
    Exported by ``seqtheory`` as ``tauberian_horizon`` (``seqtheory.horizon`` is another tool).

    Parameters
    ----------
    N : float or array of float
        Sample counts, ``N >= 1``.
    lags : array_like of float
        The tabulated lags ``l_i``.
    f : array_like of float
        The envelope at those lags, ``f_i > 0``, one per lag.
    a : float
        Stability index of the gradient noise, ``1 < a <= 2`` (2: Gaussian).
    c : float
        Noise-to-signal constant, ``c > 0`` (default 1).

    Returns
    -------
    numpy.ndarray
        The horizon for each ``N``, float64, shaped like ``N`` (0-d for a scalar); ``-inf`` where no lag
        qualifies.

    Raises
    ------
    TypeError
        A non-real argument.
    ValueError
        ``N < 1``, ``f <= 0``, ``a`` outside ``(1, 2]``, ``c <= 0``, non-finite values, or ``lags`` and ``f``
        of different lengths.

    Examples
    --------
    >>> horizon([10.0, 1e4], [1, 2, 3, 4], [0.5, 0.1, 0.05, 0.01], a=2.0).tolist()   # needs (1/f)^2: 4, 100, 400, 1e4
    [1.0, 4.0]
    >>> horizon(3.0, [1, 2], [0.5, 0.1], a=2.0)                                       # 4 > 3 samples: none
    array(-inf)

    A tabulated power law ``f = l^(-1/2)`` with Gaussian noise needs ``N = l`` samples per lag, as
    :func:`horizon_power` says in closed form:

    >>> l = np.arange(1.0, 10001.0)
    >>> float(horizon(100.5, l, l ** -0.5, a=2.0)), round(horizon_power(100.5, beta=0.5, a=2.0), 12)
    (100.0, 100.5)
    """
    l = as_real_array("lags", lags).ravel()
    need = np.asarray(samples_to_detect(f, a=a, c=c), dtype=np.float64).ravel()
    if need.shape != l.shape:
        raise ValueError(f"lags and f must have the same length, got {l.size} and {need.size}")
    n = as_real_array("N", N, minimum=1.0)
    ok = need[None, :] <= n.ravel()[:, None]
    out = np.where(ok, l[None, :], -np.inf).max(axis=1)
    return out.reshape(n.shape)
