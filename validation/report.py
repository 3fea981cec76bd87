"""Run checks and write the report: a Markdown file (summary table, one section per check) and figures."""

from __future__ import annotations

import json
import math
import platform
import re
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import Sequence

import numpy as np
from tqdm import tqdm

from .registry import FAILING, VERDICTS, Check, Context, Result


def markdown_cell(x) -> str:
    r"""One cell of a GitHub-flavoured Markdown table: floats with 6 significant digits; ``|`` escaped (GFM
    splits a row at every unescaped ``|``, code spans included) and line breaks made spaces (a row is a line).

    >>> print(markdown_cell("`|x|` < 1\nsee below"), markdown_cell(0.1 + 0.2))
    `\|x\|` < 1 see below 0.3
    """
    if isinstance(x, (float, np.floating)):
        return f"{float(x):.6g}" if math.isfinite(x) else str(float(x))
    return " ".join(str(x).replace("|", "\\|").splitlines())


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence]) -> str:
    """A GitHub-flavoured Markdown table (cells: :func:`markdown_cell`), one row per line, as wide as the
    header."""
    lines = ["| " + " | ".join(map(markdown_cell, headers)) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(map(markdown_cell, r)) + " |" for r in rows]
    return "\n".join(lines)


def run_checks(checks: list[Check], ctx: Context, *, progress: bool = True) -> list[Result]:
    results = []
    bar = tqdm(checks, desc="validation", unit="check", disable=not progress, file=sys.stderr)
    for c in bar:
        bar.set_postfix_str(c.name)
        results.append(c.run(ctx))
    return results


def summary_rows(results: list[Result]) -> list[list]:
    return [[r.check.name, r.outcome.verdict, r.outcome.summary, f"{r.seconds:.1f}"] for r in results]


def verdict_counts(results: list[Result]) -> dict[str, int]:
    """Number of checks per verdict, in the registry's verdict order (verdicts with no check left out)."""
    counts = {v: 0 for v in VERDICTS}
    for r in results:
        counts[r.outcome.verdict] += 1
    return {v: n for v, n in counts.items() if n}


def counts_line(results: list[Result]) -> str:
    """``"26 checks: 20 pass, 4 not reproduced, 2 inconclusive"``."""
    counts = verdict_counts(results)
    return f"{len(results)} check{'s' if len(results) != 1 else ''}: " + ", ".join(f"{n} {v}" for v, n in counts.items())


def partial_dir(report_dir: Path, pattern: str | None) -> Path:
    """Where a run lands: ``report_dir`` for a full run, ``report_dir/partial-<slug>`` for ``--only PATTERN``.

    A partial run never overwrites the full report (the slug keeps letters, digits, '.', '_' and '-').

    >>> partial_dir(Path("rep"), "signal.*").as_posix(), partial_dir(Path("rep"), None).as_posix()
    ('rep/partial-signal', 'rep')
    """
    if not pattern:
        return report_dir
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", pattern).strip("-.") or "all"
    return report_dir / f"partial-{slug}"


def check_writable(report_dir: Path) -> None:
    """Raise ``OSError`` naming ``report_dir`` unless a report can be written there (checked before any run)."""
    try:
        report_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=report_dir, prefix=".write-test-"):
            pass
    except OSError as exc:
        raise OSError(f"cannot write the report to {str(report_dir)!r}: {exc.strerror or exc}") from None


def remove_stale_figures(results: list[Result], report_dir: Path) -> list[str]:
    """Delete PNGs in ``report_dir/figures`` that no result of this run references (left by an earlier run)."""
    keep = {f for r in results for f in r.outcome.figures}
    removed = []
    fig_dir = report_dir / "figures"
    if fig_dir.is_dir():
        for f in sorted(fig_dir.glob("*.png")):
            if f.name not in keep:
                f.unlink()
                removed.append(f.name)
    return removed


def run_metadata(ctx: Context) -> dict:
    """Provenance of a run: profile, seed, git commit (None outside a checkout of this project), versions, time,
    and ``source``: ``commit X`` in a checkout, else ``installed version V`` (a wheel)."""
    commit = checkout_commit()
    versions = {"python": platform.python_version()}
    for dist in ("seqtheory", "numpy", "scipy", "sympy", "mpmath", "numba", "torch", "python-flint"):
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = None
    source = f"commit `{commit}`" if commit else f"installed version {versions['seqtheory'] or 'unknown'}"
    return {"profile": ctx.profile, "seed": ctx.seed, "commit": commit, "source": source, "versions": versions,
            "machine": platform.machine(), "time": time.strftime("%Y-%m-%dT%H:%M:%S%z")}


def checkout_commit() -> str | None:
    """The git commit of the checkout these packages run from; None for an installed wheel (its folder is no
    checkout of this project, even inside some other repository)."""
    root = Path(__file__).resolve().parents[1]
    try:
        out = subprocess.run(["git", "rev-parse", "--show-toplevel", "HEAD"], capture_output=True, text=True,
                             timeout=10, cwd=root).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return None
    if len(out) != 2 or Path(out[0]).resolve() != root or not (root / "pyproject.toml").is_file():
        return None
    return out[1]


