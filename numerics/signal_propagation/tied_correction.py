r"""The whole first finite-width correction of a tied-weight recurrence's energy, weight tying included.

The model of :mod:`theory.nonlinear`: ``h_t = phi(W h_{t-1})``, ``h_0 ~ N(0, I_n)`` (free) or
``h_t = phi(W h_{t-1} + x_t)``, ``h_{-1} = 0`` (driven), ``W`` iid ``N(0, sigma^2 / n)``, the same at every step;
``K_t = ||h_t||^2 / n`` and ``E K_t = q_t (1 + b_t / n + O(n^-2))`` with ``q_t`` the mean field
(:func:`theory.nonlinear.mean_field_profile`). :func:`theory.nonlinear.first_correction_profile` derives the
independent-step part ``c_t`` of ``b_t``; for relu ``c_t = 0`` while ``b_t`` is not (the mean mode of relu
states makes weight tying enter at ``O(1/n)``). This module computes ``b_t`` itself.

**The exact representation (Gaussian conditioning).** Given the past, ``W`` restricted to the complement of
``span(h_0, ..., h_{k-2})`` is a fresh Gaussian matrix, so ``w_k = W h_{k-1}`` is exactly

.. math:: w_k = \sum_{j \le k-2} \beta_j w_{j+1} + \sigma \sqrt{K_{k-1} - c^\top \beta}\ \zeta_k, \qquad
          G \beta = c,

with ``G = (h_i \cdot h_j / n)_{i,j \le k-2}``, ``c = (h_j \cdot h_{k-1} / n)_{j \le k-2}`` and ``zeta_k`` a
fresh ``N(0, I_n)`` vector; ``g_k = w_k`` (free) or ``w_k + x_k`` (driven), ``h_k = phi(g_k)``. Every
coordinate ``i`` then carries the iid base variables ``z_i = (h_{0,i}`` or ``x_{0,i}, zeta_{1..t,i}``, and
``x_{1..t,i}`` when driven), and ``K_t = T_t(P_n)``: a functional ``T_t`` of the empirical law ``P_n`` of the
``z_i``, in which every inner product ``/ n`` is an expectation under ``P_n``. At the Gaussian law ``P``,
``T_t(P) = q_t`` (the mean field: the overlaps are population ones).

**The second-order von Mises expansion.** For a smooth functional, ``E T(P_n) = T(P) + E_z[T_2(z)] / n +
O(n^-2)``, where ``T((1 - e) P + e delta_z) = T(P) + T_1(z) e + T_2(z) e^2 + O(e^3)`` (half the second
influence function on the diagonal; ``E T_1 = 0``). So ``b_t = E_z[T_{2,t}(z)] / q_t``. ``T_2(z)`` is computed
exactly for each ``z`` by carrying truncated Taylor series in ``e`` (order 2) through the recursion: the
population overlaps are closed forms (relu: the arc-cosine kernel ``E relu(u) relu(v) = s_u s_v (sin th +
(pi - th) cos th) / (2 pi)``, ``E z relu(v) = Cov / 2``, ``E relu(v)^2 = Var / 2``; identity: the covariance),
smooth in their arguments; the point terms need only first derivatives (``relu' = 1{g > 0}``). tanh's overlaps
have no closed form: their value and derivatives (Price's theorem) are two-dimensional trapezoidal sums
(:func:`_pair_moments`, relative error about ``1e-15``), for ``sigma <= 4``.

**Status.** The representation is exact and the expansion is the standard bias formula of a smooth statistical
functional (derived; relu's point terms have a kink at 0, which the population terms smooth out: the checks below
test the expansion there); the last step, the Gaussian integral ``E_z[T_2(z)]`` over ``t + 1`` (free) or
``2 t + 1`` (driven) dimensions, is a Monte Carlo average with its standard error from the same run (measured,
with an interval). Checks where the answer is known exactly: the identity (``b_t = 0``: the exact real-weight
rows), relu at ``t = 1`` (``b_1 = 0``, free and driven), free relu at ``t = 2`` (tying enters at
``O(n^-2)``), driven relu at ``t = 2`` and free relu at ``t = 3`` (the closed forms
:func:`theory.relu_tying.relu_tying_b`); and
against the recurrence's own Monte Carlo at finite widths (``validation.checks.nonlinear``,
``docs/results/nonlinear-recurrences.md``). For tanh it tests the
independent-step term ``c_t`` of :func:`theory.nonlinear.first_correction_profile`, which assumes that tying
adds nothing at ``1/n`` for an odd activation.

Cost: about ``t^2 (t + 1)`` vector operations on chunks of :data:`CHUNK` samples per depth; ``2^20`` samples at
``t = 8`` take about ten seconds.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np

from theory._args import as_bool, as_choice, as_int, as_real, as_seed_sequence, check_budget
from theory.nonlinear import MAX_SIGMA, Recurrence

__all__ = ["TiedCorrection", "tied_correction_profile", "PHIS", "MAX_T", "MAX_SAMPLES", "MAX_SIGMA_TANH", "CHUNK",
           "MAX_WORK"]

PHIS = ("relu", "tanh", "identity")
MAX_SIGMA_TANH = 4.0      # tanh's overlaps: a trapezoidal grid of up to about 360^2 nodes
MAX_T = 32
MAX_SAMPLES = 1 << 30
# a call's cost in flop-equivalents at about 1 Gflop/s of series arithmetic: 30 (t + 1)^3 a sample (measured
# 2026-12-06: 2^22 samples at t = 8 in about 40 s, 2^22 at t = 2 in about 2.5 s) plus Python's 1e6 a chunk;
# refused beyond MAX_WORK (about a quarter of an hour on one core; 2^22 samples at t = 8 need a tenth of it)
MAX_WORK = 1e12
CHUNK = 1 << 15


class _Jet:
    """A truncated series ``a + b e + c e^2`` in the contamination ``e``; ``a`` a float or an array (a point
    term), ``b`` and ``c`` arrays over the samples (or floats)."""

    __slots__ = ("a", "b", "c")

    def __init__(self, a, b=0.0, c=0.0):
        self.a, self.b, self.c = a, b, c

    def __add__(self, o):
        o = _jet(o)
        return _Jet(self.a + o.a, self.b + o.b, self.c + o.c)

    __radd__ = __add__

    def __sub__(self, o):
        o = _jet(o)
        return _Jet(self.a - o.a, self.b - o.b, self.c - o.c)

    def __mul__(self, o):
        o = _jet(o)
        return _Jet(self.a * o.a, self.a * o.b + self.b * o.a, self.a * o.c + self.b * o.b + self.c * o.a)

    __rmul__ = __mul__

    def _compose(self, f0, f1, f2):
        """``f(self)`` from ``f``, ``f'``, ``f''`` at ``a``."""
        return _Jet(f0, f1 * self.b, f1 * self.c + 0.5 * f2 * self.b * self.b)

    def recip(self):
        return self._compose(1.0 / self.a, -1.0 / self.a ** 2, 2.0 / self.a ** 3)

    def sqrt(self):
        r = np.sqrt(self.a)
        return self._compose(r, 0.5 / r, -0.25 / r ** 3)

    def arccos(self):
        x = self.a
        s = np.sqrt(1.0 - x * x)
        return self._compose(np.arccos(x), -1.0 / s, -x / s ** 3)

    def relu(self):
        on = np.asarray(self.a) > 0
        return _Jet(np.where(on, self.a, 0.0), np.where(on, self.b, 0.0), np.where(on, self.c, 0.0))

    def tanh(self):
        th = np.tanh(self.a)
        s = 1.0 - th * th
        return self._compose(th, s, -2.0 * th * s)


