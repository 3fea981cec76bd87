"""numerics.memory_functions.memory_report: the mismatch, the nearest family, the benchmark files and ranking."""

from __future__ import annotations

import doctest
import json
import math

import numpy as np
import pytest

import numerics.memory_functions.memory_report as mp
from numerics.memory_functions.memory_report import (BenchCell, BenchmarkNotFound, best_on_cell, load_benchmark, mismatch,
                                     nearest_families, memory_report)
from theory.complexity import effective_rank, effective_support
from theory.memory import expected_linear_relmse, memory_function, mixed_memory_function

T = 64


def test_doctests():
    assert doctest.testmod(mp, raise_on_error=False).failed == 0


# ----------------------------------------------------------------------------------------------------
# the mismatch and the nearest family
# ----------------------------------------------------------------------------------------------------
def test_mismatch_is_the_relmse_of_the_best_rescaled_member():
    rng = np.random.default_rng(1)
    for _ in range(20):
        rho, phi = rng.standard_normal(T), rng.standard_normal(T)
        w = T - np.arange(T)
        c = np.dot(w, rho * phi) / np.dot(w, phi * phi)            # weighted least squares
        assert abs(mismatch(rho, phi) - expected_linear_relmse(c * phi, rho)) < 1e-12
        # any other scale does worse; scale and sign of rho are irrelevant
        assert expected_linear_relmse(1.1 * c * phi, rho) > mismatch(rho, phi)
        assert abs(mismatch(-3.0 * rho, phi) - mismatch(rho, phi)) < 1e-12


@pytest.mark.parametrize("kind,alpha", [("exp", 0.3), ("exp", 0.9), ("poly", 0.2), ("poly", 0.75),
                                        ("impulse", 0.5), ("airy", 0.6)])
def test_nearest_family_recovers_the_family(kind, alpha):
    best = nearest_families(memory_function(kind, alpha, T))[0]
    assert best["kind"] == kind and best["mismatch"] < 1e-9
    if kind in ("exp", "poly"):
        assert abs(best["alpha"] - alpha) < 1e-5
    else:   # shift families: the canonical alpha m/(T-1) of the same shift m
        assert round(best["alpha"] * (T - 1)) == round(alpha * (T - 1))


def test_delta_is_alpha_zero():
    for best in nearest_families(memory_function("exp", 0.0, T)):      # delta_0 is alpha = 0 of every kind
        assert best["alpha"] < 1e-6 and best["mismatch"] < 1e-15


def test_far_targets_are_flagged():
    noise = np.random.default_rng(0).standard_normal(T)
    p = memory_report(noise, prony=False, results="/nonexistent/results.json")
    assert p.far and p.nearest["mismatch"] > mp.FAR_THRESHOLD
    near = memory_report(0.9 ** np.arange(T) + 0.5 * 0.3 ** np.arange(T), prony=False, results="/nonexistent")
    assert not near.far and near.nearest["kind"] == "exp"
    mix = memory_report(mixed_memory_function("exp", "impulse", 0.5, 0.5, T), prony=False, results="/nonexistent")
    assert mix.far          # half exponential, half impulse: no single family explains it


def test_report_gives_the_toolkit_measures():
    r = memory_function("poly", 0.5, T)
    p = memory_report(r, results="/nonexistent")
    assert p.tail_energy["effective_support_sorted"] == effective_support(r)
    assert p.effective_rank["hankel"] == effective_rank(r, coupling="hankel")
    assert p.prony["reached"] and p.prony["residual"] <= 1e-3 and p.prony["order"] >= 2
    imp = memory_report(memory_function("impulse", 0.5, T), prony=False, results="/nonexistent")
    assert imp.effective_rank["lag"] == 1.0 and imp.tail_energy["C_sorted"]["1"] == 0.0
    e = memory_report(lambda s: 0.8 ** s, T=T, results="/nonexistent")      # a callable
    assert e.prony["order"] == 1 and e.prony["residual"] < 1e-20


# ----------------------------------------------------------------------------------------------------
# benchmark loader
# ----------------------------------------------------------------------------------------------------
def _write(tmp_path, name, obj):
    p = tmp_path / name
    p.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return p


MEDIANS = [{"model": "lstm", "kind": "poly", "alpha": 0.5, "median_relmse": 0.3},
           {"model": "tcn", "kind": "poly", "alpha": 0.5, "median_relmse": 0.02},
           {"model": "s4d", "kind": "poly", "alpha": 0.5, "median_relmse": 0.05},
           {"model": "tcn", "kind": "poly", "alpha": 0.25, "median_relmse": 0.001}]


