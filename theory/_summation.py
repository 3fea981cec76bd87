"""Accurate summation helpers (float64) used by the closed forms."""

from __future__ import annotations

import numpy as np


def compensated_cumsum(v: np.ndarray) -> np.ndarray:
    """Prefix sums of ``v`` with compensated (TwoSum) error correction.

    The plain ``numpy.cumsum`` of m terms carries a relative error up to ``m * eps``; here the rounding
    error of every addition is recovered exactly with Knuth's TwoSum and the (tiny) errors are added back
    with a second cumsum, so the result is accurate to a few ulps for same-sign terms, at about twice the
    cost of ``numpy.cumsum``.
    """
    c = np.cumsum(v)
    prev = np.empty_like(c)
    prev[0] = 0.0
    prev[1:] = c[:-1]
    bb = c - prev
    err = (prev - (c - bb)) + (v - bb)
    return c + np.cumsum(err)


def relative_squared_error(approx, exact, weights=None) -> float:
    """``sum_i w_i |approx_i - exact_i|^2 / sum_i w_i |exact_i|^2`` (``w = 1`` by default), evaluated on both
    arrays divided by ``max |exact|``: the ratio is scale invariant, and so is its float evaluation (the plain
    sums of squares overflow at 1e155 and underflow at 1e-162, giving nan or 0/0). ``exact`` must not be
    identically zero (the caller refuses that, naming its argument). Past float64 the result is ``inf``.

    >>> relative_squared_error(np.array([1.0, 1.0]) * 1e300, np.array([2.0, 0.0]) * 1e300)    # (1 + 1) / 4
    0.5
    """
    e = np.asarray(exact)
    scale = float(np.max(np.abs(e)))
    if not scale > 0.0:
        raise ValueError("the reference of a relative error must not be identically zero")
    e = e / scale
    with np.errstate(over="ignore", invalid="ignore"):
        d = np.asarray(approx) / scale - e                # inf when approx exceeds exact by more than 1e308
        w = 1.0 if weights is None else np.asarray(weights)
        num = float(np.sum(w * (d.real ** 2 + d.imag ** 2))) if np.iscomplexobj(d) else float(np.sum(w * d * d))
        den = float(np.sum(w * (e.real ** 2 + e.imag ** 2))) if np.iscomplexobj(e) else float(np.sum(w * e * e))
    return num / den
