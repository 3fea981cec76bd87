"""Builds notebooks/04_which_architecture_for_which_memory.ipynb (stored without outputs).

    python notebooks/_build_04_which_architecture_for_which_memory.py
"""

from _nbbuild import Notebook

nb = Notebook(__file__, "04_which_architecture_for_which_memory.ipynb")

nb.md(r"""
# Which architecture for which memory?

After Jiang, Bao, Wang, Li, *Numerical Investigation of Sequence Modeling Theory using Controllable
Memory Functions*, arXiv:2506.05678 (2025). A target $y(t) = \sum_{s\le t} \rho(s)\,x(t-s)$ has a
**memory function** $\rho$; four families (exponential, polynomial, impulse, Airy) indexed by a temporal
strength $\alpha \in [0,1]$ come from `theory.memory` (notebook 03). Here we train the four architecture
families of `numerics.memory_functions.models` on such targets and compare their **approximation error** (final training
RelMSE $= \sum(\hat y - y)^2 / \sum y^2$ on a fixed synthetic data set).

Everything below is deliberately tiny (T = 48, 150 Adam steps, one seed) so that it runs in seconds on a
laptop CPU: the numbers illustrate the workflow, not the paper's scale. The validation checks
(`python -m validation --only 'architectures.*'`) use 3 seeds and medians; `numerics/memory_functions/bench/sweeps/full.json`
is the documented GPU-scale profile.
""")

nb.code(r"""
import numpy as np
import matplotlib.pyplot as plt
import torch

import seqtheory
from seqtheory import memory_function, expected_linear_relmse
from theory.prony import best_mterm_fit, exp_sum
from numerics.experiments.store import ResultStore
from numerics.memory_functions.bench.aggregate import collect, median_by
from numerics.memory_functions.bench.sweep import expand_sweep, run_sweep
from numerics.memory_functions.bench.zoo import build_model
from numerics.memory_functions.bench.probe import memory_probe

torch.set_num_threads(1)
T = 48
""")

nb.md(r"""
## 1. A sweep is a plain grid of configs

The same grid format as `numerics/memory_functions/bench/sweeps/quick.json`: named models, memory kinds, alphas, seeds,
shared defaults. Each grid point becomes a validated, content-addressed `RunConfig`: its id is a hash of the
normalised config, so re-running a sweep against the same store only computes what is missing.
""")

nb.code(r"""
sweep = {
    "defaults": {"target": {"T": T, "n_seq": 128}, "train": {"steps": 150, "batch": 16, "lr": 0.005}},
    "studies": {"demo": {
        "models": {
            "lstm": {"arch": "lstm", "width": 12},
            "s4d": {"arch": "s4d", "width": 8, "state": 16},
            "tcn": {"arch": "tcn", "channels": 8, "levels": 5},        # receptive field 63 >= T
            "transformer": {"arch": "transformer", "d_model": 16, "heads": 2},
        },
        "kinds": ["exp", "poly", "impulse", "airy"], "alphas": [0.5], "seeds": [0]}}}
runs = expand_sweep(sweep)
print(len(runs), "runs; first id", runs[0].run_id)
for name, spec in sweep["studies"]["demo"]["models"].items():
    print(f"{name:12s} {build_model(spec, seq_len=T).n_params:6d} parameters")
""")

nb.code(r"""
store = ResultStore(":memory:")          # a file path makes it persistent and resumable
summary = run_sweep(runs, store, progress=False)
rows = collect(runs, store)
print(summary)
med = median_by(rows, ("model", "kind"))
kinds = ["exp", "poly", "impulse", "airy"]
models = list(sweep["studies"]["demo"]["models"])
M = np.array([[np.log10(med[(m, k)]) for k in kinds] for m in models])
fig, ax = plt.subplots(figsize=(5.5, 3))
im = ax.imshow(M, cmap="viridis_r")
ax.set_xticks(range(4), kinds); ax.set_yticks(range(len(models)), models)
for i in range(len(models)):
    for j in range(4):
        ax.text(j, i, f"{M[i, j]:.1f}", ha="center", va="center", color="w")
fig.colorbar(im, label="log10 RelMSE"); ax.set_title(r"$\alpha = 0.5$, T = 48"); plt.show()
""")

