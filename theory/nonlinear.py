r"""Nonlinear recurrences with tied Gaussian weights: the infinite-width (mean-field) energy and its first
finite-width correction.

Model and convention
--------------------
``W`` an ``n x n`` matrix with iid ``N(0, sigma^2 / n)`` entries, **the same at every step** (weight tying),
``phi`` one of :data:`PHIS` (``"tanh"``, ``"relu"``, ``"identity"``), applied entrywise:

* free:   ``h_t = phi(W h_{t-1})`` for ``t >= 1``, ``h_0 ~ N(0, I_n)`` (``h_0`` is not passed through phi);
* driven: ``h_t = phi(W h_{t-1} + x_t)``, ``h_{-1} = 0`` (so ``h_0 = phi(x_0)``), inputs ``x_t`` iid ``N(0, I_n)``:
  ``t + 1`` inputs ``x_0..x_t`` reach ``h_t``, the toolkit's convention of the linear ``S_{n,t}`` (with the
  identity, ``h_t = sum_k W^k x_{t-k}``).

The energy is ``E ||h_t||^2 / n``. With the identity it is exactly ``sigma^(2t) Q^R_{n,t}`` (free) and
``sum_{k<=t} sigma^(2k) Q^R_{n,k}`` (driven; ``S^R_{n,t}`` at ``sigma = 1``), the real-weight energies of
:mod:`theory.real_expansion` (:func:`identity_energy`).

The mean field (:func:`mean_field_energy`, :func:`mean_field_profile`)
------------------------------------------------------------------------
With ``V_phi(v) = E phi(sqrt(v) xi)^2``, ``xi ~ N(0, 1)`` (a one-dimensional Gaussian integral,
:func:`gaussian_energy`),

.. math::

    q_0 = 1,\ q_t = V_\phi(\sigma^2 q_{t-1})\ \text{(free)};\qquad
    q_{-1} = 0,\ q_t = V_\phi(\sigma^2 q_{t-1} + 1)\ \text{(driven)}.

Closed forms: the identity (``V(v) = v``) gives ``sigma^(2t)`` and ``sum_{k<=t} sigma^(2k)``; relu
(``V(v) = v / 2``) gives ``(sigma^2/2)^t`` and ``(1/2) sum_{k<=t} (sigma^2/2)^k``. tanh has none: the integral
is evaluated numerically (float: a trapezoidal rule on the half line, below; mp: mpmath's tanh-sinh
quadrature). Criticality: tanh at ``sigma = 1`` (``q_t ~ 1 / (2t)``, a polynomial decay to 0), relu at
``sigma^2 = 2`` (``q_t = 1``), the identity at ``sigma = 1``.

**Why weight tying does not change the infinite-width energy** (status: **proved**, from the literature).
The recurrence is a NETSOR tensor program in the sense of G. Yang, "Scaling Limits of Wide Neural Networks
with Weight Sharing" (arXiv:1902.04760, 2019) and "Tensor Programs I: Wide Feedforward or Recurrent Neural
Networks of Any Architecture are Gaussian Processes" (arXiv:1910.12478, NeurIPS 2019): Gaussian input vectors
(``h_0``, ``x_t``), one Gaussian matrix ``W`` used in every MatMul, and polynomially bounded nonlinearities (tanh,
relu, the identity). Its master theorem states that, at fixed t as ``n -> inf``, the coordinates of the
pre-activations ``g_t = W h_{t-1}`` behave like jointly Gaussian ``Z^{g_t}`` with
``Cov(Z^{g_s}, Z^{g_t}) = sigma^2 E[Z^{h_{s-1}} Z^{h_{t-1}}]``, and ``||h_t||^2 / n -> E phi(Z^{g_t} (+ x))^2``
almost surely. The variance of ``Z^{g_t}`` is ``sigma^2 q_{t-1}``, the same as with a fresh matrix at every
step: reusing ``W`` correlates the pre-activations of different steps but does not change the law of each one,
so the one-step recursion above holds (the "untied" mean field of M. Chen, J. Pennington, S. Schoenholz,
"Dynamical Isometry and a Mean Field Theory of RNNs", ICML 2018, arXiv:1806.05394, which they support
numerically, is exact for the forward energy). The expectations converge too (the toolkit's step): ``|phi(x)|
<= |x|`` gives ``||h_t|| <= ||W||^t ||h_0||`` (free; driven: ``+ sum_s ||W||^s ||x_{t-s}||``), and the moments
of ``||W||`` are bounded uniformly in n, so ``||h_t||^2 / n`` is uniformly integrable. Finite widths are
what the Monte Carlo (:mod:`numerics.signal_propagation.nonlinear_mc`) measures
(``docs/results/nonlinear-recurrences.md``).

The first finite-width correction (:func:`first_correction_profile`)
---------------------------------------------------------------------
*The independent-step part.* With ``K_t = ||h_t||^2 / n``: given ``h_{t-1}``, a *fresh* Gaussian matrix would
make the n pre-activations iid ``N(0, v_t)``, ``v_t = sigma^2 K_{t-1} (+ 1)``, so ``E[K_t | K_{t-1}] = V(v_t)`` and
``n Var[K_t | K_{t-1}] = U(v_t) - V(v_t)^2`` (``U(v) = E phi(sqrt(v) xi)^4``). The delta method then gives
``E K_t = q_t (1 + c_t / n + O(n^-2))`` with ``c_t = e_t / q_t`` and

.. math::

    e_t = \sigma^2 V'(\bar v_t)\, e_{t-1} + \tfrac{\sigma^4}{2} V''(\bar v_t)\, s_{t-1},\qquad
    s_t = \sigma^4 V'(\bar v_t)^2 s_{t-1} + U(\bar v_t) - V(\bar v_t)^2,\qquad \bar v_t = \sigma^2 q_{t-1} (+1),

``e_0 = 0`` and ``s_0 = 2`` (free: ``||h_0||^2 / n`` is ``chi^2_n / n``), ``e_{-1} = s_{-1} = 0`` (driven);
``s_t / n`` is the variance of ``K_t``. ``V'' = 0`` for relu and the identity: their ``c_t = 0``.

*Weight tying.* Conditioning ``W`` on the past pre-activations ``g_s = W h_{s-1}`` (Gaussian conditioning) writes
the pre-activation of step t as ``W' P h_{t-1} + sum_s a_s g_s`` (``W'`` an independent copy, ``P`` the projection
off the past states, ``a = (H^T H)^{-1} H^T h_{t-1}`` the overlaps of ``h_{t-1}`` with them). At depth 2 (free)
``a = h_0 . h_1 / ||h_0||^2 = O(n^-1/2)`` and, for every phi, the ``O(1/n)`` effect of the shift ``a g_1`` cancels
exactly against the variance that ``P`` removes (both are ``V'(v) a^2 sigma^2 ||h_0||^2`` at leading order), leaving
a relative ``O(n^-2)``: ``2 sigma^4 V'(sigma^2) V'(sigma^2 q_1) / (q_2 n^2) + O(n^-3)`` for relu and the identity
(``V'' = 0`` and no fourth-order term in the shift; ``2 / n^2`` at criticality, for the identity the exact
``a_2(2)`` of ``Q^R_{n,2} = 1 + 2/n^2``), plus fourth-order terms of the same order for tanh. For an **odd** phi (tanh, the identity) every cross-time overlap
``h_s . h_t / n`` tends to 0 (by induction, the infinite-width pre-activations of different steps are independent:
their covariance ``sigma^2 E[phi(Z_s) phi(Z_t)]`` vanishes), so every ``a_s`` is ``O(n^-1/2)`` and the same
cancellation is taken to hold at every depth: ``c_t`` is then the whole ``1/n`` term. **Status**: derived at
depth 2, assumed beyond; verified for the identity on every exact row (``a_1(k) = 0``, k <= 80) and for tanh
against Monte Carlo to depth 8 and against the whole ``1/n`` term with tying
(``numerics.signal_propagation.tied_correction``: ``|b_t - c_t| <= 0.021``, t <= 8;
``docs/results/nonlinear-recurrences.md``). **relu is not odd**: its states are
non-negative and carry a mean mode ``mu_t 1`` (``mu_t^2 = q_t / pi``), which ``W`` maps to the same random vector
``W 1`` at every step, so the overlaps ``h_s . h_t / n -> mu_s mu_t`` stay of order one and tying enters at
``O(1/n)``: a random growth rate of order ``n^-1/2`` per weight draw, whose effect on the mean grows like
``t^2 / n``. That term needs the joint fluctuations of all the two-time overlaps, which the independent-step
recursion does not carry: :func:`first_correction_profile` therefore refuses relu, and
``numerics.signal_propagation.tied_correction.tied_correction_profile`` computes the whole ``1/n`` term, tying
included, from the exact Gaussian-conditioning representation of the recurrence and its second-order von Mises
expansion (derived up to a Gaussian integral, evaluated by Monte Carlo: nonzero from depth 3 free, from depth 2
driven, where ``h_0 = relu(x_0)`` already carries the mean mode).

Numerics of the Gaussian integrals
----------------------------------
float: ``E f(sqrt(v) xi) = h f(0) phi_N(0) + 2 h sum_{j>=1} f(sqrt(v) j h) phi_N(j h)`` (f even), ``h = 0.2 /
max(1, sqrt(v))``, ``j h <= 38.5`` (``phi_N`` the standard normal density; the omitted tail is below
``1e-320``). The integrands are analytic in the strip ``|Im x| < pi / (2 sqrt(v))`` (the poles of tanh), so the
rule's error is ``O(exp(-2 pi a / h))`` with ``a`` just inside the strip: below ``1e-17`` relative for every v;
with the rounding (the sum pairwise, NumPy's: a BLAS dot's error grows with the nodes and depends on the kernel
the CPU selects), the float value is within ``1e-15`` relative of mpmath's at 40 digits for ``v`` from
``1e-300`` to ``1e6``. mp: ``v E[xi^2 (tanh(y)/y)^2]``, ``y = sqrt(v) xi`` (an
integral of order ``min(1, 1/v)``, so its error estimate is relative) by ``mpmath.quad`` (tanh-sinh) on
``[0, min(1, 1/sqrt v), 4, inf]`` at ``dps + 10`` digits in a local ``workdps``; its error estimate must be
below ``10^-(dps+2)`` relative, else a ValueError. The recursion's float rounding grows at most linearly:
relative error ``<= (t + 1) * 1e-15`` (measured against mp).
"""

