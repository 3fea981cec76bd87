"""Every verdict function at the edge of each of its levels: synthetic data just inside and just outside
(issue 43: thresholds were tested with clear-cut effects only, so ``no_single_best``'s Bonferroni division could
be dropped unseen).

``test_every_verdict_has_an_edge_test`` enumerates the ``verdict_*`` functions of every module of
``validation.checks`` and asks for a test here named ``test_edge__<module>__<function>``, or an entry of
``NO_LEVEL`` saying why the verdict has no threshold of its own (exact equalities, compositions): a new verdict
without either fails it.

The levels are computed here from the rules' text, not read from the code under test: the Monte Carlo z is
``max(4.5, Phi^-1(1 - p / (2 m)))`` (scipy's normal quantile) with the rule's own count ``m``; "just inside"
and "just outside" are the neighbouring floats of a boundary (``math.nextafter``) where a rule compares a
number with a constant, one relative 1e-9 where the boundary itself is computed (z se, slopes), and the
smallest change of the design (one seed, one pair) where the statistic is discrete (sign tests, Mann-Whitney).
"""

from __future__ import annotations

import importlib
import inspect
import math
import pkgutil
from types import SimpleNamespace

import numpy as np
import pytest
from scipy.stats import norm

import validation.checks
from validation.registry import FAIL, INCONCLUSIVE, NOT_REPRODUCED, PASS

LEVEL = 0.01                 # the architecture claims' one-sided level (docs/papers/memory-functions.md)
P_FAMILY = 1e-6              # the Monte Carlo checks' family false-alarm rate
LOG2 = math.log10(2.0)


def zcrit(m: int, p: float = P_FAMILY) -> float:
    """The Monte Carlo critical value of the rule's text: two-sided Bonferroni over m, never below 4.5."""
    return max(4.5, float(norm.isf(p / (2 * m))))


def up(x: float) -> float:
    return math.nextafter(x, math.inf)


def down(x: float) -> float:
    return math.nextafter(x, -math.inf)


# --------------------------------------------------------------------------------------------------
# the meta-test
# --------------------------------------------------------------------------------------------------
NO_LEVEL = {
    "init_laws.verdict_rows": "exact equality of rational rows (two routes, and the Gaussian against the real rows)",
    "init_laws.verdict_structure": "exact equality of refitted rational coefficients and of every row",
    "signal_energy.verdict_series": "exact equality of integers and rationals",
    "signal_numerics.verdict_complex_hultman": "exact equality of integer rows",
    "signal_numerics.verdict_real_table": "exact identities of integer rows",
    "real_expansion.verdict_coefficients": "exact equality of rational coefficients",
    "real_expansion.verdict_scaling": "exact equality of rational Taylor coefficients",
    "real_pfaffian.verdict_same_rows": "exact equality of integer rows",
    "real_weights.verdict_rows": "exact equality of integer rows",
    "real_weights.verdict_identities": "exact integer identities",
    "architectures.verdict_prony_budget": "chooses the budget's exported sums and calls verdict_prony_bound "
                                          "(its edges are tested)",
    "gated_rnn.verdict_constgate": "equality of phase labels (the labels' own levels are tested with the "
                                   "calibrated phase and the envelope gate)",
    "gated_rnn.verdict_reference": "the conjunction of the three trained-model verdicts (each edge-tested)",
}


def all_verdicts() -> list[str]:
    out = []
    for info in pkgutil.iter_modules(validation.checks.__path__):
        mod = importlib.import_module(f"validation.checks.{info.name}")
        out += [f"{info.name}.{name}" for name, fn in inspect.getmembers(mod, inspect.isfunction)
                if name.startswith("verdict_") and fn.__module__ == mod.__name__]
    return sorted(out)


def test_every_verdict_has_an_edge_test():
    verdicts = all_verdicts()
    assert len(verdicts) >= 50                   # the enumeration itself works
    tests = {name for name in globals() if name.startswith("test_edge__")}
    want = {"test_edge__" + v.replace(".", "__") for v in verdicts if v not in NO_LEVEL}
    assert not want - tests, f"verdicts without an edge test here (or a reason in NO_LEVEL): {sorted(want - tests)}"
    assert not tests - want, f"edge tests of no (or an allow-listed) verdict: {sorted(tests - want)}"
    assert set(NO_LEVEL) <= set(verdicts), f"NO_LEVEL names unknown verdicts: {set(NO_LEVEL) - set(verdicts)}"


# ==================================================================================================
# signal_energy
# ==================================================================================================
from validation.checks import signal_energy as vse  # noqa: E402


def _ladder(float_err=1e-15, float_kind="float", mp=None, ball_ok=True):
    row = dict(n=8, k=3, reference="exact", ball_ok=ball_ok, float_kind=float_kind, float_err=float_err,
               **{f"mp{d}": 0.0 for d in vse.LADDER})
    row.update(mp or {})
    return {"kmax": 3, "rows": [row]}


def test_edge__signal_energy__verdict_precision_ladder():
    f = vse.verdict_precision_ladder
    assert f(_ladder(1e-13)).verdict == PASS and f(_ladder(up(1e-13))).verdict == FAIL
    assert f(_ladder(1e-14, "log_Q")).verdict == PASS and f(_ladder(up(1e-14), "log_Q")).verdict == FAIL
    for d in (15, 30, 60, 120):
        tol = 10.0 ** (1 - d)
        assert f(_ladder(mp={f"mp{d}": tol})).verdict == PASS
        assert f(_ladder(mp={f"mp{d}": up(tol)})).verdict == FAIL
    assert f(_ladder(ball_ok=None)).verdict == PASS and f(_ladder(ball_ok=False)).verdict == FAIL


def _s_methods(float_err=0.0, mp30=0.0, ball_ok=True, tol=1e-13):
    return {"tmax": 5, "rows": [dict(n=8, t=5, reference="exact", ball_ok=ball_ok, float_err=float_err,
                                     float_tol=tol, mp30=mp30)]}


def test_edge__signal_energy__verdict_S_methods():
    f = vse.verdict_S_methods
    for tol in (1e-13, 1e-14):
        assert f(_s_methods(tol, tol=tol)).verdict == PASS and f(_s_methods(up(tol), tol=tol)).verdict == FAIL
    assert f(_s_methods(mp30=1e-29)).verdict == PASS and f(_s_methods(mp30=up(1e-29))).verdict == FAIL
    assert f(_s_methods(ball_ok=False)).verdict == FAIL


NS_CRIT = [10**e for e in range(2, 13)]


def _critical_limit(tilt0=0.0, bump0=1.0, bump1=1.0, sS=-0.5):
    """Errors n^-1/2 (Q), n^-1 (corrected) and n^sS (S). ``tilt0``: the fitted slope of the Q error over n >= 10^4
    raised by this much through a step at n > 10^8 (a pure power law off -1/2 would break the factor-2 rule
    first); ``bump``: multiplies the error at n = 10^4 (the factor-2 rule)."""
    sel = [n for n in NS_CRIT if n >= 10**4]
    x = np.log(np.asarray(sel, float))
    g = np.array([1.0 if n > 10**8 else 0.0 for n in sel])
    unit = float(np.sum((x - x.mean()) * (g - g.mean())) / np.sum((x - x.mean()) ** 2))   # LS slope of the step
    h = tilt0 / unit

    def law(s, bump, step=0.0):
        return [n**s * (bump if n == 10**4 else 1.0) * math.exp(step if n > 10**8 else 0.0) for n in NS_CRIT]
    return {"ns": NS_CRIT, "curves": {1.0: (law(-0.5, bump0, h), law(-1.0, bump1), law(sS, 1.0))}, "rows": []}


