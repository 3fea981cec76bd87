"""How far does the polish's certificate lie? One deciding cell per model, the cpu profile's run config with
only ``polish.f64_iters`` raised (and, with ``--lm-iters``, the Levenberg-Marquardt finish switched on); the
early stop at the certificate unchanged. The certificate's two numbers are read off the float64 curve at 500,
1000, 2000, 4000, 8000 iterations, then, with the finish, after every Levenberg-Marquardt step.

    python benchmarks/memory_arch/certificate_reach.py [--models lstm s4d] [--kind exp] [--alpha 0.5]
        [--seed 0] [--f64-iters 8000] [--lm-iters 0] [--tag NAME] [--out docs/results/cpu-architectures-polished]
        [--summary-only] [--figure PATH]

Writes ``certificate_reach_MODEL[_TAG].json`` (the run's polish record with its curve, every 10th L-BFGS
iteration and every Levenberg-Marquardt step) and prints per checkpoint: the full-data RelMSE, its relative
change over the preceding 500 float64 iterations and ||g|| / ||g0|| (g0: the float64 gradient at the Adam
endpoint, the certificate's definition). The certificate (numerics.memory_functions.bench.polish) needs change < 1% and
ratio <= 1e-3 together. Cost on one core: about 3 min (LSTM) and 9 min (S4D) for 8000 L-BFGS iterations; a
Levenberg-Marquardt step needs the full Jacobian (one forward-mode pass per parameter: about 50 s for the
LSTM's 1233 parameters). ``--summary-only`` re-prints the table from the JSON files; ``--figure PATH`` draws
each model's curves of the JSON files found (with and without ``--tag``) side by side.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
CHECKPOINTS = (500, 1000, 2000, 4000, 8000)


def reach(model: str, kind: str, alpha: float, seed: int, f64_iters: int, lm_iters: int = 0) -> dict:
    """Train the cpu profile's run (study main) of this cell with ``f64_iters`` float64 iterations (and at most
    ``lm_iters`` Levenberg-Marquardt steps after them)."""
    from numerics.memory_functions.bench.runs import execute_run
    from numerics.memory_functions.bench.sweep import expand_sweep, load_sweep

    runs = expand_sweep(load_sweep("cpu"), studies=["main"])
    match = [r for r in runs if r.model == model and r.config.target.kind == kind
             and r.config.target.alpha == alpha and r.config.train.seed == seed]
    if not match:
        raise SystemExit(f"no cpu-profile run {model}/{kind}/{alpha:g} seed {seed} in study main")
    cfg = match[0].config.to_dict()
    cfg["polish"]["f64_iters"] = f64_iters
    cfg["polish"]["curve_every"] = 10
    cfg["polish"]["lm_iters"] = lm_iters
    t = time.perf_counter()
    p = execute_run(cfg)["polish"]
    return {"model": model, "kind": kind, "alpha": alpha, "seed": seed, "wall": time.perf_counter() - t, **p}


def _segments(curve: dict) -> list[tuple[str, dict]]:
    """The curve's stages in order: [(stage, {iteration: (RelMSE, ||g||)})]."""
    out: list[tuple[str, dict]] = []
    for st, i, r, g in zip(curve["stage"], curve["iter"], curve["relmse"], curve["grad"]):
        if not out or out[-1][0] != st:
            out.append((st, {}))
        out[-1][1][i] = (r, g)
    return out


