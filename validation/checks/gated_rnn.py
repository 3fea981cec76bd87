"""Anti-collapse in trained gated RNNs: ConstGate, SharedGate, DiagGate (the empirical half of the paper).

Paper: L. Livi, "Anti-Collapse Dynamics and the Emergence of Multi-Time-Scale Learning in Recurrent Neural
Networks", arXiv:2606.29519 (2026), experiments 1 (structural negative control) and 2 (access route).
Conventions: ``docs/papers/anti-collapse.md`` as implemented in ``numerics.anticollapse`` (the author's
envelope observable, window gate and phase rule: ``numerics.anticollapse.envelope_gate``).

Profiles (``benchmarks/gated_rnn/*.json``): ``--quick`` trains ``quick.json`` with its first seed (CI: far
from converged), ``--cpu`` and ``--full`` train ``cpu.json`` with every seed (about 25 minutes of 2 cores);
``reference.json`` (H = 512, T = 1280, 1400 epochs, 10 seeds, about 5,900 core-hours on CPU) runs only
with ``--full`` on a machine with an accelerator. Each model is trained once per process, runs in parallel
processes (one torch thread each), and the checks share them.

Decision rules (fixed before any run was looked at; intervals are 90% bootstrap intervals; the pure
``verdict_*`` functions take the checkpoint summaries of ``GatedDiagnostics.summary``):

- Resolution first: a claim whose runs do not resolve the spectrum at the final checkpoint (envelope lags
  below the tail's time scales, or fewer than 16 finite time scales) is ``inconclusive``, with the reason
  (``numerics.anticollapse.envelope_gate.resolution_check``); the DiagGate-vs-SharedGate claim is about the
  tau samples alone and needs only the tail sample.
- ConstGate stays collapsed: the phase label is "collapsed" at every checkpoint (on the measured envelope
  and on the mixture), with and without forcing, and the lower end of the tail interval for beta is above 1
  at every checkpoint (no broad spectrum).
- DiagGate broader than SharedGate: at the final checkpoint DiagGate's tail interval lies entirely below
  SharedGate's and its upper-tail ratio tau_q90 / tau_median is larger.
- Tail and envelope estimates agree (DiagGate, final checkpoint): the 90% interval of
  ``beta_env(measured) - beta_env(Pareto mixture with the measured tail beta and tau range)`` (same
  estimator, same grid; bootstrap over units and over the tail fit's replicates) contains 0. A tail fit
  with R^2 < 0.90 has no beta to compare: ``inconclusive``. The window gate's outcome is reported alongside.

A claim that fails its rule at a resolving scale is ``not reproduced`` with the numbers; every seed counts.
"""

from __future__ import annotations

import numpy as np

from numerics.plotting import pyplot as _plt, save_figure
from validation.registry import INCONCLUSIVE, NOT_REPRODUCED, NOT_RUN, PASS, Context, Outcome, check
from validation.stats import markdown_table

PAPER = "Livi (2026), arXiv:2606.29519"
RUNS = ("const", "const_forced", "shared", "diag")
_CACHE: dict = {}
NUMERICS = ("numerics.anticollapse.train.train_gated, numerics.anticollapse.diagnostics.diagnose, "
            "numerics.anticollapse.envelope_gate.window_gate")


# ----------------------------------------------------------------------------------------------------
# training once per process
# ----------------------------------------------------------------------------------------------------
def profile_name(ctx: Context) -> str:
    return "quick" if ctx.profile == "quick" else "cpu"


def _profile(name: str):
    from numerics.anticollapse.train import load_profile

    if ("profile", name) not in _CACHE:
        _CACHE[("profile", name)] = load_profile(name)
    return _CACHE[("profile", name)]


def _seeds(ctx: Context) -> tuple[int, ...]:
    seeds = _profile(profile_name(ctx)).seeds
    return seeds[:1] if ctx.profile == "quick" else seeds


