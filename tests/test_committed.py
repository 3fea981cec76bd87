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
    got = committed.extract(doc, "docs/results/x", "cpu")
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
