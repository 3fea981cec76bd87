"""(private) The command lines' argument parsing: a usage error is one line on stderr and exit status 2, and
integers may be written ``1024``, ``1_000_000``, ``1e18`` or ``10**18``."""

from __future__ import annotations

import argparse
import decimal
import math
import re
import sys
from typing import NoReturn

# Integer literals in scientific or power notation are expanded only up to this many digits.
_MAX_LITERAL_DIGITS = 1000
_POWER = re.compile(r"^\s*(\d[\d_]*)\s*\*\*\s*(\d[\d_]*)\s*$")


class OneLineParser(argparse.ArgumentParser):
    """argparse, with a usage error as one line (the full usage is one ``--help`` away).

    >>> p = OneLineParser(prog="demo")
    >>> _ = p.add_argument("--n", type=int, required=True, help="width")
    >>> p.parse_args(["--n", "x"])
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def fail(prog: str, message: str) -> int:
    """Print ``prog: error: message`` (one line) on stderr; returns the exit status 2."""
    print(f"{prog}: error: {message}", file=sys.stderr)
    return 2


def parse_int(text: str) -> int:
    """An exactly representable integer from ``123``, ``1_000``, ``1e18``, ``2.5e3`` or ``10**18``.

    >>> parse_int("1e18") == 10**18 and parse_int("10**18") == 10**18 and parse_int("2.5e3")
    2500
    >>> parse_int("1.5")
    Traceback (most recent call last):
    ...
    ValueError: '1.5' is not an integer
    >>> parse_int("1__0")
    Traceback (most recent call last):
    ...
    ValueError: '1__0' is not an integer
    """
    m = _POWER.match(text)
    if m:
        base, exp = int(m.group(1)), int(m.group(2))
        if base > 1 and exp * math.log10(base) > _MAX_LITERAL_DIGITS:
            raise ValueError(f"{text!r} has more than {_MAX_LITERAL_DIGITS} digits")
        return base**exp
    try:
        if "_" in text:
            float(text)             # Python's own rule: one underscore between digits ("1__0", "_1" are typos)
        d = decimal.Decimal(text.strip().replace("_", ""))
    except (decimal.InvalidOperation, ValueError):
        raise ValueError(f"{text!r} is not an integer") from None
    if not d.is_finite():
        raise ValueError(f"{text!r} is not an integer")
    if d.adjusted() > _MAX_LITERAL_DIGITS:
        raise ValueError(f"{text!r} has more than {_MAX_LITERAL_DIGITS} digits")
    if d != d.to_integral_value():
        raise ValueError(f"{text!r} is not an integer")
    return int(d)


def int_arg(minimum: int, maximum: int | None = None):
    """An argparse type: an integer (:func:`parse_int` notations) in ``[minimum, maximum]``."""
    def parse(text: str) -> int:
        try:
            value = parse_int(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"expected an integer >= {minimum}: {exc}") from None
        if value < minimum or (maximum is not None and value > maximum):
            allowed = f">= {minimum}" if maximum is None else f"in [{minimum}, {maximum}]"
            raise argparse.ArgumentTypeError(f"expected an integer {allowed}, got {value}")
        return value

    return parse


MAX_POSITIVE = 10**18      # counts and seconds of the command lines: past any machine, and still a float


def positive(text: str) -> int:
    """An argparse type: an integer in ``[1, MAX_POSITIVE]``."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text[:40]!r}") from None
    if not 1 <= value <= MAX_POSITIVE:
        got = value if value < 1 else f"a {len(str(value))}-digit integer"
        raise argparse.ArgumentTypeError(f"expected an integer in [1, 10**18], got {got}")
    return value


def seconds(text: str) -> float:
    """An argparse type: a time limit in seconds, a finite number > 0 (``nan`` and ``inf`` are no limit at all).

    >>> seconds("60"), seconds("1e-3")
    (60.0, 0.001)
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text[:40]!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"expected a finite number of seconds > 0, got {value}")
    return value


def flag_message(message: str, flags: dict[str, str]) -> str:
    """A library error with its parameter names written as the command line's flags (the words the user typed).

    ``flags`` maps a library parameter to its flag (``{"k": "--t", "n": "--n", "method": "--method"}``): the
    name where it starts a clause (``k must ...``) becomes the flag, ``name=value`` (also ``name = value``,
    ``name 'value'``) becomes ``--flag value``, and a one-letter name inside a formula becomes the flag's
    letter (``(k+2) log2(n+k+2)``: ``(t+2) ...``).

    >>> flag_message("k must satisfy (k+2) log2(n+k+2) <= 99 (got n=4, k=7): use method='mp'",
    ...              {"k": "--t", "n": "--n", "method": "--method"})
    '--t must satisfy (t+2) log2(n+t+2) <= 99 (got --n 4, --t 7): use --method mp'
    """
    for name, flag in flags.items():
        word = rf"(?<![\w.'\-]){re.escape(name)}(?![\w'])"
        message = re.sub(word + r"\s?=\s?('?)([^,;:)\s']*)\1", lambda m: f"{flag} {m.group(2)}", message)
        if len(name) > 1:                        # method 'mp' -> --method mp
            message = re.sub(word + r" '([^'\s]*)'", lambda m: f"{flag} {m.group(1)}", message)
        message = re.sub(word + r"(?=\s+(?:must|is|are|applies|and|or|needs)\b)", flag, message)
        if len(name) == 1 and len(flag.lstrip("-")) == 1 and name != flag.lstrip("-"):
            message = re.sub(rf"(?<![\w'\-]){name}(?![\w'])", flag.lstrip("-"), message)
    return message
