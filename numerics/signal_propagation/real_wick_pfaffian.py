r"""Exact real-weight moments ``P_k(n) = E tr((G^k)^T G^k)`` in polynomial time: the Pfaffian route (numba).

``G`` is ``n x n`` with iid ``N(0, 1)`` entries (real weights of M. Seleznova, "How Long Does Infinite
Width Last? Signal Propagation in Long-Range Linear Recurrences", arXiv:2605.05113 (2026), Sec. 2);
``P_k`` is a polynomial of degree ``k + 1`` with ``P_k(0) = 0`` and non-negative integer coefficients that
sum to ``(2k-1)!!`` (they count Wick matchings: :mod:`numerics.signal_propagation.real_wick`). Entry j of a row is the
coefficient of ``n**j``. The math, with the status of each step, is in ``docs/results/real-weight-pfaffian.md``.

The route
---------
1. **Duality** (cited: the ``n <-> -2n`` duality of the beta = 1 and beta = 4 Gaussian ensembles; checked
   here by quaternion Monte Carlo and on every enumerated row): ``P_k(-2m) = (-1)^(k+1) E tr(Q^k (Q^*)^k)``
   for the ``m x m`` quaternion Ginibre matrix ``Q`` (a ``2m x 2m`` complex matrix of blocks
   ``[[a, b], [-conj(b), conj(a)]]``, ``a, b`` standard complex Gaussian).
2. **Quaternion Schur form**: ``sum_{k,l} z^k w^l E tr(Q^k (Q^*)^l) = E[(prod_I (1 + z w f_I) - 1) / (z w)]``
   with ``f_I = g(l_I) + g(conj l_I)``, ``g(l) = 1 / ((1 - z l)(1 - w conj l))``, over the eigenvalues
   ``l_I`` (one per conjugate pair).
3. **Pfaffian average** (de Bruijn): ``E prod_I phi(l_I) = Pf A(phi) / Pf A(1)``,
   ``A_ij(phi) = int (l - conj l)(l^i conj(l)^j - l^j conj(l)^i) phi(l) exp(-|l|^2) d^2l / pi``; with
   ``int l^a conj(l)^b exp(-|l|^2) d^2l / pi = a! delta_ab`` every entry is an exact power series.
4. **All sizes at once**: one skew elimination with 2 x 2 pivots of the ``2M x 2M`` matrix gives every
   leading Pfaffian ``m = 1..M`` (the product of the first m pivots), hence ``P_k(-2m)`` for every
   ``k <= K`` and ``m <= K + 1`` from a single run; ``P_k`` is then interpolated exactly (``P_k(0) = 0``,
   nodes ``n = -2, ..., -2(k+1)``).

Two variables in one: the entries are series in ``z, w``. Substitute ``z = x omega``, ``w = x / omega``
with ``omega`` an L-th root of unity mod p: the monomial ``z^P w^Q`` becomes ``x^(P+Q) omega^(P-Q)``, so a
univariate series in x truncated at degree ``2K + 2`` keeps every monomial with ``P + Q <= 2K + 2``, and
the average over the L powers of omega of the ``x^(2P)`` coefficient keeps ``P - Q = 0 (mod L)``. Every
entry ``A_ij`` has ``P - Q = i + j + 1 (mod 2)`` only, so every Pfaffian term has ``P - Q`` even; for an
odd ``L >= K + 2`` the average isolates ``P = Q`` exactly. The entries are symmetric in ``z <-> w``
(``omega <-> 1/omega``), so ``(L + 1) / 2`` powers suffice, and the parity halves both factors of every
series product (4x fewer word operations).

Exactness: everything is computed modulo word-size primes ``p = 1 (mod L)`` below ``2^27`` (so that a
sum of 512 products fits an int64) and combined by the Chinese remainder theorem. The coefficients
are non-negative and sum to ``(2k-1)!!``, so ``|P_k(-2m)| <= (2k-1)!! (2m)^(k+1)`` (proved); primes are
taken until their product exceeds twice that bound, which makes the symmetric residue the exact integer.
Interpolation is in exact rationals (``fractions.Fraction``); an integral result is one more check.

Cost: ``O(K^3)`` series products of length ``2K`` for each of ``K / 2`` roots and ``O(K)`` primes, i.e.
``O(K^7)`` word operations for all rows ``k <= K`` (``benchmarks/bench_wick.py --pfaffian``).

Backends of the elimination (``backend=``): ``"numba"`` (default, the kernel below, with the parity halving)
and ``"flint"`` (python-flint, extra ``certified``: every entry an ``nmod_poly``, products by FLINT's
``mul_low``, the pivot inverse by ``inverse_series_trunc``; the same elimination written independently, for
cross-checks; about 3x slower at K = 30). The entries are truncated series, not scalars, so a plain
``nmod_mat`` elimination does not apply: as matrices the series would need Toeplitz blocks, D times the work.

>>> real_wick_rows(4)[3]                 # n^4 + 10 n^2 + 4 n
[0, 4, 10, 0, 1]
>>> pfaffian_real_wick_polynomial(12) == [0, 78257198592, 121387827840, 79540893056, 28949224688,
...     6912740032, 1050472668, 126621152, 8473032, 677080, 13672, 1412, 0, 1]    # 13 CPU-min by enumeration
True
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np
from numba import njit
from sympy import factorint, isprime

from theory._args import as_choice, as_int

__all__ = ["real_wick_rows", "pfaffian_real_wick_polynomial", "pfaffian_values", "value_bound",
           "interpolate_row", "K_MAX_PFAFFIAN", "BACKENDS"]

BACKENDS = ("numba", "flint")    # the skew elimination: the numba kernel, or python-flint nmod_poly series

K_MAX_PFAFFIAN = 80        # all rows <= 60: ~2.5 CPU-min, <= 80: ~18 (the verification rows); cost ~ k^7
_PRIME_BITS = 27           # p < 2^27: products < 2^54, 512 of them fit an int64 before one reduction


# --------------------------------------------------------------------------------------------------
# the kernel: entries, skew elimination, leading Pfaffian ratios (one prime, one root of unity)
# --------------------------------------------------------------------------------------------------
@njit(cache=True)
def _entries(M, D, p, fact, cw):
    """``A(phi)`` as series in x (upper triangle, ``A[i, j, d]`` = coefficient of ``x^d`` mod p).

    ``phi = 1 + z w sum_{a,b} (z^a w^b + z^b w^a) l^a conj(l)^b``; the monomial ``l^a conj(l)^b`` gives
    ``A_ij = [i+1+a = j+b] (i+1+a)! - [i+a = j+1+b] (i+a)! - [j+1+a = i+b] (j+1+a)! + [j+a = i+1+b] (j+a)!``
    and ``z^(a+1) w^(b+1) + z^(b+1) w^(a+1) = x^(a+b+2) (omega^(a-b) + omega^(b-a))``, ``cw[d] = omega^d + omega^-d``.
    """
    n2 = 2 * M
    A = np.zeros((n2, n2, D + 1), dtype=np.int64)
    for i in range(n2):
        if i + 1 < n2:
            A[i, i + 1, 0] = 2 * fact[i + 1] % p                    # A(1): only the (i, i+1) entries
        for j in range(i + 1, n2):
            for a in range(D - 1):
                for term in range(4):
                    if term == 0:
                        b, f, sgn = i + 1 + a - j, i + 1 + a, 1
                    elif term == 1:
                        b, f, sgn = i + a - j - 1, i + a, -1
                    elif term == 2:
                        b, f, sgn = j + 1 + a - i, j + 1 + a, -1
                    else:
                        b, f, sgn = j + a - i - 1, j + a, 1
                    d = a + b + 2
                    if b < 0 or d > D:
                        continue
                    v = fact[f] * cw[abs(a - b)] % p
                    A[i, j, d] = (A[i, j, d] + (v if sgn > 0 else p - v)) % p
    return A


@njit(cache=True)
def _mul(a, pa, b, pb, out, po, p):
    """``out = a * b mod (x^(D+1), p)`` where a, b, out are non-zero only at degrees of parity pa, pb, po.

    Degrees below the first non-zero coefficient of a (its valuation) are skipped: only zeros are left out."""
    D = out.shape[0] - 1
    va = _valuation(a, pa)
    vb = _valuation(b, pb)
    out[:] = 0
    for n in range(po if va + vb <= po else va + vb, D + 1, 2):
        acc = 0
        for q in range(va, n - vb + 1, 2):
            acc += a[q] * b[n - q]
        out[n] = acc % p


@njit(cache=True)
def _valuation(a, pa):
    """The first degree of parity ``pa`` with a non-zero coefficient (``D + 1 + pa`` if none: every loop
    bounded by it is then empty); a has non-zero coefficients only at that parity."""
    D = a.shape[0] - 1
    for d in range(pa, D + 1, 2):
        if a[d] != 0:
            return d
    return D + 1 + pa


@njit(cache=True)
def _inverse(a, p, out):
    """``out = 1 / a mod (x^(D+1), p)`` for a series with invertible constant term (even degrees only)."""
    D = a.shape[0] - 1
    inv0 = _powmod(a[0], p - 2, p)
    out[:] = 0
    out[0] = inv0
    for n in range(2, D + 1, 2):
        acc = 0
        for q in range(2, n + 1, 2):
            acc += a[q] * out[n - q]
        out[n] = (p - acc % p) * inv0 % p


@njit(cache=True)
def _powmod(a, e, p):
    r, a = 1, a % p
    while e > 0:
        if e & 1:
            r = r * a % p
        a = a * a % p
        e >>= 1
    return r


@njit(cache=True)
def _update(Aij, po, al, va, Arj, vr, be, vb, Atj, vt, p):
    """``A_ij += alpha_i A_rj + beta_i A_tj`` (series mod ``x^(D+1)``, p), skipping the degrees below each
    factor's valuation (the entries far from the diagonal start at high degree: ``A_ij = O(x^(|i-j|-1))``), so
    only zero terms are left out. Output degrees have parity po; each factor's valuation has its parity."""
    D = Aij.shape[0] - 1
    lo = min(va + vr, vb + vt)
    for n in range(po if lo <= po else lo, D + 1, 2):
        acc = Aij[n]
        for q in range(va, n - vr + 1, 2):
            acc += al[q] * Arj[n - q]
        for q in range(vb, n - vt + 1, 2):
            acc += be[q] * Atj[n - q]
        Aij[n] = acc % p


