"""The pure verdict functions of the validation checks, fed synthetic data: each can pass and each can
return its failing verdict (a check that cannot fail tests nothing)."""

import numpy as np
import pytest
from scipy.special import ndtri
from scipy.stats import norm

from validation.checks import anti_collapse as ac
from validation.registry import FAIL, PASS
from numerics.stats import z_for_false_alarm


def _tail_row(label, beta_star, beta_hat, se=0.1):
    return dict(label=label, eta_G=0.25, eta_J=0.3, beta_star=beta_star, beta_eps=beta_star, beta_hat=beta_hat,
                se=se, ci=(beta_hat - se, beta_hat + se), r2=0.99, burn_in=100)


def test_verdict_tail_passes_within_z_se_and_fails_beyond():
    ok = dict(n=1000, z=5.0, rows=[_tail_row("a", 1.5, 1.6), _tail_row("b", 0.8, 0.75)])
    assert ac.verdict_tail(ok).verdict == PASS
    # a bug in the closed form or the simulator moves beta_hat by > z se: a toolkit bug, FAIL (not "not reproduced")
    bad = dict(n=1000, z=5.0, rows=[_tail_row("a", 1.5, 1.6), _tail_row("b", 0.8, 1.4)])
    out = ac.verdict_tail(bad)
    assert out.verdict == FAIL and "b" in out.summary


def test_verdict_phase_flip_fails_on_a_wrong_phase():
    rows = [_tail_row("below", 1.6, 1.55, se=0.05), _tail_row("above", 0.7, 0.72, se=0.05)]
    assert ac.verdict_phase_flip(dict(z=5.0, rows=rows)).verdict == PASS
    rows[1] = _tail_row("above", 0.7, 1.9, se=0.05)          # measured concentrated where theory says extended
    out = ac.verdict_phase_flip(dict(z=5.0, rows=rows))
    assert out.verdict == FAIL and "above" in out.summary


def _env_row(label, beta_star, beta_env, se=0.05):
    return dict(label=label, beta_star=beta_star, beta_env=beta_env, se=se, best="power", window_ok=True,
                runs_p=0.5, ci=(beta_env - se, beta_env + se))


def test_verdict_envelope():
    assert ac.verdict_envelope(dict(z=5.0, rows=[_env_row("a", 1.2, 1.25)])).verdict == PASS
    assert ac.verdict_envelope(dict(z=5.0, rows=[_env_row("a", 1.2, 1.9)])).verdict == FAIL


def _ou_row(drift, favoured, change, se=0.1):
    return dict(drift=drift, label="g", favoured=favoured, vuong_z=-3.0, beta_low=1.0, beta_high=1.0 + change,
                change=change, se=se)


def test_verdict_ou_collapsed():
    good = [_ou_row("linear", "lognormal", 2.0), _ou_row("saturating", "power law", 0.05)]
    assert ac.verdict_ou_collapsed(dict(z=5.0, rows=good)).verdict == PASS
    for bad in ([_ou_row("linear", "power law", 2.0)], [_ou_row("linear", "lognormal", 0.1)],
                [_ou_row("saturating", "lognormal", 0.0)], [_ou_row("saturating", "power law", 1.0)]):
        assert ac.verdict_ou_collapsed(dict(z=5.0, rows=bad)).verdict == FAIL


def test_verdict_samplers():
    row = dict(alpha=1.5, dt=0.1, sampler="exact", est=[1.0, 3.0], se=[0.01, 0.1], exact=[1.01, 3.1])
    assert ac.verdict_samplers(dict(n=100, z=5.0, rows=[row])).verdict == PASS
    row = {**row, "est": [1.2, 3.0]}                          # 20 se off
    assert ac.verdict_samplers(dict(n=100, z=5.0, rows=[row])).verdict == FAIL


# --- the Bonferroni z depends on the number of comparisons --------------------------------------------
@pytest.mark.parametrize("p, m", [(1e-6, 1), (1e-6, 7), (1e-6, 200), (1e-9, 3)])
def test_z_for_false_alarm_is_the_bonferroni_quantile(p, m):
    z = z_for_false_alarm(p=p, m=m)
    # the upper-tail quantile from scipy's normal law (not 1 - p/(2m), which rounds in float64 first)
    assert abs(z - float(norm.isf(p / (2 * m)))) < 1e-12 * z
    assert z_for_false_alarm(p=p, m=m + 5) > z


def test_z_for_false_alarm_never_below_the_floor():
    from numerics.stats import Z_MIN
    assert z_for_false_alarm(p=0.05, m=1) == Z_MIN == max(Z_MIN, float(ndtri(1 - 0.05 / 2)))


