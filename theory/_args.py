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
import warnings
from typing import Any, Iterable, Literal

import numpy as np


# The Literal types of the public functions' option arguments (what a type checker and an editor offer;
# the run-time checks below stay, for callers without a checker).
FloatOrMp = Literal["float", "mp"]
FloatOrExact = Literal["float", "exact"]
EnergyMethod = Literal["exact", "float", "mp", "ball"]
Quantity = Literal["Q", "S"]
Field = Literal["complex", "real"]          # the Gaussian field of the weight entries

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
# in a local mpmath context; ``dps=None`` is mpmath's own convention, the caller's ambient precision
# ``mpmath.mp.dps`` at call time (so ``with mpmath.workdps(50): Q(..., method="mp")`` gives 50 digits). The
# upper bound keeps a typo (dps=10**8) from hanging a session: 100,000 digits is far beyond any use of these
# closed forms and still evaluates in seconds. DEFAULT_DPS is the working precision of the float paths that
# evaluate through mpmath (their float64 result needs more digits than it returns).
DEFAULT_DPS = 30
MIN_DPS = 5
MAX_DPS = 100_000


# Physical parameters (rates, scales, intensities) are of order one; 1e50 keeps every product of three of
# them and their powers up to 2 inside float64, so that a typo (lam=1e300) is a clear ValueError instead of
# an OverflowError or a root finder that cannot converge deep inside a closed form.
PARAM_MAX = 1e50

# Arrays that a length argument allocates: at most 2**24 entries (128 MiB of float64), so that a typo
# (T=10**9) is a clear ValueError up front instead of minutes of swapping or a MemoryError.
MAX_LENGTH = 1 << 24


def as_length(name: str, value: Any, *, minimum: int = 1, maximum: int = MAX_LENGTH) -> int:
    """Return an array length / count in ``[minimum, maximum]`` (default bound :data:`MAX_LENGTH`)."""
    return as_int(name, value, minimum=minimum, maximum=maximum)


def ambient_dps() -> int:
    """The caller's mpmath precision, ``mpmath.mp.dps`` now, raised to :data:`MIN_DPS` if below it.

    What ``dps=None`` means on every ``method="mp"`` path (mpmath's own convention). A precision set with
    ``mpmath.workdps`` / ``mpmath.mp.dps`` above :data:`MAX_DPS` is refused like an explicit one.

    >>> import mpmath
    >>> with mpmath.workdps(50):
    ...     ambient_dps()
    50
    """
    import mpmath

    return as_int("dps (None: the ambient mpmath.mp.dps)", max(int(mpmath.mp.dps), MIN_DPS),
                  minimum=MIN_DPS, maximum=MAX_DPS)


def as_dps(value: Any = None, *, name: str = "dps") -> int:
    """Return a precision in decimal digits, an integer in ``[MIN_DPS, MAX_DPS]`` (bools and floats rejected);
    ``None`` is the ambient precision, :func:`ambient_dps`."""
    if value is None:
        return ambient_dps()
    return as_int(name, value, minimum=MIN_DPS, maximum=MAX_DPS)


_FLOAT_TINY = float(np.finfo(np.float64).tiny)      # the smallest normal float64, 2.2250738585072014e-308


def as_real(
    name: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    open_min: bool = False,
    open_max: bool = False,
    allow_inf: bool = False,
) -> float:
    """Return ``value`` as a finite ``float`` in the stated interval (closed unless ``open_*``); with
    ``allow_inf``, ``+inf`` is a value too (where it means "no bound")."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    out = float(value)
    if not (math.isfinite(out) or (allow_inf and out == math.inf)):
        raise ValueError(f"{name} must be {'finite or +inf' if allow_inf else 'finite'}, got {value!r}")
    if 0.0 < abs(out) < _FLOAT_TINY:
        # a subnormal parameter loses its digits and turns the closed forms' products and logs into 0, inf
        # or nan (1/x overflows, x*y underflows): refused up front
        raise ValueError(f"{name} must not be subnormal (a nonzero magnitude below {_FLOAT_TINY:.17g}, the "
                         f"smallest normal float64, has lost its digits), got {value!r}")
    if minimum is not None and (out < minimum or (open_min and out == minimum)):
        raise ValueError(f"{name} must be {'>' if open_min else '>='} {minimum}, got {value!r}")
    if maximum is not None and (out > maximum or (open_max and out == maximum)):
        raise ValueError(f"{name} must be {'<' if open_max else '<='} {maximum}, got {value!r}")
    return out


def as_measurement(name: str, value: Any) -> float:
    """Return a real scalar as a float, NaN and infinities included (a measurement that may be missing or
    unbounded; the caller decides what they mean); non-real values are a TypeError naming the parameter."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r:.60}")
    return float(value)


