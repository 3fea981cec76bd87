"""Calibrate the phase decision of ``numerics.anticollapse.calibrated_phase`` and write its error-rate table.

    python benchmarks/gated_rnn/calibrate_phase.py                  # docs/results/gated-calibration/
    python benchmarks/gated_rnn/calibrate_phase.py --draws 20 --out /tmp/cal   # a small trial

Synthetic spectra (``numerics.anticollapse.synthetic_spectra``: H = 128 units, tau_min = 2, gate noise 0.3,
4 sequences) go through the cpu sweep's long-horizon pipeline (``numerics/anticollapse/gated/sweeps/cpu.json``,
``long_diagnosis``: T = 8192, rate lags 416..2464, every 64th window end) and the decision with every
threshold but ``beta_hi_max`` fixed. Then:

1. ``beta_hi_max`` = the smallest value at which the false-collapse rate (heavy-tailed spectrum called
   "collapsed") is at most 5% for every beta in 0.3, 0.5, 0.8, 1.0, 1.2, 1.5, 2.0 (``--draws`` Pareto
   spectra each): from the recorded upper ends of the tail intervals and GOF p-values;
2. with it, the error rates with 95% Clopper-Pearson intervals: false collapse per beta, false heavy tail
   per number of exponentials (1, 2, 3, 5) and lag span (10, 100, 1000), and the label mix.

Writes ``calibration.json`` (thresholds, every rate with its interval and count, the settings, wall time,
commit) and ``README.md`` (the table). Two worker processes, one thread each.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

BETAS = (0.3, 0.5, 0.8, 1.0, 1.2, 1.5, 2.0)
KS = (1, 2, 3, 5)
SPANS = (10.0, 100.0, 1000.0)
H, TAU_MIN, GATE_NOISE, N_SEQ = 128, 2.0, 0.3, 4
TARGET = 0.05


def _one(job: tuple) -> dict:
    """One synthetic spectrum through the pipeline: the decision's ingredients (threshold left free)."""
    import numpy as np

    from numerics.anticollapse.synthetic_spectra import few_exponential_taus, measure_spectrum, pareto_taus
    from numerics.anticollapse.gated.sweep import load_gated_sweep

    family, param, span, seed = job
    rng = np.random.default_rng([seed, int(param * 100), int(span)])
    tau = pareto_taus(param, H, TAU_MIN, rng) if family == "pareto" else few_exponential_taus(
        int(param), H, span, TAU_MIN, rng)
    r = measure_spectrum(tau, load_gated_sweep("cpu").long, gate_noise=GATE_NOISE, n_seq=N_SEQ, seed=seed,
                         beta_hi_max=float("inf"))
    return {"family": family, "param": param, "span": span, "seed": seed, "beta_hi": r.beta_ci[1],
            "gof_p": r.gof_p, "label_inf": r.label, "beta_ci": list(r.beta_ci), "n": r.n}


def decide(row: dict, beta_hi_max: float) -> str:
    """The label of a recorded spectrum at threshold ``beta_hi_max`` (the rule of calibrated_phase)."""
    from numerics.anticollapse.calibrated_phase import P_NULL
    from numerics.anticollapse.estimators import phase_rule

    if row["n"] < 16:
        return "unresolved"
    heavy = row["gof_p"] < P_NULL and row["beta_hi"] < beta_hi_max
    return phase_rule(tuple(row["beta_ci"]), True) if heavy else "collapsed"


def threshold(rows: list[dict]) -> float:
    """Smallest beta_hi_max with false collapse <= TARGET at every beta (module docstring)."""
    import numpy as np

    need = []
    for b in BETAS:
        his = np.sort([r["beta_hi"] if r["gof_p"] < 0.05 else np.inf for r in rows
                       if r["family"] == "pareto" and r["param"] == b])
        k = int(np.floor(TARGET * his.size))             # at most k of them may be called collapsed
        need.append(float(his[his.size - 1 - k]))
    return float(np.nextafter(max(need), np.inf))


def _rate(k: int, n: int) -> dict:
    from scipy import stats

    ci = stats.binomtest(k, n).proportion_ci(0.95, method="exact") if n else None
    return {"k": k, "n": n, "rate": k / n if n else float("nan"), "ci95": [ci.low, ci.high] if ci else None}


