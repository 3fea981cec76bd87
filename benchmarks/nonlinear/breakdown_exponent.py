"""How long infinite width lasts for nonlinear recurrences: t*(n; tol) for n = 32..4096 and the exponent gamma.

    nice -n 10 python benchmarks/nonlinear/breakdown_exponent.py --cache DIR            # Monte Carlo (resumable)
    python benchmarks/nonlinear/breakdown_exponent.py --cache DIR --report --write      # analysis, JSON, figure

The Monte Carlo (numerics.signal_propagation.nonlinear_mc, one BLAS thread) runs in four parts, each cached per
width in ``DIR/<part>_n<width>.npz`` (the per-draw energies), so a killed run resumes where it stopped:

* A: eight recurrences on the same draws (identity sigma=1 free/driven, relu sigma^2=2 free/driven, relu
  sigma^2=1.8 driven, tanh sigma=1 free/driven, tanh sigma=0.9 free), depth ``ceil(2.2 sqrt n) + 10``;
* B: more draws of relu sigma^2=2 free/driven (their per-draw spread is large), depth ``ceil(0.8 sqrt n) + 8``,
  pooled with A's relu draws up to that depth;
* C: tanh sigma=1.2 free/driven (the chaotic phase, where the deviation saturates), depth 400;
* D: the first finite-width correction: n = 64..512, depth 8, many draws.

Sizes and seeds are fixed in this file (``PLAN``); the definitions of t*, its interval and the exponent fits
are those of ``numerics.signal_propagation.nonlinear_breakdown`` (fixed before the measurement). ``--report``
writes ``docs/results/nonlinear/breakdown.json`` and ``breakdown.png`` (with ``--write``); the results page is
``docs/results/nonlinear-recurrences.md``. Cost: about 1.4 CPU-hours for A-D on one core of an AMD EPYC
(measured: ``provenance`` in the JSON).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")    # before numpy: one core per process on a shared machine

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))                        # run from a checkout without installing

import numpy as np  # noqa: E402

from numerics.signal_propagation.nonlinear_breakdown import (breakdown_with_interval,  # noqa: E402
                                                             crossing_depth, exponent_with_interval,
                                                             fit_exponent, fit_offset_exponent)
from numerics.signal_propagation.nonlinear_mc import nonlinear_energies_mc  # noqa: E402
from theory.nonlinear import Recurrence, first_correction_profile, identity_energy, mean_field_profile  # noqa: E402

OUT = ROOT / "docs" / "results" / "nonlinear"
WIDTHS = (32, 64, 128, 256, 512, 1024, 2048, 4096)
TOLS = (0.05, 0.1)
REPLICATES = 2000
PROBES = 8
SQ2, SQ18 = math.sqrt(2.0), math.sqrt(1.8)

CASES = {
    "A": [Recurrence("identity", 1.0), Recurrence("identity", 1.0, True), Recurrence("relu", SQ2),
          Recurrence("relu", SQ2, True), Recurrence("relu", SQ18, True), Recurrence("tanh", 1.0),
          Recurrence("tanh", 1.0, True), Recurrence("tanh", 0.9)],
    "B": [Recurrence("relu", SQ2), Recurrence("relu", SQ2, True)],
    "C": [Recurrence("tanh", 1.2), Recurrence("tanh", 1.2, True)],
    "D": [Recurrence("relu", SQ2), Recurrence("relu", SQ2, True), Recurrence("tanh", 1.0),
          Recurrence("tanh", 1.0, True), Recurrence("tanh", 0.9), Recurrence("identity", 1.0)],
}
# (part, width) -> (depth, draws); the draws were set from a pilot's per-draw spread, before this run, and lowered
# for n >= 1024 (A: 768, 320, 128 -> 384, 160, 64; B: 2048, 640, 192 -> 1024, 256, 96; C: 32, 16 -> 16, 8) before
# those widths ran, when the shared machine gave the run an eighth of a core: the intervals there are wider
PLAN = {
    **{("A", n): (math.ceil(2.2 * math.sqrt(n)) + 10, s)
       for n, s in zip(WIDTHS, (4096, 4096, 2048, 2048, 1024, 384, 160, 64))},
    **{("B", n): (math.ceil(0.8 * math.sqrt(n)) + 8, s)
       for n, s in zip(WIDTHS, (8192, 8192, 8192, 4096, 4096, 1024, 256, 96))},
    **{("C", n): (400, s) for n, s in zip(WIDTHS, (512, 512, 256, 256, 128, 64, 16, 8))},
    **{("D", n): (8, s) for n, s in zip((64, 128, 256, 512), (20000, 10000, 8000, 4000))},
}
PART_INDEX = {"A": 1, "B": 2, "C": 3, "D": 4}
FIRST_CORRECTION_DEPTHS = range(1, 9)


def seed_of(part: str, n: int) -> np.random.SeedSequence:
    return np.random.SeedSequence([20260541, PART_INDEX[part], n])


def run_part(part: str, n: int, cache: Path) -> dict:
    """Run (or load) one part at one width: the per-draw energies of each case and the cost."""
    path = cache / f"{part}_n{n}.npz"
    if path.exists():
        with np.load(path) as z:
            return {k: z[k] for k in z.files}
    t, samples = PLAN[(part, n)]
    cache.mkdir(parents=True, exist_ok=True)
    wall, cpu = time.perf_counter(), time.process_time()
    res = nonlinear_energies_mc(n, t, samples, CASES[part], probes=PROBES, seed=seed_of(part, n), progress=True,
                                keep_draws=True)
    out = {f"draws{j}": r.draws for j, r in enumerate(res)}
    out.update(wall=np.array(time.perf_counter() - wall), cpu=np.array(time.process_time() - cpu))
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **out)
    tmp.replace(path)                        # a killed run leaves no half-written file
    print(f"{part} n={n}: t={t} draws={samples} {float(out['cpu']):.0f} CPU s", flush=True)
    return out


# --------------------------------------------------------------------------------------------------
# analysis
# --------------------------------------------------------------------------------------------------
def case_key(r: Recurrence) -> str:
    return f"{r.phi} sigma^2={r.sigma ** 2:.3g} {'driven' if r.driven else 'free'}"


def draws_of(rec: Recurrence, n: int, cache: Path) -> np.ndarray:
    """The per-draw energies of ``rec`` at width n: part A (B pooled for relu sigma^2 = 2, C for tanh 1.2)."""
    if rec in CASES["C"]:
        return run_part("C", n, cache)[f"draws{CASES['C'].index(rec)}"]
    a = run_part("A", n, cache)[f"draws{CASES['A'].index(rec)}"]
    if rec in CASES["B"]:
        b = run_part("B", n, cache)[f"draws{CASES['B'].index(rec)}"]
        return np.concatenate([a[:, :b.shape[1]], b])
    return a


def identity_exact(rec: Recurrence, n: int, t: int) -> np.ndarray:
    """Exact identity energies (exact rows, the large-n expansion beyond), depths 0..t."""
    return np.array([identity_energy(n, k, rec.sigma, driven=rec.driven).value for k in range(t + 1)])


def analyse_case(rec: Recurrence, cache: Path) -> dict:
    out = {"case": case_key(rec), "phi": rec.phi, "sigma": rec.sigma, "driven": rec.driven, "widths": {}}
    per_tol = {tol: [] for tol in TOLS}
    exact_tc = {tol: [] for tol in TOLS}
    for n in WIDTHS:
        D = draws_of(rec, n, cache)
        T = D.shape[1] - 1
        q = mean_field_profile(T, rec.phi, rec.sigma, driven=rec.driven)
        dev, se = D.mean(axis=0) / q - 1.0, D.std(axis=0, ddof=1) / math.sqrt(D.shape[0]) / q
        tm = max(1, round(0.5 * math.sqrt(n)))        # the per-draw spread of log E_t at t = sqrt(n)/2, in t/sqrt(n)
        with np.errstate(divide="ignore", invalid="ignore"):
            spread = float(np.std(np.log(D[:, tm]), ddof=1) * math.sqrt(n) / tm)
        w = {"draws": int(D.shape[0]), "depth": T, "deviation": [float(f"{x:.6g}") for x in dev],
             "se": [float(f"{x:.4g}") for x in se], "log_spread": {"t": tm, "sd_log_E_sqrt_n_over_t": spread},
             "max_abs_deviation": {"t": int(np.argmax(np.abs(dev))), "value": float(dev[np.argmax(np.abs(dev))]),
                                   "se": float(se[np.argmax(np.abs(dev))])}}
        for tol in TOLS:
            b = breakdown_with_interval(D, q, tol, replicates=REPLICATES, seed=np.random.SeedSequence([7, n, int(1000 * tol)]), level=0.95)
            per_tol[tol].append(b)
            cl, ch = (float(np.quantile(b.cross_replicates, p, method="inverted_cdf")) for p in (0.025, 0.975))
            w[f"tol={tol}"] = {"t_star": b.t_star, "t_cross": b.t_cross, "lo": b.lo, "hi": b.hi,
                               "cross_lo": cl, "cross_hi": ch, "censored_replicates": b.censored}
        if rec.phi == "identity":
            E = identity_exact(rec, n, T) / q
            for tol in TOLS:
                s, c = crossing_depth(E - 1.0, tol)
                m = w[f"tol={tol}"]
                m["exact"] = {"t_star": s, "t_cross": c,
                              "inside_interval": c is not None and m["cross_lo"] <= c <= m["cross_hi"]}
                exact_tc[tol].append(c)
        out["widths"][str(n)] = w
    out["exponent"] = {}
    for tol in TOLS:
        e = exponent_with_interval(WIDTHS, per_tol[tol], level=0.95)
        if rec.phi == "identity" and all(c is not None for c in exact_tc[tol]):
            e["exact"] = {"gamma": fit_exponent(WIDTHS, exact_tc[tol])[0],
                          "offset_gamma": fit_offset_exponent(WIDTHS, exact_tc[tol])[0]}
        out["exponent"][f"tol={tol}"] = e
    return out


def analyse_first_correction(cache: Path) -> list[dict]:
    """``n d_t`` at n = 64..512 fitted by ``b_t + e_t / n`` (weighted least squares), against the derived ``c_t``."""
    rows = []
    ns = sorted(n for (p, n) in PLAN if p == "D")
    for j, rec in enumerate(CASES["D"]):
        T = PLAN[("D", ns[0])][0]
        q = mean_field_profile(T, rec.phi, rec.sigma, driven=rec.driven)
        nd, nse = [], []
        for n in ns:
            D = run_part("D", n, cache)[f"draws{j}"]
            nd.append(n * (D.mean(axis=0) / q - 1.0))
            nse.append(n * D.std(axis=0, ddof=1) / math.sqrt(D.shape[0]) / q)
        nd, nse = np.array(nd), np.array(nse)
        c = first_correction_profile(T, rec.phi, rec.sigma, driven=rec.driven) if rec.phi != "relu" else None
        for t in FIRST_CORRECTION_DEPTHS:
            x, y, s = 1.0 / np.array(ns, float), nd[:, t], nse[:, t]
            M = np.stack([np.ones_like(x), x], axis=1) / s[:, None]
            coef, *_ = np.linalg.lstsq(M, y / s, rcond=None)
            cov = np.linalg.inv(M.T @ M)
            rows.append({"case": case_key(rec), "t": t, "b": float(coef[0]), "b_se": float(math.sqrt(cov[0, 0])),
                         "slope": float(coef[1]), "n_d": nd[:, t].tolist(), "n_se": nse[:, t].tolist(),
                         "derived_c": None if c is None else float(c[t]), "widths": ns,
                         "chi2": float(np.sum((M @ coef - y / s) ** 2))})
    return rows


WINDOWS = ((100, 200), (200, 300), (300, 401))


def plateau(cache: Path) -> list[dict]:
    """tanh sigma = 1.2 (the chaotic phase): the mean deviation over the depth windows ``WINDOWS`` per width (one
    number per draw and window, its mean and se): whether, and where, the deviation settles."""
    out = []
    for rec in CASES["C"]:
        for n in WIDTHS:
            D = run_part("C", n, cache)[f"draws{CASES['C'].index(rec)}"]
            q = mean_field_profile(D.shape[1] - 1, rec.phi, rec.sigma, driven=rec.driven)
            row = {"case": case_key(rec), "n": n, "windows": []}
            for a, b in WINDOWS:
                per = (D[:, a:b] / q[a:b]).mean(axis=1) - 1.0          # one number per draw
                row["windows"].append({"t": [a, b - 1], "mean": float(per.mean()),
                                       "se": float(per.std(ddof=1) / math.sqrt(per.size))})
            out.append(row)
    return out


def provenance(cache: Path) -> dict:
    cost = {}
    for (part, n) in PLAN:
        p = cache / f"{part}_n{n}.npz"
        if p.exists():
            with np.load(p) as z:
                cost[f"{part} n={n}"] = {"cpu_s": round(float(z["cpu"]), 1), "wall_s": round(float(z["wall"]), 1)}
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = ""
    from numerics.experiments.pinning import cpu_description

    cpu = cpu_description()
    return {"commit": commit, "date": time.strftime("%Y-%m-%d"), "numpy": np.__version__,
            "python": platform.python_version(), "machine": {"cpu": cpu, "cores": os.cpu_count()},
            "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS"), "cost": cost,
            "total_cpu_hours": round(sum(c["cpu_s"] for c in cost.values()) / 3600, 3)}


def report(cache: Path, write: bool) -> dict:
    data = {"generated_by": "python benchmarks/nonlinear/breakdown_exponent.py --cache DIR --report --write "
                            "(after the Monte Carlo: the same command without --report)",
            "definitions": "numerics.signal_propagation.nonlinear_breakdown (t*, t_c, percentile bootstrap over weight "
                           f"draws, {REPLICATES} replicates, 95%; exponent: weighted least squares of ln t_c on ln n, and "
                           "t_c = A n^gamma + delta)",
            "plan": {f"{p} n={n}": {"depth": t, "draws": s} for (p, n), (t, s) in PLAN.items()}, "probes": PROBES,
            "cases": [analyse_case(r, cache) for r in CASES["A"] + CASES["C"]],
            "first_correction": analyse_first_correction(cache), "late_deviation_tanh_1.2": plateau(cache),
            "provenance": provenance(cache)}
    print_summary(data)
    print(markdown(data))
    if write:
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / "breakdown.json").write_text(json.dumps(_json_safe(data), indent=1) + "\n")
        from plots import plot_breakdown                          # noqa: E402  (beside this script)
        plot_breakdown(data, OUT / "breakdown.png")
        print(f"wrote {OUT / 'breakdown.json'} and {OUT / 'breakdown.png'}")
    return data


def _fmt(x) -> str:
    return "-" if x is None else ("inf" if x == math.inf else f"{x:.3g}")


def _json_safe(x):
    """inf as the string "inf" (JSON has no infinity)."""
    if isinstance(x, dict):
        return {k: _json_safe(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_json_safe(v) for v in x]
    if isinstance(x, float) and not math.isfinite(x):
        return "inf" if x > 0 else ("-inf" if x < 0 else "nan")
    return x


def print_summary(data: dict) -> None:
    for c in data["cases"]:
        for tol in TOLS:
            key = f"tol={tol}"
            row = " ".join(f"{n}:{_fmt(w[key]['t_star'])}[{_fmt(w[key]['lo'])},{_fmt(w[key]['hi'])}]"
                           for n, w in c["widths"].items())
            e = c["exponent"][key]
            off = e["offset"] or {}
            print(f"{c['case']:28s} {key:9s} {row}\n{'':38s} gamma={_fmt(e['gamma'])} [{_fmt(e['lo'])},{_fmt(e['hi'])}] "
                  f"offset gamma={_fmt(off.get('gamma'))} [{_fmt(off.get('lo'))},{_fmt(off.get('hi'))}] "
                  f"censored={e['censored_widths']} exact={e.get('exact')}")
    for r in data["first_correction"]:
        print(f"{r['case']:28s} t={r['t']} b={r['b']:+.3f}({r['b_se']:.3f}) derived c={_fmt(r['derived_c'])} "
              f"chi2={r['chi2']:.2f}")
    for r in data["late_deviation_tanh_1.2"]:
        print(f"{r['case']:28s} n={r['n']} " + " ".join(f"t={w['t'][0]}..{w['t'][1]}: {w['mean']:+.4f}({w['se']:.4f})"
                                                        for w in r["windows"]))


def markdown(data: dict) -> str:
    """The tables of docs/results/nonlinear-recurrences.md from the report's data."""
    out = []
    for tol in TOLS:
        key = f"tol={tol}"
        out.append(f"\n**tol = {tol}**: $t^*$ [95% interval] per width (exact: the identity's exact $t^*$)\n")
        head = "| case | " + " | ".join(f"n = {n}" for n in WIDTHS) + " |"
        out += [head, "|---" * (len(WIDTHS) + 1) + "|"]
        for c in data["cases"]:
            cells = []
            for n in WIDTHS:
                w = c["widths"][str(n)][key]
                cell = "none" if w["t_star"] is None else f"{w['t_star']} [{_fmt(w['lo'])}, {_fmt(w['hi'])}]"
                if "exact" in w:
                    cell += f" (exact {_fmt(w['exact']['t_star'])})"
                cells.append(cell)
            out.append(f"| {c['case']} | " + " | ".join(cells) + " |")
    out.append("\n**Exponents** $\\gamma$ of $t_c \\sim n^\\gamma$ (95% bootstrap interval) and of "
               "$t_c = A n^\\gamma + \\delta$\n")
    out += ["| case | tol | gamma (log-log) | gamma (with offset) | delta | widths fitted | exact (identity) |",
            "|---|---|---|---|---|---|---|"]
    for c in data["cases"]:
        for tol in TOLS:
            e = c["exponent"][f"tol={tol}"]
            if e["gamma"] is None:
                out.append(f"| {c['case']} | {tol} | not reached | | | none (censored: {e['censored_widths']}) | |")
                continue
            o = e["offset"] or {}
            ex = e.get("exact")
            exs = "" if not ex else f"{ex['gamma']:.3f} / {ex['offset_gamma']:.3f}"
            fitted = f"{min(e['widths'])}..{max(e['widths'])}" + (f" (censored: {e['censored_widths']})"
                                                                  if e["censored_widths"] else "")
            out.append(f"| {c['case']} | {tol} | {e['gamma']:.3f} [{e['lo']:.3f}, {e['hi']:.3f}] | "
                       + (f"{o['gamma']:.3f} [{o['lo']:.3f}, {o['hi']:.3f}] | {o['delta']:.2f}" if o else "- | -")
                       + f" | {fitted} | {exs} |")
    out.append("\n**First correction**: $b_t$ (Monte Carlo, n = 64..512, fit $n d_t = b_t + e_t/n$) against the "
               "derived $c_t$\n")
    ts = sorted({r["t"] for r in data["first_correction"]})
    out += ["| case | " + " | ".join(f"t = {t}" for t in ts) + " |", "|---" * (len(ts) + 1) + "|"]
    for case in dict.fromkeys(r["case"] for r in data["first_correction"]):
        rows = {r["t"]: r for r in data["first_correction"] if r["case"] == case}
        out.append(f"| {case} | " + " | ".join(
            f"{rows[t]['b']:+.2f} ({rows[t]['b_se']:.2f})" + ("" if rows[t]["derived_c"] is None
                                                               else f" vs {rows[t]['derived_c']:+.2f}") for t in ts)
            + " |")
    out.append("\n**Chaotic phase** (tanh, sigma = 1.2): mean deviation over depth windows (se)\n")
    out += ["| case | window | " + " | ".join(f"n = {n}" for n in WIDTHS) + " |", "|---" * (len(WIDTHS) + 2) + "|"]
    for case in dict.fromkeys(r["case"] for r in data["late_deviation_tanh_1.2"]):
        rows = {r["n"]: r for r in data["late_deviation_tanh_1.2"] if r["case"] == case}
        for k, (a, b) in enumerate(WINDOWS):
            out.append(f"| {case} | t = {a}..{b - 1} | " + " | ".join(
                f"{rows[n]['windows'][k]['mean']:+.4f} ({rows[n]['windows'][k]['se']:.4f})" for n in WIDTHS) + " |")
    return "\n".join(out)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cache", required=True, type=Path, help="folder of the per-width Monte Carlo files")
    p.add_argument("--parts", default="ABCD", help="parts to run (default ABCD)")
    p.add_argument("--report", action="store_true", help="analyse the cached runs (runs missing ones first)")
    p.add_argument("--write", action="store_true", help=f"write the JSON and the figure to {OUT}")
    a = p.parse_args()
    a.cache.mkdir(parents=True, exist_ok=True)
    if a.report:
        report(a.cache, a.write)
        return
    for part in a.parts:
        for (pp, n) in sorted(PLAN, key=lambda k: (k[0], k[1])):
            if pp == part:
                run_part(part, n, a.cache)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