def _train_all(name: str, seeds, device: str = "cpu", workers: int = 2) -> dict:
    """``{(run, seed): GatedRun}`` for every run of profile ``name``, trained once per process.

    Runs are independent and deterministic given config, seed and thread count (one torch thread per
    worker), so the parallel result equals a serial one-thread run.
    """
    import concurrent.futures as cf
    import multiprocessing

    from numerics.anticollapse.train import train_gated, train_gated_in_worker

    prof = _profile(name)
    todo = [(run, s) for s in seeds for run in prof.configs if (name, run, s) not in _CACHE]
    if device != "cpu" or workers == 1:
        for run, s in todo:
            _CACHE[(name, run, s)] = train_gated(prof.configs[run], seed=s, device=device)
    elif todo:
        with cf.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            fut = {pool.submit(train_gated_in_worker, prof.configs[run], s, 1): (run, s) for run, s in todo}
            for f in cf.as_completed(fut):
                _CACHE[(name, *fut[f])] = f.result()
    return {(run, s): _CACHE[(name, run, s)] for s in seeds for run in prof.configs}


def collect(runs: dict) -> dict:
    """``{"seed<k>": {run: [checkpoint summaries]}}``: the input of the ``verdict_*`` functions."""
    out: dict = {}
    for (run, s), r in runs.items():
        out.setdefault(f"seed{s}", {})[run] = r.phase_trajectory()
    return out


def _ci(x) -> str:
    return f"[{x[0]:.3g}, {x[1]:.3g}]" if x is not None else "-"


def _unresolved(data: dict, runs: tuple[str, ...], envelope: bool = True) -> list[str]:
    """Reasons why the final checkpoints of ``runs`` do not resolve the spectrum (empty: resolved).
    ``envelope=False``: only the tail sample counts (a claim about the tau sample alone)."""
    out = []
    for seed, by_run in data.items():
        for run in runs:
            fin = by_run[run][-1]
            if envelope and not fin["resolved"]:
                out.append(f"{run} {seed}: {fin['resolution_reason']}")
            elif not envelope and "beta_tail" not in fin:
                out.append(f"{run} {seed}: {fin['note']}")
    return out


def _inconclusive(why: list[str], rule: Outcome | None = None) -> Outcome:
    """``inconclusive`` with the reasons, and what the rule would read off the unresolved numbers (no verdict)."""
    tail = f". The rule on these unresolved numbers (not a verdict): {rule.summary}" if rule is not None else ""
    return Outcome(INCONCLUSIVE, "spectrum not resolved at this scale: " + "; ".join(why) + tail)


# ----------------------------------------------------------------------------------------------------
# verdicts (pure, on checkpoint summaries)
# ----------------------------------------------------------------------------------------------------
def verdict_constgate(data: dict) -> Outcome:
    """ConstGate collapsed at every checkpoint, with and without forcing, tail interval above 1."""
    why = _unresolved(data, ("const", "const_forced"))
    return _inconclusive(why, _rule_constgate(data)) if why else _rule_constgate(data)


def _rule_constgate(data: dict) -> Outcome:
    bad, lows = [], []
    for seed, by_run in data.items():
        for run in ("const", "const_forced"):
            for c in by_run[run]:
                lo = c["beta_tail_ci"][0] if "beta_tail_ci" in c else float("nan")
                lows.append(lo)
                if c["phase"] != "collapsed" or c["phase_mixture"] != "collapsed" or not lo > 1.0:
                    bad.append(f"{run} {seed} epoch {c['epoch']}: phase {c['phase']}/{c['phase_mixture']}, "
                               f"tail interval lower end {lo:.3g}")
    if bad:
        return Outcome(NOT_REPRODUCED, "not reproduced: " + "; ".join(bad[:6]) + (" ..." if len(bad) > 6 else ""))
    return Outcome(PASS, f"ConstGate collapsed at every checkpoint of {len(data)} seed(s) with and without forcing "
                         f"(measured envelope and mixture); tail beta intervals start at >= {min(lows):.3g}")


def _upper(c: dict) -> float:
    return float(c["tau_q90"] / c["tau_median"])


