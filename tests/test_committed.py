"""validation.committed: the packaged committed answers match the committed reports, and read back."""

from __future__ import annotations

import json

from validation import committed


def test_packaged_answers_match_the_committed_reports():
    packaged = committed.load()
    assert packaged == json.loads(json.dumps(committed.collect())), (
        "validation/data/committed_verdicts.json is stale: run validation.committed.refresh() (the profile "
        "scripts do it when they rewrite a committed report)")
    assert any(k.startswith("architectures.") for k in packaged) and any(k.startswith("gated_rnn.") for k in packaged)


def test_extract_reads_both_budgets_and_provenance():
    doc = {"results": [{"name": "a.b", "verdict": "pass", "summary": "",
                        "data": {"budgets": {"polished": {"verdict": "pass"}, "adam": {"verdict": "inconclusive"}},
                                 "agreement": "depends on the budget"}},
                       {"name": "a.c", "verdict": "not reproduced", "summary": "", "data": {}}],
           "provenance": {"commit": "0123456789abcdef", "date": "2026-12-05T00:00:00"}}
    got = committed._extract(doc, "docs/results/x", "cpu")
    assert got["a.b"]["budgets"] == {"polished": "pass", "adam": "inconclusive"}
    assert got["a.c"] == {"verdict": "not reproduced", "budgets": {}, "agreement": None, "report": "docs/results/x",
                          "profile": "cpu", "commit": "0123456789abcdef", "date": "2026-12-05T00:00:00"}


def test_committed_line_names_report_commit_and_budgets(monkeypatch):
    monkeypatch.setattr(committed, "load", lambda: {"a.b": {
        "verdict": "pass", "budgets": {"polished": "pass", "adam": "inconclusive"}, "agreement": "depends on the budget",
        "report": "docs/results/x", "profile": "cpu", "commit": "0123456789abcdef", "date": "2026-12-05T00:00:00"}})
    line = committed.committed_line("a.b")
    assert line == ("committed cpu answer (docs/results/x/report.md, 0123456, 2026-12-05): pass (polished: pass; "
                    "adam: inconclusive; depends on the budget)")
    assert committed.committed_line("a.zzz") == "no committed cpu-scale answer for this claim"


def _report(root, folder, date, results):
    path = root / folder
    path.mkdir(parents=True)
    (path / "results.json").write_text(json.dumps({"results": results, "provenance": {"commit": "c", "date": date}}))


def _result(name, verdict, budgets=None):
    data = {"budgets": {b: {"verdict": v} for b, v in budgets.items()}, "agreement": "x"} if budgets else {}
    return {"name": name, "verdict": verdict, "summary": "", "data": data}


def test_a_later_two_budget_answer_supersedes_and_an_unfinished_claim_never_does(tmp_path, monkeypatch):
    two = {"polished": "pass", "adam": "inconclusive"}
    _report(tmp_path, "old", "2026-01-01", [_result("a.done", "inconclusive"), _result("a.open", "inconclusive"),
                                             _result("g.gated", "pass")])
    _report(tmp_path, "part1", "2026-02-01", [_result("a.done", "pass", two), _result("a.open", "inconclusive"),
                                               _result("a.ext", "inconclusive", {"polished": "inconclusive"})])
    _report(tmp_path, "ext", "2026-03-01", [_result("a.ext", "not reproduced", {"polished": "not reproduced"}),
                                             _result("a.open", "inconclusive")])
    _report(tmp_path, "stale", "2025-12-01", [_result("a.done", "fail", two)])     # older: never replaces a newer one
    monkeypatch.setattr(committed, "REPORTS", {"old": "cpu", "part1": "cpu", "ext": "cpu", "stale": "cpu"})
    got = {k: (v["verdict"], v["report"]) for k, v in committed.collect(tmp_path).items()}
    assert got == {"a.done": ("pass", "part1"), "a.open": ("inconclusive", "old"),
                   "a.ext": ("not reproduced", "ext"), "g.gated": ("pass", "old")}