from __future__ import annotations

import dataclasses
import math
from functools import lru_cache

import mpmath
import numpy as np

from ._args import DEFAULT_DPS, MAX_DPS, as_bool, as_choice, as_int, as_method_dps, as_mp_real, as_real, check_budget

__all__ = ["PHIS", "MAX_SIGMA", "MAX_T", "MAX_T_MP", "MAX_DPS_TANH", "MAX_MP_SECONDS", "Recurrence",
           "gaussian_energy", "mean_field_energy", "mean_field_profile", "first_correction_profile", "identity_energy"]

PHIS = ("tanh", "relu", "identity")
MAX_SIGMA = 100.0     # the tanh rule has about 190 max(1, sigma sqrt(q)) nodes per step
MAX_T = 10**6         # an O(t) recursion (float: about a second per 1e5 tanh steps)
MAX_T_MP = 1000       # tanh, mp: one tanh-sinh quadrature per step (its cost: _quadrature_seconds below)
# tanh, mp: mpmath's tanh-sinh quadrature takes about 0.025 (dps / 30)^1.65 s up to 160 working digits (measured
# 2026-12-07: 0.4 s at 160), then jumps (6 s at 190, 40 s at 310: the fuzz's dps = 3416 never returned); the
# profile's steps are refused beyond MAX_MP_SECONDS of that estimate
MAX_DPS_TANH = 140
MAX_MP_SECONDS = 120.0

