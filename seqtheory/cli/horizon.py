"""``seqtheory horizon {sigma,depth,table} ... [--json]``: initialisation for a horizon (signal propagation).

The scale ``sigma`` of ``W = sigma G / sqrt(n)`` that keeps the energies within ``tol`` of 1 up to depth ``t``
(``sigma``), the depth reachable at a scale (``depth``), and plain Glorot against the best scale (``table``).
Complex weights: the closed forms of :mod:`theory.horizon`; real weights: the exact rows up to depth 60 and
the large-n expansion beyond (:mod:`theory.real_expansion`), or Monte Carlo with ``sigma --method mc``
(:mod:`numerics.signal_propagation.horizon_mc`). ``--init uniform|rademacher|sparse:P|student:NU|moments:M4,...``:
iid real weights of that law instead of a Gaussian field (:mod:`theory.init_laws`: exact rows to depth 12, the
large-n expansion beyond where it is served; with ``--method mc``, Monte Carlo of the law beyond the rows); a law
whose mean energy is infinite from some depth (Student t: from ``2k >= nu``) is said so in one line. The text
output is a sentence with the answer first (an infeasible target says what to change), then the method and
source; ``--json`` prints the result as JSON.
Exit status: 0, or 1 when ``sigma`` finds no feasible scale, 2 for bad input.
"""

from __future__ import annotations

import dataclasses
import math

from ._parser import OneLineParser, flag_message

_DESCRIPTION = ("Initialisation for a horizon (signal propagation): the scale sigma of W = sigma G / sqrt(n) that "
                "keeps the energies within tol of 1 up to depth t.")
# the library's parameter names -> this command's flags, in its error messages
FLAGS = {"k": "--t", "t": "--t", "n": "--n", "tol": "--tol", "sigma": "--sigma", "quantity": "--quantity",
         "method": "--method", "dps": "--dps", "weights": "--field", "field": "--field", "init": "--init",
         "law": "--init"}
SIGMA_METHODS = ("float", "mp", "mc")            # numerics.signal_propagation.horizon_mc.sigma_for_horizon
# depth: float and exact (the closed forms) for complex weights; float (exact rows, then the large-n expansion)
# and mc (exact rows, then Monte Carlo) for real ones
DEPTH_METHODS = {"complex": ("float", "exact"), "real": ("float", "exact", "mc")}


def _parser(prog: str) -> OneLineParser:
    from theory.horizon import FIELDS, QUANTITIES

    p = OneLineParser(prog=prog, description=_DESCRIPTION,
                      epilog="Exit status: 0; 1 when `sigma` finds no feasible scale (the text says what to change).")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    common = OneLineParser(add_help=False)
    common.add_argument("--tol", type=float, required=True, help="tolerance, 0 < tol < 1")
    common.add_argument("--quantity", choices=QUANTITIES, default="S",
                        help="S: driven recurrence, the sum over depths 0..t (default); Q: free recurrence")
    common.add_argument("--json", action="store_true", help="print JSON")
    common.add_argument("--init", default=None, metavar="LAW",
                        help="iid weights of a law instead of a Gaussian field: uniform, rademacher, sparse:P (e.g. "
                             "sparse:0.05), student:NU (e.g. student:6), moments:M4,M6,... (default: Gaussian)")
    field = f"Gaussian weight field: {' or '.join(FIELDS)} (default complex)"
    s = sub.add_parser("sigma", parents=[common], help="scale for a horizon t at width n")
    s.add_argument("--n", type=int, required=True, help="width n (integer >= 1)")
    s.add_argument("--t", type=int, required=True, help="horizon: depth t (integer >= 1)")
    s.add_argument("--field", choices=FIELDS, default="complex",
                   help=field + "; real: exact rows to depth 60, the large-n expansion beyond")
    s.add_argument("--method", choices=SIGMA_METHODS, default="float",
                   help="float (default); mp: --dps digits; mc: Monte Carlo energies (real: beyond the exact rows)")
    s.add_argument("--dps", type=int, default=None,
                   help="decimal digits of --method mp (default: the API's, the ambient mpmath precision, 15 digits)")
    d = sub.add_parser("depth", parents=[common], help="horizon reachable at a scale sigma")
    d.add_argument("--n", type=int, required=True, help="width n (integer >= 1)")
    d.add_argument("--sigma", type=float, required=True, help="weight scale sigma > 0 (1 = Glorot)")
    d.add_argument("--field", choices=FIELDS, default="complex",
                   help=field + "; real: exact rows to depth 60, the large-n expansion beyond")
    d.add_argument("--method", choices=sorted({m for ms in DEPTH_METHODS.values() for m in ms}), default="float",
                   help="float (default); exact: exact rationals (real field: the exact rows, depth < 60); mc: "
                        "exact rows, then Monte Carlo (real field only)")
    tb = sub.add_parser("table", parents=[common], help="Glorot (sigma = 1) against the best scale")
    tb.add_argument("--n", type=int, nargs="+", required=True, help="one or more widths n (integers >= 1)")
    return p


