r"""Weight tying's first finite-width term of a relu recurrence at shallow depths, in closed form.

The model of :mod:`theory.nonlinear` with ``phi = relu``: ``W`` iid ``N(0, sigma^2 / n)``, the same at every step;
free ``h_t = relu(W h_{t-1})``, ``h_0 ~ N(0, I_n)``; driven ``h_t = relu(W h_{t-1} + x_t)``, ``h_{-1} = 0`` (so
``h_0 = relu(x_0)``), inputs iid ``N(0, I_n)``. With ``K_t = ||h_t||^2 / n`` and the mean field ``q_t``,
``E K_t = q_t (1 + b_t / n + O(n^-2))``. The independent-step part of ``b_t`` vanishes for relu
(:func:`theory.nonlinear.first_correction_profile`), so ``b_t`` is all weight tying.
:mod:`numerics.signal_propagation.tied_correction` computes every ``b_t`` with its last Gaussian integral by Monte
Carlo; where that integral reduces to bivariate ones it has a closed form, derived here: free ``t <= 3``, driven
``t <= 2``.

**The structure.** Gaussian conditioning (the tied-correction module) writes ``w_t = W h_{t-1}`` exactly as
``sum_j a_j zeta_j`` in iid coordinate variables, with coefficients ``a = a(theta)`` that are functions of the
empirical overlaps ``theta`` (``K_s``, ``C_rs = h_r . h_s / n``, ``s < t``), and
``K_t = E_{P_n} psi_t(z; theta_hat)``, ``psi_t = relu(w_t (+ x_t))^2``. Under the Gaussian law ``w_t`` has variance
``|a|^2 = sigma^2 K_{t-1}`` for every ``theta`` (the projection's two parts add up), so
``Psi_t(theta) = E_P psi_t = (sigma^2 K_{t-1} (+ 1)) / 2``, linear in ``K_{t-1}`` alone. The second-order (von
Mises) expansion of ``E_{P_n} psi_t(z; theta_hat)`` then leaves

.. math::

    b_t q_t = \frac{\sigma^2}{2}\, b_{t-1} q_{t-1} + \Delta_t,\qquad
    \Delta_t = E_P\big[\partial_\theta \psi_t \cdot \mathrm{IF}_\theta\big],

``IF`` the influence functions of the overlaps (``Delta_t``: weight tying's new contribution at step ``t``; ``b_1 =
0``: ``K_0`` is independent of the variables of ``psi_1``). Stein's lemma in each ``zeta_j``, with
``sum_j a_j d a_j = (sigma^2 / 2) d K_{t-1}``, splits it into
``sigma^2 E[1{w_t (+ x_t) > 0} IF_{K_{t-1}}]`` and ``2 sum_{theta, j} (d a_j / d theta) E[relu(w_t (+ x_t))
d IF_theta / d zeta_j]``.

**Driven, t = 2.** ``w_1 = sigma sqrt(K_0) zeta_1``, ``g_1 = w_1 + x_1``, ``w_2 = A zeta_1 + B zeta_2`` with
``A = sigma C / sqrt(K_0)``, ``B = sigma sqrt(K_1 - C^2 / K_0)``, ``C = C_01``. ``K_0``'s influence is a function
of ``x_0``, independent of the rest; ``IF_{K_1} = relu(g_1)^2 - K_1``, ``IF_C = m relu(g_1) - C``
(``m = E relu(x_0) = 1/sqrt(2 pi)``) up to such terms; ``dA / dC = sigma / sqrt(K_0)``. So

.. math::

    \Delta_2 = \sigma^2 \big(E[1\{g_2 > 0\}\,\mathrm{relu}(g_1)^2] - K_1 / 2\big)
              + 2 \sigma^2 m\, E[\mathrm{relu}(g_2)\, 1\{g_1 > 0\}],

two bivariate orthant moments at the population: ``K_0 = 1/2``, ``v_1 = Var g_1 = sigma^2 / 2 + 1 = 2 K_1``,
``v_2 = Var g_2 = sigma^2 v_1 / 2 + 1 = 2 q_2``, ``C = sqrt(v_1) / (2 pi)``, correlation
``rho = sigma^2 / (2 pi sqrt(v_2))``. For standard ``(u, v)`` with correlation ``rho = cos(theta)``:
``E[v^2 1{u > 0, v > 0}] = (pi - theta + sin(theta) cos(theta)) / (2 pi)`` and
``E[u 1{u > 0, v > 0}] = (1 + rho) / (2 sqrt(2 pi))``. With ``b_1 = 0``:

.. math::

    b_2 = \frac{\sigma^2}{\pi v_2}\Big(v_1 \big(\arcsin\rho + \rho\sqrt{1 - \rho^2}\big) + \sqrt{v_2}\,(1 + \rho)\Big),
    \qquad v_1 = \frac{\sigma^2}{2} + 1,\ v_2 = \frac{\sigma^2 v_1}{2} + 1,\ \rho = \frac{\sigma^2}{2\pi\sqrt{v_2}}.

At criticality (``sigma^2 = 2``, ``rho = 1 / (pi sqrt 3)``): ``b_2 = (2 / (3 pi)) (2 arcsin(rho) + 2 rho
sqrt(1 - rho^2) + sqrt 3 + 1/pi) = 0.590212``. It grows like ``sigma^2 / pi`` near 0 and tends to free relu's
``b_3`` (below) as ``sigma -> inf``, where the inputs stop mattering. The term is the mean mode: ``h_0 =
relu(x_0)`` has a nonzero mean, so ``C`` does not vanish at infinite width and ``A zeta_1`` correlates ``g_2``
with ``g_1``.

**Free, t = 2 and 3.** ``h_0 = x_0`` has mean 0, so every population overlap with ``h_0`` vanishes
(``C_01 = C_02 = 0``), the overlap matrix of ``h_0, h_1`` is diagonal and ``w_1`` is independent of
``w_2, w_3``. At ``t = 2`` both terms vanish: ``b_2 = 0`` (tying enters at ``O(n^-2)``; :mod:`theory.nonlinear`).
At ``t = 3`` (``w_3 = beta_0 w_1 + beta_1 w_2 + D zeta_3``, ``G beta = (C_02, C_12)``) only ``K_2`` and ``C_12``
contribute (``IF_{C_01}``, ``IF_{C_02}`` carry the factor ``x_0``; ``K_1``'s coefficients move nothing that its
influence reaches), with ``d a_2 / d C_12 = B / K_1`` and ``E relu(w_1) = sigma / sqrt(2 pi)``:

.. math::

    \Delta_3 = \sigma^2 \big(E[1\{w_3 > 0\}\,\mathrm{relu}(w_2)^2] - K_2 / 2\big)
               + 2 \frac{B^2}{K_1} \frac{\sigma}{\sqrt{2\pi}}\, E[\mathrm{relu}(w_3)\, 1\{w_2 > 0\}],

with ``Var w_2 = sigma^4 / 2``, ``Var w_3 = sigma^6 / 4``, ``B^2 = sigma^2 K_1`` and correlation
``rho = 1 / pi`` for every sigma (relu is homogeneous: free ``b_t`` does not depend on sigma). With ``b_2 = 0``:

.. math::

    b_3 = \frac{2}{\pi}\Big(1 + \frac1\pi + \arcsin\frac1\pi + \frac{\sqrt{\pi^2 - 1}}{\pi^2}\Big) = 1.237595.

Deeper, ``w_t`` correlates with several earlier pre-activations and the terms become trivariate: not derived here.

**Status**: derived: the expansion is the same second-order von Mises expansion as the tied-correction module's
(relu's kink is tested, not proved, there), with its last Gaussian integral in closed form. Verified against
that module's Monte Carlo of the same integral (driven ``t = 2`` at ``sigma`` = 0.5, 1, sqrt 2, 2.5, 6; free
``t = 3`` at sqrt 2 and 0.7; ``tests/test_relu_tying.py``), each step of the driven derivation against an
independent reference (the orthant moments and the reduced integral by quadrature, the step before Stein's lemma
by its own Monte Carlo), and against the recurrence's own finite-width coefficient (``validation.checks.nonlinear``,
``nonlinear.tied_correction``). Source: the toolkit's extension of Seleznova (2026), arXiv:2605.05113, to
nonlinear recurrences (``docs/results/nonlinear-recurrences.md``, section 2).
"""

