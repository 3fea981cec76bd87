"""A missing optional extra degrades: a check that needs it is *not run* naming the extra (never an
``error``), every command's ``--help`` works without it, and the command line and the ``seqtheory`` API name
the extra to install. The extras are hidden in a subprocess by a finder first on ``sys.meta_path`` (importing
one raises ``ModuleNotFoundError`` as on a machine without it; ``sys.modules[name] = None`` would not do:
scipy looks torch up in ``sys.modules``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


from seqtheory.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
HIDE = """import importlib.abc, sys
class _Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in {mods!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, _Hide())
"""


def _run(code: str, hide: tuple[str, ...], tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", HIDE.format(mods=list(hide)) + code], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)


def test_checks_needing_flint_are_not_run_naming_the_extra(tmp_path):
    code = ("from seqtheory.cli.validate import main\n"
            f"sys.exit(main(['--only', 'signal.[Sp]*', '--report', {str(tmp_path / 'rep')!r}, '--no-progress', '--json']))")
    res = _run(code, ("flint",), tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout)
    verdicts = {r["name"]: (r["verdict"], r["summary"]) for r in out["results"]}
    assert "error" not in out["counts"], verdicts
    not_run = {k: s for k, (v, s) in verdicts.items() if v == "not run"}
    assert not_run and all("'certified' extra" in s for s in not_run.values()), not_run


def test_checks_needing_torch_are_not_run_naming_the_extra(tmp_path):
    code = ("from seqtheory.cli.validate import main\n"
            f"sys.exit(main(['--only', 'gated_rnn.constgate*', '--report', {str(tmp_path / 'rep')!r}, "
            "'--no-progress', '--json']))")
    res = _run(code, ("torch",), tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout)
    assert out["results"] and set(out["counts"]) == {"not run"}, out["counts"]
    assert all("'models' extra" in r["summary"] for r in out["results"])


def test_every_help_works_without_the_extras(tmp_path):
    for name in COMMANDS:
        code = f"from seqtheory.cli import main\nsys.exit(main([{name!r}, '--help']))"
        res = _run(code, ("torch", "flint", "dask", "distributed"), tmp_path)
        assert res.returncode == 0 and "usage: seqtheory" in res.stdout, (name, res.stderr[-2000:])


def test_the_api_names_the_extra(tmp_path):
    res = _run("import seqtheory\nseqtheory.LSTM", ("torch",), tmp_path)
    assert res.returncode == 1 and "seqtheory.LSTM needs the 'models' extra" in res.stderr, res.stderr[-2000:]
    assert "pip install 'seqtheory[models]'" in res.stderr
