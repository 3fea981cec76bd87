r"""Signal energies of linear recurrences with structured initialisations: orthogonal, LRU ring, identity plus noise.

The toolkit's own results (not in Seleznova 2026, arXiv:2605.05113, whose paper ends by naming structured
initialisations as uncovered); the results page is ``docs/results/structured-inits.md``. Conventions as in
:mod:`theory.signal_energy`: width ``n``; ``Q`` at depth ``k`` is ``E||W^k x||^2 / E||x||^2`` (x isotropic,
independent of W); ``S`` at ``t`` is ``E||h(t)||^2 / n`` for ``h(t) = W h(t-1) + x(t)``, ``h(-1) = 0``, iid
zero-mean inputs with ``E x x^* = I`` (**t + 1 inputs counted**, x(0) included; with inputs from t = 1 use
``t - 1``), so ``S_t = sum_{k<=t} Q_k``. Infinite width: ``Q = 1``, ``S = t + 1`` for the critical Gaussian.

The families (law objects, or names: :func:`as_init`)
-----------------------------------------------------
**Orthogonal / unitary Haar** (:class:`OrthogonalInit`). *Proved*: ``W^k`` is orthogonal (unitary), so
``||W^k x|| = ||x||`` for every draw and every x: ``Q = 1``. For the driven recurrence
``h(t) = sum_{k<=t} W^k x(t-k)``; the inputs are independent with zero mean, so the cross terms vanish and
``E_x ||h(t)||^2 = sum_k ||W^k||_F^2 = (t + 1) n`` for **every** W: ``S = t + 1`` exactly at every width and
depth, with no fluctuation over draws (Gaussian inputs: ``h(t) ~ N(0, (t + 1) I)`` given W). The paper's
finite-width effect (``Q - 1 ~ k^4 / 24 n^2`` for Ginibre) is absent.

**Diagonal complex ring, the LRU** (:class:`RingInit`; Orvieto et al. 2023, arXiv:2303.06349, Lemma 3.2):
``W = diag(lambda_j)``, ``lambda_j = r_j e^{i theta_j}`` iid uniform on the ring ``r_min <= |lambda| <= r_max``,
so ``u = |lambda|^2`` is uniform on ``[a, b]``, ``a = r_min^2``, ``b = r_max^2``; optional input normalisation
``gamma_j = sqrt(1 - |lambda_j|^2)``. The energy given W (averaged over the inputs) is an average over
coordinates, ``e = (1/n) sum_j f(u_j)``, with

==========================  ============================  ==========================================
quantity                    ``f(u)``                       with normalisation ``gamma``
==========================  ============================  ==========================================
Q at depth k                ``u^k``                        ``(1 - u) u^k``
S at t                      ``sum_{k<=t} u^k``             ``sum_{k<=t} (1 - u) u^k = 1 - u^{t+1}``
==========================  ============================  ==========================================

*Proved* (the ``u_j`` are iid): ``E e = E f(u)`` at every width, and the variance over draws of the per-network
energy is exactly ``Var f(u) / n`` (a mean of n iid terms: no higher-order terms). With the moments
``mu_m = E u^m = (b^{m+1} - a^{m+1}) / ((m+1)(b - a))`` (``a^m`` when ``a = b``):

* ``Q_k = mu_k``; ``S_t = sum_{k<=t} mu_k = (L_{t+1}(b) - L_{t+1}(a)) / (b - a)``, ``L_T(x) = sum_{m=1}^T x^m / m``
  (``-> (log(1 - a) - log(1 - b)) / (b - a)`` as ``t -> oo`` when ``r_max < 1``: the memory saturates; it
  grows like ``log t / (1 - a)`` when ``r_max = 1``);
* normalised: ``Q_k = mu_k - mu_{k+1}``, ``S_t = 1 - mu_{t+1} <= 1`` (the LRU's normalisation keeps the state
  energy of order one at every depth);
* variances (times n): ``mu_{2k} - mu_k^2`` (Q), ``sum_{m=0}^{2t} (min(m, 2t - m) + 1) mu_m - S_t^2`` (S),
  ``mu_{2k} - 2 mu_{2k+1} + mu_{2k+2} - Q_k^2`` (normalised Q), ``mu_{2t+2} - mu_{t+1}^2`` (normalised S).

*The phase does not matter here*: ``|lambda^k|^2 = |lambda|^{2k}``, and with inputs white in time the lags do not
mix, so only the moduli enter (``theta_max`` is a parameter of the sampler only). It would matter for a real
readout of the complex state (the LRU's ``y = Re(C h)``: with real inputs ``E (Re h_j)^2`` has the terms
``|lambda|^{2k} cos^2(k theta)``), for inputs correlated in time (cross terms ``lambda^k conj(lambda)^l`` carry
``e^{i (k - l) theta}``), and for a non-normal W with these eigenvalues (``V diag(lambda) V^{-1}``, V not unitary).

**Block-diagonal rotations** (:class:`RotationBlocksInit`): real 2 x 2 blocks ``r_b R(theta_b)``, ``(r_b,
theta_b)`` drawn as the ring's. A block is ``r_b`` times a rotation, so the energies are the ring's exactly
(*proved*, same ``f``); each modulus is shared by the two coordinates of its block, so the per-network variance
is ``2 Var f(u) / n`` (``n`` even).

**Identity plus Gaussian noise** (:class:`IdentityNoiseInit`), ``W = alpha I + beta G / sqrt(n)``. Complex G,
*proved*: ``Q(n, k) = sum_j C(k, j)^2 alpha^{2(k-j)} beta^{2j} Q_{n,j}`` (``Q_{n,j}`` of
:func:`theory.signal_energy.Q`; the mixed words ``E tr((X^j)^* X^l)``, ``j != l``, vanish by phase invariance),
so the width-n correction is ``O(1/n^2)`` as for Ginibre. Real G: the mixed words do not vanish
(``E tr(X^2) = 1``): no closed form here; exact rows for ``k <= 16`` by the loop equations
(:mod:`numerics.signal_propagation.identity_noise`), where the correction is found to be ``O(1/n)``.

Families looked at and why we stopped: Haar orthogonal/unitary, the LRU ring (with and without its
normalisation), real rotation blocks (the ring again) and identity plus noise (closed form for complex noise;
exact rows only for real noise, the mixed words ``E tr((X^T)^j X^l)`` having no closed form that we found:
``docs/results/structured-inits.md``). Scaled orthogonal ``sigma O`` is ``sigma^{2k}`` times the Haar energy and
needs no function. Not covered, because no closed form exists for them at finite width that we could derive
in this scope: orthogonal plus noise (Haar-Ginibre mixed moments), the S4/S4D HiPPO initialisations
(deterministic spectra: their energies are plain finite sums, not width-n random-matrix questions),
and the nonlinear recurrences (a separate part of the project).

Precision and cost
------------------
``"exact"`` (Fractions; the parameters as exact rationals: a float is the dyadic rational it stores),
``"float"`` (float64, relative error <= 1e-15 for the ring: the mp path at 17 digits rounded; <= 1e-12 for
identity plus noise, a log-sum-exp of non-negative terms), ``"mp"`` (``mpmath.mpf`` correct to ``dps`` digits,
in a local context; the ring's differences ``mu_k - mu_{k+1}``, ``1 - mu_{t+1}`` and the variances raise the
working precision by the digits they cancel, measured from the result). No ``"ball"``.

Cost bounds: the driven mean of the ring is O(1) in t (Lerch transcendent beyond ``t = 2000``); its variance
without normalisation is an O(t) sum, ``t <= MAX_VARIANCE_T``; identity plus noise is O(t^2) small terms,
``k, t <= MAX_IDENTITY_DEPTH``; exact ring values: ``(top power + 2) x bits of r^2 x terms <= MAX_EXACT_BITS``.
"""

