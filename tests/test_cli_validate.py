"""``seqtheory validate`` (seqtheory.cli.validate; also ``python -m validation``): partial runs, stale figures, results.json, the report's first lines, an
unwritable report folder. Synthetic checks (no numerics) stand in for the registry, so these run in < 1 s."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import validation.registry as registry
from seqtheory.cli.validate import main
from validation.registry import Check, Outcome

CALLS: list[str] = []


def _fake(name: str, verdict: str, figure: bool):
    def func(ctx):
        CALLS.append(name)
        figures = []
        if figure:
            path = ctx.figure_path(name.replace(".", "_") + ".png")
            path.write_bytes(b"\x89PNG fake")
            figures.append(path.name)
        return Outcome(verdict, f"{name} summary", figures=figures, data={"x": 1})

    return Check(name, "paper", "claim", "closed form", "numerics", "statistic", func)


FAKES = [_fake("alpha.one", "pass", True), _fake("alpha.two", "not reproduced", True),
         _fake("beta.one", "pass", False), _fake("beta.two", "inconclusive", True)]


@pytest.fixture
def fake_registry(monkeypatch, tmp_path):
    monkeypatch.setattr(registry, "discover", lambda: list(FAKES))
    monkeypatch.chdir(tmp_path)                 # the report folders below lie in the working tree
    CALLS.clear()
    return CALLS


def test_full_run_writes_counts_first_and_results_object(fake_registry, tmp_path):
    assert main(["--report", str(tmp_path), "--no-progress"]) == 0
    md = (tmp_path / "report.md").read_text().splitlines()
    assert md[0] == "# Validation report"
    assert md[2] == "**4 checks: 2 pass, 1 not reproduced, 1 inconclusive.**"
    data = json.loads((tmp_path / "results.json").read_text())
    assert set(data) >= {"profile", "seed", "commit", "versions", "time", "counts", "results"}
    assert data["profile"] == "quick" and data["only"] is None
    assert data["counts"] == {"pass": 2, "not reproduced": 1, "inconclusive": 1}
    assert [r["name"] for r in data["results"]] == [c.name for c in FAKES]
    assert data["versions"]["python"] == sys.version.split()[0]
    assert sorted(p.name for p in (tmp_path / "figures").iterdir()) == [
        "alpha_one.png", "alpha_two.png", "beta_two.png"]


def test_partial_run_leaves_the_full_report_alone(fake_registry, tmp_path):
    main(["--report", str(tmp_path), "--no-progress"])
    full_md = (tmp_path / "report.md").read_text()
    full_json = (tmp_path / "results.json").read_text()
    fake_registry.clear()
    assert main(["--report", str(tmp_path), "--only", "beta.*", "--no-progress"]) == 0
    assert fake_registry == ["beta.one", "beta.two"]
    assert (tmp_path / "report.md").read_text() == full_md                  # untouched
    assert (tmp_path / "results.json").read_text() == full_json
    assert len(list((tmp_path / "figures").iterdir())) == 3
    part = tmp_path / "partial-beta"
    data = json.loads((part / "results.json").read_text())
    assert data["only"] == "beta.*" and data["counts"] == {"pass": 1, "inconclusive": 1}
    assert "Partial run: checks matching `beta.*` only." in (part / "report.md").read_text()
    assert [p.name for p in (part / "figures").iterdir()] == ["beta_two.png"]


def test_only_takes_several_patterns_separated_by_commas(fake_registry, tmp_path):
    assert main(["--report", str(tmp_path), "--only", "beta.two,alpha.one", "--no-progress"]) == 0
    assert fake_registry == ["alpha.one", "beta.two"]                      # registry order, each once
    data = json.loads((tmp_path / "partial-beta.two-alpha.one" / "results.json").read_text())
    assert [r["name"] for r in data["results"]] == ["alpha.one", "beta.two"]


def test_stale_figures_are_removed(fake_registry, tmp_path, monkeypatch):
    main(["--report", str(tmp_path), "--no-progress"])
    stale = tmp_path / "figures" / "from_an_older_version.png"
    stale.write_bytes(b"old")
    # the next run no longer makes alpha.one's figure: both unreferenced PNGs go
    monkeypatch.setattr(registry, "discover", lambda: [_fake("alpha.one", "pass", False)] + FAKES[1:])
    main(["--report", str(tmp_path), "--no-progress"])
    names = sorted(p.name for p in (tmp_path / "figures").iterdir())
    assert names == ["alpha_two.png", "beta_two.png"]
    md = (tmp_path / "report.md").read_text()
    assert all(f"figures/{n}" in md for n in names) and "alpha_one.png" not in md


def test_unwritable_report_fails_before_any_check(fake_registry, tmp_path, capsys):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    assert main(["--report", str(blocker / "sub"), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot write the report" in err[0] and "a_file" in err[0]
    assert fake_registry == []                                              # nothing ran


def test_unwritable_report_subprocess_is_one_line():
    proc = subprocess.run([sys.executable, "-m", "validation", "--report", "/proc/nope", "--only", "signal.series",
                           "--allow-outside"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "/proc/nope" in lines[0] and "Traceback" not in proc.stderr


def test_no_match_exits_2(fake_registry, tmp_path, capsys):
    assert main(["--report", str(tmp_path), "--only", "nothing.*"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'nothing.*' matches no check name" in err[0] and "--list" in err[0]


def test_doctests():
    import doctest

    import validation.report as rep

    assert doctest.testmod(rep, raise_on_error=False).failed == 0


def test_a_checkout_reports_its_commit():
    import subprocess
    from pathlib import Path

    from validation.report import _checkout_commit as checkout_commit

    root = Path(__file__).resolve().parents[1]
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()
    assert checkout_commit() == head           # an installed wheel says "installed version X" (tests/test_wheel.py)


def test_empty_only_pattern_is_an_error_not_everything(fake_registry, tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main(["--report", str(tmp_path), "--no-progress", "--only", ""])
    assert e.value.code == 2 and "--only" in capsys.readouterr().err and not fake_registry


# ------------------------------------------------------------------------- patterns, folders outside the tree
@pytest.mark.parametrize("pattern, word", [("signal.[", "not a valid glob"), ("alpha.one,nope", "'nope' matches no check"),
                                           ("nope", "'nope' matches no check")])
@pytest.mark.parametrize("listing", [True, False])
def test_a_pattern_that_selects_nothing_is_an_error(fake_registry, capsys, pattern, word, listing):
    """`--only 'signal.['` printed nothing (exit 0) and a typo in a comma list was dropped (issue 43)."""
    assert main(["--only", pattern, "--no-progress"] + (["--list"] if listing else [])) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and word in err[0] and "--list" in err[0] and captured.out == ""
    assert fake_registry == []


def test_a_report_outside_the_working_tree_is_refused_unless_asked(fake_registry, tmp_path, capsys):
    """`validate --report /` wrote into / (issue 43); the working tree is the current directory and below."""
    work = tmp_path / "work"
    work.mkdir()
    os.chdir(work)
    outside = tmp_path / "elsewhere"
    for folder in ("/", "..", str(outside)):
        assert main(["--report", folder, "--no-progress"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "outside the working tree" in err[0] and "--allow-outside" in err[0]
    assert fake_registry == [] and sorted(p.name for p in tmp_path.iterdir()) == ["work"]
    assert main(["--report", str(outside), "--no-progress", "--allow-outside"]) == 0
    assert (outside / "report.md").is_file()
    assert main(["--report", "rep", "--no-progress"]) == 0 and (work / "rep" / "report.md").is_file()
