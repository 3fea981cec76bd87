"""Fuzz test: every public function (discovered, see ``fuzz_harness``) called with one argument at a time
replaced by a bad or edge value; each call must give a finite result of the documented type, or a
TypeError/ValueError naming the parameter, within ``SEQTHEORY_FUZZ_TIMEOUT`` seconds (worker process; a
call over the limit is rerun with 6 times the limit: "slow" if it then answers cleanly, else "hang").

CI runs ``SEQTHEORY_FUZZ_PER_FUNCTION`` examples per function (default 4); the long run with counts is
``python benchmarks/fuzz.py --examples 10000``.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_harness import BASELINE_QUALS, MANY, ORACLE_TAG, Runner, base_qual, baseline_value, discover, param_names
from fuzz_torch import HEAVY
from fuzz_values import IndexOnly, values

PER_FUNCTION = int(os.environ.get("SEQTHEORY_FUZZ_PER_FUNCTION", "4"))
ORACLE_PER_PATH = int(os.environ.get("SEQTHEORY_FUZZ_ORACLE_PER_PATH", "12"))
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
ORACLE_CASES = ["theory.signal_energy.Q", "theory.signal_energy.Q#mp", "theory.signal_energy.Q#exact",
                "theory.signal_energy.Q#ball", "theory.signal_energy.S", "theory.signal_energy.S#mp",
                "theory.signal_energy.S#exact", "theory.signal_energy.S#ball", "theory.signal_energy.log_Q",
                "theory.signal_energy.log_Q#mp", "theory.signal_energy.log_S", "theory.signal_energy.log_S#mp",
                "theory.signal_energy.Q_all", "theory.signal_energy.Q_all#mp"]
_WIDTHS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)


def _int_forms(v: int) -> list:
    """``v`` as a Python int, an ``__index__`` object and every numpy integer type that holds it."""
    out = [v, IndexOnly(v)]
    for t in _WIDTHS:
        info = np.iinfo(t)
        if info.min <= v <= info.max:
            out.append(t(v))
    return out


def _valid_args(qual: str):
    """A strategy of valid (n, depth[, dps]) replacements for one energy path: widths up to 1e18, depths up to
    1e30 (Q) / 1e12 (S), in every integer type."""
    import flint  # noqa: F401  (the ball paths and the oracle's reference need the certified extra)
    from theory.signal_energy import S_ball_is_direct

    name = base_qual(qual).rsplit(".", 1)[1]
    depth = "k" if "Q" in name and name != "Q_all" else "t"
    big = (3, 6, 9, 12, 15, 20, 25, 30) if depth == "k" else (3, 6, 9, 12)
    ns = st.one_of(st.integers(1, 64), st.sampled_from([10**e for e in (3, 6, 9, 12, 15, 18)] + [2**31 - 1]))
    ks = st.integers(0, 15) if name == "Q_all" else st.one_of(st.integers(0, 300), st.sampled_from([10**e for e in big]))
    method = "mp" if qual.endswith("#mp") else "ball" if qual.endswith("#ball") else None

    @st.composite
    def args(draw):
        n, k = draw(ns), draw(ks)
        dps = draw(st.sampled_from([15, 25, 50])) if method else None
        if method == "ball" and depth == "t" and k > 10**5 and S_ball_is_direct(n, k, dps):
            k = 10**5                     # an O(t) certified sum (its reference would be as long): out of scope
        out = {"n": draw(st.sampled_from(_int_forms(n))), depth: draw(st.sampled_from(_int_forms(k)))}
        if dps is not None:
            out["dps"] = dps
        return out
    return args()


def test_fuzz_oracle(runner, capsys):
    """Every accepted call of a Q/S path (float, mp, exact, ball; log and Q_all too) is checked against an
    independent reference (tests/fuzz_oracle.py): 100% clean, and every accepted call checked."""
    counts = {"calls": 0, "accepted": 0, "checked": 0}
    bad = []
    for qual in ORACLE_CASES:
        @settings(max_examples=ORACLE_PER_PATH, database=None, deadline=None, suppress_health_check=list(HealthCheck))
        @given(args=_valid_args(qual))
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