_H0 = 0.2             # node spacing of the float rule at v <= 1 (module docstring)
_XMAX = 38.5          # phi_N(38.5) ~ 1e-323: the rule's last node


@dataclasses.dataclass(frozen=True)
class Recurrence:
    """One nonlinear recurrence: ``phi`` in :data:`PHIS`, weight scale ``sigma`` (``W`` iid ``N(0, sigma^2/n)``,
    ``0 < sigma <= MAX_SIGMA``) and ``driven`` (inputs ``x_t`` at every step, ``h_{-1} = 0``); the module
    docstring states the model. The one spec that the mean field (:func:`mean_field_profile`) and the Monte
    Carlo (:func:`numerics.signal_propagation.nonlinear_mc.nonlinear_energies_mc`) share.

    >>> Recurrence("relu", 2 ** 0.5, driven=True).label
    'relu sigma=1.41421 driven'
    >>> Recurrence("sigmoid", 1.0)
    Traceback (most recent call last):
        ...
    ValueError: phi must be one of ('tanh', 'relu', 'identity'); got 'sigmoid'
    """

    phi: str
    sigma: float
    driven: bool = False

    def __post_init__(self):
        object.__setattr__(self, "phi", as_choice("phi", self.phi, PHIS))
        object.__setattr__(self, "sigma", as_real("sigma", self.sigma, minimum=0.0, maximum=MAX_SIGMA,
                                                  open_min=True))
        object.__setattr__(self, "driven", as_bool("driven", self.driven))

    @property
    def label(self) -> str:
        """The recurrence's short name, such as ``"tanh sigma=1 free"``."""
        return f"{self.phi} sigma={self.sigma:g} {'driven' if self.driven else 'free'}"


# --------------------------------------------------------------------------------------------------
# the one-dimensional Gaussian integrals
# --------------------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _rule(scale: int) -> tuple[np.ndarray, np.ndarray]:
    """Nodes ``x_j = j h`` and weights of the half-line trapezoidal rule with ``h = _H0 / scale``."""
    h = _H0 / scale
    x = np.arange(int(_XMAX / h) + 1) * h
    w = 2.0 * h * np.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)
    w[0] *= 0.5
    return x, w


def _wsum(w: np.ndarray, f: np.ndarray) -> float:
    """``sum_j w_j f_j`` by NumPy's pairwise summation: an error of ``O(log m)`` ulps, where a BLAS dot's grows
    with ``m`` and with the kernel the CPU selects (``w @ f`` at ``v = 1e6``, 192501 nodes: 13 ulps on an AMD
    EPYC of family 26, where OpenBLAS takes its Haswell kernel; the pairwise sum: at most 1.2 from 1e-9 to 1e6)."""
    return float(np.sum(w * f))


