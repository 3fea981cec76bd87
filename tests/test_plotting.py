"""Toolkit figures leave the caller's matplotlib backend alone, draw into ``ax=`` and return the figure."""

from __future__ import annotations

import importlib
import inspect
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from matplotlib.figure import Figure

from numerics.plotting import finish, panels, pyplot, save_figure, subplots

ROOT = Path(__file__).resolve().parents[1]

# Modules whose plot functions are named plot_*; every one must take ax= (architectures and gated_rnn draw
# through helpers written against numerics.plotting.pyplot(), which never touches the backend either).
PLOT_MODULES = ["numerics.memory_functions.bench.plots", "validation.checks.signal_energy", "validation.checks.signal_numerics",
                "validation.checks.memory_theory", "validation.checks.anti_collapse", "validation.checks.real_weights"]


def _rows():
    rows = []
    for model in ("lstm", "tcn"):
        for kind in ("exp", "poly"):
            for alpha in (0.2, 0.5):
                for seed in range(2):
                    rows.append(dict(model=model, train_variant="default", kind=kind, alpha=alpha, seed=seed,
                                     relmse=0.1 * (1 + alpha + seed), curve_steps=[1, 2, 3],
                                     curve_loss=[1.0, 0.5, 0.2]))
    return rows


def test_every_plot_function_takes_ax_and_an_optional_path():
    found = []
    for name in PLOT_MODULES:
        mod = importlib.import_module(name)
        for fname, fn in vars(mod).items():
            if fname.lstrip("_").startswith("plot_") and inspect.isfunction(fn) and fn.__module__ == name:
                params = inspect.signature(fn).parameters
                assert "ax" in params and params["ax"].default is None, f"{name}.{fname}"
                assert "path" in params, f"{name}.{fname}"
                found.append(fname)
    assert len(found) >= 18


def test_plots_draw_into_the_given_axes_and_return_its_figure(tmp_path):
    from numerics.memory_functions.bench.plots import plot_alpha_curves, plot_heatmap, plot_learning_curves
    from validation.checks.memory_theory import plot_families
    from validation.checks.real_weights import plot_rows_mc

    fig = Figure()
    ax = fig.subplots()
    assert plot_learning_curves(_rows(), ax=ax) is fig and len(ax.lines) == 16     # one line per run
    assert ax.get_xlabel() == "step" and ax.get_yscale() == "log"
    ax2 = Figure().subplots()
    assert plot_rows_mc(None, [(32, 1, 1.01, 0.01, 1.0), (64, 2, 0.99, 0.01, 1.0)], ax=ax2) is ax2.figure
    assert len(ax2.lines) == 3                                  # two widths and the zero line
    axes = Figure().subplots(1, 4)
    assert plot_families(None, 32, ax=axes) is axes[0].figure
    assert all(len(a.lines) > 0 for a in axes)
    two = Figure().subplots(1, 2)
    assert plot_alpha_curves(_rows(), ax=two) is two[0].figure and all(a.containers for a in two)
    one = Figure().subplots()
    assert plot_heatmap(_rows(), ax=one) is one.figure and one.images
    with pytest.raises(ValueError, match="ax must hold 4 axes"):
        plot_families(None, 32, ax=ax)
    with pytest.raises(TypeError, match="ax must be"):
        plot_families(None, 32, ax="axes")
    # without ax: a new figure, saved when a path is given
    out = plot_heatmap(_rows(), tmp_path / "h.png")
    assert isinstance(out, Figure) and (tmp_path / "h.png").stat().st_size > 1000


def test_no_plot_changes_the_callers_backend(tmp_path):
    # a fresh interpreter on a backend that is not Agg: after every kind of toolkit figure the backend is the
    # same and pyplot was never imported (no toolkit code selected or resolved a backend)
    script = textwrap.dedent(f"""
        import sys, matplotlib
        from pathlib import Path
        before = matplotlib.get_backend()
        sys.path.insert(0, {str(ROOT)!r}); sys.path.insert(0, {str(ROOT / "tests")!r})
        from test_plotting import _rows
        from numerics.memory_functions.bench.plots import plot_alpha_curves, plot_convergence, plot_heatmap
        from numerics.plotting import pyplot, save_figure
        from validation.checks.memory_theory import plot_families
        tmp = Path({str(tmp_path)!r})
        plot_families(tmp / "a.png", 32)
        plot_alpha_curves(_rows(), tmp / "b.png")
        plot_heatmap(_rows(), tmp / "c.png")
        conv = {{("lstm", "exp"): dict(converged=True, ratio=1.0, half=0.2, full=0.1)}}
        plot_convergence([dict(r, half_step=2) for r in _rows()], conv, ("model", "kind"), tmp / "d.png")
        fig, ax = pyplot().subplots(1, 2)                  # the pyplot-like API of the check helpers
        save_figure(fig, tmp / "e.png")
        assert matplotlib.get_backend() == before == "svg", (before, matplotlib.get_backend())
        assert "matplotlib.pyplot" not in sys.modules
        print(sorted(p.name for p in tmp.iterdir()))
    """)
    env = {**os.environ, "MPLBACKEND": "svg", "OPENBLAS_NUM_THREADS": "1"}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "['a.png', 'b.png', 'c.png', 'd.png', 'e.png']"


def test_panels_and_subplots_check_their_arguments():
    fig, axes = subplots(2, 3, squeeze=False)
    assert isinstance(fig, Figure) and axes.shape == (2, 3)
    same_fig, grid = panels(list(axes.flat), 2, 3)
    assert same_fig is fig and grid.shape == (2, 3) and grid[1, 2] is axes[1, 2]
    with pytest.raises(ValueError, match="nrows"):
        subplots(0, 1)
    with pytest.raises(TypeError, match="ncols"):
        panels(None, 1, 1.5)
    with pytest.raises(TypeError, match="fig"):
        finish("figure")
    assert finish(fig) is fig
    plt = pyplot()
    f2, a2 = plt.subplots()
    assert isinstance(f2, Figure) and plt.rcParams is not None and plt.close(f2) is None
    assert isinstance(plt.figure(figsize=(2, 2)), Figure)
    with pytest.raises(TypeError, match="path"):
        save_figure(f2, "")
    assert np.all([isinstance(a, type(a2)) for a in axes.flat])
