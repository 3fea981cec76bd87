"""The ``validation`` package's helpers (issue 43: an outside fuzz crashed 858 calls of them with KeyErrors and
AttributeErrors): a helper is either private or checks its arguments. Each public function of the modules
below, called with a bad argument, raises a TypeError / ValueError naming it; data with a NaN where a number
is needed is refused by name (a NaN compares False with every threshold), while the same data without it
still gives its verdict."""

from __future__ import annotations

import math

import pytest

import tiny_inputs as tiny
from validation import committed, registry, report
from validation.checks import anti_collapse as ac
from validation.checks import architectures as arch
from validation.checks import gated_rnn as gr
from validation.registry import PASS, Check, Context, Outcome, Result

# the helpers that became private: none of them is public any more (a public name must check its arguments)
PRIVATE = {ac: ("Setting",), gr: ("gate_rates", "gated_sweep", "gated_records", "sweep_name", "collect",
                                  "trajectory_table"),
           registry: ("smoke_test",), committed: ("extract",),
           report: ("summary_rows", "remove_stale_figures", "run_metadata", "checkout_commit", "budget_section",
                    "rounds_section")}


@pytest.mark.parametrize("mod", list(PRIVATE), ids=lambda m: m.__name__)
def test_the_unchecked_helpers_are_private(mod):
    for name in PRIVATE[mod]:
        assert not hasattr(mod, name), f"{mod.__name__}.{name} is public again"
        assert hasattr(mod, "_" + name), f"{mod.__name__}._{name} is gone (update this list)"


# ------------------------------------------------------------------------------------------- anti-collapse
def _tail(se=0.1):
    return dict(n=100, z=5.0, rows=[dict(label="a", eta_J=0.3, beta_star=1.5, beta_eps=1.5, beta_hat=1.55, se=se,
                                         ci=(1.45, 1.65), r2=0.99, burn_in=10)])


def _samplers(se=0.01):
    return dict(n=100, z=5.0, rows=[dict(alpha=1.5, dt=0.1, sampler="exact", est=[1.0, 3.0], se=[se, 0.1],
                                         exact=[1.01, 3.1])])


def _phase(se=0.05):
    return dict(z=5.0, rows=[dict(label="a", eta_G=0.25, eta_J=0.3, beta_star=1.6, beta_hat=1.55, se=se)])


def _envelope(se=0.05):
    return dict(z=5.0, rows=[dict(label="a", beta_star=1.2, beta_env=1.25, se=se, best="power", window_ok=True,
                                  runs_p=0.5, ci=(1.2, 1.3))])


def _ou(se=0.1):
    return dict(z=5.0, rows=[dict(drift="linear", label="g", favoured="lognormal", vuong_z=-3.0, beta_low=1.0,
                                  beta_high=3.0, change=2.0, se=se)])


AC = [(ac.verdict_tail, _tail, "data['rows'][0]['se']"), (ac.verdict_samplers, _samplers, "data['rows'][0]['se'][0]"),
      (ac.verdict_phase_flip, _phase, "data['rows'][0]['se']"), (ac.verdict_envelope, _envelope, "data['rows'][0]['se']"),
      (ac.verdict_ou_collapsed, _ou, "data['rows'][0]['se']")]


@pytest.mark.parametrize("verdict, make, where", AC, ids=[v.__name__ for v, _, _ in AC])
def test_anti_collapse_verdicts_check_their_data(verdict, make, where):
    assert verdict(make()).verdict == PASS
    tiny.assert_named(lambda: verdict(make(se=math.nan)), ValueError, where)
    tiny.assert_named(lambda: verdict(None), TypeError, "data")
    tiny.assert_named(lambda: verdict({"rows": []}), ValueError, "data")
    tiny.assert_named(lambda: verdict({**make(), "rows": [{}]}), ValueError, "data['rows'][0]")