def test_edge__signal_energy__verdict_critical_limit():
    """The slope windows of |Q - f| and of the S error, and the factor-2 rule of both scaled errors. (The corrected
    error's window [-1.1, -0.9] is implied by its factor-2 rule: 2x over 8 decades moves a fitted slope by at most
    0.05, so no data reaches that window's edge without breaking the factor-2 rule first.)"""
    f = vse.verdict_critical_limit
    for tilt in (0.05, -0.05):
        assert f(_critical_limit(tilt0=tilt * (1 - 1e-6))).verdict == PASS, tilt
        assert f(_critical_limit(tilt0=tilt * (1 + 1e-6))).verdict == FAIL, tilt
    for edge, sign in ((-0.55, 1), (-0.45, -1)):
        assert f(_critical_limit(sS=edge + sign * 1e-7)).verdict == PASS, edge
        assert f(_critical_limit(sS=edge - sign * 1e-7)).verdict == FAIL, edge
    for kw in ("bump0", "bump1"):          # scaled errors within a factor 2 over n >= 10^4
        assert f(_critical_limit(**{kw: 2.0 * (1 - 1e-7)})).verdict == PASS
        assert f(_critical_limit(**{kw: 2.0 * (1 + 1e-7)})).verdict == FAIL


def _subcritical(t, ratio, resid, n=10**12):
    return {"rows": [dict(n=n, t=t, dev=1e-9, ratio=ratio, resid=resid) for _ in range(7)]}


def test_edge__signal_energy__verdict_subcritical():
    f = vse.verdict_subcritical
    t = 1000                                # (ratio - 1) t within 0.1 of 4 for t >= 100
    assert f(_subcritical(t, 1 + (4.1 - 1e-9) / t, 0.0)).verdict == PASS
    assert f(_subcritical(t, 1 + (4.1 + 1e-9) / t, 0.0)).verdict == FAIL
    assert f(_subcritical(t, 1 + (3.9 + 1e-9) / t, 0.0)).verdict == PASS
    assert f(_subcritical(t, 1 + (3.9 - 1e-9) / t, 0.0)).verdict == FAIL
    assert f(_subcritical(99, 2.0, 0.0)).verdict == PASS          # below t = 100 the ratio is not read
    n, bound = 10**12, 10 * t**8 / (10**12) ** 4 + 1e-38         # residual of the first term
    assert f(_subcritical(t, 1 + 4 / t, bound, n)).verdict == PASS
    assert f(_subcritical(t, 1 + 4 / t, up(bound), n)).verdict == FAIL


def _supercritical(n, t, e_plain=None, e_geo=0.0, e_int=0.0):
    model = t**3 / (6 * n**2) - 3 * n / t**2
    return {"rows": [dict(n=n, c=t / math.sqrt(n), t=t, log_S=100.0, e_plain=model if e_plain is None else e_plain,
                          e_geo=e_geo, e_int=e_int)]}


def test_edge__signal_energy__verdict_supercritical():
    f = vse.verdict_supercritical
    n, t = 10**8, 4 * 10**4                    # t <= n^(2/3): the integral form is read
    model = t**3 / (6 * n**2) - 3 * n / t**2
    w = 0.25 * abs(model) + 20 * (n / t**2) ** 2
    assert f(_supercritical(n, t, model + w * (1 - 1e-9))).verdict == PASS
    assert f(_supercritical(n, t, model + w * (1 + 1e-9))).verdict == FAIL
    g = 3 * n / t**2
    assert f(_supercritical(n, t, e_geo=-g * (1 - 1e-9))).verdict == PASS
    assert f(_supercritical(n, t, e_geo=-g * (1 + 1e-9))).verdict == FAIL
    i = 2 * t**3 / (6 * n**2) + 2 / math.sqrt(n)
    assert f(_supercritical(n, t, e_int=i * (1 - 1e-9))).verdict == PASS
    assert f(_supercritical(n, t, e_int=i * (1 + 1e-9))).verdict == FAIL
    beyond = 10**6                             # t > n^(2/3): the integral form is not read
    assert f(_supercritical(n, beyond, e_int=float("nan"))).verdict == PASS


def _breakdown(n, t, c, boundary=True):
    return {"max_e": 8, "rows": [dict(quantity="Q", tol=0.1, n=n, t=t, c=c, boundary=boundary),
                                 dict(quantity="Q", tol=0.1, n=10**18, t=10**9, c=1.0, boundary=None)]}


def test_edge__signal_energy__verdict_breakdown():
    f = vse.verdict_breakdown
    n, t = 10**6, 1000                          # |t/(c sqrt n) - 1| <= 3/sqrt(n) + 2/t
    w = 3 / math.sqrt(n) + 2 / t
    assert f(_breakdown(n, t, t / (math.sqrt(n) * (1 + w * (1 - 1e-6))))).verdict == PASS
    assert f(_breakdown(n, t, t / (math.sqrt(n) * (1 + w * (1 + 1e-6))))).verdict == FAIL
    assert f(_breakdown(1000, 3000, 1.0)).verdict == PASS          # n < 10^4: the rate is not read
    assert f(_breakdown(n, t, t / math.sqrt(n), boundary=False)).verdict == FAIL


def _feedforward_se(dev_in_se, m=4, ident_ok=True):
    z = zcrit(m)
    rows = [dict(field="complex", n=2, L=1, mean=1.0, mean_se=0.1, m2=1.5 + dev_in_se * z * 0.1, m2_se=0.1,
                 m2_exact=1.5),
            dict(field="real", n=2, L=1, mean=1.0, mean_se=0.1, m2=2.0, m2_se=0.1, m2_exact=2.0)]
    return {"z": z, "rows": rows, "ident_ok": ident_ok, "contrast": [(10**6, 1, 1, 1, 1)]}


def test_edge__signal_energy__verdict_feedforward():
    f = vse.verdict_feedforward
    assert f(_feedforward_se(1 - 1e-9)).verdict == PASS and f(_feedforward_se(1 + 1e-9)).verdict == FAIL
    assert f(_feedforward_se(0.0, ident_ok=False)).verdict == FAIL


# ==================================================================================================
# signal_numerics
# ==================================================================================================
from validation.checks import signal_numerics as vsn  # noqa: E402


def _complex_runs(dev_in_se, D=3, K=5, diag_dev=100.0):
    """Two widths; Q at 1..D and S at 0..D decide (m = 2 (2D + 1)); k > D is a diagnostic."""
    m = 2 * (2 * D + 1)
    z = zcrit(m)
    runs = {}
    for n in (16, 64):
        ex = np.linspace(1.0, 2.0, K + 1)
        q = ex.copy()
        q[D] += dev_in_se * z * 0.01 if n == 64 else 0.0
        q[D + 1:] += diag_dev * 0.01
        runs[n] = dict(K=K, D=D, q_mean=q, q_se=np.full(K + 1, 0.01), q_exact=ex, s_mean=np.cumsum(ex),
                       s_se=np.full(K + 1, 0.01), s_exact=np.cumsum(ex))
    return {"runs": runs}


def test_edge__signal_numerics__verdict_complex_Q_S():
    f = vsn.verdict_complex_Q_S
    assert f(_complex_runs(1 - 1e-9)).verdict == PASS and f(_complex_runs(1 + 1e-9)).verdict == FAIL
    assert f(_complex_runs(0.0, diag_dev=1e6)).verdict == PASS        # beyond D: reported, never decisive


def _real_runs(two_sided=0.0, one_sided=0.0, D=4, E=2, K=6):
    """Enumerated rows up to E (two-sided), one-sided Q^R >= Q beyond (E < k <= D), diagnostics past D."""
    m = (E) + (E + 1) + (D - E)            # Q at 1..E, S at 0..E, one-sided at E+1..D
    z = zcrit(m)
    exq = np.linspace(1.0, 1.2, E + 1)
    q_complex = np.linspace(1.0, 1.5, K + 1)
    q = np.concatenate([exq, q_complex[E + 1:] + 1.0])
    q[E] += two_sided * z * 0.01
    q[D] = q_complex[D] - one_sided * z * 0.01
    q[D + 1:] = -100.0                       # diagnostics: far below, never decisive
    s = np.concatenate([np.cumsum(exq), np.full(K - E, 50.0)])
    return {"kenum": E, "runs": {32: dict(K=K, D=D, q_mean=q, q_se=np.full(K + 1, 0.01), s_mean=s,
                                          s_se=np.full(K + 1, 0.01), q_exact=exq, q_complex=q_complex)}}


def test_edge__signal_numerics__verdict_real_Q_S():
    f = vsn.verdict_real_Q_S
    assert f(_real_runs(two_sided=1 - 1e-9)).verdict == PASS
    assert f(_real_runs(two_sided=1 + 1e-9)).verdict == FAIL
    assert f(_real_runs(one_sided=1 - 1e-9)).verdict == PASS
    assert f(_real_runs(one_sided=1 + 1e-9)).verdict == FAIL


