"""Nonlinear recurrences with tied Gaussian weights: the identity case, the mean-field limit, the first correction.

Source: the toolkit's extension beyond Seleznova (2026), arXiv:2605.05113 (which treats linear recurrences):
``theory.nonlinear`` (the mean field, proved from Yang's tensor programs; the first correction, derived) and
``docs/results/nonlinear-recurrences.md``. The numerics are ``numerics.signal_propagation.nonlinear_mc`` (the
recurrence itself). Rules, fixed before looking at the numbers (z: Bonferroni over the compared points at family
false-alarm rate 1e-6, ``numerics.stats.z_for_false_alarm``, never below 4.5):

* ``nonlinear.identity_exact``: ``fail`` unless every Monte Carlo energy of the identity recurrence (free and
  driven, sigma = 1 and 0.9, n = 16 and 32, t <= 10) lies within ``error + z se`` of the exact real-weight energy
  ``sigma^(2t) Q^R_{n,t}`` / ``sum_k sigma^(2k) Q^R_{n,k}`` (exact rows: error 0);
* ``nonlinear.mean_field``: ``fail`` unless, at a large width (n = 1024 quick, 4096 cpu and full), every Monte Carlo
  energy lies within ``z se`` of the mean field corrected to first order, ``q_t (1 + c_t / n)``, at the points
  where that first order is known: tanh (sigma = 1 and 0.9 free, sigma = 1 driven) and the identity for t <= 4,
  relu (sigma^2 = 2, free) for t <= 2 (``c_t = 0``; weight tying enters at ``O(n^-2)`` there). The omitted
  ``O(n^-2)`` terms are below ``1e-5`` at these points, under a hundredth of the smallest se;
* ``nonlinear.first_correction``: ``fail`` unless, for tanh (sigma = 1 and 0.9 free, sigma = 1 driven) at t = 1..4,
  the coefficient ``b_t`` of ``1/n`` extrapolated from Monte Carlo at n = 64, 128, 256 (weighted least squares of
  ``n d_t = b_t + e_t / n``, ``d_t`` the deviation profile) lies within ``z se(b_t)`` of the derived ``c_t``;
* ``nonlinear.tied_correction``: ``fail`` unless the whole first correction ``b_t`` of
  ``numerics.signal_propagation.tied_correction`` (weight tying included; its Gaussian integral a Monte Carlo
  average with its se) is within ``z se`` of 0 where it vanishes exactly (the identity, free and driven, t <= 4;
  relu at t = 1; free relu at t = 2), of the closed forms ``theory.relu_tying.relu_tying_b`` (sigma^2 = 2: driven
  relu at t = 2, free relu at t = 3) and of the independent-step ``c_t`` for tanh (the cases above, t <= 4: tying
  adds nothing at ``1/n`` for an odd activation), and, for relu (sigma^2 = 2, free and driven) at t = 1..4, the
  same width fit as above lies within ``z sqrt(se_fit^2 + se^2)`` of it.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from numerics.plotting import finish, panels
from numerics.signal_propagation.nonlinear_mc import nonlinear_energies_mc
from numerics.signal_propagation.tied_correction import tied_correction_profile
from numerics.stats import z_for_false_alarm
from theory.nonlinear import Recurrence, first_correction_profile, identity_energy, mean_field_profile
from theory.relu_tying import relu_tying_b
from validation.registry import FAIL, PASS, Context, Outcome, check, with_figure
from validation.report import markdown_table

PAPER = ("beyond Seleznova (2026), arXiv:2605.05113: nonlinear recurrences, the toolkit's "
         "(docs/results/nonlinear-recurrences.md)")
SQ2 = math.sqrt(2.0)


# --------------------------------------------------------------------------------------------------
# pure verdicts
# --------------------------------------------------------------------------------------------------
def _z_rule(cases: list[tuple], what: str) -> Outcome:
    """``cases``: ``(label, n, t, mc, se, reference, reference error)``. PASS iff every
    ``|mc - reference| <= error + z se`` with the Bonferroni z over all cases."""
    if not cases:
        return Outcome(FAIL, "no case compared")
    z = z_for_false_alarm(m=len(cases))
    bad = [(lab, n, t) for lab, n, t, mc, se, ref, err in cases if not abs(mc - ref) <= err + z * se]
    zs = [(mc - ref) / se if se > 0 else (0.0 if mc == ref else math.inf) for _, _, _, mc, se, ref, _ in cases]
    details = markdown_table(["case", "n", "t", "Monte Carlo", "se", what, "z"],
                             [(lab, n, t, f"{mc:.6g}", f"{se:.2g}", f"{ref:.6g}", f"{zz:+.2f}")
                              for (lab, n, t, mc, se, ref, _), zz in zip(cases, zs)])
    zmax = max(abs(x) for x in zs)
    if bad:
        return Outcome(FAIL, f"{len(bad)} of {len(cases)} points outside z = {z:.2f} se of {what}: {bad[:4]}",
                       details=details, data={"max_abs_z": zmax, "z": z})
    return Outcome(PASS, f"{len(cases)} points within z = {z:.2f} se of {what} (max |z| = {zmax:.2f})",
                   details=details, data={"max_abs_z": zmax, "z": z})


def verdict_identity_exact(cases: list[tuple]) -> Outcome:
    """The identity recurrence's Monte Carlo against the exact real-weight energies (module docstring)."""
    return _z_rule(cases, "the exact real-weight energy")


