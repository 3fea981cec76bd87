"""The wheel works without the repository: build it, install it into a fresh virtual environment outside the
checkout, and run the ``seqtheory`` command line from a folder outside the checkout.

No download: the wheel is built without build isolation (setuptools of the running environment, the
``test`` extra) and installed with ``--no-deps --no-index``; the new environment sees the running
environment's installed dependencies through a ``.pth`` line (a plain path: the running environment's own
``.pth`` files, such as an editable install of this checkout, are not processed there). ``PYTHONPATH`` is
removed, and every module's file is asserted to lie inside the new environment.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("seqtheory", "theory", "numerics", "validation")
pytestmark = [pytest.mark.wheel, pytest.mark.slow]


def _run(args: list, cwd: Path, env: dict, timeout: float = 300) -> subprocess.CompletedProcess:
    res = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert res.returncode == 0, f"{args}: exit {res.returncode}\n{res.stdout[-2000:]}\n{res.stderr[-4000:]}"
    return res


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """(bin folder, environment, a work folder outside the checkout) of a fresh venv holding the wheel."""
    base = tmp_path_factory.mktemp("wheel")
    assert not base.resolve().is_relative_to(ROOT)
    src = base / "src"                    # a copy of what the wheel is built from: no build/ in the checkout
    src.mkdir()
    for f in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / f, src / f)
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, src / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
          "-w", base / "dist", src], base, env)
    (wheel,) = (base / "dist").glob("seqtheory-*.whl")
    env_dir = base / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", env_dir], base, env)
    py = env_dir / "bin" / "python"
    purelib = Path(_run([py, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], base, env).stdout.strip())
    (purelib / "_running_env_deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    _run([sys.executable, "-m", "pip", "--python", py, "install", "--no-deps", "--no-index", "-q", wheel], base, env)
    work = base / "work"
    work.mkdir()
    return env_dir / "bin", env, work


def _json(bin_dir: Path, env: dict, work: Path, *args) -> dict | list:
    return json.loads(_run([bin_dir / "seqtheory", *args], work, env).stdout)


def test_the_packages_come_from_the_wheel(venv):
    bin_dir, env, work = venv
    code = ("import importlib, json, sys\n"
            f"mods = {list(PACKAGES)!r} + ['numerics.memory_functions.memory_report']\n"
            "print(json.dumps({m: importlib.import_module(m).__file__ for m in mods} | "
            "{'torch': 'torch' in sys.modules}))")
    files = json.loads(_run([bin_dir / "python", "-c", code], work, env).stdout)
    assert files.pop("torch") is False
    for mod, f in files.items():
        assert Path(f).resolve().is_relative_to(bin_dir.parent.resolve()), f"{mod} loaded from {f}"
    assert _run([bin_dir / "seqtheory", "--version"], work, env).stdout.startswith("seqtheory ")


def test_memory_report_reads_the_packaged_results(venv):
    bin_dir, env, work = venv
    out = _json(bin_dir, env, work, "memory-report", "--kind", "exp", "--alpha", "0.5", "--json")
    b = out["benchmark"]
    assert out["nearest"]["kind"] == "exp" and b["available"] and b["ranked"] and len(b["ranking"]) >= 2
    assert Path(b["path"]).resolve().is_relative_to(bin_dir.parent.resolve()), b["path"]


def test_every_subcommand_runs_from_the_wheel(venv, tmp_path):
    bin_dir, env, work = venv
    e = _json(bin_dir, env, work, "energy", "--n", "4", "--t", "2", "--method", "exact", "--json")
    assert (e["Q"], e["S"], e["regime"]) == ("17/16", "49/16", "critical")
    c = _json(bin_dir, env, work, "horizon", "sigma", "--n", "1024", "--t", "40", "--tol", "0.05", "--json")
    r = _json(bin_dir, env, work, "horizon", "depth", "--n", "4", "--sigma", "1", "--tol", "0.3", "--weights", "real",
              "--json")
    assert c["weights"] == "complex" and c["feasible"] and r["depth"] == 2 and r["weights"] == "real"
    checks = _json(bin_dir, env, work, "validate", "--list", "--json")
    assert len(checks) > 40 and all({"name", "profiles", "claim"} <= set(c) for c in checks)
    v = _json(bin_dir, env, work, "validate", "--only", "wick.complex_hultman", "--report", tmp_path / "rep",
              "--no-progress", "--json")
    assert v["counts"] == {"pass": 1} and (tmp_path / "rep" / "partial-wick.complex_hultman" / "report.md").is_file()
    sweep = tmp_path / "tiny.json"
    sweep.write_text(json.dumps({"name": "tiny", "studies": {"main": {
        "models": {"lstm": {"arch": "lstm"}}, "kinds": ["exp"], "alphas": [0.5], "seeds": [0]}}}))
    s = _json(bin_dir, env, work, "sweep", "status", sweep, "--store", tmp_path / "none.sqlite", "--json")
    assert s == {"main": {"done": 0, "total": 1}}


@pytest.mark.torch
def test_timescales_runs_from_the_wheel(venv, tmp_path):
    import torch

    bin_dir, env, work = venv
    torch.manual_seed(0)
    torch.save(torch.nn.GRU(2, 4, batch_first=True).state_dict(), tmp_path / "gru.pt")
    out = _json(bin_dir, env, work, "timescales", tmp_path / "gru.pt", "--T", "64", "--batch", "2", "--n-boot", "50",
                "--json")
    assert (out["cell"], out["hidden"], out["T"], len(out["layers"])) == ("gru", 4, 64, 1)
