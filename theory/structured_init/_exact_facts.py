r"""(private) Exact statistics of Haar matrices and the large-n expansion of identity plus noise.

Haar moments (what a Haar sampler must reproduce; :mod:`numerics.signal_propagation.haar` tests its draws
against them). A column of a Haar orthogonal (unitary) matrix is uniform on the real (complex) unit sphere, and
the law is invariant under multiplying a row by -1 (by a phase) and the whole matrix by a phase:

* real O(n), ``n >= 1``: ``E W_11 = 0``, ``E W_11^2 = 1/n``, ``E W_11^4 = 3/(n(n+2))`` (sphere moment),
  ``E (tr W)^2 = 1`` and ``E tr(W^2) = 1`` (the cross terms ``E W_ii W_jj``, ``E W_ij W_ji``, ``i != j``, change
  sign with row i);
* complex U(n), ``n >= 1``: ``E Re W_11 = 0``, ``E |W_11|^2 = 1/n``, ``E |W_11|^4 = 2/(n(n+1))``
  (``|W_11|^2 ~ Beta(1, n-1)``), ``E |tr W^j|^2 = min(j, n)`` (Diaconis and Shahshahani 1994, "On the
  eigenvalues of random matrices", J. Appl. Probab. 31A, for ``j <= n``; Rains 1997, "High powers of random
  elements of compact Lie groups", Probab. Theory Relat. Fields 107, for every j), here ``j = 1, 2, 3``.
"""

from __future__ import annotations

import math
from fractions import Fraction

from theory._args import as_choice, as_int

from ._inits import FIELDS, IdentityNoiseInit

__all__ = ["haar_moments", "identity_noise_expansion"]


def haar_moments(n: int, field: str = "complex") -> dict[str, Fraction]:
    """Exact expectations of simple statistics of a Haar orthogonal (``field="real"``) or unitary matrix.

    Sources and proofs: the module docstring (sphere moments, sign and phase invariance; Diaconis and
    Shahshahani 1994, Rains 1997 for ``E |tr W^j|^2 = min(j, n)``). Domain: ``n >= 1``.

    Parameters
    ----------
    n : int
        Matrix size, ``n >= 1``.
    field : {"real", "complex"}
        O(n) or U(n).

    Returns
    -------
    dict of str to Fraction
        Statistic name (as :func:`numerics.signal_propagation.haar.haar_statistics` names its columns) to its
        expectation.

    Raises
    ------
    TypeError, ValueError
        ``n`` not an integer >= 1, an unknown ``field``.

    Examples
    --------
    >>> haar_moments(4, "real")["W_11^4"], haar_moments(1)["|tr W^2|^2"]
    (Fraction(1, 8), Fraction(1, 1))
    """
    n = as_int("n", n, minimum=1)
    field = as_choice("field", field, FIELDS)
    if field == "real":
        return {"W_11": Fraction(0), "W_11^2": Fraction(1, n), "W_11^4": Fraction(3, n * (n + 2)),
                "(tr W)^2": Fraction(1), "tr W^2": Fraction(1)}
    return {"Re W_11": Fraction(0), "|W_11|^2": Fraction(1, n), "|W_11|^4": Fraction(2, n * (n + 1)),
            "|tr W|^2": Fraction(1), "|tr W^2|^2": Fraction(min(2, n)), "|tr W^3|^2": Fraction(min(3, n))}


def _homogeneous(weights: list[int], A: Fraction, B: Fraction) -> Fraction:
    """``sum_s w_s A^(k-s) B^s`` (``k = len(weights) - 1``) exactly over one common denominator: with
    ``A = pa/qa``, ``B = pb/qb``, each term is ``w_s x^(k-s) y^s / (qa qb)^k``, ``x = pa qb``, ``y = pb qa``
    (integers: no gcd until the end)."""
    k = len(weights) - 1
    x, y = A.numerator * B.denominator, B.numerator * A.denominator
    xp = [1] * (k + 1)
    for i in range(1, k + 1):
        xp[i] = xp[i - 1] * x
    num = 0
    for s in range(k, -1, -1):             # Horner in y: every step multiplies by a small integer only
        num = num * y + weights[s] * xp[k - s]
    return Fraction(num, (A.denominator * B.denominator) ** k)