def _jet(x) -> _Jet:
    return x if isinstance(x, _Jet) else _Jet(x)


def _dot(u, v) -> _Jet:
    out = _Jet(0.0)
    for x, y in zip(u, v):
        out = out + x * y
    return out


def _mix(pop: _Jet, point: _Jet) -> _Jet:
    """``(1 - e) pop + e point``: an expectation under the contaminated law, to order ``e^2``."""
    return _Jet(pop.a, pop.b + point.a - pop.a, pop.c + point.b - pop.b)


def _derivatives(act: str, u: np.ndarray) -> list:
    """The derivatives of orders 0 to 4 at ``u`` of the identity (``"lin"``) or of tanh."""
    if act == "lin":
        return [u, np.ones_like(u), *([np.zeros_like(u)] * 3)]
    th = np.tanh(u)
    s = 1.0 - th * th
    return [th, s, -2.0 * th * s, -2.0 * s * (1.0 - 3.0 * th * th), 8.0 * th * s * (2.0 - 3.0 * th * th)]


@functools.lru_cache(maxsize=4096)
def _pair_moments(act1: str, act2: str, v1: float, v2: float, c: float) -> tuple:
    """``E[f(u) g(v)]`` for jointly Gaussian ``(u, v)`` (variances ``v1``, ``v2``, covariance ``c``; ``f``, ``g``
    the identity or tanh), with its gradient and Hessian in ``(v1, v2, c)`` by Price's theorem
    (``d/dc = E[f' g']``, ``d/dv1 = E[f'' g] / 2``, ``d^2/dv1 dc = E[f''' g'] / 2``, ``d^2/dv1^2 = E[f'''' g] / 4``,
    ...). Each expectation is a two-dimensional trapezoidal sum in standard coordinates (``u = sqrt(v1) X``,
    ``v = sqrt(v2) (rho X + sqrt(1 - rho^2) Y)``) with the step of ``theory.nonlinear``'s one-dimensional rule,
    ``0.2 / max(1, sqrt(max(v1, v2)))``, over ``|X|, |Y| <= 8.6`` (the Gaussian weight beyond is below
    ``1e-16``). Cached: the population overlaps are the same numbers in every chunk of samples."""
    h = 0.2 / max(1.0, math.sqrt(max(v1, v2)))
    m = int(math.ceil(8.6 / h))
    x = h * np.arange(-m, m + 1)
    w = h * np.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)
    rho = min(max(c / math.sqrt(v1 * v2), -1.0), 1.0)
    X, Y = x[:, None], x[None, :]
    F = _derivatives(act1, math.sqrt(v1) * X)
    G = _derivatives(act2, math.sqrt(v2) * (rho * X + math.sqrt(1.0 - rho * rho) * Y))
    W = w[:, None] * w[None, :]
    E = lambda i, j: float(np.sum(W * F[i] * G[j]))  # noqa: E731
    grad = (0.5 * E(2, 0), 0.5 * E(0, 2), E(1, 1))
    hess = ((0.25 * E(4, 0), 0.25 * E(2, 2), 0.5 * E(3, 1)),
            (0.25 * E(2, 2), 0.25 * E(0, 4), 0.5 * E(1, 3)),
            (0.5 * E(3, 1), 0.5 * E(1, 3), E(2, 2)))
    return E(0, 0), grad, hess


