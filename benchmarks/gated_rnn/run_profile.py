"""Run a gated-RNN profile (cpu.json / reference.json) and write the phase trajectories and a figure.

    python benchmarks/gated_rnn/run_profile.py cpu [--seeds 0 1] [--runs diag shared] [--device cuda] [--out DIR]

The CPU profile takes about a minute per seed on 2 cores; the reference profile is GPU-scale (hours per
run). Output: DIR/<profile>_summary.json (every checkpoint of every run) and DIR/<profile>_seed<k>.png
(time-scale CCDFs, envelopes with their mixture reconstructions, phase trajectory of beta_tail).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main(argv=None) -> int:
    from numerics.anticollapse.train import load_profile, train_gated

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("profile")
    p.add_argument("--seeds", type=int, nargs="*")
    p.add_argument("--runs", nargs="*")
    p.add_argument("--device", default="cpu")
    p.add_argument("--out", default="gated-rnn-results")
    p.add_argument("--progress", action="store_true")
    a = p.parse_args(argv)
    prof = load_profile(a.profile)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    summary = {"profile": prof.name, "description": prof.description, "runs": {}}
    from numerics.plotting import pyplot, save_figure

    plt = pyplot()

    for seed in a.seeds if a.seeds is not None else prof.seeds:
        fig, ax = plt.subplots(1, 3, figsize=(15, 4))
        for name in a.runs or list(prof.configs):
            run = train_gated(prof.configs[name], seed=seed, device=a.device, progress=a.progress)
            traj = run.phase_trajectory()
            summary["runs"][f"{name}/seed{seed}"] = {"trajectory": traj, "relative_loss": run.relative_loss,
                                                    "seconds": run.seconds, "forcing": run.forcing_stats,
                                                    "lags": run.task.lags.tolist()}
            d = run.final
            tau = np.sort(d.rates.finite_tau)
            ax[0].loglog(tau, 1 - np.arange(tau.size) / max(tau.size, 1), ".-", label=f"{name} ({d.phase})")
            line, = ax[1].semilogy(d.envelope.lags, d.envelope.measured, label=name)
            ax[1].semilogy(d.envelope.lags, d.envelope.mixture, "--", color=line.get_color())
            ax[2].plot([c["epoch"] for c in traj], [c.get("beta_tail", np.nan) for c in traj], "o-", label=name)
            print(f"{name} seed {seed}: {run.seconds:.1f}s, loss/Var(y) {run.relative_loss:.3f}, "
                  f"final phase {d.phase}", flush=True)
        ax[0].set(xlabel="tau", ylabel="P(tau > x)", title=f"{prof.name}, seed {seed}")
        ax[1].set(xlabel="lag", ylabel="f(l)", title="envelope (solid), mixture (dashed)")
        ax[2].set(xlabel="epoch", ylabel="beta_tail", yscale="log", title="phase trajectory")
        for x in ax:
            x.legend(fontsize=8)
        save_figure(fig, out / f"{prof.name}_seed{seed}.png")
    (out / f"{prof.name}_summary.json").write_text(json.dumps(summary, indent=1, default=float))
    print("wrote", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