nb.md(r"""
## 2. What did each model learn? The empirical memory function

For any trained model, `memory_probe` returns $\hat\rho(s) = \mathbb E\,\partial \hat y(t) / \partial x(t-s)$
(autograd, mean over random inputs); for a linear model this is exactly its impulse response. Comparing
$\hat\rho$ with $\rho$ shows *where* a model fails: on the impulse target, a model that misses the
distant spike has learned (almost) nothing.
""")

nb.code(r"""
fig, axes = plt.subplots(1, 2, figsize=(10, 3))
for ax, kind in zip(axes, ["poly", "impulse"]):
    sel = [r for r in rows if r["kind"] == kind]
    ax.plot(sel[0]["config"].target.rho(), "k", lw=2, label="target rho")
    for r in sel:
        ax.plot(r["probe"], lw=1, label=f"{r['model']} (RelMSE {r['relmse']:.2g})")
    ax.set_title(kind); ax.set_xlabel("lag s"); ax.legend(fontsize=7)
plt.show()
""")

nb.md(r"""
## 3. A linear S4D is an exponential sum: the Prony lower bound

A single-channel linear S4D with state size N has memory function
$\hat\rho(s) = D\,\delta_0(s) + \sum_{i=1}^{N} c_i \lambda_i^s$ (N/2 complex-conjugate pole pairs,
$\lambda = e^{\Delta A}$). Its expected RelMSE on white inputs is the lag-weighted error
$\sum_s (T-s)(\hat\rho - \rho)^2 / \sum_s (T-s)\rho^2$ (`theory.memory.expected_linear_relmse`), so **no**
such model can beat the best N-term exponential-sum fit (`theory.prony.best_mterm_fit`). Training one and
exporting its kernel (`S4D.exp_sum`) puts a number on how far gradient descent is from that floor.
""")

nb.code(r"""
from numerics.memory_functions.models.s4d import S4D
from numerics.memory_functions.bench.trainer import TrainSpec, train
from numerics.memory_functions.targets import make_dataset

rho = memory_function("poly", 1.0, T)
x, y = make_dataset(rho, 256, T, seed=0)
torch.manual_seed(0)
s4d = S4D(width=1, state=4, linear=True, seq_len=T)
res = train(s4d, x, y, TrainSpec(steps=300, batch=16, lr=0.02))
poles, coefs, d0 = s4d.exp_sum()
rhohat = exp_sum(poles, coefs, T); rhohat[0] += d0
fit = best_mterm_fit(rho, 4, poles="pairs", skip=True)
print(f"trained S4D, expected RelMSE {expected_linear_relmse(rhohat, rho):.3g} (data: {res.relmse:.3g})")
print(f"best 4-term exponential sum found by theory.prony: {fit.residual:.3g}")
print("S4D poles |lambda|:", np.round(np.abs(poles), 4))
""")

nb.md(r"""
## 4. Learning curves: optimisation dynamics

Each run keeps its learning curve (mean minibatch RelMSE per logging window). Flat curves at RelMSE ~ 1
mean the optimiser never found the dependence; a slowly decreasing curve means the budget, not the
architecture, limits the error.
""")

nb.code(r"""
fig, ax = plt.subplots(figsize=(5, 3))
for r in rows:
    if r["kind"] == "impulse":
        ax.plot(r["curve_steps"], r["curve_loss"], label=r["model"])
ax.set_yscale("log"); ax.set_xlabel("step"); ax.set_ylabel("minibatch RelMSE"); ax.legend(); ax.set_title("impulse")
plt.show()
""")

nb.md(r"""
## Going further

* The command line runs and plots whole sweeps, resumably, on a process pool or a Dask cluster:
  `seqtheory sweep run numerics/memory_functions/bench/sweeps/quick.json --store runs.sqlite --workers 2`,
  then `... plot numerics/memory_functions/bench/sweeps/quick.json --store runs.sqlite --out figures/`.
* Compositions are one more spec: `{"arch": "sequential", "stages": [{"arch": "lstm"}, {"arch": "tcn"}]}`.
* What the seed claims say and what the project found at CPU scale: `docs/results/cpu-architectures/report.md`
  in the repository, every claim answered at two optimisation budgets (the Adam stage, and the Adam stage
  followed by the full-batch L-BFGS polish; of its 13 claims 3 pass, 4 are not reproduced, 6 inconclusive,
  each at its pre-registered second round where that round is complete).
  `python -m validation` shows these committed answers beside its own `architectures.*` checks, which at
  quick scale are smoke tests that decide nothing.
""")

nb.write()