def _critical(slope=-0.5, mc_dev=0.0, flat_at=None):
    ns = [100, 400, 1600, 6400]
    c = 1.0
    from theory.regimes import critical_curve
    fval = float(critical_curve(c))
    errs = [n**slope for n in ns]
    if flat_at is not None:
        errs[flat_at] = errs[flat_at - 1]
    pts = [(n, int(math.sqrt(n)), fval + e) for n, e in zip(ns, errs)]
    mcs = [dict(n=100, c=c, k=10, mean=1.2 + (mc_dev * zcrit(2) * 0.01 if i == 0 else 0.0), se=0.01, exact=1.2)
           for i in range(2)]
    return {"cs": (c,), "ms": [10, 20, 40, 80], "exact": {c: pts}, "mc_ns": [100], "mc": mcs}


def test_edge__signal_numerics__verdict_critical():
    f = vsn.verdict_critical
    for edge, sign in ((-0.55, 1), (-0.45, -1)):
        assert f(_critical(slope=edge + sign * 1e-7)).verdict == PASS
        assert f(_critical(slope=edge - sign * 1e-7)).verdict == FAIL
    assert f(_critical(flat_at=3)).verdict == FAIL                     # not strictly decreasing
    assert f(_critical(mc_dev=1 - 1e-9)).verdict == PASS and f(_critical(mc_dev=1 + 1e-9)).verdict == FAIL


def _ff_runs(dev_in_se, L=3):
    m = 2 * L * 2                              # two runs, mean and second moment at l = 1..L
    z = zcrit(m)
    runs = []
    for field in ("complex", "real"):
        second = (1 + 1 / 4) ** np.arange(L + 1)
        sm = second.copy()
        if field == "real":
            sm[L] += dev_in_se * z * 0.01
        runs.append(dict(field=field, n=4, L=L, first_mean=np.ones(L + 1), first_se=np.full(L + 1, 0.01),
                         second_mean=sm, second_se=np.full(L + 1, 0.01), second_exact=second,
                         recurrent=np.ones(L + 1)))
    return {"runs": runs, "contrast": []}


def test_edge__signal_numerics__verdict_feedforward():
    f = vsn.verdict_feedforward
    assert f(_ff_runs(1 - 1e-9)).verdict == PASS and f(_ff_runs(1 + 1e-9)).verdict == FAIL


# ==================================================================================================
# real_expansion, real_pfaffian, real_weights, real_regimes
# ==================================================================================================
from validation.checks import real_expansion as vre  # noqa: E402
from validation.checks import real_pfaffian as vrp  # noqa: E402
from validation.checks import real_regimes as vrr  # noqa: E402
from validation.checks import real_weights as vrw  # noqa: E402


def test_edge__real_expansion__verdict_expansion_rows():
    f = vre.verdict_expansion_rows
    exact, err = 1.25, 2.0**-20
    assert f([("m13", 4096, 61, exact + err, err, exact)]).verdict == PASS          # |value - exact| = error
    assert f([("m13", 4096, 61, exact + err, down(err), exact)]).verdict == FAIL
    assert f([("m13", 4096, 61, exact, 0.0, exact)]).verdict == PASS                # exact rows: error 0
    assert f([("m13", 4096, 61, up(exact), 0.0, exact)]).verdict == FAIL


def _mc_cases(dev_in_se, m=3):
    z = zcrit(m)
    return [(4096, 100 + i, "Q", 1.5, 1e-6, 1.5 + (1e-6 + dev_in_se * z * 0.01 if i == 0 else 0.0), 0.01, 1.4)
            for i in range(m)]


def test_edge__real_expansion__verdict_expansion_mc():
    f = vre.verdict_expansion_mc
    refused = [(256, 100, False)]
    assert f(_mc_cases(1 - 1e-9), refused).verdict == PASS           # |value - mc| <= error + z se
    assert f(_mc_cases(1 + 1e-9), refused).verdict == FAIL
    assert f(_mc_cases(0.0), [(256, 100, True)]).verdict == FAIL      # an outside point served


def test_edge__real_expansion__verdict_breakdown():
    f = vre.verdict_breakdown
    mc = [(10**4, 104, 1.05, 1e-6, 1.05, 0.01, 1.05)]
    for off in (-0.25, 1.25):                 # t* minus its crossing within [-1/4, 5/4]
        assert f([(10**4, 104, 104 - off * (1 - 1e-9), 104, 104.0)], mc).verdict == PASS
        assert f([(10**4, 104, 104 - off * (1 + 1e-9), 104, 104.0)], mc).verdict == FAIL
    z = zcrit(2)
    mcs = [(10**4, 104, 1.05, 1e-6, 1.05 + 1e-6 + d * z * 0.01, 0.01, 1.05) for d in (0.0, 1 - 1e-9)]
    assert f([(10**4, 104, 104.0, 104, 104.0)], mcs).verdict == PASS
    mcs[1] = (10**4, 104, 1.05, 1e-6, 1.05 + 1e-6 + (1 + 1e-9) * z * 0.01, 0.01, 1.05)
    assert f([(10**4, 104, 104.0, 104, 104.0)], mcs).verdict == FAIL


def _pf_cases(dev_in_se, m=5):
    z = zcrit(m)
    return [(128, k, 1.0 + (dev_in_se * z * 0.01 if k == 0 else 0.0), 0.01, 1.0) for k in range(m)]


def test_edge__real_pfaffian__verdict_mc():
    f = vrp.verdict_mc
    assert f(_pf_cases(1 - 1e-9), ["n", "k"]).verdict == PASS and f(_pf_cases(1 + 1e-9), ["n", "k"]).verdict == FAIL
    assert f(_pf_cases(-(1 - 1e-9)), ["n", "k"]).verdict == PASS and f(_pf_cases(-(1 + 1e-9)), ["n", "k"]).verdict == FAIL


def test_edge__real_weights__verdict_rows_mc():
    f = vrw.verdict_rows_mc
    assert f(_pf_cases(1 - 1e-9, m=7)).verdict == PASS and f(_pf_cases(1 + 1e-9, m=7)).verdict == FAIL


def _regimes(limit, err=1e-4, f=1.0, ge1=True):
    return {1.0: {"limit": (limit, err), "D": (0.5, 1e-3), "f": f, "series": 0.5, "ratios": [(8, 60, 1.01)],
                  "min_ratio_exact_ge_1": ge1}}


def test_edge__real_regimes__verdict_regimes():
    f = vrr.verdict_regimes
    err = 2.0**-14                              # |limit - f(c)| <= 10 err: pass, else inconclusive
    assert f(_regimes(1.0 + 10 * err, err)).verdict == PASS
    assert f(_regimes(up(1.0 + 10 * err), err)).verdict == INCONCLUSIVE
    assert f(_regimes(1.0, err, ge1=False)).verdict == FAIL


# ==================================================================================================
# memory_theory
# ==================================================================================================
from validation.checks import memory_theory as vmt  # noqa: E402


def _families(exp_err=0.0, poly_err=0.0, min_gap=5.0, impulse=True):
    return {"rows": [dict(T=64, alpha=0.5, tau=3.0, exp_err=exp_err, p=1.5, poly_err=poly_err, m=32,
                          impulse_at_m=impulse, sigma=1.0, min_gap=min_gap, period0=10.0)]}


def test_edge__memory_theory__verdict_families():
    f = vmt.verdict_families
    for kw in ("exp_err", "poly_err"):
        assert f(_families(**{kw: 1e-10})).verdict == PASS and f(_families(**{kw: up(1e-10)})).verdict == FAIL
    gap = 4.0 * (1 - 1e-12)
    assert f(_families(min_gap=gap)).verdict == PASS and f(_families(min_gap=down(gap))).verdict == FAIL
    assert f(_families(impulse=False)).verdict == FAIL


