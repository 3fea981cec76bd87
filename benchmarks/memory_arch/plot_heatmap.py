"""Summary heatmap: mean over alpha of log10 median RelMSE for each (architecture, memory type), plus the
learning curves of every run (optimisation dynamics, spread over seeds).

    python benchmarks/memory_arch/plot_heatmap.py benchmarks/memory_arch/quick.json quick.sqlite
"""

from _common import load_rows

from numerics.memory_bench.plots import plot_heatmap, plot_learning_curves

rows, out, study = load_rows(__doc__.splitlines()[0])
print(f"wrote {plot_heatmap(rows, out / f'{study}_heatmap.png', title=study)}")
print(f"wrote {plot_learning_curves(rows, out / f'{study}_learning_curves.png', title=study)}")
