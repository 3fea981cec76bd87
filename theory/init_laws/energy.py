r"""Energies of iid weights of any symmetric law at any depth: ``Q_law``, ``S_law`` with an error estimate.

Quantity: ``Q_{n,k} = E tr((W^k)^T W^k) / n = P_k(n) / n^(k+1)`` for ``W = G / sqrt(n)``, ``G`` with iid entries of
``law`` (:mod:`theory.init_laws.laws`, ``E g^2 = 1``), and ``S_{n,t} = sum_{k<=t} Q_{n,k}`` (``t + 1`` inputs, the
toolkit's convention); Seleznova, arXiv:2605.05113 (2026), Sec. 2, beyond the Gaussian law; the values are the
toolkit's own (``docs/results/init-laws.md``).

Where the values come from
--------------------------
* **Exact rows**: ``k <= law_rows_max_k()`` = 12 (:func:`theory.init_laws.rows.law_row`; for the Gaussian law the
  real rows, ``k <= 60``), exact at every width. A law whose row needs a moment it lacks (``student:nu`` from
  ``2k >= nu``: ``E ||W^k x||^2`` is infinite; ``moments:...`` beyond the moments given) is refused, naming k.
* **Large-n expansion** beyond, for laws with every moment:
  ``Q = QR(n, t) + sum_{m=2}^{M_V} n^-m sum_{mu != ()} kappa^mu c_{m,mu}(t)``, ``M_V = M_LAW - 2``: the Gaussian part
  of :func:`theory.real_expansion.QR` (its own error estimate) plus the non-Gaussian coefficients of
  :mod:`theory.init_laws.structure`. **Error estimate**: QR's, plus the two omitted terms ``m = M_V + 1, M_V + 2``
  times ``(1 + 2 rho) / (1 - rho)``, ``rho = (c^2 / M_LAW)^2`` (QR's rule with its own M), plus a **guard** against
  what no truncation in m sees: heavy entries. The shape "a run of r equal indices on both walks" puts one entry
  ``(u, u)`` 2r times and gives ``(m_{2r} - (2r-1)!!) (t - r + 1) / n^r`` beyond the Gaussian part; for the
  sub-Gaussian laws (gaussian, uniform, rademacher) this is negligible, but for sparse laws
  (``m_{2r} = (2r-1)!! / p^(r-1)``) it grows like ``(2r-1)!! / (n p)^r``: at ``n p`` of order 10 it overtakes the
  energy within a few dozen steps. The guard adds ``sum_{r = M_LAW+1}^{t}`` of these (in logs, float).
  It is an estimate, not a bound; it is checked against every exact row and against Monte Carlo
  (``tests/test_init_laws.py``, ``validation/checks/init_laws.py``).
* **Domain** of the expansion: ``t`` within :func:`theory.real_expansion.max_depth` (the Gaussian part) and at
  most ``MAX_T_LINEAR`` (1e6: the heavy-entry guard is O(t) work), ``rho <=
  1/2`` and a relative error estimate ``<= REL_ERROR_MAX`` (1e-2); beyond, a ValueError naming t and saying which
  part failed (for sparse laws: the heavy entries; for ``n p`` of order 10: nothing beyond the exact rows).
  :func:`law_max_depth` gives the largest served depth.

>>> Q_law(4, 2, "rademacher", method="exact").value          # n^3 + (m_4 - 1) n with m_4 = 1: Q = 1 exactly
Fraction(1, 1)
>>> r = Q_law(10**4, 50, "uniform")                            # c = 0.5: the expansion
>>> round(r.value, 7), r.error < 1e-6, r.source     # QR(10**4, 50) = 1.0030410 plus kappa_4 K(c) / n = -1.5e-5
(1.0030263, True, 'expansion')
>>> Q_law(100, 3, "student:6")
Traceback (most recent call last):
    ...
ValueError: k=3: E tr((G^k)^T G^k) is infinite for student:6 (the row needs m_6 = E g^6, infinite for nu <= 6); the rows are finite for k <= 2
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Literal, cast

import mpmath
import numpy as np

from .. import real_expansion as _rx
from .._args import as_choice, as_int, as_method_dps
from ..real_rows import real_Q, real_rows_max_k
from ..results import Energy
from . import structure as _st
from .laws import Law, as_law
from .rows import _check_depth, law_P, law_rows_max_k

__all__ = ["Q_law", "S_law", "law_max_depth", "law_energies_any", "REL_ERROR_MAX", "RHO_MAX",
           "exact_depth", "truncated_law_expansion"]

REL_ERROR_MAX = 1e-2      # the largest relative error estimate the expansion is served with (as QR)
_EPS = float(np.finfo(np.float64).eps)
RHO_MAX = 0.5


class _OutOfDomain(Exception):
    """Raised inside the expansion when (n, t) is outside its domain; the public functions turn it into a
    ValueError that also names the largest served depth (computing which must not recurse)."""


def exact_depth(law) -> int:
    """The largest depth with an exact row for ``law``: 60 for the Gaussian law (the real rows), else 12,
    lowered to ``law.max_depth`` where the energy is infinite (Student t) or the moments stop.

    >>> exact_depth("gaussian"), exact_depth("uniform"), exact_depth("student:6")
    (60, 12, 2)
    """
    law = as_law(law, name="law")
    top = real_rows_max_k() if law.kind == "gaussian" else law_rows_max_k()
    return top if law.max_depth is None else min(top, law.max_depth)


def _exact_Q(n: int, k: int, law: Law) -> Fraction:
    if law.kind == "gaussian":
        return real_Q(n, k)
    return law_P(n, k, law) / Fraction(n) ** (k + 1)


def _exact(n: int, t: int, law: Law, quantity: str) -> Fraction:
    if quantity == "Q":
        return _exact_Q(n, t, law)
    return sum((_exact_Q(n, k, law) for k in range(t + 1)), Fraction(0))


# --------------------------------------------------------------------------------------------------
# the expansion beyond the rows
# --------------------------------------------------------------------------------------------------
def _law_terms(n: int, t: int, law: Law, quantity: str, base: int) -> list[Fraction]:
    """The non-Gaussian terms ``n^-m sum_mu kappa^mu c_{m,mu}(t)`` (Q) or their partial sums over ``base < k <= t``
    (S), ``m = 2..M_LAW`` (exact)."""
    out = []
    for m in range(2, _st.M_LAW + 1):
        v = _st._law_coefficient(m, t, law) if quantity == "Q" else _st._law_partial_sum(m, t, base, law)
        out.append(v / Fraction(n) ** m)
    return out


def _guard(n: int, t: int, law: Law, quantity: str) -> float:
    """The heavy-entry estimate: ``sum_{r=M_LAW+1}^{t} |m_{2r} - (2r-1)!!| w_r / n^r`` with ``w_r = t - r + 1`` (Q) or
    ``sum_{k<=t} (k - r + 1)^+`` (S); float (logs, vectorised, the terms summed exactly rounded), inf on overflow.
    Zero for the Gaussian law."""
    if law.kind == "gaussian" or t <= _st.M_LAW:
        return 0.0
    return _guard_at(t, *_guard_terms(n, t, law, quantity), quantity)


_UNDERFLOW = -746.0         # exp(x) is exactly 0.0 in float64 for x below about -745.13


def _guard_terms(n: int, t: int, law: Law, quantity: str) -> tuple[np.ndarray, np.ndarray]:
    """``(r, y)``, ``y = log |m_{2r} - (2r-1)!!| - r log n``, for the ``r`` in ``M_LAW+1..t`` whose term can be nonzero
    at some depth ``<= t`` (the others underflow to 0.0 at every such depth). Computed once for the largest depth, the
    guards of all smaller depths (:func:`_guard_at`) are those :func:`_guard` gives at each: the terms left out are
    exactly zero there too, and the sum is exactly rounded, so which zeros it sees does not matter."""
    r = np.arange(_st.M_LAW + 1, t + 1)
    y = _log_excess(law, t)[_st.M_LAW:t] - r * math.log(n)
    w_top = math.log(t + 1.0) if quantity == "Q" else math.log((t + 1.0) * (t + 2.0) / 2.0)
    keep = y + w_top > _UNDERFLOW
    return r[keep], y[keep]


def _guard_at(t: int, r: np.ndarray, y: np.ndarray, quantity: str) -> float:
    """:func:`_guard` at depth ``t`` from :func:`_guard_terms` of any depth ``>= t``."""
    sel = r <= t
    r, y = r[sel], y[sel]
    w = (t - r + 1.0) if quantity == "Q" else (t - r + 1.0) * (t - r + 2.0) / 2.0
    x = y + np.log(w)
    if x.size == 0:
        return 0.0
    if float(np.max(x)) > 700:
        return math.inf
    return math.fsum(np.exp(x[np.isfinite(x)]).tolist())


_EXCESS_CACHE: dict = {}


def _log_excess(law: Law, t: int) -> np.ndarray:
    """``log |m_{2r} - (2r-1)!!|`` for ``r = 1..t'`` (``t' >= t``, cached per law; -inf where they are equal)."""
    have = _EXCESS_CACHE.get(law)
    if have is None or have.size < t:
        size = max(t, 2 * (have.size if have is not None else 0), 64)
        top = size if law.max_depth is None else min(size, law.max_depth)       # infinite moments beyond
        lm = np.array([law.log_moment(2 * r) for r in range(1, top + 1)] + [math.inf] * (size - top))
        rr = np.arange(1, size + 1, dtype=np.float64)
        from scipy.special import gammaln
        lg = gammaln(2 * rr + 1) - rr * math.log(2.0) - gammaln(rr + 1)             # log (2r-1)!!
        hi, lo = np.maximum(lm, lg), np.minimum(lm, lg)
        with np.errstate(divide="ignore"):
            have = hi + np.log1p(-np.exp(lo - hi))
        if len(_EXCESS_CACHE) > 64:
            _EXCESS_CACHE.clear()
        _EXCESS_CACHE[law] = have
    return have


def _rho(n: int, t: int, terms: list[Fraction]) -> float:
    """The tail ratio: the larger of ``(c^2 / M_LAW)^2`` (the growth in c, QR's rule) and the ratio of the two omitted
    terms (the growth of the law's cumulants: ``kappa_{2r+2} / (kappa_{2r} n)`` is of order ``1 / (n p)`` for sparse laws)."""
    a, b = abs(terms[-2]), abs(terms[-1])
    return max((t * t / n / _st.M_LAW) ** 2, float(b / a) if a else (math.inf if b else 0.0))


def _nongaussian(n: int, t: int, law: Law, quantity: str, base: int,
                 guard: float | None = None) -> tuple[Fraction, Fraction, float, float]:
    """The expansion's non-Gaussian part: ``(value, tail, guard, rho)``; value the terms ``m <= M_LAW - 2`` (for S also
    the exact non-Gaussian part of the rows ``k <= base``), tail the two omitted terms times ``(1 + 2 rho)/(1 - rho)``,
    guard the heavy-entry estimate (computed here unless given), rho the tail ratio (module docstring)."""
    terms = _law_terms(n, t, law, quantity, base)
    rho = _rho(n, t, terms)
    value = sum(terms[:-2], Fraction(0))
    if quantity == "S":
        value += _exact(n, base, law, "S") - _exact(n, base, as_law("gaussian"), "S")
    r = min(rho, RHO_MAX)
    tail = (abs(terms[-2]) + abs(terms[-1])) * Fraction((1 + 2 * r) / (1 - r))
    return value, tail, _guard(n, t, law, quantity) if guard is None else guard, rho


def truncated_law_expansion(n, t, law, *, quantity: str = "S", base: int | None = None) -> tuple[float, float]:
    """``(value, error)`` of the expansion's non-Gaussian part alone at any ``(n, t)``, float, no domain check: for
    the checks of its error estimate against the exact rows (the exact non-Gaussian part is
    ``Q_law - QR`` there). ``quantity="S"``: partial sums over ``base < k <= t`` plus the exact non-Gaussian part
    of the rows ``k <= base`` (default: the exact depth; ``5 <= base < t`` to test inside the rows).

    >>> v, e = truncated_law_expansion(400, 12, "uniform", quantity="Q")
    >>> exact = float(Q_law(400, 12, "uniform", method="exact").value - Q_law(400, 12, "gaussian", method="exact").value)
    >>> abs(v - exact) <= e
    True
    """
    law = as_law(law, name="law")
    n = as_int("n", n, minimum=1)
    t = as_int("t", t, minimum=0, maximum=_rx.MAX_T_LINEAR)       # the heavy-entry guard is O(t) work
    quantity = as_choice("quantity", quantity, ("Q", "S"))
    base = exact_depth(law) if base is None else as_int("base", base, minimum=_st.K0_MAX, maximum=max(t - 1, 0))
    value, tail, guard, _ = _nongaussian(n, t, law, quantity, base)
    error = float(tail) + guard + 4 * _EPS * abs(float(value))
    if not math.isfinite(error):
        raise OverflowError(f"t={t}: the error estimate at n={n} overflows float64 (the omitted terms grow past "
                            "1e308 here)")
    return float(value), error


def _expansion(n: int, t: int, law: Law, quantity: str, dps: int | None) -> Energy:
    """Value and error estimate beyond the exact rows (module docstring); _OutOfDomain outside the domain."""
    _expansion_allowed(n, t, law)
    try:
        f = _rx.QR if quantity == "Q" else _rx.SR
        g = f(n, t, method="mp", dps=dps) if dps else f(n, t)
    except ValueError as exc:
        raise _OutOfDomain(f"the Gaussian part is outside theory.real_expansion's domain ({exc})") from None
    if dps:
        value, tail, guard, rho = _nongaussian(n, t, law, quantity, exact_depth(law))
        _check_rho(n, t, rho)
        with mpmath.workdps(dps):
            v = g.value + mpmath.mpf(value.numerator) / value.denominator
            e = g.error + mpmath.mpf(tail.numerator) / tail.denominator + mpmath.mpf(guard)
            rel = float(e / abs(v)) if v else math.inf
        _check_rel(n, t, law, rel, guard, float(tail) + float(g.error))
        return Energy(v, e, "expansion")
    return _float_expansion(n, t, law, quantity, float(g.value), float(g.error))


def _float_expansion(n: int, t: int, law: Law, quantity: str, g_value: float, g_error: float,
                     guard: float | None = None) -> Energy:
    """The float expansion from the Gaussian part's value and error (QR / SR at ``(n, t)``); ``guard`` given by a
    caller that evaluates many depths (:func:`law_energies_any`); _OutOfDomain outside the domain."""
    value, tail, guard, rho = _nongaussian(n, t, law, quantity, exact_depth(law), guard)
    _check_rho(n, t, rho)
    v = g_value + float(value)
    e = g_error + float(tail) + guard + 4 * _EPS * abs(float(value))     # and value's own rounding
    _check_rel(n, t, law, e / abs(v) if v else math.inf, guard, float(tail) + g_error)
    return Energy(v, e, "expansion")


def _check_rho(n: int, t: int, rho: float) -> None:
    if rho > RHO_MAX:
        raise _OutOfDomain(f"the omitted terms do not decrease fast enough (tail ratio {rho:.3g} > {RHO_MAX}: "
                           f"c = t/sqrt(n) = {t / math.sqrt(n):.3g}, or the law's cumulants grow too fast for this n)")


def _check_rel(n: int, t: int, law: Law, rel: float, guard: float, truncation: float) -> None:
    if not rel <= REL_ERROR_MAX:
        why = (f"heavy entries: runs of equal indices (one entry used 2r times, m_2r up to "
               f"e^{_log_guard_peak(n, t, law):.0f}) are beyond the expansion" if guard > truncation
               else "the first omitted terms of the expansion are too large")
        raise _OutOfDomain(f"{why}: relative error estimate {rel:.3g} > {REL_ERROR_MAX:g}")


def _log_guard_peak(n: int, t: int, law: Law) -> float:
    return max((law.log_moment(2 * r) for r in range(_st.M_LAW + 1, t + 1)), default=0.0)


def _expansion_allowed(n: int, t: int, law: Law) -> None:
    if law.kind == "moments":
        raise ValueError(f"t={t}: {law.name} is given by moments up to m_{law.max_order} only; its exact rows reach "
                         f"t = {exact_depth(law)} and the large-n expansion needs every moment (the heavy-entry "
                         "estimate uses m_2r up to r = t)")


def _domain_error(n: int, t: int, law: Law, quantity: str, why: str, tname: str = "t") -> ValueError:
    md = law_max_depth(n, law, quantity=quantity)
    return ValueError(f"{tname}={t} is beyond the domain of {law.name} at n={n} (exact rows to {tname} = "
                      f"{exact_depth(law)}, served to {tname} = {md}): {why}")


# --------------------------------------------------------------------------------------------------
# the public energies
# --------------------------------------------------------------------------------------------------
def _energy(n, t, law, method, dps, quantity: str, tname: str) -> Energy:
    method, dps = as_method_dps(method, dps, methods=("exact", "float", "mp"))
    law = as_law(law, name="law")
    n = as_int("n", n, minimum=1)
    t = as_int(tname, t, minimum=0, maximum=_rx.MAX_T_LINEAR)      # the heavy-entry guard is O(t) work
    if law.max_depth is not None and t > law.max_depth:
        try:
            _check_depth(t, law)
        except ValueError as exc:
            raise ValueError(str(exc).replace(f"k={t}:", f"{tname}={t}:", 1)) from None
    if t <= exact_depth(law):
        x = _exact(n, t, law, quantity)
        if method == "exact":
            return Energy(x, Fraction(0), "exact rows")
        if method == "mp":
            with mpmath.workdps(dps):
                return Energy(mpmath.mpf(x.numerator) / x.denominator, mpmath.mpf(0), "exact rows")
        return Energy(float(x), 0.0, "exact rows")
    if method == "exact":
        raise ValueError(f"method='exact' serves the exact rows only ({tname} <= {exact_depth(law)} for {law.name}), "
                         f"got {tname}={t}: use method='float' or 'mp' for the expansion")
    if law.kind == "gaussian":
        g = (_rx.QR if quantity == "Q" else _rx.SR)(n, t, method=method, dps=dps)
        return Energy(g.value, g.error, g.source)
    try:
        return _expansion(n, t, law, quantity, dps)
    except _OutOfDomain as why:
        raise _domain_error(n, t, law, quantity, str(why), tname) from None


def Q_law(n, k, law, *, method: str = "float", dps: int | None = None) -> Energy:
    r"""The energy ``Q_{n,k} = E ||W^k x||^2 / E ||x||^2`` of iid weights of ``law``, with an error estimate.

    Source: the quantity of Seleznova (2026), arXiv:2605.05113, Sec. 2 (``W = G / sqrt(n)``), for iid entries of any
    symmetric law of variance 1; values the toolkit's (module docstring; ``docs/results/init-laws.md``). Exact rows
    for ``k <= exact_depth(law)`` (12; 60 for the Gaussian law), the large-n expansion beyond within its domain.
    Convention: ``Q_{n,0} = 1``.

    Parameters
    ----------
    n : int
        Width ``n >= 1``.
    k : int
        Depth ``k >= 0``.
    law : Law or str
        The entries' law: "gaussian", "uniform", "rademacher", "sparse:p", "student:nu", "moments:m4,m6,..." or a
        :class:`~theory.init_laws.laws.Law`.
    method : {"float", "exact", "mp"}
        float64; exact Fractions (the rows only); mpmath at ``dps`` digits.
    dps : int, optional
        Digits for "mp" (None: the ambient ``mpmath.mp.dps``).

    Returns
    -------
    theory.results.Energy
        ``value`` (a Fraction for "exact", float, or mpf), ``error`` (0 on the rows), ``source`` ("exact rows" or
        "expansion").

    Raises
    ------
    TypeError
        Non-integer ``n`` or ``k``; ``law`` not a law.
    ValueError
        ``n < 1``, ``k < 0``; a bad law or method; ``k`` where the energy is infinite (Student t, ``2k >= nu``) or
        beyond the domain (:func:`law_max_depth`); ``method="exact"`` beyond the rows.

    Examples
    --------
    >>> Q_law(16, 2, "uniform", method="exact").value          # 1 + (m_4 - 1)/n^2, m_4 = 9/5
    Fraction(321, 320)
    >>> Q_law(10, 12, "sparse:0.05").source
    'exact rows'
    """
    return _energy(n, k, law, method, dps, "Q", "k")


def S_law(n, t, law, *, method: str = "float", dps: int | None = None) -> Energy:
    r"""The driven energy ``S_{n,t} = sum_{k=0}^t Q_{n,k}`` (``t + 1`` inputs) of iid weights of ``law``.

    As :func:`Q_law`: exact rows for ``t <= exact_depth(law)``; beyond, the exact rows' sum plus the expansion's
    partial sums (O(1) in t: Faulhaber's sums of the quasi-polynomials) with the same error estimate. Source and
    convention: Seleznova (2026), Sec. 2 (``h(t) = W h(t-1) + x(t)``; inputs from ``t = 0``).

    Parameters
    ----------
    n : int
        Width ``n >= 1``.
    t : int
        Depth ``t >= 0``.
    law : Law or str
        The entries' law (:func:`Q_law`).
    method : {"float", "exact", "mp"}
        As :func:`Q_law`.
    dps : int, optional
        Digits for "mp".

    Returns
    -------
    theory.results.Energy
        ``value``, ``error``, ``source``.

    Raises
    ------
    TypeError, ValueError
        As :func:`Q_law` (naming ``t``).

    Examples
    --------
    >>> S_law(4, 2, "rademacher", method="exact").value        # 1 + 1 + 1
    Fraction(3, 1)
    """
    return _energy(n, t, law, method, dps, "S", "t")


def _served(n: int, t: int, law: Law, quantity: str) -> bool:
    try:
        _expansion(n, t, law, quantity, None)
    except (_OutOfDomain, ValueError):
        return False
    return True


def law_max_depth(n, law, *, quantity: str = "S") -> int:
    """The largest depth t at which :func:`Q_law` (``quantity="Q"``) or :func:`S_law` (``"S"``) serves width n with
    ``law``: the exact rows, or the expansion while its domain rule holds (bisection; the estimate grows with t).

    >>> law_max_depth(10**6, "uniform", quantity="Q") > 1000, law_max_depth(200, "sparse:0.05", quantity="Q")
    (True, 12)
    """
    law = as_law(law, name="law")
    n = as_int("n", n, minimum=1)
    quantity = cast(Literal["Q", "S"], as_choice("quantity", quantity, ("Q", "S")))
    lo = exact_depth(law)
    if law.kind == "gaussian":
        return max(lo, _rx.max_depth(n, quantity=quantity))
    if law.max_order is not None and law.kind == "moments":
        return lo
    if law.max_depth is not None and lo >= law.max_depth:
        return lo
    hi = min(_rx.max_depth(n, quantity=quantity), _rx.MAX_T_LINEAR)    # Q_law / S_law's own bound on t
    if law.max_depth is not None:
        hi = min(hi, law.max_depth)
    if hi <= lo or not _served(n, lo + 1, law, quantity):
        return lo
    lo += 1
    if _served(n, hi, law, quantity):
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if _served(n, mid, law, quantity) else (lo, mid)
    return lo


def _float_expansion_many(n: int, lo: int, t: int, law: Law) -> list[Energy]:
    """``[Q_law(n, k, law) for k in lo..t]`` (float; ``lo`` beyond the exact rows), equal to those calls value for
    value and raising what the first unserved depth raises, in a fraction of their time: the Gaussian part vectorised
    (QR over an array of depths gives QR's scalar values), the heavy-entry guards from one set of terms
    (:func:`_guard_terms`)."""
    if law.kind == "moments":
        return [Q_law(n, k, law) for k in range(lo, t + 1)]      # the expansion's own refusal at the first depth
    top = min(t, _rx.max_depth(n, quantity="Q"))                # QR's domain; beyond, Q_law names the depth
    out: list[Energy] = []
    if top >= lo:
        ks = np.arange(lo, top + 1)
        g = _rx.QR(n, ks)
        if law.kind == "gaussian":                              # Q_law is QR there
            out = [Energy(float(v), float(e), g.source) for v, e in zip(g.value, g.error)]
        else:
            terms = _guard_terms(n, top, law, "Q") if top > _st.M_LAW else None
            for i, k in enumerate(range(lo, top + 1)):
                guard = 0.0 if terms is None or k <= _st.M_LAW else _guard_at(k, *terms, "Q")
                try:
                    out.append(_float_expansion(n, k, law, "Q", float(g.value[i]), float(g.error[i]), guard))
                except _OutOfDomain:
                    Q_law(n, k, law)                             # raises the depth's domain error
                    raise AssertionError(f"Q_law({n}, {k}) served a depth the batch refused") from None
    if t > top:
        Q_law(n, top + 1, law)
        raise AssertionError(f"Q_law({n}, {top + 1}) served a depth beyond QR's domain")
    return out


_TABLES: dict = {}        # (n, law) -> (Q_{n,0..T}, relative error estimates): the horizon's searches re-read them


def _expansion_table(n: int, t: int, law: Law) -> tuple[np.ndarray, np.ndarray]:
    """``Q_{n,0..T}`` and their relative error estimates (0 on the rows) for some ``T >= t``, kept for the last
    two ``(n, law)``: each depth's value does not depend on how far the table goes, so a slice is exact."""
    have = _TABLES.get((n, law))
    if have is not None and have[0].size > t:
        return have
    K = exact_depth(law)
    rs = _float_expansion_many(n, K + 1, t, law)
    E = np.array([float(_exact_Q(n, k, law)) for k in range(K + 1)] + [float(r.value) for r in rs])
    rel = np.concatenate([np.zeros(K + 1), [float(r.error) / abs(float(r.value)) for r in rs]])
    if len(_TABLES) >= 2:
        _TABLES.pop(next(iter(_TABLES)))
    _TABLES[(n, law)] = (E, rel)
    return E, rel


def law_energies_any(n, t, law) -> tuple[np.ndarray, float, str]:
    """``(E, rel_error, source)``: ``E = [Q_{n,0}, ..., Q_{n,t}]`` (float64), the largest relative error estimate
    and a source text; for :mod:`theory.horizon`. Domain: :func:`Q_law`'s at every depth ``<= t``.

    >>> E, err, src = law_energies_any(100, 3, "rademacher")       # Q_{n,3} = 1 + 4/n^2 - 4/n^3 (P_3 by hand)
    >>> E.round(6).tolist(), err, src
    ([1.0, 1.0, 1.0, 1.000396], 0.0, 'exact rows of rademacher')
    """
    law = as_law(law, name="law")
    n = as_int("n", n, minimum=1)
    t = as_int("t", t, minimum=0, maximum=_rx.MAX_T_LINEAR)
    K = min(t, exact_depth(law))
    if t > K:
        if law.max_depth is not None and t > law.max_depth:
            _energy(n, t, law, "float", None, "Q", "t")          # the infinite-energy error
        table, rel_k = _expansion_table(n, t, law)
        rel = float(np.max(rel_k[K + 1:t + 1]))
        return (table[:t + 1].copy(), rel, f"exact rows of {law.name} k <= {K}, large-n expansion beyond "
                                       f"(relative error estimate <= {rel:.2g})")
    return np.array([float(_exact_Q(n, k, law)) for k in range(K + 1)]), 0.0, f"exact rows of {law.name}"
