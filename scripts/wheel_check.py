"""The installed wheel checks itself: build the wheel, install it into a fresh virtual environment that sees
nothing of the development environment, and run it from an empty folder.

    python scripts/wheel_check.py WORKDIR [--models] [--validate REPORT_DIR] [--notebooks 06 07]

* the wheel is built from a copy of the packages (no ``build/`` left in the checkout), without build
  isolation (the running environment's setuptools; no download);
* the virtual environment is made by ``python -m venv`` without system site packages, and no ``.pth`` file of
  the development environment reaches it; the wheel's dependencies come from pip's configured index, like a
  user's ``pip install seqtheory-*.whl``; ``--models`` installs ``torch`` first (``TORCH_SPEC``, default
  ``torch==2.13.0``), then the wheel with its ``models`` extra;
* ``--validate DIR``: ``seqtheory validate --quick`` from an empty folder; fails on any ``error`` verdict
  (a missing extra is ``not run``), a non-zero exit, or verdict counts other than the ones README.md states
  for that install (so the README's counts cannot go stale);
* ``--notebooks NN ...``: the code cells of those notebooks run in order as one script, from an empty
  folder, in the new environment (the notebooks that need package data: they must work from a wheel).

``tests/test_wheel.py`` uses :func:`build_wheel` and :func:`make_venv`; CI (``.ci/run``) runs this script for
the core install and for ``[models]``. Prints the seconds of each step.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("seqtheory", "theory", "numerics", "validation")
TORCH_SPEC = os.environ.get("TORCH_SPEC", "torch==2.13.0")


def clean_env() -> dict:
    """The environment of the new venv's commands: no PYTHONPATH / PYTHONHOME, no virtualenv of ours."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["MPLBACKEND"] = "Agg"
    return env


def run(args: list, cwd: Path, env: dict | None = None, timeout: float = 900) -> subprocess.CompletedProcess:
    """Run ``args``; a non-zero exit raises with the output's tail."""
    res = subprocess.run([str(a) for a in args], cwd=cwd, env=env or clean_env(), capture_output=True, text=True,
                         timeout=timeout)
    if res.returncode != 0:
        raise RuntimeError(f"{args}: exit {res.returncode}\n{res.stdout[-3000:]}\n{res.stderr[-5000:]}")
    return res


def build_wheel(work: Path) -> Path:
    """The wheel of this checkout, built in ``work`` from a copy of what it is built from."""
    src = work / "src"
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    for f in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / f, src / f)
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, src / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", work / "dist", src],
        work)
    (wheel,) = (work / "dist").glob("seqtheory-*.whl")
    return wheel


def make_venv(venv: Path, wheel: Path, *, models: bool = False) -> Path:
    """A fresh venv at ``venv`` (no system site packages) holding ``wheel`` and its dependencies; returns its
    ``bin`` folder. ``models``: torch (``TORCH_SPEC``) first, then ``wheel[models]``."""
    run([sys.executable, "-m", "venv", venv], venv.parent)
    pip = [venv / "bin" / "python", "-m", "pip", "install", "-q"]
    if models:
        run([*pip, TORCH_SPEC], venv.parent, timeout=1800)
    run([*pip, f"{wheel}[models]" if models else wheel], venv.parent, timeout=1800)
    return venv / "bin"


def check_isolated(bin_dir: Path, cwd: Path) -> None:
    """Every package (and the dependencies) load from the new venv, none from the development environment."""
    code = ("import importlib, json, sys\n"
            f"print(json.dumps({{m: importlib.import_module(m).__file__ for m in {list(PACKAGES) + ['numpy']!r}}}))")
    files = json.loads(run([bin_dir / "python", "-c", code], cwd).stdout)
    venv = bin_dir.parent.resolve()
    outside = {m: f for m, f in files.items() if not Path(f).resolve().is_relative_to(venv)}
    if outside:
        raise RuntimeError(f"loaded from outside the new environment {venv}: {outside}")


