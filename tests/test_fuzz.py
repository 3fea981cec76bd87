"""Fuzz test: every public function (discovered, see ``fuzz_harness``) called with one argument at a time
replaced by a bad or edge value; each call must give a finite result of the documented type, or a
TypeError/ValueError naming the parameter, within ``SEQTHEORY_FUZZ_TIMEOUT`` seconds (worker process; a
call over the limit is rerun with 6 times the limit: "slow" if it then answers cleanly, else "hang").

CI runs ``SEQTHEORY_FUZZ_PER_FUNCTION`` examples per function (default 4); the long run with counts is
``python benchmarks/fuzz.py --examples 10000``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_harness import BASELINE_QUALS, MANY, ORACLE_TAG, Runner, base_qual, baseline_value, discover, param_names
from fuzz_torch import HEAVY
from fuzz_oracle import ORACLE_CASES, valid_args
from fuzz_values import values

PER_FUNCTION = int(os.environ.get("SEQTHEORY_FUZZ_PER_FUNCTION", "4"))
ORACLE_PER_PATH = int(os.environ.get("SEQTHEORY_FUZZ_ORACLE_PER_PATH", "6"))
FUNCTIONS = discover()
# a function with two precision paths has a second baseline ("qual#mp"): both are fuzzed
CASES = FUNCTIONS + sorted(k for k in BASELINE_QUALS() if k not in FUNCTIONS and base_qual(k) in FUNCTIONS)


@pytest.fixture(scope="module")
def runner():
    r = Runner()
    yield r
    r.close()


def test_every_function_has_a_baseline():
    missing = sorted(set(FUNCTIONS) - {base_qual(k) for k in BASELINE_QUALS()})
    assert not missing, f"add a valid baseline call for these to tests/fuzz_harness.py BASELINES: {missing}"


def test_no_stale_baseline():
    stale = sorted({base_qual(k) for k in BASELINE_QUALS()} - set(FUNCTIONS))
    assert not stale, f"baselines of functions that are no longer public: {stale}"


@pytest.mark.parametrize("qual", CASES)
def test_fuzz(qual, runner):
    if qual not in BASELINE_QUALS():
        pytest.fail(f"no baseline for {qual}")
    outcome, detail = runner.run(qual, None, None)
    assert outcome == "clean", f"baseline call of {qual}: {outcome} {detail}"
    params = param_names(qual)
    if not params:
        return

    @settings(max_examples=1 if base_qual(qual) in HEAVY else PER_FUNCTION, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def one(data):
        param = data.draw(st.sampled_from(params), label="param")
        value = data.draw(values(baseline_value(qual, param)), label="value")
        outcome, detail = runner.run(qual, param, value)
        assert outcome in ("clean", "slow"), f"{qual}({param}={value!r:.60}): {outcome}: {detail}"

    one()


# --- the outside oracle: valid calls of every energy path, every integer type, checked against a reference --
def test_fuzz_oracle(runner, capsys):
    """Every accepted call of a Q/S path (float, mp, exact, ball; log and Q_all too) is checked against an
    independent reference (tests/fuzz_oracle.py): 100% clean, and every accepted call checked."""
    counts = {"calls": 0, "accepted": 0, "checked": 0}
    bad = []
    for qual in ORACLE_CASES:
        @settings(max_examples=ORACLE_PER_PATH, database=None, deadline=None, suppress_health_check=list(HealthCheck))
        @given(args=valid_args(qual))
        def one(args):
            outcome, detail = runner.run(qual, MANY, args)
            counts["calls"] += 1
            if outcome not in ("clean", "slow"):
                bad.append(f"{qual}({args!r:.80}): {outcome}: {detail}")
            elif not detail.startswith(("TypeError", "ValueError", "documented")):
                counts["accepted"] += 1
                counts["checked"] += detail.startswith(ORACLE_TAG)
                if not detail.startswith(ORACLE_TAG):
                    bad.append(f"{qual}({args!r:.80}): accepted but not checked ({detail})")
        one()
    with capsys.disabled():
        print(f"\nfuzz oracle: {counts['calls']} calls, {counts['accepted']} accepted, {counts['checked']} checked "
              "against an independent reference")
    assert not bad, bad[:5]
    assert counts["checked"] == counts["accepted"] > len(ORACLE_CASES)
