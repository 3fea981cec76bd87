r"""(private) Energies of the ring (LRU) initialisation: moments of ``u = |lambda|^2``, uniform on ``[a, b]``.

Every energy of a diagonal recurrence is an average over the coordinates of a function ``f(u_j)`` of the squared
modulus (:mod:`theory.structured_init`), and for the four functions used here both ``E f`` and ``E f^2`` are
integer combinations of the moments

.. math:: \mu_m = E u^m = \frac{b^{m+1} - a^{m+1}}{(m+1)(b-a)} \quad (a < b), \qquad \mu_m = a^m \quad (a = b).

A *form* is such a combination: a constant, a few single moments and (for the driven recurrence without
normalisation) a dense sum ``sum_{m<=M} w(m) mu_m``. Exact: Fractions. mp: the moments in a cancellation-free
form (``mu_m = b^m expm1((m+1) l) / ((m+1) expm1(l))``, ``l = log1p(-(b-a)/b)``, or the positive recursion
``e_{m+1} = b e_m + a^m`` of ``e_m = (b^m - a^m)/(b - a)`` for dense sums), each result at a working precision
raised until the cancellation between the form's terms leaves ``dps`` digits (the lost digits are measured from
the result and its terms' magnitude: the value is never zero where this is used, see :func:`mp_value`).
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Callable

import mpmath

__all__: list[str] = []

DIRECT_MAX_T = 2000        # the driven mean: a direct O(t) sum up to here, the closed form (Lerch) beyond
_MAX_PREC_BITS = 400_000   # a cancellation deeper than ~120,000 digits: refused (the inputs would be that close)


@dataclasses.dataclass(frozen=True)
class Form:
    """``const + sum_i c_i mu_{m_i} + sum_{m=0}^{dense_M} dense_w(m) mu_m`` (no dense part when dense_M is None)."""

    const: int = 0
    sparse: tuple = ()
    dense_M: int | None = None
    dense_w: Callable[[int], int] | None = None

    @property
    def top(self) -> int:
        """The largest moment order used."""
        return max([m for _, m in self.sparse] + [self.dense_M or 0])


def forms(quantity: str, depth: int, gamma_norm: bool) -> tuple[Form, Form]:
    """The forms of ``E f`` and ``E f^2`` for the per-coordinate energy ``f(u)`` of ``quantity`` at ``depth``.

    Q: ``f = u^k`` (normalised: ``(1 - u) u^k``); S: ``f = sum_{k<=t} u^k`` (normalised: the telescoped
    ``sum_{k<=t} (1 - u) u^k = 1 - u^{t+1}``).
    """
    k = depth
    if quantity == "Q" and not gamma_norm:
        return Form(sparse=((1, k),)), Form(sparse=((1, 2 * k),))
    if quantity == "Q":
        return (Form(sparse=((1, k), (-1, k + 1))),
                Form(sparse=((1, 2 * k), (-2, 2 * k + 1), (1, 2 * k + 2))))
    if not gamma_norm:
        t = depth
        return (Form(dense_M=t, dense_w=lambda m: 1),
                Form(dense_M=2 * t, dense_w=lambda m: min(m, 2 * t - m) + 1))
    T = depth + 1
    return Form(const=1, sparse=((-1, T),)), Form(const=1, sparse=((-2, T), (1, 2 * T)))


def constant_f(quantity: str, depth: int, gamma_norm: bool) -> bool:
    """Whether ``f`` is the constant 1 (Q at k = 0 and S at t = 0 without normalisation): zero variance."""
    return not gamma_norm and depth == 0


# ---------------------------------------------------------------------------------------------------------
# exact
# ---------------------------------------------------------------------------------------------------------
def mu_exact(a: Fraction, b: Fraction, m: int) -> Fraction:
    """``E u^m`` for u uniform on ``[a, b]`` (a point mass when a = b), exactly."""
    if a == b:
        return a ** m
    return (b ** (m + 1) - a ** (m + 1)) / ((m + 1) * (b - a))


def form_exact(form: Form, a: Fraction, b: Fraction) -> Fraction:
    out = Fraction(form.const) + sum((c * mu_exact(a, b, m) for c, m in form.sparse), Fraction(0))
    if form.dense_M is None:
        return out
    w = _dense_weights(form)
    if a == b:
        return out + sum((w(m) * a ** m for m in range(form.dense_M + 1)), Fraction(0))
    # sum_m w(m) (b^(m+1) - a^(m+1)) / (m+1), over one common denominator at the end
    acc, bp, ap = Fraction(0), b, a
    for m in range(form.dense_M + 1):
        acc += Fraction(w(m), m + 1) * (bp - ap)
        bp, ap = bp * b, ap * a
    return out + acc / (b - a)


def exact_bits(form: Form, a: Fraction, b: Fraction) -> int:
    """Bits of the largest power in the form, times the dense terms: the exact path's cost (up front)."""
    size = max(x.numerator.bit_length() + x.denominator.bit_length() for x in (a, b, Fraction(1)))
    terms = 1 if form.dense_M is None else form.dense_M + 1
    return (form.top + 2) * size * terms


