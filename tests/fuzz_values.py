"""Hypothesis strategies of bad and edge values for the fuzz test (one parameter replaced at a time)."""

from __future__ import annotations

import math
import numbers

import numpy as np
from hypothesis import strategies as st

FIXED = [
    0, -1, 1, 10**30, -10**30, 2**64, 0.5, -0.0, 1e30, -1e30, 1e300, 1e-300, math.nan, math.inf, -math.inf,
    True, False, np.bool_(True), "bogus", "", None, 1 + 2j, [1, 2], [], (1,), object(),
    np.zeros((2, 2)), np.array(1.0), np.array([1, 2]), np.array([np.nan]), np.float64(np.nan), np.int64(-1),
]


def equivalents(base) -> list:
    """The baseline value in other numeric types: each must give the baseline result or a clean error."""
    if isinstance(base, bool) or not isinstance(base, numbers.Real):
        return [[base]] if base is not None else []
    out = [np.array(base), np.float64(base), np.float32(base), [base], np.array([base])]
    if isinstance(base, numbers.Integral):
        out += [np.int64(base), np.int32(base), float(base)]
        if base >= 0:
            out += [np.uint64(base), np.uint8(base) if base < 256 else np.uint16(base % 65536)]
    return out


def values(base):
    """Bad and edge values around a parameter whose valid baseline value is ``base``."""
    return st.one_of(
        st.sampled_from(FIXED + equivalents(base)),
        st.integers(min_value=-2**70, max_value=2**70),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([10**k for k in (3, 6, 9, 12, 18, 40)] + [-(10**k) for k in (3, 9)]),
    )