@njit(cache=True)
def _leading_ratios(M, D, p, fact, cw):
    """``out[m-1, d]`` = coefficient of ``x^d`` of ``Pf A_m(phi) / Pf A_m(1)`` (leading 2m x 2m), m = 1..M.

    Skew Gaussian elimination with the 2 x 2 pivots (2s, 2s+1): ``A'_ij = A_ij + (A_ti A_rj - A_ri A_tj) / A_rt``
    keeps every leading Pfaffian; the pivot's constant term is ``A(1)``'s ``2 (2s+1)!`` (the updates have
    no constant term), invertible for p > 2M, and ``Pf A_m = prod_{s<m} A_{2s,2s+1}``.
    """
    A = _entries(M, D, p, fact, cw)
    n2 = 2 * M
    inv = np.empty(D + 1, dtype=np.int64)
    alpha = np.zeros((n2, D + 1), dtype=np.int64)
    beta = np.zeros((n2, D + 1), dtype=np.int64)
    tmp = np.zeros(D + 1, dtype=np.int64)
    ratio = np.zeros(D + 1, dtype=np.int64)
    ratio[0] = 1
    out = np.zeros((M, D + 1), dtype=np.int64)
    va = np.empty(n2, dtype=np.int64)            # valuations (first non-zero degree) of alpha_i, beta_i, A_ri, A_ti
    vb = np.empty(n2, dtype=np.int64)
    vr = np.empty(n2, dtype=np.int64)
    vt = np.empty(n2, dtype=np.int64)
    for s in range(M):
        r, t = 2 * s, 2 * s + 1
        _inverse(A[r, t], p, inv)                                  # inv[0] = 1 / A_rt(0)
        _mul(ratio, 0, A[r, t], 0, tmp, 0, p)                      # ratio *= A_rt / A_rt(0)
        for d in range(0, D + 1, 2):
            ratio[d] = tmp[d] * inv[0] % p
        out[s] = ratio
        for i in range(t + 1, n2):                                 # alpha_i = A_ti / A_rt, beta_i = -A_ri / A_rt
            _mul(A[t, i], (t + i + 1) % 2, inv, 0, alpha[i], (t + i + 1) % 2, p)
            _mul(A[r, i], (r + i + 1) % 2, inv, 0, tmp, (r + i + 1) % 2, p)
            for d in range(D + 1):
                beta[i, d] = (p - tmp[d]) % p
            va[i] = _valuation(alpha[i], (t + i + 1) % 2)
            vb[i] = _valuation(beta[i], (r + i + 1) % 2)
            vr[i] = _valuation(A[r, i], (r + i + 1) % 2)
            vt[i] = _valuation(A[t, i], (t + i + 1) % 2)
        for i in range(t + 1, n2):
            for j in range(i + 1, n2):
                _update(A[i, j], (i + j + 1) % 2, alpha[i], va[i], A[r, j], vr[j], beta[i], vb[i], A[t, j], vt[j], p)
    return out