def table(rec: dict) -> list[str]:
    """The certificate's numbers at each checkpoint of the float64 L-BFGS curve and after each
    Levenberg-Marquardt step (the window after the finish: its end)."""
    segs = [s for s in _segments(rec["curve"]) if s[0] != "f32"]
    last = segs[-1][1]
    g0 = last[max(last)][1] / rec["grad_ratio"] if rec["grad_ratio"] else float("nan")   # the record defines g0
    out = []
    for n, (st, seg) in enumerate(segs):
        name = f"{rec['model']}" + (" LM" if st == "lm" else " L-BFGS" + (" (window)" if n else ""))
        marks = sorted(seg) if st == "lm" else [k for k in CHECKPOINTS if k in seg] + ([max(seg)] if n else [])
        for k in dict.fromkeys(marks):
            r, g = seg[k]
            prev = seg.get(k - 500)
            change = f"{(prev[0] - r) / r:>12.3%}" if st != "lm" and prev else f"{'':>12}"
            out.append(f"{name:<22}{k:>7}{r:>12.4g}{change}{g / g0:>12.3g}")
    return out


def figure(out: Path, models: list[str], path: str) -> None:
    """One panel per model: every certificate_reach record of it in ``out`` (each stage on one iteration axis,
    float64 L-BFGS solid, Levenberg-Marquardt steps dotted with markers)."""
    from numerics.memory_functions.bench.plots import _polish_lines
    from numerics.plotting import finish, panels

    fig, axes = panels(None, 1, len(models), figsize=(5.0 * len(models), 3.6), squeeze=False)
    for ax, m in zip(axes.flat, models):
        for f in sorted(out.glob(f"certificate_reach_{m}*.json")):
            rec = json.loads(f.read_text(encoding="utf-8"))
            _polish_lines(ax, rec["curve"])
            n_lm = sum(st == "lm" for st in rec["curve"]["stage"])
            ax.lines[-1].set_label(f"seed {rec['seed']}: {rec['f32_iters']} f32 + {rec['f64_iters']} f64 L-BFGS"
                                   + (f" incl. a {n_lm}-step LM finish" if n_lm else "")
                                   + f": {rec['relmse']:.2g}")
            ax.set_title(f"{m} / {rec['kind']} / alpha {rec['alpha']:g}")
        ax.set(xlabel="iteration (each stage after the previous)",
               ylabel="full-data RelMSE")
        ax.legend(fontsize=6.5, loc="upper right")
    fig.suptitle("Where the certificate lies: L-BFGS alone (flat, not a floor) vs a Levenberg-Marquardt finish",
                 fontsize=9)
    finish(fig, path)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", nargs="+", default=["lstm", "s4d"])
    p.add_argument("--kind", default="exp")
    p.add_argument("--alpha", type=float, default=0.5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--f64-iters", type=int, default=8000)
    p.add_argument("--lm-iters", type=int, default=0, help="Levenberg-Marquardt steps after the float64 stage")
    p.add_argument("--tag", default="", help="suffix of the JSON file names (e.g. lm)")
    p.add_argument("--out", default=str(ROOT / "docs" / "results" / "cpu-architectures-polished"))
    p.add_argument("--summary-only", action="store_true", help="print the table from the JSON files in --out")
    p.add_argument("--figure", help="also draw the curves of every JSON file of these models in --out to this file")
    a = p.parse_args(argv)
    if a.f64_iters < 500:
        p.error(f"--f64-iters must be >= 500 (the certificate's window), got {a.f64_iters}")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"{'stage':<22}{'iters':>7}{'RelMSE':>12}{'change/500':>12}{'|g|/|g0|':>12}   (certificate: < 1% and <= 1e-3)")
    for m in a.models:
        path = out / f"certificate_reach_{m}{'_' + a.tag if a.tag else ''}.json"
        if a.summary_only:
            rec = json.loads(path.read_text(encoding="utf-8"))
        else:
            rec = reach(m, a.kind, a.alpha, a.seed, a.f64_iters, a.lm_iters)
            path.write_text(json.dumps(rec), encoding="utf-8")
        print("\n".join(table(rec)), f"\n{m}: certified {rec['certified']} ({rec['reason'] or 'certified'}), "
              f"{rec['wall']:.0f} s", flush=True)
    if a.figure:
        figure(out, a.models, a.figure)
    return 0


if __name__ == "__main__":
    sys.exit(main())