from __future__ import annotations

import math  # noqa: F401 (doctests)
from fractions import Fraction
from typing import Any

import mpmath

from theory._args import as_choice, as_dps, as_int, as_method_dps

from ._exact_facts import haar_moments, identity_noise_expansion
from ._identity import identity_exact, identity_float, identity_mp
from ._inits import (FIELDS, INIT_NAMES, IdentityNoiseInit, OrthogonalInit, RingInit, RotationBlocksInit,
                     StructuredInit, as_init)  # noqa: F401 (StructuredInit: the Union of the laws, for users' annotations)
from ._ring import amplification_bits, constant_f, exact_bits, form_exact, form_mp, forms, mp_value

__all__ = ["Q_structured", "S_structured", "structured_variance", "haar_moments", "identity_noise_expansion", "as_init", "OrthogonalInit", "RingInit",
           "RotationBlocksInit", "IdentityNoiseInit", "INIT_NAMES", "FIELDS", "METHODS",
           "QUANTITIES", "MAX_VARIANCE_T", "MAX_IDENTITY_DEPTH", "MAX_EXACT_BITS"]

METHODS = ("exact", "float", "mp")
QUANTITIES = ("Q", "S")
MAX_VARIANCE_T = 20_000        # ring S variance without normalisation: an O(t) mp sum (~1 s at 2e4)
MAX_IDENTITY_DEPTH = 500       # identity plus noise: O(t^2) terms (exact: t Ginibre energies as Fractions)
MAX_EXACT_BITS = 1 << 25       # the ring's exact path: (top power + 2) x bits x terms (about 2-3 s at the bound)
_FLOAT_DPS = 17


