"""The polynomial-time real-weight rows (Pfaffian route) against independent routes.

Paper: M. Seleznova, "How Long Does Infinite Width Last? Signal Propagation in Long-Range Linear
Recurrences", arXiv:2605.05113 (2026), Sec. 2 (real weights: no closed form). The rows of
``theory/data/real_wick_rows.json`` come from ``numerics.signal_propagation.real_wick_pfaffian``; the math and the status of
each step are in ``docs/results/real-weight-pfaffian.md``. Four checks, each able to fail:

* ``real.pfaffian_reproduces``: a fresh Pfaffian run reproduces the published rows up to k = 36 (quick) and
  every row k <= 60 (cpu, full: about 2.5 CPU minutes);
* ``real.loop_equations``: the Schwinger-Dyson recursion (``numerics.signal_propagation.loop_equations``) gives the same rows,
  k <= 12 (quick) / 16 (full);
* ``real.duality_mc``: quaternion Ginibre Monte Carlo ``E tr(Q^k (Q^*)^k)`` against ``(-1)^(k+1) P_k(-2m)``;
* ``real.rows_mc_large_k``: real-weight Monte Carlo of ``Q^R_{n,k}`` at k up to 30 against the rows.

Monte Carlo checks: ``|MC - exact| <= z se``, se from the same run, Bonferroni z at family false-alarm rate
1e-6 (``numerics.stats.z_for_false_alarm``, z >= 4.5), fixed seeds.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from numerics.signal_propagation.ginibre import estimate_Q
from numerics.signal_propagation.loop_equations import loop_equation_polynomial
from numerics.signal_propagation.quaternion_ginibre import quaternion_moments
from numerics.signal_propagation.real_wick import published_rows
from numerics.signal_propagation.real_wick_pfaffian import real_wick_rows
from validation.registry import FAIL, PASS, Context, Outcome, check
from numerics.stats import agreement, z_for_false_alarm
from validation.report import markdown_table

PAPER = "Seleznova (2026), arXiv:2605.05113, Sec. 2 (real weights)"


def _value(coeffs, n) -> int:
    return sum(c * n**j for j, c in enumerate(coeffs))


# --------------------------------------------------------------------------------------------------
# pure verdicts
# --------------------------------------------------------------------------------------------------
def verdict_same_rows(reference: dict, other: dict, what: str) -> Outcome:
    """PASS iff ``other`` is non-empty and each of its rows equals the reference row of the same k."""
    bad = [k for k, row in other.items() if list(reference.get(k, [])) != list(row)]
    summary = (f"{len(other)} rows (k <= {max(other) if other else '-'}) by {what}"
               + (f"; mismatches at k = {bad}" if bad else ": all equal the Pfaffian rows"))
    return Outcome(FAIL if bad or not other else PASS, summary)


def verdict_mc(cases, columns: list[str], quantity: str = "") -> Outcome:
    """``cases``: tuples ending in (MC mean, se, exact). PASS iff all agree within a Bonferroni z (1e-6 family);
    ``quantity`` names the compared value in the table's headers."""
    z = z_for_false_alarm(m=len(cases))
    mean, se, exact = (np.array([c[i] for c in cases], dtype=float) for i in (-3, -2, -1))
    a = agreement(mean, se, exact, z=z)
    rows = [tuple(c[:-3]) + (f"{c[-1]:.6g}", f"{c[-3]:.6g}", f"{c[-2]:.3g}", f"{(c[-3] - c[-1]) / c[-2]:.2f}")
            for c in cases]
    return Outcome(PASS if a.ok else FAIL, f"{len(cases)} comparisons (z = {z:.2f}): max |z| = {a.max_abs_z:.2f}",
                   details=markdown_table(columns + [f"{quantity}exact", f"{quantity}MC", "se", "z"], rows),
                   data={"max_abs_z": a.max_abs_z, "z": z, "comparisons": len(cases)})


