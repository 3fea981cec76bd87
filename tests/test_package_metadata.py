"""What the package claims about itself is true: the Python range it is tested on, a changelog for its
version, a user page for the wheel, notebooks written against ``import seqtheory`` that need no checkout."""

from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_the_claimed_python_range_is_the_tested_one():
    # only 3.11 can be installed here and in CI: claim no older version
    assert PROJECT["requires-python"] == ">=3.11" and sys.version_info[:2] == (3, 11)
    versions = [c.rsplit(":: ", 1)[1] for c in PROJECT["classifiers"] if c.startswith("Programming Language :: Python :: 3.")]
    assert versions == ["3.11"]


def test_the_changelog_has_the_version():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert f"## {PROJECT['version']}" in text


def test_the_user_page_shows_the_wheel_the_command_and_the_api():
    page = (ROOT / "docs" / "using-seqtheory.md").read_text()
    assert "pip install seqtheory-" in page and "import seqtheory" in page and "seqtheory validate" in page
    assert "using-seqtheory" in (ROOT / "docs" / "index.md").read_text()


def _code(nb: Path) -> str:
    return "\n".join("".join(c["source"]) for c in json.loads(nb.read_text())["cells"] if c["cell_type"] == "code")


def test_the_notebooks_need_no_checkout():
    for nb in sorted((ROOT / "notebooks").glob("0*.ipynb")):
        code = _code(nb)
        assert "../" not in code and "benchmarks/" not in code, f"{nb.name} reads a file of the checkout"
        # imported and used (06 teaches the gated-RNN internals too, and ends with the public tool)
        assert "import seqtheory" in code, f"{nb.name} does not import seqtheory"
        assert re.search(r"\bseqtheory\.[a-zA-Z_]+\(|from seqtheory import", code), f"{nb.name} calls nothing of seqtheory"