def tabulate(rows: list[dict], thr: float) -> dict:
    fc = {str(b): _rate(sum(decide(r, thr) == "collapsed" for r in rows if r["family"] == "pareto"
                            and r["param"] == b), sum(r["family"] == "pareto" and r["param"] == b for r in rows))
          for b in BETAS}
    fh = {f"k={k}, span={s:g}": _rate(sum(decide(r, thr) != "collapsed" for r in rows if r["family"] == "few"
                                          and r["param"] == k and r["span"] == s),
                                      sum(r["family"] == "few" and r["param"] == k and r["span"] == s for r in rows))
          for k in KS for s in SPANS}
    fh_span = {f"span={s:g}": _rate(sum(decide(r, thr) != "collapsed" for r in rows if r["family"] == "few"
                                        and r["span"] == s), sum(r["family"] == "few" and r["span"] == s for r in rows))
               for s in SPANS}
    labels = {str(b): {lab: sum(decide(r, thr) == lab for r in rows if r["family"] == "pareto" and r["param"] == b)
                       for lab in ("collapsed", "extended", "boundary", "concentrated")} for b in BETAS}
    return {"false_collapse": fc, "false_heavy_tail": fh, "false_heavy_tail_per_span": fh_span,
            "pareto_labels": labels}


def _markdown(out: dict) -> str:
    t = out["table"]
    ci = lambda r: f"{r['rate']:.3f} [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] ({r['k']}/{r['n']})"  # noqa: E731
    lines = ["# Calibration of the phase decision (`numerics.anticollapse.calibrated_phase`)", "",
             f"Generated by `python benchmarks/gated_rnn/calibrate_phase.py` at commit {out['commit'][:10]} "
             f"({out['wall_seconds']:.0f} s wall, {out['workers']} processes). Thresholds: few-exponential null "
             f"rejected at p < {out['p_null']}, tail interval upper end < **beta_hi_max = {out['beta_hi_max']:.4g}** "
             f"(the smallest value with false collapse <= 5% at every beta). Spectra: H = {H} units, "
             f"tau_min = {TAU_MIN}, gate noise {GATE_NOISE}, {N_SEQ} sequences of T = {out['spec']['T']}, rate lags "
             f"{out['spec']['rate_lags']}, window stride {out['spec']['window_stride']}. Rates with 95% "
             "Clopper-Pearson intervals (count).", "",
             "## False collapse (a Pareto spectrum called collapsed)", "", "| beta | rate | labels (collapsed / "
             "extended / boundary / concentrated) |", "|---|---|---|"]
    for b, r in t["false_collapse"].items():
        lab = t["pareto_labels"][b]
        lines.append(f"| {b} | {ci(r)} | {lab['collapsed']} / {lab['extended']} / {lab['boundary']} / "
                     f"{lab['concentrated']} |")
    lines += ["", "## False heavy tail (a few-exponential spectrum called heavy-tailed)", "",
              "| mixture | rate |", "|---|---|"]
    lines += [f"| {k} | {ci(r)} |" for k, r in t["false_heavy_tail"].items()]
    lines += ["", "Per lag span (all k pooled):", "", "| span | rate |", "|---|---|"]
    lines += [f"| {k} | {ci(r)} |" for k, r in t["false_heavy_tail_per_span"].items()]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--draws", type=int, default=40, help="Pareto spectra per beta (few-exponential: half)")
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "results" / "gated-calibration")
    p.add_argument("--workers", type=int, default=2)
    a = p.parse_args(argv)
    if a.draws < 1:
        p.error("--draws must be >= 1")
    from numerics.anticollapse.calibrated_phase import K_NULL, N_BOOT, N_SIM, P_NULL
    from numerics.anticollapse.gated.sweep import load_gated_sweep

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    jobs = [("pareto", b, 0.0, i) for b in BETAS for i in range(a.draws)]
    jobs += [("few", k, s, i) for k in KS for s in SPANS for i in range(max(1, a.draws // 2))]
    t0 = time.perf_counter()
    with cf.ProcessPoolExecutor(a.workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        from tqdm import tqdm
        rows = list(tqdm(pool.map(_one, jobs, chunksize=4), total=len(jobs), desc="spectra"))
    thr = threshold(rows)
    spec = load_gated_sweep("cpu").long
    out = {"beta_hi_max": thr, "p_null": P_NULL, "k_null": K_NULL, "n_boot": N_BOOT, "n_sim": N_SIM,
           "target_false_collapse": TARGET, "table": tabulate(rows, thr),
           "settings": {"H": H, "tau_min": TAU_MIN, "gate_noise": GATE_NOISE, "n_seq": N_SEQ, "betas": BETAS,
                        "ks": KS, "spans": SPANS, "draws": a.draws},
           "spec": {"T": spec.T, "rate_lags": list(spec.rate_lags), "window_stride": spec.window_stride},
           "wall_seconds": round(time.perf_counter() - t0, 1), "workers": a.workers,
           "commit": subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                                    text=True).stdout.strip(), "rows": rows}
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "calibration.json").write_text(json.dumps(out, indent=1, default=float))
    (a.out / "README.md").write_text(_markdown(out))
    print(f"beta_hi_max = {thr:.4g}; wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