def test_edge__memory_theory__verdict_exp_one_mode():
    f = vmt.verdict_exp_one_mode

    def data(res, perr):
        return {"rows": [dict(T=64, alpha=0.5, residual=res, pole=0.9, q=0.9, pole_err=perr, timescale=9.5)]}

    assert f(data(1e-12, 0.0)).verdict == PASS and f(data(up(1e-12), 0.0)).verdict == FAIL
    assert f(data(0.0, 1e-12)).verdict == PASS and f(data(0.0, up(1e-12))).verdict == FAIL


def _prony(m_small=3, m_big=5, spread=200.0, cond=1e7, tol=1e-6, rising=True):
    """Scans at two T and three alphas: the residual reaches tol at m_small (T = 64) and m_big (T = 256)."""
    def scan(m_star):
        return [dict(m=m, residual=tol * 10.0 ** (m_star - m), condition=cond * 10.0 ** ((m - m_star) * (1 if rising else -1)),
                     gn=1.0, tau_min=1.0, tau_max=spread, spread=spread) for m in range(1, 9)]
    alphas = (0.25, 0.5, 1.0)
    scans = {(T, a): scan(m_small if T == 64 else m_big) for T in (64, 256) for a in alphas}
    return {"Ts": (64, 256), "alphas": alphas, "tol": tol, "scans": scans, "exp_residual": 1e-14}


def test_edge__memory_theory__verdict_prony_poly():
    f = vmt.verdict_prony_poly
    assert f(_prony()).verdict == PASS
    assert f(_prony(m_small=3, m_big=4)).verdict == PASS and f(_prony(m_small=2, m_big=3)).verdict == NOT_REPRODUCED
    assert f(_prony(m_small=5, m_big=5)).verdict == NOT_REPRODUCED                # m* must grow with T somewhere
    assert f(_prony(spread=100.0)).verdict == PASS and f(_prony(spread=down(100.0))).verdict == NOT_REPRODUCED
    assert f(_prony(cond=1e6)).verdict == PASS and f(_prony(cond=down(1e6))).verdict == NOT_REPRODUCED
    assert f(_prony(rising=False, cond=1e9)).verdict == NOT_REPRODUCED              # the condition rate must rise


def test_edge__memory_theory__verdict_linear_relmse():
    f = vmt.verdict_linear_relmse
    z = zcrit(4)

    def data(d):
        rows = [dict(kind="exp", model="exp", closed=0.5, mc=0.5 + (d * z * 0.01 if i == 0 else 0.0), se=0.01)
                for i in range(4)]
        return {"T": 64, "N": 100, "z": z, "rows": rows}

    assert f(data(1 - 1e-9)).verdict == PASS and f(data(1 + 1e-9)).verdict == FAIL


def _complexity_rows(poly_c=(0.1, 0.2, 0.3, 0.4, 0.5), airy_c=(0.1, 0.2, 0.3, 0.4, 0.5), support=(64,) * 5,
                     ranks=None):
    ranks = ranks or {"exp": [30.0] * 5, "poly": [40.0] * 5, "impulse": [5.0] * 5, "airy": [10.0, 11, 12, 13, 14]}
    rows = []
    for kind in vmt.KINDS:
        for i, a in enumerate(vmt.ALPHAS):
            c = poly_c if kind == "poly" else airy_c if kind == "airy" else (0.1,) * 5
            sup = support[i] if kind == "poly" else 64
            r = ranks[kind][i]
            rows.append((kind, a, sup, c[i], c[i], c[i], c[i], r, r, r))
    return rows


def test_edge__memory_theory__verdict_tail_energy():
    f = vmt.verdict_tail_energy

    def data(rows, worst=0.0):
        return {"T": 64, "worst_closed_form_error": worst, "rows": rows}

    assert f(data(_complexity_rows(), 1e-10)).verdict == PASS
    assert f(data(_complexity_rows(), up(1e-10))).verdict == FAIL
    flat = (0.1, 0.2, 0.3, 0.3, 0.5)           # strictly increasing in alpha: an equal step is not
    assert f(data(_complexity_rows(poly_c=flat))).verdict == NOT_REPRODUCED
    assert f(data(_complexity_rows(airy_c=flat))).verdict == NOT_REPRODUCED
    assert f(data(_complexity_rows(support=(64, 64, 64, 64, 63)))).verdict == NOT_REPRODUCED


def test_edge__memory_theory__verdict_effective_rank():
    f = vmt.verdict_effective_rank

    def data(**over):
        ranks = {"exp": [30.0] * 5, "poly": [40.0] * 5, "impulse": [5.0] * 5, "airy": [10.0, 11, 12, 13, 14]}
        ranks.update(over)
        return {"T": 64, "rows": _complexity_rows(ranks=ranks)}

    assert f(data()).verdict == PASS
    assert f(data(impulse=[5.0, 5, 5, 5, down(30.0)])).verdict == PASS             # impulse strictly below exp
    assert f(data(impulse=[5.0, 5, 5, 5, 30.0])).verdict == NOT_REPRODUCED
    assert f(data(airy=[10.0, 11, 11, 13, 14])).verdict == PASS                     # nondecreasing: equal allowed
    assert f(data(airy=[10.0, 11, down(11.0), 13, 14])).verdict == NOT_REPRODUCED


# ==================================================================================================
# anti_collapse
# ==================================================================================================
from validation.checks import anti_collapse as vac  # noqa: E402


def test_edge__anti_collapse__verdict_tail():
    f = vac.verdict_tail

    def data(d, z=5.0):
        rows = [dict(label="a", eta_J=1.0, beta_star=1.5, beta_eps=1.5, beta_hat=1.5 + d * z * 0.01, se=0.01,
                     ci=(1.4, 1.6), r2=0.99, burn_in=10)]
        return {"n": 1000, "z": z, "rows": rows}

    assert f(data(1 - 1e-9)).verdict == PASS and f(data(1 + 1e-9)).verdict == FAIL
    assert f(data(-(1 - 1e-9))).verdict == PASS and f(data(-(1 + 1e-9))).verdict == FAIL


def test_edge__anti_collapse__verdict_samplers():
    f = vac.verdict_samplers

    def data(d, z=5.0):
        rows = [dict(alpha=1.5, dt=0.01, sampler="cms", est=[1.0 + d * z * 0.01, 3.0], se=[0.01, 0.01],
                     exact=[1.0, 3.0])]
        return {"n": 1000, "z": z, "rows": rows}

    assert f(data(1 - 1e-9)).verdict == PASS and f(data(1 + 1e-9)).verdict == FAIL


def test_edge__anti_collapse__verdict_phase_flip():
    f = vac.verdict_phase_flip
    z = 5.0

    def data(beta_hat, beta_star=1.5):
        return {"z": z, "rows": [dict(label="p", eta_G=0.1, eta_J=1.0, beta_star=beta_star, beta_hat=beta_hat,
                                      se=0.01)]}

    # concentrated iff the interval beta_hat +- z se lies above 1; an endpoint at 1 is the boundary
    assert f(data(1.0 + z * 0.01 + 1e-9)).verdict == PASS
    assert f(data(1.0 + z * 0.01 - 1e-9)).verdict == FAIL
    assert f(data(1.0 - z * 0.01 - 1e-9, beta_star=0.5)).verdict == PASS
    assert f(data(1.0 - z * 0.01 + 1e-9, beta_star=0.5)).verdict == FAIL
    assert f(data(1.0, beta_star=1.0 + 0.99e-9)).verdict == PASS                   # |beta* - 1| <= 1e-9: boundary
    assert f(data(1.0, beta_star=1.0 + 1.01e-9)).verdict == FAIL


def test_edge__anti_collapse__verdict_envelope():
    f = vac.verdict_envelope

    def data(d, z=5.0):
        return {"z": z, "rows": [dict(label="s", beta_star=1.2, beta_env=1.2 + d * z * 0.01, se=0.01, best="power",
                                      window_ok=True, runs_p=0.5, ci=(1.1, 1.3))]}

    assert f(data(1 - 1e-9)).verdict == PASS and f(data(1 + 1e-9)).verdict == FAIL


