"""Samplers for stable and symmetric tempered-stable (CTS) Levy increments.

Source: the anti-collapse SDE of L. Livi, arXiv:2606.29519 (2026), as restated in
``docs/papers/anti-collapse.md`` (section "Coarse-grained SDE for the log-rate"): the jump part J of
``d zeta = F dt + sqrt(2 eta_G) dW + dJ`` is a symmetric tempered alpha-stable (CTS) Levy process with
Levy measure

    nu(dy) = eta_J C_a exp(-lam |y|) |y|^(-1-a) dy,      0 < a < 2,  lam > 0,  eta_J >= 0,

where ``C_a`` (argument ``C``, default 1) is a free normalisation. Its increment over a time step dt is
symmetric and infinitely divisible with (Levy-Khintchine; no drift, no compensator needed by symmetry)

    log E exp(i u X_dt) = dt int (cos(u y) - 1) nu(dy)
                        = 2 dt eta_J C_a Gamma(-a) [Re (lam - i u)^a - lam^a]          (a != 1)
                        = dt eta_J C_a [2 Re((lam - i u) log(lam - i u)) - 2 lam log lam]   (a = 1),

and even cumulants ``kappa_{2k} = dt int y^{2k} nu(dy) = 2 dt eta_J C_a Gamma(2k - a) lam^(a - 2k)``
(odd ones vanish). See :func:`cts_log_cf` and :func:`cts_cumulant`.

Three samplers:

* :func:`symmetric_stable`: Chambers-Mallows-Stuck (CMS, 1976; Weron 1996), the *standard symmetric*
  stable law with ``E exp(i u X) = exp(-|u|^alpha)``, ``0 < alpha <= 2`` (alpha = 2 gives N(0, 2),
  alpha = 1 the standard Cauchy law).
* :func:`cts_increments` (exact): ``X = X_+ - X_-`` with ``X_+-`` independent one-sided tempered-stable
  variables of Levy measure ``c exp(-lam y) y^(-1-a) dy`` on y > 0, ``c = eta_J C_a dt``. Each one is an
  exponentially tilted totally skewed stable variable S (Levy measure ``c y^(-1-a)``): the law
  ``exp(-lam s) P_S(ds) / E exp(-lam S)`` has exactly the tempered Levy measure (Rosinski 2007), and is
  sampled by rejection (Baeumer & Meerschaert 2010, J. Comput. Appl. Math. 233; Kawai & Masuda 2011,
  J. Comput. Appl. Math. 235): draw S by CMS and accept with probability ``exp(-lam (S + x))``.

  - ``0 < a < 1``: S > 0 and x = 0: the rejection sampler is exact.
  - ``1 <= a < 2``: S takes negative values (its left tail is lighter than exponential), so S is
    accepted only if ``S > -x`` (Baeumer-Meerschaert's shift). The shift x is chosen so that the
    neglected tilted mass ``P_tilt(S < -x)`` is below ``TRUNCATION_MASS = 1e-18`` per one-sided draw,
    a *rigorous* Chernoff bound: ``P_tilt(S < -x) <= exp(min_{s >= lam} [L(s) - L(lam) - (s - lam) x])``
    with ``L(s) = log E exp(-s S)``. The output's total-variation distance from the exact law is then
    below 2e-18 per increment: exact at double precision.

  The tilted one-sided parts have means that cancel in ``X_+ - X_-``, so no drift correction is needed.
  The acceptance probability is about ``exp(L(lam) - lam x)``; when it would fall below 1/2 the step is
  split into m equal sub-steps (the sum of m i.i.d. increments over dt/m is exactly an increment over
  dt by infinite divisibility).
* :func:`cts_increments_cp` (approximation, Asmussen & Rosinski 2001, J. Appl. Probab. 38): jumps with
  ``|y| >= eps`` are a compound Poisson process (rate ``Lambda_eps = 2 eta_J C_a lam^a Gamma(-a, lam eps)``,
  sizes by rejection from a Pareto law), the small jumps are replaced by a Gaussian of the same variance
  ``sigma_eps^2 dt = 2 dt eta_J C_a lam^(a-2) gamma(2 - a, lam eps)``. The second cumulant is exact; the
  fourth and higher lose the small-jump part (``kappa_4`` is short by
  ``2 dt eta_J C_a lam^(a-4) gamma(4 - a, lam eps)``, see :func:`cp_small_jump_cumulant`).

Random streams: the numba kernels use xoroshiro128++ (Blackman & Vigna 2019), one state per stream
(particle), keyed by ``numpy.random.SeedSequence(seed)`` and the stream index (:func:`stream_states`); results do not depend on how streams are
spread over threads. The Generator-facing functions draw the stream seeds from the caller's ``rng``.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import mpmath
import numba
import numpy as np
from numba import njit
from scipy.optimize import brentq
from scipy.special import gammainc

from theory._args import MAX_LENGTH, PARAM_MAX, as_int, as_real, as_seed
from theory.levy import jump_exponent

__all__ = [
    "TRUNCATION_MASS", "symmetric_stable", "cts_increments", "cts_increments_cp", "cts_log_cf",
    "cts_cumulant", "cp_small_jump_cumulant", "big_jump_rate", "small_jump_variance", "stream_states",
    "CTSParams", "CPParams", "cts_params", "cp_params",
]

TRUNCATION_MASS = 1e-18
_U64 = np.uint64


# ------------------------------------------------------------------------------------------ arguments
def _check_alpha(alpha: Any, *, allow_two: bool = False) -> float:
    a = as_real("alpha", alpha, minimum=0.0, maximum=2.0, open_min=True, open_max=not allow_two)
    return a


_SAMPLER_ALPHA_MIN = 0.05   # the samplers raise to powers 1/alpha: below, float64 overflows (or loops run away)


def _sampler_alpha(a: float) -> float:
    if a < _SAMPLER_ALPHA_MIN:
        raise ValueError(f"alpha must be >= {_SAMPLER_ALPHA_MIN} for sampling (powers 1/alpha overflow), got {a!r}")
    return a


def _levy_args(eta_J, alpha, lam, C) -> tuple[float, float, float, float]:
    return (as_real("eta_J", eta_J, minimum=0.0, maximum=PARAM_MAX), _check_alpha(alpha),
            as_real("lam", lam, minimum=0.0, open_min=True, maximum=PARAM_MAX),
            as_real("C", C, minimum=0.0, open_min=True, maximum=PARAM_MAX))


def _rng(seed: Any, rng: Any) -> np.random.Generator:
    """The toolkit's one seed argument (int >= 0, SeedSequence or Generator; ``theory._args.as_seed``);
    ``rng=`` (a Generator) is kept as a documented alias because many callers pass it."""
    if rng is not None:
        if seed is not None:
            raise TypeError("give seed or its alias rng, not both")
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        return rng
    if seed is None:
        raise TypeError("seed (or its alias rng) is required: an int >= 0, a numpy SeedSequence or Generator")
    return as_seed(seed)


# ------------------------------------------------------------------------------------------ closed forms
def cts_log_cf(u, dt: float, *, eta_J: float, alpha: float, lam: float, C: float = 1.0) -> np.ndarray:
    """``log E exp(i u X_dt)`` of the symmetric CTS increment over dt (real, <= 0); vectorised over u.

    Source: Levy-Khintchine with ``nu`` of ``docs/papers/anti-collapse.md`` (Livi, arXiv:2606.29519, SDE
    section): ``dt int (cos(u y) - 1) nu(dy) = dt Psi*(i u)``, i.e. ``2 dt eta_J C Gamma(-a) [Re (lam - i u)^a
    - lam^a]`` (a != 1) and its limit ``2 dt eta_J C [Re((lam - i u) log(lam - i u)) - lam log lam]`` (a = 1).
    Evaluated by :func:`theory.levy.jump_exponent`, the jump symbol's pole-free form (the ``Gamma(-a)`` form
    loses digits next to a = 1). Valid for all real u, dt >= 0, 0 < a < 2, lam > 0. At small u it is
    ``-kappa_2 u^2 / 2 + ...``.

    >>> import math
    >>> abs(float(cts_log_cf(0.0, 1.0, eta_J=1.0, alpha=0.5, lam=2.0))) < 1e-14
    True
    >>> k2 = cts_cumulant(2, 1.0, eta_J=1.0, alpha=1.5, lam=2.0)
    >>> u = 1e-3; bool(abs(cts_log_cf(u, 1.0, eta_J=1.0, alpha=1.5, lam=2.0) / (-k2 * u**2 / 2) - 1) < 1e-5)
    True
    """
    dt = as_real("dt", dt, minimum=0.0)
    return dt * np.asarray(jump_exponent(u, eta_J=eta_J, alpha=alpha, lam=lam, C=C))


def cts_cumulant(order: int, dt: float, *, eta_J: float, alpha: float, lam: float, C: float = 1.0) -> float:
    """Cumulant ``kappa_n`` of the CTS increment over dt: ``dt int y^n nu(dy)``.

    Source: ``docs/papers/anti-collapse.md`` Levy measure; ``int_0^inf y^(n-1-a) exp(-lam y) dy =
    Gamma(n - a) lam^(a - n)``. For even n >= 2: ``kappa_n = 2 dt eta_J C Gamma(n - a) lam^(a - n)``;
    odd n: 0 (symmetry). Valid for 0 < a < 2, lam > 0.

    >>> cts_cumulant(2, 1.0, eta_J=1.0, alpha=1.0, lam=1.0)   # 2 Gamma(1)
    2.0
    >>> cts_cumulant(4, 0.5, eta_J=1.0, alpha=1.0, lam=1.0)   # 2 * 0.5 * Gamma(3)
    2.0
    >>> cts_cumulant(3, 1.0, eta_J=1.0, alpha=1.0, lam=1.0)
    0.0
    """
    n = as_int("order", order, minimum=1)
    dt = as_real("dt", dt, minimum=0.0)
    eta, a, lam, C = _levy_args(eta_J, alpha, lam, C)
    if n % 2:
        return 0.0
    if not _log_cumulant_ok(n, a, lam, dt * eta * C):
        return _finite_cumulant(n, lam, math.inf)
    if n - a < 170.0:                  # Gamma itself fits: the direct product (exact at small integers)
        with np.errstate(over="ignore"):
            return _finite_cumulant(n, lam, 2.0 * dt * eta * C * math.gamma(n - a) * lam ** (a - n))
    return 2.0 * dt * eta * C * math.exp(math.lgamma(n - a) + (a - n) * math.log(lam))


def _log_cumulant_ok(n: int, a: float, lam: float, scale: float) -> bool:
    """Whether 2 scale Gamma(n - a) lam^(a - n) fits in float64 (else the caller reports it)."""
    return scale == 0.0 or math.log(2.0 * scale) + math.lgamma(n - a) + (a - n) * math.log(lam) < 709.0


def _finite_cumulant(n: int, lam: float, value: float) -> float:
    if not math.isfinite(value):
        raise ValueError(f"the order-{n} cumulant exceeds float64 (lam={lam:.3g}); lower order or raise lam")
    return value


def _upper_gamma(s: float, x: float) -> float:
    """Upper incomplete gamma ``Gamma(s, x)`` for any real s (negative orders included), x > 0."""
    with mpmath.workdps(20):
        return float(mpmath.gammainc(s, x))


def big_jump_rate(eps: float, *, eta_J: float, alpha: float, lam: float, C: float = 1.0) -> float:
    """Rate ``Lambda_eps = nu(|y| >= eps) = 2 eta_J C lam^a Gamma(-a, lam eps)`` of jumps with |y| >= eps.

    Source: the Levy measure of ``docs/papers/anti-collapse.md``, ``int_eps^inf exp(-lam y) y^(-1-a) dy =
    lam^a Gamma(-a, lam eps)`` (upper incomplete gamma of negative order, by mpmath). Valid for eps > 0,
    0 < a < 2, lam > 0.

    >>> import math
    >>> r = big_jump_rate(1.0, eta_J=1.0, alpha=1.0, lam=1.0)   # 2 int_1^inf e^-y y^-2 dy = 2 (1/e - E_1(1))
    >>> abs(r - 2 * (math.exp(-1) - 0.21938393439552029)) < 1e-14
    True
    """
    eps = as_real("eps", eps, minimum=0.0, open_min=True)
    eta, a, lam, C = _levy_args(eta_J, alpha, lam, C)
    rate = 2.0 * eta * C * lam ** a * _upper_gamma(-a, lam * eps)
    if not math.isfinite(rate):
        raise ValueError(f"eps={eps!r} too small for lam={lam!r}: the rate of jumps above eps (~ eps^-alpha) "
                         "overflows float64")
    return rate


def small_jump_variance(eps: float, *, eta_J: float, alpha: float, lam: float, C: float = 1.0) -> float:
    """Variance rate ``sigma_eps^2 = int_{|y| < eps} y^2 nu(dy) = 2 eta_J C lam^(a-2) gamma(2 - a, lam eps)``.

    Source: Levy measure of ``docs/papers/anti-collapse.md``; lower incomplete gamma. Valid for eps > 0.

    >>> v = small_jump_variance(1e3, eta_J=1.0, alpha=1.5, lam=1.0)    # -> kappa_2 of dt = 1
    >>> abs(v - cts_cumulant(2, 1.0, eta_J=1.0, alpha=1.5, lam=1.0)) < 1e-12
    True
    """
    eps = as_real("eps", eps, minimum=0.0, open_min=True)
    eta, a, lam, C = _levy_args(eta_J, alpha, lam, C)
    return 2.0 * eta * C * lam ** (a - 2.0) * math.gamma(2.0 - a) * float(gammainc(2.0 - a, lam * eps))


def cp_small_jump_cumulant(order: int, dt: float, eps: float, *, eta_J: float, alpha: float, lam: float,
                           C: float = 1.0) -> float:
    """Cumulant ``kappa_n`` of the compound-Poisson + Gaussian approximation (:func:`cts_increments_cp`).

    ``kappa_2`` equals the exact one; for even n >= 4 the small jumps' share
    ``2 dt eta_J C lam^(a-n) gamma(n - a, lam eps)`` is missing (the Gaussian has no higher cumulants):
    ``kappa_n = 2 dt eta_J C lam^(a-n) Gamma(n - a, lam eps)``.

    >>> k4 = cts_cumulant(4, 1.0, eta_J=1.0, alpha=1.5, lam=1.0)
    >>> abs(cp_small_jump_cumulant(4, 1.0, 1e-9, eta_J=1.0, alpha=1.5, lam=1.0) - k4) < 1e-12
    True
    """
    n = as_int("order", order, minimum=1)
    dt = as_real("dt", dt, minimum=0.0)
    eps = as_real("eps", eps, minimum=0.0, open_min=True)
    eta, a, lam, C = _levy_args(eta_J, alpha, lam, C)
    if n % 2:
        return 0.0
    if n == 2:
        return cts_cumulant(2, dt, eta_J=eta, alpha=a, lam=lam, C=C)
    if not _log_cumulant_ok(n, a, lam, dt * eta * C):
        return _finite_cumulant(n, lam, math.inf)
    with np.errstate(over="ignore"):
        return _finite_cumulant(n, lam, 2.0 * dt * eta * C * lam ** (a - n) * _upper_gamma(n - a, lam * eps))


# ------------------------------------------------------------------------------------------ random streams
def _mix64(z: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser (Steele, Lea & Flood 2014), a bijective 64-bit mixer; wrapping uint64 arithmetic."""
    z = (z ^ (z >> _U64(30))) * _U64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> _U64(27))) * _U64(0x94D049BB133111EB)
    return z ^ (z >> _U64(31))