def _typed(value, method: str, dps: int | None):
    """An exact rational in the method's type: Fraction, float or mpf at ``dps`` digits."""
    if method == "exact":
        return Fraction(value)
    if method == "float":
        return float(value)
    with mpmath.workdps(dps):
        return mpmath.mpf(value.numerator) / value.denominator if isinstance(value, Fraction) else +mpmath.mpf(value)


def _checked(n, depth, init, method, dps, depth_name: str):
    init = as_init(init)
    method, dps = as_method_dps(method, dps, methods=METHODS)
    n = as_int("n", n, minimum=1)
    depth = as_int(depth_name, depth, minimum=0)
    if isinstance(init, RotationBlocksInit) and n % 2:
        raise ValueError(f"n must be even for rotation blocks (2 x 2 blocks), got n={n}")
    return n, depth, init, method, dps


def _ring_value(which: int, quantity: str, depth: int, init: RingInit, method: str, dps: int | None):
    """``E f`` (which = 0) or ``E f^2`` (1) of the ring, or, which = 2, ``Var f``; exact zeros handled here."""
    a, b = init.a, init.b
    f1, f2 = forms(quantity, depth, init.gamma_norm)
    if which == 2 and (a == b or constant_f(quantity, depth, init.gamma_norm)):
        return _typed(0, method, dps)
    if which < 2 and init.gamma_norm and a == b == 1:          # |lambda| = 1, gamma = 0: no input enters
        return _typed(0, method, dps)
    if method == "exact":
        top = f2 if which else f1
        if exact_bits(top, a, b) > MAX_EXACT_BITS:
            raise ValueError(f"{'t' if quantity == 'S' else 'k'}={depth} is too deep for method='exact' with these "
                             f"r_min, r_max (about {exact_bits(top, a, b)} bits > {MAX_EXACT_BITS}); use method='mp'")
        m1 = form_exact(f1, a, b)
        return m1 if which == 0 else form_exact(f2, a, b) - (m1 * m1 if which == 2 else 0)
    digits = _FLOAT_DPS if method == "float" else as_dps(dps)
    amp = amplification_bits(f2 if which else f1, b)

    def fn():
        v1, s1 = form_mp(f1, a, b)
        if which == 0:
            return v1, s1
        v2, s2 = form_mp(f2, a, b)
        return (v2 - v1 * v1, s2 + 2 * abs(v1) * s1 + v1 * v1) if which == 2 else (v2, s2)

    out = mp_value(fn, digits, amp)
    return float(out) if method == "float" else out


def _energy(quantity: str, n, depth, init, method, dps):
    n, depth, init, method, dps = _checked(n, depth, init, method, dps, "k" if quantity == "Q" else "t")
    if isinstance(init, OrthogonalInit):
        return _typed(1 if quantity == "Q" else depth + 1, method, dps)
    if isinstance(init, RingInit):
        return _ring_value(0, quantity, depth, init, method, dps)
    return _identity(quantity, n, depth, init, method, dps)


def _identity(quantity: str, n: int, depth: int, init: IdentityNoiseInit, method: str, dps):
    if init.field == "real":
        raise ValueError("init: identity plus real Gaussian noise has no closed form here (the mixed words "
                         "E tr((X^T)^j X^l) do not vanish); its exact rows for k <= 16 are "
                         "numerics.signal_propagation.identity_noise.identity_noise_real_energies")
    as_int("k" if quantity == "Q" else "t", depth, maximum=MAX_IDENTITY_DEPTH)
    A, B = init.alpha2, init.beta2
    if method == "exact":
        return identity_exact(quantity, n, depth, A, B)
    if method == "mp":
        return identity_mp(quantity, n, depth, A, B, dps)
    return identity_float(quantity, n, depth, float(A), float(B))


