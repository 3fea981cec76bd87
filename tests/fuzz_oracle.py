"""The fuzz's outside oracle: every accepted call of a ``Q``/``S`` path (float, mp, exact, ball; ``log_Q``,
``log_S``, ``Q_all``) is compared with an independent reference, not only checked for being finite.

References (none is the code path under test):

* ``Q_{n,k}``: a python-flint ``arb`` ball written out here from Theorem 2.1 of Seleznova (2026) in log-gamma form,
  ``n e^a (1 - e^(-d)) / ((k+1)(k+2))``, at twice the bits the tolerance needs, its precision doubled until arb
  certifies them;
* ``S_{n,t}``: the exact Fraction from the product formula, summed here term by term (``t <= 400``), else the
  toolkit's certified ball at 30 more digits (another algorithm than the float/mp paths: 1/n^2 series,
  supercritical top terms or Euler-Maclaurin with proved remainders);
* tolerances are the documented ones: float 1e-13 relative (``log_Q`` 1e-15, or 1e-17 absolute near 0;
  ``log_S`` 1e-14), mp ``10^(1-dps)``, exact: equal to the exact reference or inside the certified ball, ball:
  contains the reference.

:func:`check` returns None for a call outside the oracle's scope (another function, or a reference that would
cost more than :data:`MAX_REFERENCE_SECONDS`-scale work: ``t > MAX_BALL_T`` where only an O(t) ball exists),
else ``(ok, detail)``; the fuzz counts the checked calls.
"""

from __future__ import annotations

import math
import operator
from fractions import Fraction

import numpy as np

from fuzz_values import IndexOnly

ORACLE_QUALS = ("theory.signal_energy.Q", "theory.signal_energy.S", "theory.signal_energy.log_Q",
                "theory.signal_energy.log_S", "theory.signal_energy.Q_all")
MAX_ELEMENTS = 16            # array results: every element checked up to this many, else not checked
MAX_EXACT_T = 400
MAX_BALL_T = 10**5           # the toolkit's ball as the S reference: O(t) only where it is a direct sum


def _mpf_of_arb(b, mpmath):
    man, exp = b.mid().man_exp()
    return mpmath.mpf((int(man), int(exp)))


def arb_Q(n: int, k: int, bits: int):
    """Certified ``Q_{n,k}`` with at least ``bits`` bits of relative accuracy (module docstring)."""
    import flint
    m, prec = k + 2, 2 * bits + 64
    while True:
        with flint.ctx.workprec(prec):
            N = flint.arb(n)
            a = flint.arb(n + m).lgamma() - N.lgamma() - m * N.log()
            q = N * a.exp() / ((k + 1) * m)
            if m <= n:
                b = flint.arb(n + 1).lgamma() - flint.arb(n - m + 1).lgamma() - m * N.log()
                q = q * -((b - a).expm1())
        if q.rel_accuracy_bits() >= bits:
            return q
        prec *= 2


def exact_S(n: int, t: int) -> Fraction:
    """``S_{n,t}`` from the product formula, term by term (Fractions)."""
    rising, falling, total = n * (n + 1), n * (n - 1), Fraction(0)
    for k in range(t + 1):
        m = k + 2
        total += Fraction(rising - falling, (k + 1) * m * n ** (k + 1))
        rising *= n + m
        falling *= n - m
    return total


def _reference(quantity: str, n: int, k: int, digits: int):
    """(an mpf reference to ``digits`` digits or more, an exact Fraction or None), or None if out of scope."""
    import mpmath
    bits = int(digits * 3.33) + 20
    if quantity == "Q":
        return _mpf_of_arb(arb_Q(n, k, bits), mpmath), None
    if k <= MAX_EXACT_T and (k + 1) * math.log2(n + 1) <= 2e4:
        e = exact_S(n, k)
        return mpmath.mpf(e.numerator) / e.denominator, e
    from theory.signal_energy import S, S_ball_is_direct
    if k > MAX_BALL_T and S_ball_is_direct(n, k, digits + 30):
        return None
    return _mpf_of_arb(S(n, k, method="ball", dps=digits + 30), mpmath), None


def _ints(kwargs: dict, depth: str):
    try:
        return operator.index(kwargs["n"]), operator.index(kwargs[depth])
    except (TypeError, KeyError):
        return None


def _scalar(quantity: str, n: int, k: int, value, method: str, dps, log: bool) -> tuple[bool, str] | None:
    import mpmath
    digits = (dps or 15) + 10
    with mpmath.workdps(digits + 40):
        ref = _reference(quantity, n, k, digits)
        if ref is None:
            return None
        r, exact = ref
        if method == "exact":
            ok = value == exact if exact is not None else abs(mpmath.mpf(value.numerator) / value.denominator - r) \
                <= mpmath.mpf(10) ** -(digits - 5) * r
            return ok, f"exact {quantity}({n}, {k})"
        if method == "ball":
            man, exp = value.rad().man_exp()
            mid, rad = _mpf_of_arb(value, mpmath), mpmath.mpf((int(man), int(exp)))     # both exact here
            slack = r * mpmath.mpf(10) ** -(digits - 5)       # the reference's own accuracy
            ok = mid - rad - slack <= r <= mid + rad + slack and rad <= mpmath.mpf(10) ** -(dps - 1) * r
            return ok, f"ball {quantity}({n}, {k})"
        if log:
            lr = mpmath.log(r)
            tol = (mpmath.mpf(10) ** (1 - dps) * max(abs(lr), mpmath.mpf(1e-3)) if method == "mp" else
                   (1e-15 if quantity == "Q" else 1e-14) * max(abs(lr), 1e-2) + 1e-17)
            err = abs(mpmath.mpf(value) - lr)
        else:
            tol = mpmath.mpf(10) ** (1 - dps) if method == "mp" else mpmath.mpf(1e-13)
            err = abs(mpmath.mpf(value) - r) / r
            if method == "float" and not math.isfinite(float(value)):
                return False, f"non-finite float {quantity}({n}, {k})"
        return bool(err <= tol), f"{method} {'log_' if log else ''}{quantity}({n}, {k}): rel. err {float(err):.2e}"


