"""Checks of the structured-initialisation energies (:mod:`theory.structured_init`) against independent numerics.

The toolkit's own results (``docs/results/structured-inits.md``; Seleznova 2026, arXiv:2605.05113, names
structured initialisations as beyond its scope). Closed forms: ``theory.structured_init``; numerics: the Haar
sampler and its rounding bound (``numerics.signal_propagation.haar``), the structured Monte Carlo
(``numerics.signal_propagation.structured_mc``), the loop-equation rows of identity plus real noise
(``numerics.signal_propagation.identity_noise``).

Statistics, fixed before any run: every Monte Carlo comparison is ``|MC - exact| <= z se`` with ``se`` from the
same run and ``z`` the two-sided Bonferroni value over all comparisons of the check (family false-alarm rate
1e-6, ``z >= 4.5``, ``numerics.stats``); depths stop where the per-draw energies stay light-tailed (``t <= 32``,
moduli at most 1; identity plus noise ``t <= 8`` at ``beta^2 = 1/4``). The variances' standard errors come
from the delta method on the same draws. Exact comparisons (rounding bound, exact rows) are equalities or
inequalities. Every check compares the toolkit's closed forms with its own numerics: a disagreement is a
toolkit bug (``fail``).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from numerics.plotting import finish, panels
from numerics.signal_propagation.haar import haar_rounding, haar_statistics, householder_defect_bound
from numerics.signal_propagation.identity_noise import identity_noise_real_energies, mixed_words
from numerics.signal_propagation.structured_mc import estimate_structured
from numerics.stats import agreement, z_for_false_alarm
from theory.structured_init import (IdentityNoiseInit, OrthogonalInit, Q_structured, RingInit, RotationBlocksInit,
                                    S_structured, haar_moments, identity_noise_expansion, structured_variance)
from validation.registry import FAIL, PASS, Context, Outcome, check, with_figure
from validation.report import markdown_table

SOURCE = "the toolkit's own results (docs/results/structured-inits.md); Orvieto et al. (2023), arXiv:2303.06349"
RING_T = 32
RING_POINTS = (  # (label, n, init): widths 4..256 for one law (the 1/n law of the variance), then the others
    ("ring [0.5, 0.99]", 4, RingInit(Fraction(1, 2), Fraction(99, 100))),
    ("ring [0.5, 0.99]", 32, RingInit(Fraction(1, 2), Fraction(99, 100))),
    ("ring [0.5, 0.99]", 256, RingInit(Fraction(1, 2), Fraction(99, 100))),
    ("LRU ring [0.9, 0.999], normalised", 64, RingInit(Fraction(9, 10), Fraction(999, 1000), math.pi / 10, True)),
    ("disc [0, 1]", 16, RingInit(0, 1)),
    ("rotation blocks [0.5, 1]", 16, RotationBlocksInit(Fraction(1, 2), 1)),
)


def _z(m: int) -> float:
    return z_for_false_alarm(m=m)


def _compare(rows: list, pieces: list) -> tuple[bool, float, float, int]:
    """``pieces``: (label, estimate, se, exact) arrays entering the verdict (entries with se = 0 must equal the
    exact value to rounding and are left out); returns (ok, max |z|, z, comparisons) and fills ``rows``."""
    est, se, ex = [], [], []
    for label, e, s, x in pieces:
        keep = s > 0
        est.append(e[keep]), se.append(s[keep]), ex.append(x[keep])
        rows += [(label, i, float(x[i]), float(e[i]), float(s[i]), float((e[i] - x[i]) / s[i]))
                 for i in np.flatnonzero(keep)]
    est, se, ex = np.concatenate(est), np.concatenate(se), np.concatenate(ex)
    z = _z(est.size)
    a = agreement(est, se, ex, z=z)
    return a.ok, a.max_abs_z, z, est.size


# ----------------------------------------------------------------------------------------------------
# orthogonal / unitary
# ----------------------------------------------------------------------------------------------------
def _orthogonal_data(ctx: Context) -> dict:
    draws = 6000 if ctx.small_sizes else 40000
    stats, rounding, driven = [], [], []
    for field in ("real", "complex"):
        exact = haar_moments(5, field)
        for sampler in ("qr", "scipy"):
            r = haar_statistics(5, draws, field=field, seed=ctx.seed + len(stats), sampler=sampler)
            stats.append(dict(field=field, sampler=sampler, names=r.names, mean=r.mean, se=r.se,
                              exact=np.array([float(exact[k]) for k in r.names])))
        hr = haar_rounding(32, 32, 16, field=field, seed=ctx.seed)
        rounding.append(dict(field=field, n=32, k=32, deviation=float(hr.deviation.max()),
                             bound=float(hr.bound.min()), excess=float(np.max(hr.deviation - hr.bound)),
                             defect=float(hr.defect.max()), defect_bound=householder_defect_bound(32)))
        t, n = 16, 16
        e = estimate_structured(n, t, 2000, OrthogonalInit(field), seed=ctx.seed + 7)
        ts = np.arange(t + 1)
        driven.append(dict(field=field, n=n, mean=e.driven_mean, se=e.driven_se, exact=ts + 1.0,
                           var=e.driven_var, var_se=e.driven_var_se,
                           var_exact=(2.0 if field == "real" else 1.0) * (ts + 1.0) ** 2 / n,
                           Q_dev=float(np.max(np.abs(e.Q_mean - 1))), S_dev=float(np.max(np.abs(e.S_mean - ts - 1)))))
    return dict(stats=stats, rounding=rounding, driven=driven)


def verdict_orthogonal(data: dict) -> Outcome:
    """Haar statistics (both samplers) and the driven energy's mean ``t + 1`` and variance ``c (t+1)^2 / n``
    (c = 2 real, 1 complex) within ``z se`` (one Bonferroni z); every draw's float64 energy within its rounding
    bound; the orthogonality defect within the Householder bound; the per-network energies equal to 1 and
    ``t + 1`` to 1e-12: pass if all hold, else fail. ``data``: stats, rounding, driven (see the check)."""
    rows: list = []
    pieces = [(f"{s['field']} {s['sampler']}: {name}", s["mean"][i:i + 1], s["se"][i:i + 1], s["exact"][i:i + 1])
              for s in data["stats"] for i, name in enumerate(s["names"])]
    for d in data["driven"]:
        pieces += [(f"{d['field']} driven mean n={d['n']}", d["mean"], d["se"], d["exact"]),
                   (f"{d['field']} driven variance n={d['n']}", d["var"], d["var_se"], d["var_exact"])]
    ok, maxz, z, m = _compare(rows, pieces)
    problems = [f"{r['field']}: rounding" for r in data["rounding"] if r["excess"] > 0]
    problems += [f"{r['field']}: defect" for r in data["rounding"] if r["defect"] > r["defect_bound"]]
    problems += [f"{d['field']}: per-network energy" for d in data["driven"] if max(d["Q_dev"], d["S_dev"]) > 1e-12]
    details = (markdown_table(["statistic", "t", "exact", "MC", "se", "z"], rows) + "\n\n"
               + markdown_table(["field", "n", "k", "max |e - 1|", "min bound", "max defect", "defect bound"],
                                [(r["field"], r["n"], r["k"], r["deviation"], r["bound"], r["defect"],
                                  r["defect_bound"]) for r in data["rounding"]]))
    good = ok and not problems
    return Outcome(PASS if good else FAIL,
                   f"{m} comparisons, max |z| = {maxz:.2f} vs z = {z:.2f}; rounding and defect bounds "
                   + ("hold" if not problems else f"fail: {problems}"),
                   details=details, data={"max_abs_z": maxz, "z": z, "comparisons": m, "problems": problems})


@check("structured.orthogonal", paper=SOURCE + "; Mezzadri (2007), Notices AMS 54 (Haar sampler)",
       claim="Haar orthogonal/unitary W: Q = 1 and S = t + 1 exactly at every width (W^k is orthogonal), with no "
             "fluctuation of the per-network energy; the driven energy of one input sequence has mean t + 1 and "
             "variance 2 (t+1)^2 / n (real) or (t+1)^2 / n (complex)",
       closed_form="theory.structured_init.Q_structured, theory.structured_init.S_structured, "
                   "theory.structured_init.haar_moments",
       numerics="numerics.signal_propagation.haar.haar_statistics (QR with the sign fix and scipy.stats.ortho_group "
                "/ unitary_group, n = 5), numerics.signal_propagation.haar.haar_rounding (n = 32, k = 32, 16 draws), "
                "numerics.signal_propagation.structured_mc.estimate_structured (n = 16, t = 16, 2000 draws)",
       statistic="|MC - exact| <= z se (Bonferroni, p = 1e-6); float64 energy within its derived rounding bound at "
                 "every draw")
def _orthogonal(ctx: Context) -> Outcome:
    return verdict_orthogonal(_orthogonal_data(ctx))          # tables only: no picture


# ----------------------------------------------------------------------------------------------------
# ring and rotation blocks
# ----------------------------------------------------------------------------------------------------
def _ring_data(ctx: Context) -> dict:
    samples = 4000 if ctx.small_sizes else 20000
    points = []
    for i, (label, n, init) in enumerate(RING_POINTS):
        e = estimate_structured(n, RING_T, samples, init, seed=ctx.seed + 100 + i)
        ks = range(RING_T + 1)
        points.append(dict(
            label=label, n=n, samples=samples,
            Q=np.array([Q_structured(n, k, init) for k in ks]), S=np.array([S_structured(n, k, init) for k in ks]),
            VQ=np.array([structured_variance(n, k, init, quantity="Q") for k in ks]),
            VS=np.array([structured_variance(n, k, init, quantity="S") for k in ks]),
            Q_mean=e.Q_mean, Q_se=e.Q_se, S_mean=e.S_mean, S_se=e.S_se, driven_mean=e.driven_mean,
            driven_se=e.driven_se, Q_var=e.Q_var, Q_var_se=e.Q_var_se, S_var=e.S_var, S_var_se=e.S_var_se))
    return dict(t=RING_T, points=points)


def verdict_ring(data: dict) -> Outcome:
    """Means (Q, S per network, S through the recurrence) and variances over draws (Q, S) within ``z se`` of
    the closed forms at every depth ``0..t`` and point, one Bonferroni z: pass, else fail. ``data``: t, points
    (dicts with the closed-form arrays Q, S, VQ, VS and the Monte Carlo arrays)."""
    rows: list = []
    pieces = []
    for p in data["points"]:
        tag = f"{p['label']} n={p['n']}"
        pieces += [(f"{tag}: Q", p["Q_mean"], p["Q_se"], p["Q"]), (f"{tag}: S", p["S_mean"], p["S_se"], p["S"]),
                   (f"{tag}: S driven", p["driven_mean"], p["driven_se"], p["S"]),
                   (f"{tag}: Var Q", p["Q_var"], p["Q_var_se"], p["VQ"]),
                   (f"{tag}: Var S", p["S_var"], p["S_var_se"], p["VS"])]
    ok, maxz, z, m = _compare(rows, pieces)
    return Outcome(PASS if ok else FAIL, f"{m} comparisons (t <= {data['t']}), max |z| = {maxz:.2f} vs z = {z:.2f}",
                   details=markdown_table(["quantity", "depth", "exact", "MC", "se", "z"], rows),
                   data={"max_abs_z": maxz, "z": z, "comparisons": m})


def _plot_ring(path, data: dict, *, ax=None):
    """Energies (Q, S) and n times the variance of the per-network S against depth: closed forms and MC."""
    fig, axes = panels(ax, ncols=2, figsize=(10, 4))
    for i, p in enumerate(data["points"]):
        ks, col = np.arange(data["t"] + 1), f"C{i}"
        axes[0].plot(ks, p["S"], "-", color=col, lw=1, label=f"{p['label']} n={p['n']}")
        axes[0].errorbar(ks[::4], p["driven_mean"][::4], yerr=p["driven_se"][::4], fmt="o", ms=3, color=col)
        axes[1].plot(ks[1:], p["n"] * p["VS"][1:], "-", color=col, lw=1)     # t = 0: zero without gamma
        axes[1].errorbar(ks[4::4], p["n"] * p["S_var"][4::4], yerr=p["n"] * p["S_var_se"][4::4], fmt="o", ms=3,
                         color=col)
    axes[0].set(xlabel="t", ylabel="S_t", title="driven energy: closed form (lines), MC (points)")
    axes[1].set(xlabel="t", ylabel="n Var(per-network S_t)", yscale="log",
                title="fluctuation over draws, times n")
    axes[0].legend(fontsize=6)
    return finish(fig, path)


@check("structured.ring", paper=SOURCE,
       claim="LRU ring (|lambda|^2 uniform on [r_min^2, r_max^2], any phase): Q_k = E u^k (normalised: "
             "E (1-u) u^k), S_t = sum_k Q_k, and the per-network energy's variance over draws is exactly "
             "Var f(u) / n (rotation blocks: 2 Var f(u) / n)",
       closed_form="theory.structured_init.Q_structured, theory.structured_init.S_structured, "
                   "theory.structured_init.structured_variance",
       numerics="numerics.signal_propagation.structured_mc.estimate_structured (the LRU's own sampling recipe, "
                "complex powers lambda^k, the recurrence with inputs), n in {4, 32, 256} for one law and three "
                "more laws, t <= 32, 4000 draws (quick), 20000 (full)",
       statistic="|MC - exact| <= z se for means and variances at every depth, z Bonferroni (p = 1e-6), the "
                 "variance's se by the delta method")
def _ring(ctx: Context) -> Outcome:
    data = _ring_data(ctx)
    return with_figure(ctx, verdict_ring(data), "structured_ring.png", _plot_ring, data)


# ----------------------------------------------------------------------------------------------------
# identity plus noise
# ----------------------------------------------------------------------------------------------------
def _identity_data(ctx: Context) -> dict:
    samples, t, alpha, beta = (3000 if ctx.small_sizes else 20000), 8, Fraction(1), Fraction(1, 2)
    runs = []
    for field, n in (("complex", 8), ("complex", 32), ("real", 8), ("real", 32)):
        init = IdentityNoiseInit(alpha, beta, field)
        e = estimate_structured(n, t, samples, init, seed=ctx.seed + 200 + n + len(field))
        if field == "complex":
            Q = np.array([Q_structured(n, k, init) for k in range(t + 1)])
        else:
            Q = np.array([float(q) for q in identity_noise_real_energies(n, t, alpha, beta)])
        runs.append(dict(field=field, n=n, Q=Q, S=np.cumsum(Q), Q_mean=e.Q_mean, Q_se=e.Q_se,
                         driven_mean=e.driven_mean, driven_se=e.driven_se))
    k_rows = 10 if ctx.small_sizes else 14
    words = mixed_words(k_rows)
    expansion = []
    for k in range(k_rows + 1):
        init = IdentityNoiseInit(alpha, beta, "real")
        q_inf, c1 = identity_noise_expansion(k, init)
        from_rows = _first_order_from_rows(words, k, alpha, beta)
        expansion.append(dict(k=k, q_inf=q_inf, c1=c1, rows=from_rows))
    tops = [(j, l, words[(j, l)][(j + l) // 2] if len(words[(j, l)]) > (j + l) // 2 else 0)
            for (j, l) in words if j != l]
    return dict(runs=runs, expansion=expansion, tops=tops, k_rows=k_rows)


def _first_order_from_rows(words: dict, k: int, alpha: Fraction, beta: Fraction) -> tuple[Fraction, Fraction]:
    """``(Q_inf, c_1)`` read off the exact polynomials: ``Q^R = (1/n) sum C C alpha beta P_{j,l}(n) n^{-(j+l)/2}``,
    so the ``n^0`` part is the diagonal words' top coefficient and the ``n^-1`` part their next one plus the
    mixed words' top coefficient."""
    q_inf = c1 = Fraction(0)
    for j in range(k + 1):
        for l in range(k + 1):
            if (j + l) % 2:
                continue
            w = math.comb(k, j) * math.comb(k, l) * alpha ** (2 * k - j - l) * beta ** (j + l)
            p, h = words[(j, l)], (j + l) // 2
            coef = (lambda i: p[i] if 0 <= i < len(p) else 0)
            q_inf += w * coef(h + 1)
            c1 += w * coef(h)
    return q_inf, c1


