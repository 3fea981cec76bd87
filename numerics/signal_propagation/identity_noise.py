r"""Identity plus real Gaussian noise, ``W = alpha I + beta X``, ``X = G / sqrt(n)``: exact energies by the loop equations.

``W^k = sum_j C(k, j) alpha^(k-j) beta^j X^j``, so

.. math:: Q^R(n, k) = \frac1n \sum_{j,l=0}^{k} \binom kj \binom kl \alpha^{2k-j-l} \beta^{j+l}\,
          E\,tr((X^T)^j X^l), \qquad E\,tr((X^T)^j X^l) = n^{-(j+l)/2} P_{j,l}(n),

with ``P_{j,l}(n) = E tr((G^T)^j G^l)`` a polynomial in n with integer coefficients, zero for odd ``j + l``. For
complex noise the mixed words (``j != l``) vanish and :func:`theory.structured_init.Q_structured` has a closed
form; for real noise they do not (``E tr(X^2) = 1``), and no closed form is known to us. Here they are computed
exactly by the Schwinger-Dyson recursion of :mod:`numerics.signal_propagation.loop_equations` (exponential
cost; one shared table of states for all words of a depth): every ``k <= 12`` in about 1 s, 14 in about 5 s,
``K_MAX_IDENTITY_REAL = 16`` in about 35 s (measured on the project's 2-core machine). The mixed words' top
coefficients, ``lim E tr((X^T)^j X^l) = min(j, l) + 1`` (``j != l``, ``j + l`` even), give the ``1/n`` term of
:func:`theory.structured_init.identity_noise_expansion` (verified here on every row, not proved).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

from theory._args import as_int
from theory.structured_init._inits import exact_real

from .loop_equations import word_moments

__all__ = ["mixed_words", "identity_noise_real_energies", "K_MAX_IDENTITY_REAL"]

K_MAX_IDENTITY_REAL = 16


@functools.lru_cache(maxsize=4)
def _table(k: int) -> dict:
    pairs = [(j, l) for j in range(k + 1) for l in range(k + 1) if (j + l) % 2 == 0]
    polys = word_moments(["1" * j + "0" * l for j, l in pairs])
    return {pair: tuple(p) for pair, p in zip(pairs, polys)}


def mixed_words(k: int) -> dict[tuple[int, int], tuple[int, ...]]:
    """``P_{j,l}(n) = E tr((G^T)^j G^l)`` for ``0 <= j, l <= k``, ``j + l`` even (G real Gaussian, unit entries):
    integer coefficients, entry i the coefficient of ``n**i``; by the loop equations (module docstring).

    Parameters
    ----------
    k : int
        ``0 <= k <= K_MAX_IDENTITY_REAL`` (16).

    Returns
    -------
    dict
        ``(j, l) -> coefficients``.

    Raises
    ------
    TypeError, ValueError
        ``k`` not an integer in range.

    Examples
    --------
    >>> w = mixed_words(2)
    >>> w[(0, 2)], w[(2, 2)], w[(1, 1)]     # E tr G^2 = n; E tr(G^T^2 G^2) = n^3 + 2n; E tr(G^T G) = n^2
    ((0, 1), (0, 2, 0, 1), (0, 0, 1))
    """
    k = as_int("k", k, minimum=0, maximum=K_MAX_IDENTITY_REAL)
    return dict(_table(k))


def identity_noise_real_energies(n: int, k: int, alpha, beta) -> list[Fraction]:
    r"""Exact ``Q^R(n, j)``, ``j = 0..k``, for ``W = alpha I + beta G / sqrt(n)`` with real Gaussian G.

    The sum of the module docstring with the exact polynomials of :func:`mixed_words` (Fractions; ``alpha``,
    ``beta`` taken as exact rationals, a float as the dyadic rational it stores). The driven energy is the
    running sum, ``S^R(n, t) = sum_{j<=t} Q^R(n, j)``. Source: the toolkit's own
    (``docs/results/structured-inits.md``); ``alpha = 0`` gives the real-Ginibre rows of
    :mod:`theory.real_rows`.

    Parameters
    ----------
    n : int
        Width, ``n >= 1``.
    k : int
        Largest depth, ``0 <= k <= K_MAX_IDENTITY_REAL`` (16; cost in the module docstring).
    alpha, beta : int, float or Fraction
        Real scales, ``|alpha|, |beta| <= 1e6``.

    Returns
    -------
    list of Fraction
        ``[Q^R(n, 0), ..., Q^R(n, k)]``.

    Raises
    ------
    TypeError, ValueError
        An argument of the wrong kind or out of range (named).

    Examples
    --------
    >>> identity_noise_real_energies(4, 2, 1, 1)     # 1; 2; 1 + 4 + Q^R_{4,2} + 2/n = 5 + 9/8 + 1/2
    [Fraction(1, 1), Fraction(2, 1), Fraction(53, 8)]
    """
    n = as_int("n", n, minimum=1)
    k = as_int("k", k, minimum=0, maximum=K_MAX_IDENTITY_REAL)
    a = exact_real("alpha", alpha, minimum=-1e6, maximum=1e6)
    b = exact_real("beta", beta, minimum=-1e6, maximum=1e6)
    table = _table(k)
    # E tr((X^T)^j X^l) = P_{j,l}(n) / n^((j+l)/2): one exact value per word
    word = {pair: Fraction(sum(c * n ** i for i, c in enumerate(p)), n ** ((pair[0] + pair[1]) // 2))
            for pair, p in table.items()}
    out = []
    for d in range(k + 1):
        total = sum((math.comb(d, j) * math.comb(d, l) * a ** (2 * d - j - l) * b ** (j + l) * word[(j, l)]
                     for j in range(d + 1) for l in range(d + 1) if (j + l) % 2 == 0), Fraction(0))
        out.append(total / n)
    return out