from __future__ import annotations

import math

import mpmath
import sympy

from ._args import as_bool, as_int, as_method_dps, as_mp_real, as_real
from .nonlinear import MAX_SIGMA

__all__ = ["relu_tying_b", "METHODS", "MAX_T_FREE", "MAX_T_DRIVEN"]

METHODS = ("float", "mp", "exact")
MAX_T_FREE, MAX_T_DRIVEN = 3, 2      # the depths whose Gaussian integral is bivariate (module docstring)


def _driven_b2(s2, *, pi, sqrt, asin):
    """Driven ``b_2`` at ``s2 = sigma^2`` with the given ``pi``, ``sqrt``, ``asin`` (float, mpmath or sympy)."""
    v1 = s2 / 2 + 1
    v2 = s2 * v1 / 2 + 1
    rho = s2 / (2 * pi * sqrt(v2))
    return s2 / (pi * v2) * (v1 * (asin(rho) + rho * sqrt(1 - rho * rho)) + sqrt(v2) * (1 + rho))


def _free_b3(*, pi, sqrt, asin):
    """Free ``b_3`` (the same for every sigma)."""
    return 2 / pi * (1 + 1 / pi + asin(1 / pi) + sqrt(pi * pi - 1) / (pi * pi))


def _exact_sigma(sigma) -> sympy.Expr:
    """``sigma`` as an exact positive sympy number: a sympy expression as it is, a float by its exact binary value,
    an int or a Fraction as a Rational."""
    if isinstance(sigma, sympy.Basic):
        s = sympy.sympify(sigma)
        if not (s.is_real and s.is_positive) or s.free_symbols:
            raise ValueError(f"sigma must be a positive real number without free symbols, got {sigma!r}")
        if s > MAX_SIGMA:
            raise ValueError(f"sigma must be <= {MAX_SIGMA}, got {sigma!r}")
        return s
    as_real("sigma", sigma, minimum=0.0, maximum=MAX_SIGMA, open_min=True)
    num, den = (sigma.as_integer_ratio() if hasattr(sigma, "as_integer_ratio")
                else (int(sigma.numerator), int(sigma.denominator)))
    return sympy.Rational(int(num), int(den))