def verdict_mean_field(cases: list[tuple]) -> Outcome:
    """Large-width Monte Carlo against ``q_t (1 + c_t / n)`` (module docstring)."""
    return _z_rule(cases, "the mean field to first order")


def verdict_tied_correction(refs: list[tuple], fits: list[tuple]) -> Outcome:
    """``refs``: ``(label, t, b, se, reference)``: the derived ``b_t`` against 0 where it vanishes exactly, against
    the closed forms (driven relu at depth 2, free relu at depth 3) and against the independent-step ``c_t`` for
    tanh; ``fits``: ``(label, t, b_fit, se_fit, b, se)``. PASS iff every ``|b - reference| <= z se`` and every
    ``|b_fit - b| <= z sqrt(se_fit^2 + se^2)``, one Bonferroni z over both."""
    return _z_rule([(lab, "derived", t, b, se, ref, 0.0) for lab, t, b, se, ref in refs]
                   + [(lab, "64..256", t, bf, math.hypot(sf, se), b, 0.0) for lab, t, bf, sf, b, se in fits],
                   "0 (exact), the closed forms (relu: driven t = 2, free t = 3), c_t (tanh) or the derived b_t")


def verdict_first_correction(rows: list[tuple]) -> Outcome:
    """``rows``: ``(label, t, b, se_b, c)``. PASS iff every ``|b - c| <= z se_b`` (Bonferroni over the rows)."""
    return _z_rule([(lab, "64..256", t, b, s, c, 0.0) for lab, t, b, s, c in rows],
                   "the derived first correction c_t")


# --------------------------------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------------------------------
def _identity_cases(draws: int, seed: int, T: int = 10) -> list[tuple]:
    """``(label, n, t, mc, se, exact, 0)`` for the identity recurrence (free, driven; sigma = 1, 0.9; n = 16, 32)."""
    recs = [Recurrence("identity", s, d) for s in (1.0, 0.9) for d in (False, True)]
    out = []
    for n in (16, 32):
        for r, mc in zip(recs, nonlinear_energies_mc(n, T, draws, recs, seed=seed + n, progress=False)):
            for t in range(1, T + 1):
                ex = identity_energy(n, t, r.sigma, driven=r.driven)
                out.append((r.label, n, t, float(mc.mean[t]), float(mc.se[t]), ex.value, ex.error))
    return out


MEAN_FIELD_CASES = ((Recurrence("tanh", 1.0), 4), (Recurrence("tanh", 0.9), 4), (Recurrence("tanh", 1.0, True), 4),
                    (Recurrence("identity", 1.0), 4), (Recurrence("relu", SQ2), 2))


def _mean_field_cases(n: int, draws: int, seed: int) -> list[tuple]:
    """``(label, n, t, mc, se, q_t (1 + c_t / n), 0)`` at the points of the module docstring."""
    recs = [r for r, _ in MEAN_FIELD_CASES]
    T = max(t for _, t in MEAN_FIELD_CASES)
    res = nonlinear_energies_mc(n, T, draws, recs, probes=16, seed=seed, progress=False)
    out = []
    for (r, tmax), mc in zip(MEAN_FIELD_CASES, res):
        q = mean_field_profile(T, r.phi, r.sigma, driven=r.driven)
        c = np.zeros(T + 1) if r.phi == "relu" else first_correction_profile(T, r.phi, r.sigma, driven=r.driven)
        for t in range(1, tmax + 1):
            out.append((r.label, n, t, float(mc.mean[t]), float(mc.se[t]), float(q[t] * (1 + c[t] / n)), 0.0))
    return out


