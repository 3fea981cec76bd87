r"""Weight tying's first finite-width term of a relu recurrence at depth 2, in closed form.

The model of :mod:`theory.nonlinear` with ``phi = relu``: ``W`` iid ``N(0, sigma^2 / n)``, the same at every step;
free ``h_t = relu(W h_{t-1})``, ``h_0 ~ N(0, I_n)``; driven ``h_t = relu(W h_{t-1} + x_t)``, ``h_{-1} = 0`` (so
``h_0 = relu(x_0)``), inputs iid ``N(0, I_n)``. With ``K_t = ||h_t||^2 / n`` and the mean field ``q_t``,
``E K_t = q_t (1 + b_t / n + O(n^-2))``. The independent-step part of ``b_t`` vanishes for relu
(:func:`theory.nonlinear.first_correction_profile`), so ``b_t`` is all weight tying; ``b_1 = 0`` exactly
(``E K_1 = (sigma^2 E K_0 (+ 1)) / 2``). :mod:`numerics.signal_propagation.tied_correction` computes every
``b_t`` with its last Gaussian integral by Monte Carlo; at depth 2 that integral has a closed form, derived here.

**The derivation (driven).** Gaussian conditioning (the tied-correction module) writes the recurrence exactly in
iid coordinate variables ``x_0, zeta_1, x_1, zeta_2, x_2`` and three empirical overlaps, ``K_0``, ``K_1`` and
``C = h_0 . h_1 / n``:

.. math::

    g_1 = \sigma \sqrt{K_0}\,\zeta_1 + x_1,\quad h_1 = \mathrm{relu}(g_1),\qquad
    g_2 = A \zeta_1 + B \zeta_2 + x_2,\quad A = \frac{\sigma C}{\sqrt{K_0}},\ B = \sigma \sqrt{K_1 - C^2 / K_0},

``K_2 = E_{P_n} relu(g_2)^2`` (``A zeta_1`` is the part of ``W h_1`` along ``W h_0``; ``B zeta_2`` the fresh part).
So ``K_2 = E_{P_n} psi(z; theta_hat)`` with ``theta = (K_0, K_1, C)`` estimated from the same ``P_n``, and the
second-order (von Mises) expansion gives

.. math::

    b_2 q_2 = \Psi'(\theta) \cdot \lim n E[\hat\theta - \theta] + E_P[\partial_\theta \psi \cdot
    \mathrm{IF}_\theta] + \tfrac12 \Psi''(\theta)[\mathrm{Cov}\,\mathrm{IF}_\theta],

``Psi(theta) = E_P psi = (A^2 + B^2 + 1) / 2 = (sigma^2 K_1 + 1) / 2``, ``IF`` the influence functions.
``Psi`` is linear in ``K_1`` alone and ``K_1`` is unbiased, so only the middle term stays. ``K_0``'s influence
(a function of ``x_0``) is independent of ``psi``'s variables; ``IF_{K_1} = relu(g_1)^2 - K_1``,
``IF_C = m relu(g_1) - C`` (``m = E relu(x_0) = 1/sqrt(2 pi)``) up to such terms. Stein's lemma in ``zeta_1``,
``zeta_2`` with ``A dA + B dB = sigma^2 / 2`` (along ``K_1``, where ``dA = 0``) and ``= 0`` (along ``C``,
``dA = sigma / sqrt(K_0)``) leaves

.. math::

    b_2 q_2 = \sigma^2 \big(E[1\{g_2 > 0\}\,\mathrm{relu}(g_1)^2] - K_1 / 2\big)
              + 2 \sigma^2 m\, E[\mathrm{relu}(g_2)\, 1\{g_1 > 0\}],

two bivariate orthant moments at the population: ``K_0 = 1/2``, ``v_1 = Var g_1 = sigma^2 / 2 + 1 = 2 K_1``,
``v_2 = Var g_2 = sigma^2 v_1 / 2 + 1 = 2 q_2``, ``C = sqrt(v_1) / (2 pi)``, correlation
``rho = Cov(g_1, g_2) / sqrt(v_1 v_2) = sigma^2 / (2 pi sqrt(v_2))``. For standard ``(u, v)`` with correlation
``rho = cos(theta)``: ``E[v^2 1{u > 0, v > 0}] = (pi - theta + sin(theta) cos(theta)) / (2 pi)`` and
``E[u 1{u > 0, v > 0}] = (1 + rho) / (2 sqrt(2 pi))``. Hence

.. math::

    b_2 = \frac{\sigma^2}{\pi v_2}\Big(v_1 \big(\arcsin\rho + \rho\sqrt{1 - \rho^2}\big) + \sqrt{v_2}\,(1 + \rho)\Big),
    \qquad v_1 = \frac{\sigma^2}{2} + 1,\ v_2 = \frac{\sigma^2 v_1}{2} + 1,\ \rho = \frac{\sigma^2}{2\pi\sqrt{v_2}}.

At criticality (``sigma^2 = 2``): ``b_2 = (2 / (3 pi)) (2 arcsin(rho) + 2 rho sqrt(1 - rho^2) + sqrt 3 + 1/pi)``,
``rho = 1 / (pi sqrt 3)``: 0.590212. The term is the mean mode: ``h_0 = relu(x_0)`` has a nonzero mean, so
``C`` does not vanish at infinite width and ``A zeta_1`` correlates ``g_2`` with ``g_1``.
It grows like ``sigma^2 / pi`` near 0 and tends to ``(2 / pi)(1 + 1/pi + arcsin(1/pi) + sqrt(pi^2 - 1) / pi^2)``
as ``sigma -> inf``.

**Free**: ``h_0 ~ N(0, I_n)`` has mean 0, so ``C = 0`` at the population, the ``C`` term is ``E[x_0] ... = 0``
and the ``K_1`` term ``sigma^2 (E[1{g_2 > 0}] E[relu(g_1)^2] - K_1 / 2) = 0``: ``b_2 = 0`` (tying enters at
``O(n^-2)`` there; :mod:`theory.nonlinear`).

**Status**: derived: the expansion is the same second-order von Mises expansion as the tied-correction module's
(relu's kink is tested, not proved, there), with its last Gaussian integral in closed form. Verified against
that module's Monte Carlo of the same integral (``sigma`` = 0.5, 1, sqrt 2, 2.5, 6; ``tests/test_relu_tying.py``),
and against the recurrence's own finite-width coefficient (``validation.checks.nonlinear``,
``nonlinear.tied_correction``). Source: the toolkit's extension of Seleznova (2026), arXiv:2605.05113, to
nonlinear recurrences (``docs/results/nonlinear-recurrences.md``, section 2).
"""

