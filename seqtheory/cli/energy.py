"""``seqtheory energy --n N --t T [--dps D] [--method M] [--max-seconds S] [--json]``: exact finite-width signal energies.

Prints ``Q_{n,t}`` (free recurrence after t steps), ``S_{n,t} = sum_{k<=t} Q_{n,k}`` (driven recurrence,
t + 1 inputs), their infinite-width values (1 and t + 1), ``c = t/sqrt(n)`` and the regime
(:func:`theory.regimes.regime`). Closed forms: Seleznova (2026), Theorem 2.1 (``theory.signal_energy``).
Integers may be written ``1024``, ``1_000_000``, ``1e18`` or ``10**18`` (exactly representable integers only);
``--json`` prints one JSON object instead of text, for scripts.
"""

from __future__ import annotations

import math
import sys

from theory._args import MAX_DPS, MIN_DPS

from ._json import long_ints
from ._parser import OneLineParser, flag_message, int_arg, seconds

# Exact fractions longer than this are not printed digit by digit: a 10**6-digit line helps nobody, and
# decimal conversion of huge ints is slow (CPython caps it at 4300 digits by default for that reason).
MAX_EXACT_DIGITS = 20_000
# Measured on a 2-core x86 machine (AMD EPYC): ~1e6 certified terms per second for ``--method ball``.
_BALL_TERMS_PER_S = 1e6
_NOTICE_TERMS = 10**6
# the library's parameter names -> this command's flags, in its error messages (Q's depth is k, S's t)
FLAGS = {"k": "--t", "t": "--t", "n": "--n", "dps": "--dps", "method": "--method"}


_DESCRIPTION = ("Exact finite-width signal energies Q_{n,t} and S_{n,t} of a width-n linear recurrence with "
                "Ginibre weights (Seleznova 2026, Theorem 2.1), their infinite-width values, c = t/sqrt(n) "
                "and the regime. Integers may be written 1024, 1_000_000, 1e18 or 10**18.")


def _parser(prog: str) -> OneLineParser:
    e = OneLineParser(prog=prog, description=_DESCRIPTION)
    e.add_argument("--n", required=True, type=int_arg(1), help="width n (integer >= 1; 1e18 and 10**18 accepted)")
    e.add_argument("--t", required=True, type=int_arg(0), help="depth / time t (integer >= 0)")
    e.add_argument("--dps", type=int_arg(MIN_DPS, MAX_DPS), default=None,
                   help=f"decimal digits, {MIN_DPS}..{MAX_DPS} (method mp/ball; default: the API's, the ambient mpmath "
                        "precision, 15 digits; float prints 17 significant digits)")
    e.add_argument("--method", choices=("mp", "float", "exact", "ball"), default=None,
                   help="evaluation method (default: mp when --dps is given, else float)")
    e.add_argument("--max-seconds", type=seconds, default=60.0,
                   help="refuse up front a computation estimated to take longer (high --dps, long exact or ball "
                        "sums; default 60)")
    e.add_argument("--json", action="store_true", help="print one JSON object (inputs, values, c, regime, method, dps)")
    return e


def _digits(x: int) -> int:
    """Decimal digits of |x| (exact; no decimal conversion)."""
    x = abs(x)
    d = max(1, int(x.bit_length() * math.log10(2)))
    return d + (x >= 10**d) if x else 1


def _exact_text(v) -> tuple[str | None, str | None]:
    """(the fraction as text, or None; a one-line note when it is too long to print)."""
    num, den = v.numerator, v.denominator
    dn, dd = _digits(num), _digits(den)
    if dn + dd > MAX_EXACT_DIGITS:
        return None, (f"exact fraction with a {dn}-digit numerator and a {dd}-digit denominator, over "
                      f"{MAX_EXACT_DIGITS} digits: not printed; use --method mp --dps D for D digits")
    with long_ints():
        return (str(num) if den == 1 else f"{num}/{den}"), None


# the mp / ball paths' cost at high precision (log-gamma at dps digits), measured on the development machine:
# about 1 s at 10,000 digits, 60 s at 100,000 (~ dps^1.8)
_MP_SECONDS_AT_1E4 = 1.0
_DPS_EXPONENT = 1.8


def _check_cost(method: str, n: int, t: int, dps: int | None, max_seconds: float) -> None:
    """Refuse up front (one line naming the argument and the limit) a computation estimated to take longer
    than ``--max-seconds``: the precision (mp/ball) and the O(t) sums (ball's direct sum, exact fractions)."""
    from theory.signal_energy import S_ball_is_direct

    estimates = []
    if method in ("mp", "ball") and dps is not None:
        estimates.append((_MP_SECONDS_AT_1E4 * (dps / 1e4) ** _DPS_EXPONENT, f"--dps {dps}"))
    if method == "ball" and dps is not None and t + 1 > _NOTICE_TERMS and S_ball_is_direct(n, t, dps):
        estimates.append(((t + 1) / _BALL_TERMS_PER_S, f"--t {t} (a direct sum of t + 1 certified terms)"))
    if method == "exact":
        # binary splitting of a fraction of ~ t log10(n) digits: ~ 1 s per 3e6 digits (quasi-linear)
        estimates.append(((t + 1) * max(1.0, math.log10(n + 1)) / 3e6, f"--t {t} (an exact fraction of ~ t log10 n digits)"))
    for sec, what in estimates:
        if sec > max_seconds:
            raise ValueError(f"{what}: about {sec:.3g} s estimated, over the limit of --max-seconds {max_seconds:g}; "
                             "raise --max-seconds to run it anyway" + ("" if method != "ball" else
                                                                      ", or use --method mp"))


