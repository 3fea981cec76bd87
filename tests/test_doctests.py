"""Run the doctests of every module of theory, numerics and validation (discovered with pkgutil, so a new
module is covered without editing this file). One test per module: CI (``pytest -n 2 tests``)
runs each module's examples exactly once."""

import doctest
import importlib
import importlib.util
import pkgutil

import pytest
from conftest import file_needs_torch

PACKAGES = ("seqtheory", "theory", "numerics", "validation")


def _modules() -> list[str]:
    out = []
    for name in PACKAGES:
        pkg = importlib.import_module(name)
        out.append(name)
        out += [m.name for m in pkgutil.walk_packages(pkg.__path__, prefix=f"{name}.")]
    return sorted(out)


MODULES = _modules()


def test_discovery_sees_every_package():
    assert {"theory.levy", "numerics.anticollapse.sde", "numerics.anticollapse.gated.delayed_task", "numerics.stats",
            "seqtheory.cli"} <= set(MODULES)


def _param(name: str):
    """A module whose source imports torch (or a torch subpackage) runs its examples only with torch (``torch`` marker)."""
    torch = file_needs_torch(importlib.util.find_spec(name).origin)
    return pytest.param(name, marks=[pytest.mark.torch] if torch else [])


@pytest.mark.parametrize("name", [_param(m) for m in MODULES])
def test_module_doctests(name):
    mod = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in finder.find(mod, name, globs=vars(mod).copy()):
        runner.run(test)
    res = runner.summarize(verbose=False)
    assert res.failed == 0, f"{res.failed} of {res.attempted} doctest examples of {name} failed (output above)"