def validate(bin_dir: Path, cwd: Path, report: Path) -> dict:
    """``seqtheory validate --quick`` from ``cwd``; the verdict counts. No ``error`` and exit 0, or raises."""
    res = subprocess.run([str(bin_dir / "seqtheory"), "validate", "--quick", "--report", str(report),
                          "--allow-outside", "--no-progress", "--json"], cwd=cwd, env=clean_env(), capture_output=True, text=True,
                         timeout=3600)
    try:
        out = json.loads(res.stdout)
    except json.JSONDecodeError:
        raise RuntimeError(f"validate printed no JSON (exit {res.returncode}):\n{res.stdout[-2000:]}\n"
                           f"{res.stderr[-4000:]}") from None
    errors = [(r["name"], r["summary"]) for r in out["results"] if r["verdict"] in ("error", "fail")]
    if res.returncode != 0 or errors:
        raise RuntimeError(f"validate: exit {res.returncode}, failing or erroring checks: {errors}")
    return out["counts"]


# "36 pass, 2 not reproduced, 11 inconclusive, 9 not run with `[models]`" (line breaks anywhere)
_README_COUNTS = re.compile(r"(\d+) pass, (\d+) not reproduced, (\d+) inconclusive, (\d+) not run "
                            r"with (`\[models\]`|the core install)")
_INSTALLS = {"`[models]`": "models", "the core install": "core"}


def flat(text: str) -> str:
    """Markdown prose as one line: bold marks dropped, every run of white space (line breaks) one blank."""
    return re.sub(r"\s+", " ", text.replace("**", ""))


def readme_quick_counts(text: str) -> dict[str, dict[str, int]]:
    """The quick validation's verdict counts that ``text`` (README.md) states for the installed wheel, by
    install (``"models"``, ``"core"``). Raises ValueError naming an install whose counts it does not state."""
    out = {_INSTALLS[m.group(5)]: dict(zip(("pass", "not reproduced", "inconclusive", "not run"),
                                           map(int, m.groups()[:4])))
           for m in _README_COUNTS.finditer(flat(text))}
    missing = sorted(set(_INSTALLS.values()) - set(out))
    if missing:
        raise ValueError(f"README.md states no quick-validation counts for the {' and '.join(missing)} install")
    return out


def check_readme_counts(counts: dict, install: str, text: str | None = None) -> None:
    """Raise RuntimeError unless ``counts`` (the wheel's ``validate --quick``, by verdict) equal the counts
    README.md (or ``text``) states for ``install``; verdicts counted zero times may be absent or zero."""
    stated = readme_quick_counts((ROOT / "README.md").read_text(encoding="utf-8") if text is None else text)
    got = {v: n for v, n in counts.items() if n}
    if got != {v: n for v, n in stated[install].items() if n}:
        shown = "`[models]`" if install == "models" else "the core install"
        raise RuntimeError(f"README.md states {stated[install]} for {shown}, the installed wheel gave {counts}: "
                           "update the README's counts (and say what changed)")


def notebook_script(nb: Path) -> str:
    """The code cells of notebook ``nb``, in order, as one script (IPython magics are not used there)."""
    cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def run_notebooks(bin_dir: Path, cwd: Path, numbers: list[str]) -> None:
    """Run the code of notebooks ``numbers`` (e.g. "06") with the new venv's Python from ``cwd``."""
    for num in numbers:
        (nb,) = (ROOT / "notebooks").glob(f"{num}_*.ipynb")
        script = cwd / f"notebook_{num}.py"
        script.write_text(notebook_script(nb), encoding="utf-8")
        run([bin_dir / "python", script], cwd, timeout=1800)


def readme_sweep_names() -> list[str]:
    """The sweeps the README's ``seqtheory sweep run|status|plot|export SWEEP`` commands name, in order."""
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return list(dict.fromkeys(re.findall(r"seqtheory sweep (?:run|status|plot|export) +([a-z][^\s`]*)", text)))


