"""Matplotlib for every figure the toolkit writes: the Agg backend, imported only when a figure is made.

One home for the two lines every figure needs (``pyplot()`` and ``save_figure``); the checks, the sweep
figures and the gated-RNN scripts all come here, so a change of style or resolution happens once.
"""

from __future__ import annotations

import os
from pathlib import Path

DPI = 110


def pyplot():
    """``matplotlib.pyplot`` on the non-interactive Agg backend (figures go to files, in CI too)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig, path: str | Path) -> Path:
    """Tight layout, write a PNG at :data:`DPI`, release the figure; returns the path."""
    plt = pyplot()
    from matplotlib.figure import Figure

    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    if not isinstance(path, (str, os.PathLike)) or not str(path):
        raise TypeError(f"path must be a non-empty str or os.PathLike, got {path!r}")
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return Path(path)