def as_mp_real(name: str, value: Any, *, allow_inf: bool = False):
    """Return a real scalar as an ``mpmath.mpf`` at the current working precision, taken exactly where it
    can be: ints, Fractions (divided at the working precision), Decimals, floats, numpy reals and mpf
    (``+-inf`` only with ``allow_inf``; NaN, bools, complex and strings are refused, naming ``name``)."""
    import decimal
    from fractions import Fraction

    import mpmath

    if (isinstance(value, (bool, np.bool_)) or
            not isinstance(value, (numbers.Real, decimal.Decimal, mpmath.mpf))):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r:.60}")
    if isinstance(value, Fraction):
        out = mpmath.mpf(value.numerator) / value.denominator
    elif isinstance(value, decimal.Decimal):
        out = mpmath.mpf(str(value)) if value.is_finite() else mpmath.mpf(float(value))
    else:
        out = mpmath.mpf(value.item() if isinstance(value, np.generic) else value)
    if mpmath.isnan(out) or (mpmath.isinf(out) and not allow_inf):
        raise ValueError(f"{name} must be {'a number (inf allowed)' if allow_inf else 'finite'}, got {value!r:.60}")
    return out


def as_real_array(name: str, value: Any, *, minimum: float | None = None, finite: bool = True) -> np.ndarray:
    """Return ``value`` as a float64 array of finite numbers (scalars give 0-d arrays); ``finite=False``
    lets NaN and infinities through (measurements that mark a missing value with NaN)."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be real, not a bool")
    # numpy would parse the string "1.0" into a number: a string here is always a caller's mistake
    if isinstance(value, (str, bytes)) or (isinstance(value, np.ndarray) and value.dtype.kind in "US"):
        raise TypeError(f"{name} must be a real number or an array of real numbers, got {value!r}")
    arr = as_float64(name, value, "a real number or an array of real numbers")
    if finite and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (got NaN or infinity)")
    if minimum is not None and np.any(arr < minimum):
        raise ValueError(f"{name} must be >= {minimum}")
    return arr


def as_float64(name: str, value: Any, what: str = "real numbers") -> np.ndarray:
    """``value`` as a float64 array (values unchecked), refusing complex input with a TypeError naming the
    parameter: numpy would drop the imaginary part with only a ComplexWarning. The one conversion of real
    array arguments (``what``: what the TypeError says ``name`` must be, for values that are not numbers)."""
    complex_values = np.iscomplexobj(value) and not isinstance(value, (str, bytes))
    if isinstance(value, np.ndarray) and value.dtype.kind == "b":      # True is not a number here (bool .npy)
        raise TypeError(f"{name} must be real numbers, not booleans, got {value!r:.80}")
    if not complex_values:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", np.exceptions.ComplexWarning)   # complex objects inside a list
                return np.asarray(value, dtype=np.float64)
        except np.exceptions.ComplexWarning:
            complex_values = True
        except (TypeError, ValueError, OverflowError):
            pass
    if complex_values:
        raise TypeError(f"{name} must be real, got complex values (the imaginary part would be lost): "
                        f"{value!r:.80}")
    raise TypeError(f"{name} must be {what}, got {type(value).__name__} {value!r:.80}")


def check_ordered(lo_name: str, lo: Any, hi_name: str, hi: Any, *, strict: bool = False) -> None:
    """Raise ``ValueError`` naming both bounds unless ``lo <= hi`` (``lo < hi`` with ``strict``): the check of
    a range given as two arguments, after each was checked on its own (either may be the one in error)."""
    if not (lo < hi if strict else lo <= hi):
        raise ValueError(f"{hi_name} must be {'>' if strict else '>='} {lo_name}, got {lo_name}={lo!r}, "
                         f"{hi_name}={hi!r}")


def as_probability(name: str, value: Any, *, open_min: bool = False, open_max: bool = False) -> float:
    """Return a probability: a finite real in ``[0, 1]`` (ends excluded with ``open_min`` / ``open_max``)."""
    return as_real(name, value, minimum=0.0, maximum=1.0, open_min=open_min, open_max=open_max)


def as_bool(name: str, value: Any) -> bool:
    """Return ``value`` if it is a Python or NumPy bool (``0``, ``"yes"`` and None are mistakes here)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


