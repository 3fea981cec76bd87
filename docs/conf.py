"""Sphinx configuration of the seqtheory documentation (MyST Markdown pages + API reference from docstrings).

Build: ``python -m sphinx -W -b html docs docs/_build/html`` (warnings are errors; ``bash scripts/run docs``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))             # document this checkout, not another installed copy
os.environ.setdefault("MPLBACKEND", "Agg")

project = "seqtheory"
author = "the seqtheory developers"
copyright = "2026, the seqtheory developers"
release = "0.1.0"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
DOCS = Path(__file__).resolve().parent
# Committed result reports (docs/results/<name>/report.md) are pages; anything else under results/ is data.
_REPORTS = sorted(p.relative_to(DOCS).with_suffix("").as_posix() for p in DOCS.glob("results/*/report.md"))
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"] + [
    p.relative_to(DOCS).as_posix() for p in DOCS.glob("results/**/*.md") if p.name != "report.md"]

# API reference: one page per module, generated from the docstrings at build time (api/generated is not
# committed). Docstrings are written for humans reading the source first: their ``code`` and math stay plain.
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_mock_imports: list[str] = []
napoleon_google_docstring = False
napoleon_numpy_docstring = True
# Docstrings name each other by short names; an unresolved short name is not an error of the docs.
nitpicky = False
suppress_warnings = ["myst.header"]       # the committed result reports start at level-2 sections

_RST_SPECIAL = str.maketrans({c: "\\" + c for c in "\\*`|_[]<>:"})


def _docstring_as_text(app, what, name, obj, options, lines):
    """Show each docstring as the source writes it: a plain summary line, then the text as a literal block.

    The toolkit's docstrings are plain text with math (``|y|``, ``E||x||^2``, ``n^(k+2)``) and doctests, written
    to be read in the source and by ``help()``; parsing them as reStructuredText would mangle the math and
    turn every ``|`` into a substitution. A literal block keeps them exact and makes the build warning-free
    whatever a docstring contains.
    """
    if not lines or not any(l.strip() for l in lines):
        return
    i = next(i for i, l in enumerate(lines) if l.strip())
    first = lines[i].strip().translate(_RST_SPECIAL)
    rest = lines[i + 1:]
    while rest and not rest[0].strip():
        rest = rest[1:]
    body = [("    " + l) if l.strip() else "" for l in rest]
    lines[:] = [first, ""] + (["::", ""] + body + [""] if body else [])


def _results_toctree(app, docname, source):
    """List the committed CPU-scale reports on the cpu-results page (none is an honest empty list)."""
    if docname != "cpu-results":
        return
    if _REPORTS:
        source[0] += "\n```{toctree}\n:maxdepth: 1\n\n" + "\n".join(_REPORTS) + "\n```\n"
    else:
        source[0] += "\n*No CPU-scale report is committed in this checkout yet.*\n"


def setup(app):
    app.connect("autodoc-process-docstring", _docstring_as_text)
    app.connect("source-read", _results_toctree)

html_theme = "furo"
html_title = "seqtheory"
html_static_path: list[str] = []