# --- memory_theory ------------------------------------------------------------------------------------------
from validation.checks import memory_theory as mt          # noqa: E402
from validation.checks import signal_energy as sg          # noqa: E402
from validation.checks import signal_numerics as sn        # noqa: E402
from validation.registry import NOT_REPRODUCED             # noqa: E402


def test_verdict_exp_one_mode():
    row = dict(T=64, alpha=0.5, residual=1e-30, pole=0.9, q=0.9, pole_err=1e-17, timescale=9.5)
    assert mt.verdict_exp_one_mode(dict(rows=[row])).verdict == PASS
    assert mt.verdict_exp_one_mode(dict(rows=[{**row, "residual": 1e-6}])).verdict == FAIL
    assert mt.verdict_exp_one_mode(dict(rows=[{**row, "pole_err": 1e-9}])).verdict == FAIL


def test_verdict_linear_relmse():
    rows = [dict(kind="exp", model="m", closed=0.1, mc=0.101, se=0.001)]
    assert mt.verdict_linear_relmse(dict(T=8, N=10, z=5.0, rows=rows)).verdict == PASS
    rows[0]["mc"] = 0.2
    assert mt.verdict_linear_relmse(dict(T=8, N=10, z=5.0, rows=rows)).verdict == FAIL


def _table(kind_values):
    """Complexity-table rows (kind, alpha, support, C1, C8, C32, Cpos8, rank x 3) from per-kind C and ranks."""
    return tuple((k, a, sup, c, c, c, c, r, r, r) for k, vals in kind_values.items() for a, sup, c, r in vals)


def test_verdict_tail_energy_and_effective_rank():
    grow = [(0.1, 10, 0.1, 50.0), (0.5, 10, 0.5, 60.0), (1.0, 10, 0.9, 70.0)]
    flat = [(0.1, 10, 0.5, 1.0), (0.5, 10, 0.5, 1.0), (1.0, 10, 0.5, 1.0)]
    good = dict(T=16, worst_closed_form_error=1e-16, rows=_table({"exp": grow, "poly": grow, "impulse": flat,
                                                                   "airy": grow}))
    assert mt.verdict_tail_energy(good).verdict == PASS
    assert mt.verdict_tail_energy({**good, "worst_closed_form_error": 1e-6}).verdict == FAIL     # closed form
    bad = {**good, "rows": _table({"exp": grow, "poly": flat, "impulse": flat, "airy": grow})}
    assert mt.verdict_tail_energy(bad).verdict == NOT_REPRODUCED                                 # the claim
    assert mt.verdict_effective_rank(good).verdict == PASS
    worse = {**good, "rows": _table({"exp": grow, "poly": grow, "impulse": grow, "airy": flat[::-1]})}
    assert mt.verdict_effective_rank(worse).verdict == NOT_REPRODUCED


def test_verdict_prony_poly():
    def scan(m_max, rate, cond):      # residual 10^(-rate m); condition cond at m_max, one decade less per mode
        return [dict(m=m, residual=10.0 ** (-rate * m), condition=cond * 10.0 ** (m - m_max), gn=10.0 ** m,
                     tau_min=1.0, tau_max=500.0, spread=500.0) for m in range(1, m_max + 1)]
    data = dict(Ts=(64, 256), alphas=(0.5,), tol=10.0 ** -5.5, exp_residual=1e-30,
                scans={(64, 0.5): scan(6, 1.0, 1e7), (256, 0.5): scan(7, 0.8, 1e7)})    # m* = 6, then 7
    out = mt.verdict_prony_poly(data)
    assert out.verdict == PASS, out.summary
    data["scans"][(256, 0.5)] = scan(7, 0.8, 10.0)                              # well conditioned
    assert mt.verdict_prony_poly(data).verdict == NOT_REPRODUCED


def test_verdict_families():
    row = dict(T=64, alpha=0.5, tau=3.0, exp_err=1e-16, p=1.5, poly_err=1e-16, m=32, impulse_at_m=True, sigma=0.5,
               min_gap=5.0, period0=20.0)
    assert mt.verdict_families(dict(rows=[row])).verdict == PASS
    for bad in (dict(exp_err=1e-8), dict(impulse_at_m=False), dict(min_gap=3.0)):
        assert mt.verdict_families(dict(rows=[{**row, **bad}])).verdict == FAIL


# --- signal energies ------------------------------------------------------------------------------------------
def test_verdict_precision_ladder():
    row = dict(n=10, k=3, reference="exact", ball_ok=True, float_kind="float", float_err=1e-16,
               **{f"mp{d}": 10.0 ** (-d) for d in sg.LADDER})
    assert sg.verdict_precision_ladder(dict(kmax=3, rows=[row])).verdict == PASS
    for bad in (dict(ball_ok=False), dict(float_err=1e-12), dict(mp30=1e-20)):
        assert sg.verdict_precision_ladder(dict(kmax=3, rows=[{**row, **bad}])).verdict == FAIL


