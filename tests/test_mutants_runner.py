"""The project's mutation runner (benchmarks/mutants/run.py) works: a CI-sized sample of the table's mutants, one
per area and chosen in advance (``table.CI_SAMPLE``: each killed by one quick test), is killed; a mutant whose
text is gone is reported stale; a change that alters nothing (a comment) survives; the kill rate is held per area.

The full run (every mutant of the table against its tests) takes about an hour on 2 cores:
``nice -n 10 python benchmarks/mutants/run.py`` (docs/conventions.md, "Mutation testing").
"""

from __future__ import annotations

from pathlib import Path

import pytest

import script_module

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str):
    return script_module.load(f"benchmarks/mutants/{name}.py", f"mutants_{name}", beside=True)


run = _load("run")
table = _load("table")
BY_NAME = {m[0]: m for m in table.MUTANTS}


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    dst = tmp_path_factory.mktemp("mutants")
    run.copy_tree(str(dst), str(ROOT))
    return str(dst)


def test_the_table_is_well_formed():
    """Unique names, every text found exactly once where it is meant to be, every test file present, at least 60
    mutants, and every area represented (a stale entry fails here, in seconds, before any mutant runs)."""
    names = [m[0] for m in table.MUTANTS]
    assert len(names) == len(set(names)) and len(names) >= 60
    for name, path, old, new, tests in table.MUTANTS:
        assert old != new, name
        assert (ROOT / path).read_text(encoding="utf-8").count(old) == 1, f"stale: {name}"
        assert tests and all((ROOT / t.split("::")[0]).is_file() for t in tests), name
    areas = {run.area_of(m[1]) for m in table.MUTANTS}
    assert {"numerical core", "verdicts", "command lines"} <= areas


def test_the_ci_sample_is_one_mutant_per_area():
    assert len(table.CI_SAMPLE) == 3
    assert sorted(run.area_of(BY_NAME[n][1]) for n in table.CI_SAMPLE) == ["command lines", "numerical core",
                                                                          "verdicts"]
    # the core job (no PyTorch) runs the sample too: its tests must not need torch
    from conftest import file_needs_torch

    assert not [t for n in table.CI_SAMPLE for t in BY_NAME[n][4] if file_needs_torch(ROOT / t.split("::")[0])]


@pytest.mark.parametrize("name", table.CI_SAMPLE)
def test_a_sample_of_mutants_is_killed(work, name):
    _, path, old, new, tests = BY_NAME[name]
    assert run.run_one(work, name, path, old, new, tests, timeout=600) == "killed"
    assert (Path(work) / path).read_text(encoding="utf-8") == (ROOT / path).read_text(encoding="utf-8")   # restored


def test_stale_and_harmless_mutants_are_told_apart(work):
    name, path, old, new, tests = BY_NAME[table.CI_SAMPLE[0]]
    assert run.run_one(work, "gone", path, old + "  # not in the file", new, tests, timeout=600) == "stale"
    assert run.run_one(work, "no change", path, old, old, tests, timeout=600) == "stale"
    assert run.run_one(work, "missing test", path, old, new, [tests[0].split("::")[0] + "::no_such_test"],
                       timeout=600) == "stale (tests not found)"
    comment = "# Q_{n,0} = Q_{n,1} = 1 exactly"            # a comment: the tests must pass on it
    assert run.run_one(work, "comment", "theory/signal_energy/_factorial_logs.py", comment, "# Q = 1 here",
                       ["tests/test_signal_energy.py::test_mp_past_float64_widths_against_exact_integers"],
                       timeout=600) == "survived"


def test_the_kill_rate_is_held_per_area():
    results = [(f"c{i}", "numerical core", "killed") for i in range(9)] + [("c9", "numerical core", "survived")]
    results += [("v0", "verdicts", "killed")]
    per, survivors, stale = run.summarise(results)
    assert per == {"numerical core": (9, 10), "verdicts": (1, 1)} and survivors == ["c9"] and not stale
    assert run.passed(per, stale)                                          # 90% is enough
    per, survivors, stale = run.summarise(results + [("c10", "numerical core", "survived")])
    assert not run.passed(per, stale)                                      # 9/11 = 82% in one area fails the run
    per, survivors, stale = run.summarise(results[:9] + [("s", "verdicts", "stale")])
    assert stale == ["s"] and not run.passed(per, stale)                   # a stale entry fails the run
