"""Real-weight energies at any depth: the exact coefficients, the expansion and its error estimate, the breakdown law.

Paper: M. Seleznova, "How Long Does Infinite Width Last?", arXiv:2605.05113 (2026), Sec. 2: real weights, of
which the paper states only ``Q^R >= Q``. The expansion, its coefficients and the breakdown law are the
toolkit's own (``theory.real_expansion``; ``docs/results/real-weight-expansion.md``), verified here, not proved.
Rules, fixed before looking at the numbers:

* ``real.expansion_coefficients``: ``fail`` unless every committed ``a_m`` (m = 2..15) equals a fresh exact
  fit on its fit rows and reproduces every row up to k = 80 (the held-out ones included; rows 61..80 are the
  verification set, computed after the fits);
* ``real.scaling_functions``: ``fail`` unless the Taylor coefficients of ``F_0`` equal those of the complex
  critical curve ``(2/c^2) sinh(c^2/2)`` and those of ``F_1`` minus the complex correction equal the ``d_h`` that
  ``numerics.signal_propagation.real_regimes`` fitted independently on the rows k <= 30;
* ``real.expansion_rows``: ``fail`` if at any of the compared points (k = 41..80, widths where the expansion
  serves) the actual error exceeds the stated error estimate; for ``Q`` and ``S``, with all coefficients
  (m <= 15; rows 61..80 are held out for them) and with only those fitted on rows k <= 40 (m <= 11);
* ``real.expansion_mc``: ``fail`` if ``|expansion - MC| > error + z se`` at any compared depth beyond the rows
  (se from the same run, Bonferroni z at family false-alarm rate 1e-6, z >= 4.5); the issue's points
  (256, 100), (1024, 200), (4096, 300) lie outside the expansion's domain and must be refused (ValueError):
  ``fail`` if one is served;
* ``real.breakdown``: ``fail`` if the real breakdown depth ``t*_R(n)`` minus the crossing ``c_0 sqrt n + delta_R +
  delta_2 / sqrt n`` leaves ``[-1/4, 5/4]`` at any of the widths 10^4..10^8 (the first integer past the
  crossing, plus a margin for the ``O(1/n)`` terms), or if Monte Carlo at ``t*_R - 1`` and ``t*_R`` (n = 1024)
  disagrees with the expansion (the z rule above). (A first version of this rule, without ``delta_2`` and with
  the margin ``[-1/2, 3/2]``, failed at n = 10^4, where ``delta_2 / sqrt n = 1.9`` at tol = 0.95: the second
  correction is needed there.)
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import mpmath
import numpy as np

from numerics.plotting import finish, panels
from numerics.signal_propagation.real_energy_mc import real_energy_mc
from numerics.signal_propagation.real_regimes import CORRECTION_SERIES
from theory import real_expansion as rx
from theory.real_rows import real_row, real_rows_max_k, verification_rows
from theory.regimes import critical_correction
from theory.signal_energy import Q as complex_Q
from validation.registry import FAIL, PASS, Context, Outcome, check, with_figure
from numerics.stats import z_for_false_alarm
from validation.report import markdown_table

PAPER = "Seleznova (2026), arXiv:2605.05113, Sec. 2 (real weights; the expansion is the toolkit's)"
ISSUE_POINTS = ((256, 100), (1024, 200), (4096, 300))


# --------------------------------------------------------------------------------------------------
# pure verdicts
# --------------------------------------------------------------------------------------------------
def verdict_coefficients(records: list[dict]) -> Outcome:
    """``records``: per m, ``{"m", "refit_equal", "bad_rows", "fit_rows", "verified_rows"}``. PASS iff every refit
    equals the committed coefficient and no row disagrees."""
    bad = [r["m"] for r in records if not r["refit_equal"] or r["bad_rows"]]
    table = [(r["m"], f"{r['fit_rows'][0]}..{r['fit_rows'][1]}", f"{r['verified_rows'][0]}..{r['verified_rows'][1]}",
              r["verified_rows"][1] - r["verified_rows"][0] + 1, "yes" if r["refit_equal"] else "NO",
              ", ".join(map(str, r["bad_rows"][:5])) or "none") for r in records]
    details = markdown_table(["m", "fitted on rows", "verified on rows", "held out", "refit = committed",
                              "rows that disagree"], table)
    if bad or not records:
        return Outcome(FAIL, f"coefficients a_m disagree with their fit or their rows at m = {bad}", details=details)
    held = min(r["verified_rows"][1] - r["verified_rows"][0] + 1 for r in records)
    return Outcome(PASS, f"a_2..a_{records[-1]['m']}: each refit from its fit rows equals the committed one and "
                         f"reproduces every held-out row up to k = {records[-1]['verified_rows'][1]} "
                         f"(at least {held} held out)", details=details)


def verdict_scaling(f0_pairs: list, d_pairs: list) -> Outcome:
    """``f0_pairs``: ``(p, [c^p]F_0, [c^p] of the complex curve)``; ``d_pairs``: ``(h, [c^(2h-1)](F_1 - g),
    d_h of numerics.signal_propagation.real_regimes)``. PASS iff every pair is equal (exact rationals)."""
    bad0 = [p for p, a, b in f0_pairs if a != b]
    badd = [h for h, a, b in d_pairs if a != b]
    details = (markdown_table(["p", "[c^p] F_0 (real)", "[c^p] (2/c^2) sinh(c^2/2)"], [(p, str(a), str(b)) for p, a, b in f0_pairs])
               + "\n\n" + markdown_table(["h", "[c^(2h-1)] (F_1 - g), from a_m", "d_h (rows k <= 30, numerics.signal_propagation.real_regimes)"],
                                         [(h, str(a), str(b)) for h, a, b in d_pairs]))
    if bad0 or badd or not f0_pairs or not d_pairs:
        return Outcome(FAIL, f"scaling-function coefficients disagree: F_0 at c^{bad0}, F_1 - g at h = {badd}",
                       details=details)
    return Outcome(PASS, f"F_0 = (2/c^2) sinh(c^2/2) on all its known Taylor coefficients (c^0..c^{len(f0_pairs) - 1}); F_1 - g equals the "
                         f"independent d_2..d_{d_pairs[-1][0]}", details=details)


def verdict_expansion_rows(cases: list[tuple]) -> Outcome:
    """``cases``: ``(label, n, k, value, error, exact)``. PASS iff ``|value - exact| <= error`` at every case."""
    if not cases:
        return Outcome(FAIL, "no case compared")
    ratio = np.array([abs(v - x) / e if e > 0 else (0.0 if v == x else math.inf) for _, _, _, v, e, x in cases])
    worst = {}
    for (label, n, k, v, e, x), r in zip(cases, ratio):
        if label not in worst or r > worst[label][0]:
            worst[label] = (r, n, k, v, e, x)
    table = [(label, sum(1 for c in cases if c[0] == label), f"{r:.3f}", n, k, f"{k / math.sqrt(n):.2f}",
              f"{e / abs(x):.2e}") for label, (r, n, k, v, e, x) in worst.items()]
    details = markdown_table(["expansion", "points", "max actual/estimated error", "at n", "k", "c",
                              "relative error estimate there"], table)
    ok = bool(np.all(ratio <= 1.0))
    return Outcome(PASS if ok else FAIL,
                   f"{len(cases)} points (k = 41..80): largest actual/estimated error {ratio.max():.3f}"
                   + ("" if ok else ": the error estimate is exceeded"),
                   details=details, data={"max_ratio": float(ratio.max()), "points": len(cases)})


def verdict_expansion_mc(cases: list[tuple], refused: list[tuple]) -> Outcome:
    """``cases``: ``(n, t, quantity, value, error, mc, se, complex value)``; ``refused``: ``(n, t, served)`` for the
    points outside the domain. PASS iff every ``|value - mc| <= error + z se`` (Bonferroni z) and no outside point
    is served."""
    z = z_for_false_alarm(m=max(1, len(cases)))
    rows, bad = [], []
    for n, t, q, v, e, mc, se, vc in cases:
        dev = abs(v - mc)
        if dev > e + z * se:
            bad.append((n, t, q))
        rows.append((n, t, q, f"{v:.6g}", f"{e:.1e}", f"{mc:.6g}", f"{se:.3g}", f"{(mc - v) / se:+.2f}",
                     f"{(v - vc) / se:.1f}"))
    served = [(n, t) for n, t, s in refused if s]
    details = markdown_table(["n", "t", "quantity", "expansion", "its error", "MC", "se", "z", "(real - complex) / se"],
                             rows)
    details += "\n\nOutside the domain (refused with a ValueError): " + ", ".join(
        f"(n, t) = ({n}, {t}), c = {t / math.sqrt(n):.2f}: {'SERVED' if s else 'refused'}" for n, t, s in refused)
    if bad or served or not cases:
        return Outcome(FAIL, f"expansion vs Monte Carlo: disagreement at {bad}; outside points served: {served}",
                       details=details)
    zmax = max(abs(mc - v) / se for _, _, _, v, _, mc, se, _ in cases)
    return Outcome(PASS, f"{len(cases)} comparisons beyond the rows (z = {z:.2f}): max |z| = {zmax:.2f}; the "
                         f"issue's points {[p[:2] for p in refused]} are outside the domain and refused",
                   details=details, data={"max_abs_z": zmax, "z": z})


def verdict_breakdown(law_rows: list[tuple], _mc_cases: list[tuple]) -> Outcome:
    """``law_rows``: ``(n, t*_R, c_0 sqrt(n) + delta_R + delta_2 / sqrt(n), t*_C, c_0 sqrt(n) + delta_C)``;
    ``_mc_cases``: ``(n, t, value, error, mc, se, 1 + tol)``. PASS iff every ``t*_R`` minus its crossing lies in
    ``[-1/4, 5/4]`` and every Monte Carlo value agrees with the expansion (Bonferroni z)."""
    off = [n for n, t, pred, _, _ in law_rows if not -0.25 <= t - pred <= 1.25]
    z = z_for_false_alarm(m=max(1, len(_mc_cases)))
    bad = [(n, t) for n, t, v, e, mc, se, _ in _mc_cases if abs(v - mc) > e + z * se]
    details = markdown_table(["n", "t*_R (exact rows / expansion)", "c_0 sqrt n + delta_R + delta_2 / sqrt n", "t*_C (complex)",
                              "c_0 sqrt n + delta_C"], [(n, t, f"{p:.3f}", tc, f"{pc:.3f}") for n, t, p, tc, pc in law_rows])
    details += "\n\n" + markdown_table(["n", "t", "Q^R (expansion)", "error", "MC", "se", "z", "1 + tol"],
                                       [(n, t, f"{v:.6g}", f"{e:.1e}", f"{mc:.6g}", f"{se:.3g}", f"{(mc - v) / se:+.2f}",
                                         f"{thr:.4g}") for n, t, v, e, mc, se, thr in _mc_cases])
    if off or bad or not law_rows:
        return Outcome(FAIL, f"breakdown law off at n = {off}; Monte Carlo disagrees at {bad}", details=details)
    return Outcome(PASS, f"t*_R(n) = ceil(c_0 sqrt n + delta_R + delta_2/sqrt n) at n = 1e4..1e8; real weights break "
                         f"down {law_rows[-1][4] - law_rows[-1][2]:.2f} steps before complex ones at large n; Monte Carlo "
                         "agrees at the crossing", details=details)


# --------------------------------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def all_rows() -> dict:
    """The served rows (k <= 60) and the verification set (61..80)."""
    rows = {k: real_row(k) for k in range(real_rows_max_k() + 1)}
    rows.update(verification_rows())
    return rows


def _exact_energy(n: int, k: int, quantity: str = "Q") -> float:
    """``Q^R_{n,k}`` or ``S^R_{n,k}`` from the exact rows (verification rows included), as a float."""
    rows = all_rows()

    def q(j):
        return Fraction(sum(c * n**i for i, c in enumerate(rows[j])), n ** (j + 1))
    return float(q(k) if quantity == "Q" else sum((q(j) for j in range(k + 1)), Fraction(0)))


def _coefficient_records(m_max: int = rx.M_MAX) -> list[dict]:
    """Refit every committed ``a_m`` (m = 2..m_max) from its fit rows and compare it with every row <= 80."""
    rows = all_rows()
    K = max(rows)
    out = []
    for m in range(2, m_max + 1):
        rec = rx.coefficient_record(m)
        lo, hi = rec["fit_rows"]
        refit = rx.fit_coefficient(m, rows, range(lo, hi + 1))
        A, B = rx.coefficient(m)
        bad = [k for k in range(K + 1) if rx.coefficient_value(m, k) != rx._row_coefficient(rows, m, k)]
        out.append({"m": m, "refit_equal": refit == (A, B), "bad_rows": bad, "fit_rows": rec["fit_rows"],
                    "verified_rows": rec["verified_rows"]})
    return out


def _scaling_pairs() -> tuple[list, list]:
    """(F_0 against the complex curve, F_1 - g against numerics.signal_propagation.real_regimes' d_h), exact rationals."""
    f0 = rx.scaling_series(0)
    curve = [Fraction(1, 2 ** (p // 2) * math.factorial(p // 2 + 1)) if p % 4 == 0 else Fraction(0)
               for p in range(len(f0))]               # (2/c^2) sinh(c^2/2) = sum_j (c^2/2)^(2j) / (2j+1)!
    f1 = rx.scaling_series(1)
    # g(c) = (3/c)(cosh y - sinh(y)/y) - (c/3) sinh y, y = c^2/2: its coefficients of c^(2h-1), exactly
    g = {}
    for j in range(1, 20):                               # (3/c) * 2j y^(2j) / (2j+1)!  ->  c^(4j-1)
        g[4 * j - 1] = g.get(4 * j - 1, Fraction(0)) + Fraction(3 * 2 * j, 2 ** (2 * j) * math.factorial(2 * j + 1))
    for j in range(0, 20):                               # -(c/3) y^(2j+1) / (2j+1)!  ->  c^(4j+3)
        g[4 * j + 3] = g.get(4 * j + 3, Fraction(0)) - Fraction(1, 3 * 2 ** (2 * j + 1) * math.factorial(2 * j + 1))
    d_pairs = [(h, f1[2 * h - 1] - g.get(2 * h - 1, Fraction(0)), d) for h, d in sorted(CORRECTION_SERIES.items())]
    return [(p, f0[p], curve[p]) for p in range(len(f0))], d_pairs


def _rows_cases(ks=range(41, 81), cs=tuple(np.round(np.arange(0.2, 3.3, 0.15), 2))) -> list[tuple]:
    """The expansion's value and error estimate against exact rows: ``(label, n, k, value, error, exact)`` at the
    widths ``n = round((k/c)^2)`` where the expansion serves (rho <= 1/2, relative error estimate <= 1e-2)."""
    cases = []
    for k in ks:
        for c in cs:
            n = max(1, round((k / c) ** 2))
            for m_top in (rx.M_MAX, 11):
                if float(rx._rho(n, k, m_top)) > rx.RHO_MAX:
                    continue
                v, e = rx.truncated_expansion(n, k, quantity="Q", m_top=m_top)
                exact = _exact_energy(n, k)
                if e <= rx.REL_ERROR_MAX * abs(v):
                    cases.append((f"Q, m <= {m_top} (a_m fitted on rows <= {rx.coefficient_record(m_top)['fit_rows'][1]})",
                                  n, k, v, e, exact))
                v, e = rx.truncated_expansion(n, k, quantity="S", m_top=m_top, base=40)
                base = _exact_energy(n, 40, "S")
                exact = _exact_energy(n, k, "S")
                if e <= rx.REL_ERROR_MAX * abs(v + base):
                    cases.append((f"S from the exact S at 40, m <= {m_top}", n, k, v + base, e, exact))
    return cases


MC_N, MC_T = 1024, 66          # c = t / sqrt(n) <= 2.06: beyond the rows, inside the expansion's domain


@functools.lru_cache(maxsize=2)
def _mc_run(draws: int, seed: int):
    """One Monte Carlo run at (MC_N, MC_T) shared by real.expansion_mc and real.breakdown."""
    return real_energy_mc(MC_N, MC_T, draws, seed=seed, progress=False)


def _mc_cases(est, ts) -> list[tuple]:
    """Expansion (beyond the rows) against a Monte Carlo run ``est`` (:class:`numerics.signal_propagation.real_energy_mc.RealEnergyMC`):
    ``(n, t, quantity, value, error, mc, se, complex value)`` for Q and S at each depth in ``ts``."""
    n = est.n
    out = []
    for t in ts:
        q, s = rx.QR(n, t), rx.SR(n, t)
        qc = float(complex_Q(n, t))
        sc = sum(float(complex_Q(n, k)) for k in range(t + 1))
        out.append((n, t, "Q", q.value, q.error, float(est.Q_mean[t]), float(est.Q_se[t]), qc))
        out.append((n, t, "S", s.value, s.error, float(est.S_mean[t]), float(est.S_se[t]), sc))
    return out


def _refused_points() -> list[tuple]:
    """The issue's Monte Carlo points: ``(n, t, served)`` (served is True if QR returns instead of refusing)."""
    out = []
    for n, t in ISSUE_POINTS:
        try:
            rx.QR(n, t)
            out.append((n, t, True))
        except ValueError:
            out.append((n, t, False))
    return out


def _breakdown_rows(tol: float, ns=(10**4, 10**5, 10**6, 10**7, 10**8)) -> list[tuple]:
    """``(n, t*_R, c_0 sqrt n + delta_R + delta_2 / sqrt n, t*_C, c_0 sqrt n + delta_C)`` over the widths ``ns``."""
    from theory.regimes import breakdown_depth
    law = rx.breakdown_law(tol)
    return [(n, rx.real_breakdown_depth(n, tol),
             law["c0"] * math.sqrt(n) + law["delta_real"] + law["delta2_real"] / math.sqrt(n),
             breakdown_depth(n, tol, quantity="Q"), law["c0"] * math.sqrt(n) + law["delta_complex"]) for n in ns]


# --------------------------------------------------------------------------------------------------
# figures
# --------------------------------------------------------------------------------------------------
def _plot_expansion_rows(path, cases, *, ax=None):
    """Actual against estimated error of the expansion at k = 41..80, one marker series per expansion."""
    fig, ax = panels(ax, figsize=(6.5, 4))
    for i, label in enumerate(sorted({c[0] for c in cases})):
        sel = [c for c in cases if c[0] == label and c[4] > 0 and c[3] != c[5]]
        ax.loglog([c[4] for c in sel], [abs(c[3] - c[5]) for c in sel], ".", ms=3, color=f"C{i}", label=label)
    lims = ax.get_xlim()
    ax.plot(lims, lims, "k-", lw=0.8, label="actual = estimated")
    ax.set_xlabel("estimated error")
    ax.set_ylabel("actual error (exact rows k = 41..80)")
    ax.legend(fontsize=7)
    return finish(fig, path)


def plot_real_curves(path=None, *, ax=None, k: int = 60):
    """The real and complex critical curves and their first corrections (two panels).

    Left: exact ``Q^R_{n,k}`` and ``Q_{n,k}`` along ``n = round((k/c)^2)`` for ``k = 20`` and ``k`` (the rows) against
    the common curve ``F_0(c) = (2/c^2) sinh(c^2/2)``. Right: the first corrections ``F_1`` (real, its exact
    series) and ``g`` (complex, :func:`theory.regimes.critical_correction`) with the exact ``sqrt(n) (Q - F_0)`` at
    depth ``k``, and the leading growth ``int_0^c e^{u^2} du`` of ``F_1``. ``ax``: two Axes, or None.
    """
    from theory.regimes import critical_curve
    fig, (a, b) = panels(ax, 1, 2, figsize=(11, 4))
    cs = np.linspace(0.05, 2.2, 200)
    a.plot(cs, critical_curve(cs), "k--", lw=2, label=r"$F_0(c) = (2/c^2)\sinh(c^2/2)$ (both)")
    grid = np.linspace(0.1, 2.2, 22)
    for i, kk in enumerate((20, k)):
        ns = sorted({max(1, round((kk / c) ** 2)) for c in grid})
        c_exact = np.array([kk / math.sqrt(n) for n in ns])
        a.plot(c_exact, [float(rx._exact_row_energy(n, kk, "Q")) for n in ns], "o", ms=4, color=f"C{i}",
               label=f"real $Q^R_{{n,k}}$, k = {kk} (exact rows)")
        a.plot(c_exact, [float(complex_Q(n, kk)) for n in ns], "s", ms=3, mfc="none", color=f"C{i}",
               label=f"complex $Q_{{n,k}}$, k = {kk}")
    a.set_yscale("log")
    a.set_xlabel(r"$c = k/\sqrt{n}$")
    a.set_ylabel("signal energy")
    a.set_title("one critical curve for real and complex weights", fontsize=9)
    a.legend(fontsize=7)
    b.plot(cs, rx.scaling_function(1, cs), "C3-", label=r"real $F_1$ (exact series)")
    b.plot(cs, critical_correction(cs), "C0-", label=r"complex $g$")
    erfi = np.array([float(mpmath.quad(lambda u: mpmath.e ** (u * u), [0, c])) for c in cs])
    b.plot(cs, erfi, "C3:", label=r"$\int_0^c e^{u^2} du$ (leading growth of $F_1$)")
    ns = sorted({max(1, round((k / c) ** 2)) for c in grid})
    c_exact = np.array([k / math.sqrt(n) for n in ns])
    f0 = critical_curve(c_exact)
    b.plot(c_exact, [math.sqrt(n) * (float(rx._exact_row_energy(n, k, "Q")) - f) for n, f in zip(ns, f0)], "C3o",
           ms=4, label=rf"real $\sqrt{{n}}(Q^R - F_0)$, k = {k}")
    b.plot(c_exact, [math.sqrt(n) * (float(complex_Q(n, k)) - f) for n, f in zip(ns, f0)], "C0s", ms=3, mfc="none",
           label=rf"complex $\sqrt{{n}}(Q - F_0)$, k = {k}")
    b.set_yscale("log")
    b.set_xlabel(r"$c = k/\sqrt{n}$")
    b.set_ylabel(r"first correction (coefficient of $n^{-1/2}$)")
    b.set_title(r"real weights: a larger $n^{-1/2}$ correction, growing like $e^{c^2}$", fontsize=9)
    b.legend(fontsize=7)
    return finish(fig, path)


# --------------------------------------------------------------------------------------------------
# the checks
# --------------------------------------------------------------------------------------------------
@check("real.expansion_coefficients", paper=PAPER,
       claim="a_m(k), the coefficient of n^(k+1-m) in E tr((G^k)^T G^k), is a quasi-polynomial A_m(k) + (-1)^k B_m(k) "
             "(deg A_m = 2m or 2m-1, deg B_m = 2m-4), m = 2..15, determined by its fit rows and verified on every "
             "other row up to k = 80",
       closed_form="theory.real_expansion.coefficient",
       numerics="theory.real_expansion.fit_coefficient on theory/data/real_wick_rows.json and the verification "
                "rows 61..80 (theory/data/real_wick_rows_verification.json)",
       statistic="exact rational equality")
def _coefficients(ctx: Context) -> Outcome:
    return verdict_coefficients(_coefficient_records())


@check("real.scaling_functions", paper=PAPER,
       claim="the real critical curve F_0 equals the complex (2/c^2) sinh(c^2/2); F_1 minus the complex correction g "
             "has the coefficients d_h fitted independently on the rows k <= 30",
       closed_form="theory.real_expansion.scaling_series",
       numerics="numerics.signal_propagation.real_regimes.CORRECTION_SERIES; theory.regimes.critical_curve",
       statistic="exact rational equality of Taylor coefficients")
def _scaling(ctx: Context) -> Outcome:
    return with_figure(ctx, verdict_scaling(*_scaling_pairs()), "real_curves.png", plot_real_curves)


@check("real.expansion_rows", paper=PAPER,
       claim="the large-n expansion's error estimate bounds its actual error against the exact rows k = 41..80 "
             "(Q and S; all coefficients, and only those fitted on rows <= 40)",
       closed_form="theory.real_expansion.truncated_expansion",
       numerics="theory/data/real_wick_rows.json, theory/data/real_wick_rows_verification.json (exact rows k = 41..80)",
       statistic="|expansion - exact| <= stated error at every point")
def _expansion_rows(ctx: Context) -> Outcome:
    cases = _rows_cases()
    return with_figure(ctx, verdict_expansion_rows(cases), "real_expansion_rows.png", _plot_expansion_rows, cases)


@check("real.expansion_mc", paper=PAPER,
       claim="Q^R and S^R from the expansion beyond the exact rows agree with Monte Carlo of real Gaussian weights; "
             "the issue's points (256, 100), (1024, 200), (4096, 300) lie outside the expansion's domain",
       closed_form="theory.real_expansion.QR, theory.real_expansion.SR",
       numerics="numerics.signal_propagation.real_energy_mc.real_energy_mc (n = 1024, t = 61, 63, 66; 320 draws quick, 3200 cpu/full)",
       statistic="|expansion - MC| <= error + z se, se from the same run, Bonferroni z (1e-6 family)")
def _expansion_mc(ctx: Context) -> Outcome:
    est = _mc_run(320 if ctx.profile == "quick" else 3200, ctx.seed + 32)
    return verdict_expansion_mc(_mc_cases(est, (61, 63, 66)), _refused_points())


BREAKDOWN_TOL = 0.95      # c_0 = 2.07: t*_R(1024) = 62, past the exact rows (Q^R_{1024,61} = 1.90, Q^R_{1024,62} = 1.99)


@check("real.breakdown", paper=PAPER,
       claim="the real-weight breakdown depth (first t with Q^R_{n,t} > 1 + tol) is the first integer past "
             "c_0 sqrt(n) + delta_R + delta_2/sqrt(n) + O(1/n): the complex c_0, a constant shift "
             "delta_R = -F_1(c_0)/F_0'(c_0) below the complex one, and a second correction from F_2",
       closed_form="theory.real_expansion.breakdown_law",
       numerics="theory.real_expansion.real_breakdown_depth (exact rows, expansion); numerics.signal_propagation.real_energy_mc at the "
                "crossing (n = 1024: the run of real.expansion_mc)",
       statistic="t*_R - (c_0 sqrt n + delta_R + delta_2/sqrt n) in [-1/4, 5/4]; |expansion - MC| <= error + z se")
def _breakdown(ctx: Context) -> Outcome:
    law_rows = _breakdown_rows(BREAKDOWN_TOL)
    n = MC_N
    t_star = rx.real_breakdown_depth(n, BREAKDOWN_TOL)
    est = _mc_run(320 if ctx.profile == "quick" else 3200, ctx.seed + 32)
    mc = []
    for t in (t_star - 1, t_star):
        q = rx.QR(n, t)
        mc.append((n, t, q.value, q.error, float(est.Q_mean[t]), float(est.Q_se[t]), 1 + BREAKDOWN_TOL))
    return verdict_breakdown(law_rows, mc)
