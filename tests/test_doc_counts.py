"""Verdict counts written out by hand in the docs agree with what they count.

The architecture report's counts (``docs/results/cpu-architectures/report.md``: its headline, and round 1's
column of its round-2 table) are repeated in prose on four pages and in notebook 04; each page must state the
headline counts, and any other count it gives must be round 1's, labelled so. The quick validation's counts in
the README: the number of checks and of checks outside the quick profile come from the registry here; the
counts of the installed wheel (core and ``[models]``) are compared with the wheel's own run in CI's last step
(``scripts/wheel_check.py``, whose README parser is tested here).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from test_wheel import wheel_check  # scripts/wheel_check.py as a module (tests/ is on the path)

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "docs/results/cpu-architectures/report.md"
PAGES = ["README.md", "docs/papers/memory-functions.md", "docs/results/cpu-architectures/runs/README.md",
         "notebooks/04_which_architecture_for_which_memory.ipynb",
         "notebooks/_build_04_which_architecture_for_which_memory.py"]
# "3 pass, 3 not reproduced, 7 inconclusive" (bold, "are", line breaks allowed); a triple followed by "not run"
# is the quick validation's, not the architecture report's
TRIPLE = re.compile(r"(\d+) pass, (\d+) (?:are )?not reproduced, (\d+) inconclusive(?!, \d+ not run)")


def _prose(path: Path) -> str:
    """The page's text with Markdown bold and line breaks flattened (a notebook: its Markdown cells)."""
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    else:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":   # the notebook's builder: its Markdown lives in string literals
            text = text.replace("\\n", " ")
    return wheel_check.flat(text)


def _triple(counts: Counter) -> tuple[int, int, int]:
    return counts["pass"], counts["not reproduced"], counts["inconclusive"]


