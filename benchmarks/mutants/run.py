"""Run the mutants of ``table.py`` one at a time against the tests and print the kill rate.

    nice python benchmarks/mutants/run.py [--only SUBSTRING] [--timeout 600]

Copies the tracked files of this checkout into a temporary directory once, then for each mutant edits one
file there, runs its tests (``pytest -x -q``, no cache, one process) and restores the file. A mutant is
killed when the tests fail (or time out); "stale" when its ``old`` text is not found exactly once (fix the
table). Exit status 0 when the kill rate is >= 97%.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from table import MUTANTS  # noqa: E402


def copy_tree(dst: str) -> None:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split()
    for f in files:
        src = os.path.join(ROOT, f)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(dst, f)), exist_ok=True)
            shutil.copy2(src, os.path.join(dst, f))


def run_one(work: str, name: str, path: str, old: str, new: str, tests: list, timeout: float) -> str:
    target = os.path.join(work, path)
    text = open(target).read()
    if text.count(old) != 1:
        return "stale"
    tests = [t for t in tests if os.path.exists(os.path.join(work, t.split("::")[0]))]
    if not tests:
        return "survived (no test file)"
    try:
        with open(target, "w") as fh:
            fh.write(text.replace(old, new))
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", SEQTHEORY_FUZZ_PER_FUNCTION="4")
        proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
                              cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
        return "survived" if proc.returncode == 0 else "killed"
    except subprocess.TimeoutExpired:
        return "killed (timeout)"
    finally:
        with open(target, "w") as fh:
            fh.write(text)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="")
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args(argv)
    chosen = [m for m in MUTANTS if args.only in m[0]]
    killed, survivors, stale = 0, [], []
    with tempfile.TemporaryDirectory(prefix="seqtheory-mutants-") as work:
        copy_tree(work)
        for name, path, old, new, tests in chosen:
            t0 = time.time()
            out = run_one(work, name, path, old, new, tests, args.timeout)
            print(f"{out:17s} {time.time() - t0:6.1f} s  {name}", flush=True)
            if out.startswith("killed"):
                killed += 1
            elif out == "stale":
                stale.append(name)
            else:
                survivors.append(name)
    total = len(chosen)
    print(f"killed {killed}/{total} = {100.0 * killed / max(1, total):.1f}%; survivors: {survivors or 'none'}; "
          f"stale: {stale or 'none'}")
    return 0 if killed >= 0.97 * total and not stale else 1


if __name__ == "__main__":
    sys.exit(main())
