"""Fragility of the architecture verdicts under the cross-machine spread (validation.checks._arch_fragility): the
label on synthetic margins just inside and just outside the spread, each statistic's range against an
independent route (brute force over orders or random points of the box), the committed spread file, and the
label wired through the verdicts, the two budgets and the report."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

from numerics import stats as st
from validation.checks import _arch_fragility as frag
from validation.checks import architectures as arch
from validation.registry import INCONCLUSIVE, NOT_REPRODUCED, PASS

EPS = 2.0 ** -12          # binary fractions: margins and spreads below are exact in floating point


# ---------------------------------------------------------------------------------------- one margin
@pytest.mark.parametrize("sense, at_boundary", [(">", "fragile"), (">=", "robust")])
def test_a_margin_above_its_threshold_just_inside_and_just_outside_the_spread(sense, at_boundary):
    # margin 0.5, threshold 0.25: a spread of exactly 0.25 brings it onto the threshold, where ">" fails and
    # ">=" still holds
    assert frag.fragility(0.5, 0.25, 0.25, sense) == at_boundary
    assert frag.fragility(0.5, 0.25, 0.25 - EPS, sense) == "robust"
    assert frag.fragility(0.5, 0.25, 0.25 + EPS, sense) == "fragile"


@pytest.mark.parametrize("sense, at_boundary", [(">", "robust"), (">=", "fragile")])
def test_a_margin_below_its_threshold_can_flip_upwards(sense, at_boundary):
    # the other side: 0.0 against 0.25 reaches the threshold from below
    assert frag.fragility(0.0, 0.25, 0.25, sense) == at_boundary
    assert frag.fragility(0.0, 0.25, 0.25 - EPS, sense) == "robust"
    assert frag.fragility(0.0, 0.25, 0.25 + EPS, sense) == "fragile"


@pytest.mark.parametrize("sense, at_boundary", [("<", "fragile"), ("<=", "robust")])
def test_a_below_threshold_condition_flips_at_its_own_boundary(sense, at_boundary):
    # a p-value 0.0078125 against the level 2^-6 = 0.015625 with a spread of exactly the gap
    assert frag.fragility(2 ** -7, 2 ** -6, 2 ** -7, sense) == at_boundary
    assert frag.fragility(2 ** -7, 2 ** -6, 2 ** -7 - EPS, sense) == "robust"
    assert frag.fragility(2 ** -7, 2 ** -6, 2 ** -7 + EPS, sense) == "fragile"


def test_no_spread_is_never_fragile_and_bad_input_is_named():
    assert frag.fragility(0.25, 0.25, 0.0, ">=") == "robust" and frag.fragility(0.25, 0.25, 0.0, ">") == "robust"
    with pytest.raises(ValueError, match="spread"):
        frag.fragility(0.5, 0.25, -0.1)
    with pytest.raises(ValueError, match="sense"):
        frag.fragility(0.5, 0.25, 0.1, "=>")
    with pytest.raises(ValueError, match="lo must be <= hi"):
        frag.can_flip(1.0, 0.0, 0.5)
    m = frag.Margin("m", 0.5, 0.25, ">", 0.25, 0.75)
    assert m.flips and m.as_dict()["flips"] and "can flip" in m.text()


# ---------------------------------------------------------------------------------------- per statistic
def test_paired_corners_move_the_median_by_the_pair_spread_and_flip_only_pairs_within_it():
    d = [1.0] * 11 + [0.25] * 3 + [-1.0]
    dn, up = frag.paired_corners(d, [0.25] * 15)
    t = st.paired(d)
    assert (dn.median, up.median) == (t.median - 0.25, t.median + 0.25)
    assert dn.n_pos == 11 and dn.n == 12                 # the three pairs at +0.25 become ties, dropped
    assert frag.sign_flippable(d, [0.25] * 15) == 3 and frag.sign_flippable(d, [0.25 - EPS] * 15) == 0
    assert up.n_pos == 14 and up.n == 15                 # the negative pair needs 1.0 to move
    with pytest.raises(ValueError, match="one spread"):
        frag.paired_corners([1.0, 2.0], [0.1])


def test_mwu_corners_bound_every_point_of_the_box():
    rng = np.random.default_rng(3)
    x, y = rng.normal(0.3, 1, 6), rng.normal(0, 1, 6)
    ex, ey = np.full(6, 0.4), np.full(6, 0.2)
    lo, hi = frag.mwu_corners(x, ex, y, ey)
    for _ in range(200):
        p = st.mwu(x + rng.uniform(-1, 1, 6) * ex, y + rng.uniform(-1, 1, 6) * ey)
        assert lo <= p <= hi


def test_sd_shift_bound_holds_and_is_reached_for_even_n():
    rng = np.random.default_rng(4)
    x = rng.normal(size=6)
    b = frag.sd_shift_bound(6, 0.1)
    for _ in range(200):
        assert abs(np.std(x + rng.uniform(-0.1, 0.1, 6), ddof=1) - np.std(x, ddof=1)) <= b
    # constant values, half moved up and half down by s: sd = s sqrt(n / (n - 1)) exactly
    assert math.isclose(np.std(np.r_[[0.1] * 3, [-0.1] * 3], ddof=1), b)
    assert frag.sd_shift_bound(1, 0.1) == 0.0


def test_span_and_max_ranges_are_exact():
    v, s = [0.0, 1.0, 3.0], [0.5, 0.5, 0.5]
    assert frag.max_range(v, s) == (2.5, 3.5)
    assert frag.span_range(v, s) == (2.0, 4.0)           # 3 - 0.5 - (0 + 0.5); 3.5 - (-0.5)
    assert frag.span_range([0.0, 0.5], [0.5, 0.5]) == (0.0, 1.5)      # overlapping boxes: squeezed to one point
    # brute force over a grid that holds the extremes
    grid = [np.linspace(a - b, a + b, 5) for a, b in zip(v, s)]
    spans = [max(p) - min(p) for p in itertools.product(*grid)]
    assert (min(spans), max(spans)) == frag.span_range(v, s)


def _spearman_by_permutations(x, y, s):
    """Independent route: every order of the cells, kept iff increasing values inside the boxes exist (greedy:
    each cell as low as its box and the previous cell allow)."""
    from scipy.stats import spearmanr

    best = [math.inf, -math.inf]
    for order in itertools.permutations(range(len(y))):
        prev, ok = -math.inf, True
        for c in order:
            v = max(y[c] - s[c], prev)
            if v > y[c] + s[c]:
                ok = False
                break
            prev = v + 1e-12
        if ok:
            rho = spearmanr(x, np.argsort(order)).statistic
            best = [min(best[0], rho), max(best[1], rho)]
    return tuple(best)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_spearman_range_equals_the_brute_force_over_orders(seed):
    rng = np.random.default_rng(seed)
    x = rng.permutation(6).astype(float)
    x[4] = x[5]                                          # a tie in x, as the impulse cells have
    y, s = rng.normal(size=6), rng.uniform(0.0, 0.6, 6)
    assert np.allclose(frag.spearman_range(x, y, s), _spearman_by_permutations(x, y, s), atol=1e-12)


def test_spearman_p_is_scipys():
    from scipy.stats import spearmanr

    x, y = [1.0, 2.0, 3.0, 4.0, 5.0, 5.0], [0.3, 0.1, 0.5, 0.9, 0.7, 1.2]
    res = spearmanr(x, y, alternative="greater")
    assert math.isclose(frag.spearman_p(x, res.statistic), res.pvalue, rel_tol=1e-12)


def _span(med):
    return max(math.log10(v) for v in med.values()) - min(math.log10(v) for v in med.values())


def test_bootstrap_range_bounds_the_interval_of_every_point_of_the_box():
    rng = np.random.default_rng(5)
    cells = {a: list(10.0 ** rng.normal(-4 + 3 * a, 0.5, 5)) for a in (0.25, 0.5, 0.75)}
    spreads = {0.25: 0.1, 0.5: 0.2, 0.75: 0.1}
    (lo_lo, lo_hi), (hi_lo, hi_hi) = frag.bootstrap_range(cells, spreads, lambda m, sp: frag.span_range(
        list(m.values()), [sp[c] for c in m]))
    _, lo, hi = st.bootstrap(cells, _span)
    assert lo_lo <= lo <= lo_hi and hi_lo <= hi <= hi_hi
    for _ in range(5):
        moved = {c: [v * 10 ** rng.uniform(-spreads[c], spreads[c]) for v in vs] for c, vs in cells.items()}
        _, lo, hi = st.bootstrap(moved, _span)
        assert lo_lo - 1e-12 <= lo <= lo_hi + 1e-12 and hi_lo - 1e-12 <= hi <= hi_hi + 1e-12


def test_bootstrap_reached_is_the_interval_at_two_points_of_the_box():
    # three ordered cells (0.25 lowest, 0.75 highest): the span falls when 0.75 moves down and 0.25 up; the
    # middle cell moves the span nowhere at the data and stays. Both points are recomputed here by hand.
    rng = np.random.default_rng(7)
    cells = {a: list(10.0 ** rng.normal(-6 + 6 * a, 0.3, 5)) for a in (0.25, 0.5, 0.75)}
    spreads = {0.25: 0.2, 0.5: 0.3, 0.75: 0.1}
    stat_range = lambda m, sp: frag.span_range(list(m.values()), [sp[c] for c in m])  # noqa: E731
    move = {0.25: 0.2, 0.5: 0.0, 0.75: -0.1}                     # the lowering direction, in decades
    low = {c: [v * 10 ** move[c] for v in vs] for c, vs in cells.items()}
    high = {c: [v * 10 ** -move[c] for v in vs] for c, vs in cells.items()}
    (lo_a, lo_b), (hi_a, hi_b) = frag.bootstrap_reached(cells, spreads, stat_range)
    _, want_lo_a, want_hi_a = st.bootstrap(low, _span)
    _, want_lo_b, want_hi_b = st.bootstrap(high, _span)
    for got, want in ((lo_a, want_lo_a), (lo_b, want_lo_b), (hi_a, want_hi_a), (hi_b, want_hi_b)):
        assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12)
    # the points lie inside the outer bound; for these cells (their order the same in every resample) they
    # reach it: the bound is exact here
    (lo_lo, lo_hi), (hi_lo, hi_hi) = frag.bootstrap_range(cells, spreads, stat_range)
    for got, want in ((lo_a, lo_lo), (lo_b, lo_hi), (hi_a, hi_lo), (hi_b, hi_hi)):
        assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12)
    # no spread: both points are the data
    _, lo, hi = st.bootstrap(cells, _span)
    zero = frag.bootstrap_reached(cells, {c: 0.0 for c in cells}, stat_range)
    assert zero == ((lo, lo), (hi, hi))


@pytest.mark.parametrize("reached, certain", [((1.0, 1.7), True), ((1.0 + EPS, 1.7), False),
                                              ((0.3, 1.0 + EPS), True), ((0.3, 0.9), True)])
def test_a_flip_is_certain_iff_a_point_of_the_box_crosses_the_threshold(reached, certain):
    m = frag.Margin("interval lower end", 1.4, 1.0, ">", 0.3, 2.5, reached=reached)
    assert m.flips and m.flip_reached is certain
    assert m.as_dict()["flip_reached"] is certain
    assert ("reached (certain)" if certain else "not reached there") in m.detail() and m.detail() in m.text()
    holding = frag.Margin("x", 1.4, 1.0, ">", 1.2, 1.6, reached=(1.2, 1.6))
    assert holding.flip_reached is False and holding.detail() == "outer bound; at two points of the box 1.2 and 1.6"
    assert frag.Margin("x", 1.4, 1.0, ">", 0.3, 2.5).flip_reached is None
    for bad in ((math.nan, 1.0), (1.0,), (1.0, 2.0, 3.0)):
        with pytest.raises(ValueError, match="reached"):
            frag.Margin("x", 1.4, 1.0, ">", 0.3, 2.5, reached=bad)


def test_the_tcn_flat_verdict_reports_where_its_flip_is_reached():
    # the committed polished cells of architectures.tcn_impulse_flat (round 1) at the TCN's measured spread
    # 0.55: the lower end 1.42 can fall to 0.32 <= 1, at a point of the box (alpha 0.75 down, the others up)
    seeds = {0.25: [3.16e-07, 1.42e-07, 2.41e-07], 0.5: [2.33e-07, 2.74e-07, 3.03e-07],
             0.75: [0.221, 7.89e-06, 0.192]}
    rows = lambda spread: [{"model": "tcn", "kind": "impulse", "alpha": a, "seed": i, "relmse": v,  # noqa: E731
                            "spread": spread} for a, vs in seeds.items() for i, v in enumerate(vs)]
    out = arch.verdict_tcn_flat(rows(0.55))
    low = [m for m in out.data["fragility"]["margins"] if m["name"].startswith("span interval lower end")][0]
    assert out.verdict == NOT_REPRODUCED and out.data["fragility"]["label"] == "fragile"
    assert low["flips"] and low["flip_reached"] and min(low["reached"]) <= arch.FLAT_DECADES
    # at a spread of 0.2 the lower end's outer bound 1.42 - 0.4 stays above 1 decade: robust, nothing to reach
    calm = arch.verdict_tcn_flat(rows(0.2))
    low = [m for m in calm.data["fragility"]["margins"] if m["name"].startswith("span interval lower end")][0]
    assert calm.data["fragility"]["label"] == "robust" and not low["flips"] and low["flip_reached"] is False


def test_reachable_verdicts_of_a_claim_of_parts():
    r = lambda parts: frag.reachable_parts(parts, PASS, NOT_REPRODUCED, INCONCLUSIVE)  # noqa: E731
    fixed_sig, fixed_not = ({True}, {False}), ({False}, {False})
    assert r({"a": fixed_sig, "b": fixed_sig}) == {PASS}
    assert r({"a": fixed_sig, "b": fixed_not}) == {INCONCLUSIVE}
    assert r({"a": fixed_sig, "b": ({True, False}, {False})}) == {PASS, INCONCLUSIVE}
    assert r({"a": fixed_sig, "b": ({False}, {True, False})}) == {NOT_REPRODUCED, INCONCLUSIVE}
    assert r({"a": fixed_sig, "b": ({False}, {True})}) == {NOT_REPRODUCED}
    assert frag.label(PASS, {PASS}) == "robust" and frag.label(PASS, {PASS, INCONCLUSIVE}) == "fragile"


# ---------------------------------------------------------------------------------------- the spread file
def test_the_committed_spread_is_the_largest_measured_per_kind_and_budget():
    doc = frag.load_spread()
    assert doc is not None and "issue 42" in doc["source"]
    measured: dict = {}
    for m in doc["measurements"]:
        for budget in ("adam", "polished"):
            measured.setdefault(budget, {}).setdefault(m["model"], []).append(m["spread"][budget])
        for budget in ("adam", "polished"):
            pair = m[f"{budget}_relmse"]
            if isinstance(pair, dict):                  # the outside retrain states its Adam stage in words
                a, b = pair["committed"], pair["retrained"]
                assert math.isclose(m["spread"][budget], abs(math.log10(a / b)), abs_tol=5e-4)   # 3 decimals
    for budget, kinds in measured.items():
        table = doc["spread"][budget]
        assert set(table) == {*kinds, "default"} and all(table[k] == max(v) for k, v in kinds.items())
        assert table["default"] == max(max(v) for v in kinds.values())
    # both measurements: the outside retrain's LSTM cell and the project's cell of each architecture
    assert {m["by"].split(":")[0].split(" (")[0] for m in doc["measurements"]} == {"outside retrain", "this project"}
    assert set(measured["polished"]) == {"lstm", "s4d", "tcn", "transformer"}
    assert doc["spread"]["polished"]["lstm"] == 0.135 and doc["applies_to"]["seeds"] == [0, 1, 2, 3, 4]


def test_a_spread_file_is_checked_and_applies_to_its_seeds_only(tmp_path):
    doc = {"source": "test", "spread": {"polished": {"lstm": 0.1, "default": 0.2}}, "applies_to": {"seeds": [0, 1]}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc))
    doc = frag.load_spread(path)
    row = {"model": "lstm", "seed": 0, "config": None}
    assert frag.run_spread(row, doc, "polished") == 0.1
    assert frag.run_spread(dict(row, model="tcn"), doc, "polished") == 0.2          # not measured: default
    assert frag.run_spread(dict(row, seed=5), doc, "polished") == 0.0              # a round-2 seed
    assert frag.run_spread(row, None, "polished") == 0.0
    assert frag.load_spread(tmp_path / "missing.json") is None
    for bad, match in (({"spread": {"polished": {"default": 0.1}}, "applies_to": {"seeds": [0]}}, "source"),
                       ({"source": "x", "spread": {"polished": {"lstm": 0.1}}, "applies_to": {"seeds": [0]}}, "default"),
                       ({"source": "x", "spread": {"polished": {"default": -1}}, "applies_to": {"seeds": [0]}},
                        "spread"),
                       ({"source": "x", "spread": {"polished": {"default": 0.1}}}, "applies_to")):
        path.write_text(json.dumps(bad))
        with pytest.raises(ValueError, match=match):
            frag.load_spread(path)


def _spread_script():
    from test_arch_round2 import _script

    return _script("cross_machine_spread")


def _measured_run(cell, seed, adam, polished, pid="r"):
    """A row of cross_machine_spread.py's --out document: committed and retrained RelMSE at both budgets."""
    dlog = lambda ab: abs(math.log10(ab[1]) - math.log10(ab[0]))  # noqa: E731
    return {"cell": cell, "seed": seed, "run_id": f"{pid}{seed}", "adam": adam, "polished": polished,
            "dlog10_adam": dlog(adam), "dlog10_polished": dlog(polished), "bitwise_equal": adam[0] == adam[1],
            "parts_at": {}, "cpu_seconds": 1.0}


