"""The paper's main plot: final training RelMSE against alpha, one panel per memory type, one line per
architecture (median over seeds, min-max bars).

    seqtheory sweep run numerics/memory_functions/bench/sweeps/quick.json --store quick.sqlite --workers 2
    python benchmarks/memory_arch/plot_relmse_vs_alpha.py numerics/memory_functions/bench/sweeps/quick.json quick.sqlite
"""

from _common import load_rows

from numerics.memory_functions.bench.plots import plot_alpha_curves

rows, out, study = load_rows(__doc__.splitlines()[0])
path = out / f"{study}_relmse_vs_alpha.png"
plot_alpha_curves(rows, path, title=study)
print(f"wrote {path}")
