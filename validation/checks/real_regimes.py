"""Real-weight regimes from the exact rows: ``Q^R / Q^C`` along ``k = c sqrt(n)``.

Paper: M. Seleznova, "How Long Does Infinite Width Last? Signal Propagation in Long-Range Linear
Recurrences", arXiv:2605.05113 (2026), Sec. 2: ``Q^R_{n,k} >= Q_{n,k}`` (real weights carry every complex
pairing plus non-negative extra terms) and the critical curve ``Q -> f(c) = (2/c^2) sinh(c^2/2)`` (complex
weights). The exact rows k <= 60 (``theory/data/real_wick_rows.json``) give ``Q^R / Q^C`` along the rays
``c = 0.5, 1, 2`` at every ``n = (k/c)^2`` (the rows are polynomials), exactly. ``numerics.signal_propagation.real_regimes``
holds the analysis. Rules, fixed before looking at the numbers:

* ``fail`` if any exact ratio is below 1 (the inequality is proved: a violation is a toolkit bug);
* ``pass`` if, in addition, the extrapolated limit of ``Q^R`` along each ray equals ``f(c)`` within 10x the
  extrapolation's error estimate (real weights share the complex critical curve; the ratio tends to 1
  with a ``D(c) / (f(c) sqrt n)`` correction);
* ``inconclusive`` otherwise (the extrapolation from k <= 60 is not proof of a limit).
"""

from __future__ import annotations

import numpy as np

from numerics.plotting import pyplot as _plt, save_figure
from numerics.signal_propagation.real_regimes import real_correction, regimes_data, series_correction
from validation.registry import FAIL, INCONCLUSIVE, PASS, Context, Outcome, check
from validation.report import markdown_table

PAPER = "Seleznova (2026), arXiv:2605.05113, Sec. 2 (real weights) and the critical regime"


def verdict_regimes(data: dict) -> Outcome:
    """The rules of the module docstring on :func:`regimes_data`-shaped input."""
    table = []
    for c, d in data.items():
        (L, eL), (D, eD) = d["limit"], d["D"]
        table.append((c, f"{min(r for *_, r in d['ratios']):.6f}", f"{d['ratios'][-1][2]:.6f}", f"{L:.8g} +- {eL:.1g}",
                      f"{d['f']:.8g}", f"{D:.6g} +- {eD:.1g}", f"{D / d['f']:.6g}", f"{d['series']:.6g}"))
    details = markdown_table(["c", "min Q^R/Q^C", "Q^R/Q^C at k = 60", "lim Q^R (extrapolated)", "f(c)",
                              "D(c) = lim sqrt(n)(Q^R - Q^C)", "D / f (ratio - 1 ~ this / sqrt n)",
                              "series d_2..d_6"], table)
    if not all(d["min_ratio_exact_ge_1"] for d in data.values()):
        return Outcome(FAIL, "an exact ratio Q^R/Q^C < 1: the proved inequality is violated", details=details)
    off = [c for c, d in data.items() if abs(d["limit"][0] - d["f"]) > 10 * d["limit"][1]]
    if off:
        return Outcome(INCONCLUSIVE, f"Q^R >= Q^C holds; the extrapolated limit differs from f(c) at c = {off}",
                       details=details)
    return Outcome(PASS, "Q^R >= Q^C on every ray; Q^R -> f(c) (the complex curve) with a D(c)/sqrt(n) "
                         "correction: " + ", ".join(f"D({c}) = {d['D'][0]:.4g}" for c, d in data.items()),
                   details=details)


def _plot_regimes(path, data: dict) -> None:
    plt = _plt()
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.8))
    for i, (c, d) in enumerate(data.items()):
        n = np.array([r[1] for r in d["ratios"]])
        ratio = np.array([r[2] for r in d["ratios"]])
        a.loglog(n, ratio - 1, "o", ms=3, color=f"C{i}", label=f"c = {c}: exact")
        a.loglog(n, d["D"][0] / d["f"] / np.sqrt(n), "-", lw=0.8, color=f"C{i}", label="D(c) / (f(c) sqrt n)")
    a.set_xlabel("n  (k = c sqrt n, k <= 60)")
    a.set_ylabel("Q^R / Q^C - 1")
    a.legend(fontsize=7)
    cs = np.linspace(0.1, 2.0, 20)
    b.plot(cs, [real_correction(c)[0] for c in cs], "o", ms=3, label="D(c), extrapolated from exact rows")
    b.plot(cs, [series_correction(c) for c in cs], "-", label="series d_2 c^3 + ... + d_6 c^11")
    b.set_yscale("log")
    b.set_xlabel("c")
    b.set_ylabel("D(c)")
    b.legend(fontsize=7)
    save_figure(fig, path)


@check("real.regimes", paper=PAPER,
       claim="Q^R_{n,k} >= Q_{n,k} along k = c sqrt(n) (c = 0.5, 1, 2); the real critical limit and its "
             "1/sqrt(n) correction from the exact rows",
       closed_form="theory.regimes.critical_curve",
       numerics="numerics.signal_propagation.real_regimes.ratio_along_ray (exact rows k <= 60), numerics.signal_propagation.real_regimes.real_correction",
       statistic="exact inequality; extrapolated limit vs f(c) within 10x the extrapolation error estimate")
def _regimes(ctx: Context) -> Outcome:
    data = regimes_data()
    out = verdict_regimes(data)
    path = ctx.figure_path("real_regimes.png")
    _plot_regimes(path, data)
    out.figures = [path.name]
    return out
