"""(private) The command lines' ``--json``: one number format for every command.

Every number is a JSON number: an int as an integer literal (any length), a float as its shortest
round-trip literal, an arbitrary-precision (mp) value as a number literal with every digit it was computed
to (``json.loads(text, parse_float=decimal.Decimal)`` reads it exactly; plain ``json.loads`` rounds it to a
float). An exact fraction is ``{"numerator": int, "denominator": int}`` and a certified ball
``{"mid": number, "rad": number}`` (the exact value lies in ``[mid - rad, mid + rad]``). A float that is not
finite (NaN, infinity) is ``null``: strict JSON has no such numbers. The output is strict JSON (RFC 8259).
"""

from __future__ import annotations

import contextlib
import decimal
import json
import math
import re
import secrets
import sys
from fractions import Fraction
from typing import Any

# a JSON number literal (RFC 8259, section 6)
JSON_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_BALL = re.compile(r"^\[(\S+) \+/- (\S+)\]$")


class Number(str):
    """A JSON number literal, written as is (digits no float can hold)."""

    def __new__(cls, text: str) -> "Number":
        if not JSON_NUMBER.fullmatch(text):
            raise ValueError(f"not a JSON number literal: {text!r}")
        return super().__new__(cls, text)


def _literal(text: str) -> "Number | None":
    """mpmath / flint decimal text as a JSON number literal (``1.5e+20``, ``-0.25``, ``2.0``); None if not finite."""
    text = text.strip()
    if text.lower() in ("inf", "+inf", "-inf", "nan", "+inf.0", "-inf.0"):
        return None
    if text.startswith("+"):
        text = text[1:]
    if text.startswith(".") or text.startswith("-."):
        text = text.replace(".", "0.", 1)
    mant, _, exp = text.partition("e")
    if mant.endswith("."):
        mant += "0"
    return Number(mant + (f"e{int(exp):+d}" if exp else ""))


def mp_number(value, dps: int) -> "Number | None":
    """An mpmath number (or anything ``mpmath.mpf`` takes) as a literal with ``dps`` significant digits."""
    import mpmath

    if isinstance(value, mpmath.mpf):
        v = value
    else:
        with mpmath.workdps(dps + 5):
            v = mpmath.mpf(value)
    if not mpmath.isfinite(v):
        return None
    return _literal(mpmath.nstr(v, dps))


def ball(value, dps: int) -> dict | None:
    """A python-flint ``arb`` as ``{"mid": number, "rad": number}`` with ``dps`` digits of the midpoint; the
    printed radius covers the decimal rounding of the midpoint (flint's own ``str(..., radius=True)``)."""
    text = value.str(dps, radius=True)
    m = _BALL.match(text)
    mid, rad = (m.group(1), m.group(2)) if m else (text, "0")
    mid_n, rad_n = _literal(mid), _literal(rad)
    if mid_n is None or rad_n is None:
        return None
    return {"mid": mid_n, "rad": rad_n}


def fraction(value: Fraction) -> dict:
    """An exact rational as ``{"numerator": int, "denominator": int}`` (lowest terms, denominator > 0)."""
    return {"numerator": value.numerator, "denominator": value.denominator}


def _plain(obj: Any, numbers: dict[str, str], tag: str) -> Any:
    """``obj`` with every number in this module's format; :class:`Number` literals replaced by placeholders."""
    if isinstance(obj, Number):
        key = f"{tag}{len(numbers)}"
        numbers[key] = str(obj)
        return key
    if isinstance(obj, (str, bool)) or obj is None:
        return obj
    if isinstance(obj, Fraction):
        return _plain(fraction(obj), numbers, tag)
    if isinstance(obj, decimal.Decimal):
        return _plain(Number(str(obj)) if obj.is_finite() else None, numbers, tag)
    if isinstance(obj, dict):
        return {str(k): _plain(v, numbers, tag) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v, numbers, tag) for v in obj]
    import numpy as np

    if isinstance(obj, np.ndarray):
        return [_plain(v, numbers, tag) for v in obj.tolist()]
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj) if math.isfinite(obj) else None
    if type(obj).__module__.startswith("mpmath"):
        raise TypeError("an mpmath number needs its digits: write it with seqtheory.cli._json.mp_number(v, dps)")
    raise TypeError(f"cannot write {type(obj).__name__} {obj!r:.60} as JSON")


@contextlib.contextmanager
def long_ints():
    """Allow int -> str beyond CPython's default 4300-digit guard (restored afterwards)."""
    get = getattr(sys, "get_int_max_str_digits", None)
    old = get() if get else None
    if get:
        sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        if get:
            sys.set_int_max_str_digits(old)


def dumps(obj: Any, *, indent: int | None = None) -> str:
    """``obj`` as strict JSON in the command lines' number format (module docstring).

    >>> from fractions import Fraction
    >>> dumps({"Q": Fraction(17, 16), "x": float("nan"), "mp": mp_number("0.1", 20), "n": 10**30})
    '{"Q": {"numerator": 17, "denominator": 16}, "x": null, "mp": 0.1, "n": 1000000000000000000000000000000}'
    >>> import json, decimal, mpmath
    >>> json.loads(dumps({"pi": mp_number(mpmath.pi, 30)}), parse_float=decimal.Decimal)
    {'pi': Decimal('3.14159265358979323846264338328')}
    """
    numbers: dict[str, str] = {}
    tag = f"@@number-{secrets.token_hex(8)}-"
    plain = _plain(obj, numbers, tag)
    with long_ints():
        text = json.dumps(plain, indent=indent, allow_nan=False)
    if numbers:
        text = re.sub('"(' + re.escape(tag) + r'\d+)"', lambda m: numbers[m.group(1)], text)
    return text
