"""Architecture verdicts on synthetic rows (the convergence table, inconclusive / not reproduced / pass paths,
the seed statistics, the two budgets), the half-budget run embedded in the ``cosine2`` schedule, and grouped
(vmapped) training against lone runs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from numerics.memory_functions.bench.aggregate import CONVERGENCE_RATIO, convergence
from numerics import stats as st
from validation.checks import architectures as arch
from validation.registry import INCONCLUSIVE, NOT_REPRODUCED, PASS


def _row(model, kind, alpha, seed, relmse, half=None, budget=True, **extra):
    half = relmse if half is None else half
    return {"study": "main", "model": model, "train_variant": "default", "kind": kind, "alpha": alpha, "lam": None,
            "T": 64, "seed": seed, "relmse": relmse, "half_relmse": half, "half_step": 100,
            "half_is_budget": budget, "curve_steps": [100, 200], "curve_loss": [half or 1.0, relmse or 1.0],
            "probe": None, "exp_sum": None, "run_id": f"{model}-{kind}-{alpha}-{seed}", "config": None, **extra}


def _exp_poly_rows(exp_val, poly_val, half_factor=1.0, models=("lstm", "s4d"), alphas=(0.25, 0.5, 0.75), seeds=5):
    rows = []
    for m in models:
        for a in alphas:
            for s in range(seeds):
                for k, v in (("exp", exp_val(m, a, s)), ("poly", poly_val(m, a, s))):
                    rows.append(_row(m, k, a, s, v, None if v is None else v * half_factor))
    return rows


# ---------------------------------------------------------------------------------------------- convergence
def test_convergence_rule_on_synthetic_cells():
    rows = ([_row("m", "exp", 0.5, s, 1e-3, 1.9e-3) for s in range(5)]           # 1.9x: converged
            + [_row("m", "poly", 0.5, s, 1e-3, 2.5e-3) for s in range(5)]        # 2.5x: still improving
            + [_row("m", "airy", 0.5, s, 1e-7, 5e-7) for s in range(5)]          # 5x, but at float noise
            + [_row("m", "impulse", 0.5, s, None) for s in range(3)]            # diverged median
            + [_row("m", "impulse", 0.5, s, 0.1) for s in range(3, 5)]
            + [_row("n", "exp", 0.5, s, 1e-3, 1e-3, budget=False) for s in range(5)])   # cosine: no evidence
    conv = convergence(rows)
    assert conv[("m", "exp", 0.5)]["converged"]
    assert math.isclose(conv[("m", "exp", 0.5)]["ratio"], 1.9)
    assert not conv[("m", "poly", 0.5)]["converged"] and "2.5x" in conv[("m", "poly", 0.5)]["reason"]
    assert conv[("m", "airy", 0.5)]["converged"]
    assert not conv[("m", "impulse", 0.5)]["converged"] and "diverged" in conv[("m", "impulse", 0.5)]["reason"]
    assert not conv[("n", "exp", 0.5)]["converged"] and "schedule" in conv[("n", "exp", 0.5)]["reason"]
    assert CONVERGENCE_RATIO == 2.0


def test_median_not_one_seed_decides_convergence():
    # one seed improved 100x from half to full budget, the median cell did not: converged
    rows = [_row("m", "exp", 0.5, 0, 1e-4, 1e-2)] + [_row("m", "exp", 0.5, s, 1e-3, 1.2e-3) for s in range(1, 5)]
    assert convergence(rows)[("m", "exp", 0.5)]["converged"]


# ------------------------------------------------------------------------------------------ verdict paths
def test_convergence_never_vetoes_a_verdict():
    # every cell still improving 3x from half to full budget: the statistic decides all the same (context only)
    rows = _exp_poly_rows(lambda m, a, s: 1e-3 * (1 + 0.1 * s), lambda m, a, s: 1e-1, half_factor=3.0)
    assert arch.verdict_exp_vs_poly(rows).verdict == PASS
    rows = _exp_poly_rows(lambda m, a, s: 1e-1, lambda m, a, s: 1e-3 * (1 + 0.1 * s), half_factor=3.0)
    assert arch.verdict_exp_vs_poly(rows).verdict == NOT_REPRODUCED


def test_converged_clear_effect_passes():
    out = arch.verdict_exp_vs_poly(_exp_poly_rows(lambda m, a, s: 1e-4 * (1 + s), lambda m, a, s: 1e-2 * (1 + s)))
    assert out.verdict == PASS, out.summary
    assert out.data["tests"]["lstm"][1] == 15          # 15 pairs, all positive


def test_converged_reverse_effect_is_not_reproduced():
    out = arch.verdict_exp_vs_poly(_exp_poly_rows(lambda m, a, s: 1e-2, lambda m, a, s: 1e-4 * (1 + s)))
    assert out.verdict == NOT_REPRODUCED, out.summary
    assert "ruled out" in out.summary


def test_seeds_disagreeing_more_than_the_effect_is_inconclusive():
    # converged, but poly is worse for 3 seeds and better for 2: the median interval straddles 0
    sign = lambda s: 1 if s < 3 else -1  # noqa: E731
    rows = _exp_poly_rows(lambda m, a, s: 1e-3, lambda m, a, s: 1e-3 * 10 ** (sign(s) * (0.5 + 0.1 * s)))
    out = arch.verdict_exp_vs_poly(rows)
    assert out.verdict == INCONCLUSIVE and out.data["lacks_power"]
    assert "lacks power" in out.summary and "lstm" in out.summary


def test_a_design_that_cannot_reach_the_level_lacks_power():
    # 2 alphas x 3 seeds = 6 pairs, all positive: the sign test's smallest p is 1/64 > 1%
    rows = _exp_poly_rows(lambda m, a, s: 1e-3, lambda m, a, s: 1e-1, alphas=(0.5, 0.75), seeds=3)
    out = arch.verdict_exp_vs_poly(rows)
    assert out.verdict == INCONCLUSIVE and out.data["lacks_power"]
    five = _exp_poly_rows(lambda m, a, s: 1e-3, lambda m, a, s: 1e-1, alphas=(0.5, 0.75), seeds=5)
    assert arch.verdict_exp_vs_poly(five).verdict == PASS                # 10 pairs: p = 1/1024


def test_tcn_flat_bootstrap_paths():
    def rows(vals):
        return [_row("tcn", "impulse", a, s, vals(a, s)) for a in (0.25, 0.5, 0.75) for s in range(5)]

    flat = arch.verdict_tcn_flat(rows(lambda a, s: 1e-3 * (1 + 0.1 * s)))
    steep = arch.verdict_tcn_flat(rows(lambda a, s: 10 ** (-6 + 8 * a) * (1 + 0.1 * s)))
    noisy = arch.verdict_tcn_flat(rows(lambda a, s: 10 ** (-4 + 3 * ((s + int(4 * a)) % 2))))
    assert flat.verdict == PASS and steep.verdict == NOT_REPRODUCED and noisy.verdict == INCONCLUSIVE
    assert noisy.data["lacks_power"] and not flat.data["lacks_power"] and not steep.data["lacks_power"]


def test_prony_verdict_is_inconclusive_far_above_the_floor_and_fails_below_it():
    from numerics.memory_functions.bench.runs import RunConfig
    from theory.prony import best_mterm_fit

    cfg = RunConfig.from_dict({"model": {"arch": "s4d", "width": 1, "state": 2, "linear": True},
                               "target": {"kind": "poly", "alpha": 0.5}, "train": {}})
    rho = cfg.target.rho()
    floor = best_mterm_fit(rho, 2, poles="pairs", skip=True).residual

    def row(coef, d0):       # one real pole pair at 0.9: rhohat(s) = 2 coef 0.9^s + d0 [s = 0]
        poles = [[0.9, 0.0], [0.9, 0.0]]
        rhohat = 2 * coef * 0.9 ** np.arange(64)
        rhohat[0] += d0
        return _row("s4d_lin_N2", "poly", 0.5, 0, 0.5, config=cfg, exp_sum={
            "poles": poles, "coefs": [[coef, 0.0], [coef, 0.0]], "d0": d0}, probe=rhohat.tolist())

    far = arch.verdict_prony_bound([row(1e-3, 0.0)])            # almost no fit: ratio ~ 1 / floor >> 10
    assert far.verdict == INCONCLUSIVE and "10x above the floor" in far.summary
    assert far.data["best_ratio"]["2"] > 10 and floor > 0.02


# ---------------------------------------------------------------------------------------------- statistics
def test_sign_test_and_median_interval_are_exact():
    from scipy.stats import binom

    r = st.paired([1.0] * 12 + [-1.0] * 3)
    assert r.n == 15 and r.n_pos == 12
    assert math.isclose(r.p_greater, float(binom.sf(11, 15, 0.5)))
    # order-statistic interval: the largest j with P(Bin(15, 1/2) <= j - 1) <= 1% is j = 3
    assert float(binom.cdf(2, 15, 0.5)) <= st.LEVEL < float(binom.cdf(3, 15, 0.5))
    assert (r.lo, r.hi) == (-1.0, 1.0)
    assert st.paired([0.0, 0.0]).n == 0 and st.paired([0.0, 0.0]).p_greater == 1.0
    inf = st.paired([math.inf] * 8)                      # a diverged comparison still has a sign
    assert inf.n_pos == 8 and inf.p_greater < st.LEVEL


def test_bootstrap_interval_covers_a_known_median_difference():
    rng = np.random.default_rng(0)
    cells = {"a": list(rng.normal(0, 1, 25)), "b": list(rng.normal(3, 1, 25))}
    est, lo, hi = st.bootstrap(cells, lambda med: med["b"] - med["a"], B=500)
    assert lo < 3 < hi and lo < est < hi and hi - lo < 3


# ---------------------------------------------------------------------------------- training machinery
def _cfg(arch_spec, seed, steps=24, schedule="cosine2", **target):
    return {"model": arch_spec, "target": {"kind": "exp", "alpha": 0.5, "T": 24, "n_seq": 32, **target},
            "train": {"steps": steps, "batch": 8, "lr": 5e-3, "seed": seed, "schedule": schedule, "log_every": 6}}


def test_cosine2_embeds_the_half_budget_run_exactly():
    from numerics.memory_functions.bench.runs import execute_run

    spec = {"arch": "tcn", "channels": 3, "levels": 3}
    full = execute_run(_cfg(spec, 1, steps=24, schedule="cosine2"))
    half = execute_run(_cfg(spec, 1, steps=12, schedule="cosine"))
    assert full["half_is_budget"] and full["half_step"] == 12
    assert full["half_relmse"] == half["relmse"]                 # same steps, same lr, same batches: bitwise
    assert full["curve_loss"][:2] == half["curve_loss"]
    assert not execute_run(_cfg(spec, 1, steps=24, schedule="cosine"))["half_is_budget"]


@pytest.mark.parametrize("spec", [
    {"arch": "s4d", "width": 2, "state": 4},
    {"arch": "tcn", "channels": 3, "levels": 3},
    {"arch": "transformer", "d_model": 4, "heads": 2},
    {"arch": "lstm", "width": 3, "layers": 2},
    {"arch": "sequential", "interface": 2, "stages": [{"arch": "tcn", "channels": 2, "levels": 2},
                                                      {"arch": "s4d", "width": 2, "state": 2}]},
    {"arch": "sequential", "interface": 2, "stages": [{"arch": "lstm", "width": 3},
                                                      {"arch": "tcn", "channels": 2, "levels": 2}]},
])
def test_a_seed_trained_in_a_group_equals_the_same_seed_trained_alone(spec):
    from numerics.memory_functions.bench.runs import execute_group, execute_run

    # float32 reassociation in the batched kernels grows through training: 1e-4 after 24 steps
    cfgs = [_cfg(spec, s, alpha=a) for s, a in ((0, 0.5), (1, 0.5), (2, 0.25))]   # members may differ in target
    group = execute_group(cfgs)
    for c, g in zip(cfgs, group):
        alone = execute_run(c)
        for key in ("relmse", "half_relmse", "initial_relmse"):
            assert math.isclose(g[key], alone[key], rel_tol=1e-4), (key, g[key], alone[key])
        np.testing.assert_allclose(g["curve_loss"], alone["curve_loss"], rtol=1e-4)
        np.testing.assert_allclose(g["probe"], alone["probe"], rtol=1e-4, atol=1e-6)
    assert len({g["relmse"] for g in group}) == 3              # the members really are different runs


def test_group_rejects_members_with_different_training():
    from numerics.memory_functions.bench.runs import execute_group

    a = _cfg({"arch": "tcn", "channels": 2, "levels": 2}, 0)
    b = _cfg({"arch": "tcn", "channels": 2, "levels": 2}, 1)
    b["train"]["lr"] = 1e-2
    with pytest.raises(ValueError, match="differ only in the seed"):
        execute_group([a, b])


def test_ssm_group_uses_its_own_learning_rate():
    import torch

    from numerics.memory_functions.bench.trainer import TrainSpec, make_optimizer
    from numerics.memory_functions.bench.zoo import build_model

    m = build_model({"arch": "s4d", "width": 2, "state": 4}, seq_len=16)
    opt, _ = make_optimizer(list(m.named_parameters()), TrainSpec(lr=5e-3, ssm_group=True, optimizer="adamw"))
    ssm = [g for g in opt.param_groups if g["lr"] == 1e-3]
    assert len(ssm) == 1 and ssm[0]["weight_decay"] == 0.0 and len(ssm[0]["params"]) == 3
    assert all(isinstance(p, torch.nn.Parameter) for p in ssm[0]["params"])
    opt, _ = make_optimizer(list(m.named_parameters()), TrainSpec(lr=5e-3))
    assert len(opt.param_groups) == 1


def test_task_scaled_dt_range():
    import torch

    from numerics.memory_functions.models.s4d import S4D, dt_bounds

    assert dt_bounds("task", 64) == (1 / 64, 1.0) and dt_bounds("reference") == (1e-3, 1e-1)
    torch.manual_seed(0)
    dts = torch.exp(S4D(width=400, state=2, seq_len=64).layers[0].kernel.log_dt.detach())
    assert float(dts.min()) >= (1 / 64) * (1 - 1e-6) and float(dts.max()) <= 1 + 1e-6
    with pytest.raises(ValueError, match="seq_len"):
        S4D(width=2)
    with pytest.raises(ValueError, match="dt_range"):
        S4D(width=2, dt_range="legs", seq_len=8)


# ------------------------------------------------------------------------------- every claim's two outcomes
def _rows(values: dict, seeds: int = 5, **extra):
    """Converged synthetic rows: values[(model, kind, alpha)] = RelMSE, or f(seed) -> RelMSE."""
    return [_row(m, k, a, s, v(s) if callable(v) else v * (1 + 0.01 * s), **extra)
            for (m, k, a), v in values.items() for s in range(seeds)]


A3 = (0.25, 0.5, 0.75)


def test_composition_and_order_verdicts():
    good = _rows({**{("lstm", "impulse", a): 1.0 for a in A3}, **{("tcn", "impulse", a): 1e-2 for a in A3},
                  **{("lstm->tcn", "impulse", a): 1e-6 for a in A3}})
    out = arch.verdict_composition(good)
    assert out.verdict == PASS, out.summary
    assert math.isclose(out.data["tcn"]["median"], 4.0, abs_tol=1e-9)
    bad = _rows({**{("lstm", "impulse", a): 1.0 for a in A3}, **{("tcn", "impulse", a): 1e-3 for a in A3},
                 **{("lstm->tcn", "impulse", a): 1e-2 for a in A3}})
    assert arch.verdict_composition(bad).verdict == NOT_REPRODUCED
    order = _rows({**{("lstm->tcn", "impulse", a): 1e-4 for a in A3}, **{("tcn->lstm", "impulse", a): 1e-2 for a in A3}})
    assert arch.verdict_order(order).verdict == PASS
    same = _rows({(m, "impulse", a): 1e-3 for m in ("lstm->tcn", "tcn->lstm") for a in A3})
    assert arch.verdict_order(same).verdict == NOT_REPRODUCED


def test_no_single_best_verdicts():
    one = _rows({(m, k, a): 1e-3 if m == "tcn" else 1e-1 for m in ("tcn", "lstm") for k in ("exp", "poly") for a in A3})
    assert arch.verdict_no_single_best(one).verdict == NOT_REPRODUCED
    two = _rows({(m, k, a): 1e-3 if (m == "tcn") == (k == "poly") else 1e-1
                 for m in ("tcn", "lstm") for k in ("exp", "poly") for a in A3})
    out = arch.verdict_no_single_best(two)
    assert out.verdict == PASS and out.data["winners"] == {"exp": "lstm", "poly": "tcn"}


def test_depth_verdicts():
    v = {}
    for fam in ("lstm", "s4d"):
        for a in (0.5, 0.75):
            v[(f"{fam}_L1", "impulse", a)], v[(f"{fam}_L3", "impulse", a)] = 1e-1, 1e-3
            v[(f"{fam}_L1", "exp", a)], v[(f"{fam}_L3", "exp", a)] = 1e-3, 1e-3
    assert arch.verdict_depth(_rows(v)).verdict == PASS
    v[("lstm_L3", "impulse", 0.5)] = v[("lstm_L3", "impulse", 0.75)] = 1.0
    assert arch.verdict_depth(_rows(v)).verdict == NOT_REPRODUCED


def test_heads_verdicts():
    # h4 (interior) best everywhere; h16 beats h2 on exp, h2 beats h16 on impulse: both parts hold
    val = {"exp": {2: 3.0, 4: 1.0, 16: 2.0}, "impulse": {2: 2.0, 4: 1.0, 16: 3.0}}
    rows = _rows({(f"transformer_h{h}", k, a): val[k][h] for k in val for h in (2, 4, 16) for a in (0.25, 0.75)})
    assert arch.verdict_heads(rows).verdict == PASS
    mono = _rows({(f"transformer_h{h}", k, a): 1.0 / h for k in val for h in (2, 4, 16) for a in (0.25, 0.75)})
    assert arch.verdict_heads(mono).verdict == NOT_REPRODUCED


def test_optimizer_verdict():
    rows = []
    for k in ("exp", "impulse"):
        sparse = k == "impulse"
        for variant in ("adam", "adamw"):
            base = 1e-1 if (sparse and variant == "adamw") else 1.1e-3 if variant == "adamw" else 1e-3
            f = (1.0, 30.0, 2.0, 100.0, 5.0) if sparse else (1.0, 1.1, 1.2, 1.05, 1.15)
            rows += [_row("tcn", k, a, s, base * f[s] * (1 + 0.01 * a), train_variant=variant)
                     for a in A3 for s in range(5)]
    assert arch.verdict_optimizer(rows).verdict == PASS


def test_mixed_verdicts():
    lams = (0.0, 0.5, 1.0)
    curve = {"transformer": (0.1, 0.2, 0.1), "lstm": (0.01, 0.5, 0.9), "tcn": (0.9, 0.5, 0.01)}

    def rows():
        return [_row(m, "mixed", 0.75, s, v * (1 + 0.01 * s), lam=lam)
                for m, c in curve.items() for lam, v in zip(lams, c) for s in range(5)]

    out = arch.verdict_mixed([{**r, "lam": r["lam"]} for r in rows()])
    assert out.verdict == PASS, out.summary
    curve["transformer"] = (0.1, 0.05, 0.1)
    assert arch.verdict_mixed(rows()).verdict == NOT_REPRODUCED


def test_prony_bound_verdict_runs_on_real_trained_models(tmp_path):
    """The theorem check end to end on short runs: export, probe and floors are wired consistently."""
    from numerics.memory_functions.bench.aggregate import collect
    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.sweep import expand_sweep, run_sweep
    from validation.registry import FAIL

    doc = {"defaults": {"target": {"T": 24, "n_seq": 32}, "train": {"steps": 40, "batch": 8, "lr": 0.02}},
           "studies": {"prony": {"models": {"s4d_lin_N2": {"arch": "s4d", "width": 1, "state": 2, "linear": True}},
                                 "kinds": ["poly"], "alphas": [0.5], "seeds": [0, 1]}}}
    runs = expand_sweep(doc)
    with ResultStore(tmp_path / "p.sqlite") as store:
        run_sweep(runs, store, progress=False)
        rows = collect(runs, store)
    out = arch.verdict_prony_bound(rows)
    assert out.data["export_rel_diff"] < arch.EXPORT_RTOL
    assert out.verdict != FAIL and not out.data["violations"], out.summary
    assert "model >= floor" in out.details and out.data["best_ratio"]["2"] >= 1 - arch.BOUND_RTOL


# ----------------------------------------------------------------------------------------------------
# two budgets: the Adam stage and the polish, both upper bounds; the polished verdict is the headline
# ----------------------------------------------------------------------------------------------------
def _prow(model, kind, alpha, seed, floor, certified=False, relmse=1e-3):
    return _row(model, kind, alpha, seed, relmse, floor=floor, certified=certified, grad_ratio=1e-2, cert_change=0.1,
                polish_curve={"stage": ["f64", "f64"], "iter": [0, 600], "relmse": [relmse, floor], "grad": [1.0, 1e-4]})


def _budget_rows(exp, poly, adam_exp=1e-3, adam_poly=1e-3, models=("lstm", "s4d"), alphas=A3, seeds=3):
    return [_prow(m, k, a, s, v(m, a, s), relmse=r * (1 + 0.1 * s)) for m in models for a in alphas
            for s in range(seeds) for k, v, r in (("exp", exp, adam_exp), ("poly", poly, adam_poly))]


def test_two_budgets_headline_is_the_polished_verdict_with_the_agreement_line():
    from validation.checks._arch_budgets import ROBUST, two_budgets

    # polished: exp below poly (pass); Adam: every run 1e-3 (no effect, poly not worse: ruled out)
    differ = two_budgets(_budget_rows(lambda m, a, s: 1e-6 * (1 + 0.1 * s), lambda m, a, s: 1e-5 * (1 + 0.1 * s)),
                         arch.verdict_exp_vs_poly)
    assert differ.verdict == PASS
    assert differ.data["budgets"]["polished"]["verdict"] == PASS
    assert differ.data["budgets"]["adam"]["verdict"] == NOT_REPRODUCED
    assert differ.data["agreement"] == "depends on the budget: pass polished, not reproduced at the Adam budget"
    assert differ.summary.startswith("pass: polished budget: pass: ") and "| Adam budget: not reproduced" in differ.summary
    # both budgets say the same: robust
    agree = two_budgets(_budget_rows(lambda m, a, s: 1e-6 * (1 + 0.1 * s), lambda m, a, s: 1e-5 * (1 + 0.1 * s),
                                     adam_exp=1e-4, adam_poly=1e-2), arch.verdict_exp_vs_poly)
    assert agree.verdict == PASS and agree.data["agreement"] == ROBUST and ROBUST in agree.summary
    # polished lacks power (seeds disagree), Adam decides: the headline is inconclusive, and says why
    weak = two_budgets(_budget_rows(lambda m, a, s: 1e-6, lambda m, a, s: 1e-6 * 10 ** ((-1) ** s * 0.5),
                                    adam_exp=1e-4, adam_poly=1e-2), arch.verdict_exp_vs_poly)
    assert weak.verdict == INCONCLUSIVE and weak.data["lacks_power"] and "lacks power" in weak.summary
    assert weak.data["budgets"]["adam"]["verdict"] == PASS
    # context (convergence, certificate) is reported beside, never a veto
    assert "half/full" in agree.details and "certified seeds" in agree.details
    assert agree.data["seeds"] == [0, 1, 2]


def test_two_budgets_without_polished_runs_and_for_the_optimiser():
    from validation.checks._arch_budgets import two_budgets

    rows = _exp_poly_rows(lambda m, a, s: 1e-4, lambda m, a, s: 1e-3)
    out = two_budgets(rows, arch.verdict_exp_vs_poly)
    assert out.verdict == INCONCLUSIVE and "no polished runs" in out.summary
    assert out.data["budgets"]["adam"]["verdict"] == PASS
    opt = two_budgets(rows, arch.verdict_exp_vs_poly, adam_only=True)       # a claim about the optimiser
    assert opt.verdict == PASS and "optimiser" in opt.summary and set(opt.data["budgets"]) == {"adam"}


def test_a_diverged_polish_counts_as_a_failure_to_fit_and_is_named():
    from validation.checks._arch_budgets import polished_rows, two_budgets

    rows = _budget_rows(lambda m, a, s: 1e-6, lambda m, a, s: math.nan if (m, s) == ("lstm", 0) else 1e-4)
    assert sum(r["relmse"] is None for r in polished_rows(rows)) == 3
    out = two_budgets(rows, arch.verdict_exp_vs_poly)
    assert "3 diverged run(s) at the polished budget" in out.summary and out.data["diverged"]["polished"] == 3


def test_a_fail_at_either_budget_is_the_headline():
    from validation.checks._arch_budgets import two_budgets
    from validation.registry import FAIL, Outcome

    def verdict(rows):           # a theorem check that fails only on the Adam numbers
        bug = any(r.get("budget") != "polished" for r in rows)
        return Outcome(FAIL if bug else PASS, "bound violated" if bug else "holds")

    out = two_budgets(_budget_rows(lambda m, a, s: 1e-6, lambda m, a, s: 1e-5), verdict)
    assert out.verdict == FAIL and out.data["budgets"]["polished"]["verdict"] == PASS


@pytest.mark.parametrize("weak_budget", ["adam", "polished", None])
def test_lacks_power_is_taken_from_either_budget(weak_budget):
    """The rule extends a claim whose statistic lacks power at either budget (docs/papers/memory-functions.md,
    "Power"): a synthetic statistic that lacks power at one budget only, the non-headline one included
    (issue 43: taking it from the headline budget alone went unseen)."""
    from validation.checks._arch_budgets import two_budgets
    from validation.registry import Outcome

    def verdict(rows):
        budget = "polished" if rows[0].get("budget") == "polished" else "adam"
        weak = budget == weak_budget
        return Outcome(INCONCLUSIVE if weak else PASS, budget, data={"lacks_power": weak})

    out = two_budgets(_budget_rows(lambda m, a, s: 1e-6, lambda m, a, s: 1e-5), verdict)
    assert out.data["lacks_power"] is (weak_budget is not None)
    assert out.verdict == (INCONCLUSIVE if weak_budget == "polished" else PASS)
    assert out.data["budgets"]["adam"]["lacks_power"] is (weak_budget == "adam")
    plan = arch.plan_extension([{"name": "architectures.x", "verdict": out.verdict, "summary": out.summary,
                                 "data": {**out.data, "cells": [["main", "lstm", "default", "exp", 0.25, None]]}}])
    assert list(plan["claims"]) == (["architectures.x"] if weak_budget else [])


def test_smoke_test_decides_nothing_and_shows_the_committed_answer(monkeypatch):
    from validation import committed
    from validation.registry import FAIL, NOT_RUN, Outcome, smoke_test

    monkeypatch.setattr(committed, "load", lambda: {"architectures.x": {
        "verdict": "not reproduced", "budgets": {"polished": "not reproduced", "adam": "pass"},
        "agreement": "depends on the budget", "report": "docs/results/r", "profile": "cpu", "commit": "abcdef012345",
        "date": "2026-12-05T00:00:00"}})
    out = smoke_test("architectures.x", Outcome(PASS, "looks fine"))
    assert out.verdict == INCONCLUSIVE and out.data["smoke_test_verdict"] == PASS
    assert "smoke test" in out.summary and "its statistic says pass" in out.summary and "looks fine" in out.details
    assert "committed cpu answer (docs/results/r/report.md, abcdef0, 2026-12-05): not reproduced" in out.summary
    assert smoke_test("architectures.x", Outcome(FAIL, "bug")).verdict == FAIL      # a bug stays a bug
    skipped = smoke_test("architectures.x", Outcome(NOT_RUN, "runs only in the cpu/full profile"))
    assert skipped.verdict == NOT_RUN and "committed cpu answer" in skipped.summary


def test_the_quick_profile_never_decides_a_trained_model_claim(monkeypatch, tmp_path):
    """Through the registry: any check with a committed cpu answer is a smoke test in the quick profile only."""
    from validation import committed
    from validation.registry import Check, Context, Outcome

    monkeypatch.setattr(committed, "load", lambda: {"x.trained": {
        "verdict": "not reproduced", "budgets": {}, "agreement": None, "report": "docs/results/r", "profile": "cpu",
        "commit": None, "date": None}})
    trained = Check("x.trained", "p", "c", "f", "n", "s", lambda ctx: Outcome(PASS, "fits"))
    theory = Check("x.theory", "p", "c", "f", "n", "s", lambda ctx: Outcome(PASS, "exact"))
    quick, cpu = Context("quick", tmp_path), Context("cpu", tmp_path)
    assert trained.run(quick).outcome.verdict == INCONCLUSIVE
    assert "committed cpu answer (docs/results/r/report.md): not reproduced" in trained.run(quick).outcome.summary
    assert trained.run(cpu).outcome.verdict == PASS and theory.run(quick).outcome.verdict == PASS


def test_seed_extension_is_planned_from_lacking_power_and_read_only_by_its_claims(tmp_path, monkeypatch):
    """The rule's 5-seed step: claims that lack power get seeds 3 and 4 on the cells they read; other claims
    sharing those cells keep their 3 seeds."""
    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.sweep import expand_sweep, load_sweep
    from validation.registry import Context

    cells = [["main", "lstm", "default", "exp", 0.5, None], ["main", "lstm", "default", "poly", 0.5, None]]
    results = [{"name": "architectures.weak", "verdict": INCONCLUSIVE, "summary": "lacks power",
                "data": {"lacks_power": True, "cells": cells, "budgets": {"polished": {"verdict": INCONCLUSIVE}}}},
               {"name": "architectures.strong", "verdict": PASS, "summary": "",
                "data": {"lacks_power": False, "cells": cells}}]
    plan = arch.plan_extension(results)
    assert list(plan["claims"]) == ["architectures.weak"] and plan["seeds"] == [3, 4]
    assert plan["claims"]["architectures.weak"]["three_seed"]["budgets"] == {"polished": INCONCLUSIVE}
    doc = load_sweep(arch.SWEEP_DIR / "cpu.json")
    ext = arch.extension_runs(doc, plan)["architectures.weak"]
    assert sorted((r.config.target.kind, r.config.train.seed) for r in ext) == [
        ("exp", 3), ("exp", 4), ("poly", 3), ("poly", 4)]
    assert all(r.model == "lstm" and r.config.target.alpha == 0.5 and r.study == "main" for r in ext)
    # profile_rows: the planned claim reads 5 seeds, another claim on the same cells reads 3
    monkeypatch.setattr(arch, "load_extension", lambda sweep: plan)
    base = [r for r in expand_sweep(doc) if arch.cell_of(r) in cells]
    with ResultStore(tmp_path / "s.sqlite") as st:
        for r in base + ext:
            st.put(r.run_id, r.config.to_dict(), {"relmse": 1e-3})
    ctx = Context("cpu", tmp_path, store=tmp_path / "s.sqlite", train=False)
    sel = lambda r: r["model"] == "lstm" and r["alpha"] == 0.5 and r["kind"] in ("exp", "poly")  # noqa: E731
    weak = arch.profile_rows(ctx, ("main",), sel, claim="architectures.weak")
    strong = arch.profile_rows(ctx, ("main",), sel, claim="architectures.strong")
    assert sorted({r["seed"] for r in weak}) == [0, 1, 2, 3, 4] and len(weak) == 10
    assert sorted({r["seed"] for r in strong}) == [0, 1, 2] and len(strong) == 6


def test_a_run_shared_by_two_studies_serves_both(tmp_path, monkeypatch):
    """The composition study's standalone LSTM and TCN are the main study's runs (same ids, trained once): the
    composition claim must see them, labelled with its own study (CI caught their absence as a KeyError)."""
    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.sweep import expand_sweep, load_sweep
    from validation.registry import Context

    doc = load_sweep(arch.SWEEP_DIR / "cpu.json")
    runs = expand_sweep(doc)
    comp = [r for r in runs if r.study == "composition"]
    main_ids = {r.run_id for r in runs if r.study == "main"}
    shared = [r for r in comp if r.run_id in main_ids]
    assert shared and {r.model for r in shared} >= {"lstm", "tcn"}
    monkeypatch.setattr(arch, "load_extension", lambda sweep: None)
    with ResultStore(tmp_path / "s.sqlite") as st:
        for r in {r.run_id: r for r in runs if r.study in ("main", "composition")}.values():
            st.put(r.run_id, r.config.to_dict(), {"relmse": 1e-3})
    ctx = Context("cpu", tmp_path, store=tmp_path / "s.sqlite", train=False)
    rows = arch.profile_rows(ctx, ("composition",))
    assert sorted(r["run_id"] for r in rows) == sorted(r.run_id for r in comp)
    assert {r["study"] for r in rows} == {"composition"}


def test_a_shared_run_carries_the_labels_of_the_study_asked_for(tmp_path, monkeypatch):
    """The depth study's one-layer LSTM and S4D are the main study's runs (same ids), stored under main's labels
    ("lstm", "s4d"): the depth claim must see them as "lstm_L1", "s4d_L1", or its statistic has no pairs at all
    (the cpu report after part 1 said "lacks power" for that reason)."""
    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.sweep import expand_sweep, load_sweep
    from validation.registry import Context

    runs = expand_sweep(load_sweep(arch.SWEEP_DIR / "cpu.json"))
    depth = [r for r in runs if r.study == "depth"]
    main_ids = {r.run_id for r in runs if r.study == "main"}
    assert {r.model for r in depth if r.run_id in main_ids} == {"lstm_L1", "s4d_L1"}
    monkeypatch.setattr(arch, "load_extension", lambda sweep: None)
    with ResultStore(tmp_path / "s.sqlite") as st:       # main first: the shared runs are collected as main's
        for r in {r.run_id: r for r in runs if r.study in ("main", "depth")}.values():     # deep: 10x lower
            st.put(r.run_id, r.config.to_dict(), {"relmse": 1e-3 if r.config.model.get("layers", 1) == 1 else 1e-4})
    ctx = Context("cpu", tmp_path, store=tmp_path / "s.sqlite", train=False)
    rows = arch.profile_rows(ctx, ("depth",), lambda r: r["model"].endswith(("_L1", "_L3")))
    assert sorted(r["run_id"] for r in rows) == sorted(r.run_id for r in depth)
    assert {r["model"] for r in rows} == {"lstm_L1", "lstm_L3", "s4d_L1", "s4d_L3"}
    out = arch.verdict_depth(rows)
    pairs = out.data["pairs"]                                               # seed pairs per (family, kind)
    assert set(pairs) == {f"{f} {k}" for f in ("lstm", "s4d") for k in {r["kind"] for r in rows}}
    assert all(n > 0 for n in pairs.values()), out.details                  # every part has its seed pairs


def test_the_report_lists_both_budgets_with_the_headline_first(tmp_path):
    from validation.checks._arch_budgets import two_budgets
    from validation.registry import Check, Context, Outcome, Result
    from validation.report import write_report

    out = two_budgets(_budget_rows(lambda m, a, s: 1e-6 * (1 + 0.1 * s), lambda m, a, s: 1e-5 * (1 + 0.1 * s)),
                      arch.verdict_exp_vs_poly)
    plain = Result(Check("x.theory", "p", "c", "f", "n", "s", lambda c: None), Outcome(PASS, "exact"), 0.1)
    trained = Result(Check("x.trained", "p", "c", "f", "n", "s", lambda c: None), out, 0.1)
    text = write_report([plain, trained], Context("cpu", tmp_path)).read_text()
    section = text.split("## Answers at two optimisation budgets", 1)[1].split("\n## ", 1)[0]
    assert "| x.trained | pass | pass | not reproduced | depends on the budget: pass polished, not reproduced at " \
           "the Adam budget | 0, 1, 2 |" in section
    assert "x.theory" not in section
