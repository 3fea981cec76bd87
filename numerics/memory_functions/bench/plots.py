"""Figures of a memory-function sweep: the paper's main plot, a summary heatmap, learning curves.

Both take the flat rows of :func:`numerics.memory_functions.bench.aggregate.collect` and aggregate over seeds by the median
(robust to the occasional bad initialisation); error bars span the min and max over seeds. Each takes
``ax=`` (the axes to draw into; one per panel) and returns the figure; ``path=None`` draws without saving.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from numerics.plotting import finish, panels, pyplot
from theory._args import as_instance

from .aggregate import _as_list, _check_rows, kind_scores
from .runs import KINDS


def _label(r: dict) -> str:
    return r["model"] if r["train_variant"] == "default" else f"{r['model']} ({r['train_variant']})"


def plot_alpha_curves(rows: list[dict], path: str | Path | None = None, *, title: str = "", ax=None):
    """RelMSE against alpha, one panel per memory kind, one line per architecture (median over seeds)."""
    as_instance("title", title, str, "str")
    _check_rows(rows, ())
    rows = [dict(r, label=_label(r)) for r in rows]
    kinds = [k for k in KINDS if any(r["kind"] == k for r in rows)]
    labels = list(dict.fromkeys(r["label"] for r in rows))
    fig, axes = panels(ax, 1, len(kinds), figsize=(3.6 * len(kinds), 3.4), sharey=True, squeeze=False)
    for ax, kind in zip(axes[0], kinds):
        for lab in labels:
            sel = [r for r in rows if r["kind"] == kind and r["label"] == lab and r["relmse"] is not None]
            if not sel:
                continue
            alphas = sorted({r["alpha"] for r in sel})
            vals = [[r["relmse"] for r in sel if r["alpha"] == a] for a in alphas]
            med = [float(np.median(v)) for v in vals]
            lo = [m - min(v) for m, v in zip(med, vals)]
            hi = [max(v) - m for m, v in zip(med, vals)]
            ax.errorbar(alphas, med, yerr=[lo, hi], marker="o", ms=4, capsize=2, label=lab)
        ax.set_yscale("log")
        ax.set_xlabel(r"$\alpha$ (temporal strength)")
        ax.set_title(kind)
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("final training RelMSE")
    axes[0][-1].legend(fontsize=7)
    if title:
        fig.suptitle(title)
    return finish(fig, path)


def plot_heatmap(rows: list[dict], path: str | Path | None = None, *, title: str = "", ax=None):
    """log10 RelMSE per (architecture, memory kind): mean over alphas of the median over seeds."""
    as_instance("title", title, str, "str")
    _check_rows(rows, ())
    rows = [dict(r, label=_label(r)) for r in rows]
    scores = kind_scores(rows, label="label")
    labels = list(dict.fromkeys(r["label"] for r in rows))
    kinds = [k for k in KINDS if any(r["kind"] == k for r in rows)]
    M = np.array([[scores.get((lab, kind), np.nan) for kind in kinds] for lab in labels])
    shown = np.where(np.isfinite(M), M, np.nan)      # a diverged cell (+inf) is drawn blank, labelled "div."
    fig, ax = panels(ax, figsize=(1.3 * len(kinds) + 2.5, 0.5 * len(labels) + 1.5))
    im = ax.imshow(shown, cmap="viridis_r", aspect="auto")
    lo, hi = (np.nanmin(shown), np.nanmax(shown)) if np.isfinite(shown).any() else (0.0, 1.0)
    ax.set_xticks(range(len(kinds)), kinds)
    ax.set_yticks(range(len(labels)), labels)
    for i in range(len(labels)):
        for j in range(len(kinds)):
            v = M[i, j]
            if np.isnan(v):
                continue
            # dark text on the light (low-error, yellow) end of viridis_r, white on the dark end
            light = np.isfinite(v) and (v - lo) <= 0.5 * (hi - lo)
            text = "div." if v == math.inf else f"{v + 0.0:.1f}".replace("-0.0", "0.0")
            ax.text(j, i, text, ha="center", va="center", color="k" if light else "w", fontsize=8)
    fig.colorbar(im, ax=ax, label=r"mean$_\alpha$ log$_{10}$ median RelMSE")
    ax.set_title(title or "approximation error by memory type")
    return finish(fig, path)


def plot_learning_curves(rows: list[dict], path: str | Path | None = None, *, title: str = "", ax=None):
    """Minibatch RelMSE against step for every run (one colour per architecture): optimisation dynamics."""
    as_instance("title", title, str, "str")
    _check_rows(rows, ())
    rows = [dict(r, label=_label(r)) for r in rows if r.get("curve_steps")]
    labels = list(dict.fromkeys(r["label"] for r in rows))
    colours = pyplot().rcParams["axes.prop_cycle"].by_key()["color"]
    fig, ax = panels(ax, figsize=(5, 3.4))
    for i, lab in enumerate(labels):
        for k, r in enumerate(r for r in rows if r["label"] == lab):
            ax.plot(r["curve_steps"], r["curve_loss"], color=colours[i % len(colours)], alpha=0.6, lw=1,
                    label=lab if k == 0 else None)
    ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel("minibatch RelMSE")
    ax.legend(fontsize=7)
    ax.set_title(title)
    return finish(fig, path)


def plot_convergence(rows: list[dict], conv: dict, keys: tuple[str, ...], path: str | Path | None = None, *,
                     title: str = "", ax=None):
    """Learning curves (mean minibatch RelMSE per logging window) of every seed, one panel per cell (``keys``),
    with the median full-data RelMSE at half and full budget and the cell's converged status
    (``numerics.memory_functions.bench.aggregate.convergence``) in the panel title (red: not converged)."""
    as_instance("title", title, str, "str")
    _check_rows(rows, tuple(_as_list("keys", keys)))
    cells = list(as_instance("conv", conv, dict, "dict (numerics.memory_functions.bench.aggregate.convergence)"))
    ncol = min(6, max(1, len(cells)))
    nrow = max(1, math.ceil(len(cells) / ncol))
    fig, axes = panels(ax, nrow, ncol, figsize=(2.4 * ncol, 1.9 * nrow + 0.4), squeeze=False)
    for ax, c in zip(axes.flat, cells):
        sel = [r for r in rows if tuple(r[k] for k in keys) == c]
        for r in sel:
            if r.get("curve_steps"):
                ax.semilogy(r["curve_steps"], r["curve_loss"], lw=0.6, alpha=0.7)
        v = conv[c]
        steps = max((r.get("half_step") or 0 for r in sel), default=0)   # rows without it (as the siblings accept)
        for x, y in ((steps, v["half"]), (2 * steps, v["full"])):
            if 0 < y < math.inf:
                ax.semilogy([x], [y], "k_", ms=12, mew=2)
        ok = v["converged"]
        ax.set_title(f"{' '.join(str(x) for x in c)}\n{'converged' if ok else 'NOT converged'} "
                     f"(x{v['ratio']:.2g})", fontsize=7, color="black" if ok else "red")
        ax.tick_params(labelsize=6)
    for ax in list(axes.flat)[len(cells):]:
        ax.axis("off")
    if title:
        fig.suptitle(f"{title}: learning curves; bars = median full-data RelMSE at half and full budget", fontsize=9)
    return finish(fig, path)


def plot_polish(rows: list[dict], keys: tuple[str, ...], path: str | Path | None = None, *, title: str = "",
                ax=None):
    """The L-BFGS polish of every seed (full-data RelMSE per iteration, float32 stage dashed, float64 solid),
    one panel per cell (``keys``), titled with the cell's median RelMSE at both budgets (polished, Adam) and
    the number of seeds whose polish passed the flat-floor certificate (a diagnostic)."""
    as_instance("title", title, str, "str")
    keys = tuple(_as_list("keys", keys))
    _check_rows(rows, keys)
    cells: dict[tuple, list[dict]] = {}
    for r in rows:
        if r.get("polish_curve"):
            cells.setdefault(tuple(r[k] for k in keys), []).append(r)
    ncol = min(6, max(1, len(cells)))
    nrow = max(1, math.ceil(len(cells) / ncol))
    fig, axes = panels(ax, nrow, ncol, figsize=(2.4 * ncol, 1.9 * nrow + 0.4), squeeze=False)
    for ax, (c, rs) in zip(axes.flat, cells.items()):
        for r in rs:
            _polish_lines(ax, r["polish_curve"])
        med = lambda col: float(np.median([math.inf if r.get(col) is None else r[col] for r in rs]))  # noqa: E731
        ax.set_title(f"{' '.join(str(x) for x in c)}\npolished {med('floor'):.2g}, Adam {med('relmse'):.2g}, "
                     f"cert {sum(bool(r.get('certified')) for r in rs)}/{len(rs)}", fontsize=7)
        ax.tick_params(which="both", labelsize=6)
    for ax in list(axes.flat)[len(cells):]:
        ax.axis("off")
    if title:
        fig.suptitle(f"{title}: polish (RelMSE per iteration; dashed float32, solid float64, dotted Levenberg-Marquardt)", fontsize=9)
    return finish(fig, path)


def _polish_lines(ax, curve: dict) -> None:
    """Every stage of one polish in order on one iteration axis (each stage's count starts where the previous
    ended): float32 dashed, float64 solid, the Levenberg-Marquardt finish dotted with markers."""
    st = list(curve["stage"])
    it = np.asarray(curve["iter"], dtype=float)
    rel = np.asarray(curve["relmse"], dtype=float)
    style = {"f32": ("--", ""), "f64": ("-", ""), "lm": (":", ".")}
    line, offset, k = None, 0.0, 0
    while k < len(st):
        e = next((j for j in range(k, len(st)) if st[j] != st[k]), len(st))
        ls, marker = style.get(st[k], ("-", ""))
        kw = {"color": line.get_color()} if line is not None else {}
        line, = ax.semilogy(offset + it[k:e], rel[k:e], ls, marker=marker, ms=2, lw=0.7, **kw)
        offset, k = offset + it[e - 1], e
