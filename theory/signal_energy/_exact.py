"""(private) Exact arithmetic of :mod:`theory.signal_energy`: ``Fraction`` results from integer factorial
products and binary splitting (FLINT ``fmpz`` / ``fmpq`` when python-flint is installed)."""

from __future__ import annotations

import math
from fractions import Fraction

from theory._args import as_int

from ._checks import _check_exact_cost, _flint_or_none


def _prod_range(lo: int, hi: int) -> int:
    """Product of the integers in [lo, hi) by binary splitting (fast for long ranges of big numbers)."""
    if hi - lo <= 16:
        return math.prod(range(lo, hi))
    mid = (lo + hi) // 2
    return _prod_range(lo, mid) * _prod_range(mid, hi)


def trace_moment(n: int, k: int) -> int:
    r"""The expected squared Frobenius norm of the k-th power of an n x n complex Ginibre matrix, exactly.

    ``E tr((G^k)^* G^k)`` for ``G`` with iid proper complex Gaussian entries, ``E|G_ij|^2 = 1`` and
    ``E G_ij^2 = 0`` (unit variance: ``G`` itself, not ``W = G/sqrt(n)``; ``Q_{n,k}`` is this value over
    ``n^(k+1)``). With the rising factorial ``n^(m) = n(n+1)...(n+m-1)`` and the falling one
    ``n_(m) = n(n-1)...(n-m+1)``:

    .. math:: E\,tr((G^k)^* G^k) = \frac{n^{(k+2)} - n_{(k+2)}}{(k+1)(k+2)} ,

    an integer polynomial in n whose coefficients are the Hultman numbers (:func:`hultman_row`). Source:
    Seleznova (2026), Theorem 2.1. Valid for every integer ``n >= 1`` and ``k >= 0`` (for ``k + 2 > n`` the
    falling term vanishes). Computed in integers by binary splitting of the two factorial products.

    Parameters
    ----------
    n : int
        Matrix size, ``n >= 1``.
    k : int
        The power, ``k >= 0``; together with ``n`` at most ``MAX_EXACT_BITS`` bits of rising factorial,
        ``(k+2) log2(n+k+2) <= 2**22`` (about 2 s).

    Returns
    -------
    int
        The exact expectation.

    Raises
    ------
    TypeError
        ``n`` or ``k`` is not an integer (bools and floats are rejected).
    ValueError
        ``n < 1``, ``k < 0``, or an integer too large to compute in seconds (``MAX_EXACT_BITS``; use
        ``Q(n, k, method="mp")`` times ``n^(k+1)``).

    Examples
    --------
    The Hultman row polynomials ``n``, ``n^2``, ``n^3 + n``, ``n^4 + 5n^2`` (k = 0..3) at ``n = 3``:

    >>> [trace_moment(3, k) for k in range(4)]        # 3, 9, 27 + 3, 81 + 45
    [3, 9, 30, 126]
    >>> trace_moment(1, 5) == math.factorial(5)       # n = 1: E|g|^(2k) = k! for one complex Gaussian
    True
    >>> trace_moment(5, 1) == 5**2                    # E tr(G^* G) = sum_ij E|G_ij|^2 = n^2
    True
    """
    n = as_int("n", n, minimum=1)
    k = as_int("k", k, minimum=0)
    _check_exact_cost(n, k, "trace")
    m = k + 2
    rising = _prod_range(n, n + m)
    falling = _prod_range(n - m + 1, n + 1) if m <= n else 0
    num, rem = divmod(rising - falling, (k + 1) * (k + 2))
    assert rem == 0
    return num


def _fraction(flint, num, den) -> Fraction:
    """``num / den`` as a Fraction with a single gcd (FLINT's when available, then no second one)."""
    if flint is None:
        return Fraction(int(num), int(den))
    q = flint.fmpq(num, den)                 # normalised once, by FLINT's subquadratic gcd
    return _coprime_fraction(int(q.p), int(q.q))


def _coprime_fraction(p: int, q: int) -> Fraction:
    """A Fraction from a coprime pair (q > 0) without the gcd that ``Fraction(p, q)`` would redo."""
    from_coprime = getattr(Fraction, "_from_coprime_ints", None)     # Python >= 3.12
    if from_coprime is not None:
        return from_coprime(p, q)
    return Fraction(p, q, _normalize=False)  # type: ignore[call-overload]   # Python 3.10 / 3.11


def _Q_exact(n: int, k: int) -> Fraction:
    """Q as a Fraction: rising/falling factorials by binary splitting (FLINT ``fmpz.rising`` when
    python-flint is installed, :func:`_prod_range` otherwise), then one normalisation."""
    flint = _flint_or_none()
    if flint is None:
        return Fraction(trace_moment(n, k), n ** (k + 1))
    m = k + 2
    Z = flint.fmpz
    diff = Z(n).rising(m) - (Z(n - m + 1).rising(m) if m <= n else 0)
    return _fraction(flint, diff, (k + 1) * (k + 2) * Z(n) ** (k + 1))


def _S_exact(n: int, t: int) -> Fraction:
    r"""S as a Fraction by binary splitting of two hypergeometric sums, one normalisation at the end.

    ``S = S_R - S_F`` with ``S_R = sum_k n^(k+2) / ((k+1)(k+2) n^(k+1))`` (rising) and ``S_F`` the same with
    the falling factorial. Term ratios: ``r_R(j) = (n+j+1) j / ((j+2) n)``, ``r_F(j) = (n-j-1) j / ((j+2) n)``
    (``r_F`` vanishes from ``j = n - 1`` on, as the falling factorial does), first terms ``(n +- 1)/2``.
    Binary splitting gives ``sum_{k=1}^{t} prod_{j<=k} r(j) = T / Q`` in ``O(M(t log(nt)) log t)`` with
    integers only (FLINT ``fmpz`` when python-flint is installed, Python ints otherwise); then
    ``S = ((n+1)(Q + T_R) - (n-1)(Q + T_F)) / (2Q)`` and a single gcd.
    """
    flint = _flint_or_none()
    Z = int if flint is None else flint.fmpz
    _, _, q, t_r, t_f = _S_split(Z(n), 1, t + 1)
    num = (n + 1) * (q + t_r) - (n - 1) * (q + t_f)
    return _fraction(flint, num, 2 * q)


def _S_split(n, a: int, b: int):
    """(P_R, P_F, Q, T_R, T_F) over j in [a, b): T / Q = sum_{k=a}^{b-1} prod_{j=a}^{k} p(j) / q(j)."""
    if b - a <= 24:
        p_r, p_f, q, t_r, t_f = n * 0 + 1, n * 0 + 1, n * 0 + 1, n * 0, n * 0
        for j in range(b - 1, a - 1, -1):       # Horner from the top: T <- p(j) (Q_j + T), Q <- q(j) Q
            qj = (j + 2) * n
            t_r = (n + j + 1) * j * (q + t_r)
            t_f = (n - j - 1) * j * (q + t_f)
            q = q * qj
            p_r = p_r * ((n + j + 1) * j)
            p_f = p_f * ((n - j - 1) * j)
        return p_r, p_f, q, t_r, t_f
    mid = (a + b) // 2
    pr1, pf1, q1, tr1, tf1 = _S_split(n, a, mid)
    pr2, pf2, q2, tr2, tf2 = _S_split(n, mid, b)
    return pr1 * pr2, pf1 * pf2, q1 * q2, tr1 * q2 + pr1 * tr2, tf1 * q2 + pf1 * tf2
