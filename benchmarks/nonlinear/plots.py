"""The figure of docs/results/nonlinear-recurrences.md, drawn from the data of breakdown_exponent.py's report."""

from __future__ import annotations

import math

import numpy as np

from numerics.plotting import finish, panels

STYLE = {  # case -> (colour, marker)
    "identity sigma^2=1 free": ("k", "o"), "identity sigma^2=1 driven": ("0.45", "s"),
    "relu sigma^2=2 free": ("C3", "o"), "relu sigma^2=2 driven": ("C1", "s"), "relu sigma^2=1.8 driven": ("C5", "D"),
    "tanh sigma^2=1 free": ("C0", "o"), "tanh sigma^2=1 driven": ("C9", "s"), "tanh sigma^2=0.81 free": ("C2", "^"),
    "tanh sigma^2=1.44 free": ("C4", "v"), "tanh sigma^2=1.44 driven": ("C6", "<"),
}


def _panel_depths(ax, data, tol: float) -> None:
    key = f"tol={tol}"
    ns_all = sorted({int(n) for c in data["cases"] for n in c["widths"]})
    for c in data["cases"]:
        col, mk = STYLE.get(c["case"], ("C7", "x"))
        pts = [(int(n), w[key], w["depth"]) for n, w in c["widths"].items() if w[key]["t_cross"] is not None]
        if not pts:
            continue
        ns = np.array([p[0] for p in pts], float)
        tc = np.array([p[1]["t_cross"] for p in pts])
        lo = np.array([p[1]["cross_lo"] for p in pts])
        hi = np.array([min(p[1]["cross_hi"], p[2]) for p in pts])      # a censored bound: drawn to the last depth
        g = c["exponent"][key]["gamma"]
        lab = c["case"] + (f": gamma = {g:.2f}" if g is not None else "")
        ax.errorbar(ns, tc, [tc - lo, hi - tc], fmt=mk + "-", color=col, ms=4, lw=0.8, capsize=2, label=lab)
        ex = [w[key].get("exact") for w in c["widths"].values()]
        if all(e is not None and e["t_cross"] is not None for e in ex):
            ax.plot([int(n) for n in c["widths"]], [e["t_cross"] for e in ex], "+", color=col, ms=9, mew=1.2)
    x = np.array([ns_all[0], ns_all[-1]], float)
    ax.plot(x, 1.0 * np.sqrt(x), "k:", lw=0.8, label="n^(1/2) (guide)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("width n")
    ax.set_ylabel(f"crossing depth t_c (tol = {tol})")
    ax.set_title(f"breakdown depth, tol = {tol} (+: exact, identity; bars: 95%, to the last depth if censored)",
                 fontsize=8)
    ax.legend(fontsize=5.5, loc="upper left")


def _panel_profiles(ax, data, n: int) -> None:
    for c in data["cases"]:
        w = c["widths"].get(str(n))
        if w is None:
            continue
        col, mk = STYLE.get(c["case"], ("C7", "x"))
        d, s = np.array(w["deviation"]), np.array(w["se"])
        t = np.arange(d.size)
        keep = np.abs(d) < 2
        ax.plot(t[keep] / math.sqrt(n), d[keep], "-", color=col, lw=1, label=c["case"])
        ax.fill_between(t[keep] / math.sqrt(n), (d - 2 * s)[keep], (d + 2 * s)[keep], color=col, alpha=0.2, lw=0)
    for y in (-0.1, -0.05, 0.05, 0.1):
        ax.axhline(y, color="k", lw=0.5, ls="--")
    ax.set_xlim(0, 3)
    ax.set_ylim(-0.15, 0.5)
    ax.set_xlabel("t / sqrt(n)")
    ax.set_ylabel("E||h_t||^2 / (n q_t) - 1  (band: 2 se)")
    ax.set_title(f"deviation profiles at n = {n}", fontsize=9)
    ax.legend(fontsize=5.5, loc="upper left")


def _panel_first_correction(ax, data) -> None:
    cases = sorted({r["case"] for r in data["first_correction"]})
    for c in cases:
        rows = [r for r in data["first_correction"] if r["case"] == c]
        col, mk = STYLE.get(c, ("C7", "x"))
        t = np.array([r["t"] for r in rows])
        ax.errorbar(t, [r["b"] for r in rows], [2 * r["b_se"] for r in rows], fmt=mk, color=col, ms=4, capsize=2,
                    label=f"{c}: b_t (MC, n = 64..512)")
        if rows[0]["derived_c"] is not None:
            ax.plot(t, [r["derived_c"] for r in rows], "-", color=col, lw=1, label=f"{c}: derived c_t")
    ax.axhline(0, color="k", lw=0.5)
    ax.set_yscale("symlog", linthresh=1)
    ax.set_xlabel("depth t")
    ax.set_ylabel("coefficient of 1/n")
    ax.set_title("first finite-width correction (bars: 2 se)", fontsize=9)
    ax.legend(fontsize=5.5, loc="upper left")


def _panel_late(ax, data) -> None:
    rows = data["late_deviation_tanh_1.2"]
    for c in dict.fromkeys(r["case"] for r in rows):
        sel = [r for r in rows if r["case"] == c]
        col, mk = STYLE.get(c, ("C7", "x"))
        for k, ls in enumerate((":", "--", "-")):
            w = [r["windows"][k] for r in sel]
            ax.errorbar([r["n"] for r in sel], [x["mean"] for x in w], [2 * x["se"] for x in w], fmt=mk + ls,
                        color=col, ms=3, capsize=2, lw=0.8, label=f"{c}: t = {w[0]['t'][0]}..{w[0]['t'][1]}")
    for y in (0.05, 0.1):
        ax.axhline(y, color="k", lw=0.5, ls="--")
    ax.axhline(0, color="k", lw=0.5)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("width n")
    ax.set_ylabel("mean deviation over the window")
    ax.set_title("chaotic phase (tanh, sigma = 1.2): late deviation, still creeping up at large n", fontsize=9)
    ax.legend(fontsize=5.5)


def plot_breakdown(data: dict, path=None, *, ax=None):
    """Six panels: t_c(n) at both tolerances, the deviation profiles at n = 256 and 4096, the first correction,
    the chaotic phase's late deviation. ``ax``: six Axes, or None."""
    fig, axes = panels(ax, 3, 2, figsize=(12, 14))
    a = np.ravel(axes)
    _panel_depths(a[0], data, 0.05)
    _panel_depths(a[1], data, 0.1)
    _panel_profiles(a[2], data, 256)
    _panel_profiles(a[3], data, 4096)
    _panel_first_correction(a[4], data)
    _panel_late(a[5], data)
    fig.tight_layout()
    return finish(fig, path)
