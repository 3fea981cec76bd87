"""``seqtheory horizon {sigma,depth,table} ... [--json]``: initialisation for a horizon (signal propagation).

The scale ``sigma`` of ``W = sigma G / sqrt(n)`` that keeps the energies within ``tol`` of 1 up to depth ``t``
(``sigma``), the depth reachable at a scale (``depth``), and plain Glorot against the best scale (``table``).
Complex weights: the closed forms of :mod:`theory.horizon`; real weights: the exact rows up to depth 60 and
the large-n expansion beyond (:mod:`theory.real_expansion`), or Monte Carlo with ``sigma --method mc``
(:mod:`numerics.signal_propagation.horizon_mc`). The text output is a sentence with the answer first (an
infeasible target says what to change), then the method and source; ``--json`` prints the result as JSON.
Exit status: 0, or 1 when ``sigma`` finds no feasible scale, 2 for bad input.
"""

from __future__ import annotations

import json

from ._parser import OneLineParser

_DESCRIPTION = ("Initialisation for a horizon (signal propagation): the scale sigma of W = sigma G / sqrt(n) that "
                "keeps the energies within tol of 1 up to depth t.")


def _parser(prog: str) -> OneLineParser:
    from theory.horizon import DEPTH_METHODS, FIELDS as WEIGHTS, QUANTITIES

    p = OneLineParser(prog=prog, description=_DESCRIPTION,
                      epilog="Exit status: 0; 1 when `sigma` finds no feasible scale (the text says what to change).")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    common = OneLineParser(add_help=False)
    common.add_argument("--tol", type=float, required=True, help="tolerance, 0 < tol < 1")
    common.add_argument("--quantity", choices=QUANTITIES, default="Q", help="Q: free recurrence; S: driven")
    common.add_argument("--json", action="store_true", help="print JSON")
    weights = (f"weight field: {' or '.join(WEIGHTS)} Gaussian (default complex); real: exact rows to depth 60, "
               "the large-n expansion beyond (--method mc: Monte Carlo)")
    s = sub.add_parser("sigma", parents=[common], help="scale for a horizon t at width n")
    s.add_argument("--n", type=int, required=True, help="width n (integer >= 1)")
    s.add_argument("--t", type=int, required=True, help="horizon: depth t (integer >= 1)")
    s.add_argument("--weights", choices=WEIGHTS, default="complex", help=weights)
    s.add_argument("--method", default="float", help="float | mp (real weights: also mc, Monte Carlo)")
    s.add_argument("--dps", type=int, default=None, help="decimal digits of method mp (default: the API's, the ambient mpmath precision, 15 digits)")
    d = sub.add_parser("depth", parents=[common], help="horizon reachable at a scale sigma")
    d.add_argument("--n", type=int, required=True, help="width n (integer >= 1)")
    d.add_argument("--sigma", type=float, required=True, help="weight scale sigma > 0 (1 = Glorot)")
    d.add_argument("--method", choices=DEPTH_METHODS, default="float", help="float or exact (complex weights)")
    d.add_argument("--weights", choices=WEIGHTS, default="complex", help=weights)
    tb = sub.add_parser("table", parents=[common], help="Glorot (sigma = 1) against the best scale")
    tb.add_argument("--n", type=int, nargs="+", required=True, help="one or more widths n (integers >= 1)")
    return p


def _num(v) -> str:
    """A float to 6 significant digits; an mp value (a decimal string in the JSON dict) as given."""
    return f"{v:.6g}" if isinstance(v, float) else str(v)