def test_loader_list_and_object_forms(tmp_path):
    checks = [{"name": "architectures.x", "verdict": "pass", "data": {"medians": MEDIANS}}]
    for obj in (checks, {"profile": "cpu", "results": checks}):
        cells = load_benchmark(_write(tmp_path, "r.json", obj))
        assert sorted((c.model, c.alpha, c.median_relmse) for c in cells) == sorted(
            (m["model"], m["alpha"], m["median_relmse"]) for m in MEDIANS)


def test_loader_reads_exp_vs_poly_cells(tmp_path):
    data = [{"name": "architectures.recurrent_exp_vs_poly", "data": {"cells": [
        ["lstm", 0.25, "0.0012", "0.034", "28.3", "yes"], ["s4d", 0.25, "inf", "0.5", "0", "no"]]}}]
    cells = {(c.model, c.kind, c.alpha): c.median_relmse for c in load_benchmark(_write(tmp_path, "r.json", data))}
    assert cells == {("lstm", "exp", 0.25): 0.0012, ("lstm", "poly", 0.25): 0.034,
                     ("s4d", "exp", 0.25): math.inf, ("s4d", "poly", 0.25): 0.5}


def test_loader_two_budget_report_reads_medians_and_skips_statistic_cells(tmp_path):
    """A two-budget report (cpu_results.py): ``cells`` lists the cells the statistic read, not medians; the
    headline budget's medians are in ``medians``. (Reading such a ``cells`` row as the old exp/poly table
    failed: 'could not convert string to float'.)"""
    data = {"results": [
        {"name": "architectures.recurrent_exp_vs_poly", "data": {
            "cells": [["main", "lstm", "default", "exp", 0.25, None], ["main", "s4d", "default", "poly", 0.5, None]],
            "budgets": {"polished": {"verdict": "inconclusive"}, "adam": {"verdict": "inconclusive"}}}},
        {"name": "architectures.no_single_best", "data": {"medians": MEDIANS, "cells": [
            ["main", "tcn", "default", "poly", 0.5, None]]}}]}
    cells = load_benchmark(_write(tmp_path, "r.json", data))
    assert sorted((c.model, c.kind, c.alpha, c.median_relmse) for c in cells) == sorted(
        (m["model"], m["kind"], m["alpha"], m["median_relmse"]) for m in MEDIANS)


def test_loader_per_seed_rows_json_and_csv(tmp_path):
    rows = [{"study": "main", "model": "tcn", "kind": "exp", "alpha": 0.5, "seed": s, "relmse": v}
            for s, v in enumerate([0.1, 0.3, None])]                     # diverged run counts as +inf
    rows.append({"study": "depth", "model": "tcn", "kind": "exp", "alpha": 0.5, "seed": 0, "relmse": 9.0})
    cells = load_benchmark(_write(tmp_path, "rows.json", rows))
    assert [(c.model, c.median_relmse) for c in cells] == [("tcn", 0.3)]
    csv_text = "model,kind,alpha,seed,relmse\ns4d,airy,0.75,0,0.2\ns4d,airy,0.75,1,0.4\n"
    cells = load_benchmark(_write(tmp_path, "rows.csv", csv_text))
    assert [(c.model, c.kind, c.alpha) for c in cells] == [("s4d", "airy", 0.75)]
    assert abs(cells[0].median_relmse - 0.3) < 1e-15


def test_loader_errors(tmp_path):
    with pytest.raises(BenchmarkNotFound, match="no benchmark results found at .*; give the results.json of a cpu-profile"):
        load_benchmark(tmp_path / "missing.json")
    with pytest.raises(ValueError, match="holds no per-"):
        load_benchmark(_write(tmp_path, "r.json", [{"name": "a", "data": {"x": 1}}]))
    with pytest.raises(ValueError, match="not valid JSON"):
        load_benchmark(_write(tmp_path, "bad.json", "{oops"))


def test_best_on_cell_and_report_with_results(tmp_path):
    path = _write(tmp_path, "r.json", {"results": [{"name": "architectures.x", "data": {"medians": MEDIANS}}]})
    p = memory_report(memory_function("poly", 0.45, T), prony=False, results=path)
    b = p.benchmark
    assert b["available"] and b["kind"] == "poly" and b["alpha"] == 0.5
    assert [c["model"] for c in b["ranking"]] == ["tcn", "s4d", "lstm"]
    assert b["ranking"][0]["median_relmse"] == 0.02
    assert abs(b["cell_mismatch"] - mismatch(memory_function("poly", 0.45, T), memory_function("poly", 0.5, T))) < 1e-15
    # a target whose nearest kind is not benchmarked: said plainly
    q = memory_report(memory_function("impulse", 0.3, T), prony=False, results=path)
    assert not q.benchmark["available"] and "no cells of kind 'impulse'" in q.benchmark["message"]
    # a far target gets no ranking (the threshold is enforced), and is told why
    mix = mixed_memory_function("poly", "impulse", 0.5, 0.5, T)
    f = memory_report(mix, prony=False, results=path)
    assert f.nearest["kind"] == "poly" and f.benchmark["available"]
    assert f.far and f.benchmark["ranking"] == [] and f.benchmark["ranked"] is False
    assert f.benchmark["message"].startswith("no ranking: the target is far from every benchmarked family")
    a, best = best_on_cell([BenchCell("x", "exp", 0.5, 1.0, ""), BenchCell("x", "exp", 0.5, 1.0, "dup")], "exp", 0.1)
    assert a == 0.5 and len(best) == 1


