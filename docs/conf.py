"""Sphinx configuration of the seqtheory documentation (MyST Markdown pages + API reference from docstrings).

Build: ``python -m sphinx -W -b html docs docs/_build/html`` (warnings are errors; ``bash scripts/run docs``).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))             # document this checkout, not another installed copy
sys.path.insert(1, str(Path(__file__).resolve().parent))     # docs/_mathspans.py

from _mathspans import math_roles  # noqa: E402
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
    "sphinx-mathjax-offline",             # MathJax 3 copied into _static/mathjax: math renders offline
    "sphinx.ext.viewcode",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
DOCS = Path(__file__).resolve().parent
# Committed result reports (docs/results/<name>/report.md, docs/results/<name>.md) are pages; the READMEs
# under results/ describe the folders for a reader of the repository (cpu-results.md says it for the site).
_REPORTS = sorted(p.relative_to(DOCS).with_suffix("").as_posix()
                  for p in [*DOCS.glob("results/*/report.md"), *DOCS.glob("results/*.md")] if p.name != "README.md")
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"] + [
    p.relative_to(DOCS).as_posix() for p in DOCS.glob("results/**/*.md")
    if p.relative_to(DOCS).with_suffix("").as_posix() not in _REPORTS]

# API reference: one page per module, generated from the docstrings at build time (api/generated is not
# committed). Docstrings are reStructuredText with numpydoc sections (napoleon), ``.. math::`` and roles.
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True,
                           "ignore-module-all": True}      # every public name, as the autosummary tables list
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented_params"   # numpydoc sections state their own types
# PyTorch is an extra (models): the docs extra builds the site without it. Its modules import torch at the top,
# so autodoc imports them with torch mocked, installed or not (the same site either way; tests/test_docs.py
# builds it in an environment without torch).
autodoc_mock_imports = ["torch"]
# scipy.stats draws examples of its distributions when first imported, asking whether arrays are torch tensors
# (scipy's array-API dispatch): under the mock that question fails. Import it here, before any mocked import.
import scipy.stats  # noqa: E402,F401
napoleon_google_docstring = False
napoleon_numpy_docstring = True
# Parameter types stay the words the docstring writes ("int >= 0", '"exact" | "float"'), not cross-references.
napoleon_use_param = False
napoleon_use_rtype = False
# Every cross-reference must resolve (warnings are errors): short names are looked up among the documented
# objects, names of other libraries and private helpers are shown as code (no network: no intersphinx).
nitpicky = True
suppress_warnings = ["myst.header"]       # the committed result reports start at level-2 sections

# Packages outside this project: their names render as code (the site is built without network access).
_EXTERNAL = ("numpy", "np", "torch", "nn", "pathlib", "os", "sympy", "fractions", "concurrent", "scipy",
             "mpmath", "numba", "matplotlib", "dask", "flint", "Path", "Fraction", "Module")
# Text of a docstring that is not reST markup: ``|x|``, ``||x||^2`` are absolute values and norms.
_MARKUP = re.compile(r"(``.+?``|:[a-z:]+:`[^`]+`|`[^`]+`_{0,2})")


def _escape_bars(app, what, name, obj, options, lines):
    """Escape ``|`` outside literals, roles, directives and doctests: it is math, not a substitution."""
    block_indent, doctest = None, False
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if block_indent is not None:
            if not stripped or indent > block_indent:
                continue
            block_indent = None
        if doctest or stripped.startswith(">>>"):
            doctest = bool(stripped)
            continue
        if stripped.startswith(".. "):
            block_indent = indent
            continue
        if stripped.endswith("::"):
            block_indent = indent
        parts = _MARKUP.split(line)
        lines[i] = "".join(p if k % 2 else p.replace("|", "\\|") for k, p in enumerate(parts))


def _module_math(app, what, name, obj, options, lines):
    """Module docstrings write formulas as ASCII math in code spans: typeset them (docs/_mathspans.py)."""
    if what == "module":
        math_roles(lines)


def _public_names() -> list[tuple[str, str, str]]:
    """``(name, documented target, summary)`` for every name of ``seqtheory.__all__``, from its export table
    (the PyTorch models imported with torch mocked, as autodoc does)."""
    import importlib
    import inspect

    from sphinx.ext.autodoc.mock import mock

    import seqtheory

    rows = []
    for name in seqtheory.__all__:
        if name not in seqtheory._WHERE:
            continue
        mod, attr = seqtheory._WHERE[name]
        mod += f".{seqtheory._MODELS[name]}" if name in seqtheory._MODELS else ""
        with mock(autodoc_mock_imports):
            value = getattr(importlib.import_module(mod), attr)
        if inspect.isfunction(value) or inspect.isclass(value):
            target = f"{value.__module__}.{value.__qualname__}"
            summary = [(inspect.getdoc(value) or "").strip().split("\n\n")[0].replace("\n", " ")]
            math_roles(summary)                        # the formulas of the summary line typeset
            summary = summary[0]
        else:
            target, summary = f"{mod}.{attr}", f"constant: ``{value!r:.70}``"
        rows.append((name, target, summary))
    return rows


def _seqtheory_page(app, docname, source):
    """The API page of the user's package: every public name (``seqtheory.__all__``), what it is, where it is
    documented. Generated at build time, so a name added to the package is listed without editing the page."""
    if docname != "api/seqtheory":
        return
    rows = "".join(f"   * - ``seqtheory.{name}``\n     - :py:obj:`{target}`\n     - {summary}\n"
                   for name, target, summary in _public_names())
    source[0] += ("\n.. list-table::\n   :header-rows: 1\n   :widths: 20 30 50\n\n"
                  "   * - name\n     - documented as\n     - what it is\n" + rows)


def _shown_as_code(target: str, module: str) -> bool:
    """True for a name of another library, a private helper, or an undocumented object of this project
    that exists (a module constant without a doc comment): shown as code, not as a broken link."""
    import importlib
    import importlib.util

    parts = target.split(".")
    if parts[0] in _EXTERNAL or any(p.startswith("_") and not p.startswith("__") for p in parts):
        return True
    if parts[0] not in ("theory", "numerics", "validation"):
        try:
            if importlib.util.find_spec(parts[0]) is not None:
                return True
        except (ImportError, ValueError):
            pass
    for full in ([f"{module}.{target}"] if module else []) + [target]:
        mod, _, attr = full.rpartition(".")
        try:
            if mod and hasattr(importlib.import_module(mod), attr):
                return True
        except ImportError:
            continue
    return False


def _resolve_reference(app, env, node, contnode):
    """Resolve a short name (``Q``, ``ResultStore.claim``) to the one documented object it ends; show the
    names of other libraries and of private helpers as code."""
    if node.get("refdomain") != "py":
        return None
    from docutils import nodes
    from sphinx.util.nodes import make_refnode

    target = node["reftarget"].lstrip("~.")
    objects = env.get_domain("py").objects
    found = [name for name in objects if name.endswith("." + target) and not objects[name].aliased]
    if found:
        here = node.get("py:module") or ""
        # the candidate nearest the citing module: longest shared dotted prefix, then the shortest name
        def rank(name):
            shared = len([a for a, b in zip(name.split("."), here.split(".")) if a == b])
            return (-shared, len(name))
        best = min(found, key=rank)
        entry = objects[best]
        return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, best)
    if _shown_as_code(target, node.get("py:module") or ""):
        return nodes.literal(text=contnode.astext())
    return None


def _results_toctree(app, docname, source):
    """List the committed CPU-scale reports on the cpu-results page (none is an honest empty list)."""
    if docname != "cpu-results":
        return
    if _REPORTS:
        source[0] += "\n```{toctree}\n:maxdepth: 1\n\n" + "\n".join(_REPORTS) + "\n```\n"
    else:
        source[0] += "\n*No CPU-scale report is committed in this checkout yet.*\n"


def setup(app):
    app.connect("autodoc-process-docstring", _module_math)          # before _escape_bars: roles keep their |
    app.connect("autodoc-process-docstring", _escape_bars)
    app.connect("source-read", _seqtheory_page)
    app.connect("missing-reference", _resolve_reference)
    app.connect("source-read", _results_toctree)

html_theme = "furo"
html_title = "seqtheory"
html_static_path = ["_static"]
html_css_files = ["wrap.css"]