def report_counts(text: str) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(headline counts, round 1's counts) of an architecture report: the headline line, checked against the
    round-2 table's ``headline`` column, and that table's ``round 1`` column."""
    head = re.search(r"^\*\*(\d+) checks: (.+)\.\*\*$", text, re.M)
    assert head, "the report has no headline counts"
    stated = Counter({v: int(n) for n, v in (p.split(" ", 1) for p in head.group(2).split(", "))})
    lines = text.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("| check | headline | round 1 |"))
    rows = []
    for ln in lines[at + 2:]:
        if not ln.startswith("| "):
            break                       # the table ends at its first line that is not a row
        rows.append([c.strip() for c in ln.strip("|").split("|")])
    assert len(rows) == int(head.group(1)), "the round-2 table lists every check"
    assert Counter(r[1] for r in rows) == stated, "the headline counts the table's headline column"
    return _triple(stated), _triple(Counter(r[2] for r in rows))


def page_triples(text: str) -> list[tuple[tuple[int, int, int], str]]:
    """Every architecture count triple on a page, with the 60 characters before it."""
    return [(tuple(map(int, m.groups())), text[max(0, m.start() - 60):m.start()]) for m in TRIPLE.finditer(text)]


def stale_counts(text: str, headline: tuple, round1: tuple) -> list[str]:
    """What a page gets wrong: the headline counts missing, or another count that is not round 1's, labelled."""
    found = page_triples(text)
    wrong = [] if any(t == headline for t, _ in found) else [f"the headline counts {headline} are not stated"]
    for t, before in found:
        if t != headline and not (t == round1 and "round 1" in before):
            wrong.append(f"{t} (after '...{before[-40:]}') is neither the headline {headline} "
                         f"nor round 1's {round1} labelled 'round 1'")
    return wrong


@pytest.mark.parametrize("page", PAGES)
def test_each_page_states_the_architecture_reports_counts(page):
    headline, round1 = report_counts(REPORT.read_text(encoding="utf-8"))
    assert stale_counts(_prose(ROOT / page), headline, round1) == []


def test_the_count_checks_catch_stale_pages():
    head, r1 = (3, 3, 7), (2, 3, 8)
    ok = "at round 1: 2 pass, 3 not reproduced, 8 inconclusive; now 3 pass, 3 are not reproduced, 7 inconclusive."
    assert stale_counts(ok, head, r1) == []
    assert stale_counts("now 2 pass, 3 not reproduced, 8 inconclusive", head, r1)             # stale headline
    assert stale_counts("before: 2 pass, 3 not reproduced, 8 inconclusive. " + ok, head, r1)   # not labelled
    assert stale_counts(ok + " 4 pass, 3 not reproduced, 6 inconclusive", head, r1)            # a third count
    assert stale_counts(ok.replace("round 1", "round 2"), head, r1)
    # the quick validation's counts are not the report's
    assert page_triples("36 pass, 2 not reproduced, 11 inconclusive, 9 not run") == []


def test_report_counts_reads_the_headline_and_round_1():
    table = ["| check | headline | round 1 | round 2 |", "|---|---|---|---|", "| a | pass | inconclusive | pass |",
             "| b | not reproduced | not reproduced | - |"]
    text = "\n".join(["# Validation report", "", "**2 checks: 1 pass, 1 not reproduced.**", "", *table])
    assert report_counts(text) == ((1, 1, 0), (0, 1, 1))
    with pytest.raises(AssertionError, match="headline column"):
        report_counts(text.replace("**2 checks: 1 pass, 1 not reproduced.**", "**2 checks: 2 pass.**"))


# ---- the quick validation's counts in the README ----

def _readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_counts_every_check_and_those_outside_the_quick_profile():
    from validation.registry import discover

    checks = discover()
    m = re.search(r"with every extra installed: (\d+) checks: (\d+) pass, (\d+) not reproduced, (\d+) "
                  r"inconclusive, (\d+) not run", wheel_check.flat(_readme()))
    assert m, "README: the quick profile's counts with every extra"
    total, *counts = map(int, m.groups())
    assert total == len(checks) == sum(counts)
    assert counts[-1] == sum("quick" not in c.profiles for c in checks)
    for install, stated in wheel_check.readme_quick_counts(_readme()).items():
        assert sum(stated.values()) == total, install
        assert stated["not run"] >= counts[-1], install     # a lesser install runs no more than every extra


def test_readme_quick_counts_parses_both_installs():
    got = wheel_check.readme_quick_counts(_readme())
    assert set(got) == {"models", "core"}
    text = ("From an installed wheel: 36 pass, 2 not reproduced, 11\ninconclusive, 9 not run with `[models]`; "
            "36 pass, 2 not reproduced, 1 inconclusive, 19 not run with the core\ninstall (a check ...)")
    assert wheel_check.readme_quick_counts(text) == {
        "models": {"pass": 36, "not reproduced": 2, "inconclusive": 11, "not run": 9},
        "core": {"pass": 36, "not reproduced": 2, "inconclusive": 1, "not run": 19}}
    with pytest.raises(ValueError, match="core"):
        wheel_check.readme_quick_counts(text.split(";")[0])


@pytest.mark.parametrize("counts, ok", [
    ({"pass": 36, "not reproduced": 2, "inconclusive": 11, "not run": 9}, True),
    ({"pass": 36, "not reproduced": 2, "inconclusive": 11, "not run": 9, "fail": 0}, True),
    ({"pass": 37, "not reproduced": 2, "inconclusive": 11, "not run": 8}, False),
    ({"pass": 36, "not reproduced": 2, "inconclusive": 11}, False),
])
def test_the_wheel_check_compares_its_counts_with_the_readme(counts, ok):
    text = ("36 pass, 2 not reproduced, 11 inconclusive, 9 not run with `[models]`; "
            "36 pass, 2 not reproduced, 1 inconclusive, 19 not run with the core install")
    if ok:
        wheel_check.check_readme_counts(counts, "models", text)
    else:
        with pytest.raises(RuntimeError, match=r"README\.md states .*\[models\]"):
            wheel_check.check_readme_counts(counts, "models", text)