def test_benchmark_length_is_compared_with_the_target(tmp_path):
    medians = [{**m, "T": T} for m in MEDIANS]
    path = _write(tmp_path, "r.json", {"results": [{"name": "architectures.x", "data": {"medians": medians}}]})
    same = memory_report(memory_function("poly", 0.5, T), prony=False, results=path).benchmark
    assert same["benchmark_T"] == T and "message" not in same
    longer = memory_report(memory_function("poly", 0.5, 2 * T), prony=False, results=path).benchmark
    assert longer["benchmark_T"] == T
    assert f"trained at T = {T}, your target has T = {2 * T}" in longer["message"]
    far = memory_report(mixed_memory_function("poly", "impulse", 0.5, 0.5, 2 * T), prony=False, results=path)
    assert far.far and "far from every" in far.benchmark["message"] and far.benchmark["ranking"] == []
    assert "length_note" not in far.benchmark          # no ranking, so no note about the ranking's length


# ----------------------------------------------------------------------------------------------------
# bad input and the command line
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("call,exc,word", [
    (lambda: memory_report(np.ones((4, 4))), ValueError, "rho"),
    (lambda: memory_report([1.0, 0.5, 0.2]), ValueError, "rho"),
    (lambda: memory_report(np.zeros(T)), ValueError, "rho"),
    (lambda: memory_report(np.full(T, np.nan)), ValueError, "rho"),
    (lambda: memory_report("0.5"), TypeError, "rho"),
    (lambda: memory_report(lambda s: s), TypeError, "T"),
    (lambda: memory_report(np.ones(T), T=T), TypeError, "T"),
    (lambda: memory_report(lambda s: np.ones(3), T=T), ValueError, "rho"),
    (lambda: memory_report(np.ones(T), far_threshold=1.5), ValueError, "far_threshold"),
    (lambda: memory_report(np.ones(T), prony="yes"), TypeError, "prony"),
    (lambda: memory_report(np.ones(T), m_max=T), ValueError, "m_max"),
    (lambda: memory_report(np.ones(T), prony_tol=0.0), ValueError, "prony_tol"),
    (lambda: nearest_families(np.ones(T), kinds=("sine",)), ValueError, "kinds"),
])
def test_bad_input(call, exc, word):
    with pytest.raises(exc, match=word):
        call()


# ----------------------------------------------------------------------------------------------------
# the packaged default results
# ----------------------------------------------------------------------------------------------------
def test_packaged_results_are_the_committed_ones():
    """One source of truth: the package's copy is byte for byte the committed report's results.json."""
    committed = mp.DEFAULT_RESULTS.parents[3] / "docs" / "results" / "cpu-architectures" / "results.json"
    assert mp.DEFAULT_RESULTS.is_file() and mp.DEFAULT_RESULTS.parent.name == "data"
    assert mp.DEFAULT_RESULTS.read_bytes() == committed.read_bytes(), (
        f"{mp.DEFAULT_RESULTS} differs from {committed}: `python benchmarks/memory_arch/cpu_results.py` writes "
        f"both (or copy the committed file over the packaged one)")


def test_default_results_rank_a_near_target_and_refuse_a_far_one():
    near = memory_report(memory_function("exp", 0.5, T), prony=False).benchmark
    assert near["available"] and near["ranked"] and len(near["ranking"]) >= 2
    medians = [c["median_relmse"] for c in near["ranking"]]
    assert medians == sorted(medians)
    s = np.arange(T)
    damped_cosine = np.exp(-s / 20.0) * np.cos(0.5 * s)          # oscillating: no benchmarked family is near
    far = memory_report(damped_cosine, prony=False)
    assert far.far and far.nearest["mismatch"] > mp.FAR_THRESHOLD
    assert far.benchmark["ranking"] == [] and far.benchmark["ranked"] is False
    assert "no ranking" in far.benchmark["message"]