def test_edge__anti_collapse__verdict_ou_collapsed():
    f = vac.verdict_ou_collapsed
    z = 5.0

    def data(lin_change, sat_change, lin_fav="lognormal", sat_fav="power"):
        return {"z": z, "rows": [
            dict(drift="linear", label="a", favoured=lin_fav, vuong_z=3.0, beta_low=1.0, beta_high=2.0,
                 change=lin_change, se=0.01),
            dict(drift="saturating", label="b", favoured=sat_fav, vuong_z=-3.0, beta_low=1.0, beta_high=1.0,
                 change=sat_change, se=0.01)]}

    zs = z * 0.01
    assert f(data(zs * (1 + 1e-9), 0.0)).verdict == PASS            # linear: change > z se (strictly)
    assert f(data(zs * (1 - 1e-9), 0.0)).verdict == FAIL
    assert f(data(1.0, zs * (1 - 1e-9))).verdict == PASS            # saturating: |change| <= z se
    assert f(data(1.0, -zs * (1 + 1e-9))).verdict == FAIL
    assert f(data(1.0, 0.0, lin_fav="power")).verdict == FAIL
    assert f(data(1.0, 0.0, sat_fav="lognormal")).verdict == FAIL


# ==================================================================================================
# gated_rnn
# ==================================================================================================
from validation.checks import gated_rnn as vgr  # noqa: E402


def _fin(beta_ci, q90=2.0, **extra):
    return {"epoch": 9, "resolved": True, "beta_tail": sum(beta_ci) / 2, "beta_tail_ci": beta_ci,
            "tau_q90": q90, "tau_median": 1.0, "phase_calibrated": "extended", "note": "", **extra}


def test_edge__gated_rnn__verdict_diag_vs_shared():
    f = vgr.verdict_diag_vs_shared

    def data(diag_hi, shared_lo=1.0, q_diag=3.0, q_shared=2.0):
        return {"seed0": {"shared": [_fin((shared_lo, 2.0), q_shared)], "diag": [_fin((0.2, diag_hi), q_diag)]}}

    assert f(data(down(1.0))).verdict == PASS                    # DiagGate's interval strictly below
    assert f(data(1.0)).verdict == INCONCLUSIVE                  # touching intervals: not separated
    assert f(data(0.5, q_diag=up(2.0))).verdict == PASS          # a heavier upper tail, strictly
    assert f(data(0.5, q_diag=2.0)).verdict == NOT_REPRODUCED    # separated, but not heavier


def _te(r2, agree=True):
    fin = {"resolved": True, "resolution_reason": "", "beta_tail": 0.8, "beta_tail_ci": (0.7, 0.9),
           "beta_tail_r2": r2, "tail_envelope_agree": agree, "beta_env": 0.8, "beta_env_ci": (0.7, 0.9),
           "beta_env_calibrated": 0.8, "beta_env_calibrated_ci": (0.7, 0.9), "beta_env_diff_ci": (-0.1, 0.1),
           "envelope_gate_passed": True, "envelope_gate_reason": "", "phase_calibrated": "extended"}
    return {"seed0": {"diag": [fin]}}


def test_edge__gated_rnn__verdict_tail_envelope():
    f = vgr.verdict_tail_envelope
    assert f(_te(0.90)).verdict == PASS and f(_te(down(0.90))).verdict == INCONCLUSIVE
    assert f(_te(0.95, agree=False)).verdict == NOT_REPRODUCED


def _gate(kh, nh, kc, nc):
    return {"author": {"pareto_draws": {"0.5": {"passed": kh, "n": nh}}, "few": {"1": {"passed": kc, "n": nc}},
                       "pareto_quantiles": {"0.5": {"passed": 1, "n": 1}}}}


def test_edge__gated_rnn__verdict_gate_discrimination():
    from scipy.stats import binom

    f = vgr.verdict_gate_discrimination
    nh, kc, nc = 100, 50, 100                                      # gap rule: kh/nh - kc/nc >= 0.25
    assert f(_gate(75, nh, kc, nc)).verdict == PASS and f(_gate(74, nh, kc, nc)).verdict == NOT_REPRODUCED
    # the binomial level GATE_ALPHA = 1e-3 with a gap far past 0.25: the smallest kh whose p < 1e-3
    nh, kc, nc = 20, 5, 10                                         # p_few = 0.5
    p = {kh: binom.sf(kh - 1, nh, 0.5) for kh in range(nh + 1)}
    k_in = min(kh for kh, v in p.items() if v < 1e-3)              # 18 of 20: p = 2.0e-4; 17: p = 1.3e-3
    assert (k_in - 1) / nh - 0.5 >= 0.25 and p[k_in - 1] >= 1e-3
    assert f(_gate(k_in, nh, kc, nc)).verdict == PASS and f(_gate(k_in - 1, nh, kc, nc)).verdict == NOT_REPRODUCED


# ==================================================================================================
# architectures (rows as tests/test_arch_verdicts.py builds them)
# ==================================================================================================
from validation.checks import architectures as arch  # noqa: E402


def _row(model, kind, alpha, seed, relmse, **extra):
    return {"study": "main", "model": model, "train_variant": "default", "kind": kind, "alpha": alpha, "lam": None,
            "T": 64, "seed": seed, "relmse": relmse, "half_relmse": relmse, "half_step": 100, "half_is_budget": True,
            "curve_steps": [100, 200], "curve_loss": [1.0, 1.0], "probe": None, "exp_sum": None,
            "run_id": f"{model}-{kind}-{alpha}-{seed}", "config": None, **extra}


def _paired_rows(a, b, d, kind="impulse", alpha=0.5, ratio=None):
    """Rows of models a (RelMSE 1) and b with log10 RelMSE(b) - log10 RelMSE(a) = d[s] for seed s (or b's RelMSE
    ``ratio[s]`` itself, where the difference must be a given float exactly: log10(2.0) is log10(2))."""
    ratio = [10.0**x for x in d] if ratio is None else ratio
    return ([_row(a, kind, alpha, s, 1.0) for s in range(len(ratio))]
            + [_row(b, kind, alpha, s, r) for s, r in enumerate(ratio)])


def test_edge__architectures__verdict_exp_vs_poly():
    f = arch.verdict_exp_vs_poly

    def rows(d_lstm, d_s4d):
        out = []
        for m, d in (("lstm", d_lstm), ("s4d", d_s4d)):
            out += [dict(r, model=m, kind="poly" if r["model"] == "b" else "exp", run_id=f"{m}{r['run_id']}")
                    for r in _paired_rows("a", "b", d)]
        return out

    strong = [1.0] * 9
    assert f(rows(strong, [0.5] * 7)).verdict == PASS                        # 7/7: p = 1/128 < 1%
    out = f(rows(strong, [0.5] * 6))                                          # 6/6: p = 1/64, cannot reach 1%
    assert out.verdict == INCONCLUSIVE and out.data["lacks_power"]
    # ruled out iff the 98% interval of the median lies at or below 0 (7 pairs: the interval is [min, max])
    assert f(rows(strong, [-1.0] * 6 + [0.0])).verdict == NOT_REPRODUCED
    assert f(rows(strong, [-1.0] * 6 + [1e-9])).verdict == INCONCLUSIVE


def test_edge__architectures__verdict_tcn_flat(few_resamples):
    f = arch.verdict_tcn_flat

    def rows(hi):                          # identical seeds: the bootstrap interval is the spread itself
        return [_row("tcn", "impulse", a, s, v) for a, v in ((0.25, 1e-3), (0.75, hi)) for s in range(3)]

    assert f(rows(1e-2)).verdict == PASS                                      # spread exactly 1 decade
    assert f(rows(1e-2 * (1 + 1e-9))).verdict == NOT_REPRODUCED


def _composition(d_lstm, d_tcn):
    rows = []
    for part, d in (("lstm", d_lstm), ("tcn", d_tcn)):
        rows += [r for r in _paired_rows("lstm->tcn", part, d) if r["model"] == part]
    rows += [_row("lstm->tcn", "impulse", 0.5, s, 1.0) for s in range(max(len(d_lstm), len(d_tcn)))]
    return rows


def test_edge__architectures__verdict_composition():
    f = arch.verdict_composition
    assert f(_composition([1.0] * 7, [0.5] * 7)).verdict == PASS
    assert f(_composition([1.0] * 7, [0.5] * 6 + [0.0])).verdict == INCONCLUSIVE        # 6 non-tied: p = 1/64
    assert f(_composition([1.0] * 7, [-1.0] * 6 + [0.0])).verdict == NOT_REPRODUCED     # interval at or below 0
    assert f(_composition([1.0] * 7, [-1.0] * 6 + [1e-9])).verdict == INCONCLUSIVE