# ---------------------------------------------------------------------------------------------------------
# mp
# ---------------------------------------------------------------------------------------------------------
class _Moments:
    """The moments at the current working precision, from the exact ends (``a < b``)."""

    def __init__(self, a: Fraction, b: Fraction):
        self.a = mpmath.mpf(a.numerator) / a.denominator
        self.b = mpmath.mpf(b.numerator) / b.denominator
        w = b - a                                                   # exact: no cancellation in b - a
        self.ell = None if a == 0 else mpmath.log1p(-(mpmath.mpf(w.numerator) / w.denominator) / self.b)

    def mu(self, m: int):
        if self.ell is None:                                        # a = 0: mu_m = b^m / (m + 1)
            return self.b ** m / (m + 1)
        return self.b ** m * mpmath.expm1((m + 1) * self.ell) / ((m + 1) * mpmath.expm1(self.ell))

    def dense(self, M: int, w: Callable[[int], int]):
        """``(sum_{m<=M} w(m) mu_m, sum |w(m)| mu_m)`` by the positive recursion of ``e_m``."""
        acc = scale = mpmath.mpf(0)
        e, apow = mpmath.mpf(1), mpmath.mpf(1)
        for m in range(M + 1):
            term = e / (m + 1)
            c = w(m)
            acc += c * term
            scale += abs(c) * term
            apow *= self.a
            e = self.b * e + apow
        return acc, scale


def form_mp(form: Form, a: Fraction, b: Fraction):
    """``(value, scale)`` of the form at the working precision: ``scale`` bounds the terms' magnitude, so the
    absolute rounding error is a small multiple of ``scale * 2^-prec`` times the amplification of
    :func:`amplification_bits`."""
    if a == b:
        x = mpmath.mpf(a.numerator) / a.denominator
        return _point_mp(form, x)
    mom = _Moments(a, b)
    value = scale = mpmath.mpf(form.const)
    scale = abs(scale)
    for c, m in form.sparse:
        v = mom.mu(m)
        value += c * v
        scale += abs(c) * v
    if form.dense_M is not None:
        if form.dense_M > DIRECT_MAX_T and _unit_weights(form):
            d, s = _driven_mean_closed(mom, a, b, form.dense_M + 1)
        else:
            d, s = mom.dense(form.dense_M, _dense_weights(form))
        value += d
        scale += s
    return value, scale


def _point_mp(form: Form, x):
    """A form at a point mass ``u = x`` (a = b): ``mu_m = x^m``; the dense sums of geometric series in closed
    form (``(1 - x^T) / (1 - x)`` by expm1, T at x = 1)."""
    value = mpmath.mpf(form.const)
    scale = abs(value)
    for c, m in form.sparse:
        value += c * x ** m
        scale += abs(c) * x ** m
    if form.dense_M is not None:
        w = _dense_weights(form)
        d = _geometric(x, form.dense_M + 1) if _unit_weights(form) else sum(
            (w(m) * x ** m for m in range(form.dense_M + 1)), mpmath.mpf(0))
        value += d
        scale += abs(d)
    return value, scale