def _smooth_pair(act1: str, a1: list, act2: str, a2: list) -> _Jet:
    """``E[f(u) g(v)]`` for ``u = a1 . z``, ``v = a2 . z`` (``f``, ``g`` the identity or tanh) as a series in the
    contamination: :func:`_pair_moments` at the population's ``(Var u, Var v, Cov)``, composed with their series
    (the chain rule to second order)."""
    J = [_dot(a1, a1), _dot(a2, a2), _dot(a1, a2)]
    p0, grad, hess = _pair_moments(act1, act2, *(float(j.a) for j in J))
    b = sum(g * j.b for g, j in zip(grad, J))
    cc = sum(g * j.c for g, j in zip(grad, J)) + 0.5 * sum(
        hess[i][k] * J[i].b * J[k].b for i in range(3) for k in range(3))
    return _Jet(p0, b, cc)


def _population(act1: str, a1: list, act2: str, a2: list, same: bool) -> _Jet:
    """``E[h h']`` under the Gaussian law for ``h = act1(a1 . z)``, ``h' = act2(a2 . z)``, each activation one of
    ``"lin"`` (the identity), ``"relu"``, ``"tanh"``."""
    if "tanh" in (act1, act2):
        return _smooth_pair(act1, a1, act2, a2)
    cov = _dot(a1, a2)
    relu1, relu2 = act1 == "relu", act2 == "relu"
    if not relu1 and not relu2:
        return cov
    if relu1 != relu2 or same:                 # Stein: E z relu(v) = Cov / 2; E relu(v)^2 = Var / 2
        return cov * 0.5
    s = (_dot(a1, a1) * _dot(a2, a2)).sqrt()
    rho = cov * s.recip()
    return s * ((_Jet(1.0) - rho * rho).sqrt() + (_Jet(math.pi) - rho.arccos()) * rho) * (0.5 / math.pi)


