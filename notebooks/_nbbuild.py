"""Shared helper of the ``notebooks/_build_*.py`` scripts: collect cells, write a notebook without outputs.

Each teaching notebook is generated from a plain Python script so that its source reviews as code::

    from _nbbuild import Notebook
    nb = Notebook(__file__, "01_how_long_does_infinite_width_last.ipynb")
    nb.md(r"# Title ...")
    nb.code("import theory")
    nb.write()

The notebooks are stored without outputs; CI executes them (``pytest --nbmake notebooks``).
"""

from __future__ import annotations

from pathlib import Path

import nbformat as nbf


class Notebook:
    """An ordered list of Markdown and code cells that is written next to the build script."""

    def __init__(self, build_script: str, name: str) -> None:
        self.path = Path(build_script).with_name(name)
        self.cells: list = []

    def md(self, source: str) -> None:
        self.cells.append(nbf.v4.new_markdown_cell(source.strip()))

    def code(self, source: str) -> None:
        self.cells.append(nbf.v4.new_code_cell(source.strip()))

    def write(self) -> Path:
        nb = nbf.v4.new_notebook()
        nb["cells"] = self.cells
        nb["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nbf.write(nb, self.path)
        print(f"wrote {self.path}")
        return self.path
