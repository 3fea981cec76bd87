"""``python -m theory energy --n N --t T [--dps D] [--method M]``: exact finite-width signal energies.

Prints ``Q_{n,t}`` (free recurrence after t steps), ``S_{n,t} = sum_{k<=t} Q_{n,k}`` (driven recurrence,
t + 1 inputs), their infinite-width values (1 and t + 1), ``c = t/sqrt(n)`` and the regime
(:func:`theory.regimes.regime`). Closed forms: Seleznova (2026), Theorem 2.1 (``theory.signal_energy``).
"""

from __future__ import annotations

import argparse
import sys


def _positive_int(minimum: int):
    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer >= {minimum}, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected an integer >= {minimum}, got {value}")
        return value

    return parse


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m theory", description=__doc__.split("\n\n")[1])
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    e = sub.add_parser("energy", help="Q_{n,t}, S_{n,t}, c = t/sqrt(n) and the regime",
                       description="Q_{n,t}, S_{n,t}, c = t/sqrt(n) and the depth-width regime.")
    e.add_argument("--n", required=True, type=_positive_int(1), help="width n (integer >= 1)")
    e.add_argument("--t", required=True, type=_positive_int(0), help="depth / time t (integer >= 0)")
    e.add_argument("--dps", type=_positive_int(1), default=None,
                   help="decimal digits (method mp/ball; default 30 = theory._args.DEFAULT_DPS, 17 significant digits printed for float)")
    e.add_argument("--method", choices=("mp", "float", "exact", "ball"), default=None,
                   help="evaluation method (default: mp when --dps is given, else float)")
    return p


def _energy(args) -> str:
    import math

    import mpmath

    from .regimes import regime
    from .signal_energy import DEFAULT_DPS, S, Q, log_Q, log_S

    method = args.method or ("mp" if args.dps is not None else "float")
    if method in ("float", "exact") and args.dps is not None:
        raise ValueError(f"--dps applies only to --method mp or ball, not {method}")
    dps = args.dps if method in ("mp", "ball") else None
    n, t = args.n, args.t
    lines = [f"n = {n}, t = {t}, method = {method}" + (f", dps = {dps or DEFAULT_DPS}" if method in ("mp", "ball") else "")]

    def show(name, fn, log_fn, infinite):
        try:
            v = fn(n, t, method=method, dps=dps)
        except OverflowError:
            lines.append(f"{name} = exp({log_fn(n, t)!r})   (exceeds float64; use --dps)   infinite width: {infinite}")
            return
        if method == "mp":
            text = mpmath.nstr(v, dps or DEFAULT_DPS)
        elif method == "float":
            text = repr(v)
        elif method == "ball":
            text = v.str(dps or DEFAULT_DPS, radius=True)
        else:
            text = str(v)
        lines.append(f"{name} = {text}   infinite width: {infinite}")

    show("Q_{n,t}", Q, log_Q, 1)
    show("S_{n,t}", S, log_S, t + 1)
    lines.append(f"c = t/sqrt(n) = {t / math.sqrt(n)!r}")
    lines.append(f"regime = {regime(n, t)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        print(_energy(args))
    except (ValueError, TypeError, ImportError) as exc:
        parser.error(str(exc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