def models_smoke(bin_dir: Path, cwd: Path) -> dict:
    """``seqtheory timescales`` on a GRU saved by the new venv's torch, and ``seqtheory sweep status`` (the
    models install's own commands): of a sweep file, and of every shipped sweep the README names, by name,
    from the empty folder."""
    code = ("import torch; torch.manual_seed(0); "
            "torch.save(torch.nn.GRU(2, 4, batch_first=True).state_dict(), 'gru.pt')")
    run([bin_dir / "python", "-c", code], cwd)
    out = json.loads(run([bin_dir / "seqtheory", "timescales", "gru.pt", "--T", "64", "--batch", "2", "--n-boot", "50",
                          "--json"], cwd).stdout)
    if (out["cell"], out["hidden"], len(out["layers"])) != ("gru", 4, 1):
        raise RuntimeError(f"timescales answered {out}")
    (cwd / "tiny.json").write_text(json.dumps({"name": "tiny", "studies": {"main": {
        "models": {"lstm": {"arch": "lstm"}}, "kinds": ["exp"], "alphas": [0.5], "seeds": [0]}}}))
    status = json.loads(run([bin_dir / "seqtheory", "sweep", "status", "tiny.json", "--store", "none.sqlite",
                             "--json"], cwd).stdout)
    if status != {"main": {"done": 0, "total": 1}}:
        raise RuntimeError(f"sweep status answered {status}")
    for name in readme_sweep_names():
        status = json.loads(run([bin_dir / "seqtheory", "sweep", "status", name, "--store", "none.sqlite", "--json"],
                                cwd).stdout)
        if not status or any(c["done"] != 0 or c["total"] < 1 for c in status.values()):
            raise RuntimeError(f"sweep status {name} answered {status}")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("workdir", type=Path, help="a folder for the wheel, the venv and the empty run folder")
    p.add_argument("--models", action="store_true", help="install torch first and the wheel's models extra")
    p.add_argument("--validate", type=Path, metavar="REPORT_DIR", help="run the quick validation, report here")
    p.add_argument("--notebooks", nargs="*", default=[], metavar="NN", help="notebooks whose code to run")
    a = p.parse_args(argv)
    work = a.workdir.resolve()
    work.mkdir(parents=True, exist_ok=True)
    if work.is_relative_to(ROOT.resolve()):
        p.error(f"workdir {work} must lie outside the checkout (the run must not see it)")
    t0 = time.perf_counter()
    wheel = build_wheel(work)
    name = "models" if a.models else "core"
    shutil.rmtree(work / f"venv-{name}", ignore_errors=True)
    bin_dir = make_venv(work / f"venv-{name}", wheel, models=a.models)
    empty = work / f"empty-{name}"
    shutil.rmtree(empty, ignore_errors=True)
    empty.mkdir()
    check_isolated(bin_dir, empty)
    print(f"wheel_check [{name}]: wheel and venv {time.perf_counter() - t0:.0f} s", flush=True)
    if a.models:
        models_smoke(bin_dir, empty)
        print(f"wheel_check [{name}]: seqtheory timescales and sweep status ran from the wheel", flush=True)
    if a.validate is not None:
        t1 = time.perf_counter()
        counts = validate(bin_dir, empty, a.validate.resolve())
        check_readme_counts(counts, name)
        print(f"wheel_check [{name}]: seqtheory validate --quick from an empty folder: {counts} "
              f"({time.perf_counter() - t1:.0f} s)", flush=True)
    if a.notebooks:
        t1 = time.perf_counter()
        run_notebooks(bin_dir, empty, a.notebooks)
        print(f"wheel_check [{name}]: notebooks {' '.join(a.notebooks)} ran from the wheel "
              f"({time.perf_counter() - t1:.0f} s)", flush=True)
    print(f"wheel_check [{name}]: passed in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