def test_the_spread_table_is_the_largest_per_kind_and_the_default_the_largest_of_all():
    cms = _spread_script()
    m = lambda model, a, p: {"model": model, "spread": {"adam": a, "polished": p}}  # noqa: E731
    table = cms.spread_table([m("lstm", 0.0, 0.125), m("lstm", 0.0, 0.25), m("tcn", 0.5, 0.0625),
                              m("s4d", 0.0, 0.25 + EPS)])
    assert table == {"adam": {"lstm": 0.0, "s4d": 0.0, "tcn": 0.5, "default": 0.5},
                     "polished": {"lstm": 0.25, "s4d": 0.25 + EPS, "tcn": 0.0625, "default": 0.25 + EPS}}
    assert cms.spread_table([]) == {"adam": {"default": 0.0}, "polished": {"default": 0.0}}


def test_the_fragility_file_keeps_others_measurements_and_replaces_its_own(tmp_path):
    """--fragility-file: the avx512 variant's runs become measurements (the control and the pinned variant do
    not: they are not a second machine); an earlier outside measurement stays; a rerun replaces this script's
    own; the file loads as the labels' spread."""
    cms = _spread_script()
    out = tmp_path / "spread.json"
    variants = {"avx512": {"runs": [_measured_run("tcn/exp/0.5", 0, [1e-3, 1e-3], [1e-6, 1e-5]),
                                    _measured_run("lstm/exp/0.5", 1, [1e-3, 1e-2], [1e-6, 2e-6])]},
                "round1": {"runs": [_measured_run("lstm/exp/0.5", 0, [1e-3, 1e-1], [1e-6, 1e-1])]},
                "pinned": {"runs": [_measured_run("s4d/exp/0.5", 0, [1e-3, 1e-1], [1e-6, 1e-1])]}}
    out.write_text(json.dumps({"command": "python x.py", "commit": "abcdef0123", "date": "2026-12-06",
                               "variants": variants}))
    labels = tmp_path / "labels.json"
    outside = {"model": "lstm", "kind": "exp", "alpha": 0.5, "seed": 2, "spread": {"adam": 0.0, "polished": 0.135}}
    labels.write_text(json.dumps({"source": "outside", "applies_to": {"seeds": [0, 1, 2, 3, 4]},
                                  "spread": {"polished": {"lstm": 0.135, "default": 0.135}},
                                  "measurements": [outside]}))
    doc = cms.fragility_file(out, labels)
    assert [m["by"] for m in doc["measurements"]] == ["outside retrain (issue 42)"] + [
        "this project: python x.py at commit abcdef0, 2026-12-06"] * 2
    assert doc["spread"] == {"adam": {"lstm": 1.0, "tcn": 0.0, "default": 1.0},
                             "polished": {"lstm": pytest.approx(0.30103, abs=1e-6), "tcn": 1.0, "default": 1.0}}
    assert "1 by an outside retrain" in doc["source"] and "2 by this project" in doc["source"]
    again = cms.fragility_file(out, labels)                                  # a rerun: its own replaced, once
    assert len(again["measurements"]) == 3 and again["spread"] == doc["spread"]
    loaded = frag.load_spread(labels)
    assert frag.run_spread({"model": "transformer", "seed": 0, "config": None}, loaded, "adam") == 1.0   # default
    assert frag.run_spread({"model": "tcn", "seed": 0, "config": None}, loaded, "polished") == 1.0
    bad = json.loads(out.read_text())
    bad["variants"]["avx512"]["runs"][0]["dlog10_adam"] = None                  # a RelMSE that is not positive
    out.write_text(json.dumps(bad))
    with pytest.raises(ValueError, match="not positive"):
        cms.fragility_file(out, labels)


