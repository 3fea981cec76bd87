"""``seqtheory validate [--quick|--cpu|--full] [--only PATTERN] [--report DIR] [--list]`` (also ``python -m validation``).

Runs the registry of claims, prints a table, writes ``DIR/report.md`` (verdict counts first, then one section
per check, figures in ``DIR/figures``) and ``DIR/results.json`` (profile, seed, commit, versions, time,
counts, results), and exits with status 1 if any check fails or errors ("not reproduced", "inconclusive" and
"not run" do not fail the run). A partial run (``--only PATTERN``) writes to ``DIR/partial-<pattern>/`` and
leaves the full report alone. An unwritable ``DIR`` is reported before any check runs (exit status 2).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ._json import dumps
from ._parser import OneLineParser


def print_table(results, stream=None) -> None:
    """One line per check (name, verdict, seconds, summary), then the verdict counts."""
    from validation.report import counts_line

    stream = sys.stdout if stream is None else stream
    width = max((len(r.check.name) for r in results), default=10)
    vw = max((len(r.outcome.verdict) for r in results), default=7)
    for r in results:
        print(f"{r.check.name:<{width}}  {r.outcome.verdict:<{vw}}  {r.seconds:7.1f}s  {r.outcome.summary}", file=stream)
    print(counts_line(results), file=stream)



_DESCRIPTION = ("Runs the registry of claims, prints a table, writes DIR/report.md and DIR/results.json, and exits "
                "with status 1 if any check fails or errors ('not reproduced', 'inconclusive' and 'not run' do "
                "not fail the run). A partial run (--only PATTERN) writes to DIR/partial-<pattern>/.")


def _parser(prog: str) -> OneLineParser:
    p = OneLineParser(prog=prog, description=_DESCRIPTION)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--quick", dest="profile", action="store_const", const="quick", help="quick profile (default)")
    g.add_argument("--cpu", dest="profile", action="store_const", const="cpu",
                   help="cpu profile: every claim at CPU scale (the certified architecture sweep takes hours on 2 cores)")
    g.add_argument("--full", dest="profile", action="store_const", const="full", help="full profile (long; GPU-scale parts)")
    p.add_argument("--only", metavar="PATTERN", help="run checks whose name matches (glob like 'signal.*', or substring; several separated by commas)")
    p.add_argument("--report", metavar="DIR", default="validation-report", help="report directory (default: %(default)s)")
    p.add_argument("--list", action="store_true", help="list the checks and exit")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print JSON (the catalogue with --list, else the verdicts)")
    return p


def main(argv: list[str] | None = None, *, prog: str = "seqtheory validate") -> int:
    """The command line: exit status 1 if any check fails or errors, 2 on a usage error or an unwritable DIR."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    from validation.registry import Context, discover, select
    from validation.report import any_failed, check_writable, partial_dir, run_checks, verdict_counts, write_report

    p = _parser(prog)
    args = p.parse_args(argv)
    profile = args.profile or "quick"
    if args.only is not None and not args.only.strip():      # --only "" (an empty shell variable) is not "all"
        p.error(f"--only needs a pattern (a glob such as 'signal.*' or a substring), got {args.only!r}")

    checks = select(discover(), args.only)
    if args.list and args.json:
        print(dumps([{"name": c.name, "profiles": list(c.profiles), "paper": c.paper, "claim": c.claim}
                     for c in checks], indent=1))
        return 0
    if args.list:
        for c in checks:
            print(f"{c.name:<40} [{'/'.join(c.profiles)}] {c.claim}")
        return 0
    if not checks:
        print(f"{prog}: error: no check matches {args.only!r}; try --list", file=sys.stderr)
        return 2
    report_dir = partial_dir(Path(args.report), args.only)
    try:
        check_writable(report_dir)
    except OSError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    ctx = Context(profile=profile, report_dir=report_dir)
    results = run_checks(checks, ctx, progress=not args.no_progress)
    path = write_report(results, ctx, only=args.only)
    if args.json:
        print(dumps({"profile": profile, "report": str(path), "counts": verdict_counts(results), "results": [
            {"name": r.check.name, "verdict": r.outcome.verdict, "summary": r.outcome.summary,
             "seconds": round(r.seconds, 3)} for r in results]}, indent=1))
    else:
        print_table(results)
        print(f"report: {path}")
    return 1 if any_failed(results) else 0
