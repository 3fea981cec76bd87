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
        nt = _ints(kwargs, "t")
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
