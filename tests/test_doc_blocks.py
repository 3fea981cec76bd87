"""Every code block of the README and the docs pages runs (issue 44: a docs example failed and no test ran it).

How blocks run: ``tests/doc_blocks.py``. Each page runs in a fresh folder. The pages that say they work from an
installed wheel run there instead (``tests/test_wheel.py``, with the wheel it builds); this file checks that
such a page is run there and nowhere skipped.
"""

from __future__ import annotations

import pytest

import doc_blocks as db

# The blocks that cannot run in CI, each marked in its page by the line "# not run by the docs test: REASON"
# (readers see it). Key: (page, a text the block contains). Why each one:
SKIP = {
    # installs into the running environment: CI's own set-up does this (scripts/run; the wheel: test_wheel.py)
    ("README.md", 'pip install -e ".[all]"            # every extra'),
    ("README.md", "pip install torch --index-url"),
    ("README.md", 'pip install -e ".[notebooks]"'),
    ("docs/getting-started.md", 'pip install "torch==2.13.0"'),
    ("docs/getting-started.md", 'pip install -e ".[notebooks]"'),
    ("docs/using-seqtheory.md", "pip wheel --no-deps ."),
    # CI itself: the quick validation and the whole test suite (.ci/run runs both)
    ("README.md", "bash scripts/run validate     # the main job"),
    # a Dask cluster and days of CPU (the gated reference sweep: about 5,900 core-hours)
    ("README.md", "dask scheduler"),
    # hours of training on two cores (the CPU-scale architecture and gated sweeps, their certificates)
    ("docs/papers/memory-functions.md", "--sweep cpu_T256 --checks"),
    ("docs/results/README.md", "cpu_results.py --train-only --part N"),
    ("docs/results/cpu-architectures-cpu_T256/runs/README.md", "--sweep cpu_T256 --store T256.sqlite"),
    ("docs/results/cpu-architectures-polished/README.md", "certificate_reach.py"),
    ("docs/results/cpu-architectures/runs/README.md", "--store S.sqlite --no-train \\\n    --import"),
    ("docs/results/cpu-architectures/runs/README.md", "--checks 'architectures.tcn_optimizer'"),
    ("docs/results/cpu-architectures/runs/README.md", "--status --store S.sqlite \\\n    --import docs/results/cpu-architectures/runs/optimizer"),
    ("docs/results/cpu-gated/README.md", "run_sweep.py cpu --report"),
    ("docs/results/cpu-architectures/runs/README.md", "--study main --cell lstm/exp/0.5 --store S.sqlite"),
    ("docs/results/cpu-architectures/runs/README.md", "--part $part --workers 2"),  # (and the export of its store)
    # minutes of training: committed round-2 runs retrained on another machine and compared with their records
    ("docs/cpu-results.md", "--cell 's4d/exp/0.25'"),
    # rewrites the committed report folders in place (each claim's round-2 answer, from both rounds' runs)
    ("docs/results/cpu-architectures/runs/README.md", "--checks architectures.${pair%%:*} --out"),
    # Dask workers for a scheduler the reader runs
    ("README.md", "env $PINS dask worker"),
    # the full mutation run: about an hour
    ("docs/conventions.md", "benchmarks/mutants/run.py                 # every mutant"),
    # about an hour of CPU: the Monte Carlo of the nonlinear breakdown depths at n = 32..4096
    ("docs/results/nonlinear-recurrences.md", "breakdown_exponent.py --cache DIR"),
}

PAGES = db.pages()
ALL = [b for p in PAGES for b in db.blocks(p)]


def test_no_page_has_an_indented_code_block():
    """An indented block has no language (run it or call it text): every block is fenced."""
    assert [str(b) for b in ALL if b.lang == "<indented>"] == []


def test_every_block_has_a_language_the_test_knows():
    known = db.PYTHON | db.SHELL | db.NOT_CODE
    assert [str(b) for b in ALL if b.lang not in known and not b.lang.startswith("{")] == []


def test_the_skip_list_is_exactly_the_marked_blocks():
    marked = [b for b in ALL if b.skipped]
    for page, text in SKIP:
        hits = [b for b in ALL if b.page == page and text in b.text]
        assert len(hits) == 1 and hits[0].skipped, (page, text, [str(h) for h in hits])
    listed = {(p, next(b for b in ALL if b.page == p and t in b.text).line) for p, t in SKIP}
    assert {(b.page, b.line) for b in marked} == listed
    assert all(b.lang in db.SHELL | db.PYTHON for b in marked)


def _runnable(page) -> bool:
    return any(not b.skipped and (b.lang in db.PYTHON | db.SHELL) for b in db.blocks(page))


CHECKOUT_PAGES = [p for p in PAGES if _runnable(p) and not db.is_wheel_page(p)]


def _needs_torch(page) -> bool:
    """A page whose runnable blocks use PyTorch (its tests are left out of the core job by name, like every
    torch test: tests/conftest.py)."""
    return any(not b.skipped and ("torch" in b.text or "seqtheory timescales" in b.text) for b in db.blocks(page))


@pytest.mark.slow
@pytest.mark.parametrize("page", [pytest.param(p, marks=[pytest.mark.torch] if _needs_torch(p) else [])
                                  for p in CHECKOUT_PAGES],
                         ids=[p.relative_to(db.ROOT).as_posix() for p in CHECKOUT_PAGES])
def test_the_page_runs(page, tmp_path):
    assert db.run_page(page, tmp_path) > 0


def test_the_pages_with_code_are_all_run():
    """Every page with a runnable block is run here or, if it says so, from the wheel (test_wheel.py)."""
    names = {p.relative_to(db.ROOT).as_posix() for p in PAGES if _runnable(p)}
    here = {p.relative_to(db.ROOT).as_posix() for p in CHECKOUT_PAGES}
    wheel = {p.relative_to(db.ROOT).as_posix() for p in PAGES if db.is_wheel_page(p)}
    assert names == here | (wheel & names) and "docs/using-seqtheory.md" in wheel
    assert {"README.md", "docs/conventions.md", "docs/tools/horizon.md", "docs/tools/memory_report.md",
            "docs/tools/rnn_timescales.md", "docs/getting-started.md"} <= here