def identity_noise_expansion(k: int, init: IdentityNoiseInit) -> tuple[Fraction, Fraction]:
    r"""``(Q_inf, c_1)`` with ``Q = Q_inf + c_1 / n + O(1/n^2)`` for identity plus noise ``W = alpha I + beta X``.

    ``Q_inf = sum_j C(k,j)^2 alpha^{2(k-j)} beta^{2j}`` (the infinite-width energy, both fields: ``Q_{n,j} -> 1``).
    Complex noise: ``c_1 = 0`` (*proved*: the exact form of :func:`theory.structured_init.Q_structured` has
    ``Q_{n,j} = 1 + O(1/n^2)``). Real noise: ``Q^R = (1/n) sum_{j,l} C(k,j) C(k,l) alpha^{2k-j-l} beta^{j+l}
    E tr((X^T)^j X^l)``; the diagonal words give ``1 + O(1/n^2)`` (the real rows' ``n^k`` coefficient is 0,
    ``theory.real_expansion``: ``a_1 = 0`` on every row) and the mixed words (``j != l``, ``j + l`` even) tend to

    .. math:: \lim_{n\to\infty} E\,tr((X^T)^j X^l) = \min(j, l) + 1,

    so ``c_1 = sum_{j != l, j + l even} C(k,j) C(k,l) alpha^{2k-j-l} beta^{j+l} (min(j, l) + 1)``. *Verified on
    exact rows* (the loop equations, :mod:`numerics.signal_propagation.identity_noise`: every mixed word with
    ``j, l <= 16`` and every energy ``k <= 12``); not proved. Real identity plus noise therefore leaves infinite
    width at order ``1/n``, complex at ``1/n^2``. Source: the toolkit's own (``docs/results/structured-inits.md``).

    Parameters
    ----------
    k : int
        Depth, ``0 <= k <= 500`` (O(k^2) integer operations, about 1 s at 500).
    init : IdentityNoiseInit
        ``alpha``, ``beta`` and the field.

    Returns
    -------
    tuple of Fraction
        ``(Q_inf, c_1)``, exact.

    Raises
    ------
    TypeError, ValueError
        ``k`` not an integer in range, ``init`` not an :class:`IdentityNoiseInit`.

    Examples
    --------
    >>> identity_noise_expansion(2, IdentityNoiseInit(1, 1, "real"))    # 1 + 4 + 1, and 2 (E tr X^2 + E tr X^T^2)
    (Fraction(6, 1), Fraction(2, 1))
    >>> identity_noise_expansion(2, IdentityNoiseInit(1, 1, "complex"))
    (Fraction(6, 1), Fraction(0, 1))
    """
    k = as_int("k", k, minimum=0, maximum=500)
    if not isinstance(init, IdentityNoiseInit):
        raise TypeError(f"init must be an IdentityNoiseInit, got {type(init).__name__} {init!r:.60}")
    A, B = init.alpha2, init.beta2
    q_inf = _homogeneous([math.comb(k, j) ** 2 for j in range(k + 1)], A, B)
    if init.field == "complex":
        return q_inf, Fraction(0)
    # alpha^{2k-j-l} beta^{j+l} = A^{k-s} B^s with s = (j + l)/2: integer weights per s, then O(k) Fractions
    comb = [math.comb(k, j) for j in range(k + 1)]
    weight = [0] * (k + 1)
    for j in range(k + 1):
        for l in range(j % 2, k + 1, 2):
            if j != l:
                weight[(j + l) // 2] += comb[j] * comb[l] * (min(j, l) + 1)
    c1 = _homogeneous(weight, A, B)
    return q_inf, c1
