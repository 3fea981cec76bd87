"""iid weights of any symmetric law: the rows by two routes, the cumulant structure, the energies beyond the rows.

Paper: M. Seleznova, "How Long Does Infinite Width Last?", arXiv:2605.05113 (2026), Sec. 2, whose real weights are
Gaussian; every law here is the toolkit's own extension (``theory.init_laws``; ``docs/results/init-laws.md``),
verified, not proved. Rules, fixed before looking at the numbers:

* ``init_laws.rows``: ``fail`` unless the cumulant route (set partitions of the slots,
  ``numerics.signal_propagation.law_cumulants``) equals the committed shape table at every k it runs (k <= 7 quick,
  k <= 8 otherwise) and the Gaussian specialisation of the table equals the real rows at every committed k;
* ``init_laws.structure``: ``fail`` unless every committed coefficient ``c_{m,mu}`` equals a fresh fit on its fit
  rows and every other row (full rows k <= 12, top rows beyond);
* ``init_laws.expansion_rows``: ``fail`` if the expansion's non-Gaussian part misses the exact rows (k = 8..12,
  widths 2^3..2^20, where the domain rule would serve the point) by more than its error estimate;
* ``init_laws.mc``: ``fail`` if ``|Q_law - MC| > error + z se`` at any compared point beyond the rows (three depths
  per named law; se from the same run, Bonferroni z at family false-alarm rate 1e-6, z >= 4.5), or if Monte Carlo
  at ``n p = 10`` disagrees with the exact rows there; the Monte Carlo values where no theory holds (the sparse law
  at ``n p = 10`` beyond the rows) are reported as measured, and those points must be refused by ``Q_law``.
"""

from __future__ import annotations

import math


from numerics.plotting import finish, panels
from numerics.signal_propagation.ginibre import estimate_Q
from numerics.signal_propagation.law_cumulants import cumulant_counts
from numerics.signal_propagation.real_energy_mc import real_energy_mc
from numerics.stats import z_for_false_alarm
from theory.init_laws import energy as E
from theory.init_laws import structure as S
from theory.init_laws.laws import as_law
from theory.init_laws.rows import cumulant_terms, law_row, law_rows_max_k, terms_in_cumulants
from theory.real_expansion import fit_quasi, quasi_value
from theory.real_rows import real_row
from validation.registry import FAIL, PASS, Context, Outcome, check, with_figure
from validation.report import markdown_table

PAPER = "Seleznova (2026), arXiv:2605.05113, Sec. 2 (Gaussian weights; other laws are the toolkit's)"
# the Monte Carlo points beyond the rows: law -> (n, depths), inside each law's served domain (law_max_depth)
MC_POINTS = {"uniform": (256, (14, 17, 20)), "rademacher": (256, (14, 17, 19)),
             "sparse:0.05": (1024, (14, 20, 26)), "sparse:0.2": (512, (14, 18, 22)),
             "student:100": (256, (14, 17, 19))}
MC_PROBES = 32
SPARSE_NP10 = (200, "sparse:0.05", 8, (16, 24))    # n, law, rows compared (k <= 8), depths measured beyond


# --------------------------------------------------------------------------------------------------
# pure verdicts
# --------------------------------------------------------------------------------------------------
def verdict_rows(records: list[tuple]) -> Outcome:
    """``records``: ``(k, routes_equal or None, gaussian_equal)``. PASS iff every comparison made is equal."""
    bad = [k for k, routes, gauss in records if routes is False or not gauss]
    details = markdown_table(["k", "cumulant route = shape table", "Gaussian = real row"],
                             [(k, "-" if r is None else ("yes" if r else "NO"), "yes" if g else "NO")
                              for k, r, g in records])
    if bad or not records:
        return Outcome(FAIL, f"rows disagree at k = {bad}", details=details)
    both = max(k for k, r, _ in records if r is not None)
    return Outcome(PASS, f"the two routes agree for every k <= {both}; the Gaussian specialisation equals the real rows "
                         f"for every k <= {max(k for k, _, _ in records)}", details=details)


def verdict_structure(records: list[dict]) -> Outcome:
    """``records``: per coefficient ``{"m", "mu", "refit_equal", "bad_rows", "rows"}``. PASS iff each refit equals the
    committed one and no row disagrees."""
    bad = [(r["m"], r["mu"]) for r in records if not r["refit_equal"] or r["bad_rows"]]
    details = markdown_table(["m", "mu", "rows checked", "refit = committed", "rows that disagree"],
                             [(r["m"], str(r["mu"]), r["rows"], "yes" if r["refit_equal"] else "NO",
                               ", ".join(map(str, r["bad_rows"][:5])) or "none") for r in records])
    if bad or not records:
        return Outcome(FAIL, f"structure coefficients disagree at {bad}", details=details)
    return Outcome(PASS, f"{len(records)} coefficients c_(m,mu), m <= {max(r['m'] for r in records)}: each refit equals "
                         f"the committed one and reproduces every row ({sum(r['rows'] for r in records)} values)",
                   details=details)