def verdict_diag_vs_shared(data: dict) -> Outcome:
    """DiagGate's final tail interval below SharedGate's and a heavier upper tail, every seed."""
    why = _unresolved(data, ("shared", "diag"), envelope=False)
    if why:
        return _inconclusive(why)
    parts, ok, against, overlap = [], True, False, []
    for seed, by_run in data.items():
        fs, fd = by_run["shared"][-1], by_run["diag"][-1]
        sep = fd["beta_tail_ci"][1] < fs["beta_tail_ci"][0]
        heavier = _upper(fd) > _upper(fs)
        ok &= sep and heavier
        # evidence against the claim: DiagGate's interval above SharedGate's, or separated but a lighter tail
        against |= fd["beta_tail_ci"][0] > fs["beta_tail_ci"][1] or (sep and not heavier)
        if not sep and fd["beta_tail_ci"][0] <= fs["beta_tail_ci"][1]:
            overlap.append(seed)
        parts.append(f"{seed}: beta Diag {fd['beta_tail']:.3g} {_ci(fd['beta_tail_ci'])} vs Shared "
                     f"{fs['beta_tail']:.3g} {_ci(fs['beta_tail_ci'])}; q90/median {_upper(fd):.3g} vs {_upper(fs):.3g}")
    summary = "; ".join(parts)
    if ok:
        return Outcome(PASS, summary)
    if against:
        return Outcome(NOT_REPRODUCED, "not reproduced: " + summary)
    # overlapping intervals are no evidence either way: the run cannot separate the two gates at this scale
    return Outcome(INCONCLUSIVE, f"the tail intervals overlap in {', '.join(overlap)}: this run cannot separate "
                                 f"DiagGate from SharedGate: " + summary)


def verdict_tail_envelope(data: dict) -> Outcome:
    """DiagGate final: the calibrated difference interval contains 0 (see the module docstring)."""
    why = _unresolved(data, ("diag",))
    why += [f"diag {s}: tail fit R^2 = {r['diag'][-1]['beta_tail_r2']:.3f} < 0.90 (unresolved beta)"
            for s, r in data.items() if r["diag"][-1].get("beta_tail_r2", 1.0) < 0.90]
    has = all("tail_envelope_agree" in r["diag"][-1] for r in data.values())
    if why:
        return _inconclusive(why, _rule_tail_envelope(data) if has else None)
    return _rule_tail_envelope(data)


def _rule_tail_envelope(data: dict) -> Outcome:
    parts, ok = [], True
    for seed, by_run in data.items():
        f = by_run["diag"][-1]
        ok &= f["tail_envelope_agree"]
        parts.append(f"{seed}: tail {f['beta_tail']:.3g} {_ci(f['beta_tail_ci'])}; beta_env measured "
                     f"{f['beta_env']:.3g} {_ci(f['beta_env_ci'])} vs calibrated {f['beta_env_calibrated']:.3g} "
                     f"{_ci(f['beta_env_calibrated_ci'])}, difference {_ci(f['beta_env_diff_ci'])}; "
                     f"gate {'passed' if f['envelope_gate_passed'] else 'failed: ' + f['envelope_gate_reason']}")
    summary = "DiagGate " + "; ".join(parts)
    return Outcome(PASS, summary) if ok else Outcome(NOT_REPRODUCED, "not reproduced: " + summary)


VERDICTS = {"constgate": verdict_constgate, "diag_vs_shared": verdict_diag_vs_shared,
            "tail_envelope": verdict_tail_envelope}


# ----------------------------------------------------------------------------------------------------
# tables and figure
# ----------------------------------------------------------------------------------------------------
_HEAD = ["run", "epoch", "phase (envelope)", "phase (mixture)", "resolved", "beta_tail", "tail CI", "R^2",
         "beta_env", "env CI", "calibrated", "gate", "window", "tau median", "tau q90", "tau max"]


def trajectory_table(data: dict, runs: tuple[str, ...]) -> str:
    rows = []
    for seed, by_run in data.items():
        for run in runs:
            for c in by_run[run]:
                rows.append([f"{run} {seed}", c["epoch"], c["phase"], c["phase_mixture"], c["resolved"],
                             c.get("beta_tail", float("nan")), _ci(c.get("beta_tail_ci")),
                             c.get("beta_tail_r2", float("nan")), c.get("beta_env", float("nan")),
                             _ci(c.get("beta_env_ci")), c.get("beta_env_calibrated", float("nan")),
                             "pass" if c["envelope_gate_passed"] else c["envelope_gate_reason"],
                             _ci(c.get("envelope_window")), c["tau_median"], c["tau_q90"], c["tau_max"]])
    return markdown_table(_HEAD, rows)