def stream_states(seed: Any, n: int) -> np.ndarray:
    """``(n, 2)`` uint64 xoroshiro128++ states, one per stream, keyed by ``(seed, stream index)``.

    A 128-bit key comes from ``numpy.random.SeedSequence(seed)`` (an int >= 0 or a SeedSequence); stream i
    gets ``(mix(k0 + (2i+1) g), mix(k1 + (2i+2) g))`` with g the golden-ratio increment and mix the
    splitmix64 finaliser, the seeding recommended for xoroshiro by its authors. Stream i depends only on
    (seed, i), never on n: ``stream_states(s, 10)[:3]`` equals ``stream_states(s, 3)``.
    """
    n = as_int("n", n, minimum=0, maximum=MAX_LENGTH)
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(as_int("seed", seed, minimum=0))
    k0, k1 = ss.generate_state(2, dtype=np.uint64)
    g = _U64(0x9E3779B97F4A7C15)
    i = np.arange(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        out = np.stack([_mix64(k0 + (_U64(2) * i + _U64(1)) * g), _mix64(k1 + (_U64(2) * i + _U64(2)) * g)], axis=1)
    out[(out[:, 0] == 0) & (out[:, 1] == 0), 1] = 1   # the all-zero state is xoroshiro's one fixed point
    return np.ascontiguousarray(out)


@njit(inline="always")
def _rotl(x, k):
    return (x << k) | (x >> (_U64(64) - k))


@njit(inline="always")
def _xoro(s0, s1):
    """One xoroshiro128++ step on the state words: (64 random bits, new s0, new s1). Kernels keep the two
    words in local variables on their hot path (registers) and use :func:`_next_u64` elsewhere."""
    r = _rotl(s0 + s1, _U64(17)) + s0
    s1 ^= s0
    return r, _rotl(s0, _U64(49)) ^ s1 ^ (s1 << _U64(21)), _rotl(s1, _U64(28))


@njit(inline="always")
def _to_u01(r):
    """Uniform on the open interval (0, 1) from 64 bits: the top 53, centred in their bin (never 0 or 1)."""
    return (np.float64(r >> _U64(11)) + 0.5) * 1.1102230246251565e-16


@njit(cache=True, inline="always")
def _next_u64(st):
    """xoroshiro128++ step on the 2-word state ``st`` (a uint64 view); returns 64 random bits."""
    r, a, b = _xoro(st[0], st[1])
    st[0] = a
    st[1] = b
    return r


@njit(cache=True, inline="always")
def _u01(st):
    """Uniform on (0, 1) from the stream ``st``."""
    return _to_u01(_next_u64(st))


@njit(cache=True)
def _normal(st):
    """Standard normal by Box-Muller (one of the pair; simplicity over speed: the SDE keeps the spare)."""
    r = math.sqrt(-2.0 * math.log(_u01(st)))
    return r * math.cos(2.0 * math.pi * _u01(st))


# ------------------------------------------------------------------------------------------ CMS transform
def _cms(alpha, B, S, V, W):
    """CMS transform of V ~ U(-pi/2, pi/2), W ~ Exp(1) to S_alpha(1, skew, 0), alpha != 1 (Weron 1996).

    ``B = arctan(skew tan(pi alpha / 2)) / alpha``, ``S = (1 + skew^2 tan^2(pi alpha / 2))^(1/(2 alpha))``.
    Works elementwise on numpy arrays and, jitted, on scalars (one formula for both paths).
    """
    return (S * np.sin(alpha * (V + B)) / np.cos(V) ** (1.0 / alpha)
            * (np.cos(V - alpha * (V + B)) / W) ** ((1.0 - alpha) / alpha))


_cms_nb = njit(cache=True)(_cms)


@njit(cache=True)
def _cms_one_skewed(V, W):
    """CMS for alpha = 1, skew = 1: S_1(1, 1, 0) (Samorodnitsky-Taqqu parametrisation)."""
    h = 0.5 * math.pi + V
    return (2.0 / math.pi) * (h * math.tan(V) - math.log(0.5 * math.pi * W * math.cos(V) / h))


def symmetric_stable(alpha: float, size, *, seed: Any = None, rng: np.random.Generator | None = None) -> np.ndarray:
    """Standard symmetric alpha-stable variates (Chambers-Mallows-Stuck), ``E exp(i u X) = exp(-|u|^alpha)``.

    Source: Chambers, Mallows & Stuck (1976), JASA 71; Weron (1996), Stat. Probab. Lett. 28. Scale
    convention: ``S_alpha(1, 0, 0)`` of Samorodnitsky & Taqqu, i.e. unit scale in the characteristic
    function (alpha = 2 gives N(0, 2), alpha = 1 the standard Cauchy law). Valid for 0 < alpha <= 2.
    With V uniform on (-pi/2, pi/2) and W ~ Exp(1):

        X = sin(alpha V) / cos(V)^(1/alpha) * (cos((1 - alpha) V) / W)^((1 - alpha)/alpha)

    >>> rng = np.random.default_rng(0)
    >>> x = symmetric_stable(1.0, 5, rng=rng); x.dtype, x.shape
    (dtype('float64'), (5,))
    >>> bool(np.array_equal(symmetric_stable(1.5, 3, seed=1), symmetric_stable(1.5, 3, rng=np.random.default_rng(1))))
    True

    ``seed``: int >= 0, SeedSequence or Generator (``rng=`` is an alias for a Generator).
    """
    a = _sampler_alpha(_check_alpha(alpha, allow_two=True))
    rng = _rng(seed, rng)
    size = _size(size)
    V = rng.uniform(-0.5 * np.pi, 0.5 * np.pi, size=size)
    if a == 1.0:
        return np.tan(V)
    W = rng.standard_exponential(size=size)
    return np.asarray(_cms(a, 0.0, 1.0, V, W), dtype=np.float64)


# ------------------------------------------------------------------------------------------ exact CTS
class CTSParams(NamedTuple):
    """Numbers the exact kernel needs. The one-sided stable proposal of a sub-step is ``sigma Z + loc``,
    Z ~ S_alpha(1, 1, 0) (CMS constants B, S); shift: the Baeumer-Meerschaert shift x (0 for alpha < 1);
    m_sub: sub-steps per dt (0 when eta_J = 0: no jumps)."""

    alpha: float
    sigma: float
    loc: float
    shift: float
    lam: float
    B: float
    S: float
    m_sub: int


def _log_laplace(s: float, a: float, c: float) -> float:
    """``L(s) = log E exp(-s S)`` of the one-sided stable S with Levy measure c y^(-1-a) dy (a<1: no
    compensation; a>1: compensated, mean 0; a=1: the S_1(pi c / 2, 1, 0) law, L = c s log s)."""
    if a == 1.0:
        return c * s * math.log(s) if s > 0 else 0.0
    return c * math.gamma(-a) * s ** a


def _truncation_shift(a: float, c: float, lam: float) -> float:
    """Smallest x with the Chernoff bound on ``P_tilt(S < -x)`` <= TRUNCATION_MASS (a >= 1)."""
    target = math.log(TRUNCATION_MASS)

    def s_opt(x):
        # the minimiser of L(s) - s x; capped where it would overflow (any s >= lam gives a valid bound)
        if a == 1.0:
            log_s = x / c - 1.0
        else:
            log_s = (math.log(x) - math.log(a * math.gamma(-a) * c)) / (a - 1.0) if x > 0 else -math.inf
        return max(lam, math.exp(min(log_s, 600.0 / a)))

    def log_bound(x):
        s = s_opt(x)
        return _log_laplace(s, a, c) - _log_laplace(lam, a, c) - (s - lam) * x - target

    hi = 1.0
    while log_bound(hi) > 0:
        hi *= 2.0
    return brentq(log_bound, 0.0, hi, xtol=1e-14 * hi)   # log_bound(0) = -log(TRUNCATION_MASS) > 0


# the exact sampler refuses parameters that need more proposals per draw (each stream draws 256 values)
_MAX_LOG_PROPOSALS = math.log(1e3)
_MAX_EXACT_DRAWS = 1 << 20          # increments per call of the exact sampler (up to 1e3 proposals each)


def cts_params(dt: float, *, eta_J: float, alpha: float, lam: float, C: float = 1.0) -> CTSParams:
    """Precompute the exact sampler's constants for a step dt (see the module docstring)."""
    dt = as_real("dt", dt, minimum=0.0, open_min=True)
    eta, a, lam, C = _levy_args(eta_J, alpha, lam, C)
    _sampler_alpha(a)
    if eta == 0.0:
        return CTSParams(a, 0.0, 0.0, 0.0, lam, 0.0, 1.0, 0)
    # m sub-steps of dt/m cost m / acceptance(m) proposals; pick the cheapest power of two
    best = None
    for k in range(24):
        m = 2 ** k
        c_m = eta * C * dt / m
        shift_m = 0.0 if a < 1.0 else _truncation_shift(a, c_m, lam)
        log_acc = min(0.0, _log_laplace(lam, a, c_m) - lam * shift_m)   # ~ log acceptance probability
        cost = math.log(m) - log_acc
        if best is not None and cost > best[0]:
            break
        best = (cost, m, c_m, shift_m)
    cost, m, c, shift = best
    if cost > _MAX_LOG_PROPOSALS:
        raise ValueError(f"eta_J * C * dt = {eta * C * dt:.3g} (with lam={lam:.3g}, alpha={a}) needs ~ "
                         f"{math.exp(min(cost, 700.0)):.3g} proposals per exact increment: lower dt or eta_J, or use "
                         "the compound Poisson sampler")
    if a == 1.0:
        sigma = 0.5 * math.pi * c
        loc = (2.0 / math.pi) * sigma * math.log(sigma)
        B, S = 0.0, 1.0
    else:
        try:
            sigma = (-c * math.gamma(-a) * math.cos(0.5 * math.pi * a)) ** (1.0 / a)
            t = math.tan(0.5 * math.pi * a)
            B, S, loc = math.atan(t) / a, (1.0 + t * t) ** (0.5 / a), 0.0
        except OverflowError:
            raise ValueError(f"alpha={a!r} is too small for the exact sampler: the stable scale "
                             "(.)^(1/alpha) overflows float64; use the compound Poisson sampler") from None
    return CTSParams(a, sigma, loc, shift, lam, B, S, m)


@njit(cache=True)
def _one_sided(st, a, sigma, loc, shift, lam, B, S):
    """One exponentially tilted one-sided stable draw by rejection (module docstring)."""
    while True:
        V = math.pi * (_u01(st) - 0.5)
        W = -math.log(_u01(st))
        if a == 1.0:
            z = _cms_one_skewed(V, W)
        else:
            z = _cms_nb(a, B, S, V, W)
        x = sigma * z + loc
        if x > -shift and _u01(st) < math.exp(-lam * (x + shift)):
            return x


@njit(cache=True)
def _cts_draw(st, p):
    """One exact symmetric CTS increment from the parameter tuple p (CTSParams)."""
    a, sigma, loc, shift, lam, B, S, m = p
    tot = 0.0
    for _ in range(m):
        tot += _one_sided(st, a, sigma, loc, shift, lam, B, S) - _one_sided(st, a, sigma, loc, shift, lam, B, S)
    return tot


@njit(cache=True, parallel=True)
def _cts_fill(states, p, per):
    n = states.shape[0]
    out = np.empty(n * per)
    for i in numba.prange(n):
        st = states[i]
        for j in range(per):
            out[i * per + j] = _cts_draw(st, p)
    return out


_PER_STREAM = 256   # draws per random stream in the Generator-facing samplers


def _size(size) -> tuple[int, ...]:
    if isinstance(size, (tuple, list)):
        out = tuple(as_int("size", s, minimum=0, maximum=MAX_LENGTH) for s in size)
        if math.prod(out) > MAX_LENGTH:
            raise ValueError(f"size must have at most {MAX_LENGTH} entries in all, got {size!r}")
        return out
    return (as_int("size", size, minimum=0, maximum=MAX_LENGTH),)


def _fill(kernel, p, size, rng):
    size_t = _size(size)
    n = math.prod(size_t)
    streams = max(1, -(-n // _PER_STREAM))
    seed = int(rng.integers(0, 2**63))
    out = kernel(stream_states(seed, streams), p, _PER_STREAM)
    return out[:n].reshape(size_t)


def cts_increments(dt: float, size, *, eta_J: float, alpha: float, lam: float, C: float = 1.0,
                   seed: Any = None, rng: np.random.Generator | None = None) -> np.ndarray:
    """Exact symmetric CTS increments over dt (Levy measure ``nu`` of the module docstring).

    Method: ``X_+ - X_-``, each an exponentially tilted one-sided stable variable sampled by rejection
    from a CMS proposal (Baeumer & Meerschaert 2010; Kawai & Masuda 2011). Exact for 0 < alpha < 1; for
    1 <= alpha < 2 exact up to a rigorously bounded neglected mass < 2e-18 per draw (module docstring).
    Deterministic given ``seed`` (int, SeedSequence or Generator; ``rng=`` is an alias for a Generator);
    ``eta_J = 0`` gives zeros.

    >>> x = cts_increments(0.1, 4, eta_J=1.0, alpha=0.5, lam=2.0, rng=np.random.default_rng(1))
    >>> x.shape, bool(np.all(np.isfinite(x)))
    ((4,), True)
    """
    p = cts_params(dt, eta_J=eta_J, alpha=alpha, lam=lam, C=C)
    rng = _rng(seed, rng)
    if math.prod(_size(size)) > _MAX_EXACT_DRAWS:
        raise ValueError(f"size must have at most {_MAX_EXACT_DRAWS} entries for the exact sampler, got {size!r}")
    if p.m_sub == 0:
        return np.zeros(_size(size))
    return _fill(_cts_fill, tuple(p), size, rng)


# ------------------------------------------------------------------------------------------ compound Poisson
class CPParams(NamedTuple):
    """Numbers of the compound-Poisson + Gaussian kernel for one step."""

    alpha: float
    lam: float
    eps: float
    mean: float         # mean number of big jumps per step
    p0: float           # exp(-mean): probability of no big jump
    sd_small: float     # standard deviation of the small-jump Gaussian per step


def cp_params(dt: float, eps: float, *, eta_J: float, alpha: float, lam: float, C: float = 1.0) -> CPParams:
    """Precompute the constants of :func:`cts_increments_cp` for a step dt and cut-off eps."""
    dt = as_real("dt", dt, minimum=0.0, open_min=True)
    eps = as_real("eps", eps, minimum=0.0, open_min=True)
    eta, a, lam, C = _levy_args(eta_J, alpha, lam, C)
    _sampler_alpha(a)
    mean = dt * big_jump_rate(eps, eta_J=eta, alpha=a, lam=lam, C=C) if eta > 0 else 0.0
    if mean > 50.0:
        raise ValueError(f"eps={eps} gives {mean:.3g} big jumps per step (> 50): raise eps or lower dt")
    sd = math.sqrt(dt * small_jump_variance(eps, eta_J=eta, alpha=a, lam=lam, C=C)) if eta > 0 else 0.0
    return CPParams(a, lam, eps, mean, math.exp(-mean), sd)


@njit(cache=True)
def _cp_jumps(st, u, a, lam, eps, mean, p0):
    """Sum of the big jumps in one step given the step's uniform u: Poisson(mean) count by inversion of u,
    sizes eps U^(-1/a) accepted with probability exp(-lam (y - eps)) (a Pareto proposal for the tempered
    density), random signs; further random numbers come from the stream ``st``."""
    if u < p0:
        return 0.0
    k, p, F = 1, p0 * mean, p0 + p0 * mean
    while u > F and k < 1000:
        k += 1
        p *= mean / k
        F += p
    tot = 0.0
    for _ in range(k):
        while True:
            y = eps * _u01(st) ** (-1.0 / a)
            t = lam * (y - eps)
            r = _next_u64(st)
            v = _to_u01(r)               # the top 53 bits; the lowest bit, unused by v, gives the sign
            if v < 1.0 - t or v < math.exp(-t):      # squeeze 1 - t <= exp(-t) spares most exp calls
                tot += y if (r & _U64(1)) else -y
                break
    return tot


@njit(cache=True, parallel=True)
def _cp_fill(states, p, per):
    a, lam, eps, mean, p0, sd = p
    n = states.shape[0]
    out = np.empty(n * per)
    for i in numba.prange(n):
        st = states[i]
        for j in range(per):
            out[i * per + j] = sd * _normal(st) + _cp_jumps(st, _u01(st), a, lam, eps, mean, p0)
    return out


def cts_increments_cp(dt: float, size, *, eta_J: float, alpha: float, lam: float, C: float = 1.0,
                      eps: float, seed: Any = None, rng: np.random.Generator | None = None) -> np.ndarray:
    """Approximate CTS increments: compound Poisson for ``|y| >= eps`` + Gaussian small jumps.

    Source: Asmussen & Rosinski (2001), J. Appl. Probab. 38: the Gaussian has the variance
    ``sigma_eps^2 dt`` of the removed small jumps, so kappa_2 is exact and the approximation error
    vanishes as eps -> 0 (valid for every 0 < alpha < 2). Cumulants: :func:`cp_small_jump_cumulant`.
    The mean number of big jumps per step must stay <= 50 (else ValueError: raise eps or lower dt).

    >>> x = cts_increments_cp(0.1, 3, eta_J=1.0, alpha=1.5, lam=2.0, eps=0.1, rng=np.random.default_rng(2))
    >>> x.shape
    (3,)
    """
    p = cp_params(dt, eps, eta_J=eta_J, alpha=alpha, lam=lam, C=C)
    return _fill(_cp_fill, tuple(p), size, _rng(seed, rng))