def test_edge__architectures__verdict_order():
    f = arch.verdict_order

    def rows(ratio):
        return _paired_rows("lstm->tcn", "tcn->lstm", None, ratio=ratio)

    assert f(rows([3.0] * 8)).verdict == PASS                  # two-sided p = 2/256 < 1%
    assert f(rows([3.0] * 7)).verdict == INCONCLUSIVE          # two-sided p = 2/128
    # ruled out iff the interval lies strictly inside +-log10(2): 7 pairs, interval [min, max]
    assert f(rows([1.0] * 6 + [2.0 * (1 - 1e-12)])).verdict == NOT_REPRODUCED
    assert f(rows([1.0] * 6 + [2.0])).verdict == INCONCLUSIVE
    assert f(rows([1.0] * 6 + [0.5 * (1 + 1e-12)])).verdict == NOT_REPRODUCED
    assert f(rows([1.0] * 6 + [0.5])).verdict == INCONCLUSIVE


def _rock_paper(seeds, champion=False):
    """3 models x 2 kinds: on exp a < b < c, on poly c < b < a (each model beaten by another on some kind, every
    seed); ``champion``: a best on both kinds."""
    order = {"exp": ("a", "b", "c"), "poly": ("a", "b", "c") if champion else ("c", "b", "a")}
    return [_row(m, k, 0.5, s, 10.0 ** (-6 + 2 * order[k].index(m)) * (1 + 0.01 * s))
            for k in ("exp", "poly") for m in ("a", "b", "c") for s in range(seeds)]


def test_edge__architectures__verdict_no_single_best():
    """Bonferroni over (kinds x other models) = 4 candidates: 7/7 gives p = 1/128 > 1%/4 (inconclusive: the
    division matters here, issue 43), 9/9 p = 1/512 < 1%/4 (pass), 8/8 p = 1/256 > 1%/4."""
    f = arch.verdict_no_single_best
    assert f(_rock_paper(7)).verdict == INCONCLUSIVE
    assert f(_rock_paper(8)).verdict == INCONCLUSIVE
    assert f(_rock_paper(9)).verdict == PASS
    # ruled out iff one model beats every other on every kind at 1%: 7 seeds p = 1/128, 6 seeds p = 1/64
    assert f(_rock_paper(7, champion=True)).verdict == NOT_REPRODUCED
    assert f(_rock_paper(6, champion=True)).verdict == INCONCLUSIVE


def _corr_rows(xs, err, seeds=3):
    """One (kind, alpha) cell per x; the measure reads x back from the fake target's rho."""
    rows = []
    for i, (x, e) in enumerate(zip(xs, err)):
        cfg = SimpleNamespace(target=SimpleNamespace(rho=lambda x=x: np.array([x]), T=1, kind="exp", alpha=0.1 * (i + 1)))
        rows += [_row("tcn", "exp", 0.1 * (i + 1), s, e, config=cfg) for s in range(seeds)]
    return rows


@pytest.fixture
def few_resamples(monkeypatch):
    """Designs with identical seeds: every bootstrap resample is the point itself, so 50 resamples say what 2000
    would (the verdicts' own B), in a fraction of the time."""
    import functools

    monkeypatch.setattr(arch, "bootstrap", functools.partial(arch.bootstrap, B=50))


def test_edge__architectures__verdict_correlation(few_resamples):
    """Spearman over 7 cells, r = 1 - 6 sum d^2 / (n (n^2 - 1)), its one-sided p from the t distribution with
    n - 2 degrees of freedom (the rule's test): the sum of squared rank differences nearest 1% on each side."""
    from scipy.stats import t as student

    f = arch.verdict_correlation
    measures = {"x": lambda r: float(r[0])}
    n = 7

    def p_of(ssd):
        r = 1 - 6 * ssd / (n * (n * n - 1))
        if abs(r) >= 1:
            return 0.0 if r > 0 else 1.0
        return float(student.sf(r * math.sqrt((n - 2) / (1 - r * r)), n - 2))

    ssd_in = max(ssd for ssd in range(0, 113, 2) if p_of(ssd) < LEVEL)
    ssd_out = ssd_in + 2
    assert p_of(ssd_out) >= LEVEL

    def perm_with(ssd):                  # a permutation of 0..6 with that sum of squared rank differences
        import itertools
        return next(p for p in itertools.permutations(range(n)) if sum((i - v) ** 2 for i, v in enumerate(p)) == ssd)

    def verdict(ssd):
        perm = perm_with(ssd)
        return f(_corr_rows(list(range(n)), [10.0 ** (-6 + v) for v in perm]), "tcn", measures, "x", "edge").verdict

    assert verdict(ssd_in) == PASS and verdict(ssd_out) == INCONCLUSIVE
    # not reproduced iff the 98% seed-bootstrap interval lies below 0.5 (identical seeds: the point itself):
    # sum d^2 = 28 gives r = 0.5 exactly, 30 gives 0.464
    assert verdict(28) == INCONCLUSIVE and verdict(30) == NOT_REPRODUCED


def _prony_rows(monkeypatch, model, floor=0.03, probe_scale=0.0):
    """Rows of verdict_prony_bound with its floor and model error set through its two closed forms."""
    import theory.memory
    import theory.prony

    monkeypatch.setattr(theory.prony, "best_mterm_fit", lambda rho, N, **kw: SimpleNamespace(residual=floor))
    monkeypatch.setattr(theory.memory, "expected_linear_relmse", lambda rhohat, rho: model)
    rhohat = theory.prony.exp_sum(np.array([0.9, 0.9]), np.array([0.5, 0.5]), 8)
    rhohat[0] += 0.1
    target = SimpleNamespace(kind="poly", alpha=0.5, T=8, rho=lambda: np.ones(8))
    cfg = SimpleNamespace(target=target, model={"state": 2})
    probe = (rhohat * (1 + probe_scale)).tolist()
    return [{"config": cfg, "exp_sum": {"poles": [[0.9, 0.0], [0.9, 0.0]], "coefs": [[0.5, 0.0], [0.5, 0.0]],
                                        "d0": 0.1},
             "probe": probe, "seed": 0, "run_id": "r0", "relmse": model, "model": "s4d_linear", "kind": "poly",
             "alpha": 0.5}]


def test_edge__architectures__verdict_prony_bound(monkeypatch):
    f = arch.verdict_prony_bound
    floor = 0.03
    at = floor * (1 - 1e-9)                                       # model >= floor (1 - BOUND_RTOL)
    assert f(_prony_rows(monkeypatch, at, floor)).verdict == PASS
    assert f(_prony_rows(monkeypatch, down(at), floor)).verdict == FAIL
    assert f(_prony_rows(monkeypatch, 10 * floor, floor)).verdict == PASS        # within 10x of the floor
    assert f(_prony_rows(monkeypatch, up(10 * floor), floor)).verdict == INCONCLUSIVE
    assert f(_prony_rows(monkeypatch, floor, floor, probe_scale=1e-4 * (1 - 1e-6))).verdict == PASS
    assert f(_prony_rows(monkeypatch, floor, floor, probe_scale=1e-4 * (1 + 1e-6))).verdict == FAIL


def _depth_rows(d_sparse, d_smooth):
    """lstm and s4d, L1 against L3; d = log10 RelMSE(L1) - log10 RelMSE(L3) per seed."""
    rows = []
    for fam in ("lstm", "s4d"):
        for kind, d in (("impulse", d_sparse), ("exp", d_smooth)):
            rows += [dict(r, model=f"{fam}_{'L3' if r['model'] == 'deep' else 'L1'}", kind=kind,
                          run_id=f"{fam}{kind}{r['run_id']}") for r in _paired_rows("deep", "shallow", d)]
    return rows


def test_edge__architectures__verdict_depth():
    f = arch.verdict_depth
    sparse = [1.0] * 7
    assert f(_depth_rows(sparse, [LOG2 - 1e-9] * 7)).verdict == PASS               # one layer within 2x
    assert f(_depth_rows(sparse, [LOG2 + 1e-9] * 7)).verdict == NOT_REPRODUCED
    assert f(_depth_rows([1.0] * 6, [0.0] * 7)).verdict == INCONCLUSIVE             # 6 pairs: p = 1/64
    assert f(_depth_rows([-1.0] * 6 + [0.0], [0.0] * 7)).verdict == NOT_REPRODUCED  # deep not better: ruled out