def _at_least(x: float) -> float:
    """``x`` rounded up to 6 significant digits (a tol this large is feasible; rounding down would not be)."""
    up = float(f"{x:.6g}")
    return up if up >= x else float(f"{up + 10 ** (math.floor(math.log10(x)) - 5):.6g}")


def _num(v, dps: int | None = None) -> str:
    """A float to 6 significant digits, an mp value to its ``dps`` digits."""
    if isinstance(v, float):
        return f"{v:.6g}"
    if v is not None and type(v).__module__.startswith("mpmath"):
        import mpmath

        return mpmath.nstr(v, dps or 15)
    return str(v)


def _weights(d: dict) -> str:
    """What the weights are: "complex weights", "real weights", or "iid uniform weights"."""
    return f"iid {d['init']} weights" if d.get("init") else f"{d['field']} weights"


def _sigma_text(d: dict) -> str:
    """The answer first (the scale, or that none exists and what to change), then the details."""
    what = (f"{d['quantity']} within tol = {d['tol']:g} of 1 up to depth t = {d['t']} at width n = {d['n']} "
            f"({_weights(d)})")
    how = f"  method: {d['method']}" + (f", {d['dps']} digits" if d.get("dps") else "") + f"; source: {d['source']}"
    se = ["  Monte Carlo standard errors: " + ", ".join(f"{k} {v:.2g}" for k, v in d["se"].items())] if d["se"] else []
    dps = d.get("dps")
    if not d["feasible"]:
        # tol must stay below 1: raising it is advice only when the best deviation, rounded up to the
        # printed digits, is still below 1
        least = _at_least(float(d["deviation"]))
        raise_tol = f"raise --tol to at least {least:g}, " if least < 1 else ""
        shorten = (f"shorten --t to at most {d['max_t']} (the longest horizon at this tol)"
                   if d.get("max_t") is not None else "shorten --t")
        return "\n".join([f"No weight scale keeps {what}: the best, sigma = {_num(d['sigma'], dps)}, deviates by "
                          f"{_num(d['deviation'], dps)} > tol.",
                          f"  To make it feasible: {raise_tol}{shorten}, or widen --n (the horizon grows like "
                          "sqrt(n)).", how, *se])
    glorot = d["glorot_deviation"]
    inside = "within" if glorot is not None and float(glorot) <= d["tol"] else "outside"
    return "\n".join([f"sigma = {_num(d['sigma'], dps)} keeps {what}.",
                      f"  every sigma in [{_num(d['sigma_low'], dps)}, {_num(d['sigma_high'], dps)}] does; the best "
                      f"deviation is {_num(d['deviation'], dps)}; plain Glorot (sigma = 1) deviates by "
                      f"{_num(glorot, dps)} ({inside} tol)", how, *se])


def _depth_text(d: dict) -> str:
    se = f" (Monte Carlo se {d['se']:.2g})" if d.get("se") else ""
    lines = [f"depth t = {d['depth']}{se}: at sigma = {d['sigma']:g}, {d['quantity']} stays within tol = "
             f"{d['tol']:g} of 1 up to depth {d['depth']} at width n = {d['n']} ({_weights(d)}).",
             f"  plain Glorot (sigma = 1) reaches depth {d['depth_glorot']}"]
    note = [f"  {d['note']}: no scale reaches past depth {d['depth']}"] if d.get("note") else []
    return "\n".join(lines + note + ([f"  source: {d['source']}"] if d.get("source") else []))


def _table_text(rows: list) -> str:
    keys = list(rows[0])
    lines = ["Plain Glorot (sigma = 1) against the best scale, per width n:", "  ".join(f"{k:>10}" for k in keys)]
    for r in rows:
        lines.append("  ".join(f"{v:>10.4g}" if isinstance(v, float) else f"{v!s:>10}" for v in r.values()))
    return "\n".join(lines)


def _text(command: str, obj) -> str:
    return {"sigma": _sigma_text, "depth": _depth_text, "table": _table_text}[command](obj)