FIRST_CORRECTION_CASES = (Recurrence("tanh", 1.0), Recurrence("tanh", 0.9), Recurrence("tanh", 1.0, True))
FIRST_CORRECTION_WIDTHS = (64, 128, 256)


@functools.lru_cache(maxsize=4)
def _width_fits(recs: tuple, draws64: int, seed: int, T: int) -> dict:
    """Per case: ``n d_t`` and its se at n = 64, 128, 256 (draws ``draws64``, halved per doubling of n) and the
    coefficient ``b_t`` of ``1/n`` with its se (weighted least squares of ``n d_t = b_t + e_t / n``), t = 1..T."""
    per = {r: [] for r in recs}
    for i, n in enumerate(FIRST_CORRECTION_WIDTHS):
        res = nonlinear_energies_mc(n, T, max(draws64 >> i, 16), recs, probes=16, seed=seed + n, progress=False)
        for r, mc in zip(recs, res):
            d, s = mc.deviation()
            per[r].append((n * d, n * s))
    out = {}
    x = 1.0 / np.array(FIRST_CORRECTION_WIDTHS, dtype=float)
    for r in recs:
        nd = np.array([a for a, _ in per[r]])
        ns = np.array([b for _, b in per[r]])
        fits = []
        for t in range(1, T + 1):
            M = np.stack([np.ones_like(x), x], axis=1) / ns[:, t, None]
            coef, *_ = np.linalg.lstsq(M, nd[:, t] / ns[:, t], rcond=None)
            fits.append((t, float(coef[0]), float(math.sqrt(np.linalg.inv(M.T @ M)[0, 0]))))
        out[r] = {"nd": nd, "se": ns, "fits": fits}
    return out


def _first_correction_data(draws64: int, seed: int, T: int = 4) -> dict:
    """Per tanh case (its label): the width fits of :func:`_width_fits` with the derived ``c_t`` beside each."""
    out = {}
    for r, d in _width_fits(FIRST_CORRECTION_CASES, draws64, seed, T).items():
        c = first_correction_profile(T, r.phi, r.sigma, driven=r.driven)
        out[r.label] = {**d, "fits": [(t, b, s, float(c[t])) for t, b, s in d["fits"]], "c": c}
    return out


# the whole first correction, tying included (tied_correction_profile): where it is exactly 0, where it has a
# closed form (theory.relu_tying: driven relu at depth 2, free relu at depth 3), and relu's
TIED_ZEROS = ((Recurrence("identity", 1.0), (1, 2, 3, 4)), (Recurrence("identity", 0.9, True), (1, 2, 3, 4)),
              (Recurrence("relu", SQ2), (1, 2)), (Recurrence("relu", SQ2, True), (1,)))
TIED_CLOSED = ((Recurrence("relu", SQ2, True), (2,)), (Recurrence("relu", SQ2), (3,)))
TIED_CASES = (Recurrence("relu", SQ2), Recurrence("relu", SQ2, True))


def _tied_data(draws64: int, samples: int, seed: int, T: int = 4) -> tuple[list, dict]:
    """``(reference rows (label, t, b, se, reference): 0 at the exact zeros, the closed forms (driven
    relu at depth 2, free relu at depth 3), the independent-step c_t for tanh;
    per relu case (label): the width fits with the derived b_t and its se)``."""
    derived = {r: tied_correction_profile(T, samples, phi=r.phi, sigma=r.sigma, driven=r.driven, seed=seed + i)
               for i, r in enumerate(dict.fromkeys([r for r, _ in TIED_ZEROS] + list(TIED_CASES)
                                                   + list(FIRST_CORRECTION_CASES) + [r for r, _ in TIED_CLOSED]))}
    zeros = [(r.label, t, float(derived[r].b[t]), float(derived[r].se[t]), 0.0) for r, ts in TIED_ZEROS for t in ts]
    zeros += [(r.label, t, float(derived[r].b[t]), float(derived[r].se[t]), relu_tying_b(t, r.sigma, driven=r.driven))
              for r, ts in TIED_CLOSED for t in ts]
    for r in FIRST_CORRECTION_CASES:
        c = first_correction_profile(T, r.phi, r.sigma, driven=r.driven)
        zeros += [(r.label, t, float(derived[r].b[t]), float(derived[r].se[t]), float(c[t])) for t in range(1, T + 1)]
    fits = {}
    for r, d in _width_fits(TIED_CASES, draws64, seed, T).items():
        b, se = derived[r].b, derived[r].se
        fits[r.label] = {**d, "fits": [(t, bf, sf, float(b[t]), float(se[t])) for t, bf, sf in d["fits"]], "c": b}
    return zeros, fits