def verdict_expansion_rows(cases: list[tuple]) -> Outcome:
    """``cases``: ``(law, quantity, n, k, value, exact, error)`` at the served points. PASS iff ``|value - exact| <=
    error`` at every one (and there are some)."""
    bad = [(law, q, n, k) for law, q, n, k, v, x, e in cases if abs(v - x) > e]
    worst = max((abs(v - x) / e for *_, v, x, e in cases if e > 0), default=math.inf)
    by_law: dict = {}
    for law, q, n, k, v, x, e in cases:
        by_law.setdefault((law, q), []).append(abs(v - x) / e if e > 0 else 0.0)
    details = markdown_table(["law", "quantity", "points", "largest |actual| / estimate"],
                             [(law, q, len(r), f"{max(r):.3f}") for (law, q), r in sorted(by_law.items())])
    if bad or not cases:
        return Outcome(FAIL, f"the error estimate is exceeded at {bad[:6]}", details=details)
    return Outcome(PASS, f"{len(cases)} served points (k = 8..12, n = 2^3..2^20): the actual error of the "
                         f"non-Gaussian part never exceeds its estimate (largest ratio {worst:.3f})", details=details,
                   data={"worst_ratio": worst})


def verdict_mc(cases: list[tuple], rows_cases: list[tuple], measured: list[tuple]) -> Outcome:
    """``cases``: ``(law, n, k, value, error, mc, se)`` beyond the rows; ``rows_cases``: ``(law, n, k, exact, mc, se)``
    at ``n p = 10`` on the rows; ``measured``: ``(law, n, k, mc, se, refused)``. PASS iff every comparison holds
    (``|value - mc| <= error + z se``, Bonferroni z over all of them) and every measured point is refused by Q_law."""
    z = z_for_false_alarm(m=max(1, len(cases) + len(rows_cases)))
    bad = [(law, n, k) for law, n, k, v, e, mc, se in cases if abs(v - mc) > e + z * se]
    bad += [(law, n, k) for law, n, k, x, mc, se in rows_cases if se > 0 and abs(x - mc) > z * se]
    served = [(law, n, k) for law, n, k, mc, se, refused in measured if not refused]
    details = markdown_table(["law", "n", "k", "Q_law", "error", "MC", "se", "z"],
                             [(law, n, k, f"{v:.6g}", f"{e:.1e}", f"{mc:.6g}", f"{se:.2g}", f"{(mc - v) / se:+.2f}")
                              for law, n, k, v, e, mc, se in cases])
    details += "\n\nn p = 10, on the exact rows:\n\n" + markdown_table(
        ["law", "n", "k", "exact", "MC", "se", "z"],
        [(law, n, k, f"{x:.6g}", f"{mc:.6g}", f"{se:.2g}", f"{(mc - x) / se:+.2f}" if se > 0 else "exact")
         for law, n, k, x, mc, se in rows_cases])
    details += "\n\nMeasured where no theory holds (Q_law refuses these points):\n\n" + markdown_table(
        ["law", "n", "k", "MC (measured)", "se", "Q_law"],
        [(law, n, k, f"{mc:.6g}", f"{se:.2g}", "refused" if r else "SERVED") for law, n, k, mc, se, r in measured])
    if bad or served or not cases:
        return Outcome(FAIL, f"Monte Carlo disagrees at {bad}; points without theory served: {served}", details=details)
    zmax = max(abs(mc - v) / se for *_, v, e, mc, se in cases)
    return Outcome(PASS, f"{len(cases)} points beyond the rows for {len({c[0] for c in cases})} laws and "
                         f"{len(rows_cases)} on the rows at n p = 10 agree (z = {z:.2f}, max |z| beyond the rows "
                         f"{zmax:.2f}); {len(measured)} points at n p = 10 beyond the rows measured, refused by Q_law",
                   details=details, data={"max_abs_z": zmax, "z": z})


# --------------------------------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------------------------------
def _rows_records(k_routes: int) -> list[tuple]:
    out = []
    for k in range(law_rows_max_k() + 1):
        routes = None
        if k <= k_routes:
            right: dict = {}
            for (V, mu), c in cumulant_counts(k).items():
                key = (V, tuple(s for s in mu if s > 1))
                right[key] = right.get(key, 0) + c
            routes = cumulant_terms(k) == {key: v for key, v in right.items() if v}
        out.append((k, routes, law_row(k, "gaussian") == tuple(real_row(k))))
    return out