def spectrum_figure(path, finals: dict) -> None:
    """Three panels: (a) tau CCDFs with the tail window's upper end and the longest envelope lag
    (resolution check); (b) measured envelopes, their gate windows shaded; (c) beta intervals (tail,
    envelope, calibrated) and the phase of each model. ``finals``: label -> final ``GatedDiagnostics``."""
    plt = _plt()
    fig, ax = plt.subplots(1, 3, figsize=(16, 4.5))
    for i, (label, d) in enumerate(finals.items()):
        tau = np.sort(d.rates.finite_tau)
        line, = ax[0].loglog(tau, 1.0 - np.arange(tau.size) / max(tau.size, 1), ".-", ms=3, label=label)
        col = line.get_color()
        ax[0].axvline(d.resolution.tau_hi, color=col, ls=":", lw=1)
        env = d.envelope
        ax[1].loglog(env.lags, env.measured, "-", color=col, label=f"{label}: {d.gate.best if d.gate else '-'}")
        if d.gate is not None and d.gate.n_window:
            ax[1].axvspan(*d.gate.window, color=col, alpha=0.12)
        _beta_bars(ax[2], i, d, col)
    lag_max = max(d.resolution.lag_max for d in finals.values())
    ax[0].axvline(lag_max, color="k", ls="--", lw=1, label=f"longest envelope lag {lag_max:.0f}")
    ax[0].set(xlabel="tau_q", ylabel="P(tau > x)", title="spectra; dotted: tail window end (resolution)")
    ax[1].set(xlabel="lag l", ylabel="f(l) (mu0)", title="envelope; shaded: the gate's window (l <= l*)",
              ylim=(1e-6, 1.5))
    ax[2].axhline(1.0, color="k", lw=0.8)
    ax[2].set(xticks=range(len(finals)), ylabel="beta", yscale="log",
              title="90% intervals: tail (o), envelope (s), calibrated (^)")
    ax[2].set_xticklabels([f"{k}\n{d.phase}\n{'resolved' if d.resolution.resolved else 'NOT resolved'}"
                           for k, d in finals.items()], fontsize=8)
    for a in ax[:2]:
        a.legend(fontsize=7)
    save_figure(fig, path)


def _beta_bars(ax, i: int, d, col) -> None:
    items = []
    if d.tail is not None:
        items.append((-0.2, d.tail.beta, d.tail.ci, "o"))
    if d.comparison is not None:
        c = d.comparison
        items += [(0.0, c.beta_env, c.beta_env_ci, "s"), (0.2, c.beta_cal, c.beta_cal_ci, "^")]
    for dx, b, ci, m in items:
        lo, hi = max(ci[0], 1e-3), max(ci[1], 1e-3)
        ax.errorbar(i + dx, max(b, 1e-3), yerr=[[max(b, 1e-3) - lo], [hi - max(b, 1e-3)]], fmt=m, color=col)


def _outcome(ctx: Context, key: str, runs: tuple[str, ...], fig: str | None = None, fig_runs=()) -> Outcome:
    name = profile_name(ctx)
    trained = _train_all(name, _seeds(ctx))
    data = collect(trained)
    out = VERDICTS[key](data)
    out.summary = f"{name} profile, {len(data)} seed(s): {out.summary}"
    out.details = f"Profile `{name}.json`, seeds {list(_seeds(ctx))}.\n\n" + trajectory_table(data, runs)
    out.data = {seed: {r: by_run[r] for r in runs} for seed, by_run in data.items()}
    if fig is not None:
        s0 = _seeds(ctx)[0]
        spectrum_figure(ctx.figure_path(fig), {r: trained[(r, s0)].final for r in fig_runs})
        out.figures = [fig]
    return out


