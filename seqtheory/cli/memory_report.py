"""``seqtheory memory-report (--kind K --alpha A [--T T] | --file F) [--results PATH] [--max-seconds S] [--json]``: the memory
report of a target (:func:`numerics.memory_functions.memory_report.memory_report`): tail-energy complexity,
effective rank, exponential-sum order, nearest benchmarked family and the architectures that did best there.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ._parser import OneLineParser, flag_message, seconds


# the report's cost grows like T^3 (the SVD of the T x T Toeplitz coupling for the effective rank): measured on
# one core of the development machine, about 2e-9 T^3 s (T = 1024: 2-5 s, T = 4096: 74 s); the rest is O(T)
_SECONDS_PER_T3 = 2e-9
_SECONDS_PER_T = 2e-3
_MAX_FILE_BYTES = 1 << 30          # a memory function file is read whole: at most 1 GiB


def _estimated_seconds(T: int) -> float:
    """A rough up-front estimate of the report's run time at length T (see the constants above)."""
    return _SECONDS_PER_T3 * float(T) ** 3 + _SECONDS_PER_T * T


def _load_file(path: str) -> np.ndarray:
    """The memory function of ``--file``: a non-empty 1-d array of finite real numbers; an empty, corrupt,
    boolean, complex, object or multi-dimensional file is a ValueError naming the file."""
    from theory._args import as_real_array

    p = Path(path)
    if not p.is_file():
        raise ValueError(f"--file {path}: no such file")
    if p.stat().st_size > _MAX_FILE_BYTES:
        raise ValueError(f"--file {path}: {p.stat().st_size / 2**30:.3g} GiB, more than the limit of "
                         f"{_MAX_FILE_BYTES / 2**30:.3g} GiB")
    try:
        if p.suffix.lower() == ".npy":
            raw = np.load(p, allow_pickle=False)
        else:
            raw = np.loadtxt(p, delimiter="," if p.suffix.lower() == ".csv" else None, ndmin=1)
    except (EOFError, ValueError, OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"--file {path}: not a readable {p.suffix or 'text'} file of numbers ({exc})") from None
    if not isinstance(raw, np.ndarray) or raw.dtype.kind not in "iuf":
        kind = getattr(getattr(raw, "dtype", None), "name", type(raw).__name__)
        raise ValueError(f"--file {path}: the values must be real numbers (integer or float), got {kind}")
    rho = as_real_array(f"--file {path}", raw)
    if rho.ndim != 1 or rho.size == 0:
        raise ValueError(f"--file {path}: must hold a non-empty 1-d array (lags 0..T-1), got shape {rho.shape}")
    return rho


def _check_cost(rho: np.ndarray, source: str, max_seconds: float) -> None:
    """Refuse up front a report that would take longer than ``max_seconds`` (one line naming the argument)."""
    est = _estimated_seconds(rho.size)
    if est > max_seconds:
        raise ValueError(f"{source} gives length {rho.size}: the report would take about {est:.3g} s (~ T^3, the "
                         f"effective rank's SVD), over the limit of --max-seconds {max_seconds:g}; raise "
                         "--max-seconds to run it anyway")


def _check_results(path: str) -> None:
    """A ``--results`` file the user named must load (the library notes a missing default in the report)."""
    from numerics.memory_functions.memory_report import load_benchmark

    try:
        load_benchmark(path)
    except (ValueError, TypeError, KeyError, OSError, AttributeError) as exc:
        raise ValueError(f"--results {path}: {exc}") from None


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


# the library's parameter names -> this command's flags, in its error messages
FLAGS = {"kind": "--kind", "alpha": "--alpha", "T": "--T", "prony_tol": "--prony-tol", "m_max": "--m-max",
         "far_threshold": "--far-threshold", "results": "--results"}


def _parser(prog: str) -> OneLineParser:
    from numerics.memory_functions.memory_report import DEFAULT_T, FAR_THRESHOLD, MIN_T, PRONY_TOL
    from theory._args import MAX_LENGTH
    from theory.memory import KINDS

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
    ap.add_argument("--max-seconds", type=seconds, default=60.0,
                    help="refuse up front a report estimated to take longer (~ 2e-9 T^3 s; default 60)")
    ap.add_argument("--json", action="store_true", help="print JSON")
    return ap


def main(argv: list[str] | None = None, *, prog: str = "seqtheory memory-report") -> int:
    """The command line; a bad value is one line on stderr naming it, exit status 2."""
    from numerics.memory_functions.memory_report import DEFAULT_T, memory_report
    from theory.memory import memory_function

    from ._json import dumps

    ap = _parser(prog)
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
        _check_cost(np.asarray(rho), "--file" if args.file else "--T", args.max_seconds)
        if args.results is not None:
            _check_results(args.results)
        p = memory_report(rho, prony_tol=args.prony_tol, m_max=args.m_max, prony=not args.no_prony,
                           results=args.results, far_threshold=args.far_threshold)
    except (ValueError, TypeError, OSError) as exc:
        ap.error(flag_message(str(exc), FLAGS))
    print(dumps(p.to_dict(), indent=1) if args.json else _summary(p))
    return 0