def _structure_records() -> list[dict]:
    rows = {k: (2 * k + 2, {(k + 1 - j, mu): c for (j, mu), c in cumulant_terms(k).items()})
            for k in range(law_rows_max_k() + 1)}
    for k, top, terms in S.top_rows():
        rows[k] = (top, {(k + 1 - j, mu): c for (j, mu), c in terms_in_cumulants(terms, jmin=k + 1 - top).items()})
    out = []
    for m in range(2, S.M_LAW + 1):
        for mu in S.monomials(m):
            A, B, k0 = S.coefficient(m, mu)
            rec = S.coefficient_record(m, mu)
            lo, hi = rec["fit_rows"]
            fit_ks = [k for k in sorted(rows) if lo <= k <= hi and m <= rows[k][0]]
            refit = fit_quasi({k: rows[k][1].get((m, mu), 0) for k in fit_ks}, len(A) - 1, len(B) - 1)
            ks = [k for k in sorted(rows) if k >= k0 and m <= rows[k][0]]
            bad = [k for k in ks if quasi_value(A, B, k) != rows[k][1].get((m, mu), 0)]
            out.append({"m": m, "mu": mu, "refit_equal": refit == (A, B), "bad_rows": bad, "rows": len(ks)})
    return out


def _expansion_row_cases(laws=("uniform", "rademacher", "sparse:0.05", "sparse:0.3", "student:60")) -> list[tuple]:
    gauss = as_law("gaussian")
    out = []
    for law in laws:
        L = as_law(law)
        for q in ("Q", "S"):
            for k in range(8, law_rows_max_k() + 1):
                for n in [2**j for j in range(3, 21)]:
                    v, e = E.truncated_law_expansion(n, k, L, quantity=q, base=7 if q == "S" else None)
                    total = float(E._exact(n, k, L, q))
                    if e <= E.REL_ERROR_MAX * total:
                        out.append((law, q, n, k, v, float(E._exact(n, k, L, q) - E._exact(n, k, gauss, q)), e))
    return out


def _mc_data(draws: int, seed: int) -> tuple[list, list, list]:
    """Q_law against Monte Carlo (probe blocks, real_energy_mc) beyond the rows, and at n p = 10 (full trace,
    estimate_Q) on the rows and beyond."""
    cases = []
    for i, (law, (n, ks)) in enumerate(MC_POINTS.items()):
        est = real_energy_mc(n, max(ks), draws, probes=MC_PROBES, seed=seed + i, init=law, progress=False)
        for k in ks:
            r = E.Q_law(n, k, law)
            cases.append((law, n, k, float(r.value), float(r.error), float(est.Q_mean[k]), float(est.Q_se[k])))
    n, law, krows, kbeyond = SPARSE_NP10
    est = estimate_Q(n, max(kbeyond), draws, field="real", seed=seed + 99, init=law, progress=False)
    rows_cases = [(law, n, k, float(E.Q_law(n, k, law, method="exact").value), float(est.mean[k]), float(est.se[k]))
                  for k in range(1, krows + 1)]
    measured = []
    for k in kbeyond:
        try:
            E.Q_law(n, k, law)
            refused = False
        except ValueError:
            refused = True
        measured.append((law, n, k, float(est.mean[k]), float(est.se[k]), refused))
    return cases, rows_cases, measured


def _plot_mc(path, cases, *, ax=None):
    """MC minus Q_law in units of se, per law and depth (the z scores)."""
    fig, ax = panels(ax, figsize=(6, 3.5))
    for law in sorted({c[0] for c in cases}):
        pts = [(k, (mc - v) / se) for lw, n, k, v, e, mc, se in cases if lw == law]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=law)
    ax.axhline(0.0, color="0.5", lw=0.8)
    ax.set_xlabel("depth k (beyond the exact rows)")
    ax.set_ylabel("(MC - Q_law) / se")
    ax.legend(fontsize=8)
    return finish(fig, path)


def horizon_law_data(ns, tol: float, laws) -> dict:
    """``{law: [(n, t*) ...]}``: the first depth with ``|Q_{n,t} - 1| > tol`` at sigma = 1 for iid weights of each law
    (``depth_for_scale(..., init=law) + 1``); widths whose crossing lies beyond the served energies are left out.
    ``ns``: widths (positive integers), ``tol`` in (0, 1), ``laws``: law names or Laws (a list; each checked first,
    so that a bad one is an error, not a law with no points)."""
    from theory._args import as_int_array, as_probability
    from theory.horizon import depth_for_scale
    from theory.init_laws.laws import as_law

    ns = [int(n) for n in as_int_array("ns", ns, minimum=1)]
    as_probability("tol", tol, open_min=True, open_max=True)
    if isinstance(laws, (str, bytes)) or not isinstance(laws, (list, tuple)):
        raise TypeError(f"laws must be a list of law names or Laws, got {laws!r:.60}")
    for law in laws:
        as_law(law, name="laws[]")
    out: dict = {}
    for law in laws:
        pts = []
        for n in ns:
            try:
                pts.append((n, depth_for_scale(n, 1.0, tol, quantity="Q", init=law) + 1))
            except ValueError:
                continue
        out[law] = pts
    return out


