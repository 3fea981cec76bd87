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