# --------------------------------------------------------------------------------------------------
# the checks
# --------------------------------------------------------------------------------------------------
@check("real.pfaffian_reproduces", paper=PAPER,
       claim="a fresh run of the Pfaffian route reproduces the published real-weight rows (k <= 36 quick, every "
             "row k <= 60 in the cpu and full profiles)",
       closed_form="theory/data/real_wick_rows.json",
       numerics="numerics.signal_propagation.real_wick_pfaffian.real_wick_rows",
       statistic="exact integer equality")
def _pfaffian_reproduces(ctx: Context) -> Outcome:
    published = published_rows()
    kmax = 36 if ctx.profile == "quick" else max(published)
    return verdict_same_rows(published, real_wick_rows(kmax), "a fresh Pfaffian run")


@check("real.loop_equations", paper=PAPER,
       claim="the Schwinger-Dyson recursion of real Ginibre words gives the same rows as the Pfaffian route",
       closed_form="numerics.signal_propagation.real_wick_pfaffian.real_wick_rows",
       numerics="numerics.signal_propagation.loop_equations.loop_equation_polynomial (k <= 12 quick, 16 full)",
       statistic="exact integer equality")
def _loop_equations(ctx: Context) -> Outcome:
    kmax = 12 if ctx.small_sizes else 16
    return verdict_same_rows(real_wick_rows(kmax), {k: loop_equation_polynomial(k) for k in range(kmax + 1)},
                             "the loop equations")


@check("real.duality_mc", paper=PAPER,
       claim="E tr(Q^k (Q^*)^k) for the m x m quaternion Ginibre Q equals (-1)^(k+1) P_k(-2m) (real-quaternion "
             "duality; m = 2, k = 1..3: 16, 72, 400)",
       closed_form="numerics.signal_propagation.real_wick_pfaffian.real_wick_rows",
       numerics="numerics.signal_propagation.quaternion_ginibre.quaternion_moments (m = 1, 2, 3; k <= 4; 2e5 draws quick, 1e6 full)",
       statistic="|MC - exact| <= z se, se from the same run, Bonferroni z (1e-6 family)")
def _duality_mc(ctx: Context) -> Outcome:
    rows = real_wick_rows(4)
    samples = 200_000 if ctx.small_sizes else 1_000_000
    cases = []
    for m in (1, 2, 3):
        est = quaternion_moments(m, 4, samples, seed=ctx.seed + m)
        cases += [(m, k, float(est.mean[k]), float(est.se[k]), float((-1) ** (k + 1) * _value(rows[k], -2 * m)))
                  for k in range(1, 5)]
    return verdict_mc(cases, ["m", "k"])


# (n, k) cases, k / sqrt(n) <= 1.9: beyond that the per-draw values are so heavy-tailed that a few hundred or
# thousand draws understate the mean and its se (measured: n = 144, k = 24 gives z = -5.5 from 300 trace draws
# and z = +0.7 from 3000). MAX_N = 256 bounds n; the probe estimator (matrix-vector products) keeps it cheap.
LARGE_K_CASES = ((128, (8, 12, 16)), (256, (10, 15, 20, 25, 30)))


@check("real.rows_mc_large_k", paper=PAPER,
       claim="the Pfaffian rows up to k = 30 match Monte Carlo with real Gaussian weights",
       closed_form="Q^R_{n,k} = row(n) / n^(k+1) from theory/data/real_wick_rows.json",
       numerics="numerics.signal_propagation.ginibre.estimate_Q(field='real', estimator='probe'), (n, k) in LARGE_K_CASES; 2000 "
                "draws per n (quick), 10000 (full)",
       statistic="|MC - exact| <= z se, se from the same run, Bonferroni z over all comparisons (1e-6 family)")
def _rows_mc_large_k(ctx: Context) -> Outcome:
    rows = published_rows()
    cases = []
    for n, ks in LARGE_K_CASES:
        est = estimate_Q(n, max(ks), 2000 if ctx.small_sizes else 10000, field="real", estimator="probe",
                         seed=ctx.seed + 7 * n, progress=False)
        cases += [(n, k, float(est.mean[k]), float(est.se[k]), float(Fraction(_value(rows[k], n), n ** (k + 1))))
                  for k in ks]
    return verdict_mc(cases, ["n", "k"])