def test_verdict_subcritical_and_supercritical():
    rows = [dict(n=10**12, t=t, dev=1e-20, ratio=1 + 4 / t, resid=0.0) for t in (10, 30, 100, 300, 1000, 3000, 10**4)]
    assert sg.verdict_subcritical(dict(rows=rows)).verdict == PASS
    rows[4] = {**rows[4], "ratio": 1 + 5 / 1000}
    assert sg.verdict_subcritical(dict(rows=rows)).verdict == FAIL
    n, t = 10**8, 4 * 10**4
    model = t**3 / (6 * n**2) - 3 * n / t**2
    good = dict(n=n, c=4, t=t, log_S=100.0, e_plain=model, e_geo=-n / t**2, e_int=0.0)
    assert sg.verdict_supercritical(dict(rows=[good])).verdict == PASS
    assert sg.verdict_supercritical(dict(rows=[{**good, "e_geo": 0.5}])).verdict == FAIL


def test_verdict_breakdown_and_series():
    row = dict(quantity="S", tol=1e-3, n=10**18, t=588444000, c=0.588444, boundary=None)
    assert sg.verdict_breakdown(dict(max_e=8, rows=[row])).verdict == PASS
    assert sg.verdict_breakdown(dict(max_e=8, rows=[{**row, "t": 600000000}])).verdict == FAIL
    assert sg.verdict_breakdown(dict(max_e=8, rows=[{**row, "boundary": False}])).verdict == FAIL
    assert sg.verdict_series(dict(kmax=5, fails=[])).verdict == PASS
    assert sg.verdict_series(dict(kmax=5, fails=[("EGF", 2, 3)])).verdict == FAIL


# --- signal Monte Carlo and Wick enumeration --------------------------------------------------------------------
def test_verdict_complex_Q_S():
    K, D = 6, 4
    ex = np.linspace(1.0, 2.0, K + 1)
    se = np.full(K + 1, 0.01)
    run = dict(K=K, D=D, samples=100, q_mean=ex + 0.01, q_se=se, q_exact=ex, s_mean=ex.copy(), s_se=se, s_exact=ex)
    assert sn.verdict_complex_Q_S(dict(runs={8: run})).verdict == PASS
    off = {**run, "q_mean": ex + np.where(np.arange(K + 1) == 2, 0.5, 0.0)}      # 50 se off inside k <= D
    assert sn.verdict_complex_Q_S(dict(runs={8: off})).verdict == FAIL
    diag = {**run, "q_mean": ex + np.where(np.arange(K + 1) == 6, 0.5, 0.0)}     # only a diagnostic point off
    assert sn.verdict_complex_Q_S(dict(runs={8: diag})).verdict == PASS


def test_verdict_complex_hultman_and_real_table():
    rows = [dict(k=2, enumerated=[0, 1, 0, 1], hultman=[0, 1, 0, 1], seconds=0.0)]
    assert sn.verdict_complex_hultman(dict(kmax=2, rows=rows)).verdict == PASS
    rows[0]["enumerated"] = [0, 2, 0, 1]
    assert sn.verdict_complex_hultman(dict(kmax=2, rows=rows)).verdict == FAIL
    from numerics.signal_propagation.wick import polynomial_string
    real = [0, 2, 0, 1]                                          # the printed k = 2 row; (2k-1)!! = 3
    row = dict(k=2, real=real, hultman=[0, 1, 0, 1], published=polynomial_string(real), reference=real,
               ratios=[1.0, 1.0], seconds=0.0)
    assert sn.verdict_real_table(dict(kmax=2, rows=[row])).verdict == PASS
    assert sn.verdict_real_table(dict(kmax=2, rows=[{**row, "reference": [0, 2, 1, 0]}])).verdict == FAIL


def test_verdict_feedforward():
    L = 3
    run = dict(field="complex", n=8, L=L, second_exact=(1 + 1 / 8) ** np.arange(L + 1),
               first_mean=np.ones(L + 1), first_se=np.full(L + 1, 0.01),
               second_mean=(1 + 1 / 8) ** np.arange(L + 1), second_se=np.full(L + 1, 0.01), recurrent=[1.0] * (L + 1))
    assert sn.verdict_feedforward(dict(runs=[run], contrast=[])).verdict == PASS
    run["first_mean"] = np.array([1.0, 1.0, 1.3, 1.0])
    assert sn.verdict_feedforward(dict(runs=[run], contrast=[])).verdict == FAIL
