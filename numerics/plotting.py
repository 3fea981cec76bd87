"""Matplotlib for every figure the toolkit draws, without touching the caller's backend.

Figures are built as ``matplotlib.figure.Figure`` objects (not through ``pyplot``, so they are not registered
with the interactive backend and nothing calls ``matplotlib.use``) and saved through their own canvas: inline
figures in Jupyter keep working after any toolkit plot. Every plot function of the toolkit takes ``ax=``
(optional: the axes to draw into, e.g. a panel of the user's figure) and returns the figure; ``path=None``
draws without saving.

One home for the lines every figure needs (:func:`panels`, :func:`finish`, :func:`save_figure`); the checks,
the sweep figures and the gated-RNN scripts all come here, so a change of style or resolution happens once.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

#: Resolution of the saved PNG files, dots per inch.
DPI = 110
#: Most panels per row or column of one figure (a typo such as ``ncols=10**6`` is a clear error).
MAX_PANELS = 64


def subplots(nrows: int = 1, ncols: int = 1, **kwargs: Any):
    """``(figure, axes)`` like ``matplotlib.pyplot.subplots``, on a new ``Figure`` that no backend manages.

    Parameters
    ----------
    nrows, ncols : int
        The grid of panels.
    **kwargs
        ``figsize``, ``dpi``, ``layout`` go to the ``Figure``; the rest (``sharex``, ``sharey``, ``squeeze``,
        ``subplot_kw``, ``gridspec_kw``, ...) to ``Figure.subplots``.

    Returns
    -------
    (matplotlib.figure.Figure, Axes or numpy.ndarray of Axes)

    Examples
    --------
    >>> import matplotlib
    >>> backend = matplotlib.get_backend()
    >>> fig, ax = subplots(figsize=(3, 2))
    >>> type(fig).__name__, matplotlib.get_backend() == backend
    ('Figure', True)
    """
    from matplotlib.figure import Figure

    nrows, ncols = _grid(nrows, ncols)
    fig_kw = {k: kwargs.pop(k) for k in ("figsize", "dpi", "layout", "facecolor") if k in kwargs}
    fig = Figure(**fig_kw)
    return fig, fig.subplots(nrows, ncols, **kwargs)


def panels(ax=None, nrows: int = 1, ncols: int = 1, **kwargs: Any):
    """The figure and axes a plot function draws into: ``ax`` when given, else a new figure.

    Parameters
    ----------
    ax : matplotlib Axes, a sequence of ``nrows * ncols`` Axes, or None
        Where to draw. None: a new figure from :func:`subplots` (``kwargs`` go there).
    nrows, ncols : int
        The panels the plot needs.

    Returns
    -------
    (Figure, axes)
        ``axes`` has the shape :func:`subplots` gives with the same arguments (a single ``Axes`` for one
        panel unless ``squeeze=False``; with ``squeeze=False`` a 2-d array).

    Raises
    ------
    TypeError
        ``ax`` is not an Axes or a sequence of Axes.
    ValueError
        ``ax`` holds a number of axes other than ``nrows * ncols``.
    """
    nrows, ncols = _grid(nrows, ncols)
    if ax is None:
        return subplots(nrows, ncols, **kwargs)
    import numpy as np
    from matplotlib.axes import Axes

    given = [ax] if isinstance(ax, Axes) else list(np.ravel(np.asarray(ax, dtype=object)))
    if not all(isinstance(a, Axes) for a in given):
        raise TypeError(f"ax must be a matplotlib Axes or a sequence of Axes, got {type(ax).__name__}")
    if len(given) != nrows * ncols:
        raise ValueError(f"ax must hold {nrows * ncols} axes ({nrows} x {ncols} panels) for this plot, "
                         f"got {len(given)}")
    grid = np.empty((nrows, ncols), dtype=object)
    grid.ravel()[:] = given
    if kwargs.get("squeeze", True):
        grid = grid.squeeze() if grid.size > 1 else grid.item()
    return given[0].get_figure(), grid


def finish(fig, path: str | Path | None = None):
    """Save ``fig`` to ``path`` with :func:`save_figure` when a path is given; return the figure.

    Raises
    ------
    TypeError
        As :func:`save_figure`.
    """
    _check_figure(fig)
    if path is not None:
        save_figure(fig, path)
    return fig


def _check_figure(fig) -> None:
    from matplotlib.figure import Figure

    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")


def _grid(nrows, ncols) -> tuple[int, int]:
    from theory._args import as_int

    return as_int("nrows", nrows, minimum=1, maximum=MAX_PANELS), as_int("ncols", ncols, minimum=1, maximum=MAX_PANELS)


def save_figure(fig, path: str | Path) -> Path:
    """Tight layout, write a PNG at :data:`DPI` through the figure's own canvas; returns the path.

    The figure is not closed or released: one made by :func:`subplots` is freed with its last reference, and
    one of the caller's (``ax=``) is the caller's.

    Raises
    ------
    TypeError
        ``fig`` is not a ``matplotlib.figure.Figure`` or ``path`` is not a non-empty path.
    ValueError
        ``path``'s extension is not an image format matplotlib writes.
    """
    _check_figure(fig)
    if not isinstance(path, (str, os.PathLike)) or not str(path):
        raise TypeError(f"path must be a non-empty str or os.PathLike, got {path!r}")
    suffix = Path(path).suffix.lower().lstrip(".")
    supported = fig.canvas.get_supported_filetypes()
    if suffix and suffix not in supported:        # matplotlib's own message does not name the argument
        raise ValueError(f"path must end in an image format matplotlib writes ({', '.join(sorted(supported))}), "
                         f"got {str(path)!r:.80}")
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    return Path(path)


class _Figures:
    """What the toolkit's plot code uses of ``matplotlib.pyplot`` (``subplots``, ``figure``, ``close``,
    ``rcParams``), on unmanaged ``Figure`` objects: no backend is selected or changed."""

    subplots = staticmethod(subplots)

    @staticmethod
    def figure(**kwargs: Any):
        from matplotlib.figure import Figure

        return Figure(**kwargs)

    @staticmethod
    def close(fig=None) -> None:
        """Nothing to release: these figures are not registered with pyplot."""

    @property
    def rcParams(self):  # noqa: N802 (pyplot's name)
        import matplotlib

        return matplotlib.rcParams


def pyplot() -> _Figures:
    """A ``pyplot``-like object whose ``subplots`` / ``figure`` make unmanaged ``Figure`` objects.

    For the plot code written against ``matplotlib.pyplot`` (``plt = pyplot(); fig, ax = plt.subplots()``):
    it keeps working, and the caller's backend is never changed.
    """
    return _Figures()