def _leading_ratios_flint(M, D, p, fact, cw):
    """:func:`_leading_ratios` with python-flint: each entry an ``nmod_poly`` truncated at ``x^(D+1)``.

    The same skew elimination, ``A'_ij = A_ij + alpha_i A_rj + beta_i A_tj`` with ``alpha_i = A_ti / A_rt``,
    ``beta_i = -A_ri / A_rt``, written with FLINT's series products (``mul_low``) and series inverse
    (``inverse_series_trunc``) instead of the hand-written parity-halved loops: an independent check of them.
    """
    try:
        from flint import nmod_poly
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise ImportError("backend='flint' needs python-flint: pip install 'seqtheory[certified]'") from exc
    A0 = _entries(M, D, p, fact, cw)
    n2, L = 2 * M, D + 1
    A = [[nmod_poly(A0[i, j].tolist(), p) if j > i else None for j in range(n2)] for i in range(n2)]
    ratio = nmod_poly([1], p)
    out = np.zeros((M, L), dtype=np.int64)
    for s in range(M):
        r, t = 2 * s, 2 * s + 1
        inv = A[r][t].inverse_series_trunc(L)
        ratio = ratio.mul_low(A[r][t], L) * int(inv[0])           # ratio *= A_rt / A_rt(0)
        coeffs = [int(c) for c in ratio.coeffs()]
        out[s, :len(coeffs)] = coeffs
        for i in range(t + 1, n2):
            alpha = A[t][i].mul_low(inv, L)
            beta = -A[r][i].mul_low(inv, L)
            row_i, row_r, row_t = A[i], A[r], A[t]
            for j in range(i + 1, n2):
                row_i[j] = row_i[j] + alpha.mul_low(row_r[j], L) + beta.mul_low(row_t[j], L)
    return out