def plot_horizon_laws(path, data: dict, *, tol: float, ax=None):
    """t*(n, tol) against n (log-log) per law, with the sqrt(n) law of the complex critical curve for reference.
    ``data``: :func:`horizon_law_data`'s dict (law -> list of (n, t*))."""
    from theory.real_expansion import breakdown_law

    if not isinstance(data, dict) or not all(isinstance(p, (list, tuple)) and all(
            isinstance(x, (list, tuple)) and len(x) == 2 for x in p) for p in data.values()):
        raise TypeError(f"data must be a dict law -> list of (n, t*) pairs (horizon_law_data), got {data!r:.60}")

    fig, ax = panels(ax, figsize=(6.5, 4.2))
    c0 = breakdown_law(tol)["c0"]
    ns_all = sorted({n for pts in data.values() for n, _ in pts})
    if ns_all:
        ax.plot(ns_all, [c0 * math.sqrt(n) for n in ns_all], color="0.6", lw=1, ls="--",
                label=f"c0 sqrt(n), c0 = {c0:.3f} (critical curve)")
    for law, pts in data.items():
        if pts:
            ax.plot([n for n, _ in pts], [t for _, t in pts], "o-", ms=3, label=law)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("width n")
    ax.set_ylabel(f"horizon depth t*(n, tol = {tol:g})")
    ax.set_title("first depth with |Q_{n,t} - 1| > tol at Glorot scale")
    ax.legend(fontsize=7)
    return finish(fig, path)


# --------------------------------------------------------------------------------------------------
# checks
# --------------------------------------------------------------------------------------------------
@check("init_laws.rows", paper=PAPER,
       claim="E tr((G^k)^T G^k) for iid entries of any symmetric law: the shape table (moment form) equals the cumulant "
             "form's set partitions of the slots, and its Gaussian specialisation equals the real rows",
       closed_form="theory.init_laws.rows.law_row",
       numerics="numerics.signal_propagation.law_cumulants.cumulant_counts",
       statistic="exact equality of polynomials")
def _rows(ctx: Context) -> Outcome:
    return verdict_rows(_rows_records(7 if ctx.profile == "quick" else 8))


@check("init_laws.structure", paper=PAPER,
       claim="each cumulant monomial's coefficient c_(m,mu)(k) is a quasi-polynomial in k, determined by its fit rows "
             "and equal to every other row (full rows k <= 12, top rows beyond)",
       closed_form="theory.init_laws.structure.coefficient",
       numerics="theory.real_expansion.fit_quasi on theory/data/law_shape_counts.json and law_top_counts.json",
       statistic="exact rational equality")
def _structure(ctx: Context) -> Outcome:
    return verdict_structure(_structure_records())


@check("init_laws.expansion_rows", paper=PAPER,
       claim="the error estimate of the expansion's non-Gaussian part bounds its actual error on the exact rows "
             "(k = 8..12, every width 2^3..2^20 where it would be served; Q and S)",
       closed_form="theory.init_laws.energy.truncated_law_expansion",
       numerics="theory/data/law_shape_counts.json (exact rows)",
       statistic="|expansion - exact| <= stated error at every point")
def _expansion_rows(ctx: Context) -> Outcome:
    laws = ("uniform", "sparse:0.05") if ctx.profile == "quick" else ("uniform", "rademacher", "sparse:0.05",
                                                                      "sparse:0.3", "student:60")
    return verdict_expansion_rows(_expansion_row_cases(laws))


@check("init_laws.mc", paper=PAPER,
       claim="Q_law beyond the exact rows agrees with Monte Carlo of iid weights of each named law (uniform, "
             "rademacher, sparse, student); at n p = 10 Monte Carlo agrees with the exact rows, and beyond them no "
             "theory is served",
       closed_form="theory.init_laws.energy.Q_law",
       numerics="numerics.signal_propagation.real_energy_mc.real_energy_mc (init=, probe blocks) beyond the rows; "
                "numerics.signal_propagation.ginibre.estimate_Q (init=, full trace) at n p = 10",
       statistic="|Q_law - MC| <= error + z se, se from the same run, Bonferroni z (1e-6 family)")
def _mc(ctx: Context) -> Outcome:
    cases, rows_cases, measured = _mc_data(48 if ctx.profile == "quick" else 400, ctx.seed + 41)
    return with_figure(ctx, verdict_mc(cases, rows_cases, measured), "init_laws_mc.png", _plot_mc, cases)