def _tanh_energy(v: float) -> float:
    """``E tanh(sqrt(v) xi)^2`` by the float rule (module docstring)."""
    x, w = _rule(max(1, math.ceil(math.sqrt(v))))
    return _wsum(w, np.tanh(math.sqrt(v) * x) ** 2)


def _tanh_moments(v: float) -> tuple[float, float, float, float]:
    """``(V, V', V'', U)`` of tanh at ``v >= 0`` by the float rule: ``V = E T^2``, ``U = E T^4`` with
    ``T = tanh(sqrt(v) xi)``; ``V' = E (T^2)'' / 2`` and ``V'' = E (T^2)'''' / 4`` (the heat equation
    ``d/dv E f(sqrt(v) xi) = E f''(sqrt(v) xi) / 2``), the derivatives of ``tanh^2`` as polynomials in
    ``T^2``: ``(T^2)'' = 2 - 8 T^2 + 6 T^4``, ``(T^2)'''' = -16 + 136 T^2 - 240 T^4 + 120 T^6``."""
    x, w = _rule(max(1, math.ceil(math.sqrt(v))))
    s = np.tanh(math.sqrt(v) * x) ** 2
    V = _wsum(w, s)
    U = _wsum(w, s * s)
    d2 = _wsum(w, 2.0 + s * (-8.0 + 6.0 * s)) / 2.0
    d4 = _wsum(w, -16.0 + s * (136.0 + s * (-240.0 + 120.0 * s))) / 4.0
    return V, d2, d4, U


def _moments(phi: str, v: float) -> tuple[float, float, float, float]:
    """``(V, V', V'', U)`` of ``phi`` at variance ``v`` (float)."""
    if phi == "identity":
        return v, 1.0, 0.0, 3.0 * v * v
    if phi == "relu":
        return 0.5 * v, 0.5, 0.0, 1.5 * v * v
    return _tanh_moments(v)


def _tanh_energy_mp(v, dps: int):
    """``E tanh(sqrt(v) xi)^2 = v E[xi^2 (tanh(y)/y)^2]``, ``y = sqrt(v) xi``, by tanh-sinh quadrature at
    ``dps + 10`` digits (``v`` an mpf >= 0): the integral is of order ``min(1, 1/v)`` for every v, so the
    quadrature's error estimate is a relative one."""
    with mpmath.workdps(dps + 10):
        if v == 0:
            return mpmath.mpf(0)
        s = mpmath.sqrt(v)

        def f(x):
            y = s * x
            return x * x * (mpmath.tanh(y) / y) ** 2 * mpmath.exp(-x * x / 2)

        value, err = mpmath.quad(f, [0, min(mpmath.mpf(1), 1 / s), 4, mpmath.inf], error=True)
        if not err <= abs(value) * mpmath.mpf(10) ** (-dps - 2):
            raise ValueError(f"the tanh-sinh quadrature of E tanh(sqrt(v) xi)^2 did not reach dps={dps} digits at "
                             f"v={mpmath.nstr(v, 8)} (error estimate {mpmath.nstr(err, 3)}): lower dps")
        return v * value * 2 / mpmath.sqrt(2 * mpmath.pi)


def gaussian_energy(v, phi, *, method: str = "float", dps: int | None = None):
    r"""``V_phi(v) = E phi(sqrt(v) xi)^2``, ``xi ~ N(0, 1)``: one step of the mean field.

    Closed forms ``v`` (identity) and ``v / 2`` (relu); tanh by quadrature (module docstring: float, a
    trapezoidal rule, relative error below ``1e-15``; mp, tanh-sinh at ``dps`` digits).
    Source: the toolkit's (``docs/results/nonlinear-recurrences.md``). Domain: ``0 <= v <= 1e6``; tanh with "mp"
    ``dps <= 140`` (:data:`MAX_DPS_TANH`).

    Parameters
    ----------
    v : float
        Variance of the pre-activation, ``0 <= v <= 1e6``.
    phi : {"tanh", "relu", "identity"}
        The activation.
    method : {"float", "mp"}
        float64 or an ``mpmath.mpf`` correct to ``dps`` digits.
    dps : int, optional
        Digits for "mp"; None: the ambient ``mpmath.mp.dps``.

    Returns
    -------
    float or mpmath.mpf

    Raises
    ------
    TypeError, ValueError
        ``v`` not real or out of range, an unknown ``phi`` or ``method``, ``dps`` with "float".

    Examples
    --------
    >>> round(gaussian_energy(1.0, "tanh"), 12)
    0.394294490398
    >>> gaussian_energy(3.0, "relu")
    1.5
    >>> import mpmath
    >>> mpmath.nstr(gaussian_energy(1.0, "tanh", method="mp", dps=25), 25)
    '0.3942944903978411744164598'
    """
    phi = as_choice("phi", phi, PHIS)
    method, dps = _method_dps(phi, method, dps)
    vf = as_real("v", v, minimum=0.0, maximum=1e6)
    if method == "float":
        return _tanh_energy(vf) if phi == "tanh" else _moments(phi, vf)[0]
    with mpmath.workdps(dps):
        vm = as_mp_real("v", v)
        return +_energy_mp(phi, vm, dps)