def _sigma_text(d: dict) -> str:
    """The answer first (the scale, or that none exists and what to change), then the details."""
    what = (f"{d['quantity']} within tol = {d['tol']:g} of 1 up to depth t = {d['t']} at width n = {d['n']} "
            f"({d['field']} weights)")
    how = f"  method: {d['method']}" + (f", {d['dps']} digits" if d.get("dps") else "") + f"; source: {d['source']}"
    se = ["  Monte Carlo standard errors: " + ", ".join(f"{k} {v:.2g}" for k, v in d["se"].items())] if d["se"] else []
    if not d["feasible"]:
        return "\n".join([f"No weight scale keeps {what}: the best, sigma = {_num(d['sigma'])}, deviates by "
                          f"{_num(d['deviation'])} > tol.",
                          f"  To make it feasible: raise --tol to at least {_num(d['deviation'])}, "
                          + (f"shorten --t to at most {d['max_t']} (the longest horizon at this tol), "
                             if d.get("max_t") is not None else "shorten --t, ")
                          + "or widen --n (the horizon grows like sqrt(n)).", how, *se])
    glorot = d["glorot_deviation"]
    inside = "within" if glorot is not None and float(glorot) <= d["tol"] else "outside"
    return "\n".join([f"sigma = {_num(d['sigma'])} keeps {what}.",
                      f"  every sigma in [{_num(d['sigma_low'])}, {_num(d['sigma_high'])}] does; the best deviation "
                      f"is {_num(d['deviation'])}; plain Glorot (sigma = 1) deviates by {_num(glorot)} ({inside} tol)",
                      how, *se])


def _depth_text(d: dict) -> str:
    se = f" (Monte Carlo se {d['se']:.2g})" if d.get("se") else ""
    lines = [f"depth t = {d['depth']}{se}: at sigma = {d['sigma']:g}, {d['quantity']} stays within tol = "
             f"{d['tol']:g} of 1 up to depth {d['depth']} at width n = {d['n']} ({d['field']} weights).",
             f"  plain Glorot (sigma = 1) reaches depth {d['depth_glorot']}"]
    return "\n".join(lines + ([f"  source: {d['source']}"] if d.get("source") else []))


def _table_text(rows: list) -> str:
    keys = list(rows[0])
    lines = ["Plain Glorot (sigma = 1) against the best scale, per width n:", "  ".join(f"{k:>10}" for k in keys)]
    for r in rows:
        lines.append("  ".join(f"{v:>10.4g}" if isinstance(v, float) else f"{v!s:>10}" for v in r.values()))
    return "\n".join(lines)


def _text(command: str, obj) -> str:
    return {"sigma": _sigma_text, "depth": _depth_text, "table": _table_text}[command](obj)


def _run(args) -> object:
    from numerics.signal_propagation.horizon_mc import depth_with_se as depth_mc, sigma_for_horizon
    from theory.horizon import depth_for_scale, glorot_table, max_horizon

    if args.command == "sigma":
        kw = {"quantity": args.quantity, "field": args.weights, "method": args.method}
        if args.dps is not None:
            kw["dps"] = args.dps
        out = sigma_for_horizon(args.n, args.t, args.tol, **kw).to_dict()
        if not out["feasible"] and args.weights == "complex":      # what to change: the longest feasible horizon
            out["max_t"] = max_horizon(args.n, args.tol, quantity=args.quantity)[0]
        return out
    if args.command == "depth" and args.weights != "complex":
        out = depth_mc(args.n, args.sigma, args.tol, quantity=args.quantity, field=args.weights)
        glorot = depth_mc(args.n, 1.0, args.tol, quantity=args.quantity, field=args.weights)
        note = {"depth_glorot_note": glorot["note"]} if "note" in glorot else {}
        return {"n": args.n, "sigma": args.sigma, "tol": args.tol, "quantity": args.quantity, "field": args.weights,
                **out, "depth_glorot": glorot["depth"], "depth_glorot_se": glorot["se"], **note}
    if args.command == "depth":
        t = depth_for_scale(args.n, args.sigma, args.tol, quantity=args.quantity, method=args.method)
        return {"n": args.n, "sigma": args.sigma, "tol": args.tol, "quantity": args.quantity, "field": "complex",
                "depth": t, "source": "closed form (Seleznova 2026, Thm 2.1)",
                "depth_glorot": depth_for_scale(args.n, 1.0, args.tol, quantity=args.quantity, method=args.method)}
    return glorot_table(args.n, args.tol, quantity=args.quantity)


def main(argv: list[str] | None = None, *, prog: str = "seqtheory horizon") -> int:
    """The command line; a bad value is one line on stderr naming it, exit status 2."""
    parser = _parser(prog)
    args = parser.parse_args(argv)
    try:
        out = _run(args)
    except (ValueError, TypeError) as exc:
        parser.error(str(exc))
    print(json.dumps(out, indent=1) if args.json else _text(args.command, out))
    return 1 if args.command == "sigma" and not out["feasible"] else 0