def check(qual: str, kwargs: dict, result) -> tuple[bool, str] | None:
    """Compare an accepted call's result with the reference (module docstring); None: not in scope."""
    base = qual.split("#", 1)[0]
    if base not in ORACLE_QUALS:
        return None
    name = base.rsplit(".", 1)[1]
    log = name.startswith("log_")
    quantity = "Q" if "Q" in name else "S"
    method = kwargs.get("method", "float")
    dps = kwargs.get("dps")
    if method in ("mp", "ball") and dps is None:
        import mpmath
        dps = max(int(mpmath.mp.dps), 5)
    depth = "k" if "k" in kwargs else "t"
    if name == "Q_all":
        nt = _ints(kwargs, "k")
        if nt is None or nt[1] + 1 > MAX_ELEMENTS:
            return None
        checks = [_scalar("Q", nt[0], k, v, method, dps, False) for k, v in enumerate(result)]
        bad = [d for c in checks if c is not None and not c[0] for d in [c[1]]]
        return (not bad, bad[0] if bad else f"Q_all({nt[0]}, {nt[1]}): {len(checks)} entries")
    if isinstance(result, np.ndarray):
        try:
            n_arr, k_arr = np.broadcast_arrays(np.asarray(kwargs["n"]), np.asarray(kwargs[depth]))
        except ValueError:
            return None
        if result.size > MAX_ELEMENTS or result.shape != n_arr.shape or n_arr.dtype.kind not in "iu":
            return None
        for idx in np.ndindex(result.shape):
            c = _scalar(quantity, int(n_arr[idx]), int(k_arr[idx]), result[idx], method, dps, log)
            if c is None:
                return None
            if not c[0]:
                return c
        return True, f"array of {result.size}"
    nk = _ints(kwargs, depth)
    if nk is None:
        return None
    return _scalar(quantity, nk[0], nk[1], result, method, dps, log)


# --- valid draws for the oracle: every energy path, every integer type ---------------------------------------
ORACLE_CASES = ["theory.signal_energy.Q", "theory.signal_energy.Q#mp", "theory.signal_energy.Q#exact",
                "theory.signal_energy.Q#ball", "theory.signal_energy.S", "theory.signal_energy.S#mp",
                "theory.signal_energy.S#exact", "theory.signal_energy.S#ball", "theory.signal_energy.log_Q",
                "theory.signal_energy.log_Q#mp", "theory.signal_energy.log_S", "theory.signal_energy.log_S#mp",
                "theory.signal_energy.Q_all", "theory.signal_energy.Q_all#mp"]
_WIDTHS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)


def _int_forms(v: int) -> list:
    """``v`` as a Python int, an ``__index__`` object and every numpy integer type that holds it."""
    out = [v, IndexOnly(v)]
    for t in _WIDTHS:
        info = np.iinfo(t)
        if info.min <= v <= info.max:
            out.append(t(v))
    return out


def valid_args(qual: str):
    """A strategy of valid (n, depth[, dps]) replacements for one energy path: widths up to 1e18, depths up to
    1e30 (Q) / 1e12 (S), in every integer type."""
    import flint  # noqa: F401  (the ball paths and the oracle's reference need the certified extra)
    from theory.signal_energy import S_ball_is_direct

    from hypothesis import strategies as st

    name = qual.split("#", 1)[0].rsplit(".", 1)[1]
    depth = "k" if "Q" in name else "t"
    big = (3, 6, 9, 12, 15, 20, 25, 30) if depth == "k" else (3, 6, 9, 12)
    ns = st.one_of(st.integers(1, 64), st.sampled_from([10**e for e in (3, 6, 9, 12, 15, 18)] + [2**31 - 1]))
    ks = st.integers(0, 15) if name == "Q_all" else st.one_of(st.integers(0, 300), st.sampled_from([10**e for e in big]))
    method = "mp" if qual.endswith("#mp") else "ball" if qual.endswith("#ball") else None

    @st.composite
    def args(draw):
        n, k = draw(ns), draw(ks)
        dps = draw(st.sampled_from([15, 25, 50])) if method else None
        if method == "ball" and depth == "t" and k > 10**5 and S_ball_is_direct(n, k, dps):
            k = 10**5                     # an O(t) certified sum (its reference would be as long): out of scope
        out = {"n": draw(st.sampled_from(_int_forms(n))), depth: draw(st.sampled_from(_int_forms(k)))}
        if dps is not None:
            out["dps"] = dps
        return out
    return args()