def as_seed(value: Any, *, name: str = "seed") -> np.random.Generator:
    """Return a ``numpy.random.Generator`` from a seed: an int >= 0, a ``SeedSequence`` or a ``Generator``.

    One seed convention for the toolkit: an int or a ``SeedSequence`` starts a fresh ``default_rng``
    stream (the same seed gives the same draws); a ``Generator`` is used as is (its state advances, so
    consecutive calls give fresh draws). Bools, floats and negative ints are rejected.

    >>> bool(as_seed(1).integers(10**9) == as_seed(np.random.SeedSequence(1)).integers(10**9))
    True
    """
    if isinstance(value, np.random.Generator):
        return value
    if isinstance(value, np.random.SeedSequence):
        return np.random.default_rng(value)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)):
        raise TypeError(
            f"{name} must be an integer >= 0, a numpy SeedSequence or a numpy Generator, "
            f"got {type(value).__name__} {value!r}")
    return np.random.default_rng(as_int(name, value, minimum=0))


# Seeds that reach torch (``torch.manual_seed``, ``torch.Generator().manual_seed``) must fit its signed 64-bit
# state: larger ints fail deep inside with "Overflow when unpacking long long". One bound for every seed.
SEED_MAX = 2**63 - 1


def as_seed_int(value: Any, *, name: str = "seed") -> int:
    """Return an integer seed in ``[0, SEED_MAX]`` (what both numpy and torch accept)."""
    return as_int(name, value, minimum=0, maximum=SEED_MAX)


def as_seed_sequence(value: Any, *, name: str = "seed") -> np.random.SeedSequence:
    """Return a ``numpy.random.SeedSequence`` from the same seeds as :func:`as_seed`.

    For code that spawns independent streams (one per block or particle): an int ``s`` gives
    ``SeedSequence(s)``, a ``SeedSequence`` is used as is, a ``Generator`` contributes 63 bits of fresh
    entropy drawn from it (so its state advances, as when it is used directly).
    """
    if isinstance(value, np.random.SeedSequence):
        return value
    if isinstance(value, np.random.Generator):
        return np.random.SeedSequence(int(value.integers(0, 2**63)))
    as_seed(value, name=name)             # the type and range checks and their messages
    return np.random.SeedSequence(int(value))


def as_same_shape(names: tuple[str, str], a: Any, b: Any, *, ndim: int, shape: str) -> tuple[np.ndarray, np.ndarray]:
    """``a`` and ``b`` as float64 arrays of ``ndim`` dimensions and one shape (``shape`` names the axes in
    the message, e.g. ``"(n_seq, T)"``); values are not checked."""
    what = f"an array of real numbers {shape} (as {names[0]} and {names[1]} both must be)"
    x, y = as_float64(names[0], a, what), as_float64(names[1], b, what)
    if x.ndim != ndim or x.shape != y.shape:
        raise ValueError(f"{names[0]} and {names[1]} must be arrays of the same shape {shape}; got {x.shape} "
                         f"and {y.shape}")
    return x, y


