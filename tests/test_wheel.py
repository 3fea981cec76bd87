"""The wheel works without the repository: build it, install it into a fresh virtual environment that sees
nothing of the development environment, and run the ``seqtheory`` command line from an empty folder.

The environment (``scripts/wheel_check.py``, shared with CI): ``python -m venv`` without system site
packages, the wheel and its dependencies installed by pip from its configured index (no ``.pth`` line to the
running environment: the old test's leak, which let the wheel read the checkout's files and torch),
``PYTHONPATH`` removed; every package is asserted to load from inside the new environment. This is the core
install (no extras): every command's ``--help`` works, every subcommand answers, a check or command that
needs an extra says which one.

Slow parts run in CI's last step instead (``.ci/run``): the *whole* quick validation of the installed wheel
from an empty folder, once in this core install and once with ``[models]`` (torch installed first), never an
``error``; ``seqtheory timescales`` and the notebooks that need package data (06, 07) from the models install.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import script_module

ROOT = Path(__file__).resolve().parents[1]
wheel_check = script_module.load("scripts/wheel_check.py")
pytestmark = [pytest.mark.wheel, pytest.mark.slow]


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """(bin folder, an empty work folder) of a fresh, isolated venv holding the wheel (core install)."""
    base = tmp_path_factory.mktemp("wheel")
    assert not base.resolve().is_relative_to(ROOT)
    wheel = wheel_check.build_wheel(base)
    bin_dir = wheel_check.make_venv(base / "venv", wheel)
    work = base / "work"
    work.mkdir()
    return bin_dir, work


def _cli(bin_dir: Path, work: Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run([str(bin_dir / "seqtheory"), *map(str, args)], cwd=work, env=wheel_check.clean_env(),
                          capture_output=True, text=True, timeout=600)


def _json(bin_dir: Path, work: Path, *args):
    res = _cli(bin_dir, work, *args)
    assert res.returncode == 0, f"{args}: exit {res.returncode}\n{res.stdout[-2000:]}\n{res.stderr[-3000:]}"
    return json.loads(res.stdout)


def test_the_packages_come_from_the_wheel_alone(venv):
    bin_dir, work = venv
    wheel_check.check_isolated(bin_dir, work)
    res = subprocess.run([str(bin_dir / "python"), "-c", "import torch"], cwd=work, env=wheel_check.clean_env(),
                         capture_output=True, text=True)
    assert res.returncode == 1 and "No module named 'torch'" in res.stderr     # nothing leaks in
    assert _cli(bin_dir, work, "--version").stdout.startswith("seqtheory ")
    site = Path(subprocess.run([str(bin_dir / "python"), "-c", "import seqtheory; print(seqtheory.__file__)"],
                               cwd=work, env=wheel_check.clean_env(), capture_output=True, text=True).stdout.strip())
    assert (site.parent / "py.typed").is_file()                     # the typing marker ships


def test_every_command_help_works_in_the_core_install(venv):
    from seqtheory.cli import COMMANDS

    bin_dir, work = venv
    for name in COMMANDS:
        res = _cli(bin_dir, work, name, "--help")
        assert res.returncode == 0 and res.stdout.startswith(f"usage: seqtheory {name}"), (name, res.stderr[-2000:])


def test_memory_report_reads_the_packaged_results(venv):
    bin_dir, work = venv
    out = _json(bin_dir, work, "memory-report", "--kind", "exp", "--alpha", "0.5", "--json")
    b = out["benchmark"]
    assert out["nearest"]["kind"] == "exp" and b["available"] and b["ranked"] and len(b["ranking"]) >= 2
    assert Path(b["path"]).resolve().is_relative_to(bin_dir.parent.resolve()), b["path"]


def test_every_subcommand_runs_from_the_wheel(venv, tmp_path):
    bin_dir, work = venv
    e = _json(bin_dir, work, "energy", "--n", "4", "--t", "2", "--method", "exact", "--json")
    assert (e["Q"], e["S"], e["regime"]) == ({"numerator": 17, "denominator": 16},
                                             {"numerator": 49, "denominator": 16}, "critical")
    c = _json(bin_dir, work, "horizon", "sigma", "--n", "1024", "--t", "40", "--tol", "0.05", "--json")
    r = _json(bin_dir, work, "horizon", "depth", "--quantity", "Q", "--n", "4", "--sigma", "1", "--tol", "0.3",
              "--field", "real", "--json")
    assert c["field"] == "complex" and c["feasible"] and r["depth"] == 2 and r["field"] == "real"
    checks = _json(bin_dir, work, "validate", "--list", "--json")
    assert len(checks) > 40 and all({"name", "profiles", "claim"} <= set(c) for c in checks)
    v = _json(bin_dir, work, "validate", "--only", "wick.complex_hultman", "--report", tmp_path / "rep",
              "--allow-outside", "--no-progress", "--json")
    report = (tmp_path / "rep" / "partial-wick.complex_hultman" / "report.md").read_text()
    assert v["counts"] == {"pass": 1} and "installed version 0.1.0" in report and "commit `None`" not in report
    sweep = tmp_path / "tiny.json"
    sweep.write_text(json.dumps({"name": "tiny", "studies": {"main": {
        "models": {"lstm": {"arch": "lstm"}}, "kinds": ["exp"], "alphas": [0.5], "seeds": [0]}}}))
    # an architecture sweep's runs are torch configs: in the core install the command names the extra (the
    # models install runs it: scripts/wheel_check.py, in CI)
    res = _cli(bin_dir, work, "sweep", "status", sweep, "--store", tmp_path / "none.sqlite", "--json")
    assert res.returncode == 2 and "needs the 'models' extra" in res.stderr, res.stderr[-2000:]


def test_what_needs_an_extra_says_which(venv, tmp_path):
    bin_dir, work = venv
    res = _cli(bin_dir, work, "timescales", tmp_path / "model.pt")
    assert res.returncode == 2 and "needs the 'models' extra" in res.stderr, res.stderr[-2000:]
    # the architecture checks read the packaged sweep (was: FileNotFoundError under site-packages) and need torch
    v = _json(bin_dir, work, "validate", "--only", "architectures.s4d_prony_bound", "--report", tmp_path / "rep",
              "--allow-outside", "--no-progress", "--json")
    assert v["counts"] == {"not run": 1} and "'models' extra" in v["results"][0]["summary"], v
    v = _json(bin_dir, work, "validate", "--only", "signal.precision_ladder", "--report", tmp_path / "rep",
              "--allow-outside", "--no-progress", "--json")
    assert v["counts"] == {"not run": 1} and "'certified' extra" in v["results"][0]["summary"], v


def test_the_pages_that_say_so_run_from_the_wheel(venv):
    """A docs page that says it works from an installed wheel (docs/using-seqtheory.md) runs there: its Python
    blocks by the wheel's Python, its commands by the wheel's ``seqtheory``, from an empty folder (issue 44:
    its example called memory_function with the arguments in the wrong order, and nothing ran it)."""
    import doc_blocks as db

    bin_dir, work = venv
    pages = [p for p in db.pages() if db.is_wheel_page(p)]
    assert [p.relative_to(ROOT).as_posix() for p in pages] == ["docs/using-seqtheory.md"]
    folder = work / "pages"
    folder.mkdir()
    for page in pages:
        assert db.run_page(page, folder, seqtheory=[str(bin_dir / "seqtheory")], python=str(bin_dir / "python"),
                           env=wheel_check.clean_env(), python_in_process=False) > 0


def test_the_readme_sweeps_open_by_name_from_an_empty_folder(venv, tmp_path):
    """issue 44: the README's `seqtheory sweep run numerics/anticollapse/gated/sweeps/cpu.json` was "not
    found" from an empty folder. `sweep list` names every shipped sweep of both kinds, and every sweep the
    README names opens from the wheel: in this core install the command then says that it needs the models
    extra (never that the sweep is not found); CI's models install runs `sweep status` on them
    (scripts/wheel_check.py)."""
    bin_dir, work = venv
    listed = {r["name"]: r for r in _json(bin_dir, work, "sweep", "list", "--json")}
    assert {"arch/quick", "arch/cpu", "arch/full", "gated/quick", "gated/cpu", "gated/reference"} <= set(listed)
    names = wheel_check.readme_sweep_names()
    assert len(names) >= 3 and {"gated/cpu", "gated/reference"} <= set(names)
    for name in names:
        assert name in listed or sum(n.endswith("/" + name) for n in listed) == 1, (name, sorted(listed))
        res = _cli(bin_dir, work, "sweep", "status", name, "--store", tmp_path / "s.sqlite", "--json")
        assert res.returncode == 2 and "needs the 'models' extra" in res.stderr, (name, res.stderr[-2000:])