def _heads_rows(n_exp, n_b=9, alphas=(0.75,)):
    """Heads 2, 4, 16: on exp h16 beats h2 (first ``n_exp`` seeds strictly, the rest tied), on impulse h2 beats
    h16 (every seed); h4 beats both extremes on every kind (``n_b`` seeds)."""
    val = {"exp": {2: 3.0, 4: 1.0, 16: 2.0}, "impulse": {2: 2.0, 4: 1.0, 16: 3.0}}     # log10 RelMSE + 4
    rows = []
    for k, v in val.items():
        for h, x in v.items():
            for a in alphas:
                for s in range(max(n_exp, 10) if h != 4 else n_b):       # h4 runs at n_b seeds only
                    y = val["exp"][2] if (k == "exp" and h == 16 and s >= n_exp) else x     # tied: no evidence
                    rows.append(_row(f"transformer_h{h}", k, a, s, 10.0 ** (y - 4)))
    return rows


def test_edge__architectures__verdict_heads():
    """(a) Bonferroni over 6 ordered pairs: 10/10 gives p = 1/1024 < 1%/6, 9/9 gives 1/512 > 1%/6."""
    f = arch.verdict_heads
    assert f(_heads_rows(10, n_b=10)).verdict == PASS
    out = f(_heads_rows(9, n_b=10))
    assert out.verdict == INCONCLUSIVE and out.data["a"] is None
    # (b) one interior count: level 1% over 2 kinds x seeds pairs; 4 seeds: p = 1/256; 3 seeds: 1/64
    assert f(_heads_rows(10, n_b=4)).data["b_best"] == 4 and f(_heads_rows(10, n_b=4)).verdict == PASS
    assert f(_heads_rows(10, n_b=3)).verdict == INCONCLUSIVE


def _optimizer_rows(dropped: int):
    """TCN, Adam vs AdamW: the AdamW effect and the seed spread far larger on impulse than on exp; ``dropped``
    impulse AdamW runs diverged (their pairs leave the effect sample)."""
    rows = []
    for k in ("exp", "impulse"):
        for i, a in enumerate((0.25, 0.5, 0.75)):
            for s in range(2):
                base = 1e-3 * (1 + (0.01 if k == "exp" else 5.0) * s)
                rows.append(_row("tcn", k, a, s, base, train_variant="adam"))
                # distinct effects (no ties: Mann-Whitney's exact null distribution)
                eff = 1.01 + 0.001 * (2 * i + s) if k == "exp" else 100.0 * (1 + s) * (1 + 0.1 * i)
                gone = k == "impulse" and (a, s) in [(0.25, 0), (0.5, 0), (0.75, 0)][:dropped]
                rows.append(_row("tcn", k, a, s, None if gone else base * eff, train_variant="adamw"))
    return rows


def test_edge__architectures__verdict_optimizer():
    """Mann-Whitney of the AdamW effect, 6 smooth against m sparse pairs, complete separation: p = 1/C(6+m, m):
    m = 4: 1/210 < 1%, m = 3: 1/84 > 1%."""
    f = arch.verdict_optimizer
    assert f(_optimizer_rows(dropped=2)).verdict == PASS
    out = f(_optimizer_rows(dropped=3))
    assert out.verdict == INCONCLUSIVE and out.data["p_effect"] >= LEVEL


def _mixed_rows(delta_a=0.0, bump=0.0):
    """Identical seeds (the bootstrap interval is the point): the Transformer's worst case ``delta_a`` decades
    below the LSTM's, its interior lam ``bump`` decades above its end points."""
    curve = {"transformer": (-3.0, -3.0 + bump, -3.0), "lstm": (-3.0 + max(bump, 0.0) + delta_a, -4.0, -5.0)}
    return [_row(m, "mixed", 0.75, s, 10.0 ** v, lam=lam) for m, c in curve.items()
            for lam, v in zip((0.0, 0.5, 1.0), c) for s in range(3)]


def test_edge__architectures__verdict_mixed(monkeypatch, few_resamples):
    f = arch.verdict_mixed
    assert f(_mixed_rows(1e-9, 1e-9)).verdict == PASS
    assert f(_mixed_rows(0.0, 1e-9)).verdict == INCONCLUSIVE              # worst cases equal: not more robust
    assert f(_mixed_rows(-1e-9, 1e-9)).verdict == NOT_REPRODUCED
    assert f(_mixed_rows(1e-9, 0.0)).verdict == INCONCLUSIVE              # no bump: interval touches 0
    assert f(_mixed_rows(1e-9, -1e-9)).verdict == NOT_REPRODUCED
    # (a) at 1% Bonferroni over the other models, (b) at 1%: the levels the bootstrap is asked for
    assert sorted(_mixed_levels(monkeypatch, f)) == [LEVEL / 2, LEVEL / 2, LEVEL]


def _mixed_levels(monkeypatch, f) -> list:
    """The levels the percentile intervals of a mixed-target verdict are asked for, with two rival models."""
    levels = []
    real = arch.percentile_interval
    monkeypatch.setattr(arch, "percentile_interval", lambda stat, point, reps, level=LEVEL:
                        levels.append(level) or real(stat, point, reps, level))
    rows = _mixed_rows(1.0, 1.0) + [dict(r, model="s4d", run_id="s" + r["run_id"]) for r in _mixed_rows(1.0, 1.0)
                                    if r["model"] == "lstm"]
    f(rows)
    return levels


def test_edge__architectures__verdict_mixed_risk(monkeypatch, few_resamples):
    """Round 2's statistic: the same edges on the mean RelMSE over seeds (identical seeds: mean = median), and
    the mean, not the median, decides: one diverged seed of three makes the cell's risk infinite."""
    f = arch.verdict_mixed_risk
    assert f(_mixed_rows(1e-9, 1e-9)).verdict == PASS
    assert f(_mixed_rows(0.0, 1e-9)).verdict == INCONCLUSIVE
    assert f(_mixed_rows(-1e-9, 1e-9)).verdict == NOT_REPRODUCED
    assert f(_mixed_rows(1e-9, 0.0)).verdict == INCONCLUSIVE
    assert f(_mixed_rows(1e-9, -1e-9)).verdict == NOT_REPRODUCED
    rows = _mixed_rows(1.0, 1.0)
    worst = max((r for r in rows if r["model"] == "transformer"), key=lambda r: r["relmse"])
    assert f(rows).verdict == PASS
    rows[rows.index(worst)] = dict(worst, relmse=None)              # one diverged training of the robust model
    assert f(rows).verdict != PASS                                  # its risk on that mixture is infinite
    assert sorted(_mixed_levels(monkeypatch, f)) == [LEVEL / 2, LEVEL / 2, LEVEL]


# --- structured initialisations (validation/checks/structured_inits.py) -------------------------------
from validation.checks import structured_inits as vsi  # noqa: E402


def _ring_point(t, at, off):
    """One ring point whose closed forms are 1 with se 0.01 everywhere; entry ``at`` of Var S is ``off`` z se
    away, so the verdict's Bonferroni z over the 5 (t + 1) comparisons decides."""
    one, se = np.ones(t + 1), np.full(t + 1, 0.01)
    p = dict(label="ring", n=8, Q=one, Q_mean=one.copy(), Q_se=se, S=one, S_mean=one.copy(), S_se=se,
             driven_mean=one.copy(), driven_se=se, VQ=one, Q_var=one.copy(), Q_var_se=se, VS=one,
             S_var=one.copy(), S_var_se=se)
    p["S_var"][at] += off * zcrit(5 * (t + 1)) * 0.01
    return {"t": t, "points": [p]}


def test_edge__structured_inits__verdict_ring():
    f = vsi.verdict_ring
    assert f(_ring_point(4, 2, 1 - 1e-9)).verdict == PASS and f(_ring_point(4, 2, 1 + 1e-9)).verdict == FAIL
    assert f(_ring_point(4, 0, -(1 - 1e-9))).verdict == PASS and f(_ring_point(4, 0, -(1 + 1e-9))).verdict == FAIL


