"""Run checks and write the report: a Markdown file (summary table, one section per check) and figures."""

from __future__ import annotations

import json
import platform
import sys
import time
from pathlib import Path

from tqdm import tqdm

from .registry import FAILING, Check, Context, Result
from .stats import markdown_table


def run_checks(checks: list[Check], ctx: Context, *, progress: bool = True) -> list[Result]:
    results = []
    bar = tqdm(checks, desc="validation", unit="check", disable=not progress, file=sys.stderr)
    for c in bar:
        bar.set_postfix_str(c.name)
        results.append(c.run(ctx))
    return results


def summary_rows(results: list[Result]) -> list[list]:
    return [[r.check.name, r.outcome.verdict, r.outcome.summary, f"{r.seconds:.1f}"] for r in results]


def print_table(results: list[Result], stream=sys.stdout) -> None:
    width = max((len(r.check.name) for r in results), default=10)
    vw = max((len(r.outcome.verdict) for r in results), default=7)
    for r in results:
        print(f"{r.check.name:<{width}}  {r.outcome.verdict:<{vw}}  {r.seconds:7.1f}s  {r.outcome.summary}", file=stream)
    counts = {}
    for r in results:
        counts[r.outcome.verdict] = counts.get(r.outcome.verdict, 0) + 1
    print("  ".join(f"{v}: {n}" for v, n in sorted(counts.items())), file=stream)


def write_report(results: list[Result], ctx: Context) -> Path:
    ctx.report_dir.mkdir(parents=True, exist_ok=True)
    md = [
        "# Validation report",
        "",
        f"Profile: `{ctx.profile}`. Generated {time.strftime('%Y-%m-%d %H:%M:%S')} with Python "
        f"{platform.python_version()} on {platform.machine()}. Base seed {ctx.seed}.",
        "",
        "Verdicts: *pass* (numerics agree with the closed form / the claim holds under the toolkit's "
        "conventions), *fail* (a toolkit bug), *not reproduced* (a paper's claim does not hold under our "
        "documented conventions: numbers below), *inconclusive* (the experiment did not test the claim: the "
        "reason is stated), *not run* (belongs to a larger profile).",
        "",
        markdown_table(["check", "verdict", "decisive numbers", "seconds"], summary_rows(results)),
        "",
    ]
    for r in results:
        c, o = r.check, r.outcome
        md += [
            f"## `{c.name}`: {o.verdict}",
            "",
            f"- **Paper**: {c.paper}",
            f"- **Claim**: {c.claim}",
            f"- **Closed form**: {c.closed_form}",
            f"- **Numerics**: {c.numerics}",
            f"- **Statistic**: {c.statistic}",
            f"- **Result**: {o.summary}",
            "",
        ]
        if o.details:
            md += [o.details, ""]
        for f in o.figures:
            md += [f"![{f}](figures/{f})", ""]
    path = ctx.report_dir / "report.md"
    path.write_text("\n".join(md), encoding="utf-8")
    data = [
        {"name": r.check.name, "verdict": r.outcome.verdict, "summary": r.outcome.summary,
         "seconds": r.seconds, "data": r.outcome.data}
        for r in results
    ]
    (ctx.report_dir / "results.json").write_text(json.dumps(data, indent=1, default=str), encoding="utf-8")
    return path


def any_failed(results: list[Result]) -> bool:
    return any(r.outcome.verdict in FAILING for r in results)