def verdict_identity_noise(data: dict) -> Outcome:
    """Monte Carlo ``Q`` and driven ``S`` within ``z se`` of the closed form (complex) or the exact rows (real),
    one Bonferroni z; the ``1/n`` expansion of :func:`theory.structured_init.identity_noise_expansion` equal to
    the exact rows' coefficients at every k; every mixed word's top coefficient equal to ``min(j, l) + 1``: pass
    if all hold, else fail. ``data``: runs, expansion, tops, k_rows."""
    rows: list = []
    pieces = []
    for r in data["runs"]:
        tag = f"{r['field']} n={r['n']}"
        pieces += [(f"{tag}: Q", r["Q_mean"], r["Q_se"], r["Q"]), (f"{tag}: S driven", r["driven_mean"],
                                                                     r["driven_se"], r["S"])]
    ok, maxz, z, m = _compare(rows, pieces)
    bad_exp = [e["k"] for e in data["expansion"] if (e["q_inf"], e["c1"]) != e["rows"]]
    bad_top = [(j, l) for j, l, c in data["tops"] if c != min(j, l) + 1]
    good = ok and not bad_exp and not bad_top
    summary = (f"{m} comparisons, max |z| = {maxz:.2f} vs z = {z:.2f}; 1/n expansion = exact rows for k <= "
               f"{data['k_rows']}" + (f" except k = {bad_exp}" if bad_exp else "") + "; mixed-word limits min(j,l)+1"
               + (f" fail at {bad_top[:5]}" if bad_top else " on every word"))
    details = (markdown_table(["quantity", "depth", "exact", "MC", "se", "z"], rows) + "\n\n"
               + markdown_table(["k", "Q_inf", "c_1 (formula)", "c_1 (exact rows)"],
                                [(e["k"], str(e["q_inf"]), str(e["c1"]), str(e["rows"][1])) for e in data["expansion"]]))
    return Outcome(PASS if good else FAIL, summary, details=details,
                   data={"max_abs_z": maxz, "z": z, "comparisons": m, "expansion_mismatch": bad_exp,
                         "top_mismatch": bad_top})


@check("structured.identity_noise", paper=SOURCE + "; Le, Jaitly, Hinton (2015), arXiv:1504.00941",
       claim="W = alpha I + beta G/sqrt(n): complex G: Q = sum_j C(k,j)^2 alpha^(2(k-j)) beta^(2j) Q_{n,j} (proved); "
             "real G: exact rows by the loop equations, Q = Q_inf + c_1/n + O(1/n^2) with the mixed words' limits "
             "min(j,l)+1 (verified on rows)",
       closed_form="theory.structured_init.Q_structured, theory.structured_init.identity_noise_expansion",
       numerics="numerics.signal_propagation.structured_mc.estimate_structured (n = 8, 32; alpha = 1, beta = 1/2; "
                "t <= 8), numerics.signal_propagation.identity_noise.identity_noise_real_energies and mixed_words "
                "(loop equations, k <= 10 quick, 14 full)",
       statistic="|MC - exact| <= z se (Bonferroni, p = 1e-6); exact equality of the expansion's coefficients with "
                 "the rows'")
def _identity_noise(ctx: Context) -> Outcome:
    return verdict_identity_noise(_identity_data(ctx))        # tables only
