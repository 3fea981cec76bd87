"""Run the mutants of ``table.py`` one at a time against their tests and print the kill rate per area.

    nice -n 10 python benchmarks/mutants/run.py [--only SUBSTRING] [--area AREA] [--timeout 600] [--list]

Copies the tracked (and untracked, not ignored) files of this checkout into a temporary directory once, then for
each mutant edits one file there, runs its tests (``pytest -x -q``, no cache, one process, the copy first on
``PYTHONPATH``) and restores the file. A mutant is *killed* when the tests fail (or time out); *stale* when its
``old`` text is not found exactly once or its tests are not found (fix the table: a refactor moved the line or
renamed the test); *survived* otherwise.

Areas (from the mutated file's path, :func:`area_of`): the numerical core (``theory/``, ``numerics/stats.py``),
the verdict functions (``validation/checks/``), the command lines (``seqtheory/cli/``) and the simulation
numerics (the rest of ``numerics/``). Exit status 0 iff every area's kill rate is >= ``MIN_KILL_RATE`` (90%) and
no mutant is stale.
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

MIN_KILL_RATE = 0.90
AREAS = ("numerical core", "verdicts", "command lines", "simulation numerics")


def area_of(path: str) -> str:
    """The area a mutated file belongs to (the kill rate is reported, and held to MIN_KILL_RATE, per area)."""
    if path.startswith("theory/") or path == "numerics/stats.py":
        return "numerical core"
    if path.startswith("validation/checks/"):
        return "verdicts"
    if path.startswith("seqtheory/cli/"):
        return "command lines"
    return "simulation numerics"


def copy_tree(dst: str, root: str = ROOT) -> None:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=root, check=True,
                           capture_output=True, text=True).stdout.split("\0")
    for f in filter(None, files):
        src = os.path.join(root, f)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(dst, f)), exist_ok=True)
            shutil.copy2(src, os.path.join(dst, f))


def run_one(work: str, name: str, path: str, old: str, new: str, tests: list, timeout: float) -> str:
    """Apply one mutant in the copy ``work``, run its tests there, restore the file; the outcome as text."""
    target = os.path.join(work, path)
    with open(target, encoding="utf-8") as fh:
        text = fh.read()
    if text.count(old) != 1 or old == new:
        return "stale"
    tests = [t for t in tests if os.path.exists(os.path.join(work, t.split("::")[0]))]
    if not tests:
        return "survived (no test file)"
    try:
        with open(target, "w", encoding="utf-8") as fh:
            fh.write(text.replace(old, new))
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", SEQTHEORY_FUZZ_PER_FUNCTION="4", PYTHONPATH=work)
        proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
                              cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
        if proc.returncode in (4, 5):           # a test id that no longer exists, nothing collected: fix the table
            return "stale (tests not found)"
        return "survived" if proc.returncode == 0 else "killed"
    except subprocess.TimeoutExpired:
        return "killed (timeout)"
    finally:
        with open(target, "w", encoding="utf-8") as fh:
            fh.write(text)


def summarise(results: list[tuple[str, str, str]]) -> tuple[dict[str, tuple[int, int]], list[str], list[str]]:
    """``(per area (killed, total), survivors, stale)`` of ``(name, area, outcome)`` triples; a stale mutant
    counts in its area's total, not as killed."""
    per: dict[str, tuple[int, int]] = {}
    survivors, stale = [], []
    for name, area, out in results:
        k, n = per.get(area, (0, 0))
        per[area] = (k + out.startswith("killed"), n + 1)
        if out.startswith("stale"):
            stale.append(name)
        elif not out.startswith("killed"):
            survivors.append(name)
    return per, survivors, stale


def passed(per: dict[str, tuple[int, int]], stale: list[str]) -> bool:
    return not stale and all(k >= MIN_KILL_RATE * n for k, n in per.values())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="run the mutants whose name contains this text")
    ap.add_argument("--area", choices=AREAS, help="run one area's mutants")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per mutant (a timeout kills it)")
    ap.add_argument("--list", action="store_true", help="list the chosen mutants with their areas and exit")
    args = ap.parse_args(argv)
    chosen = [m for m in MUTANTS if args.only in m[0] and (args.area is None or area_of(m[1]) == args.area)]
    if args.list:
        for name, path, *_ in chosen:
            print(f"{area_of(path):20s} {path:45s} {name}")
        print(f"{len(chosen)} mutants")
        return 0
    results = []
    t_start = time.time()
    with tempfile.TemporaryDirectory(prefix="seqtheory-mutants-") as work:
        copy_tree(work)
        for name, path, old, new, tests in chosen:
            t0 = time.time()
            out = run_one(work, name, path, old, new, tests, args.timeout)
            results.append((name, area_of(path), out))
            print(f"{out:28s} {time.time() - t0:6.1f} s  [{area_of(path)}] {name}", flush=True)
    per, survivors, stale = summarise(results)
    for area in AREAS:
        if area in per:
            k, n = per[area]
            print(f"{area:20s} killed {k}/{n} = {100.0 * k / n:.1f}%")
    killed, total = sum(k for k, _ in per.values()), sum(n for _, n in per.values())
    print(f"all areas            killed {killed}/{total} = {100.0 * killed / max(1, total):.1f}% in "
          f"{time.time() - t_start:.0f} s; survivors: {survivors or 'none'}; stale: {stale or 'none'}")
    return 0 if passed(per, stale) else 1


if __name__ == "__main__":
    sys.exit(main())
