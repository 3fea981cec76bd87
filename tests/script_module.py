"""(test helper) A script of the repository as a module: ``benchmarks/...`` and ``scripts/...`` are folders of
scripts, not packages, so their tests load them from the file."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load(relpath: str, name: str | None = None, *, beside: bool = False) -> ModuleType:
    """The script ``ROOT/relpath`` executed as a fresh module called ``name`` (default: the file's stem).

    ``beside=True`` puts the script's folder on ``sys.path`` while it runs, for scripts that import their
    neighbours (``benchmarks/mutants``); the path is restored afterwards. The module is not registered in
    ``sys.modules``: each call gives a new one.
    """
    path = ROOT / relpath
    if not path.is_file():
        raise FileNotFoundError(f"relpath: no script {relpath!r} under {ROOT}")
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    module = importlib.util.module_from_spec(spec)
    if beside:
        sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        if beside:
            sys.path.remove(str(path.parent))
    return module