def _orthogonal(off=0.0, excess=0.0, defect=1.0, dev=1e-12):
    """Two Haar statistics and one driven point (4 comparisons); rounding excess, defect (bound 1) and the
    per-network deviation at the edges the rule states."""
    z = zcrit(4)
    stats = [dict(field="real", sampler="qr", names=["a", "b"], mean=np.array([0.5 + off * z * 0.01, 1.0]),
                  se=np.array([0.01, 0.01]), exact=np.array([0.5, 1.0]))]
    driven = [dict(field="real", n=8, mean=np.array([2.0]), se=np.array([0.01]), exact=np.array([2.0]),
                   var=np.array([1.0]), var_se=np.array([0.01]), var_exact=np.array([1.0]), Q_dev=dev, S_dev=0.0)]
    rounding = [dict(field="real", n=8, k=4, deviation=0.0, bound=1.0, excess=excess, defect=defect, defect_bound=1.0)]
    return {"stats": stats, "driven": driven, "rounding": rounding}


def test_edge__structured_inits__verdict_orthogonal():
    f = vsi.verdict_orthogonal
    assert f(_orthogonal(1 - 1e-9)).verdict == PASS and f(_orthogonal(1 + 1e-9)).verdict == FAIL
    assert f(_orthogonal(excess=0.0)).verdict == PASS and f(_orthogonal(excess=5e-324)).verdict == FAIL
    assert f(_orthogonal(defect=1.0)).verdict == PASS and f(_orthogonal(defect=up(1.0))).verdict == FAIL
    assert f(_orthogonal(dev=1e-12)).verdict == PASS and f(_orthogonal(dev=up(1e-12))).verdict == FAIL


def _identity_noise(off=0.0, c1_slip=0, top_slip=0):
    """One run (Q, driven S at depths 0..2: 6 comparisons), one expansion row, one mixed-word top."""
    from fractions import Fraction as F

    one, se = np.array([1.0, 2.0, 3.0]), np.full(3, 0.01)
    q = one.copy()
    q[1] += off * zcrit(6) * 0.01
    run = dict(field="real", n=8, Q_mean=q, Q_se=se, Q=one, driven_mean=one.copy(), driven_se=se, S=one)
    exp = dict(k=2, q_inf=F(33, 16), c1=F(1, 2) + c1_slip, rows=(F(33, 16), F(1, 2)))
    return {"runs": [run], "expansion": [exp], "tops": [(1, 3, 2 + top_slip)], "k_rows": 2}


def test_edge__structured_inits__verdict_identity_noise():
    f = vsi.verdict_identity_noise
    assert f(_identity_noise(1 - 1e-9)).verdict == PASS and f(_identity_noise(1 + 1e-9)).verdict == FAIL
    assert f(_identity_noise(c1_slip=1)).verdict == FAIL and f(_identity_noise(top_slip=1)).verdict == FAIL


def test_edge__architectures__verdict_dt_range():
    f = arch.verdict_dt_range

    def rows(d):
        return _paired_rows("s4d", "s4d_reference_dt", d)

    assert f(rows([1.0] * 7)).verdict == PASS and f(rows([1.0] * 6)).verdict == INCONCLUSIVE
    assert f(rows([-1.0] * 6 + [0.0])).verdict == NOT_REPRODUCED
    assert f(rows([-1.0] * 6 + [1e-9])).verdict == INCONCLUSIVE



# --- nonlinear recurrences (validation/checks/nonlinear.py) -----------------------------------------------
from validation.checks import nonlinear as vnl  # noqa: E402


def _nl_cases(off, err=0.0):
    """Three (label, n, t, mc, se, reference, error) points; the second sits ``off`` of the way to the rule's
    boundary ``err + z se`` (z: Bonferroni over the three)."""
    z, se, ref = zcrit(3), 0.01, 1.5
    return [("a", 16, 1, ref, se, ref, err), ("a", 16, 2, ref + off * (err + z * se), se, ref, err),
            ("b", 32, 1, ref - 0.5 * z * se, se, ref, err)]


def _nl_z_rule_edges(name):
    f = getattr(vnl, name)
    for err in (0.0, 0.003):            # the reference's own error widens the band by exactly itself
        assert f(_nl_cases(1 - 1e-9, err)).verdict == PASS and f(_nl_cases(1 + 1e-9, err)).verdict == FAIL
        assert f(_nl_cases(-(1 - 1e-9), err)).verdict == PASS and f(_nl_cases(-(1 + 1e-9), err)).verdict == FAIL


def test_edge__nonlinear__verdict_identity_exact():
    _nl_z_rule_edges("verdict_identity_exact")


def test_edge__nonlinear__verdict_mean_field():
    _nl_z_rule_edges("verdict_mean_field")


def test_edge__nonlinear__verdict_first_correction():
    f = vnl.verdict_first_correction
    z, se = zcrit(2), 0.05

    def rows(off):
        return [("tanh", 1, -0.4, se, -0.4), ("tanh", 2, -0.5 + off * z * se, se, -0.5)]
    assert f(rows(1 - 1e-9)).verdict == PASS and f(rows(1 + 1e-9)).verdict == FAIL
    assert f(rows(-(1 - 1e-9))).verdict == PASS and f(rows(-(1 + 1e-9))).verdict == FAIL


def test_edge__nonlinear__verdict_tied_correction():
    """|b - reference| <= z se at the reference rows (0 or c_t), |b_fit - b| <= z sqrt(se_fit^2 + se^2) at the
    fits, one Bonferroni z over both: each kind of row just inside and just outside."""
    f = vnl.verdict_tied_correction
    z, se, sf = zcrit(3), 0.02, 0.3

    def rows(off_ref, off_fit):
        refs = [("identity", 1, 0.0, se, 0.0), ("tanh", 2, -0.5 + off_ref * z * se, se, -0.5)]
        fits = [("relu", 3, 1.2 + off_fit * z * math.hypot(sf, se), sf, 1.2, se)]
        return refs, fits
    for off in (1 - 1e-9, -(1 - 1e-9)):
        assert f(*rows(off, 0.0)).verdict == PASS and f(*rows(0.0, off)).verdict == PASS
    for off in (1 + 1e-9, -(1 + 1e-9)):
        assert f(*rows(off, 0.0)).verdict == FAIL and f(*rows(0.0, off)).verdict == FAIL
    assert f([], []).verdict == FAIL


# --- iid laws (validation/checks/init_laws.py) --------------------------------------------------------------
from validation.checks import init_laws as vil  # noqa: E402


def test_edge__init_laws__verdict_expansion_rows():
    """|value - exact| <= error at every served point: the neighbouring floats of the boundary."""
    f = vil.verdict_expansion_rows
    x, e = 1.25, 0.001

    def cases(v):
        return [("uniform", "Q", 256, 14, 1.5, 1.5, 0.01), ("uniform", "S", 256, 14, v, x, e)]
    assert f(cases(x + e)).verdict == PASS and f(cases(up(x + e))).verdict == FAIL
    assert f(cases(x - e)).verdict == PASS and f(cases(down(x - e))).verdict == FAIL


def test_edge__init_laws__verdict_mc():
    """|value - mc| <= error + z se beyond the rows, |exact - mc| <= z se on the rows, z Bonferroni over both."""
    f = vil.verdict_mc
    z, se, e = zcrit(3), 0.01, 0.002

    def run(off_beyond=0.0, off_rows=0.0):
        cases = [("uniform", 256, 14, 1.04, e, 1.04 + off_beyond * (e + z * se), se),
                 ("rademacher", 256, 14, 1.03, e, 1.03, se)]
        rows = [("sparse:0.05", 200, 3, 1.005, 1.005 + off_rows * z * se, se)]
        return f(cases, rows, [])
    assert run(1 - 1e-9).verdict == PASS and run(1 + 1e-9).verdict == FAIL
    assert run(-(1 - 1e-9)).verdict == PASS and run(-(1 + 1e-9)).verdict == FAIL
    assert run(off_rows=1 - 1e-9).verdict == PASS and run(off_rows=1 + 1e-9).verdict == FAIL
