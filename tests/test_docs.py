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


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The site, built once per test session with warnings as errors (the build test and the browser test read it).

    Once per session, not once per pytest-xdist worker: autosummary writes its stubs into the source tree
    (docs/api/generated), so two workers building at once could read a stub while the other rewrites it (a CI
    run saw the API page of ``theory.signal_energy`` come out empty that way). The first worker builds under an
    exclusive lock in the folder that all workers of the session share; the others wait and read its site."""
    import fcntl

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent                      # pytest-N/: shared by the session's workers (popen-gwK below it)
    out, done = base / "site", base / "site" / "built"
    out.mkdir(exist_ok=True)
    with open(base / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_file():
            env = {**os.environ, "MPLBACKEND": "Agg", "OPENBLAS_NUM_THREADS": "1"}
            proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                                   "-d", str(out / "doctrees"), str(ROOT / "docs"), str(out / "html")],
                                  capture_output=True, text=True, env=env, cwd=ROOT, timeout=900)
            assert proc.returncode == 0, (proc.stdout + proc.stderr)[-6000:]
            done.write_text("ok\n")
    return out / "html"


@pytest.mark.slow
def test_sphinx_build_has_no_warnings(built_site):
    """The site builds with warnings as errors: in the full job and in the core job, whose environment has the
    docs extra but no PyTorch (the API pages import the torch modules with torch mocked: docs/conf.py)."""
    html = built_site
    for page in ("index", "papers/signal-propagation", "papers/memory-functions", "papers/anti-collapse",
                 "cpu-results", "api/index"):
        assert (html / f"{page}.html").is_file(), page
    api = (html / "api" / "generated").glob("*.html")
    names = {p.stem for p in api}
    assert {"theory.signal_energy", "numerics.memory_functions.bench.sweep", "validation.registry",
            "numerics.memory_functions.models.lstm"} <= names                  # torch-only modules import and are documented
    assert _unrendered_markup(html) == []
    _assert_math_served_locally(html)
    assert (html / "results" / "real-weight-rows.html").is_file()       # every committed report is a page
    _assert_the_seqtheory_page_lists_every_public_name(html)
    for paper in ("signal-propagation", "memory-functions", "anti-collapse"):    # each with its key figures
        page = (html / "papers" / f"{paper}.html").read_text(encoding="utf-8")
        images = re.findall(r'<img [^>]*src="([^"]+)"', page)
        assert images and all((html / "papers" / src).resolve().is_file() for src in images), (paper, images)


# reST / MyST markup that reaches the page as text: a directive, a role, display math delimiters, a ``literal``
# left unparsed (a numpydoc description in the type slot of a Parameters entry is shown verbatim)
_RAW = re.compile(r"\.\. [a-z-]+::|:(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj|math|ref|doc):`"
                  r"|\{(?:func|class|meth|mod|data|attr|exc|py:[a-z]+|math|ref|doc)\}`|\$\$|``[^`\n]+``")
# a cross-reference Sphinx could not resolve is left as <code class="xref ..."> outside any link
_XREF = re.compile(r'(<a [^>]*>\s*)?<code class="xref [^"]*"><span class="pre">([^<]*)</span>')
_SKIP = ("_modules/", "_sources/", "_static/", "search.html", "genindex.html", "py-modindex.html")


def _unrendered_markup(html: Path) -> list[str]:
    """Every raw directive or role left as text, and every unresolved cross-reference (builtins such as
    ``object`` cannot link without network access; they are code, which is what they are)."""
    import builtins
    import html as html_lib

    hits = []
    for page in sorted(html.rglob("*.html")):
        rel = page.relative_to(html).as_posix()
        if rel.startswith(_SKIP):
            continue
        body = page.read_text(encoding="utf-8")
        body = body[body.find("<article"):body.find("</article>")]
        text = html_lib.unescape(re.sub(r"<[^>]+>", "", body))
        hits += [f"{rel}: raw {text[max(0, m.start() - 30):m.end() + 30]!r}" for m in _RAW.finditer(text)]
        hits += [f"{rel}: unresolved {m.group(2)!r}" for m in _XREF.finditer(body)
                 if not m.group(1) and not hasattr(builtins, m.group(2))]
    return hits


def _assert_the_seqtheory_page_lists_every_public_name(html: Path):
    """The API reference has the user's package: every name of ``seqtheory.__all__``, linked to its page."""
    import seqtheory

    page = (html / "api" / "seqtheory.html").read_text(encoding="utf-8")
    page = page[page.index("<table"):page.index("</table>")]
    rows = re.findall(r'<code class="docutils literal notranslate"><span class="pre">seqtheory\.(\w+)</span>', page)
    assert set(rows) == set(seqtheory.__all__) - {"__version__"}, set(seqtheory.__all__) ^ set(rows)
    links = re.findall(r'<a class="reference internal" href="generated/[^"]+#([\w.]+)"', page)
    assert len(links) >= len(rows), (len(links), len(rows))
    assert 'href="seqtheory.html"' in (html / "api" / "index.html").read_text(encoding="utf-8")


def _assert_math_served_locally(html: Path):
    page = (html / "api" / "generated" / "theory.signal_energy.html").read_text(encoding="utf-8")
    assert 'class="math' in page                                   # the docstrings' math is math
    scripts = re.findall(r'<script[^>]*src="([^"]+)"', page)
    assert any(s.endswith("_static/mathjax/tex-chtml.js") for s in scripts), scripts
    assert (html / "_static" / "mathjax" / "tex-chtml.js").is_file()
    for page in html.rglob("*.html"):
        remote = re.findall(r'<(?:script|link)[^>]*(?:src|href)="(https?:[^"]+)"', page.read_text(encoding="utf-8"))
        assert remote == [], (page, remote)                       # no CDN: the site works offline



# Browser pages: a paper page, API pages (module docstrings' formulas: inline math), and pages with long code lines
_BROWSER_PAGES = ("papers/signal-propagation.html", "api/generated/theory.signal_energy.html",
                  "api/generated/theory.horizon.html", "api/seqtheory.html", "tools/horizon.html",
                  "using-seqtheory.html", "conventions.html")


@pytest.mark.slow
@pytest.mark.torch     # not torch itself: one browser run, in the full job (the core job builds the site without torch)
def test_the_site_renders_in_a_real_browser_offline(built_site):
    """Debian's chromium (headless, driven by selenium through chromedriver; installed by scripts/run) opens
    pages from file:// with the network off: the math is typeset by the locally served MathJax (its output
    elements present, no TeX error, no TeX delimiters left in the text), the module docstrings' formulas are
    inline math on the API pages (issue 44: they were ASCII in code spans), every figure loads, and no code
    block is wider than its box (issue 44: long lines overflowed sideways and cut their comments)."""
    from browser import offline_chromium, page_report

    with offline_chromium() as driver:
        reports = {page: page_report(driver, built_site / page) for page in _BROWSER_PAGES}
    for page, rep in reports.items():
        assert rep["network"] is False, rep                      # the network is off: a CDN request fails
        assert rep["typeset"] == rep["math"] and rep["tex_errors"] == 0, (page, rep)
        assert rep["raw_tex"] == [], (page, rep["raw_tex"][:5])
        assert rep["images"] == rep["loaded"], (page, rep)
        assert rep["overflowing"] == 0, (page, rep)
    assert reports["papers/signal-propagation.html"]["images"] > 0
    for page in ("api/generated/theory.signal_energy.html", "api/generated/theory.horizon.html", "api/seqtheory.html"):
        assert reports[page]["inline_math"] >= 10, (page, reports[page])
    assert reports["tools/horizon.html"]["code_blocks"] >= 5


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