# --------------------------------------------------------------------------------------------------
# one prime: average over the roots of unity
# --------------------------------------------------------------------------------------------------
def _roots_order(K: int) -> int:
    """The smallest odd ``L >= K + 2``: isolates ``P = Q`` among even ``P - Q`` with ``|P - Q| <= 2K + 2``."""
    return K + 2 if K % 2 == 1 else K + 3


def _primes(K: int, count: int) -> list[tuple[int, int]]:
    """``count`` pairs ``(p, omega)``: primes ``p = 1 (mod L)`` below ``2^27`` (descending) and a primitive L-th root."""
    L = _roots_order(K)
    out = []
    c = ((1 << _PRIME_BITS) - 2) // L
    factors = list(factorint(L))
    while len(out) < count:
        p = 1 + c * L
        c -= 1
        if not isprime(p):
            continue
        for h in range(2, p):
            omega = pow(h, (p - 1) // L, p)
            if all(pow(omega, L // q, p) != 1 for q in factors):
                out.append((p, omega))
                break
    return out


def _moments_mod(K: int, p: int, omega: int, backend: str = "numba") -> np.ndarray:
    """``E tr(Q^k (Q^*)^k) mod p`` for the m x m quaternion Ginibre Q: array ``[m - 1, k]``, m = 1..K+1, k <= K."""
    M, D, L = K + 1, 2 * K + 2, _roots_order(K)
    fact = np.ones(2 * M + D + 2, dtype=np.int64)
    for i in range(1, len(fact)):
        fact[i] = fact[i - 1] * i % p
    total = np.zeros((M, D + 1), dtype=object)
    for j in range((L + 1) // 2):                         # omega^j and omega^-j give the same entries
        w = pow(omega, j, p)
        cw = np.array([(pow(w, d, p) + pow(w, -d, p)) % p for d in range(D + 1)], dtype=np.int64)
        kernel = _leading_ratios if backend == "numba" else _leading_ratios_flint
        ratios = kernel(M, D, p, fact, cw).astype(object)
        total += ratios if j == 0 else 2 * ratios
    inv_L = pow(L, -1, p)
    # the x^(2(k+1)) coefficient of the average is the z^(k+1) w^(k+1) one: E tr(Q^k Q*^k) (Schur form)
    return np.array([[int(total[m, 2 * (k + 1)]) * inv_L % p for k in range(K + 1)] for m in range(M)],
                    dtype=object)


# --------------------------------------------------------------------------------------------------
# CRT, interpolation, the rows
# --------------------------------------------------------------------------------------------------
def value_bound(k: int, m: int) -> int:
    """``(2k-1)!! (2m)^(k+1)``, a proved bound on ``|P_k(-2m)|``: the coefficients are non-negative
    (they count matchings) and sum to ``P_k(1) = (2k-1)!!``, and ``|(-2m)^j| <= (2m)^(k+1)`` for j <= k+1."""
    k = as_int("k", k, minimum=0, maximum=K_MAX_PFAFFIAN)
    m = as_int("m", m, minimum=1, maximum=K_MAX_PFAFFIAN + 1)
    return math.prod(range(2 * k - 1, 0, -2)) * (2 * m) ** (k + 1)


def pfaffian_values(k: int, *, backend: str = "numba") -> dict[int, list[int]]:
    """``{j: [P_j(-2), P_j(-4), ..., P_j(-2(j+1))]}`` for every depth j <= k, exact integers (one elimination per
    prime and root of unity; primes until their product exceeds twice :func:`value_bound` for every j, m).
    ``backend``: the elimination's, one of :data:`BACKENDS` (module docstring); both give the same integers."""
    K = as_int("k", k, minimum=0, maximum=K_MAX_PFAFFIAN)
    backend = as_choice("backend", backend, BACKENDS)
    need = 2 * max(value_bound(k, k + 1) for k in range(K + 1)) + 1
    count = 1
    while (1 << (_PRIME_BITS - 1)) ** count <= need:           # every prime is > 2^26
        count += 1
    primes = _primes(K, count)
    modulus = math.prod(p for p, _ in primes)
    assert modulus > need, "prime product below the CRT bound"
    residues = [_moments_mod(K, p, omega, backend) for p, omega in primes]
    out = {}
    for k in range(K + 1):
        vals = []
        for m in range(k + 1):
            x = _crt([int(r[m, k]) for r in residues], [p for p, _ in primes], modulus)
            x = x - modulus if x > modulus // 2 else x             # symmetric residue: |value| < modulus / 2
            vals.append((-1) ** (k + 1) * x)                       # the duality sign
        out[k] = vals
    return out


def _crt(residues: list[int], primes: list[int], modulus: int) -> int:
    x = 0
    for r, p in zip(residues, primes):
        q = modulus // p
        x += r * q * pow(q, -1, p)
    return x % modulus


def interpolate_row(k: int, values: list[int]) -> list[int]:
    """Integer coefficients of the degree-(k+1) polynomial with ``P(0) = 0`` and ``P(-2m) = values[m-1]``,
    m = 1..k+1 (Newton interpolation of ``P(n) / n`` in exact rationals); ValueError if not integral."""
    k = as_int("k", k, minimum=0, maximum=K_MAX_PFAFFIAN)
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__") or len(values) != k + 1:
        raise TypeError(f"values must be a sequence of k + 1 = {k + 1} integers, got {values!r:.80}")
    values = [as_int("values", v, minimum=None) for v in values]
    nodes = [Fraction(-2 * m) for m in range(1, k + 2)]
    coef = [Fraction(v) / x for v, x in zip(values, nodes)]        # divided differences of P(n) / n
    for lvl in range(1, k + 1):
        for i in range(k, lvl - 1, -1):
            coef[i] = (coef[i] - coef[i - 1]) / (nodes[i] - nodes[i - lvl])
    poly = [Fraction(0)] * (k + 1)                                 # Horner on the Newton form
    for i in range(k, -1, -1):
        shifted = [Fraction(0)] + poly[:-1]                        # poly * n
        poly = [s - nodes[i] * c for s, c in zip(shifted, poly)]
        poly[0] += coef[i]
    if any(c.denominator != 1 for c in poly):
        raise ValueError(f"the row k={k} interpolated from its values is not integral: a residue is wrong")
    return [0] + [int(c) for c in poly]


@functools.lru_cache(maxsize=4)
def _rows(K: int, backend: str = "numba") -> tuple[tuple[int, ...], ...]:
    values = pfaffian_values(K, backend=backend)
    return tuple(tuple(interpolate_row(k, values[k])) for k in range(K + 1))


def real_wick_rows(k: int, *, backend: str = "numba") -> dict[int, list[int]]:
    """Every row ``0..k`` of ``E tr((G^j)^T G^j)`` (entry i: coefficient of ``n**i``), by one run of the
    Pfaffian route (module docstring); the cost is that of the row ``k`` alone. ``backend``: the skew
    elimination's, ``"numba"`` or ``"flint"`` (python-flint series; the same rows, about 3x slower at 30).

    >>> real_wick_rows(6, backend="flint") == real_wick_rows(6)
    True
    """
    k = as_int("k", k, minimum=0, maximum=K_MAX_PFAFFIAN)
    return {j: list(row) for j, row in enumerate(_rows(k, as_choice("backend", backend, BACKENDS)))}


def pfaffian_real_wick_polynomial(k: int) -> list[int]:
    """The row k of :func:`real_wick_rows` (all rows ``<= k`` cost the same as this one)."""
    k = as_int("k", k, minimum=0, maximum=K_MAX_PFAFFIAN)
    return list(_rows(k)[k])