def test_anti_collapse_plots_check_before_drawing(tmp_path):
    out = tmp_path / "x.png"
    calls = [(lambda: ac.plot_tail(out, [{"label": "a"}], "t"), ValueError, "curves[0]"),
             (lambda: ac.plot_tail(out, [], "t"), ValueError, "curves"),
             (lambda: ac.plot_tail(3, [], "t"), TypeError, "path"),
             (lambda: ac.plot_samplers(out, None), TypeError, "data"),
             (lambda: ac.plot_phase_diagram(out, _phase(), []), ValueError, "simulated_phases"),
             (lambda: ac.plot_envelope(out, [dict(label="a", lags=[1.0, -2.0], tau=[1.0, 2.0], beta_env=1.0,
                                                  beta_star=1.0)]), ValueError, "curves[0]['lags']"),
             (lambda: ac.plot_ou_collapsed(out, [dict(label="a", zeta=[])]), ValueError, "curves[0]['zeta']")]
    for call, exc, needle in calls:
        tiny.assert_named(call, exc, needle)
    assert not out.exists()


# ------------------------------------------------------------------------------------------------ gated RNN
def test_gated_verdicts_check_their_data():
    from test_gated_rnn import _ckpt, _data, _gate

    assert gr.verdict_constgate(_data()).verdict == PASS
    for verdict in (gr.verdict_constgate, gr.verdict_diag_vs_shared, gr.verdict_tail_envelope, gr.verdict_reference):
        tiny.assert_named(lambda: verdict(None), TypeError, "data")
        tiny.assert_named(lambda: verdict({}), ValueError, "data")
        tiny.assert_named(lambda: verdict({"seed0": {"const": []}}), ValueError, "data['seed0']")
    no_ci = _ckpt(q90=20.0)
    del no_ci["beta_tail_ci"]
    tiny.assert_named(lambda: gr.verdict_diag_vs_shared(_data(diag=[no_ci])), ValueError, "beta_tail_ci")
    assert gr.verdict_gate_discrimination({"a": _gate(160, 20)["passed"]}).verdict == PASS
    tiny.assert_named(lambda: gr.verdict_gate_discrimination({"a": {}}), ValueError, "rates['a']")
    tiny.assert_named(lambda: gr.verdict_gate_discrimination([1]), TypeError, "rates")


# ---------------------------------------------------------------------------------------------- architectures
def test_architecture_verdicts_check_their_rows():
    from test_arch_verdicts import _row

    good = [_row("lstm", "exp", 0.5, 0, 1e-3)]
    for verdict in (arch.verdict_exp_vs_poly, arch.verdict_tcn_flat, arch.verdict_composition, arch.verdict_order,
                    arch.verdict_no_single_best, arch.verdict_prony_budget, arch.verdict_depth, arch.verdict_heads):
        tiny.assert_named(lambda: verdict(None), TypeError, "rows")
        tiny.assert_named(lambda: verdict([]), ValueError, "rows")
        tiny.assert_named(lambda: verdict([{**good[0], "alpha": math.nan}]), ValueError, "rows[0]['alpha']")
    tiny.assert_named(lambda: arch.verdict_heads(good, strong=1.5), ValueError, "strong")
    tiny.assert_named(lambda: arch.verdict_heads(good), ValueError, "transformer_h")       # a model name it splits
    tiny.assert_named(lambda: arch.verdict_order(good, a=3), TypeError, "a")


# ------------------------------------------------------------------------------------ registry, report, committed
TEXTS = dict(paper="p", claim="c", closed_form="f", numerics="n", statistic="s")


def _check(**over):
    kw = dict(name="x.y", paper="p", claim="c", closed_form="f", numerics="n", statistic="s",
              func=lambda ctx: Outcome(PASS, "ok"))
    return Check(**{**kw, **over})