def as_int_array(name: str, value: Any, *, minimum: int | None = 0, maximum: int | None = None) -> np.ndarray:
    """Return ``value`` as an int64 array of integers in ``[minimum, maximum]`` (a scalar gives a 0-d array).

    Accepts Python ints, NumPy integer scalars and integer arrays (lists and tuples of ints too); rejects
    bools, floats (even integral ones), strings and object arrays, and values beyond int64.
    """
    if isinstance(value, (bool, np.bool_, str, bytes)):
        raise TypeError(f"{name} must be an integer or an array of integers, got {type(value).__name__} {value!r}")
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError, OverflowError):
        raise TypeError(f"{name} must be an integer or an array of integers, got {value!r}") from None
    if arr.dtype.kind == "O":
        # Python ints beyond int64 (or mixed objects): check each one, then insist on the int64 range
        flat = [as_int(name, v, minimum=minimum, maximum=maximum) for v in arr.ravel().tolist()]
        if any(abs(v) >= 2**63 for v in flat):
            _too_big(name)
        return np.array(flat, dtype=np.int64).reshape(arr.shape)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must be an integer or an array of integers, got {arr.dtype} values")
    if arr.dtype.kind == "u" and arr.size and int(arr.max()) >= 2**63:
        _too_big(name)
    arr = arr.astype(np.int64)
    if arr.size:
        _check_range(name, int(arr.min()), minimum, None)
        _check_range(name, int(arr.max()), None, maximum)
    return arr


def _too_big(name: str):
    raise ValueError(f"{name} must be an integer below 2**63 (int64), got a larger one")


def as_choice(name: str, value: Any, choices: Iterable[str]) -> Any:
    """Return ``value`` if it is one of ``choices`` (strings; typed ``Any`` so that it narrows to the
    caller's ``Literal`` option type)."""
    choices = tuple(choices)
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, one of {choices}; got {value!r}")
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}; got {value!r}")
    return value


def _check_range(name: str, value: int, minimum: int | None, maximum: int | None) -> None:
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {_short(value)}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be an integer <= {_short(maximum)}, got {_short(value)}")


def _short(value: int) -> str:
    # a 1000-digit integer in a one-line message: its order of magnitude (math.log10 takes any int)
    if abs(value) < 10**30:
        return str(value)
    e = math.log10(abs(value))
    return f"{'-' if value < 0 else ''}{10 ** (e - math.floor(e)):.3f}e+{math.floor(e)}"


def as_method_dps(method: Any, dps: Any, *, methods: Iterable[str] = ("float", "mp"),
                  mp_methods: Iterable[str] = ("mp",), max_dps: int = MAX_DPS) -> tuple[Any, Any]:
    """The one precision API: ``method`` one of ``methods``; ``dps`` only for the ``mp_methods``
    (``None`` there means the ambient ``mpmath.mp.dps``, :func:`ambient_dps`; checked by :func:`as_dps`),
    and must be ``None`` otherwise.

    ``max_dps``: a tighter upper bound for functions whose cost explodes with the precision (Hurwitz zeta,
    tanh-sinh quadrature); the default is :data:`MAX_DPS`. Returns ``(method, dps)`` with ``dps = None``
    for the float methods (typed ``Any``: a checker cannot follow which ``method`` was given).
    """
    method = as_choice("method", method, methods)
    if method not in tuple(mp_methods):
        if dps is not None:
            raise ValueError(f"dps applies only to method {tuple(mp_methods)}, not {method!r}; got dps={dps!r}")
        return method, None
    digits = as_dps(dps)
    if digits > max_dps:
        raise ValueError(f"dps must be an integer <= {max_dps} for this function, got {digits}"
                         + (" (the ambient mpmath.mp.dps, dps=None)" if dps is None else ""))
    return method, digits


def scalar_or_array(arr: np.ndarray):
    """A 0-d array as a Python float, any other array unchanged (the return convention of the vectorised
    closed forms: a scalar argument gives a float)."""
    arr = np.asarray(arr)
    return float(arr) if arr.ndim == 0 else arr


