"""Build the teaching notebooks from their ``notebooks/_build_*.py`` scripts, executed, with outputs and figures.

Each teaching notebook is generated from a plain Python script so that its source reviews as code::

    from _nbbuild import Notebook
    nb = Notebook(__file__, "01_how_long_does_infinite_width_last.ipynb")
    nb.md(r"# Title ...")
    nb.code("import theory")
    nb.write()          # executes the notebook (nbclient) and writes it with its outputs

Commands (from the repository root)::

    python notebooks/_nbbuild.py --all           # rebuild and re-execute every notebook (bash scripts/run notebooks)
    python notebooks/_nbbuild.py 01 05           # only these
    python notebooks/_build_01_how_long_does_infinite_width_last.py                # one, executed
    python notebooks/_build_01_how_long_does_infinite_width_last.py --no-execute   # one, without outputs

The notebooks are committed executed, so a reader of the repository sees every figure; CI executes them
again (``pytest --nbmake notebooks``). The kernel imports this checkout (its root goes first on
``PYTHONPATH``), so a notebook always shows the code next to it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import nbformat as nbf

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CELL_TIMEOUT_S = 900


class Notebook:
    """An ordered list of Markdown and code cells that is written next to the build script."""

    def __init__(self, build_script: str, name: str) -> None:
        self.path = Path(build_script).with_name(name)
        self.cells: list = []

    def md(self, source: str) -> None:
        self.cells.append(nbf.v4.new_markdown_cell(source.strip()))

    def code(self, source: str) -> None:
        self.cells.append(nbf.v4.new_code_cell(source.strip()))

    def write(self, execute: bool | None = None) -> Path:
        """Write the notebook; executed (outputs and figures) unless ``--no-execute`` or ``execute=False``."""
        if execute is None:
            execute = "--no-execute" not in sys.argv[1:] and os.environ.get("NBBUILD_EXECUTE", "1") != "0"
        nb = nbf.v4.new_notebook()
        nb["cells"] = self.cells
        nb["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nb["metadata"]["language_info"] = {"name": "python"}
        if execute:
            t0 = time.perf_counter()
            execute_notebook(nb, self.path.parent)
            print(f"executed {self.path.name} in {time.perf_counter() - t0:.0f} s")
        nbf.validate(nb)
        nbf.write(nb, self.path)
        print(f"wrote {self.path}")
        return self.path


def execute_notebook(nb, cwd: Path) -> None:
    """Run every cell in a fresh kernel whose imports resolve to this checkout (raises on a failing cell)."""
    from nbclient import NotebookClient

    env_path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = str(ROOT) + (os.pathsep + env_path if env_path else "")
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    try:
        client = NotebookClient(nb, timeout=CELL_TIMEOUT_S, kernel_name="python3", record_timing=False,
                                resources={"metadata": {"path": str(cwd)}})
        client.execute()
    finally:
        os.environ["PYTHONPATH"] = env_path
        if not env_path:
            del os.environ["PYTHONPATH"]
    for cell in nb.cells:                  # no per-run metadata: a rebuild that changes nothing diffs empty
        cell.get("metadata", {}).pop("execution", None)


def build_scripts(selected: list[str] | None = None) -> list[Path]:
    """The ``_build_NN_*.py`` scripts, all or those whose number/name starts with one of ``selected``."""
    scripts = sorted(HERE.glob("_build_*.py"))
    if not selected:
        return scripts
    chosen = [s for s in scripts if any(s.stem[len("_build_"):].startswith(k) for k in selected)]
    unknown = [k for k in selected if not any(s.stem[len("_build_"):].startswith(k) for s in scripts)]
    if unknown:
        raise SystemExit(f"_nbbuild.py: error: no notebook build script matches {unknown}")
    return chosen


def main(argv: list[str]) -> int:
    flags = [a for a in argv if a.startswith("-")]
    names = [a for a in argv if not a.startswith("-")]
    if not names and "--all" not in flags:
        print(__doc__.split("Commands (from the repository root)::")[1].split("The notebooks")[0].rstrip())
        return 2
    passthrough = [f for f in flags if f == "--no-execute"]
    failed = []
    for script in build_scripts(names):
        print(f"== {script.name}", flush=True)
        proc = subprocess.run([sys.executable, script.name, *passthrough], cwd=HERE)
        if proc.returncode != 0:
            failed.append(script.name)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
