"""Figures of stored gated-RNN diagnoses (records of :func:`numerics.anticollapse.spectra.diagnosis_record`).

Plot functions take ``ax=`` (drawn there when given) and return the figure (``numerics.plotting``); no backend
is ever selected.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from numerics.plotting import finish, panels
from theory._args import as_instance

__all__ = ["plot_spectra"]


def plot_spectra(path: str | Path | None, finals: dict, *, ax=None):
    """Three panels of final diagnoses: (a) the tau CCDFs with the tail window's upper end (dotted) and the
    longest envelope lag (dashed), the resolution check; (b) the measured envelopes, each gate's window
    shaded; (c) the beta intervals (tail o, envelope s, calibrated ^) and each model's phase.

    ``finals``: label -> diagnosis record; ``ax``: three Axes, or None for a new figure; saved to ``path``
    unless it is None. Returns the figure."""
    as_instance("finals", finals, dict, "dict label -> diagnosis record")
    if not finals:
        raise ValueError("finals is empty: nothing to plot")
    fig, ax = panels(ax, 1, 3, figsize=(16, 4.5))
    for i, (label, rec) in enumerate(finals.items()):
        s = rec["summary"]
        tau = np.sort(np.asarray(rec["tau"], dtype=np.float64))
        tau = tau[np.isfinite(tau)]
        line, = ax[0].loglog(tau, 1.0 - np.arange(tau.size) / max(tau.size, 1), ".-", ms=3, label=label)
        col = line.get_color()
        ax[0].axvline(s["tau_tail_hi"], color=col, ls=":", lw=1)
        ax[1].loglog(rec["envelope_lags"], rec["envelope_measured"], "-", color=col,
                     label=f"{label}: {s.get('envelope_model', '-')}")
        if s.get("envelope_window_points"):
            ax[1].axvspan(*s["envelope_window"], color=col, alpha=0.12)
        _beta_bars(ax[2], i, s, col)
    lag_max = max(rec["summary"]["lag_max"] for rec in finals.values())
    ax[0].axvline(lag_max, color="k", ls="--", lw=1, label=f"longest envelope lag {lag_max:.0f}")
    ax[0].set(xlabel="tau_q", ylabel="P(tau > x)", title="spectra; dotted: tail window end (resolution)")
    ax[1].set(xlabel="lag l", ylabel="f(l) (mu0)", title="envelope; shaded: the gate's window (l <= l*)",
              ylim=(1e-6, 1.5))
    ax[2].axhline(1.0, color="k", lw=0.8)
    ax[2].set(xticks=range(len(finals)), ylabel="beta", yscale="log",
              title="90% intervals: tail (o), envelope (s), calibrated (^)")
    ax[2].set_xticklabels([f"{k}\n{r['summary']['phase']}\n"
                           f"{'resolved' if r['summary']['resolved'] else 'NOT resolved'}" for k, r in finals.items()],
                          fontsize=8)
    for a in ax[:2]:
        a.legend(fontsize=7)
    return finish(fig, path)


def _beta_bars(ax, i: int, s: dict, col) -> None:
    items = []
    if "beta_tail" in s:
        items.append((-0.2, s["beta_tail"], s["beta_tail_ci"], "o"))
    if "beta_env_ci" in s:                       # the calibrated tail-vs-envelope comparison was made
        items += [(0.0, s["beta_env"], s["beta_env_ci"], "s"),
                  (0.2, s["beta_env_calibrated"], s["beta_env_calibrated_ci"], "^")]
    for dx, b, ci, m in items:
        lo, hi, b = max(ci[0], 1e-3), max(ci[1], 1e-3), max(b, 1e-3)
        ax.errorbar(i + dx, b, yerr=[[b - lo], [hi - b]], fmt=m, color=col)