# ---------------------------------------------------------------------------------------- through the verdicts
def _rows(d_s4d, spread_exp, spread_poly, seeds=5):
    """exp_vs_poly rows: LSTM poly 2 decades worse in every pair; the S4D's 15 (alpha, seed) differences
    ``d_s4d`` (poly - exp, decades), each run carrying its spread."""
    rows, i = [], 0
    for a in (0.25, 0.5, 0.75):
        for s in range(seeds):
            for m, d in (("lstm", 2.0), ("s4d", d_s4d[i])):
                rows.append({"model": m, "kind": "exp", "alpha": a, "seed": s, "relmse": 1e-4, "spread": spread_exp})
                rows.append({"model": m, "kind": "poly", "alpha": a, "seed": s, "relmse": 1e-4 * 10 ** d,
                             "spread": spread_poly})
            i += 1
    return rows


def test_an_inconclusive_sign_test_is_fragile_iff_its_negative_pairs_can_reach_zero():
    # S4D 12/15 (p = 0.018): three pairs at -0.25; a pair's spread is the sum of its two runs'
    d = [1.0] * 12 + [-0.25] * 3
    at = arch.verdict_exp_vs_poly(_rows(d, 0.125, 0.125))       # 0.25: the three become ties, 12/12 passes
    assert at.verdict == INCONCLUSIVE and at.data["fragility"]["label"] == "fragile"
    assert PASS in at.data["fragility"]["reachable"]
    inside = arch.verdict_exp_vs_poly(_rows(d, 0.125 - EPS, 0.125))
    assert inside.verdict == INCONCLUSIVE and inside.data["fragility"]["label"] == "robust"
    one_side = arch.verdict_exp_vs_poly(_rows(d, 0.25, 0.0))    # all of it on one run of the pair
    assert one_side.data["fragility"]["label"] == "fragile"
    s4d = [m for m in at.data["fragility"]["margins"] if m["name"] == "s4d: sign test p"][0]
    assert s4d["flips"] and "3 pairs can change sign" in s4d["note"]


