"""(private) The combinatorial rows of :mod:`theory.signal_energy`: Stirling numbers of the first kind, Hultman
numbers and the exact 1/n^2 series of ``Q`` and ``S`` (Seleznova 2026, Sec. 2)."""

from __future__ import annotations

import math  # noqa: F401 (doctests)
from functools import lru_cache

from theory._args import as_int

from ._checks import MAX_SERIES_K, MAX_SERIES_T


@lru_cache(maxsize=64)


def _stirling1_row_cached(m: int) -> tuple[int, ...]:
    row = [1]  # c(0, 0) = 1
    for i in range(m):  # multiply the polynomial by (x + i)
        new = [0] * (len(row) + 1)
        for j, c in enumerate(row):
            new[j] += i * c
            new[j + 1] += c
        row = new
    return tuple(row)


def stirling1_row(m: int) -> list[int]:
    """Unsigned Stirling numbers of the first kind ``c(m, j)``, j = 0..m: ``x^(m) = sum_j c(m,j) x^j``.

    >>> stirling1_row(4)
    [0, 6, 11, 6, 1]
    """
    m = as_int("m", m, minimum=0, maximum=MAX_SERIES_K + 2)
    return list(_stirling1_row_cached(m))


def hultman_row(k: int) -> list[int]:
    r"""Coefficients of ``E tr((G^k)^* G^k)`` in n: entry j is the coefficient of ``n**j``, j = 0..k+1.

    These are the Hultman numbers (OEIS A164652): ``H_{k,j} = c(k+2, j) / C(k+2, 2)`` when ``k - j`` is
    odd, else 0 (``c`` unsigned Stirling numbers of the first kind), i.e. the distribution of the cycle
    count of the commutator of a permutation of ``S_k`` with the long cycle. Row polynomial:
    ``sum_j H_{k,j} x^j = (x^(k+2) - x_(k+2)) / ((k+1)(k+2))``. Source: Seleznova (2026), Sec. 2.

    Parameters
    ----------
    k : int
        The power, ``0 <= k <= MAX_SERIES_K`` (1000).

    Returns
    -------
    list of int
        ``k + 2`` exact integers; their sum is ``k!`` (the value at ``n = 1``).

    Raises
    ------
    TypeError
        ``k`` is not an integer.
    ValueError
        ``k`` outside ``0..MAX_SERIES_K``.

    Examples
    --------
    >>> hultman_row(0), hultman_row(2), hultman_row(4)
    ([0, 1], [0, 1, 0, 1], [0, 8, 0, 15, 0, 1])
    >>> sum(hultman_row(6)) == math.factorial(6)    # n = 1
    True
    """
    k = as_int("k", k, minimum=0, maximum=MAX_SERIES_K)
    c = _stirling1_row_cached(k + 2)
    denom = (k + 1) * (k + 2) // 2
    out = []
    for j in range(k + 2):
        if (k - j) % 2 == 1:
            q, r = divmod(c[j], denom)
            assert r == 0
            out.append(q)
        else:
            out.append(0)
    return out


def Q_series(k: int) -> list[int]:
    r"""The exact expansion of the free energy in powers of 1/n^2: ``Q_{n,k} = sum_g q_g n^(-2g)``.

    Only the powers ``n^(k+1-2g)`` occur in ``E tr((G^k)^* G^k)`` (:func:`trace_moment`), so ``Q_{n,k}``
    is a polynomial in ``1/n^2`` with the integer coefficients ``q_g = H_{k, k+1-2g}`` (Hultman numbers,
    :func:`hultman_row`), ``g = 0..floor((k+1)/2)``; ``q_0 = 1`` and ``q_1 = C(k+2, 4)``, so
    ``Q = 1 + C(k+2,4)/n^2 + O(k^8/n^4)``. Source: Seleznova (2026), Theorem 2.1 and Sec. 2. Convention:
    complex Ginibre weights ``W = G/sqrt(n)`` (as :func:`Q`). The expansion is finite, hence exact for
    every ``n >= 1``.

    Parameters
    ----------
    k : int
        The depth (power of ``W``), ``0 <= k <= MAX_SERIES_K`` (1000).

    Returns
    -------
    list of int
        ``[q_0, ..., q_G]``, ``G = floor((k+1)/2)``; their sum is ``k!`` (the value at ``n = 1``).

    Raises
    ------
    TypeError
        ``k`` is not an integer.
    ValueError
        ``k`` outside ``0..MAX_SERIES_K``.

    Examples
    --------
    >>> Q_series(4)                      # k = 4: n^5 + 15 n^3 + 8 n, over n^5
    [1, 15, 8]
    >>> all(Q_series(k)[1] == math.comb(k + 2, 4) for k in range(2, 30))
    True
    >>> from fractions import Fraction
    >>> from theory.signal_energy import Q    # the series against the factorial closed form, exactly
    >>> sum(Fraction(q, 3 ** (2 * g)) for g, q in enumerate(Q_series(7))) == Q(3, 7, method="exact")
    True
    """
    k = as_int("k", k, minimum=0, maximum=MAX_SERIES_K)       # once: an __index__ object has no arithmetic
    row = hultman_row(k)
    return [row[k + 1 - 2 * g] for g in range((k + 1) // 2 + 1)]


def S_series(t: int) -> list[int]:
    r"""The exact expansion of the driven energy in powers of 1/n^2: ``S_{n,t} = sum_g s_g n^(-2g)``.

    ``S_{n,t} = sum_{k=0}^{t} Q_{n,k}`` (**t + 1 terms**: the toolkit counts the input x(0); with inputs
    from t = 1 use ``S_series(t - 1)``), so ``s_g`` is the sum of the coefficients ``q_g`` of
    :func:`Q_series` over ``k = 0..t``: ``s_0 = t + 1``, ``s_1 = C(t+3, 5)``, hence
    ``S = t + 1 + C(t+3,5)/n^2 + ...``. Source: Seleznova (2026), Theorem 2.1 and Sec. 2; complex
    Ginibre weights (as :func:`S`). The expansion is finite, hence exact for every ``n >= 1``.

    Parameters
    ----------
    t : int
        The last time step, ``0 <= t <= MAX_SERIES_T`` (300; the work is O(t^3)).

    Returns
    -------
    list of int
        ``[s_0, ..., s_G]``, ``G = floor((t+1)/2)``.

    Raises
    ------
    TypeError
        ``t`` is not an integer.
    ValueError
        ``t`` outside ``0..MAX_SERIES_T``.

    Examples
    --------
    >>> S_series(4)                      # [1] + [1] + [1, 1] + [1, 5] + [1, 15, 8]
    [5, 21, 8]
    >>> all(S_series(t)[1] == math.comb(t + 3, 5) for t in range(2, 30))
    True
    >>> from fractions import Fraction
    >>> from theory.signal_energy import S    # the series against the binary-splitting sum, exactly
    >>> sum(Fraction(s, 5 ** (2 * g)) for g, s in enumerate(S_series(9))) == S(5, 9, method="exact")
    True
    """
    t = as_int("t", t, minimum=0, maximum=MAX_SERIES_T)
    out: list[int] = []
    for k in range(t + 1):
        for g, c in enumerate(Q_series(k)):
            if g == len(out):
                out.append(0)
            out[g] += c
    return out
