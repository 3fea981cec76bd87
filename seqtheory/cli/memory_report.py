"""``seqtheory memory-report (--kind K --alpha A [--T T] | --file F) [--results PATH] [--json]``: the memory
report of a target (:func:`numerics.memory_functions.memory_report.memory_report`): tail-energy complexity,
effective rank, exponential-sum order, nearest benchmarked family and the architectures that did best there.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ._parser import OneLineParser


def _load_file(path: str) -> np.ndarray:
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"--file {path}: no such file")
    if p.suffix.lower() == ".npy":
        return np.load(p, allow_pickle=False)
    return np.loadtxt(p, delimiter="," if p.suffix.lower() == ".csv" else None, ndmin=1)


def _summary(p) -> str:
    n = p.nearest
    lines = [f"T = {p.T}",
             f"tail energy: effective support (sorted) = {p.tail_energy['effective_support_sorted']:.4g}, "
             f"positional = {p.tail_energy['effective_support_positional']:.4g}",
             "effective rank: " + ", ".join(f"{k} = {v:.4g}" for k, v in p.effective_rank.items())]
    if p.prony is not None:
        pr = p.prony
        order = pr["order"] if pr["reached"] else f"> {pr['m_tried']} (not reached)"
        lines.append(f"exponential sum: order {order} for residual <= {pr['tol']:g}; residual {pr['residual']:.3g}, "
                     f"condition {pr['condition']:.3g}, time-scale spread {pr['timescale_spread']:.3g}")
    lines.append(f"nearest family: {n['kind']} alpha = {n['alpha']:.4g}, mismatch D = {n['mismatch']:.3g}"
                 + (f"  -- FAR from every benchmarked family (D > {p.far_threshold})" if p.far else ""))
    b = p.benchmark
    if not b["available"]:
        lines.append(b["message"])
    else:
        lines.append(f"benchmark cell ({b['kind']}, alpha = {b['alpha']}), mismatch {b['cell_mismatch']:.3g}"
                     + (":" if b["ranked"] else ""))
        lines += [f"  {c['model']:>16}  median RelMSE {c['median_relmse']:.3g}" for c in b["ranking"]]
        if "message" in b:
            lines.append(b["message"])
    return "\n".join(lines)


def main(argv: list[str] | None = None, *, prog: str = "seqtheory memory-report") -> int:
    """The command line; a bad value is one line on stderr naming it, exit status 2."""
    from numerics.memory_functions.memory_report import (DEFAULT_T, FAR_THRESHOLD, MIN_T, PRONY_TOL,
                                                          memory_report)
    from theory._args import MAX_LENGTH
    from theory.memory import KINDS, memory_function

    ap = OneLineParser(prog=prog, description="Memory report of a target: tail-energy complexity, effective rank, "
                       "exponential-sum order, nearest benchmarked family and the architectures that did best there.")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--kind", choices=KINDS, help="a toolkit family (with --alpha and --T)")
    src.add_argument("--file", help="memory function over lags 0..T-1: .npy, .csv or whitespace text")
    ap.add_argument("--alpha", type=float, help="temporal strength in [0, 1] (with --kind)")
    ap.add_argument("--T", type=int, help=f"length, {MIN_T}..{MAX_LENGTH} (with --kind; default {DEFAULT_T}, the "
                    "packaged benchmark's length; a file sets T = its length)")
    ap.add_argument("--results", default=None,
                    help="benchmark results or rows file (default: the packaged CPU-scale results)")
    ap.add_argument("--prony-tol", type=float, default=PRONY_TOL,
                    help=f"residual the exponential-sum order must reach, in (0, 1] (default {PRONY_TOL:g})")
    ap.add_argument("--m-max", type=int, default=None, help="largest exponential-sum order tried (default min(12, T/2))")
    ap.add_argument("--no-prony", action="store_true", help="skip the exponential-sum fits")
    ap.add_argument("--far-threshold", type=float, default=FAR_THRESHOLD,
                    help=f"mismatch beyond which the target counts as far and no architecture is ranked, in (0, 1) "
                         f"(default {FAR_THRESHOLD:g})")
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args(argv)
    try:
        if args.kind is not None:
            if args.alpha is None:
                raise ValueError("--kind needs --alpha")
            rho = memory_function(args.kind, args.alpha, DEFAULT_T if args.T is None else args.T)
        else:
            if args.alpha is not None or args.T is not None:
                raise ValueError("--alpha and --T apply only to --kind (a file sets T = its length)")
            rho = _load_file(args.file)
        p = memory_report(rho, prony_tol=args.prony_tol, m_max=args.m_max, prony=not args.no_prony,
                           results=args.results, far_threshold=args.far_threshold)
    except (ValueError, TypeError, OSError) as exc:
        ap.error(str(exc))
    print(json.dumps(p.to_dict(), indent=1) if args.json else _summary(p))
    return 0