# ----------------------------------------------------------------------------------------------------
@check("gated_rnn.constgate_stays_collapsed",
       paper=PAPER + ", experiment 1 (structural negative control)",
       claim="a frozen-gate network (ConstGate) stays in the collapsed regime, with and without heavy-tailed "
             "forcing (alpha = 1.5 stable noise on the slowest 10% of units' rows, RMS-matched, c = 100)",
       closed_form="numerics.estimators.phase_rule",
       numerics=NUMERICS,
       statistic="resolved; phase == 'collapsed' (measured envelope and mixture) at every checkpoint of both "
                 "runs, every seed, and the lower end of the 90% tail interval for beta above 1")
def _constgate(ctx: Context) -> Outcome:
    return _outcome(ctx, "constgate", ("const", "const_forced"), "gated_rnn_constgate.png", ("const", "const_forced"))


@check("gated_rnn.diaggate_broader_than_sharedgate",
       paper=PAPER + ", experiment 2 (access route)",
       claim="per-unit gates (DiagGate) develop a broader time-scale spectrum than one shared gate "
             "(SharedGate): heavier upper tail and lower tail exponent beta",
       closed_form="numerics.estimators.tail_beta",
       numerics=NUMERICS,
       statistic="resolved; final checkpoint: upper end of DiagGate's 90% tail interval < lower end of "
                 "SharedGate's, and tau_q90/tau_median(DiagGate) > that of SharedGate; every seed")
def _diag_vs_shared(ctx: Context) -> Outcome:
    return _outcome(ctx, "diag_vs_shared", ("shared", "diag"), "gated_rnn_spectra.png", RUNS)


@check("gated_rnn.tail_and_envelope_beta_agree",
       paper=PAPER + ", experiment 2 (spectrum-envelope correspondence)",
       claim="the spectral exponent from the time-scale tail agrees with the one from the envelope decay "
             "(Laplace-Tauberian correspondence p(tau) ~ tau^-(1+beta) <=> f(l) ~ l^-beta)",
       closed_form="theory.tauberian.envelope_from_spectrum, numerics.anticollapse.envelope_gate.calibrated_comparison",
       numerics=NUMERICS,
       statistic="resolved, tail R^2 >= 0.90; DiagGate final checkpoint: the 90% bootstrap interval of "
                 "beta_env(measured) - beta_env(Pareto mixture at the tail beta) contains 0; every seed")
def _tail_vs_envelope(ctx: Context) -> Outcome:
    return _outcome(ctx, "tail_envelope", ("diag",))


def verdict_reference(data: dict) -> Outcome:
    """The three rules above on the reference-scale runs: pass only if all three pass."""
    outs = {k: v(data) for k, v in VERDICTS.items()}
    verdicts = {o.verdict for o in outs.values()}
    verdict = PASS if verdicts == {PASS} else (INCONCLUSIVE if INCONCLUSIVE in verdicts and
                                               NOT_REPRODUCED not in verdicts else NOT_REPRODUCED)
    return Outcome(verdict, "; ".join(f"{k}: {o.verdict} ({o.summary})" for k, o in outs.items()))


@check("gated_rnn.reference_scale",
       paper=PAPER + ", experiments 1-2 at the published scale",
       claim="the three claims above at H = 512, T = 1280, 1400 epochs, 10 seeds (seed reports beta ~ 0.42 "
             "for DiagGate)",
       closed_form="numerics.estimators.phase_rule, numerics.estimators.tail_beta, "
                   "numerics.anticollapse.envelope_gate.calibrated_comparison",
       numerics=NUMERICS,
       statistic="benchmarks/gated_rnn/reference.json on CUDA; the decision rules of the three checks above "
                 "(verdict_constgate, verdict_diag_vs_shared, verdict_tail_envelope), every seed",
       profiles=("full",))
def _reference(ctx: Context) -> Outcome:
    import torch

    if not torch.cuda.is_available():
        return Outcome(NOT_RUN, "needs an accelerator: 40 runs of ~29,400 AdamW steps at H = 512, T = 1280, about "
                                "5,900 core-hours on CPU; see benchmarks/gated_rnn/reference.json")
    prof = _profile("reference")
    return verdict_reference(collect(_train_all("reference", prof.seeds, device="cuda")))
