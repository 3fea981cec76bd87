"""The documentation site builds with warnings as errors, and no file of the project points outside it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Spelled in pieces so that this file does not match its own search.
_OUTSIDE = [re.escape("shared" + "/spec"), re.escape(".." + "/shared"), r"(?<![\w.])/" + "work/"]


def _tracked_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60).stdout
    except (OSError, subprocess.CalledProcessError):     # an exported tree without git: every text file
        skip = {".git", ".venv", ".venv-ci", "_build", "generated", "validation-report"}
        return [p for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]
    return [ROOT / f for f in out.decode().split("\0") if f]


def test_no_file_names_a_path_outside_the_repository():
    pattern = re.compile("|".join(_OUTSIDE))
    hits = []
    files = _tracked_files()
    assert len(files) > 50
    for path in files:
        if not path.is_file() or path.suffix in {".png", ".sqlite", ".pdf"}:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for i, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{i}: {line.strip()[:120]}")
    assert hits == [], "\n".join(hits)


def test_paper_pages_exist_where_the_docstrings_point():
    # the docstrings and the README cite docs/papers/<name>.md: every such path must exist
    cited = set()
    for path in _tracked_files():
        if path.suffix in {".py", ".md", ".ipynb"} and path.is_file():
            cited.update(re.findall(r"docs/papers/[\w-]+\.md", path.read_text(encoding="utf-8")))
    assert {"docs/papers/signal-propagation.md", "docs/papers/memory-functions.md",
            "docs/papers/anti-collapse.md"} <= cited
    missing = sorted(c for c in cited if not (ROOT / c).is_file())
    assert missing == []


@pytest.mark.slow
@pytest.mark.torch              # the API pages import every module, the PyTorch rooms included
def test_sphinx_build_has_no_warnings(tmp_path):
    env = {**os.environ, "MPLBACKEND": "Agg", "OPENBLAS_NUM_THREADS": "1"}
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           "-d", str(tmp_path / "doctrees"), str(ROOT / "docs"), str(tmp_path / "html")],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=900)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-6000:]
    html = tmp_path / "html"
    for page in ("index", "papers/signal-propagation", "papers/memory-functions", "papers/anti-collapse",
                 "cpu-results", "api/index"):
        assert (html / f"{page}.html").is_file(), page
    api = (html / "api" / "generated").glob("*.html")
    names = {p.stem for p in api}
    assert {"theory.signal_energy", "numerics.memory_bench.sweep", "validation.registry",
            "numerics.models.lstm"} <= names                  # torch-only modules import and are documented


def test_citation_cff_names_the_papers_of_the_readme():
    import yaml          # PyYAML: installed with the distributed extra (dask) and with jupyter
    doc = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    # the fields CFF 1.2.0 requires, with their types
    assert doc["cff-version"] == "1.2.0" and isinstance(doc["message"], str) and isinstance(doc["title"], str)
    assert isinstance(doc["authors"], list) and doc["authors"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ids = set(re.findall(r"arXiv:(\d{4}\.\d{5})", readme))
    assert len(ids) == 3
    cited = {i["value"].split(":")[1] for r in doc["references"] for i in r["identifiers"]}
    assert ids <= cited
    assert all(f"eprint        = {{{i}}}" in readme for i in ids)          # the BibTeX entries