def _solve(G: list, c: list) -> list:
    """``G beta = c`` for a small symmetric positive definite matrix of jets (Gaussian elimination)."""
    m = len(c)
    A, b = [row[:] for row in G], c[:]
    for i in range(m):
        piv = A[i][i].recip()
        for r in range(i + 1, m):
            f = A[r][i] * piv
            A[r] = [A[r][q] - f * A[i][q] for q in range(m)]
            b[r] = b[r] - f * b[i]
    x: list = [None] * m
    for i in reversed(range(m)):
        acc = b[i]
        for q in range(i + 1, m):
            acc = acc - A[i][q] * x[q]
        x[i] = acc * A[i][i].recip()
    return x


def _second_order(t: int, phi: str, sigma: float, driven: bool,
                  z: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(T_1, T_2)`` of ``K_0..K_t`` at each column of ``z`` (``D x N`` base variables) and the mean field
    ``q_0..q_t``: arrays ``(t + 1, N)`` and ``(t + 1,)``."""
    D, N = z.shape
    zero, one = _Jet(0.0), _Jet(1.0)
    point_z = [_Jet(row) for row in z]
    unit = lambda i: [one if j == i else zero for j in range(D)]  # noqa: E731
    act = "lin" if phi == "identity" else phi
    hs = [(act if driven else "lin", unit(0))]  # (activation, coefficients over the base variables)
    ws: list = []                               # w_k's coefficients, k = 1..
    vals = []

    def at_point(h):
        u = _dot(h[1], point_z)
        return u.relu() if h[0] == "relu" else u.tanh() if h[0] == "tanh" else u

    vals.append(at_point(hs[0]))
    M = {(0, 0): _mix(_population(hs[0][0], hs[0][1], hs[0][0], hs[0][1], True), vals[0] * vals[0])}
    for k in range(1, t + 1):
        m = k - 1
        coef = [zero] * D
        proj = zero
        if m > 0:
            beta = _solve([[M[min(i, j), max(i, j)] for j in range(m)] for i in range(m)], [M[i, m] for i in range(m)])
            proj = _dot(beta, [M[i, m] for i in range(m)])
            for j in range(m):
                coef = [x + beta[j] * y for x, y in zip(coef, ws[j])]
        coef[k] = coef[k] + (M[m, m] - proj).sqrt() * sigma
        ws.append(coef)
        g = list(coef)
        if driven:
            g[t + k] = g[t + k] + one
        h = (act, g)
        hs.append(h)
        vals.append(at_point(h))
        for j in range(k + 1):
            M[j, k] = _mix(_population(hs[j][0], hs[j][1], act, g, j == k), vals[j] * vals[k])
    T1 = np.stack([np.broadcast_to(M[k, k].b, (N,)) for k in range(t + 1)])
    T2 = np.stack([np.broadcast_to(M[k, k].c, (N,)) for k in range(t + 1)])
    return T1, T2, np.array([float(M[k, k].a) for k in range(t + 1)])


@dataclasses.dataclass(frozen=True)
class TiedCorrection:
    """The first finite-width correction ``b_t`` of ``E K_t = q_t (1 + b_t / n + O(n^-2))``, depths ``0..t``.

    ``b``, ``se``: arrays of length ``t + 1`` (``se``: the Monte Carlo standard error of the Gaussian integral,
    from the same run); ``q``: the mean field ``q_0..q_t`` the expansion is taken around; ``influence_mean``,
    ``influence_se``: the mean of the first-order term ``T_1 / q`` and its se (exactly 0 in expectation: a
    diagnostic of the run).
    """

    recurrence: Recurrence
    t: int
    samples: int
    seed: object
    b: np.ndarray
    se: np.ndarray
    q: np.ndarray
    influence_mean: np.ndarray
    influence_se: np.ndarray

    def energy(self, n: int) -> np.ndarray:
        """``q_t (1 + b_t / n)``, ``t = 0..t``: the energy to first order at width ``n`` (``n >= 1``)."""
        n = as_int("n", n, minimum=1)
        return self.q * (1.0 + self.b / n)


def tied_correction_profile(t, samples, *, phi: str, sigma: float, driven: bool = False, seed=0) -> TiedCorrection:
    r"""The coefficient ``b_t`` of ``1/n`` in ``E ||h_t||^2 / n = q_t (1 + b_t / n + O(n^-2))`` for a recurrence
    with tied Gaussian weights, weight tying included, depths ``0..t``.

    Source: the toolkit's extension of Seleznova (2026), arXiv:2605.05113 (linear recurrences) to nonlinear
    ones (``docs/results/nonlinear-recurrences.md``, section 2): the exact Gaussian-conditioning
    representation of the recurrence and the second-order von Mises expansion of its energy (module
    docstring), whose last Gaussian integral is this function's Monte Carlo average. Status: derived up to
    that integral, which is measured (``se`` from the same run). Convention: ``W`` iid ``N(0, sigma^2 / n)``,
    tied; ``h_0 ~ N(0, I_n)`` (free) or ``h_{-1} = 0`` with unit inputs (driven); ``b_0 = 0``.

    Parameters
    ----------
    t : int
        Deepest depth, ``1 <= t <= 32``.
    samples : int
        Monte Carlo samples of the base variables, ``1 <= samples <= 2^30`` (the se falls like
        ``1 / sqrt(samples)``), within the work budget :data:`MAX_WORK` (``30 samples (t + 1)^3`` flop-equivalents
        plus ``1e6`` a chunk: about ``10^9 / (t + 1)^3`` samples).
    phi : {"relu", "tanh", "identity"}
        The activation. Required (the toolkit's other nonlinear functions default to tanh).
    sigma : float
        Weight scale, ``0 < sigma <= 100``, ``<= 4`` for tanh (relu's criticality is ``sqrt(2)``, tanh's 1).
    driven : bool
        The driven recurrence.
    seed : int or numpy.random.SeedSequence
        Seed of the samples (chunks of :data:`CHUNK` drawn in order: the same seed gives the same numbers).

    Returns
    -------
    TiedCorrection

    Raises
    ------
    TypeError, ValueError
        ``t``, ``samples``, ``phi``, ``sigma``, ``driven`` or ``seed`` of the wrong type or out of range (named).

    Examples
    --------
    >>> from numerics.stats import z_for_false_alarm
    >>> r = tied_correction_profile(3, 20000, phi="relu", sigma=2 ** 0.5, seed=1)   # free relu at criticality
    >>> bool(abs(r.b[1]) <= z_for_false_alarm() * r.se[1])     # b_1 = 0 exactly: E K_1 = sigma^2 E K_0 / 2
    True
    >>> bool(r.b[3] - z_for_false_alarm() * r.se[3] > 0.5)     # tying enters at O(1/n) from depth 3
    True
    """
    t = as_int("t", t, minimum=1, maximum=MAX_T)
    samples = as_int("samples", samples, minimum=1, maximum=MAX_SAMPLES)
    check_budget("samples * 30 (t + 1)^3 + 1e6 chunks", samples * 30.0 * (t + 1) ** 3 + 1e6 * -(-samples // CHUNK),
                 MAX_WORK, unit="flops", value=samples)
    phi = as_choice("phi", phi, PHIS)
    sigma = as_real("sigma", sigma, minimum=0.0, maximum=MAX_SIGMA, open_min=True)
    if phi == "tanh" and sigma > MAX_SIGMA_TANH:
        raise ValueError(f"sigma must be <= {MAX_SIGMA_TANH:g} for tanh (its overlaps' quadrature grid grows like "
                         f"sigma^2), got {sigma!r}")
    driven = as_bool("driven", driven)
    ss = as_seed_sequence(seed)
    rng = np.random.default_rng(ss)
    D = 1 + t + (t if driven else 0)
    s1, s2, i1 = np.zeros(t + 1), np.zeros(t + 1), np.zeros(t + 1)
    i2, q, done = np.zeros(t + 1), None, 0
    while done < samples:
        m = min(CHUNK, samples - done)
        T1, T2, q = _second_order(t, phi, sigma, driven, rng.standard_normal((D, m)))
        s1 += T2.sum(axis=1)
        s2 += (T2 * T2).sum(axis=1)
        i1 += T1.sum(axis=1)
        i2 += (T1 * T1).sum(axis=1)
        done += m

    def mean_se(a, b):
        mean = a / samples
        var = np.maximum(b / samples - mean * mean, 0.0) * samples / max(samples - 1, 1)
        return mean / q, np.sqrt(var / samples) / q

    b, se = mean_se(s1, s2)
    im, ise = mean_se(i1, i2)
    # an integer seed of any integer type is recorded as the int it is (the same numbers, the same result)
    label = int(seed) if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) else ss
    return TiedCorrection(Recurrence(phi, sigma, driven), t, samples, label,
                          b, se, q, im, ise)