def test_a_pass_is_fragile_iff_its_weak_pairs_can_cross_zero():
    # 14/15 (p = 4.9e-4): three pairs at +0.25; at a pair spread of exactly 0.25 they tie (11/12, p = 0.003:
    # still a pass), beyond it they turn negative (11/15, p = 0.06)
    d = [1.0] * 11 + [0.25] * 3 + [-1.0]
    assert arch.verdict_exp_vs_poly(_rows(d, 0.125, 0.125)).data["fragility"]["label"] == "robust"
    out = arch.verdict_exp_vs_poly(_rows(d, 0.125 + EPS, 0.125))
    assert out.verdict == PASS and out.data["fragility"]["label"] == "fragile"
    assert out.data["fragility"]["reachable"] == [INCONCLUSIVE, PASS]


def test_rows_without_spreads_report_no_fragility():
    rows = [{k: v for k, v in r.items() if k != "spread"} for r in _rows([1.0] * 15, 0.0, 0.0)]
    assert "fragility" not in arch.verdict_exp_vs_poly(rows).data


def test_order_interval_inside_the_factor_two_is_fragile_within_the_spread():
    # 15 differences in [-0.25, +0.25]; the 98% order-statistic interval is [-0.1875, +0.1875], inside +-0.30:
    # not reproduced, until a pair spread moves its lower end onto -log10(2)
    d = [-0.25, -0.21875, -0.1875, -0.125, -0.09375, -0.0625, -0.03125, 0.0, 0.03125, 0.0625, 0.09375, 0.125,
         0.1875, 0.21875, 0.25]

    def rows(spread):
        return [r for i, x in enumerate(d) for r in (
            {"model": "lstm->tcn", "kind": "impulse", "alpha": 0.5, "seed": i, "relmse": 1e-5, "spread": spread},
            {"model": "tcn->lstm", "kind": "impulse", "alpha": 0.5, "seed": i, "relmse": 1e-5 * 10 ** x,
             "spread": spread})]

    boundary = (arch.ORDER_DECADES - 0.1875) / 2          # a run's spread; a pair's is twice it
    inside, outside = arch.verdict_order(rows(boundary - 1e-9)), arch.verdict_order(rows(boundary + 1e-9))
    assert inside.verdict == outside.verdict == NOT_REPRODUCED
    assert inside.data["fragility"]["label"] == "robust"
    assert outside.data["fragility"]["label"] == "fragile" and INCONCLUSIVE in outside.data["fragility"]["reachable"]
    low = [m for m in outside.data["fragility"]["margins"] if m["name"].startswith("interval lower end")][0]
    assert low["flips"] and math.isclose(low["lo"], -0.1875 - 2 * (boundary + 1e-9))