def elementwise(fn, dtype, arrays: dict, convert):
    """``fn(**elements)`` over the arrays of ``arrays`` broadcast together (numpy semantics), or None when
    every value is a scalar (the caller then takes its scalar path).

    ``convert(name, value) -> ndarray`` validates each argument (e.g. :func:`as_int_array`); every element
    goes through the scalar ``fn``, so arrays have exactly the scalar accuracy. A 0-d result is a Python
    scalar (as numpy ufuncs do). The one home of the array API of the closed forms.
    """
    if not any(isinstance(v, (np.ndarray, list, tuple)) for v in arrays.values()):
        return None
    names = list(arrays)
    parts = np.broadcast_arrays(*[convert(k, v) for k, v in arrays.items()])
    out = np.empty(parts[0].shape, dtype=dtype)
    for idx in np.ndindex(out.shape):
        out[idx] = fn(**{k: p[idx].item() for k, p in zip(names, parts)})
    return out.item() if out.ndim == 0 else out


def as_executor(value: Any, *, name: str = "executor"):
    """Return ``value`` if it is None or an executor (anything with a callable ``.map``, as
    :class:`concurrent.futures.Executor` and Dask's ``Client.get_executor()`` have)."""
    if value is not None and not callable(getattr(value, "map", None)):
        raise TypeError(f"{name} must be a concurrent.futures.Executor (anything with .map) or None, "
                        f"got {type(value).__name__} {value!r:.60}")
    return value


def as_path(name: str, value: Any) -> str:
    """Return a file path (``str`` or ``os.PathLike``) as a ``str``; ``0`` or None is a mistake here, not a
    file descriptor or standard input."""
    import os

    if isinstance(value, (bytes, bytearray)) or not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a path (str or os.PathLike), got {type(value).__name__} {value!r:.60}")
    out = os.fspath(value)
    if not isinstance(out, str) or not out or "\0" in out:
        raise ValueError(f"{name} must be a non-empty path without NUL characters, got {value!r:.60}")
    return out


# Up-front cost limits: work that a call would start is estimated before it starts, and refused past these
# bounds with a message naming the parameter, the estimate and the limit (a typo such as T=10**7 or
# layers=10**7 is a clear ValueError, not minutes of swapping, a MemoryError or an hour-long loop).
MAX_MEMORY_BYTES = 8 * 2**30      # one call's working set (tensors, arrays): 8 GiB
# weights of one model (400 MB of float32): building and initialising 1e8 weights takes about a second, 1e9
# over a minute on a small machine; the benchmark's models have at most about 1e5
MAX_PARAMETERS = 10**8
MAX_COUNT = 10**7                 # repetitions (bootstrap draws, restarts, layers of a loop)


def check_budget(name: str, estimate: float, maximum: float, *, unit: str = "bytes", value: Any = None) -> None:
    """Raise ``ValueError`` if the up-front ``estimate`` of a call's cost exceeds ``maximum``; the message names
    the parameter (and its value) that sets the cost, the estimate and the limit."""
    if not estimate <= maximum:          # also catches nan
        shown = "" if value is None else f"={value!r:.40}"
        raise ValueError(f"{name}{shown} is too large: the call would need about {_fmt_cost(estimate, unit)} "
                         f"(limit {_fmt_cost(maximum, unit)})")


def _fmt_cost(x: float, unit: str) -> str:
    if unit == "bytes":
        return f"{x / 2**30:.3g} GiB"
    return f"{x:.3g} {unit}"

# Integers that a float64 closed form converts to float (widths, depths): at most 10**300, inside float64's
# range with room for the products of the formulas (exact and mp paths take any size).
FLOAT_INT_MAX = 10**300
# log of float64's largest value: a log past it overflows exp()
LOG_FLOAT_MAX = math.log(float(np.finfo(np.float64).max))


def as_instance(name: str, value: Any, cls: type | tuple, what: str | None = None):
    """Return ``value`` if it is an instance of ``cls`` (a model, a trace, a fit), else a TypeError naming the
    parameter and the expected kind (instead of an AttributeError deep inside)."""
    if not isinstance(value, cls):
        kinds = what or " or ".join(c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,)))
        raise TypeError(f"{name} must be a {kinds}, got {type(value).__name__} {value!r:.60}")
    return value