def relu_tying_b(t, sigma, *, driven: bool = False, method: str = "float", dps: int | None = None):
    r"""The coefficient ``b_t`` of ``1/n`` in ``E ||h_t||^2 / n = q_t (1 + b_t / n + O(n^-2))`` for a relu
    recurrence with tied Gaussian weights (all of it weight tying: the independent-step part is 0 for relu), at
    the depths where it has a closed form: free ``t <= 3``, driven ``t <= 2``.

    .. math::

        b_1 = 0,\quad b_2^{\text{free}} = 0,\quad
        b_2^{\text{driven}} = \frac{\sigma^2}{\pi v_2}\Big(v_1 \big(\arcsin\rho + \rho\sqrt{1 - \rho^2}\big)
        + \sqrt{v_2}\,(1 + \rho)\Big),\quad
        b_3^{\text{free}} = \frac{2}{\pi}\Big(1 + \frac1\pi + \arcsin\frac1\pi + \frac{\sqrt{\pi^2 - 1}}{\pi^2}\Big),

    ``v_1 = sigma^2 / 2 + 1``, ``v_2 = sigma^2 v_1 / 2 + 1``, ``rho = sigma^2 / (2 pi sqrt(v_2))``.

    Source: the toolkit's extension of Seleznova (2026), arXiv:2605.05113, to nonlinear recurrences
    (``docs/results/nonlinear-recurrences.md``, section 2; the module docstring has the derivation). Status:
    derived (the second-order expansion of the exact Gaussian-conditioning representation, its Gaussian integral in
    closed form); verified against the Monte Carlo of
    :func:`numerics.signal_propagation.tied_correction.tied_correction_profile`, which gives every depth.
    Convention: ``W`` iid ``N(0, sigma^2 / n)``, tied; free ``h_0 ~ N(0, I_n)``; driven ``h_{-1} = 0``, unit
    inputs ``x_0..x_t``. Domain: ``0 < sigma <= 100``.

    Parameters
    ----------
    t : int
        Depth: ``1 <= t <= 3`` (free) or ``1 <= t <= 2`` (driven).
    sigma : float, int, Fraction, or a positive sympy number (``method="exact"``)
        Weight scale, ``0 < sigma <= 100`` (relu's criticality is ``sqrt 2``).
    driven : bool, default False
        The driven recurrence instead of the free one.
    method : {"float", "mp", "exact"}, default "float"
        float64; an ``mpmath.mpf`` correct to ``dps`` digits (a local context); a sympy expression (exact: a
        float ``sigma`` is taken at its exact binary value, pass ``sympy.sqrt(2)`` for criticality).
    dps : int, optional
        Digits for "mp"; None: the ambient ``mpmath.mp.dps``.

    Returns
    -------
    float, mpmath.mpf or sympy.Expr

    Raises
    ------
    TypeError, ValueError
        ``t`` not an integer or beyond the closed forms (the message names the Monte Carlo that gives deeper
        depths), ``sigma`` not a real number or outside ``(0, 100]``, ``driven`` not a bool, an unknown
        ``method``, ``dps`` with a float method (named).

    Examples
    --------
    >>> round(relu_tying_b(2, 2 ** 0.5, driven=True), 6)
    0.590212
    >>> relu_tying_b(2, 2 ** 0.5)
    0.0
    >>> round(relu_tying_b(3, 2 ** 0.5), 6)
    1.237595
    >>> import sympy
    >>> b3 = relu_tying_b(3, sympy.sqrt(2), method="exact")      # the same for every sigma
    >>> b3.free_symbols, sympy.N(b3, 15)
    (set(), 1.23759490907404)
    >>> b = relu_tying_b(2, sympy.sqrt(2), driven=True, method="exact")
    >>> rho = 1 / (sympy.pi * sympy.sqrt(3))                  # criticality, the module docstring's form
    >>> sympy.simplify(b - 2 / (3 * sympy.pi) * (2 * sympy.asin(rho) + 2 * rho * sympy.sqrt(1 - rho ** 2)
    ...                                          + sympy.sqrt(3) + 1 / sympy.pi))
    0
    >>> import mpmath
    >>> with mpmath.workdps(40):
    ...     root2 = mpmath.sqrt(2)
    >>> mpmath.nstr(relu_tying_b(2, root2, driven=True, method="mp", dps=30), 25) == mpmath.nstr(sympy.N(b, 30), 25)
    True
    >>> relu_tying_b(3, 1.0, driven=True)        # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: t must be an integer <= 2 for the driven recurrence (the depths with a closed form), got 3; ...
    """
    method, dps = as_method_dps(method, dps, methods=METHODS)
    driven = as_bool("driven", driven)
    t = as_int("t", t, minimum=1)
    top = MAX_T_DRIVEN if driven else MAX_T_FREE
    if t > top:
        raise ValueError(f"t must be an integer <= {top} for the {'driven' if driven else 'free'} recurrence (the "
                         f"depths with a closed form), got {t}; numerics.signal_propagation.tied_correction."
                         f"tied_correction_profile gives every depth")
    nonzero = (t == 2 and driven) or (t == 3 and not driven)

    def closed(s, zero, pi, sqrt, asin):
        """The closed form at ``sigma = s`` in one arithmetic (float, mpmath or sympy)."""
        if not nonzero:
            return zero
        return _driven_b2(s * s, pi=pi, sqrt=sqrt, asin=asin) if driven else _free_b3(pi=pi, sqrt=sqrt, asin=asin)

    if method == "exact":
        # left unsimplified: sympy.simplify's cost is unbounded on arbitrary input, the expression is exact as built
        return closed(_exact_sigma(sigma), sympy.S.Zero, sympy.pi, sympy.sqrt, sympy.asin)
    sigma_f = as_real("sigma", sigma, minimum=0.0, maximum=MAX_SIGMA, open_min=True)
    if method == "float":
        return closed(sigma_f, 0.0, math.pi, math.sqrt, math.asin)
    with mpmath.workdps(dps + 10):
        value = closed(as_mp_real("sigma", sigma), mpmath.mpf(0), mpmath.pi, mpmath.sqrt, mpmath.asin)
    with mpmath.workdps(dps):
        return +value
