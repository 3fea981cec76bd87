"""(private) The checks of the plain data that the public ``verdict_*`` and ``plot_*`` functions of
``validation.checks`` take: one declared shape per function, one checker per kind of value (those of
``theory._args``), so bad data is a ``TypeError`` / ``ValueError`` that names where it is
(``data['rows'][3]['se'] must be finite, got nan``), never a KeyError or a silently wrong verdict (a NaN
compares False with every threshold, so it would pass a check it should fail).

A *shape* is one of

* a kind: :data:`REAL` (a finite real, returned as float), :data:`POS` (> 0: a standard error, a z),
  :data:`NONNEG`, :data:`NONNEG_INF` (>= 0 or +inf: an error of a diverged run), :data:`PROB` (in [0, 1]), :data:`REAL_NAN` (a real, NaN and infinity allowed: documented "not
  defined" values), :data:`INT`, :data:`COUNT` (an int >= 1), :data:`BOOL`, :data:`TEXT`, :data:`ANY`,
  :data:`REALS` (a non-empty 1-d array of finite reals, returned as a float64 array), :data:`POS_REALS`,
  :data:`REALS_NAN`;
* ``opt(shape)``: None or the shape;
* ``seq(shape, min_len=1)``: a list or tuple (not a string) of at least ``min_len`` items of the shape, returned
  as a list; ``pair(a, b, ...)``: a list or tuple of exactly those shapes, returned as a tuple;
* ``rec(key=shape, ...)``: a mapping (dict) with at least these string keys (extra keys are kept as they are;
  a key written ``"name?"``, as in ``rec(**{"note?": TEXT})``, may be missing);
  ``mapping(key_shape, value_shape, min_len=1)``: a mapping of any keys to values of one shape;
* ``one_of(shape, ...)``: the first shape that fits;
* a function ``f(name, value) -> value`` that raises a ``TypeError`` / ``ValueError`` naming ``name``.

:func:`check_data` returns a checked copy (numbers converted by the checkers), so the verdict computes on
exactly what was checked.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Mapping
from typing import Any

import numpy as np

from theory._args import as_bool, as_int, as_real, as_real_array

REAL, REAL_NAN, INT, BOOL, TEXT, ANY, REALS, REALS_NAN = ("real", "real or nan", "int", "bool", "text", "any",
                                                         "reals", "reals or nan")
POS, NONNEG, PROB, COUNT, POS_REALS = "real > 0", "real >= 0", "probability", "int >= 1", "reals > 0"
NONNEG_INF = "real >= 0 or +inf"


@dataclasses.dataclass(frozen=True)
class _Opt:
    shape: Any


@dataclasses.dataclass(frozen=True)
class _Seq:
    shape: Any
    min_len: int = 1


@dataclasses.dataclass(frozen=True)
class _Pair:
    shapes: tuple


@dataclasses.dataclass(frozen=True)
class _Rec:
    fields: dict


@dataclasses.dataclass(frozen=True)
class _Table:
    key: Any
    value: Any
    min_len: int = 1


@dataclasses.dataclass(frozen=True)
class _OneOf:
    shapes: tuple


def opt(shape) -> _Opt:
    return _Opt(shape)


def seq(shape, min_len: int = 1) -> _Seq:
    return _Seq(shape, min_len)


def pair(*shapes) -> _Pair:
    return _Pair(shapes)


def rec(**fields) -> _Rec:
    return _Rec(fields)


def mapping(key, value, min_len: int = 1) -> _Table:
    return _Table(key, value, min_len)


def one_of(*shapes) -> _OneOf:
    return _OneOf(shapes)


def rows(min_len: int = 1, **fields) -> _Seq:
    """A list of records (the usual ``rows`` of a verdict's data)."""
    return _Seq(_Rec(fields), min_len)


def check_data(name: str, value: Any, shape) -> Any:
    """``value`` checked against ``shape`` (module docstring); a ``TypeError`` / ``ValueError`` naming the
    place (``name`` and the keys and indices below it) otherwise.

    >>> check_data("data", {"z": 4.5, "rows": [{"se": 0.1}]}, rec(z=REAL, rows=rows(se=REAL)))
    {'z': 4.5, 'rows': [{'se': 0.1}]}
    >>> check_data("data", {"z": 4.5, "rows": [{"se": float("nan")}]}, rec(z=REAL, rows=rows(se=REAL)))
    Traceback (most recent call last):
    ...
    ValueError: data['rows'][0]['se'] must be finite, got nan
    >>> check_data("data", {"rows": []}, rec(z=REAL, rows=rows(se=REAL)))
    Traceback (most recent call last):
    ...
    ValueError: data must hold the key 'z' (a dict with keys 'z', 'rows'), got keys ['rows']
    """
    if isinstance(shape, str):
        return _kind(name, value, shape)
    if callable(shape) and not dataclasses.is_dataclass(shape):
        return shape(name, value)
    if isinstance(shape, _Opt):
        return None if value is None else check_data(name, value, shape.shape)
    if isinstance(shape, _OneOf):
        errors = []
        for s in shape.shapes:
            try:
                return check_data(name, value, s)
            except (TypeError, ValueError) as exc:
                errors.append(str(exc))
        raise type_or_value(errors)(errors[0])
    if isinstance(shape, (_Seq, _Pair)):
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, (list, tuple, np.ndarray)):
            raise TypeError(f"{name} must be a list, got {type(value).__name__} {value!r:.60}")
        items = list(value)
        if isinstance(shape, _Pair):
            if len(items) != len(shape.shapes):
                raise ValueError(f"{name} must hold {len(shape.shapes)} items, got {len(items)}")
            return tuple(check_data(f"{name}[{i}]", v, s) for i, (v, s) in enumerate(zip(items, shape.shapes)))
        if len(items) < shape.min_len:
            raise ValueError(f"{name} must hold at least {shape.min_len} item{'s' * (shape.min_len != 1)}, "
                             f"got {len(items)}")
        return [check_data(f"{name}[{i}]", v, shape.shape) for i, v in enumerate(items)]
    if not isinstance(value, Mapping):
        raise TypeError(f"{name} must be a dict, got {type(value).__name__} {value!r:.60}")
    if isinstance(shape, _Table):
        if len(value) < shape.min_len:
            raise ValueError(f"{name} must hold at least {shape.min_len} entr{'ies' if shape.min_len != 1 else 'y'}, "
                             f"got {len(value)}")
        return {check_data(f"{name} key", k, shape.key): check_data(f"{name}[{k!r}]", v, shape.value)
                for k, v in value.items()}
    out = dict(value)
    for key, s in shape.fields.items():
        optional = key.endswith("?")
        key = key.rstrip("?")
        if optional and key not in value:
            continue
        if key not in value:
            keys = ", ".join(repr(k.rstrip("?")) for k in shape.fields if not k.endswith("?"))
            raise ValueError(f"{name} must hold the key {key!r} (a dict with keys {keys}), got keys "
                             f"{sorted(map(str, value))[:12]}")
        out[key] = check_data(f"{name}[{key!r}]", value[key], s)
    return out