def _energy_mp(phi: str, v, dps: int):
    if phi == "identity":
        return v
    if phi == "relu":
        return v / 2
    return _tanh_energy_mp(v, dps)


# --------------------------------------------------------------------------------------------------
# the mean field
# --------------------------------------------------------------------------------------------------
def _quadrature_seconds(dps: int) -> float:
    """The measured cost of one tanh-sinh quadrature of :func:`_tanh_energy_mp` at ``dps`` (its own 10 guard
    digits included in the fit)."""
    return 0.025 * (dps / 30.0) ** 1.65


def _method_dps(phi: str, method, dps):
    """``as_method_dps`` with tanh's precision cap (:data:`MAX_DPS_TANH`: its quadrature slows abruptly above)."""
    return as_method_dps(method, dps, max_dps=MAX_DPS_TANH if phi == "tanh" else MAX_DPS)


def _check(t, phi, sigma, driven, method, dps, t_max_mp: int = MAX_T_MP):
    phi = as_choice("phi", phi, PHIS)
    method, dps = _method_dps(phi, method, dps)
    as_real("sigma", sigma, minimum=0.0, maximum=MAX_SIGMA, open_min=True)
    driven = as_bool("driven", driven)
    tanh_mp = method == "mp" and phi == "tanh"
    t = as_int("t", t, minimum=0, maximum=t_max_mp if tanh_mp else MAX_T)
    if tanh_mp:       # one quadrature per step at dps + 5 digits (the profile's guard digits)
        check_budget(f"t (tanh, mp at dps={dps})", t * _quadrature_seconds(dps + 5), MAX_MP_SECONDS, unit="s",
                     value=t)
    return t, phi, driven, method, dps


def _sigma_mp(sigma, prec: int):
    """``sigma`` as an mpf holding its exact value (a float's 53 bits; other reals rounded at ``prec`` bits)."""
    with mpmath.workprec(prec):
        return as_mp_real("sigma", sigma)


def _closed_form_mp(t: int, phi: str, sigma, driven: bool, prec: int):
    """identity / relu: ``c r^t`` (free, ``c = 1``) or ``c sum_{k<=t} r^k`` (driven), ``r = c' sigma^2`` with
    ``c' = 1`` (identity) or ``1/2`` (relu), ``c = c'`` when driven; one rounding at ``prec`` bits: ``r - 1`` is
    exact at twice sigma's bits (``sigma`` an mpf of at most ``prec`` bits)."""
    with mpmath.workprec(2 * prec + 64 + int(t).bit_length()):
        half = mpmath.mpf(1) if phi == "identity" else mpmath.mpf(1) / 2
        r = sigma * sigma * half
        if not driven:
            out = r ** t
        elif r == 1:
            out = half * (t + 1)
        else:
            out = half * mpmath.expm1((t + 1) * mpmath.log1p(r - 1)) / (r - 1)
    with mpmath.workprec(prec):
        return +out


def _closed_profile_float(t: int, phi: str, sigma, driven: bool) -> np.ndarray:
    """identity / relu, float64, all depths: ``exp(k L)`` (free) or ``c expm1((k+1) L) / (r - 1)`` (driven) with
    ``L = log r`` and ``r - 1`` rounded once from 30-digit values: relative error ``<= 2e-16 (2 + |k L|)``."""
    prec = int((DEFAULT_DPS + 5) * 3.33) + 8
    s = _sigma_mp(sigma, prec)
    with mpmath.workprec(2 * prec + 64):
        half = mpmath.mpf(1) if phi == "identity" else mpmath.mpf(1) / 2
        r = s * s * half
        L, rm1 = float(mpmath.log(r)), float(r - 1)
    k = np.arange(t + 1, dtype=np.float64)
    with np.errstate(over="ignore"):
        if not driven:
            out = np.exp(k * L)
        elif rm1 == 0.0:
            out = float(half) * (k + 1.0)
        else:
            out = float(half) * np.expm1((k + 1.0) * L) / rm1
    bad = np.flatnonzero(~((out > 1e-307) & (out < 1e308)))
    if bad.size:
        raise OverflowError(f"q_{int(bad[0])} lies outside float64's normal range: use method='mp'")
    return out


def _float_result(x, what: str) -> float:
    """An mpf as a float64, refusing values outside float64's normal range (overflow, or an underflow that
    would lose the relative accuracy a deviation profile needs)."""
    if not 1e-307 < abs(x) < 1e308:
        raise OverflowError(f"{what} = {mpmath.nstr(x, 5)} lies outside float64's normal range: use method='mp'")
    return float(x)