def Q_structured(n: int, k: int, init: Any, *, method: str = "float", dps: int | None = None):
    r"""Signal energy of the free recurrence ``Q = E||W^k x||^2 / E||x||^2`` for a structured initialisation W.

    ``OrthogonalInit``: ``1``. ``RingInit`` / ``RotationBlocksInit`` (the LRU ring, Orvieto et al. 2023):
    ``mu_k = E u^k`` with ``u = |lambda|^2`` uniform on ``[r_min^2, r_max^2]`` (normalised: ``mu_k - mu_{k+1}``,
    the energy of ``W^k diag(gamma) x``). ``IdentityNoiseInit`` (complex noise): ``sum_j C(k,j)^2 alpha^(2(k-j))
    beta^(2j) Q_{n,j}``. Sources, proofs and conventions: :mod:`theory.structured_init` (the toolkit's own
    results; ``docs/results/structured-inits.md``). Domain: integers ``n >= 1`` (even for rotation blocks),
    ``k >= 0``; identity plus noise ``k <= MAX_IDENTITY_DEPTH`` and complex noise only.

    Parameters
    ----------
    n : int
        Width, ``n >= 1`` (the ring's and Haar's means do not depend on it).
    k : int
        Depth (the power of W), ``k >= 0``.
    init : OrthogonalInit, RingInit, RotationBlocksInit, IdentityNoiseInit or str
        The initialisation law, or its name (:func:`as_init`: ``"orthogonal"``, ``"ring:r_min=0.9,r_max=0.999"``).
    method : {"float", "exact", "mp"}
        float64, a Fraction (the parameters taken as exact rationals) or an ``mpmath.mpf`` of ``dps`` digits.
    dps : int, optional
        Digits for "mp" (None: the ambient ``mpmath.mp.dps``); must be None otherwise.

    Returns
    -------
    float, fractions.Fraction or mpmath.mpf
        The energy.

    Raises
    ------
    TypeError
        A non-integer ``n`` or ``k``, an ``init`` that is neither a law nor a name.
    ValueError
        ``n < 1`` (odd for rotation blocks), ``k < 0``, an unknown name or method, a bad ``dps``, identity plus
        real noise (no closed form: see the numerics named in the message), an exact path beyond its cost bound.
    OverflowError
        "float" past float64's range (identity plus noise with large scales or depth; use "mp").

    Examples
    --------
    >>> Q_structured(64, 100, "orthogonal", method="exact")
    Fraction(1, 1)
    >>> Q_structured(8, 2, RingInit(0, 1), method="exact")              # E u^2 = 1/3 for u uniform on [0, 1]
    Fraction(1, 3)
    >>> Q_structured(8, 1, "ring:r_min=0.5,r_max=1,gamma_norm=true", method="exact")   # E (1-u) u, u ~ U[1/4, 1]
    Fraction(3, 16)
    >>> Q_structured(4, 2, IdentityNoiseInit(0, 1), method="exact")     # alpha = 0: the Ginibre Q_{4,2}
    Fraction(17, 16)
    >>> Q_structured(4, 2, IdentityNoiseInit(1, 1), method="exact")     # 1 + 4 Q_{4,1} + Q_{4,2}
    Fraction(97, 16)
    """
    return _energy("Q", n, k, init, method, dps)


def S_structured(n: int, t: int, init: Any, *, method: str = "float", dps: int | None = None):
    r"""Signal energy of the driven recurrence ``S = E||h(t)||^2 / n = sum_{k<=t} Q_k`` for a structured W.

    ``h(t) = W h(t-1) + x(t)`` (normalised ring: ``+ gamma * x(t)``), ``h(-1) = 0``, iid inputs with
    ``E x x^* = I``: **t + 1 inputs** (x(0) counted; with inputs from t = 1 use ``t - 1``). ``OrthogonalInit``:
    ``t + 1`` exactly. Ring: ``(L_{t+1}(r_max^2) - L_{t+1}(r_min^2)) / (r_max^2 - r_min^2)`` with
    ``L_T(x) = sum_{m<=T} x^m / m`` (O(1) in t beyond 2000 terms, by the Lerch transcendent), normalised
    ``1 - mu_{t+1}``. Identity plus complex noise: the sum of :func:`Q_structured`. Source, domain and
    conventions: :mod:`theory.structured_init`.

    Parameters
    ----------
    n : int
        Width, ``n >= 1`` (even for rotation blocks).
    t : int
        Last time step, ``t >= 0`` (``<= MAX_IDENTITY_DEPTH`` for identity plus noise).
    init : law or str
        As for :func:`Q_structured`.
    method : {"float", "exact", "mp"}
        As for :func:`Q_structured`.
    dps : int, optional
        Digits for "mp"; None: the ambient ``mpmath.mp.dps``.

    Returns
    -------
    float, fractions.Fraction or mpmath.mpf
        The energy.

    Raises
    ------
    TypeError, ValueError, OverflowError
        As for :func:`Q_structured` (with ``t`` for ``k``).

    Examples
    --------
    >>> S_structured(64, 9, OrthogonalInit("complex"), method="exact")
    Fraction(10, 1)
    >>> S_structured(8, 1, RingInit(0, 1), method="exact")                 # 1 + E u
    Fraction(3, 2)
    >>> abs(S_structured(8, 10**9, RingInit(0, 0.5)) - 4 * math.log(4 / 3)) < 1e-15   # t -> oo: -log(1-b)/b
    True
    """
    return _energy("S", n, t, init, method, dps)