def test_two_budgets_label_each_budget_with_its_own_spread():
    from test_arch_verdicts import _prow

    from validation.checks._arch_budgets import two_budgets

    d = [1.0] * 12 + [-0.25] * 3
    rows = [_prow(r["model"], r["kind"], r["alpha"], r["seed"], floor=r["relmse"], relmse=r["relmse"])
            for r in _rows(d, 0.0, 0.0)]
    doc = {"source": "t", "spread": {"adam": {"default": 0.0}, "polished": {"default": 0.125}},
           "applies_to": {"seeds": [0, 1, 2, 3, 4]}}
    out = two_budgets(rows, arch.verdict_exp_vs_poly, spread=doc)
    assert out.data["fragility"] == {"polished": "fragile", "adam": "robust"}
    assert out.data["budgets"]["polished"]["fragility"]["label"] == "fragile"
    assert "fragility (cross-machine spread): polished budget fragile, Adam budget robust" in out.summary
    assert "### Fragility" in out.details and "s4d: sign test p" in out.details
    later = two_budgets([dict(r, seed=r["seed"] + 5) for r in rows], arch.verdict_exp_vs_poly, spread=doc)
    assert later.data["fragility"] == {"polished": "robust", "adam": "robust"}     # round-2 seeds: no spread
    assert two_budgets(rows, arch.verdict_exp_vs_poly).data["fragility"] == {"polished": "not assessed",
                                                                            "adam": "not assessed"}
