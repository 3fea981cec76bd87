"""Round 2 of the architecture claims, pre-registered: the power analysis and the plan.

    python benchmarks/memory_arch/power.py [--reps 400] [--budget-hours 40] [--write]

The rule (``docs/papers/memory-functions.md``, "Round 2 (pre-registered)"): every claim that the final round-1
report (``docs/results/cpu-architectures/results.json``) left inconclusive gets, where more data can decide
it, new seeds (5 and up; or new cells for a statistic over cells) sized for 80% power of its own statistic at
the rule's level, and is decided on the round-2 runs alone. This script reads the committed round-1 runs
(``docs/results/cpu-architectures/runs/*.jsonl.gz``, imported into a temporary store) and, per claim:

- **seed claims** (sign tests, Mann-Whitney, seed bootstraps): the power at ``n`` round-2 seeds is estimated
  by *resampling seeds*: a simulated round 2 draws ``n`` seeds with replacement from the claim's observed
  round-1 seeds, each draw bringing every run of that seed on every cell the claim reads (so the dependence
  between cells, parts and the two budgets is the observed one), and runs the claim's own verdict function on
  them (round 2's statistic where the plan changes it: ``mixed_targets``). Power = P(pass) + P(not
  reproduced) (a decided claim), with its Monte Carlo standard error. The resampling takes the observed seeds
  as the population: a pair's sign is positive with its observed frequency, no effect beyond the observed
  ones appears;
- **cell claims** (``tcn_tail_energy``: a Spearman correlation over cells, which seeds cannot raise above its
  12 cells): a parametric model, cells drawn from a Gaussian copula whose Spearman correlation is the
  observed one, ``(x, y) ~ N(0, [[1, r], [r, 1]])`` with ``r = 2 sin(pi rho_s / 6)``; power = P(one-sided
  Spearman p < 1%) at ``n`` cells.

The CPU cost of a cell is the median of the CPU seconds its committed runs recorded (a new cell: the median of
its model's committed runs on the same kind). The plan takes the decidable claims cheapest first while the
total stays within ``--budget-hours`` and writes (``--write``) the plan with every claim's power, size, run
count and cost (``docs/results/cpu-architectures/round2/plan.json``) and the trainable sweep file
(``numerics/memory_functions/bench/sweeps/cpu_round2.json``: the extension format, one part per claim, cheapest
first; ``cpu_results.py --train-only --part r2-N`` trains one part).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from numerics.stats import LEVEL  # noqa: E402

REPORT = ROOT / "docs" / "results" / "cpu-architectures" / "results.json"
RUNS = ROOT / "docs" / "results" / "cpu-architectures" / "runs"
PLAN = ROOT / "docs" / "results" / "cpu-architectures" / "round2" / "plan.json"
TARGET = 0.8                  # the power round 2 is sized for
FIRST_SEED = 5                # round-2 seeds: new seeds, 5 and up
POWER_SEED = 20261206         # the simulations' SeedSequence
MAX_SEEDS = 60                # the largest round-2 size searched
CELL_SEEDS = 3                # seeds per cell of a cell claim (the profile's design)
GRID = (5, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60)     # coarse sizes, refined to 1 seed below the first hit

METHOD = {
    "seed claims": "power at n round-2 seeds by resampling seeds: n draws with replacement from the claim's "
                   "round-1 seeds, each bringing every run of that seed on every cell the claim reads, decided by "
                   "the claim's own verdict function (round 2's statistic where the plan changes it); power = "
                   "P(pass) + P(not reproduced); the size is the smallest reaching 80% at the headline budget "
                   "(polished; Adam for the optimiser claim), searched on a coarse grid then seed by seed",
    "binomial check": "where sign tests decide a claim, the exact binomial power of its deciding parts at their "
                      "observed fractions of positive pairs, pairs independent (the resampling keeps each observed "
                      "seed's pattern, so a pattern every seed shares never varies there); the plan takes the larger "
                      "of the two sizes, with the resampled power at that size",
    "cell claims": "tcn_tail_energy: cells from a Gaussian copula whose Spearman correlation is the observed "
                   "one (r = 2 sin(pi rho_s / 6)); power = P(one-sided Spearman p < 1%) at n cells; the cells are "
                   "every kind at an alpha grid of step 1/4, 1/8, 1/12 or 1/16 (the smallest that reaches 80%), "
                   "3 new seeds each",
    "cost": "a cell's median CPU seconds over its committed runs (a new cell: the median of its model's "
            "committed cells of the same kind); runs shared by two claims are counted once, in the first part "
            "that trains them",
}

# the claims the round-1 report may leave inconclusive: round 2's statistic of each (None: round 1's)
SEED_CLAIMS = {"architectures.recurrent_exp_vs_poly": "verdict_exp_vs_poly", "architectures.depth": "verdict_depth",
               "architectures.heads": "verdict_heads", "architectures.tcn_optimizer": "verdict_optimizer",
               "architectures.composition_lstm_tcn": "verdict_composition",
               "architectures.no_single_best": "verdict_no_single_best",
               "architectures.mixed_targets": "verdict_mixed_risk"}
ROUND2_STATISTIC = {"architectures.mixed_targets": "verdict_mixed_risk"}
ADAM_ONLY = {"architectures.tcn_optimizer"}
# verdicts that take a second per call: fewer simulated rounds (their power's standard error says so)
REPS_DIVISOR = {"architectures.no_single_best": 4, "architectures.mixed_targets": 2}
CELL_CLAIMS = {"architectures.tcn_tail_energy"}


# ----------------------------------------------------------------------------------------------------
# pure pieces: exact sign-test power, seed resampling, the copula model of a correlation over cells
# ----------------------------------------------------------------------------------------------------
def sign_test_critical(n: int, level: float = LEVEL) -> int | None:
    """The smallest count ``k`` of positive pairs out of ``n`` at which the one-sided sign test rejects,
    ``P(Bin(n, 1/2) >= k) < level`` (``numerics.stats.paired``'s ``p_greater < LEVEL``); None if none does.

    >>> sign_test_critical(10), sign_test_critical(6)
    (10, None)
    """
    from scipy.stats import binom

    return next((k for k in range(n + 1) if binom.sf(k - 1, n, 0.5) < level), None)


def sign_test_power(n: int, q: float, level: float = LEVEL) -> float:
    """Exact power of the one-sided sign test over ``n`` independent pairs, each positive with probability
    ``q``: ``P(Bin(n, q) >= k*)`` (0 where the design cannot reach the level)."""
    from scipy.stats import binom

    k = sign_test_critical(n, level)
    return 0.0 if k is None else float(binom.sf(k - 1, n, q))


def sign_part_power(m: int, q: float, direction: str, level: float = LEVEL) -> float:
    """Exact probability that a sign-test part over ``m`` independent pairs, each positive with probability ``q``,
    is decided in ``direction``: ``"pass"``, the one-sided test rejects (:func:`sign_test_power`); ``"not
    reproduced"``, the order-statistic interval's upper end is at or below 0, i.e. at most ``j - 1`` pairs are
    positive (``j = numerics.stats.order_statistic_rank(m)``)."""
    from scipy.stats import binom

    from numerics.stats import order_statistic_rank

    if direction == "pass":
        return sign_test_power(m, q, level)
    j = order_statistic_rank(m, level)
    return float(binom.cdf(j - 1, m, q)) if j >= 1 else 0.0


def binomial_claim_power(parts: list[tuple[str, float, int]], seeds: int, level: float = LEVEL) -> float:
    """P(decided) of a claim at ``seeds`` round-2 seeds when its deciding parts ``(direction, q, pairs per
    seed)`` are independent sign tests of independent pairs: where some part leans to "not reproduced", one
    such part ruled out decides the claim (one minus the product of the misses); otherwise every part must
    pass (a product)."""
    ruling = [sign_part_power(k * seeds, q, d, level) for d, q, k in parts if d != "pass"]
    if ruling:
        return 1.0 - float(np.prod([1.0 - p for p in ruling]))
    return float(np.prod([sign_part_power(k * seeds, q, d, level) for d, q, k in parts]))


def resample_seeds(rows: list[dict], n: int, rng: np.random.Generator) -> list[dict]:
    """A simulated round of ``n`` seeds: ``n`` draws with replacement from the seeds of ``rows``, each draw
    bringing all of its seed's rows, relabelled as seed 0, 1, ... (so that seed-paired statistics pair them)."""
    seeds = sorted({r["seed"] for r in rows})
    by = {s: [r for r in rows if r["seed"] == s] for s in seeds}
    out = []
    for new, s in enumerate(rng.choice(seeds, size=n)):
        out += [dict(r, seed=new, run_id=f"{r['run_id']}@{new}") for r in by[int(s)]]
    return out


def tally(verdicts: list[str]) -> dict:
    """P(pass), P(not reproduced), P(decided) (their sum) and its Monte Carlo standard error."""
    reps = len(verdicts)
    p = {v: sum(x == v for x in verdicts) / reps for v in ("pass", "not reproduced")}
    dec = p["pass"] + p["not reproduced"]
    return {**p, "decided": dec, "se": math.sqrt(dec * (1 - dec) / reps), "reps": reps}


def simulate(rows: list[dict], decide, n: int, reps: int, rng: np.random.Generator) -> dict:
    """:func:`tally` of ``decide(simulated rows)`` over ``reps`` simulated rounds of ``n`` seeds."""
    return tally([decide(resample_seeds(rows, n, rng)) for _ in range(reps)])


def copula_r(rho_s: float) -> float:
    """The Gaussian copula's correlation whose population Spearman correlation is ``rho_s``
    (``rho_s = (6 / pi) arcsin(r / 2)``)."""
    return 2.0 * math.sin(math.pi * rho_s / 6.0)


def moran_mean(r: float, n: int) -> float:
    """Expected sample Spearman correlation of ``n`` bivariate normal pairs of correlation ``r`` (Moran 1948):
    ``6 / (pi (n + 1)) (arcsin r + (n - 2) arcsin(r / 2))``; an independent check of :func:`spearman_power`."""
    return 6.0 / (math.pi * (n + 1)) * (math.asin(r) + (n - 2) * math.asin(r / 2))


def spearman_power(rho_s: float, n: int, reps: int, rng: np.random.Generator, level: float = LEVEL) -> dict:
    """P(one-sided Spearman p < ``level``) over ``n`` cells drawn from the Gaussian copula of Spearman ``rho_s``
    (``decided``; ``mean_rho``: the simulated correlations' mean, for :func:`moran_mean`)."""
    from scipy.stats import spearmanr

    r = copula_r(rho_s)
    hits, rhos = 0, []
    for _ in range(reps):
        z = rng.standard_normal((n, 2))
        res = spearmanr(z[:, 0], r * z[:, 0] + math.sqrt(1 - r * r) * z[:, 1], alternative="greater")
        hits += res.pvalue < level
        rhos.append(res.statistic)
    dec = hits / reps
    return {"pass": dec, "not reproduced": 0.0, "decided": dec, "se": math.sqrt(dec * (1 - dec) / reps),
            "reps": reps, "mean_rho": float(np.mean(rhos)), "sd_rho": float(np.std(rhos, ddof=1)), "rho_s": rho_s}


def smallest_size(power_at, grid, target: float = TARGET) -> tuple[int | None, dict]:
    """The smallest size reaching ``target`` power: the coarse ``grid`` first, then every size between the last
    miss and the first hit (``power_at(n) -> tally``). (None, the largest size's tally) if none does."""
    seen, prev = {}, None
    for n in grid:
        seen[n] = power_at(n)
        if seen[n]["decided"] >= target:
            for m in range((prev or n - 1) + 1, n):
                seen[m] = power_at(m)
                if seen[m]["decided"] >= target:
                    return m, seen[m]
            return n, seen[n]
        prev = n
    return None, seen[grid[-1]]


def cell_costs(rows: list[dict]) -> dict[tuple, float]:
    """cell (study, model, train variant, kind, alpha, lam) -> the median CPU seconds of its runs."""
    by: dict[tuple, list] = {}
    for r in rows:
        by.setdefault((r["study"], r["model"], r["train_variant"], r["kind"], r["alpha"], r["lam"]),
                      []).append(float(r["cpu_seconds"] or 0.0))
    return {c: float(np.median(v)) for c, v in by.items()}


def select_within(costs: dict[str, float], budget: float) -> tuple[list[str], list[str]]:
    """(claims in, claims out): cheapest first, each taken while the running total stays within ``budget``.

    >>> select_within({"a": 5.0, "b": 30.0, "c": 10.0}, 40.0)
    (['a', 'c'], ['b'])
    """
    chosen, total = [], 0.0
    for name in sorted(costs, key=costs.get):
        if total + costs[name] <= budget:
            chosen.append(name)
            total += costs[name]
    return chosen, [n for n in costs if n not in chosen]


# ----------------------------------------------------------------------------------------------------
# the analysis: the committed round-1 runs, each inconclusive claim's power and cost, the plan
# ----------------------------------------------------------------------------------------------------
def committed_rows(store: Path) -> dict[str, list[dict]]:
    """claim -> its round-1 rows (the cells and seeds the final report names), for every claim the committed
    report left inconclusive, read from the committed run files (imported into ``store``)."""
    from numerics.experiments.store import ResultStore
    from numerics.memory_functions.bench.aggregate import collect
    from numerics.memory_functions.bench.runs import SCHEMA
    from numerics.memory_functions.bench.sweep import load_sweep
    from validation.checks.architectures import SWEEP_DIR, extension_runs

    report = json.loads(REPORT.read_text(encoding="utf-8"))
    doc = load_sweep(SWEEP_DIR / "cpu.json")
    out = {}
    with ResultStore(store) as st:
        for f in sorted(RUNS.glob("*.jsonl.gz")):
            st.import_runs(f, (SCHEMA,))
        for r in report["results"]:
            if r["verdict"] != "inconclusive":
                continue
            if r["name"] not in SEED_CLAIMS and r["name"] not in CELL_CLAIMS:
                raise ValueError(f"{r['name']}: inconclusive at round 1 but neither a seed nor a cell claim here")
            d = r["data"]
            plan = {"seeds": d["seeds"], "claims": {r["name"]: {"cells": [list(c) for c in d["cells"]]}}}
            out[r["name"]] = collect(extension_runs(doc, plan)[r["name"]], st)
    return out


def deciding_sign_parts(name: str, rows: list[dict]) -> list[tuple[str, float, int]]:
    """The sign-test parts that decide a claim, for the binomial check of the resampled size: per part (the
    direction its observed median leans to, the observed fraction of positive pairs, pairs per seed), from the
    headline budget's rows. Claims decided by a bootstrap or Mann-Whitney: [] (no check)."""
    from validation.checks import architectures as arch
    from validation.checks._arch_budgets import polished_rows

    rows = rows if name in ADAM_ONLY else polished_rows(rows)
    diffs = []
    if name == "architectures.recurrent_exp_vs_poly":
        diffs = [arch._diffs(rows, {"model": m, "kind": "exp"}, {"model": m, "kind": "poly"},
                             {"alpha": arch._alphas(rows, model=m, kind="exp")}) for m in ("lstm", "s4d")]
    elif name == "architectures.depth":
        for fam in ("lstm", "s4d"):
            for k in ("exp", "impulse"):
                d = arch._diffs(rows, {"model": f"{fam}_L3", "kind": k}, {"model": f"{fam}_L1", "kind": k},
                                {"alpha": arch._alphas(rows, model=f"{fam}_L3", kind=k)})
                diffs.append(d if k == "impulse" else [arch.SMOOTH_FACTOR_DECADES - x for x in d])
    elif name == "architectures.heads":         # (b): four heads against two at alpha >= 0.75, leaning "ruled out"
        diffs = [arch._diffs(rows, {"model": "transformer_h4"}, {"model": "transformer_h2"},
                             {"kind": arch._kinds(rows), "alpha": [a for a in arch._alphas(rows) if a >= 0.75]})]
    elif name == "architectures.composition_lstm_tcn":
        diffs = [arch._diffs(rows, {"model": "lstm->tcn"}, {"model": p}, {"alpha": arch._alphas(rows, model=p)})
                 for p in ("lstm", "tcn")]
    seeds = len({r["seed"] for r in rows})
    out = []
    for d in map(np.asarray, diffs):
        nz = d[d != 0]
        out.append(("pass" if np.median(d) > 0 else "not reproduced", float(np.mean(nz > 0)), len(d) // seeds))
    return out


def binomial_check(parts: list[tuple[str, float, int]]) -> dict | None:
    """The smallest round-2 size at which :func:`binomial_claim_power` reaches 80% (every size up to
    ``MAX_SEEDS``), and that power; None for a claim without sign-test parts."""
    if not parts:
        return None
    n = next((n for n in range(2, MAX_SEEDS + 1) if binomial_claim_power(parts, n) >= TARGET), None)
    return {"parts": [list(p) for p in parts], "seeds_needed": n,
            "power": binomial_claim_power(parts, n or MAX_SEEDS)}


def _deciders(name: str) -> dict:
    """budget -> a function of rows giving the claim's verdict there (the headline budget first)."""
    from validation.checks import architectures as arch
    from validation.checks._arch_budgets import polished_rows

    verdict = getattr(arch, SEED_CLAIMS[name])
    budgets = {"adam": lambda rs: verdict(rs).verdict}
    if name not in ADAM_ONLY:
        budgets = {"polished": lambda rs: verdict(polished_rows(rs)).verdict, **budgets}
    return budgets


def seed_claim_power(name: str, rows: list[dict], reps: int, rng: np.random.Generator) -> dict:
    """A seed claim's round-2 size for 80% power at its headline budget (the polished one; the Adam budget for
    the optimiser claim) by seed resampling, that size's power at both budgets, and the power curve searched."""
    budgets = _deciders(name)
    head = next(iter(budgets))
    curve = {}

    def at(n):
        curve[n] = simulate(rows, budgets[head], n, reps, rng)
        return curve[n]

    n, power = smallest_size(at, [g for g in GRID if g <= MAX_SEEDS])
    both = {head: power}
    for b in budgets:
        if b != head:
            both[b] = simulate(rows, budgets[b], n or MAX_SEEDS, reps, rng)
    return {"seeds_needed": n, "power": both, "resampling_seeds_needed": n,
            "curve": {str(k): v["decided"] for k, v in sorted(curve.items())}}


def with_binomial_check(name: str, rows: list[dict], entry: dict, reps: int, rng: np.random.Generator) -> dict:
    """``entry`` (:func:`seed_claim_power`) with the binomial check of its deciding sign-test parts; where the
    check needs more seeds than the resampling, the size is the check's and the resampled power is
    recomputed there (at both budgets)."""
    check = binomial_check(deciding_sign_parts(name, rows))
    out = {"resampling_seeds_needed": entry["seeds_needed"], **entry, "binomial_check": check}
    n = entry["seeds_needed"]
    if n is not None and check and check["seeds_needed"] and check["seeds_needed"] > n:
        n = check["seeds_needed"]
        out.update(seeds_needed=n, power={b: simulate(rows, f, n, reps, rng) for b, f in _deciders(name).items()})
    return out


def cell_claim_power(name: str, rows: list[dict], reps: int, rng: np.random.Generator) -> dict:
    """A cell claim's round-2 cells for 80% power (the copula model at each budget's observed Spearman), and the
    alpha grid of every kind that gives them (step 1/4, 1/8, 1/12 or 1/16: the round-1 alphas 0.25, 0.5, 0.75
    among them)."""
    report = {r["name"]: r for r in json.loads(REPORT.read_text(encoding="utf-8"))["results"]}
    budgets = {b: v["spearman"]["sum_s C(rho,s)"]["rho"] for b, v in report[name]["data"]["budgets"].items()}
    kinds = sorted({r["kind"] for r in rows})
    curve, chosen = {}, None
    for step in (4, 8, 12, 16):
        cells = len(kinds) * step
        curve[cells] = spearman_power(budgets["polished"], cells, reps, rng)
        if curve[cells]["decided"] >= TARGET:
            chosen = step
            break
    step = chosen or 16
    alphas = [k / step for k in range(1, step + 1)]
    power = {"polished": curve[len(kinds) * step],
             "adam": spearman_power(budgets["adam"], len(kinds) * step, reps, rng)}
    return {"cells_needed": len(kinds) * step if chosen else None, "alphas": alphas, "kinds": kinds,
            "power": power, "curve": {str(k): v["decided"] for k, v in curve.items()}, "observed_rho": budgets}


def claim_cells(name: str, rows: list[dict], analysis: dict) -> list[list]:
    """The cells round 2 trains for a claim: its round-1 cells (a seed claim), or every kind at the analysis's
    alpha grid (a cell claim: the round-1 cells at new seeds and the new alphas)."""
    cells = sorted({(r["study"], r["model"], r["train_variant"], r["kind"], r["alpha"], r["lam"]) for r in rows},
                   key=str)
    if name in CELL_CLAIMS:
        (study, model, variant, _, _, lam), = {(c[0], c[1], c[2], None, None, c[5]) for c in cells}
        cells = [(study, model, variant, k, a, lam) for k in analysis["kinds"] for a in analysis["alphas"]]
    return [list(c) for c in cells]


def run_costs(plan: dict, costs: dict[tuple, float]) -> dict[str, dict[str, float]]:
    """claim -> {run id: CPU seconds} of its planned round-2 runs (a new cell: the median of its model's
    committed cells of the same kind)."""
    from numerics.memory_functions.bench.sweep import load_sweep
    from validation.checks.architectures import SWEEP_DIR, cell_of, extension_runs

    def cost(cell):
        if cell in costs:
            return costs[cell]
        same = [v for c, v in costs.items() if c[:4] == cell[:4]]
        return float(np.median(same))

    runs = extension_runs(load_sweep(SWEEP_DIR / "cpu.json"), plan)
    return {name: {r.run_id: cost(tuple(cell_of(r))) for r in rs} for name, rs in runs.items()}


def plan_round2(analysis: dict, cells: dict, costs: dict[tuple, float], budget_hours: float) -> dict:
    """The plan: every analysed claim's size, runs and cost; the decidable claims cheapest first within
    ``budget_hours`` (a claim whose statistic does not reach 80% power at any size searched is left out, as is
    one beyond the budget); one resumable part per claim, in that order (each part completes its claim)."""
    sized = {}
    for name, a in analysis.items():
        n = a.get("seeds_needed", CELL_SEEDS if a.get("cells_needed") else None)
        seeds = list(range(FIRST_SEED, FIRST_SEED + (n or 0)))
        sized[name] = {"seeds": seeds, "cells": cells[name], "statistic": ROUND2_STATISTIC.get(name)}
    per_run = run_costs({"claims": {k: v for k, v in sized.items() if v["seeds"]}}, costs)
    hours = {k: sum(v.values()) / 3600 for k, v in per_run.items()}
    chosen, _ = select_within({k: h for k, h in hours.items()}, budget_hours)
    left = {}
    for name, a in analysis.items():
        if not sized[name]["seeds"]:
            left[name] = (f"more data cannot decide it: the statistic does not reach {TARGET:.0%} power at "
                          f"{MAX_SEEDS} round-2 seeds (P(decided) {a['power'][next(iter(a['power']))]['decided']:.2f})")
        elif name not in chosen:
            left[name] = (f"beyond the budget: {a.get('seeds_needed') or a.get('cells_needed')} "
                          f"{'seeds' if 'seeds_needed' in a else 'cells'}, {hours[name]:.1f} CPU-hours")
    parts, done = [], set()
    for i, name in enumerate(sorted(chosen, key=hours.get), 1):
        new = {r: c for r, c in per_run[name].items() if r not in done}
        done |= new.keys()
        parts.append({"name": f"r2-{i}", "claims": [name], "new_runs": len(new),
                      "cpu_hours": round(sum(new.values()) / 3600, 2)})
    claims = {name: {**sized[name], **{k: v for k, v in analysis[name].items() if k != "reps"},
                     "runs": len(per_run.get(name, {})), "cpu_hours": round(hours.get(name, 0.0), 2),
                     "in_plan": name in chosen} for name in analysis}
    return {"claims": claims, "left_out": left, "parts": parts,
            "total": {"runs": len(done), "cpu_hours": round(sum(p["cpu_hours"] for p in parts), 2)}}


def _table(plan: dict) -> str:
    """The power table (Markdown) of the plan: every analysed claim."""
    lines = ["| claim | round 2 | size | P(decided) polished | P(decided) Adam | runs | CPU-hours | in the plan |",
             "|---|---|---|---|---|---|---|---|"]
    for name, c in sorted(plan["claims"].items(), key=lambda kv: kv[1]["cpu_hours"] or math.inf):
        p = c["power"]
        size = (f"{c['cells_needed']} cells x {CELL_SEEDS} seeds" if "cells_needed" in c and c["cells_needed"]
                else f"{c['seeds_needed']} seeds" if c.get("seeds_needed") else f"> {MAX_SEEDS} seeds")
        fmt = lambda b: f"{p[b]['decided']:.2f} +- {p[b]['se']:.2f}" if b in p else "-"  # noqa: E731
        lines.append(f"| `{name.split('.', 1)[1]}` | {c['statistic'] or 'round 1 statistic'} | {size} | "
                     f"{fmt('polished')} | {fmt('adam')} | {c['runs']} | {c['cpu_hours']:.1f} | "
                     f"{'yes' if c['in_plan'] else 'no: ' + plan['left_out'][name]} |")
    return "\n".join(lines)


def sweep_file(plan: dict, stamp: dict) -> dict:
    """The trainable round-2 sweep (``cpu_round2.json``): the extension format with each claim's own seeds,
    cells and statistic, the claims left out and why, and the parts."""
    return {"rule": "docs/papers/memory-functions.md, 'Round 2 (pre-registered)': each claim below is retrained on "
                    "new seeds (5 and up; new cells for tcn_tail_energy) under the pinned numerical settings and "
                    "decided on its round-2 runs alone, by its statistic ('statistic': a verdict_* function of "
                    "validation.checks.architectures; null: round 1's), at both budgets; written before any "
                    "round-2 run existed",
            "plan": PLAN.relative_to(ROOT).as_posix(), "written_from": stamp,
            "claims": {n: {k: c[k] for k in ("seeds", "cells", "statistic")} | {"power": c["power"]}
                       for n, c in plan["claims"].items() if c["in_plan"]},
            "left_out": plan["left_out"], "parts": [{"name": p["name"], "claims": p["claims"]} for p in plan["parts"]]}


def main(argv=None) -> int:
    from validation.checks.architectures import round2_path

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=400, help="simulated rounds per size (Monte Carlo se <= 0.025)")
    p.add_argument("--budget-hours", type=float, default=40.0, help="CPU-hours round 2 may take in all")
    p.add_argument("--write", action="store_true", help="write the plan and the sweep file (before any round-2 run)")
    p.add_argument("--cache", help="JSON file keeping each claim's analysis as it finishes (a rerun reuses them)")
    p.add_argument("--claims", help="analyse only these claims (comma-separated names) into --cache and stop: "
                   "several processes can share the work, each claim keeping its own random stream")
    a = p.parse_args(argv)
    if a.reps < 10 or a.budget_hours <= 0:
        p.error(f"--reps must be >= 10 and --budget-hours > 0, got {a.reps} and {a.budget_hours}")
    with tempfile.TemporaryDirectory() as tmp:
        rows = committed_rows(Path(tmp) / "round1.sqlite")
    cache = Path(a.cache) if a.cache else None
    analysis = json.loads(cache.read_text(encoding="utf-8")) if cache and cache.is_file() else {}
    costs = {}
    only = set(a.claims.split(",")) if a.claims else None
    for (name, rs), child in zip(sorted(rows.items()), np.random.SeedSequence(POWER_SEED).spawn(len(rows))):
        costs.update(cell_costs(rs))
        if (name in analysis and analysis[name].get("reps") == a.reps) or (only and name not in only):
            continue
        rng = np.random.default_rng(child)
        reps = max(a.reps // REPS_DIVISOR.get(name, 1), 10)
        analysis[name] = {**(cell_claim_power if name in CELL_CLAIMS else seed_claim_power)(name, rs, reps, rng),
                          "reps": a.reps}
        if cache:
            cache.write_text(json.dumps(analysis, indent=1), encoding="utf-8")
    if only:
        return 0
    checks = np.random.SeedSequence(POWER_SEED + 1).spawn(len(rows))
    for (name, rs), child in zip(sorted(rows.items()), checks):
        if name in SEED_CLAIMS:
            reps = max(a.reps // REPS_DIVISOR.get(name, 1), 10)
            analysis[name] = with_binomial_check(name, rs, analysis[name], reps, np.random.default_rng(child))
        print(f"{name}: {analysis[name].get('seeds_needed', analysis[name].get('cells_needed'))} "
              f"{analysis[name]['power']}", file=sys.stderr, flush=True)
    cells = {name: claim_cells(name, rows[name], analysis[name]) for name in rows}
    plan = plan_round2(analysis, cells, costs, a.budget_hours)
    report = json.loads(REPORT.read_text(encoding="utf-8"))
    stamp = {"report": REPORT.relative_to(ROOT).as_posix(), "report_commit": report["provenance"].get("commit"),
             "reps": a.reps, "seed": POWER_SEED, "level": LEVEL, "target_power": TARGET,
             "budget_cpu_hours": a.budget_hours}
    doc = {"rule": "docs/papers/memory-functions.md, 'Round 2 (pre-registered)'", "method": METHOD, **stamp, **plan}
    print(_table(plan))
    print(f"\nthe plan: {', '.join(c for p_ in plan['parts'] for c in p_['claims'])}; {plan['total']['runs']} runs, "
          f"{plan['total']['cpu_hours']:.1f} CPU-hours")
    if a.write:
        PLAN.parent.mkdir(parents=True, exist_ok=True)
        PLAN.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        round2_path("cpu").write_text(json.dumps(sweep_file(plan, stamp), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {PLAN.relative_to(ROOT)} and {round2_path('cpu').relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