# --------------------------------------------------------------------------------------------------
# figures
# --------------------------------------------------------------------------------------------------
def _plot_identity(path, cases, *, ax=None):
    """Monte Carlo against exact energies of the identity recurrence: ``(mc - exact) / se`` per point."""
    fig, ax = panels(ax, figsize=(6.5, 3.6))
    labels = sorted({c[0] for c in cases})
    for i, lab in enumerate(labels):
        for j, n in enumerate((16, 32)):
            sel = [c for c in cases if c[0] == lab and c[1] == n]
            ax.plot([c[2] + 0.1 * (2 * j - 1) for c in sel], [(c[3] - c[5]) / c[4] for c in sel], "os"[j], ms=4,
                    color=f"C{i}", mfc="none" if j else None, label=f"{lab}, n = {n}")
    z = z_for_false_alarm(m=len(cases))
    for s in (-z, z):
        ax.axhline(s, color="k", lw=0.8, ls="--")
    ax.set_xlabel("depth t")
    ax.set_ylabel("(Monte Carlo - exact) / se")
    ax.set_title(f"identity recurrence vs exact real-weight energies (dashed: +-{z:.2f})", fontsize=9)
    ax.legend(fontsize=6, ncol=2)
    return finish(fig, path)


def _plot_first_correction(path, data, *, ax=None, derived: str = "c_t"):
    """``n d_t`` at each width and the fitted ``b_t`` against the derived ``c_t`` (tanh) or ``b_t`` (relu)."""
    fig, ax = panels(ax, figsize=(6.5, 3.8))
    for i, (lab, d) in enumerate(data.items()):
        T = d["nd"].shape[1] - 1
        t = np.arange(T + 1)
        for j, n in enumerate(FIRST_CORRECTION_WIDTHS):
            ax.errorbar(t[1:] + 0.06 * (j - 1), d["nd"][j, 1:], d["se"][j, 1:], fmt="o", ms=3, color=f"C{i}",
                        alpha=0.35 + 0.3 * j, label=f"{lab}: n d_t, n = {n}" if i == 0 else None)
        ax.errorbar([f[0] for f in d["fits"]], [f[1] for f in d["fits"]], [f[2] for f in d["fits"]], fmt="s",
                    ms=5, mfc="none", color=f"C{i}", label=f"{lab}: b_t (extrapolated)")
        ax.plot(t, d["c"], "-", color=f"C{i}", lw=1, label=f"{lab}: derived {derived}")
    ax.set_xlabel("depth t")
    ax.set_ylabel("n (E||h_t||^2 / (n q_t) - 1)")
    ax.legend(fontsize=6)
    return finish(fig, path)


# --------------------------------------------------------------------------------------------------
# the checks
# --------------------------------------------------------------------------------------------------
@check("nonlinear.identity_exact", paper=PAPER,
       claim="the identity recurrence h_t = W h_{t-1} (free) and h_t = W h_{t-1} + x_t (driven) has the exact "
             "real-weight energies sigma^(2t) Q^R_{n,t} and sum_k sigma^(2k) Q^R_{n,k}",
       closed_form="theory.nonlinear.identity_energy",
       numerics="numerics.signal_propagation.nonlinear_mc.nonlinear_energies_mc (n = 16, 32, t <= 10; 2000 draws "
                "quick, 8000 cpu/full)",
       statistic="|MC - exact| <= error + z se, se from the same run, Bonferroni z (1e-6 family)")
def _identity(ctx: Context) -> Outcome:
    cases = _identity_cases(2000 if ctx.profile == "quick" else 8000, ctx.seed + 41)
    return with_figure(ctx, verdict_identity_exact(cases), "nonlinear_identity.png", _plot_identity, cases)