def mean_field_profile(t, phi, sigma, *, driven: bool = False, method: str = "float", dps: int | None = None):
    r"""The mean-field energies ``[q_0, ..., q_t]`` of the nonlinear recurrence (module docstring).

    Closed forms for relu and the identity (float: ``exp(k log r)`` and ``expm1`` with ``log r`` from 30-digit
    arithmetic, relative error ``<= 2e-16 (2 + |log q_k|)``; mp: ``dps`` digits); tanh by the recursion with
    quadrature at every step (float: relative error ``<= (t + 1) 1e-15``; mp: ``dps`` digits, one tanh-sinh
    quadrature per step). Source: the infinite-width recursion of the module docstring (proved there from
    Yang 2019); convention ``h_0 ~ N(0, I)`` (free) or ``h_{-1} = 0`` with ``t + 1`` inputs (driven). Domain:
    ``0 <= t <= MAX_T`` (1e6; tanh with "mp": ``MAX_T_MP`` = 1000, ``dps <= MAX_DPS_TANH`` = 140 and at most
    ``MAX_MP_SECONDS`` = 120 s of estimated quadrature), ``0 < sigma <= MAX_SIGMA`` (100).

    Parameters
    ----------
    t : int
        Last depth: the profile has ``t + 1`` entries.
    phi : {"tanh", "relu", "identity"}
        The activation.
    sigma : float
        Weight scale, ``W`` iid ``N(0, sigma^2 / n)``.
    driven : bool
        The driven recurrence (``q_{-1} = 0``, unit-variance inputs) instead of the free one (``q_0 = 1``).
    method : {"float", "mp"}
        A float64 array, or a list of ``mpmath.mpf``.
    dps : int, optional
        Digits for "mp"; None: the ambient ``mpmath.mp.dps``.

    Returns
    -------
    numpy.ndarray or list of mpmath.mpf
        ``q_0..q_t``.

    Raises
    ------
    TypeError, ValueError
        A bad argument, named with its allowed range.
    OverflowError
        "float" where an entry leaves float64's normal range (relu or identity with a large sigma, tanh
        deep in the ordered phase): use "mp".

    Examples
    --------
    >>> np.round(mean_field_profile(3, "relu", 2 ** 0.5, driven=True), 12).tolist()  # (t + 1) / 2 at criticality
    [0.5, 1.0, 1.5, 2.0]
    >>> np.round(mean_field_profile(2, "tanh", 1.0), 6).tolist()
    [1.0, 0.394294, 0.23645]
    """
    t, phi, driven, method, dps = _check(t, phi, sigma, driven, method, dps)
    if phi == "tanh":
        return _tanh_profile_mp(t, sigma, driven, dps) if method == "mp" else _tanh_profile_float(t, float(sigma), driven)
    if method == "float":
        return _closed_profile_float(t, phi, sigma, driven)
    prec = int((dps + 5) * 3.33) + 8
    s = _sigma_mp(sigma, prec)
    vals = [_closed_form_mp(k, phi, s, driven, prec) for k in range(t + 1)]
    with mpmath.workdps(dps):
        return [+x for x in vals]


def _tanh_profile_float(t: int, sigma: float, driven: bool) -> np.ndarray:
    out = np.empty(t + 1)
    q = 0.0 if driven else 1.0
    s2 = sigma * sigma
    for k in range(t + 1):
        if k > 0 or driven:
            q = _tanh_energy(s2 * q + (1.0 if driven else 0.0))
        if not q > 1e-300:                 # q_t > 0 for every t: 0 is an underflow, never the value
            raise OverflowError(f"q_{k} = {q:.3g} lies outside float64's normal range: use method='mp'")
        out[k] = q
    return out


def _tanh_profile_mp(t: int, sigma, driven: bool, dps: int) -> list:
    out = []
    with mpmath.workdps(dps + 5):
        s2 = as_mp_real("sigma", sigma) ** 2
        q = mpmath.mpf(0) if driven else mpmath.mpf(1)
        for k in range(t + 1):
            if k > 0 or driven:
                q = _tanh_energy_mp(s2 * q + (1 if driven else 0), dps + 5)
            out.append(q)
    with mpmath.workdps(dps):
        return [+x for x in out]


