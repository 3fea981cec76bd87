"""Real-weight moments ``E tr((G^k)^T G^k)`` beyond enumeration: the published rows and their structure.

Paper: M. Seleznova, "How Long Does Infinite Width Last? Signal Propagation in Long-Range Linear
Recurrences", arXiv:2605.05113 (2026), Sec. 2 (real weights: no closed form). The rows come from
``numerics.signal_propagation.real_wick_pfaffian`` (k <= 60; ``theory/data/real_wick_rows.json`` with the time each took;
the checks of that route against independent ones are in ``validation/checks/real_pfaffian.py``). Three
checks here, each able to fail:

* ``real.rows_reproduce``: the published rows equal the matching enumeration ``numerics.signal_propagation.real_wick``
  (``algorithm="enumerate"``) and the Wick enumeration ``numerics.signal_propagation.wick.wick_polynomial(k, "real",
  algorithm="enumerate")`` where they run;
* ``real.rows_mc``: every published row (k >= 1) against Monte Carlo ``numerics.signal_propagation.ginibre.estimate_Q`` with
  real weights at n = 32 and 64 (k <= 2 sqrt n), ``|MC - exact| <= z se`` with se from the same run and
  a Bonferroni z over all comparisons (family false-alarm rate 1e-6, z >= 4.5);
* ``real.identities``: the identities of ``numerics.signal_propagation.real_wick.row_identities`` (proved and observed) on
  every published row.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction


from numerics.signal_propagation.ginibre import estimate_Q
from numerics.plotting import finish, panels
from numerics.signal_propagation.real_wick import DATA_FILE, published_rows, real_wick_polynomial, row_identities
from numerics.signal_propagation.wick import polynomial_string, wick_polynomial
from validation.checks.real_pfaffian import verdict_mc
from validation.registry import FAIL, PASS, Context, Outcome, check, with_figure
from validation.report import markdown_table

PAPER = "Seleznova (2026), arXiv:2605.05113, Sec. 2 (real weights)"
MC_NS = (32, 64)


def _row_value(coeffs, n: int) -> Fraction:
    """``Q^R_{n,k} = E tr((G^k)^T G^k) / n^(k+1)`` from a row (k = len(coeffs) - 2)."""
    return Fraction(sum(c * n**j for j, c in enumerate(coeffs)), n ** (len(coeffs) - 1))


# --------------------------------------------------------------------------------------------------
# pure verdicts (testable with synthetic data)
# --------------------------------------------------------------------------------------------------
def verdict_rows(published: dict, recomputed: dict, enumerated: dict) -> Outcome:
    """PASS iff every recomputed and every enumerated row equals the published one (same k)."""
    bad = [f"k={k} ({how})" for how, rows in (("recomputed", recomputed), ("enumeration", enumerated))
           for k, row in rows.items() if list(published.get(k, [])) != list(row)]
    summary = (f"{len(published)} published rows (k <= {max(published)}); {len(recomputed)} recomputed, "
               f"{len(enumerated)} enumerated" + (f"; mismatches: {bad}" if bad else ": all equal"))
    return Outcome(FAIL if bad else PASS, summary)


def verdict_rows_mc(cases) -> Outcome:
    """``cases``: (n, k, MC mean, se, exact). PASS iff all agree within a Bonferroni z (1e-6 family)."""
    return verdict_mc(cases, ["n", "k"], quantity="Q^R ")


def verdict_identities(rows: dict) -> Outcome:
    """PASS iff every identity of :func:`numerics.signal_propagation.real_wick.row_identities` holds on every row."""
    table, bad = [], []
    for k, coeffs in sorted(rows.items()):
        for name, status, holds in row_identities(k, coeffs):
            table.append((k, name, status, "yes" if holds else "NO"))
            if not holds:
                bad.append((k, name))
    n_id = len(table) // max(1, len(rows))
    summary = f"{n_id} identities x {len(rows)} rows" + (f"; violated: {bad}" if bad else ": all hold")
    return Outcome(FAIL if bad else PASS, summary, details=markdown_table(["k", "identity", "status", "holds"], table))


# --------------------------------------------------------------------------------------------------
# figure and the checks
# --------------------------------------------------------------------------------------------------
def plot_rows_mc(path, cases, *, ax=None):
    """z-scores of the Monte Carlo estimates against the exact rows, one marker series per width n (of
    ``MC_NS``). ``cases``: a list of ``(n, k, estimate, se, exact)`` with ``se > 0``."""
    from theory._args import as_real
    if not isinstance(cases, (list, tuple)) or not all(isinstance(c, (list, tuple)) and len(c) == 5 for c in cases):
        raise TypeError(f"cases must be a list of (n, k, estimate, se, exact) tuples, got {cases!r:.60}")
    for c in cases:
        as_real("cases[][3] (se)", c[3], minimum=0.0, open_min=True)
    fig, ax = panels(ax, figsize=(6.5, 4))
    for i, n in enumerate(MC_NS):
        sel = [c for c in cases if c[0] == n]
        ax.plot([c[1] for c in sel], [(c[2] - c[4]) / c[3] for c in sel], "o", color=f"C{i}", label=f"n = {n}")
    ax.axhline(0, color="k", lw=0.8)
    ax.set_xlabel("k")
    ax.set_ylabel("(MC - exact) / se")
    ax.set_title("real-weight rows vs Monte Carlo (z-scores)", fontsize=9)
    ax.legend(fontsize=8)
    return finish(fig, path)


@check("real.rows_reproduce", paper=PAPER,
       claim="the published real-weight rows equal the matching enumeration and the Wick enumeration",
       closed_form="theory/data/real_wick_rows.json",
       numerics="numerics.signal_propagation.real_wick.real_wick_polynomial(algorithm='enumerate') (k <= 9 quick, 11 full); "
                "numerics.signal_propagation.wick.wick_polynomial(algorithm='enumerate') (k <= 7 quick, 9 full)",
       statistic="exact integer equality")
def _rows_reproduce(ctx: Context) -> Outcome:
    published = published_rows()
    recomputed = {k: real_wick_polynomial(k, algorithm="enumerate") for k in range(0, (9 if ctx.small_sizes else 11) + 1)}
    enumerated = {k: wick_polynomial(k, "real", algorithm="enumerate") for k in range(0, (7 if ctx.small_sizes else 9) + 1)}
    out = verdict_rows(published, recomputed, enumerated)
    data = json.loads(DATA_FILE.read_text())
    table = [(r["k"], polynomial_string(r["coefficients"]), r["pfaffian_cpu_seconds"],
              r.get("enumeration_cpu_seconds", "")) for r in data["rows"] if r["k"] <= 30]
    out.details = (f"Rows k <= 30 (time on {data['machine']}; {data['seconds']}; rows 31..60 in the data file, all "
                   f"rows <= 60 in {data['all_rows_le_60_cpu_seconds']} CPU s):\n\n"
                   + markdown_table(["k", "E tr((G^k)^T G^k)", "Pfaffian CPU s", "enumeration CPU s"], table))
    return out


@check("real.rows_mc", paper=PAPER,
       claim="every published real-weight row matches Monte Carlo with real Gaussian weights",
       closed_form="Q^R_{n,k} = row(n) / n^(k+1) from theory/data/real_wick_rows.json",
       numerics="numerics.signal_propagation.ginibre.estimate_Q(field='real'), n in {32, 64}, full-trace estimator; 2000 / 1000 "
                "draws (quick), 5x that (full); k <= min(12, 2 sqrt n)",
       statistic="|MC - exact| <= z se, se from the same run, Bonferroni z over all comparisons (1e-6 family)")
def _rows_mc(ctx: Context) -> Outcome:
    rows = published_rows()
    cases = []
    for n in MC_NS:
        K = min(12, int(2 * math.sqrt(n)))     # k > 12: real.rows_mc_large_k (smaller k / sqrt n)
        draws = (2000 if n == 32 else 1000) * (1 if ctx.small_sizes else 5)
        est = estimate_Q(n, K, draws, field="real", seed=ctx.seed + n, progress=False)
        cases += [(n, k, float(est.mean[k]), float(est.se[k]), float(_row_value(rows[k], n))) for k in range(1, K + 1)]
    return with_figure(ctx, verdict_rows_mc(cases), "real_rows_mc.png", plot_rows_mc, cases)


@check("real.identities", paper=PAPER,
       claim="the real rows satisfy the proved identities (n = 1 value, degree, leading 1, >= Hultman) and the "
             "observed ones (no n^k term, the n^(k-1) formula, positive middle coefficients, value at n = -2)",
       closed_form="numerics.signal_propagation.real_wick.row_identities",
       numerics="theory/data/real_wick_rows.json",
       statistic="exact integer identities")
def _identities(ctx: Context) -> Outcome:
    return verdict_identities(published_rows())