def budget_section(results: list[Result]) -> list[str]:
    """Markdown lines of the claims answered at two optimisation budgets (``data["budgets"]``, the trained-model
    claims): the headline (polished) verdict first, the Adam-budget verdict and their agreement beside it, the
    seeds used. Empty when no result has budgets."""
    rows = []
    for r in results:
        data = r.outcome.data or {}
        b = data.get("budgets")
        if not b:
            continue
        rows.append([r.check.name, r.outcome.verdict, (b.get("polished") or {}).get("verdict", "-"),
                     (b.get("adam") or {}).get("verdict", "-"), data.get("agreement", "-"),
                     ", ".join(str(s) for s in data.get("seeds", [])) or "-", fragility_text(data.get("fragility"))])
    if not rows:
        return []
    return ["## Answers at two optimisation budgets", "",
            "Every number is an upper bound on what an architecture can reach. Headline: the polished budget "
            "(the Adam stage, then the full-batch L-BFGS polish); beside it the Adam budget and whether the two "
            "agree. The rule: docs/papers/memory-functions.md, \"The decision rule\". Fragility: whether the "
            "verdict can flip within the cross-machine spread of its runs (docs/papers/memory-functions.md, "
            "\"Amendment (2026-12-06): fragility\"; every margin in the claim's section).", "",
            markdown_table(["check", "verdict", "polished budget", "Adam budget", "agreement", "seeds", "fragility"],
                           rows), ""]


def fragility_text(labels: dict | None) -> str:
    """``"polished fragile, adam robust"`` from a claim's per-budget fragility labels (``-``: not assessed)."""
    return ", ".join(f"{b} {v}" for b, v in labels.items()) if labels else "-"


def _power_text(power: dict | None) -> str:
    """The plan's power of a round-2 claim: P(decided) per budget (pass + not reproduced)."""
    if not power:
        return "-"
    return ", ".join(f"{b} {p['decided']:.2f}" for b, p in power.items() if isinstance(p, dict) and "decided" in p)


def rounds_section(results: list[Result]) -> list[str]:
    """Markdown lines of the claims with two rounds (``data["rounds"]``): each round's verdict at both budgets,
    round 1's fragility, round 2's seeds, statistic, planned power and status. Empty when no result has
    rounds."""
    rows = []
    for r in results:
        rounds = (r.outcome.data or {}).get("rounds")
        if not rounds:
            continue
        one, two = rounds.get("1") or {}, rounds.get("2") or {}
        b1, b2 = one.get("budgets") or {}, two.get("budgets") or {}
        seeds = two.get("seeds")
        rows.append([r.check.name, r.outcome.verdict, one.get("verdict", "-"), b1.get("polished", "-"),
                     b1.get("adam", "-"), fragility_text(one.get("fragility")), two.get("verdict", "-"),
                     b2.get("polished", "-"), b2.get("adam", "-"),
                     f"{min(seeds)}-{max(seeds)}" if seeds else "-", two.get("statistic", "-"),
                     _power_text(two.get("power")), two.get("status", "-")])
    if not rows:
        return []
    return ["## Round 1 and round 2 (pre-registered)", "",
            "Round 1: the answers at the seeds the rule gave (0-2, or 0-4 where extended), unchanged, with their "
            "fragility under the cross-machine spread. Round 2: the claims the pre-registered plan retrains on new "
            "seeds (5 and up, under the pinned numerical settings), decided on the round-2 runs alone; the "
            "planned power is P(pass or not reproduced) at the plan's size. The headline is round 2's verdict "
            "once all its runs are in, else round 1's. The rule: docs/papers/memory-functions.md, \"Round 2 "
            "(pre-registered)\".", "",
            markdown_table(["check", "headline", "round 1", "round 1 polished", "round 1 Adam", "round 1 fragility",
                            "round 2", "round 2 polished", "round 2 Adam", "round 2 seeds", "round 2 statistic",
                            "planned power", "round 2 status"], rows), ""]


def write_report(results: list[Result], ctx: Context, *, only: str | None = None) -> Path:
    ctx.report_dir.mkdir(parents=True, exist_ok=True)
    remove_stale_figures(results, ctx.report_dir)
    meta = run_metadata(ctx)
    scope = f" Partial run: checks matching `{only}` only." if only else ""
    md = [
        "# Validation report",
        "",
        f"**{counts_line(results)}.**",
        "",
        f"Profile: `{ctx.profile}`.{scope} Generated {meta['time']} with Python "
        f"{platform.python_version()} on {platform.machine()}, {meta['source']}. Base seed {ctx.seed}.",
        "",
        "Verdicts: *pass* (numerics agree with the closed form / the claim holds under the toolkit's "
        "conventions), *fail* (a toolkit bug), *not reproduced* (a paper's claim does not hold under our "
        "documented conventions: numbers below), *inconclusive* (the experiment did not test the claim: the "
        "reason is stated), *not run* (belongs to a larger profile).",
        "",
        markdown_table(["check", "verdict", "decisive numbers", "seconds"], summary_rows(results)),
        "",
    ]
    md += budget_section(results)
    md += rounds_section(results)
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
    data = {**meta, "only": only, "counts": verdict_counts(results), "results": [
        {"name": r.check.name, "verdict": r.outcome.verdict, "summary": r.outcome.summary,
         "seconds": r.seconds, "figures": r.outcome.figures, "data": r.outcome.data}
        for r in results
    ]}
    (ctx.report_dir / "results.json").write_text(json.dumps(data, indent=1, default=str), encoding="utf-8")
    return path


def any_failed(results: list[Result]) -> bool:
    return any(r.outcome.verdict in FAILING for r in results)