def test_registry_objects_check_their_fields(tmp_path):
    ctx = Context(profile="quick", report_dir=tmp_path)
    calls = [(lambda: Outcome(PASS, 3), TypeError, "summary"), (lambda: Outcome("fine", "x"), ValueError, "verdict"),
             (lambda: Outcome(PASS, "x", figures="a.png"), TypeError, "figures"),
             (lambda: Outcome(PASS, "x", data=[]), TypeError, "data"),
             (lambda: Context(profile="gpu", report_dir=tmp_path), ValueError, "profile"),
             (lambda: Context(profile="quick", report_dir=3), TypeError, "report_dir"),
             (lambda: Context(profile="quick", report_dir=tmp_path, workers=0), ValueError, "workers"),
             (lambda: Context(profile="quick", report_dir=tmp_path, sweep=""), TypeError, "sweep"),
             (lambda: ctx.figure_path("../escape.png"), ValueError, "name"),
             (lambda: ctx.store_path("a/b"), ValueError, "experiment"),
             (lambda: _check(name=""), ValueError, "name"), (lambda: _check(func=None), TypeError, "func"),
             (lambda: _check(profiles=("gpu",)), ValueError, "profiles"),
             (lambda: _check(profiles="quick"), TypeError, "profiles"),
             (lambda: _check().run(None), TypeError, "ctx"),
             (lambda: Result(_check(), Outcome(PASS, "x"), math.nan), ValueError, "seconds"),
             (lambda: Result(None, Outcome(PASS, "x"), 1.0), TypeError, "check"),
             (lambda: registry.with_figure(None, Outcome(PASS, "x"), "a.png", print), TypeError, "ctx"),
             (lambda: registry.with_figure(ctx, Outcome(PASS, "x"), "a.png", None), TypeError, "plot"),
             (lambda: registry.check("a,b", **TEXTS), ValueError, "name"),
             (lambda: registry.check("a.b", **{**TEXTS, "paper": 3}), TypeError, "paper"),
             (lambda: registry.check("a.b", **TEXTS)(None), TypeError, "decorates")]
    for call, exc, needle in calls:
        tiny.assert_named(call, exc, needle)
    assert not (tmp_path / "escape.png").exists()
    assert _check().run(ctx).outcome.verdict == PASS


def test_report_functions_check_their_arguments(tmp_path):
    ctx = Context(profile="quick", report_dir=tmp_path)
    res = [Result(_check(), Outcome(PASS, "ok"), 0.5)]
    assert report.counts_line(res) == "1 check: 1 pass" and not report.any_failed(res)
    calls = [(lambda: report.markdown_table(["a", "b"], [(1,)]), ValueError, "rows[0]"),
             (lambda: report.markdown_table([], []), ValueError, "headers"),
             (lambda: report.markdown_table(["a"], "x"), TypeError, "rows"),
             (lambda: report.verdict_counts("pass"), TypeError, "results"),
             (lambda: report.counts_line([1]), TypeError, "results"),
             (lambda: report.any_failed(None), TypeError, "results"),
             (lambda: report.run_checks([_check()], None), TypeError, "ctx"),
             (lambda: report.run_checks("x.y", ctx), TypeError, "checks"),
             (lambda: report.run_checks([_check()], ctx, progress="no"), TypeError, "progress"),
             (lambda: report.write_report(res, ctx, only=3), TypeError, "only"),
             (lambda: report.partial_dir(3, None), TypeError, "report_dir"),
             (lambda: report.partial_dir(tmp_path, 3), TypeError, "pattern"),
             (lambda: report.check_writable(None), TypeError, "report_dir")]
    for call, exc, needle in calls:
        tiny.assert_named(call, exc, needle)
    assert list(tmp_path.iterdir()) == []


def test_committed_checks_its_root(tmp_path):
    tiny.assert_named(lambda: committed.collect(3), TypeError, "root")
    tiny.assert_named(lambda: committed.collect(tmp_path / "none"), ValueError, "root")
    tiny.assert_named(lambda: committed.refresh(tmp_path / "none"), ValueError, "root")


