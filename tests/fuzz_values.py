"""Hypothesis strategies of bad and edge values for the fuzz test (one parameter replaced at a time)."""

from __future__ import annotations

import decimal
import math
import numbers
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st

class IndexOnly:
    """An integer known only through ``__index__`` (as sympy's Integer or a user's int-like type)."""

    def __init__(self, value: int):
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"IndexOnly({self.value})"


class Broadcast:
    """A huge read-only array of one repeated value (``np.broadcast_to(fill, shape)``: a few bytes, but 931 GiB
    once a function copies it or tests its elements). Pickled as the broadcast call, so the worker process
    receives the view itself, never its elements (issue 43's outside fuzz: sizes are checked before content)."""

    def __init__(self, fill, shape: tuple):
        self.fill, self.shape = fill, shape

    def __reduce__(self):
        return (np.broadcast_to, (self.fill, self.shape))

    def __repr__(self) -> str:
        return f"np.broadcast_to({self.fill!r}, {self.shape})"


# files that the worker writes in its scratch directory (tests/fuzz_harness.py): an empty and a corrupt .npy
EMPTY_FILE, CORRUPT_FILE = "fuzz-empty.npy", "fuzz-corrupt.npy"

FIXED = [
    0, -1, 1, 10**30, -10**30, 2**64, 0.5, -0.0, 1e30, -1e30, 1e300, 1e-300, math.nan, math.inf, -math.inf,
    True, False, np.bool_(True), "bogus", "", None, 1 + 2j, [1, 2], [], (1,), object(),
    np.zeros((2, 2)), np.array(1.0), np.array([1, 2]), np.array([np.nan]), np.float64(np.nan), np.int64(-1),
    # beyond the project's own lists (issue 33): subnormals, the float64 extremes, complex of every width,
    # exact and decimal reals, int-likes, files that exist but are empty or corrupt
    5e-324, -5e-324, 2.2e-309, np.float64(1e-310), -1e300, 1e-300 * 1e-5, np.float16(65504.0), np.float32(3.4e38),
    np.longdouble(0.5), np.complex64(1 + 0j), np.complex128(2j), complex(1, 0), np.array([1 + 1j, 2]),
    Fraction(3, 2), Fraction(8), Fraction(-1, 3), decimal.Decimal("8"), decimal.Decimal("0.1"),
    decimal.Decimal("NaN"), decimal.Decimal("-Infinity"), IndexOnly(8), IndexOnly(-3), IndexOnly(2**70),
    np.int8(-128), np.uint32(2**32 - 1), np.int16(8), np.uint64(2**64 - 1), EMPTY_FILE, CORRUPT_FILE,
    np.array([], dtype=float), np.array([True, False]), np.array(["1.0"]),
    # issue 43's outside fuzz: ints past float64's range where a float is wanted, arrays whose size alone is
    # the error, negative values in an array (lags, times), numpy integers in integer arithmetic
    10**400, -10**400, Broadcast(1.0, (10**6, 10**6)), Broadcast(np.int64(1), (10**12,)),
    np.array([-1.0, -2.0, -3.0]), np.int8(4), np.int64(20),
]


def _numpy_widths(base) -> list:
    """``base`` in every numpy scalar type that holds it exactly (int8 ... uint64, float16 ... longdouble)."""
    out = []
    types = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64] \
        if isinstance(base, numbers.Integral) else []
    types += [np.float16, np.float32, np.float64, np.longdouble]
    for t in types:
        try:
            with np.errstate(all="ignore"):
                v = t(base)
            if float(v) == float(base) and (not isinstance(base, numbers.Integral) or int(v) == base):
                out.append(v)
        except (OverflowError, ValueError):
            pass
    return out


def equivalents(base) -> list:
    """The baseline value in other numeric types: each must give the baseline result or a clean error."""
    if isinstance(base, bool) or not isinstance(base, numbers.Real):
        return [[base]] if base is not None else []
    out = [np.array(base), [base], np.array([base]), Fraction(base), decimal.Decimal(repr(float(base)))
           if not isinstance(base, numbers.Integral) else IndexOnly(base)] + _numpy_widths(base)
    if isinstance(base, numbers.Integral):
        out.append(float(base))
    return out


def values(base):
    """Bad and edge values around a parameter whose valid baseline value is ``base``."""
    return st.one_of(
        st.sampled_from(FIXED + equivalents(base)),
        st.integers(min_value=-2**70, max_value=2**70),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([10**k for k in (3, 6, 9, 12, 18, 40)] + [-(10**k) for k in (3, 9)]),
    )