def type_or_value(errors: list[str]) -> type:
    """ValueError when some alternative failed on the value (not its type), else TypeError."""
    return TypeError if all(" must be a" in e and "got" in e for e in errors) else ValueError


def _kind(name: str, value: Any, kind: str) -> Any:
    if kind == ANY:
        return value
    if kind == TEXT:
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a string, got {type(value).__name__} {value!r:.60}")
        return value
    if kind == BOOL:
        return as_bool(name, value)
    if kind in (INT, COUNT):
        return as_int(name, value, minimum=None if kind == INT else 1)
    if kind == NONNEG_INF:
        if isinstance(value, (float, np.floating)) and value == math.inf:
            return math.inf
        return as_real(name, value, minimum=0.0)
    if kind in (REAL, POS, NONNEG, PROB):
        lo = {REAL: None, POS: 0.0, NONNEG: 0.0, PROB: 0.0}[kind]
        return as_real(name, value, minimum=lo, open_min=kind == POS, maximum=1.0 if kind == PROB else None)
    if kind == REAL_NAN:
        if isinstance(value, (float, np.floating)) and not math.isfinite(value):
            return float(value)
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.integer, np.floating)):
            raise TypeError(f"{name} must be a real number (or nan), got {type(value).__name__} {value!r:.60}")
        return as_real(name, value)
    if kind in (REALS, REALS_NAN, POS_REALS):
        arr = as_real_array(name, value, finite=kind != REALS_NAN)
        if arr.ndim != 1 or arr.size == 0:
            raise ValueError(f"{name} must be a non-empty 1-d array, got shape {arr.shape}")
        if kind == POS_REALS and not np.all(arr > 0):
            raise ValueError(f"{name} must hold positive numbers only")
        return arr
    raise KeyError(kind)


def check_path(name: str, path: Any):
    """A figure's destination: None (no file) or a path (``str`` / ``os.PathLike``)."""
    from theory._args import as_path

    return None if path is None else as_path(name, path)
