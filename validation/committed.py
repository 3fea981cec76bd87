"""The committed cpu-scale answers of the trained-model claims, shipped with the package.

The quick profile trains toy models: a smoke test that decides nothing (``validation.registry._smoke_test``: a
trained-model claim, i.e. one with a committed cpu answer, is *inconclusive (smoke test)* there). Beside each such claim it
shows what the project found at CPU scale, read from ``validation/data/committed_verdicts.json`` (package
data, so an installed wheel has it). That file is extracted from the committed reports
(:data:`REPORTS`, each a ``results.json`` written by ``python -m validation`` or by the profile scripts
``benchmarks/memory_arch/cpu_results.py`` and ``benchmarks/gated_rnn/run_sweep.py``, which refresh it with
:func:`refresh`); ``tests/test_committed.py`` checks that it matches them.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
# report folder (relative to the repository root) -> the profile it answers. The two-budget architecture profile
# is long and committed part by part (docs/results/cpu-architectures/runs/): its interim reports answer the claims
# whose runs are all in, and say "not finished" (no numbers) for the others. A claim's committed answer is
# therefore the newest answer under the two-budget rule (an entry with budgets), else the earlier report's.
# Every report folder committed under INTERIM counts, without being listed here.
REPORTS = {"docs/results/cpu-architectures": "cpu", "docs/results/cpu-gated": "cpu"}
INTERIM = "docs/results/cpu-architectures/runs"
DATA = "committed_verdicts.json"


def _results(doc: dict) -> tuple[list[dict], dict]:
    """(check results, provenance) of a results.json (a validation report, or one wrapped under "checks")."""
    inner = doc.get("checks") if isinstance(doc.get("checks"), dict) else doc
    prov = doc.get("provenance") or {}
    return inner.get("results") or [], {"commit": prov.get("commit") or inner.get("commit"),
                                        "date": prov.get("date") or inner.get("time")}


def _extract(doc: dict, report: str, profile: str) -> dict[str, dict]:
    """check name -> its committed answer (verdict, the budgets' verdicts where the check has two, agreement,
    report folder, profile, commit, date) from one report's results.json."""
    results, prov = _results(doc)
    out = {}
    for r in results:
        data = r.get("data") or {}
        budgets = {b: v.get("verdict") for b, v in (data.get("budgets") or {}).items() if isinstance(v, dict)}
        out[r["name"]] = {"verdict": r["verdict"], "budgets": budgets, "agreement": data.get("agreement"),
                          "report": report, "profile": profile, "commit": prov["commit"], "date": prov["date"]}
    return out


def collect(root: Path = ROOT) -> dict[str, dict]:
    """The committed answer of every claim in the reports of :data:`REPORTS` and under :data:`INTERIM` below
    ``root`` (a path: the repository's root; see there which answer a claim keeps when several reports hold it)."""
    root = _root(root)
    out: dict[str, dict] = {}
    interim = sorted(p.parent.relative_to(root).as_posix() for p in (Path(root) / INTERIM).glob("*/results.json"))
    for report, profile in {**REPORTS, **dict.fromkeys(interim, "cpu")}.items():
        path = Path(root) / report / "results.json"
        for name, ans in _extract(json.loads(path.read_text(encoding="utf-8")), report, profile).items():
            if name not in out or (ans["budgets"] and _newer(ans, out[name])):
                out[name] = ans
    return dict(sorted(out.items()))


def _newer(a: dict, b: dict) -> bool:
    """Whether answer ``a`` supersedes ``b``: an answer under the two-budget rule beats one without (the retired
    Adam-only rule); between two, the later date. (An interim report's unfinished claim has no budgets: it never
    replaces an answer.)"""
    return (bool(a["budgets"]), a["date"] or "") > (bool(b["budgets"]), b["date"] or "")


def refresh(root: Path = ROOT) -> Path:
    """Rewrite the packaged ``validation/data/committed_verdicts.json`` from the committed reports below ``root``
    (a path: the repository's root)."""
    root = _root(root)
    path = Path(__file__).resolve().parent / "data" / DATA
    path.write_text(json.dumps(collect(root), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


def _root(root) -> Path:
    """``root`` as a Path to an existing folder (a TypeError / ValueError naming ``root`` otherwise)."""
    from theory._args import as_path

    folder = Path(as_path("root", root))
    if not folder.is_dir():
        raise ValueError(f"root must be a folder (the repository's root), got {str(folder)!r:.80}")
    return folder


def load() -> dict[str, dict]:
    """The packaged committed answers (empty if the package was built without them)."""
    try:
        text = resources.files("validation").joinpath("data", DATA).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    return json.loads(text)


def committed_line(name: str) -> str:
    """One line: the committed cpu answer of check ``name`` (a check's name, str) with its report, commit and date."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a check's name (str), got {type(name).__name__} {name!r:.60}")
    c = load().get(name)
    if c is None:
        return "no committed cpu-scale answer for this claim"
    budgets = "; ".join(f"{b}: {v}" for b, v in c["budgets"].items())
    when = ", ".join(x for x in ((c["commit"] or "")[:7], (c["date"] or "")[:10]) if x)
    return (f"committed {c['profile']} answer ({c['report']}/report.md{', ' + when if when else ''}): {c['verdict']}"
            + (f" ({budgets}; {c['agreement']})" if budgets else ""))

