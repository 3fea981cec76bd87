"""Argument checks shared by every public function of the toolkit.

Each checker returns the normalised value or raises ``TypeError`` (wrong kind of object) or
``ValueError`` (right kind, outside the allowed range), with a message that names the parameter and
states what is allowed. Booleans are rejected where integers are expected: ``True`` is an ``int`` in
Python, but ``Q(True, 3)`` is always a bug.
"""

from __future__ import annotations

import math
import numbers
import operator
from typing import Any, Iterable

import numpy as np


def as_int(name: str, value: Any, *, minimum: int | None = 0, maximum: int | None = None) -> int:
    """Return ``value`` as a Python ``int`` in ``[minimum, maximum]``.

    Accepts Python and NumPy integers and anything with ``__index__`` (e.g. sympy Integer); rejects
    bools, floats (even integral ones: ``1e18`` is not an integer literal), strings and None.
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, not a bool (got {value!r})")
    if isinstance(value, (float, np.floating)):
        hint = f"; use {name}={int(value)}" if math.isfinite(value) and float(value).is_integer() else ""
        raise TypeError(f"{name} must be an integer, got float {value!r}{hint}")
    try:
        out = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}") from None
    _check_range(name, out, minimum, maximum)
    return int(out)


# One precision convention for every ``method="mp"`` path of the toolkit: ``dps`` decimal digits, evaluated
# in a local mpmath context. The upper bound keeps a typo (dps=10**8) from hanging a session: 100,000 digits
# is far beyond any use of these closed forms and still evaluates in seconds.
DEFAULT_DPS = 30
MIN_DPS = 5
MAX_DPS = 100_000


def as_dps(value: Any, *, name: str = "dps") -> int:
    """Return a precision in decimal digits, an integer in ``[MIN_DPS, MAX_DPS]`` (bools and floats rejected)."""
    return as_int(name, value, minimum=MIN_DPS, maximum=MAX_DPS)


def as_real(
    name: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    open_min: bool = False,
    open_max: bool = False,
) -> float:
    """Return ``value`` as a finite ``float`` in the stated interval (closed unless ``open_*``)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    out = float(value)
    if not math.isfinite(out):
        raise ValueError(f"{name} must be finite, got {value!r}")
    if minimum is not None and (out < minimum or (open_min and out == minimum)):
        raise ValueError(f"{name} must be {'>' if open_min else '>='} {minimum}, got {value!r}")
    if maximum is not None and (out > maximum or (open_max and out == maximum)):
        raise ValueError(f"{name} must be {'<' if open_max else '<='} {maximum}, got {value!r}")
    return out


def as_real_array(name: str, value: Any, *, minimum: float | None = None) -> np.ndarray:
    """Return ``value`` as a float64 array of finite numbers (scalars give 0-d arrays)."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be real, not a bool")
    # numpy would parse the string "1.0" into a number: a string here is always a caller's mistake
    if isinstance(value, (str, bytes)) or (isinstance(value, np.ndarray) and value.dtype.kind in "US"):
        raise TypeError(f"{name} must be a real number or an array of real numbers, got {value!r}")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a real number or an array of real numbers, got {value!r}") from None
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (got NaN or infinity)")
    if minimum is not None and np.any(arr < minimum):
        raise ValueError(f"{name} must be >= {minimum}")
    return arr


def as_choice(name: str, value: Any, choices: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``choices`` (strings)."""
    choices = tuple(choices)
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, one of {choices}; got {value!r}")
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}; got {value!r}")
    return value


def _check_range(name: str, value: int, minimum: int | None, maximum: int | None) -> None:
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be an integer <= {maximum}, got {value}")


def as_method_dps(method: Any, dps: Any, *, methods: Iterable[str] = ("float", "mp"),
                  mp_methods: Iterable[str] = ("mp",)) -> tuple[str, int | None]:
    """The one precision API: ``method`` one of ``methods``; ``dps`` only for the ``mp_methods``
    (``None`` there means :data:`DEFAULT_DPS`, checked by :func:`as_dps`), and must be ``None`` otherwise.

    Returns ``(method, dps)`` with ``dps = None`` for the float methods.
    """
    method = as_choice("method", method, methods)
    if method not in tuple(mp_methods):
        if dps is not None:
            raise ValueError(f"dps applies only to method {tuple(mp_methods)}, not {method!r}; got dps={dps!r}")
        return method, None
    return method, DEFAULT_DPS if dps is None else as_dps(dps)


def scalar_or_array(arr: np.ndarray):
    """A 0-d array as a Python float, any other array unchanged (the return convention of the vectorised
    closed forms: a scalar argument gives a float)."""
    arr = np.asarray(arr)
    return float(arr) if arr.ndim == 0 else arr