from __future__ import annotations

import math

import mpmath
import sympy

from ._args import as_bool, as_method_dps, as_mp_real, as_real
from .nonlinear import MAX_SIGMA

__all__ = ["relu_tying_b2", "METHODS"]

METHODS = ("float", "mp", "exact")


def _b2(s2, *, pi, sqrt, asin):
    """The closed form at ``s2 = sigma^2`` with the given ``pi``, ``sqrt``, ``asin`` (float, mpmath or sympy)."""
    v1 = s2 / 2 + 1
    v2 = s2 * v1 / 2 + 1
    rho = s2 / (2 * pi * sqrt(v2))
    return s2 / (pi * v2) * (v1 * (asin(rho) + rho * sqrt(1 - rho * rho)) + sqrt(v2) * (1 + rho))


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


def relu_tying_b2(sigma, *, driven: bool = True, method: str = "float", dps: int | None = None):
    r"""The coefficient ``b_2`` of ``1/n`` in ``E ||h_2||^2 / n = q_2 (1 + b_2 / n + O(n^-2))`` for a relu
    recurrence with tied Gaussian weights: all of it weight tying (the independent-step part is 0 for relu).

    .. math::

        b_2 = \frac{\sigma^2}{\pi v_2}\Big(v_1 \big(\arcsin\rho + \rho\sqrt{1 - \rho^2}\big) + \sqrt{v_2}\,(1 + \rho)\Big)
        \ \text{(driven)},\qquad b_2 = 0\ \text{(free)},

    ``v_1 = sigma^2 / 2 + 1``, ``v_2 = sigma^2 v_1 / 2 + 1``, ``rho = sigma^2 / (2 pi sqrt(v_2))``.

    Source: the toolkit's extension of Seleznova (2026), arXiv:2605.05113, to nonlinear recurrences
    (``docs/results/nonlinear-recurrences.md``, section 2; the module docstring has the derivation). Status:
    derived (the second-order expansion of the exact Gaussian-conditioning representation, its Gaussian integral in
    closed form); verified against the Monte Carlo of
    :func:`numerics.signal_propagation.tied_correction.tied_correction_profile`. Convention: ``W`` iid
    ``N(0, sigma^2 / n)``, tied; driven ``h_{-1} = 0``, unit inputs ``x_0, x_1, x_2``; free ``h_0 ~ N(0, I_n)``.
    Domain: ``0 < sigma <= 100``.

    Parameters
    ----------
    sigma : float, int, Fraction, or a positive sympy number (``method="exact"``)
        Weight scale, ``0 < sigma <= 100`` (relu's criticality is ``sqrt 2``).
    driven : bool, default True
        The driven recurrence; False: the free one (``b_2 = 0``).
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
        ``sigma`` not a real number or outside ``(0, 100]``, ``driven`` not a bool, an unknown ``method``, ``dps``
        with a float method (named).

    Examples
    --------
    >>> round(relu_tying_b2(2 ** 0.5), 6)
    0.590212
    >>> relu_tying_b2(2 ** 0.5, driven=False)
    0.0
    >>> import sympy
    >>> b = relu_tying_b2(sympy.sqrt(2), method="exact")
    >>> rho = 1 / (sympy.pi * sympy.sqrt(3))                  # criticality, the module docstring's form
    >>> sympy.simplify(b - 2 / (3 * sympy.pi) * (2 * sympy.asin(rho) + 2 * rho * sympy.sqrt(1 - rho ** 2)
    ...                                          + sympy.sqrt(3) + 1 / sympy.pi))
    0
    >>> import mpmath
    >>> with mpmath.workdps(40):
    ...     root2 = mpmath.sqrt(2)
    >>> mpmath.nstr(relu_tying_b2(root2, method="mp", dps=30), 25) == mpmath.nstr(sympy.N(b, 30), 25)
    True
    >>> relu_tying_b2(0.0)
    Traceback (most recent call last):
        ...
    ValueError: sigma must be > 0.0, got 0.0
    """
    method, dps = as_method_dps(method, dps, methods=METHODS)
    driven = as_bool("driven", driven)
    if method == "exact":
        s = _exact_sigma(sigma)
        # left unsimplified: sympy.simplify's cost is unbounded on arbitrary input, the expression is exact as built
        return _b2(s * s, pi=sympy.pi, sqrt=sympy.sqrt, asin=sympy.asin) if driven else sympy.S.Zero
    sigma_f = as_real("sigma", sigma, minimum=0.0, maximum=MAX_SIGMA, open_min=True)
    if method == "float":
        return _b2(sigma_f * sigma_f, pi=math.pi, sqrt=math.sqrt, asin=math.asin) if driven else 0.0
    with mpmath.workdps(dps + 10):
        s = as_mp_real("sigma", sigma)
        value = _b2(s * s, pi=mpmath.pi, sqrt=mpmath.sqrt, asin=mpmath.asin) if driven else mpmath.mpf(0)
    with mpmath.workdps(dps):
        return +value
