"""Summary heatmap: mean over alpha of log10 median RelMSE for each (architecture, memory type), plus the
learning curves of every run (optimisation dynamics, spread over seeds).

    python benchmarks/memory_arch/plot_heatmap.py numerics/memory_functions/bench/sweeps/quick.json quick.sqlite
"""

from _common import load_rows

from numerics.memory_functions.bench.plots import plot_heatmap, plot_learning_curves

rows, out, study = load_rows(__doc__.splitlines()[0])
for plot, name in ((plot_heatmap, "heatmap"), (plot_learning_curves, "learning_curves")):
    plot(rows, out / f"{study}_{name}.png", title=study)
    print(f"wrote {out / f'{study}_{name}.png'}")