def mean_field_energy(t, phi, sigma, *, driven: bool = False, method: str = "float", dps: int | None = None):
    r"""The infinite-width energy ``q_t = lim_n E ||h_t||^2 / n`` of the nonlinear recurrence at depth ``t``.

    ``h_t = phi(W h_{t-1})`` (free, ``h_0 ~ N(0, I_n)``) or ``h_t = phi(W h_{t-1} + x_t)`` (driven,
    ``h_{-1} = 0``, ``t + 1`` inputs ``x_0..x_t`` iid ``N(0, I_n)``), ``W`` iid ``N(0, sigma^2 / n)`` **the same at
    every step**. ``q_t = E phi(sqrt(sigma^2 q_{t-1} (+ 1)) xi)^2``: weight tying leaves the infinite-width
    forward energy unchanged (**proved**: the master theorem of Yang's tensor programs, arXiv:1902.04760 and
    arXiv:1910.12478; the module docstring gives the argument and the uniform integrability that carries it to
    the expectation). Closed forms: identity ``sigma^(2t)`` (free) and ``sum_{k<=t} sigma^(2k)`` (driven), relu
    ``(sigma^2/2)^t`` and ``(1/2) sum_{k<=t} (sigma^2/2)^k``; tanh by one-dimensional quadrature at every step
    (float: relative error ``<= (t + 1) 1e-15``; mp: ``dps`` digits in a local mpmath context). The value of
    :func:`mean_field_profile` at depth ``t`` (up to its rounding; relu and identity here: 1 ulp); same domain
    (``t <= 1e6``, tanh with "mp" ``t <= 1000``, ``dps <= 140`` and the quadrature's time budget,
    ``0 < sigma <= 100``). Finite widths: ``docs/results/nonlinear-recurrences.md``.

    Parameters
    ----------
    t : int
        Depth, ``t >= 0``.
    phi : {"tanh", "relu", "identity"}
        The activation.
    sigma : float
        Weight scale (> 0): criticality is tanh ``sigma = 1``, relu ``sigma = sqrt 2``, identity ``sigma = 1``.
    driven : bool, default False
        Driven recurrence (inputs every step) instead of the free one.
    method : {"float", "mp"}, default "float"
        float64, or an ``mpmath.mpf`` correct to ``dps`` digits.
    dps : int, optional
        Digits for "mp"; None: the ambient ``mpmath.mp.dps``.

    Returns
    -------
    float or mpmath.mpf
        ``q_t``.

    Raises
    ------
    TypeError
        ``t`` not an integer, ``sigma`` not real, ``phi``/``method`` not strings, ``driven`` not a bool.
    ValueError
        ``t < 0`` or beyond its maximum, ``sigma <= 0`` or above 100, an unknown ``phi`` or ``method``.
    OverflowError
        "float" where ``q_t`` leaves float64's normal range (use "mp").

    Examples
    --------
    >>> mean_field_energy(10, "relu", 2 ** 0.5)     # (2**0.5)**2 = 2 + 2.7e-16: q_10 = 1 + 1.4e-15 for that sigma
    1.0000000000000013
    >>> mean_field_energy(4, "identity", 1.0, driven=True)    # S = t + 1 at infinite width
    5.0
    >>> round(mean_field_energy(1000, "tanh", 1.0) * 2000, 3)  # q_t ~ 1 / (2t) at criticality
    1.002
    >>> import mpmath
    >>> mpmath.nstr(mean_field_energy(2, "tanh", 1.0, method="mp", dps=20), 20)
    '0.23645041049929593935'
    >>> mean_field_energy(-1, "tanh", 1.0)
    Traceback (most recent call last):
        ...
    ValueError: t must be an integer >= 0, got -1
    """
    t, phi, driven, method, dps = _check(t, phi, sigma, driven, method, dps)
    if phi == "tanh":
        q = mean_field_profile(t, phi, sigma, driven=driven, method=method, dps=dps)[-1]
        return q if method == "mp" else float(q)
    prec = int(((dps if method == "mp" else DEFAULT_DPS) + 5) * 3.33) + 8
    value = _closed_form_mp(t, phi, _sigma_mp(sigma, prec), driven, prec)
    if method == "float":
        return _float_result(value, f"q_{t}")
    with mpmath.workdps(dps):
        return +value