def structured_variance(n: int, t: int, init: Any, *, quantity: str = "S", method: str = "float",
                        dps: int | None = None):
    r"""Variance over weight draws of the per-network energy at width ``n`` (the energy given W, averaged over
    the inputs: ``||W^t||_F^2 / n`` for ``quantity="Q"``, ``E_x ||h(t)||^2 / n`` for ``"S"``).

    Ring: exactly ``Var f(u) / n`` (rotation blocks ``2 Var f(u) / n``) with the ``f`` of
    :mod:`theory.structured_init` (a mean of iid terms, proved). Orthogonal: 0 (every draw gives ``1`` and
    ``t + 1``). Identity plus noise: not available (no closed form for the fourth moments; the Monte Carlo
    :func:`numerics.signal_propagation.structured_mc.estimate_structured` measures it). ``t`` is the depth of
    the quantity (``k`` for Q). Ring S without normalisation: ``t <= MAX_VARIANCE_T`` (an O(t) sum).

    Parameters
    ----------
    n : int
        Width, ``n >= 1`` (even for rotation blocks).
    t : int
        Depth, ``t >= 0``.
    init : law or str
        As for :func:`Q_structured`.
    quantity : {"S", "Q"}
        The driven (default) or the free recurrence.
    method : {"float", "exact", "mp"}
        As for :func:`Q_structured`.
    dps : int, optional
        Digits for "mp"; None: the ambient ``mpmath.mp.dps``.

    Returns
    -------
    float, fractions.Fraction or mpmath.mpf
        The variance (``>= 0``).

    Raises
    ------
    TypeError, ValueError
        As for :func:`Q_structured`; identity plus noise; ``t`` beyond ``MAX_VARIANCE_T``.

    Examples
    --------
    >>> structured_variance(10, 1, RingInit(0, 1), quantity="Q", method="exact")   # Var u / n = (1/12) / 10
    Fraction(1, 120)
    >>> structured_variance(10, 1, RotationBlocksInit(0, 1), quantity="Q", method="exact")
    Fraction(1, 60)
    >>> structured_variance(10**6, 50, "orthogonal")
    0.0
    """
    quantity = as_choice("quantity", quantity, QUANTITIES)
    n, t, init, method, dps = _checked(n, t, init, method, dps, "t")
    if isinstance(init, OrthogonalInit):
        return _typed(0, method, dps)
    if isinstance(init, IdentityNoiseInit):
        raise ValueError("init: identity plus noise has no closed-form variance here; measure it with "
                         "numerics.signal_propagation.structured_mc.estimate_structured")
    if quantity == "S" and not init.gamma_norm:
        as_int("t", t, maximum=MAX_VARIANCE_T)
    var = _ring_value(2, quantity, t, init, method, dps)
    if method == "exact":
        return var * init.copies / n
    if method == "float":
        return var * init.copies / n if n < 2**1000 else float(Fraction(var) * init.copies / n)
    with mpmath.workdps(dps):
        return var * init.copies / n


# The public names defined in the private submodules are this package's: the API site documents a module's own
# members (autosummary, imported members off), so without this they would have no page (as theory.signal_energy).
for _name in __all__:
    _obj = globals()[_name]
    if callable(_obj) and getattr(_obj, "__module__", "").startswith(f"{__name__}._"):
        _obj.__module__ = __name__
del _name, _obj