def _unit_weights(form: Form) -> bool:
    """Whether the dense part is the plain sum ``sum_{m<=M} mu_m`` (the driven mean without normalisation)."""
    w, top = form.dense_w, form.dense_M
    return w is not None and top is not None and all(w(m) == 1 for m in (0, 1, top))


def _dense_weights(form: Form) -> Callable[[int], int]:
    """The weights of a form's dense part (a form with ``dense_M`` set has them)."""
    if form.dense_w is None:
        raise ValueError("a Form with dense_M needs dense_w")
    return form.dense_w


def _geometric(x, T: int):
    """``sum_{m<T} x^m`` without cancellation."""
    if x == 1:
        return mpmath.mpf(T)
    if x == 0:
        return mpmath.mpf(1)
    lx = mpmath.log(x)
    return mpmath.expm1(T * lx) / mpmath.expm1(lx)


def _partial_log(x, T: int):
    """``(L_T(x), magnitude of its pieces)``, ``L_T(x) = sum_{m=1}^{T} x^m / m`` for ``0 <= x <= 1``: the
    harmonic number at 1, else ``-log(1 - x)`` less the tail ``x^{T+1} Phi(x, 1, T+1)`` (Lerch)."""
    if x == 0:
        return mpmath.mpf(0), mpmath.mpf(0)
    if x == 1:
        h = mpmath.harmonic(T)
        return h, h
    head, tail = -mpmath.log1p(-x), x ** (T + 1) * mpmath.lerchphi(x, 1, T + 1)
    return head - tail, head + tail


def _driven_mean_closed(mom: _Moments, a: Fraction, b: Fraction, T: int):
    """``(sum_{k<T} mu_k, scale)``: ``(L_T(b) - L_T(a)) / (b - a)`` (the driven mean without normalisation,
    O(1) in T), and the magnitude of its pieces (what cancels)."""
    w = b - a
    width = mpmath.mpf(w.numerator) / w.denominator
    (lb, sb), (la, sa) = _partial_log(mom.b, T), _partial_log(mom.a, T)
    return (lb - la) / width, (sb + sa) / width


def amplification_bits(form: Form, b: Fraction) -> int:
    """Bits lost to rounding amplification (not cancellation): ``b^m = exp(m log b)`` (``m |log b|``) and the
    dense recursion (``~3 M`` roundings)."""
    lb = abs(math.log(float(b))) if b > 0 else 0.0
    return int(math.log2(form.top * (lb + 3) + 64)) + 8


def mp_value(fn: Callable[[], tuple], dps: int, amp_bits: int):
    """Evaluate ``fn() -> (value, scale)`` in a local mpmath context, raising the working precision until the
    digits lost to cancellation, ``log2(scale / |value|)``, leave ``dps`` correct digits; the result is rounded
    to ``dps`` digits. ``value`` must be non-zero (the callers handle the exact zeros first)."""
    target = int(dps * 3.33) + 8
    prec = target + amp_bits + 20
    while True:
        with mpmath.workprec(prec):
            value, scale = fn()
        if scale == 0:                      # every term is zero: an exact zero, nothing cancelled
            return mpmath.mpf(0)
        lost = prec if value == 0 else max(0, int(mpmath.ceil(mpmath.log(scale / abs(value), 2))))
        if prec - amp_bits - lost >= target + 10:
            with mpmath.workprec(target):
                return +value
        prec = max(2 * prec, target + amp_bits + lost + 40)
        if prec > _MAX_PREC_BITS:
            raise ValueError("the ring's ends are too close for this depth: more than 120,000 digits cancel; "
                             "use method='exact'")