def _sigma(args) -> dict:
    """``sigma``: the library's HorizonScale as a dict (mp values kept as mpf: the output gives their digits)."""
    from numerics.signal_propagation.horizon_mc import sigma_for_horizon
    from theory.horizon import max_horizon

    kw = {"quantity": args.quantity, "field": args.field, "method": args.method}
    if args.dps is not None:
        kw["dps"] = args.dps
    if args.init is not None:
        kw["init"] = _law(args)
    r = sigma_for_horizon(args.n, args.t, args.tol, **kw)
    out = {f.name: getattr(r, f.name) for f in dataclasses.fields(r)}
    out["feasible"] = r.feasible
    if not r.feasible and args.field == "complex" and args.init is None:     # what to change: the longest horizon
        out["max_t"] = max_horizon(args.n, args.tol, quantity=args.quantity)[0]
    return out


def _law(args):
    """The law of ``--init`` (its entries are real: ``--field`` is not used)."""
    from theory.init_laws import as_law

    return as_law(args.init, name="init")


def _depth(args) -> dict:
    """``depth``: the horizon at ``--sigma`` and at Glorot, by the method ``--method`` names for ``--field``."""
    from numerics.signal_propagation.horizon_mc import depth_with_se
    from theory.horizon import depth_for_scale

    if args.init is not None:
        law = _law(args)
        head = {"n": args.n, "sigma": args.sigma, "tol": args.tol, "quantity": args.quantity, "field": "real",
                "init": law.name}
        if args.method == "exact":
            raise ValueError(f"--method exact applies to Gaussian weights; with --init {law.name} use --method float "
                             "(exact rows, then the large-n expansion) or mc")
        out = depth_with_se(args.n, args.sigma, args.tol, quantity=args.quantity, method=args.method, init=law)
        glorot = depth_with_se(args.n, 1.0, args.tol, quantity=args.quantity, method=args.method, init=law)
        return {**head, **out, "depth_glorot": glorot["depth"], "depth_glorot_se": glorot["se"]}
    if args.method not in DEPTH_METHODS[args.field]:
        raise ValueError(f"--method {args.method} applies to --field real only (complex weights have closed forms: "
                         f"--method {' or '.join(DEPTH_METHODS['complex'])})")
    head = {"n": args.n, "sigma": args.sigma, "tol": args.tol, "quantity": args.quantity, "field": args.field}
    if args.field == "complex" or args.method == "exact":
        def depth(sigma):
            return depth_for_scale(args.n, sigma, args.tol, quantity=args.quantity, method=args.method,
                                   field=args.field)
        source = ("closed form (Seleznova 2026, Thm 2.1)" if args.field == "complex"
                  else "exact real Wick rows (theory.real_rows)")
        return {**head, "depth": depth(args.sigma), "se": 0.0, "source": source, "depth_glorot": depth(1.0)}
    out = depth_with_se(args.n, args.sigma, args.tol, quantity=args.quantity, method=args.method,
                        field=args.field)
    glorot = depth_with_se(args.n, 1.0, args.tol, quantity=args.quantity, method=args.method,
                           field=args.field)
    note = {"depth_glorot_note": glorot["note"]} if "note" in glorot else {}
    return {**head, **out, "depth_glorot": glorot["depth"], "depth_glorot_se": glorot["se"], **note}


def _run(args) -> object:
    from theory.horizon import glorot_table

    if args.command == "sigma":
        return _sigma(args)
    if args.command == "depth":
        return _depth(args)
    return glorot_table(args.n, args.tol, quantity=args.quantity,
                        init=None if args.init is None else _law(args))


def _json_ready(out, dps: int | None):
    """mp values as JSON number literals of their ``dps`` digits (:mod:`seqtheory.cli._json`)."""
    from ._json import mp_number

    if isinstance(out, dict):
        return {k: _json_ready(v, dps) for k, v in out.items()}
    if isinstance(out, list):
        return [_json_ready(v, dps) for v in out]
    return mp_number(out, dps or 15) if type(out).__module__.startswith("mpmath") else out


def main(argv: list[str] | None = None, *, prog: str = "seqtheory horizon") -> int:
    """The command line; a bad value is one line on stderr naming it, exit status 2."""
    from ._json import dumps

    parser = _parser(prog)
    args = parser.parse_args(argv)
    try:
        out = _run(args)
    except (ValueError, TypeError) as exc:
        parser.error(flag_message(str(exc), FLAGS))
    dps = out.get("dps") if isinstance(out, dict) else None
    print(dumps(_json_ready(out, dps), indent=1) if args.json else _text(args.command, out))
    return 1 if args.command == "sigma" and not out["feasible"] else 0
