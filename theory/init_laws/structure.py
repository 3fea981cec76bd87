r"""How each cumulant enters the large-n expansion of ``P_k(n) = E tr((G^k)^T G^k)`` for iid weights of any law.

Quantity and conventions as in :mod:`theory.init_laws.rows`: ``G`` has iid entries of a symmetric law with
``E g^2 = 1`` and cumulants ``kappa_4, kappa_6, ...``; ``Q_{n,k} = P_k(n) / n^(k+1)``. Write

.. math:: P_k(n) = \sum_{m \ge 0} \sum_{\mu} c_{m,\mu}(k)\, \kappa^\mu\, n^{k+1-m},
          \qquad \kappa^\mu = \prod_{s \in \mu} \kappa_{2s},

``mu`` a multiset of cumulant half-orders ``s >= 2`` (``mu = ()``: the Gaussian part ``a_m(k)`` of
:mod:`theory.real_expansion`). The toolkit's own results (``docs/results/init-laws.md``), each with its status:

1. **Cumulant form** (proved): ``P_k(n) = sum_sigma n^V(sigma) prod_B kappa_|B|`` over the set partitions of the
   ``2k`` matrix slots into even blocks (:mod:`numerics.signal_propagation.law_cumulants`); so ``c_{m,mu}(k)``
   is a nonnegative integer: the number of such partitions with block half-sizes ``mu`` (plus pairs) and
   ``V = k + 1 - m``.
2. **Closed forms at the first order of each cumulant** (verified on every row: the full rows k <= 12 and the
   top rows to k = 36; the configurations named explain them, a proof is open):
   ``c_{2,(2)}(k) = C(k, 2)``; ``c_{s,(s)}(k) = k - s + 1`` for ``s >= 3`` (a run of ``s`` equal indices on both
   walks: one entry ``(u, u)`` used ``2s`` times); ``c_{l+1,(2^l)}(k) = C(k - 2l + 2, 2)`` for ``l >= 2`` (a segment
   of ``l`` steps walked twice by both walks: ``l`` entries used 4 times).
3. **Quasi-polynomials** (verified on held-out rows, not proved): for every ``m <= M_LAW`` and ``mu``,
   ``c_{m,mu}(k) = A(k) + (-1)^k B(k)`` for ``k >= k0(m, mu)`` with rational ``A``, ``B``, fitted exactly on the
   first rows and equal to every other row (:func:`coefficient_record`; ``theory/data/law_expansion.json``,
   written by ``benchmarks/init_laws/fit_structure.py``).
4. **Orders at fixed c = k / sqrt(n)**: a term ``c_{m,mu}(k) n^-m`` with ``deg c_{m,mu} = d`` is of order
   ``c^d n^(d/2 - m)``. Observed on the fits (:func:`orders`): ``kappa_4`` enters at order ``1/n`` as
   ``kappa_4 n^-1 K(c)``, its coefficient at ``n^-m`` of degree ``2m - 2`` (m = 2..M_LAW), with
   ``K(c) = c^2/2 + c^4/12 + c^6/48 + ...`` (:func:`kappa4_series`), on every known coefficient equal to
   ``e^{c^2/2} - (2/c^2) sinh(c^2/2)`` (**conjectured** closed form, :func:`kappa4_curve`);
   ``kappa_4^l`` at order ``n^-l`` (a ``c^2`` term from a doubled segment up to ``c^(2l)`` from ``l`` independent
   pairs of rungs); ``kappa_6`` at ``n^(-5/2)`` (``c^3`` from three merged rungs, ``c`` from a run of equal
   indices); ``kappa_(2s)``, ``s >= 4``, at ``n^-(s - 1/2)`` (the run), below the ``n^-(3s/2 - 2)`` of ``s`` merged
   rungs. So the first non-Gaussian correction of ``Q`` at fixed c is ``kappa_4 K(c) / n``, and for sparse laws
   (``kappa_4 ~ 3/p``) it is ``O(c^2 / (n p))``.

>>> [str(x) for x in coefficient(2, (2,))[0]]          # c_{2,(2)}(k) = k(k-1)/2
['0', '-1/2', '1/2']
>>> coefficient_value(3, (3,), 7), coefficient_value(3, (2, 2), 7)     # k - 2, C(k - 2, 2)
(Fraction(5, 1), Fraction(10, 1))
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from functools import lru_cache
from importlib import resources

from .._args import as_int
from ..real_expansion import quasi_partial_sum, quasi_value
from .laws import Law
from .rows import cumulant_terms, law_rows_max_k

__all__ = ["EXPANSION_FILE", "TOP_FILE", "M_LAW", "K0_MAX", "kappa4_series", "kappa4_curve", "top_rows", "coefficient",
           "coefficient_record", "coefficient_value", "monomials", "orders"]

EXPANSION_FILE = resources.files("theory") / "data" / "law_expansion.json"     # Traversables
TOP_FILE = resources.files("theory") / "data" / "law_top_counts.json"


@lru_cache(maxsize=1)
def top_rows() -> tuple[tuple[int, int, tuple], ...]:
    """The committed top rows ``(k, M, terms)``: the shapes with ``V >= k + 1 - M`` for ``12 < k``
    (``theory/data/law_top_counts.json``), the held-out data of the fits."""
    data = json.loads(TOP_FILE.read_text(encoding="utf-8"))
    return tuple((int(r["k"]), int(r["top"]), tuple((int(V), tuple(p), int(c)) for V, p, c in r["terms"]))
                 for r in data["rows"])


@lru_cache(maxsize=1)
def _data() -> tuple[int, dict]:
    data = json.loads(EXPANSION_FILE.read_text(encoding="utf-8"))
    out = {}
    for rec in data["coefficients"]:
        out[(int(rec["m"]), tuple(rec["mu"]))] = {
            "A": tuple(Fraction(x) for x in rec["A"]), "B": tuple(Fraction(x) for x in rec["B"]),
            "k0": int(rec["k0"]), "fit_rows": tuple(rec["fit_rows"]), "verified_rows": tuple(rec["verified_rows"])}
    return int(data["M_FIT"]), out


def _m_law() -> int:
    return _data()[0]


M_LAW = _m_law()       # the largest m whose every c_{m,mu} is committed (theory/data/law_expansion.json)


def monomials(m) -> tuple[tuple[int, ...], ...]:
    """The cumulant monomials ``mu != ()`` that occur at ``n^(k+1-m)`` (``2 <= m <= M_LAW``), in a fixed order.

    >>> monomials(3)
    ((2,), (2, 2), (3,))
    """
    m = as_int("m", m, minimum=2, maximum=M_LAW)
    return tuple(sorted(mu for (mm, mu) in _data()[1] if mm == m))


def _key(m, mu) -> tuple[int, tuple[int, ...]]:
    m = as_int("m", m, minimum=2, maximum=M_LAW)
    if isinstance(mu, (str, bytes)) or not isinstance(mu, (tuple, list)):
        mu = (as_int("mu", mu, minimum=2),)          # one half-order, or a TypeError naming mu
    mu = tuple(sorted((as_int("mu[]", s, minimum=2) for s in mu), reverse=True))
    if (m, mu) not in _data()[1]:
        raise ValueError(f"mu={mu} does not occur at m={m} (the monomials there: {monomials(m)})")
    return m, mu


def coefficient(m, mu) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...], int]:
    """``(A, B, k0)``: ``c_{m,mu}(k) = A(k) + (-1)^k B(k)`` for ``k >= k0`` (monomial coefficients, Fractions)."""
    rec = _data()[1][_key(m, mu)]
    return rec["A"], rec["B"], rec["k0"]


def coefficient_record(m, mu) -> dict:
    """How ``c_{m,mu}`` was obtained: fitted on every row of ``fit_rows``, equal on every row of ``verified_rows``.

    >>> coefficient_record(2, (2,))["k0"]
    0
    """
    key = _key(m, mu)
    rec = _data()[1][key]
    lo, hi = rec["verified_rows"]
    return {"m": key[0], "mu": key[1], "k0": rec["k0"], "degrees": (len(rec["A"]) - 1, len(rec["B"]) - 1),
            "fit_rows": rec["fit_rows"], "verified_rows": rec["verified_rows"], "held_out": hi - lo + 1}


def coefficient_value(m, mu, k) -> Fraction:
    """``c_{m,mu}(k)`` exactly: the committed rows below ``k0``, the quasi-polynomial from ``k0`` on."""
    A, B, k0 = coefficient(m, mu)
    m, mu = _key(m, mu)
    k = as_int("k", k, minimum=0)
    if k < k0:
        return Fraction(cumulant_terms(k).get((k + 1 - m, mu), 0))
    return quasi_value(A, B, k)


def orders() -> list[dict]:
    r"""The order of each committed coefficient at fixed ``c = k / sqrt(n)``: ``c_{m,mu}(k) n^-m ~ lead * c^d *
    n^(d/2 - m)`` with ``d = deg c_{m,mu}`` and ``lead`` its leading coefficient; a list of dicts
    ``{"m", "mu", "degree", "lead", "order"}`` (``order = m - d/2``), sorted by mu then m.

    >>> [(r["m"], r["degree"], r["order"]) for r in orders() if r["mu"] == (3,)][:2]
    [(3, 1, Fraction(5, 2)), (4, 3, Fraction(5, 2))]
    """
    out = []
    for (m, mu), rec in _data()[1].items():
        A, B = rec["A"], rec["B"]
        d = max(len(A), len(B)) - 1
        lead = A[d] if d < len(A) else Fraction(0)
        out.append({"m": m, "mu": mu, "degree": d, "lead": lead, "order": m - Fraction(d, 2)})
    return sorted(out, key=lambda r: (r["mu"], r["m"]))


def kappa4_series() -> list[Fraction]:
    r"""The Taylor coefficients of ``K(c)``, the ``kappa_4`` term at order ``1/n`` at fixed ``c = k/sqrt(n)``
    (``Q = F_0(c) + F_1(c)/sqrt(n) + (F_2(c) + kappa_4 K(c))/n + ...``), read from the committed coefficients:
    entry ``2m - 2`` is the leading coefficient ``[k^(2m-2)] c_{m,(2)}(k)`` (degree ``2m - 2``), m = 2..M_LAW.

    >>> [str(x) for x in kappa4_series()][:5]            # c^2/2 + c^4/12 + ...
    ['0', '0', '1/2', '0', '1/12']
    """
    out = [Fraction(0)] * (2 * M_LAW - 1)
    for m in range(2, M_LAW + 1):
        A, _, _ = coefficient(m, (2,))
        out[2 * m - 2] = A[2 * m - 2] if len(A) > 2 * m - 2 else Fraction(0)
    return out


def kappa4_curve(c):
    r"""The conjectured closed form of ``K(c)``: ``e^{c^2/2} - (2/c^2) sinh(c^2/2)`` (``= e^{c^2/2} - F_0(c)``, F_0 the
    critical curve), i.e. ``sum_j (c^2/2)^j (1/j! - [j even]/(j+1)!)``: ``c^2/2 + c^4/12 + c^6/48 + c^8/480 + ...``.
    Status: **conjectured**, equal to :func:`kappa4_series` on every committed coefficient (``c^2``, ``c^4``, ``c^6``:
    m = 2, 3, 4). Float64, arrays allowed; stable at small c.

    >>> import math
    >>> round(float(kappa4_curve(1.0)), 12) == round(math.exp(0.5) - 2 * math.sinh(0.5), 12)
    True
    """
    import numpy as np

    from .._args import as_real_array, scalar_or_array
    from ..regimes import critical_curve
    c = as_real_array("c", c)
    if c.size and float(np.max(np.abs(c))) > 37.0:            # e^(c^2/2) overflows float64 beyond
        raise ValueError(f"c must satisfy |c| <= 37 (float64 range of e^(c^2/2)), got {float(np.max(np.abs(c))):g}")
    return scalar_or_array(np.exp(c * c / 2) - critical_curve(c))


def _kappa(law: Law, mu: tuple[int, ...]) -> Fraction:
    out = Fraction(1)
    for s in mu:
        out *= law.cumulant(2 * s)
    return out


def _law_coefficient(m, k, law: Law) -> Fraction:
    """The non-Gaussian part of ``a_m(k)`` for ``law``: ``sum_{mu != ()} kappa^mu c_{m,mu}(k)`` (exact). From
    ``k0`` on, one quasi-polynomial per ``(m, law)`` in integers (:func:`_law_quasi`): the same value, about 100x
    faster than a sum of Fraction Horners, which matters where the horizon evaluates tens of thousands of depths."""
    A, B, den, k0 = _law_quasi(m, law)
    if k < k0:
        return sum((_kappa(law, mu) * coefficient_value(m, mu, k) for mu in monomials(m)), Fraction(0))
    a = b = 0
    for x in reversed(A):
        a = a * k + x
    for x in reversed(B):
        b = b * k + x
    return Fraction(a - b if k % 2 else a + b, den)


@lru_cache(maxsize=256)
def _law_quasi(m: int, law: Law) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """``(A, B, den, k0)``: ``sum_{mu != ()} kappa^mu c_{m,mu}(k) = (A(k) + (-1)^k B(k)) / den`` for ``k >= k0``, with
    integer monomial coefficients (the committed quasi-polynomials combined with the law's cumulants)."""
    recs = [(_kappa(law, mu), coefficient(m, mu)) for mu in monomials(m)]
    size_a = max(len(A) for _, (A, _, _) in recs)
    size_b = max(len(B) for _, (_, B, _) in recs)
    A = [sum((kap * A[i] for kap, (A, _, _) in recs if i < len(A)), Fraction(0)) for i in range(size_a)]
    B = [sum((kap * B[i] for kap, (_, B, _) in recs if i < len(B)), Fraction(0)) for i in range(size_b)]
    den = math.lcm(*(x.denominator for x in A + B))
    return (tuple(int(x * den) for x in A), tuple(int(x * den) for x in B), den,
            max(k0 for _, (_, _, k0) in recs))


@lru_cache(maxsize=None)
def _partial(m: int, mu: tuple[int, ...]):
    A, B, _ = coefficient(m, mu)
    return quasi_partial_sum(A, B)


def _law_partial_sum(m, t, base, law: Law) -> Fraction:
    """``sum_{base < k <= t}`` of :func:`_law_coefficient` ``(m, k)``, exactly, in O(1) (partial sums of the
    quasi-polynomials); ``base >= law_rows_max_k() >= k0`` so every term is on its quasi-polynomial."""
    out = Fraction(0)
    for mu in monomials(m):
        C, D = _partial(m, mu)
        out += _kappa(law, mu) * (quasi_value(C, D, t) - quasi_value(C, D, base))
    return out


K0_MAX = max((rec["k0"] for rec in _data()[1].values()), default=0)   # every coefficient is on its quasi-polynomial
assert K0_MAX <= law_rows_max_k()                                       # from here on: _law_partial_sum's premise
