"""The public API as a user and a static tool see it: ``seqtheory.__all__``, ``dir()``, the ``TYPE_CHECKING``
import block, ``py.typed``, completion, and numpydoc docstrings on every exported callable."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import seqtheory

ROOT = Path(__file__).resolve().parents[1]
ROLES = (":func:", ":class:", ":mod:", ":meth:", ":data:", ":attr:")
TORCH_NAMES = ("LSTM", "S4D", "TCN", "Transformer", "rnn_timescales", "as_rnn", "RNNTimescales")


def _exports():
    return [pytest.param(n, marks=[pytest.mark.torch] if n in TORCH_NAMES else []) for n in seqtheory.__all__
            if n != "__version__"]


def _takes_parameters(obj) -> bool:
    try:
        return bool(inspect.signature(obj).parameters)
    except (TypeError, ValueError):
        return True


@pytest.mark.parametrize("name", _exports())
def test_every_export_has_a_docstring_that_opens_in_plain_words(name):
    obj = getattr(seqtheory, name)
    if not callable(obj):
        return                                         # constants (KINDS, REGIMES, ...) document their module
    doc = inspect.getdoc(obj)
    assert doc, f"seqtheory.{name} has no docstring"
    first = doc.splitlines()[0]
    assert not any(r in first for r in ROLES), f"help(seqtheory.{name}) opens with a raw reST role: {first!r}"
    if _takes_parameters(obj):
        assert "Parameters\n----------" in doc, f"seqtheory.{name}: no numpydoc Parameters section"
        for section in ("Returns\n-------", "Examples\n--------"):
            assert section in doc, f"seqtheory.{name}: no {section.splitlines()[0]} section"


@pytest.mark.torch
def test_the_model_classes_are_documented():
    for name in ("LSTM", "TCN", "Transformer"):
        doc = getattr(seqtheory, name).__doc__
        assert doc and "Parameters" in doc and "Examples" in doc, name


def test_dir_shows_the_public_names_only():
    assert dir(seqtheory) == sorted(seqtheory.__all__)
    assert not {"annotations", "importlib", "metadata", "TYPE_CHECKING"} & set(dir(seqtheory))
    assert seqtheory.__all__ == ["__version__", *seqtheory._WHERE]        # the literal list is the table's


def test_static_tools_see_every_lazy_name():
    """The ``if TYPE_CHECKING:`` block imports each exported name from its home, under its exported name."""
    tree = ast.parse((ROOT / "seqtheory" / "__init__.py").read_text())
    (block,) = [n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING"]
    seen = {}
    for imp in block.body:
        assert isinstance(imp, ast.ImportFrom)
        for a in imp.names:
            seen[a.asname] = (imp.module, a.name)
    expected = {}
    for name, (mod, attr) in seqtheory._WHERE.items():
        expected[name] = (mod + (f".{seqtheory._MODELS[name]}" if name in seqtheory._MODELS else ""), attr)
    assert seen == expected
    for pkg in ("seqtheory", "theory", "numerics", "validation"):
        assert (ROOT / pkg / "py.typed").is_file()


def test_completion_finds_the_lazy_names():
    import jedi          # ipython's (the test extra's ipykernel): a missing one fails, never skips

    names = {c.name for c in jedi.Script("import seqtheory\nseqtheory.log_").complete(2, len("seqtheory.log_"))}
    assert {"log_Q", "log_S"} <= names, names


@pytest.mark.parametrize("name", _exports())
def test_every_export_has_a_page_on_the_api_site(name):
    """The API site documents each public module's own members (docs/conf.py: autosummary, imported members
    off, private modules skipped): an export whose ``__module__`` is private would be on no page."""
    obj = getattr(seqtheory, name)
    if not callable(obj):
        return
    parts = obj.__module__.split(".")
    assert parts[0] in ("theory", "numerics", "validation"), f"seqtheory.{name} comes from {obj.__module__}"
    assert not any(p.startswith("_") for p in parts), f"seqtheory.{name} is documented on no page: {obj.__module__}"