def _notice(method: str, n: int, t: int, dps: int | None) -> str | None:
    """An up-front estimate for the O(t) paths, printed on stderr before a long computation (the ball sums
    all terms only where neither its series nor its supercritical top terms apply)."""
    from theory.signal_energy import S_ball_is_direct

    if method == "ball" and t + 1 > _NOTICE_TERMS and dps is not None and S_ball_is_direct(n, t, dps):
        sec = (t + 1) / _BALL_TERMS_PER_S
        return (f"note: --method ball sums t + 1 = {t + 1:.3g} certified terms, about {sec:.0f} s at "
                f"~{_BALL_TERMS_PER_S:.0e} terms/s; --method mp is fast at any t")
    if method == "exact" and t > 10**4:
        return (f"note: --method exact builds a fraction of about t log10(n) digits with t = {t}: this takes "
                f"a while (minutes past t ~ 1e5); --method mp --dps D is fast")
    return None


def _value(fn, log_fn, n: int, t: int, method: str, dps: int | None) -> dict:
    """One energy as {'text', 'value' (for --json: seqtheory.cli._json), 'log' (natural log, on float
    overflow), 'note'}."""
    import mpmath

    from . import _json

    try:
        v = fn(n, t, method=method, dps=dps)
    except OverflowError:
        lg = log_fn(n, t)
        return {"text": f"exp({lg!r})   (exceeds float64; use --dps)", "value": None, "log": lg, "note": None}
    if method == "float":
        return {"text": repr(v), "value": v, "log": None, "note": None}
    if method == "mp":
        return {"text": mpmath.nstr(v, dps), "value": _json.mp_number(v, dps), "log": None, "note": None}
    if method == "ball":
        return {"text": v.str(dps, radius=True), "value": _json.ball(v, dps), "log": None, "note": None}
    s, note = _exact_text(v)
    if s is None:
        return {"text": note, "value": None, "log": None, "note": note}
    return {"text": s, "value": v, "log": None, "note": None}


def _energy(args) -> dict:
    from theory.regimes import regime
    from theory._args import as_dps
    from theory.signal_energy import S, Q, log_Q, log_S
    from theory.signal_energy._checks import _check_exact_cost

    method = args.method or ("mp" if args.dps is not None else "float")
    if method in ("float", "exact") and args.dps is not None:
        raise ValueError(f"--dps applies only to --method mp or ball, not {method}")
    # the API's default: dps=None is the ambient mpmath precision (mpmath's 15 digits in a fresh process)
    dps = as_dps(args.dps, name="--dps") if method in ("mp", "ball") else None
    n, t = args.n, args.t
    if method == "exact":          # refuse what the exact path refuses before announcing a long computation
        _check_exact_cost(n, t, "Q")
        _check_exact_cost(n, t, "S")
    _check_cost(method, n, t, dps, args.max_seconds)
    notice = _notice(method, n, t, dps)
    if notice:
        print(notice, file=sys.stderr, flush=True)
    return {"n": n, "t": t, "method": method, "dps": dps,
            "Q": _value(Q, log_Q, n, t, method, dps), "S": _value(S, log_S, n, t, method, dps),
            "Q_infinite_width": 1, "S_infinite_width": t + 1,
            "c": t / math.sqrt(n), "regime": regime(n, t)}


def _as_text(r: dict) -> str:
    head = f"n = {r['n']}, t = {r['t']}, method = {r['method']}" + (f", dps = {r['dps']}" if r["dps"] else "")
    return "\n".join([
        head,
        f"Q_{{n,t}} = {r['Q']['text']}   infinite width: {r['Q_infinite_width']}",
        f"S_{{n,t}} = {r['S']['text']}   infinite width: {r['S_infinite_width']}",
        f"c = t/sqrt(n) = {r['c']!r}",
        f"regime = {r['regime']}",
    ])


def _as_json(r: dict) -> str:
    """One object in the command lines' number format (:mod:`seqtheory.cli._json`): float and mp values are
    JSON numbers (mp with its ``dps`` digits), exact values ``{"numerator", "denominator"}``, balls
    ``{"mid", "rad"}``."""
    from . import _json

    out = {k: r[k] for k in ("n", "t", "method", "dps")}
    for name in ("Q", "S"):
        out[name] = r[name]["value"]
        if r[name]["log"] is not None:
            out[f"log_{name}"] = r[name]["log"]
        if r[name]["note"] is not None:
            out[f"{name}_note"] = r[name]["note"]
    out.update({k: r[k] for k in ("Q_infinite_width", "S_infinite_width", "c", "regime")})
    return _json.dumps(out)


def main(argv: list[str] | None = None, *, prog: str = "seqtheory energy") -> int:
    parser = _parser(prog)
    args = parser.parse_args(argv)
    try:
        result = _energy(args)
    except (ValueError, TypeError, ImportError, ArithmeticError) as exc:
        # one line, exit 2 (as argparse's own errors, without the usage block), naming the flags
        print(f"{parser.prog}: error: {flag_message(str(exc), FLAGS)}", file=sys.stderr)
        raise SystemExit(2) from None
    print(_as_json(result) if args.json else _as_text(result))
    return 0