# ------------------------------------------------------------------------ the figure scripts' public helpers
def test_figure_helpers_check_their_arguments():
    """The helpers that docs/figures/*.py and the tests import (public on purpose) name a bad argument instead of
    failing inside numpy or matplotlib, or, for horizon_law_data, silently returning a law with no points."""
    import numpy as np

    from validation.checks.init_laws import horizon_law_data, plot_horizon_laws
    from validation.checks.real_weights import plot_rows_mc
    from validation.checks.signal_energy import feedforward_energies

    rng = np.random.default_rng(0)
    bad = [
        (lambda: plot_rows_mc(None, None), TypeError, "^cases"),
        (lambda: plot_rows_mc(None, [(32, 1)]), TypeError, "^cases"),
        (lambda: plot_rows_mc(None, [(32, 1, 1.0, 0.0, 1.0)]), ValueError, r"^cases\[\]\[3\] \(se\) must be > 0"),
        (lambda: feedforward_energies(0, 1, 10, field="real", rng=rng), ValueError, "^n must"),
        (lambda: feedforward_energies(2, -1, 10, field="real", rng=rng), ValueError, "^L must"),
        (lambda: feedforward_energies(2, 1, 0, field="real", rng=rng), ValueError, "^samples must"),
        (lambda: feedforward_energies(2, 1, 10, field="x", rng=rng), ValueError, "^field must"),
        (lambda: feedforward_energies(2, 1, 10, field="real", rng=0), TypeError, "^rng must"),
        (lambda: feedforward_energies(10**4, 1, 10**4, field="real", rng=rng), ValueError, r"^samples \* n\^2"),
        (lambda: horizon_law_data(None, 0.1, ["uniform"]), TypeError, "^ns"),
        (lambda: horizon_law_data([64], 1.0, ["uniform"]), ValueError, "^tol must be < 1"),
        (lambda: horizon_law_data([64], 0.1, ["cauchy"]), ValueError, r"^laws\[\] must be a law"),
        (lambda: horizon_law_data([64], 0.1, "uniform"), TypeError, "^laws must"),
        (lambda: plot_horizon_laws(None, None, tol=0.1), TypeError, "^data must"),
        (lambda: plot_horizon_laws(None, {"uniform": [64]}, tol=0.1), TypeError, "^data must"),
    ]
    for call, exc, match in bad:
        with pytest.raises(exc, match=match):
            call()
    # just inside each edge: the smallest sizes, a tol just below 1, an se just above 0
    assert feedforward_energies(1, 0, 1, field="complex", rng=rng).tolist() == [1.0]
    assert horizon_law_data([64], math.nextafter(1.0, 0.0), ["uniform"]) == {"uniform": []}    # beyond the served
    fig = plot_rows_mc(None, [(32, 1, 1.0, 2.3e-308, 1.0)])        # the smallest normal se and a little
    assert fig is not None


def test_architecture_plan_helpers_check_their_arguments():
    """The helpers benchmarks/memory_arch/cpu_results.py imports: a sweep name that is not a file name beside the
    sweep files (a path) is refused, and so is every argument of the wrong shape, by name."""
    bad = [
        (lambda: arch.extension_path(None), TypeError, "^sweep must"),
        (lambda: arch.round2_path("../../etc"), ValueError, "^sweep must"),
        (lambda: arch.load_round2("cpu/x"), ValueError, "^sweep must"),
        (lambda: arch.load_extension(3), TypeError, "^sweep must"),
        (lambda: arch.cell_of({"study": "main"}), TypeError, "^run_or_row must"),
        (lambda: arch.extension_runs(None, None), TypeError, "^doc must"),
        (lambda: arch.extension_runs({"studies": {}}, [1]), TypeError, "^plan must"),
        (lambda: arch.plan_extension(None), TypeError, "^results must"),
        (lambda: arch.plan_extension([], seeds=()), TypeError, "^seeds must"),
        (lambda: arch.plan_extension([], seeds=(3, -1)), ValueError, r"^seeds\[\] must"),
        (lambda: arch.profile_rows(None, ("main",)), TypeError, "^ctx must"),
        (lambda: arch.with_round2(None, {"claims": {}}, "x", None, len, len), TypeError, "^out must"),
        (lambda: arch.with_round2(Outcome(PASS, "s"), {}, "x", None, len, len), TypeError, "^plan must"),
        (lambda: arch.with_round2(Outcome(PASS, "s"), {"claims": {}}, 3, None, len, len), TypeError, "^claim must"),
        (lambda: arch.with_round2(Outcome(PASS, "s"), {"claims": {}}, "x", None, None, len), TypeError, "^answer"),
    ]
    for call, exc, match in bad:
        with pytest.raises(exc, match=match):
            call()
    # just inside: the names and shapes the profile script uses
    assert arch.round2_path("cpu_T256").name == "cpu_T256_round2.json" and arch.load_round2("cpu")["claims"]
    assert arch.plan_extension([], seeds=(0,)) == {"seeds": [0], "claims": {}}
    assert arch.extension_runs({"studies": {}}, None) == {}
    row = dict(study="main", model="lstm", train_variant="default", kind="exp", alpha=0.5, lam=None)
    assert arch.cell_of(row) == ["main", "lstm", "default", "exp", 0.5, None]