# --------------------------------------------------------------------------------------------------
# the first finite-width correction
# --------------------------------------------------------------------------------------------------
def first_correction_profile(t, phi, sigma, *, driven: bool = False) -> np.ndarray:
    r"""``[c_0, ..., c_t]``: the first finite-width correction, ``E ||h_t||^2 / n = q_t (1 + c_t / n + O(n^-2))``,
    for an odd activation (tanh, the identity).

    The independent-step recursion of the module docstring ("The first finite-width correction"), with weight
    tying entering at ``O(n^-2)`` (derived at depth 2, assumed beyond for odd phi; **status: derived, verified
    against Monte Carlo for tanh to depth 8 and on the exact rows for the identity**,
    ``docs/results/nonlinear-recurrences.md``). ``c_t = 0`` for the identity. relu is refused: tying adds an
    ``O(1/n)`` term there (the mean mode of non-negative states) that this recursion does not carry
    (``numerics.signal_propagation.tied_correction.tied_correction_profile`` computes the whole term). float64;
    domain as :func:`mean_field_profile` (float).

    Parameters
    ----------
    t : int
        Last depth, ``0 <= t <= MAX_T``.
    phi : {"tanh", "identity"}
        The activation ("relu" is refused).
    sigma : float
        Weight scale, ``0 < sigma <= MAX_SIGMA``.
    driven : bool, default False
        The driven recurrence.

    Returns
    -------
    numpy.ndarray
        ``c_0..c_t`` (float64).

    Raises
    ------
    TypeError, ValueError
        A bad argument, named; ``phi="relu"``.
    OverflowError
        The mean field leaves float64's normal range (a tiny or large sigma deep enough).

    Examples
    --------
    >>> first_correction_profile(3, "identity", 1.0).tolist()
    [0.0, 0.0, 0.0, 0.0]
    >>> c = first_correction_profile(1, "tanh", 1.0)    # c_1 = V''(1) Var(||h_0||^2/n) n / (2 V(1)) = V''(1) / V(1)
    >>> round(float(c[1]), 6), round(gaussian_energy(1.0, "tanh"), 6)
    (-0.43443, 0.394294)
    >>> first_correction_profile(3, "relu", 2 ** 0.5)
    Traceback (most recent call last):
        ...
    ValueError: phi must be 'tanh' or 'identity' for the first correction: with relu, weight tying adds an O(1/n) term (the mean mode of non-negative states) that this recursion does not carry (numerics.signal_propagation.tied_correction.tied_correction_profile computes the whole term); got 'relu'
    """
    t, phi, driven, _, _ = _check(t, phi, sigma, driven, "float", None)
    if phi == "relu":
        raise ValueError("phi must be 'tanh' or 'identity' for the first correction: with relu, weight tying adds an "
                         "O(1/n) term (the mean mode of non-negative states) that this recursion does not carry "
                         "(numerics.signal_propagation.tied_correction.tied_correction_profile computes the whole "
                         "term); got 'relu'")
    s2 = float(sigma) ** 2
    q = mean_field_profile(t, phi, sigma, driven=driven)
    c = np.zeros(t + 1)
    if phi == "identity":
        return c
    e, s = 0.0, (0.0 if driven else 2.0)
    prev = 0.0 if driven else 1.0
    for k in range(t + 1):
        if k == 0 and not driven:
            continue
        V, d1, d2, U = _moments(phi, s2 * prev + (1.0 if driven else 0.0))
        e, s = s2 * d1 * e + 0.5 * s2 * s2 * d2 * s, (s2 * d1) ** 2 * s + U - V * V
        prev = q[k]
        c[k] = e / q[k]
    return c


# --------------------------------------------------------------------------------------------------
# the identity at finite width: the exact real-weight energies
# --------------------------------------------------------------------------------------------------
def identity_energy(n, t, sigma=1.0, *, driven: bool = False):
    r"""The exact finite-width energy of the identity recurrence, with its error estimate.

    ``E ||W^t h_0||^2 / n = sigma^(2t) Q^R_{n,t}`` (free) and ``E ||h_t||^2 / n = sum_{k<=t} sigma^(2k) Q^R_{n,k}``
    (driven, ``t + 1`` inputs; ``S^R_{n,t}`` at ``sigma = 1``), from :func:`theory.real_expansion.QR` /
    :func:`theory.real_expansion.SR` (exact rows for ``t <= 60``, the large-n expansion beyond; its domain).
    Source: Seleznova (2026), arXiv:2605.05113, Sec. 2 (the real-weight energies); the values are the toolkit's.

    Parameters
    ----------
    n : int
        Width, ``n >= 1``.
    t : int
        Depth, ``t >= 0`` within :func:`theory.real_expansion.max_depth`.
    sigma : float, default 1
        Weight scale, ``0 < sigma <= MAX_SIGMA``.
    driven : bool, default False
        The driven recurrence.

    Returns
    -------
    theory.results.Energy
        ``value``, ``error`` (an estimate; 0 on the exact rows) and ``source``.

    Raises
    ------
    TypeError, ValueError
        A bad argument, or ``t`` beyond the real energies' domain.
    OverflowError
        ``sigma^(2t)`` past float64's range.

    Examples
    --------
    >>> identity_energy(16, 2).value                 # Q^R_{16,2} = 1 + 2/16^2
    1.0078125
    >>> identity_energy(4, 2, driven=True).value     # S^R_{4,2} = 1 + 1 + 9/8
    3.125
    """
    from .real_expansion import QR, SR
    from .results import Energy

    n = as_int("n", n, minimum=1)
    t = as_int("t", t, minimum=0)
    sigma = as_real("sigma", sigma, minimum=0.0, maximum=MAX_SIGMA, open_min=True)
    driven = as_bool("driven", driven)
    if sigma == 1.0:
        return (SR if driven else QR)(n, t)
    if 2 * t * abs(math.log(sigma)) > 700:
        raise OverflowError(f"sigma^(2t) = {sigma:g}^{2 * t} lies outside float64's range")
    if not driven:
        r = QR(n, t)
        scale = sigma ** (2 * t)
        return Energy(r.value * scale, r.error * scale, r.source)
    r = QR(n, np.arange(t + 1))
    w = sigma ** (2.0 * np.arange(t + 1))
    return Energy(float(np.dot(w, r.value)), float(np.dot(w, r.error)), r.source)