@check("nonlinear.mean_field", paper=PAPER,
       claim="at large width the energy of tanh, relu and identity recurrences with tied weights is the "
             "mean field q_t = E phi(sqrt(sigma^2 q_{t-1} (+1)) xi)^2, to first order q_t (1 + c_t / n)",
       closed_form="theory.nonlinear.mean_field_profile, theory.nonlinear.first_correction_profile",
       numerics="numerics.signal_propagation.nonlinear_mc.nonlinear_energies_mc (n = 1024, 64 draws quick; "
                "n = 4096, 48 draws cpu/full; 16 probes)",
       statistic="|MC - q_t (1 + c_t/n)| <= z se, Bonferroni z (1e-6 family)")
def _mean_field(ctx: Context) -> Outcome:
    n, draws = (1024, 64) if ctx.profile == "quick" else (4096, 48)
    return verdict_mean_field(_mean_field_cases(n, draws, ctx.seed + 42))


@check("nonlinear.first_correction", paper=PAPER,
       claim="for tanh the first finite-width correction of the energy is c_t / n from the independent-step "
             "recursion (weight tying enters at O(n^-2) for an odd activation)",
       closed_form="theory.nonlinear.first_correction_profile",
       numerics="numerics.signal_propagation.nonlinear_mc.nonlinear_energies_mc (n = 64, 128, 256; 4000, 2000, "
                "1000 draws quick, 16000, 8000, 4000 cpu/full), weighted fit of n d_t = b_t + e_t / n",
       statistic="|b_t - c_t| <= z se(b_t), Bonferroni z (1e-6 family), t = 1..4")
def _first_correction(ctx: Context) -> Outcome:
    data = _first_correction_data(4000 if ctx.profile == "quick" else 16000, ctx.seed + 43)
    rows = [(lab, t, b, s, c) for lab, d in data.items() for t, b, s, c in d["fits"]]
    return with_figure(ctx, verdict_first_correction(rows), "nonlinear_first_correction.png", _plot_first_correction,
                       data)


@check("nonlinear.tied_correction", paper=PAPER,
       claim="the whole 1/n term b_t of a tied-weight recurrence's energy, weight tying included, is the "
             "second-order von Mises expansion of its exact Gaussian-conditioning representation: 0 where "
             "known to vanish, the closed forms (driven relu at depth 2, free at 3), the independent-step c_t "
             "for tanh (tying adds nothing at 1/n for an odd activation), and for relu (nonzero from depth 3 "
             "free, depth 2 driven) the recurrence's own finite-width coefficient",
       closed_form="numerics.signal_propagation.tied_correction.tied_correction_profile (derived; its Gaussian "
                   "integral by Monte Carlo, 2^17 samples quick, 2^19 cpu/full)",
       numerics="numerics.signal_propagation.nonlinear_mc.nonlinear_energies_mc (n = 64, 128, 256; 4000, 2000, "
                "1000 draws quick, 16000, 8000, 4000 cpu/full), weighted fit of n d_t = b_t + e_t / n",
       statistic="|b_t - ref| <= z se at the exact zeros (ref 0: identity t <= 4, relu t = 1, free relu t = 2), "
                 "at the closed forms (ref theory.relu_tying.relu_tying_b, sigma^2 = 2: driven relu t = 2, free "
                 "relu t = 3) "
                 "and for tanh (ref c_t: sigma = 1, 0.9 free, 1 driven, t <= 4); |b_fit - b_t| "
                 "<= z sqrt(se_fit^2 + se^2) for relu sigma^2 = 2, free and driven, t = 1..4; Bonferroni z "
                 "(1e-6 family)")
def _tied_correction(ctx: Context) -> Outcome:
    quick = ctx.profile == "quick"
    zeros, data = _tied_data(4000 if quick else 16000, 1 << (17 if quick else 19), ctx.seed + 44)
    fits = [(lab, t, bf, sf, b, se) for lab, d in data.items() for t, bf, sf, b, se in d["fits"]]
    plot_data = {lab: {**d, "fits": [f[:3] for f in d["fits"]]} for lab, d in data.items()}
    return with_figure(ctx, verdict_tied_correction(zeros, fits), "nonlinear_tied_correction.png",
                       _plot_first_correction, plot_data, derived="b_t (tying included)")
