"""numerics.anticollapse.estimators: tail slope with bootstrap, Hill, log-normal reference, envelope fits,
phase rule. Statistical claims are tested as counts against binomial bounds or as |mean - exact| <= z se;
references are independent (exact Pareto/Renyi facts, brute-force enumeration, scipy.stats.linregress)."""

import math

import numpy as np
import pytest
from scipy import stats

from numerics.anticollapse.estimators import (envelope_fit, hill_beta, lognormal_comparison, phase_rule,
                                 spectrum_envelope_fit, tail_beta)
from numerics.anticollapse.envelope_gate import (calibrated_comparison, envelope_beta_bootstrap,
                                                 calibrated_taus, pareto_mixture_taus, resolution_check,
                                                 tempered_beta, window_gate)
from theory.levy import PHASES
from theory.tauberian import envelope_from_spectrum
from numerics.stats import z_for_false_alarm
import tiny_inputs as tiny

FALSE_ALARM = 1e-6


def _binomial_region(M, p):
    """Two-sided acceptance region for a Binomial(M, p) count at false-alarm rate FALSE_ALARM."""
    return stats.binom.ppf(FALSE_ALARM / 2, M, p), stats.binom.isf(FALSE_ALARM / 2, M, p)


def _pareto(rng, beta, n, x_min=1.0):
    # numpy's pareto is the Lomax law: 1 + Lomax is Pareto with P(X > x) = x^-beta, x >= 1
    return x_min * (1.0 + rng.pareto(beta, n))


# --- tail_beta ---------------------------------------------------------------------------------------------
def test_tail_beta_interval_covers_at_nominal_rate():
    # M = 150: the acceptance region [114, 149] excludes 150 hits, so an interval too wide fails as well
    M, n, beta = 150, 1000, 0.7
    hits = 0
    for s in range(M):
        r = tail_beta(_pareto(np.random.default_rng(1000 + s), beta, n), n_boot=300, seed=s)
        hits += r.ci[0] <= beta <= r.ci[1]
    lo, hi = _binomial_region(M, 0.90)
    assert lo <= hits <= hi < M, (hits, lo, hi)


def test_tail_beta_slope_matches_linregress_with_ties():
    rng = np.random.default_rng(3)
    x = np.round(_pareto(rng, 1.2, 400), 1)               # rounding creates ties
    r = tail_beta(x, n_boot=10)
    s = np.sort(x)
    lo, hi = np.quantile(x, [0.75, 0.995])
    pts = [(v, np.mean(x > v)) for v in np.unique(s) if lo <= v <= hi and np.mean(x > v) > 0]
    ref = stats.linregress(np.log([p[0] for p in pts]), np.log([p[1] for p in pts]))
    assert r.n_tail == len(pts)
    assert abs(r.beta - (-ref.slope)) < 1e-12 and abs(r.r2 - ref.rvalue ** 2) < 1e-12
    assert r.window_x == (lo, hi)


def test_tail_beta_bootstrap_summaries_and_determinism():
    x = _pareto(np.random.default_rng(5), 0.9, 500)
    a, b, c = tail_beta(x, seed=1, n_boot=500), tail_beta(x, seed=1, n_boot=500), tail_beta(x, seed=2, n_boot=500)
    assert a.ci == b.ci and a.ci != c.ci
    assert a.boot.size + a.n_boot_failed == 500
    assert a.p_below_1 == np.mean(a.boot < 1.0)
    assert a.ci == tuple(np.quantile(a.boot, [0.05, 0.95]))
    assert tail_beta(x, seed=1, n_boot=500, level=0.5).ci[1] - tail_beta(x, seed=1, n_boot=500, level=0.5).ci[0] \
        < a.ci[1] - a.ci[0]


def test_tail_beta_drops_infinite_time_scales():
    x = _pareto(np.random.default_rng(6), 1.1, 300)
    r0 = tail_beta(x, n_boot=50)
    r1 = tail_beta(np.r_[x, np.inf, np.inf], n_boot=50)
    assert r1.n_dropped == 2 and r1.n == 300 and r1.beta == r0.beta and r1.ci == r0.ci


def test_tail_beta_small_sample_minimum():
    x = _pareto(np.random.default_rng(7), 1.0, 16)
    assert tail_beta(x, n_boot=20).n == 16
    with pytest.raises(ValueError, match="16"):
        tail_beta(np.r_[x[:15], np.inf], n_boot=20)


@pytest.mark.parametrize("kwargs, exc, word", [
    (dict(tau=[1.0] * 20 + [float("nan")]), ValueError, "tau"),
    (dict(tau=[1.0] * 20 + [-1.0]), ValueError, "tau"),
    (dict(tau="abc"), TypeError, "tau"),
    (dict(window=(0.9, 0.5)), ValueError, "window"),
    (dict(window=(0.5, 1.0)), ValueError, "window"),
    (dict(window=0.5), TypeError, "window"),
    (dict(n_boot=0), ValueError, "n_boot"),
    (dict(level=1.0), ValueError, "level"),
    (dict(seed=-1), ValueError, "seed"),
    (dict(tau=[2.0] * 40), ValueError, "distinct"),
])
def test_tail_beta_bad_input(kwargs, exc, word):
    args = dict(tau=_pareto(np.random.default_rng(0), 1.0, 50))
    args.update(kwargs)
    tau = args.pop("tau")
    with pytest.raises(exc, match=word):
        tail_beta(tau, **args)


# --- Hill --------------------------------------------------------------------------------------------------
def test_hill_is_unbiased_for_inverse_beta_on_pareto():
    # Renyi: for a Pareto sample, k * gamma_hat * beta ~ Gamma(k, 1), so E[1/beta_hat] = 1/beta exactly
    beta, n, M = 1.3, 600, 300
    g = np.array([1.0 / hill_beta(_pareto(np.random.default_rng(s), beta, n)) for s in range(M)])
    z = z_for_false_alarm(FALSE_ALARM)
    assert abs(g.mean() - 1 / beta) <= z * g.std(ddof=1) / math.sqrt(M)
    k = max(50, int(0.08 * n))                       # and the spread is the Gamma law's: Var = 1/(beta^2 k)
    v = (g - 1 / beta) ** 2                          # unbiased for the variance (the mean is known)
    assert abs(v.mean() - 1 / (beta ** 2 * k)) <= z * v.std(ddof=1) / math.sqrt(M)


def test_hill_by_hand_and_default_k():
    x = np.array([1.0, 2.0, 4.0, 8.0])
    # k = 2: mean(log 8, log 4) - log 2 = 1.5 log 2
    assert abs(hill_beta(x, n_tail=2) - 1 / (1.5 * math.log(2))) < 1e-15
    assert abs(hill_beta(x) - 1 / (math.log(64) / 3)) < 1e-15      # default k capped at n - 1 = 3
    big = np.exp(np.arange(1, 1001) / 100.0)
    assert abs(hill_beta(big) - hill_beta(big, n_tail=80)) == 0.0       # max(50, 0.08 * 1000) = 80
    with pytest.raises(ValueError, match="n_tail"):
        hill_beta(x, n_tail=4)
    with pytest.raises(ValueError, match="equal"):
        hill_beta([3.0, 3.0, 3.0], n_tail=1)


# --- log-normal reference ------------------------------------------------------------------------------------
def _truncated_lognormal_sigma_se(x, x_min, mu, sigma, h=1e-4):
    """Standard error of sigma from the observed information of the truncated log-normal likelihood
    (an independent re-implementation; central-difference Hessian in (mu, log sigma), delta method)."""
    lx, lm = np.log(x), math.log(x_min)

    def nll(p):
        m, ls = p
        sg = math.exp(ls)
        z = (lx - m) / sg
        return float(np.sum(0.5 * z * z + ls + stats.norm.logsf((lm - m) / sg)))

    p0 = np.array([mu, math.log(sigma)])
    H = np.empty((2, 2))
    for i in range(2):
        for j in range(2):
            e_i, e_j = np.eye(2)[i] * h, np.eye(2)[j] * h
            H[i, j] = (nll(p0 + e_i + e_j) - nll(p0 + e_i - e_j) - nll(p0 - e_i + e_j) + nll(p0 - e_i - e_j)) / (4 * h * h)
    return sigma * math.sqrt(np.linalg.inv(H)[1, 1])


def test_lognormal_comparison_rejects_power_law_only_for_lognormal_data():
    rng = np.random.default_rng(11)
    z = z_for_false_alarm(FALSE_ALARM)
    for _ in range(3):
        # a log-normal with mu -> -inf mimics a Pareto tail: on Pareto data the verdict is never "lognormal";
        # the tail MLE has se beta / sqrt(n_tail) (exact Pareto above x_min)
        p = lognormal_comparison(_pareto(rng, 0.8, 20000))
        assert p.favoured != "lognormal" and abs(p.beta_pareto - 0.8) <= z * 0.8 / math.sqrt(p.n_tail)
        x = np.exp(rng.normal(1.0, 1.5, 20000))
        q = lognormal_comparison(x)
        se = _truncated_lognormal_sigma_se(x[x > q.x_min], q.x_min, *q.lognormal)
        assert q.favoured == "lognormal" and q.z < 0 and abs(q.lognormal[1] - 1.5) <= z * se
    with pytest.raises(ValueError, match="q_min"):
        lognormal_comparison(np.arange(1.0, 100.0), q_min=1.0)




# --- envelope_fit ------------------------------------------------------------------------------------------
LAGS = np.geomspace(8, 640, 24)


@pytest.mark.parametrize("b", [0.3, 1.0, 1.7])
def test_envelope_fit_recovers_exact_power_law(b):
    r = envelope_fit(LAGS, 0.5 * LAGS ** -b)
    assert r.best == "power" and r.window_ok and abs(r.beta - b) < 1e-10
    assert r.ci[0] - 1e-12 <= b <= r.ci[1] + 1e-12 and r.ci[1] - r.ci[0] < 1e-8


def test_envelope_fit_exponential_and_tempered_shapes():
    e = envelope_fit(LAGS, 2.0 * np.exp(-LAGS / 40.0))
    assert e.best == "exponential" and not e.window_ok and abs(e.params["exponential"][1] + 1 / 40) < 1e-12
    t = envelope_fit(LAGS, LAGS ** -0.5 * np.exp(-LAGS / 300.0))
    assert t.best == "tempered" and abs(t.beta - 0.5) < 1e-9 and abs(t.params["tempered"][2] + 1 / 300) < 1e-12


def test_runs_test_false_alarm_rate_on_noisy_power_law():
    # iid noise about an exact power law: window_ok fails only when the runs test falsely rejects (<= 5%)
    M, fails = 200, 0
    for s in range(M):
        noise = np.random.default_rng(s).normal(0.0, 0.02, LAGS.size)
        r = envelope_fit(LAGS, 2.0 * LAGS ** -0.7 * np.exp(noise))
        assert r.best != "exponential"
        fails += not r.window_ok
    assert fails <= _binomial_region(M, 0.05)[1]


@pytest.mark.parametrize("kind", ["lognormal", "lognormal_wide", "uniform"])
def test_collapsed_spectra_do_not_pass_the_window(kind):
    for s in range(5):
        rng = np.random.default_rng(s)
        tau = {"lognormal": lambda: np.exp(rng.normal(math.log(50), 1.0, 512)),
               "lognormal_wide": lambda: np.exp(rng.normal(math.log(50), 2.0, 512)),
               "uniform": lambda: rng.uniform(10, 300, 512)}[kind]()
        f = envelope_from_spectrum(LAGS, tau)
        assert not envelope_fit(LAGS, f).window_ok
        assert not envelope_fit(LAGS, f * np.exp(rng.normal(0, 0.02, LAGS.size))).window_ok


def test_envelope_fit_window_and_order():
    f = 0.5 * LAGS ** -0.9
    perm = np.random.default_rng(0).permutation(LAGS.size)
    a = envelope_fit(LAGS[perm], f[perm])
    assert abs(a.beta - 0.9) < 1e-10 and np.all(np.diff(a.lags) > 0)
    w = envelope_fit(LAGS, f, window=(20, 400))
    assert w.lags.min() >= 20 and w.lags.max() <= 400 and abs(w.beta - 0.9) < 1e-10


@pytest.mark.parametrize("args, kwargs, exc, word", [
    ((LAGS, LAGS[:-1]), {}, ValueError, "same length"),
    ((np.r_[0.0, LAGS[1:]], LAGS), {}, ValueError, "lags"),
    ((LAGS, -LAGS), {}, ValueError, "f"),
    ((LAGS[:4], LAGS[:4]), {}, ValueError, ">= 5"),
    ((np.r_[LAGS[:5], LAGS[4]], np.ones(6)), {}, ValueError, "distinct"),
    ((LAGS, LAGS), dict(level=0.0), ValueError, "level"),
    ((LAGS, LAGS), dict(window=(1, 2, 3)), TypeError, "window"),
    ((LAGS, np.r_[LAGS[:-1], np.nan]), {}, ValueError, "f"),
])
def test_envelope_fit_bad_input(args, kwargs, exc, word):
    with pytest.raises(exc, match=word):
        envelope_fit(*args, **kwargs)


# --- spectrum envelope ------------------------------------------------------------------------------------
def test_spectrum_envelope_fit_is_deterministic_and_brackets_the_fit():
    tau = 10.0 * _pareto(np.random.default_rng(2), 0.6, 2000)
    lags = np.geomspace(200, 2000, 16)
    r = spectrum_envelope_fit(tau, lags, n_boot=200, seed=4)
    r2 = spectrum_envelope_fit(tau, lags, n_boot=200, seed=4)
    assert r.ci == r2.ci and r.boot.size == 200 and r.ci[0] < r.ci[1]
    assert r.beta == r.fit.beta == envelope_fit(lags, envelope_from_spectrum(lags, tau)).beta
    assert r.ci[0] < r.beta < r.ci[1]
    assert r.ci != spectrum_envelope_fit(tau, lags, n_boot=200, seed=5).ci
    with pytest.raises(ValueError, match="tau"):
        spectrum_envelope_fit([1.0, -2.0] * 10, lags)
    with pytest.raises(ValueError, match="weights"):
        spectrum_envelope_fit(tau, lags, weights=np.zeros(tau.size))


def test_spectrum_envelope_interval_covers_the_tauberian_exponent():
    # a Pareto(beta) spectrum has f(l) ~ A Gamma(beta) l^-beta (Tauberian); at l >= 20 tau_min the
    # correction is e^-20, so the bootstrap interval of the envelope exponent should cover beta at its level
    M, beta, lags, hits = 150, 0.6, np.geomspace(200, 2000, 16), 0     # 150: too wide fails too
    for s in range(M):
        tau = 10.0 * _pareto(np.random.default_rng(500 + s), beta, 2000)
        r = spectrum_envelope_fit(tau, lags, n_boot=150, seed=s)
        hits += r.ci[0] <= beta <= r.ci[1]
    lo, hi = _binomial_region(M, 0.90)
    assert lo <= hits <= hi < M, (hits, lo, hi)


# --- phase rule --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("ci, ok, phase", [
    ((1.1, 1.5), True, "concentrated"), ((0.2, 0.9), True, "extended"), ((0.8, 1.2), True, "boundary"),
    ((1.0, 1.4), True, "boundary"), ((0.5, 1.0), True, "boundary"), ((1.1, 1.5), False, "collapsed"),
    ((0.2, 0.9), False, "collapsed"), ((0.8, 1.2), False, "collapsed"), ((1.0, 1.0), True, "boundary"),
])
def test_phase_rule_truth_table(ci, ok, phase):
    assert phase_rule(ci, ok) == phase


def test_phase_rule_bad_input():
    with pytest.raises(ValueError, match="lo <= hi"):
        phase_rule((1.5, 1.0), True)
    with pytest.raises(TypeError, match="window_ok"):
        phase_rule((0.5, 0.7), 1)
    with pytest.raises(TypeError, match="ci"):
        phase_rule(0.5, True)
    assert phase_rule((float("nan"), 1.0), True) == "unresolved"     # no interval: the author's unresolved


def test_phase_rule_unresolved_step_comes_before_the_interval():
    # the author's order: window gate, then R^2 < 0.90 -> unresolved, then the interval against 1
    assert phase_rule((0.3, 0.7), True, r2=0.881) == "unresolved"
    assert phase_rule((0.3, 0.7), True, r2=0.90) == "extended"
    assert phase_rule((1.2, 1.5), True, r2=float("nan")) == "unresolved"
    assert phase_rule((0.3, 0.7), False, r2=0.5) == "collapsed"
    assert phase_rule((float("nan"), float("nan")), True, r2=0.95) == "unresolved"
    assert phase_rule((0.3, 0.7), True) == "extended"               # r2=None: the levy.* checks' form
    assert set(phase_rule(ci, ok, r2) for ci in ((0.2, 0.5), (0.8, 1.2), (1.5, 2.0)) for ok in (True, False)
               for r2 in (None, 0.5, 0.95)) <= set(PHASES)


# --- the author's window gate (numerics.anticollapse.envelope_gate) ----------------------------------------
GRID = np.linspace(4, 384, 128)


def test_window_gate_fails_on_a_pure_exponential_envelope():
    for s in range(5):
        noise = np.random.default_rng(s).normal(0.0, 1e-3, GRID.size)
        g = window_gate(GRID, np.exp(-GRID / 60.0 + noise))
        assert not g.passed and g.best == "exponential" and g.reason == "exponential_best" and g.n_window == 0
    exact = window_gate(GRID, 0.7 * np.exp(-GRID / 60.0))
    assert not exact.passed                                          # whatever model wins on rounding


@pytest.mark.parametrize("ell_star, n_expected", [(24.0, 7), (26.0, 8), (50.0, 16)])
def test_window_gate_window_and_point_count_on_a_tempered_curve(ell_star, n_expected):
    # f = l^-beta exp(-l / tau_max) is fitted exactly by the tempered model: l* = beta tau_max
    beta = 0.5
    g = window_gate(GRID, GRID ** -beta * np.exp(-GRID / (ell_star / beta)))
    assert g.best == "tempered" and abs(g.ell_star - ell_star) < 1e-8 and abs(g.beta_env - beta) < 1e-10
    assert g.n_window == n_expected == int(np.sum(GRID <= ell_star)) and g.window[1] <= ell_star < g.window[1] + 3
    assert g.min_points == max(8, math.ceil(0.05 * GRID.size)) == 8
    assert ("window_too_short" in g.reason) == (n_expected < 8)
    big = np.linspace(4, 384, 400)                                   # 5% of 400 = 20 points needed
    assert window_gate(big, big ** -beta * np.exp(-big / (ell_star / beta))).min_points == 20


def test_window_gate_degenerate_beta_and_power_law_whole_grid():
    g = window_gate(GRID, GRID ** -0.08 * np.exp(-GRID / 2000.0))    # l* = 160 in range, beta 0.08 <= 0.10
    assert g.best == "tempered" and "beta_window_degenerate" in g.reason and not g.passed
    rng = np.random.default_rng(1)
    p = window_gate(GRID, 2.0 * GRID ** -0.6 * np.exp(rng.normal(0, 0.01, GRID.size)))
    assert p.best == "power" and p.n_window == GRID.size and abs(p.beta_window - 0.6) < 0.01
    # the power refit of the window is structureless: the runs test's p-value decides, at > 0.05
    assert p.passed == (p.runs_p > 0.05) and abs(p.beta_local - p.beta_window) < 1e-12


def test_resolution_check():
    tau = np.geomspace(1, 107, 128)
    r = resolution_check(tau, np.arange(1, 78))
    assert not r.resolved and r.lag_max == 77 and r.tau_hi == np.quantile(tau, 0.995) and "77" in r.reason
    assert resolution_check(tau, np.arange(1, 129)).resolved
    small = resolution_check(np.r_[tau[:15], np.inf, np.inf], np.arange(1, 500))
    assert not small.resolved and small.n_finite == 15 and "15 < 16" in small.reason


def _pareto_case(beta, n=256, lags=GRID):
    tau = pareto_mixture_taus(beta, 2.0, 1e12, n)                  # exact Pareto quantiles (untruncated)
    return tau, np.exp(-lags[None, :] / tau[:, None])              # and the per-unit envelopes


def test_calibrated_comparison_on_an_exact_pareto_mixture():
    tau, F = _pareto_case(0.6)
    tail = tail_beta(tau, n_boot=400, seed=1)
    g = window_gate(GRID, F.mean(axis=0))
    boot = envelope_beta_bootstrap(F, GRID, n_boot=400, seed=2)
    c = calibrated_comparison(g.beta_env, boot, tail, tau, GRID)
    # the calibrated value is the same estimator on the same grid for the Pareto tail at the fitted beta
    mix = calibrated_taus(tau, tail.beta, 0.75)
    assert np.array_equal(np.sort(mix)[: 192], np.sort(tau)[: 192]) and abs(tail_beta(mix, n_boot=10).beta - tail.beta) < 0.05
    direct = tempered_beta(GRID, np.log(np.mean(np.exp(-GRID[None, :] / mix[:, None]), axis=0)))
    assert abs(c.beta_cal - float(direct)) < 1e-12 and c.tau_range == (tau.min(), tau.max())
    assert c.agree and c.diff_ci[0] <= 0.0 <= c.diff_ci[1] and c.beta_env_ci[0] < g.beta_env < c.beta_env_ci[1]
    # a measured envelope from a much narrower spectrum does not agree with this tail
    tau2, F2 = _pareto_case(3.0)
    c2 = calibrated_comparison(window_gate(GRID, F2.mean(axis=0)).beta_env,
                               envelope_beta_bootstrap(F2, GRID, n_boot=400, seed=2), tail, tau, GRID)
    assert not c2.agree


def test_tail_beta_names_a_degenerate_tail():
    from numerics.anticollapse.estimators import DegenerateTail

    with pytest.raises(DegenerateTail, match="distinct values in the quantile window"):
        tail_beta(np.full(200, 7.0))
    assert issubclass(DegenerateTail, ValueError)      # callers catching ValueError still do


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def _bad_calls():
    """(call, exception, text the message must hold): each used to crash, pass silently or raise an error
    that did not name the parameter."""
    from numerics.anticollapse import envelope_gate

    return [
        (lambda: envelope_gate.resolution_check("", np.arange(1, 30)), TypeError, "tau"),
        (lambda: envelope_gate.pareto_mixture_taus(0.5, 1e7, 100.0, 8), ValueError, "tau_min"),
        (lambda: envelope_gate.calibrated_comparison(0.5, [], tiny.tail(), tiny.pareto(400), np.arange(1.0, 30.0)),
         ValueError, "measured_boot"),
    ]


@pytest.mark.parametrize("i", range(len(_bad_calls())))
def test_bad_argument_is_named(i):
    tiny.assert_named(*_bad_calls()[i])


def test_bootstrap_and_horizon_bounds():
    from numerics.anticollapse.envelope_gate import envelope_beta_bootstrap
    from theory.horizon import sigma_for_horizon

    with pytest.raises(ValueError, match="n_boot"):
        envelope_beta_bootstrap(np.ones((4, 3)), [1, 2, 3], n_boot=10**30)
    with pytest.raises(ValueError, match="t must"):
        sigma_for_horizon(64, 10**7, 0.05)


def test_phase_rule_names_bad_values():
    with pytest.raises(TypeError, match="r2 must be a real number"):
        phase_rule((0.1, 0.2), True, "bogus")
    with pytest.raises(TypeError, match=r"ci\[0\] must be a real number"):
        phase_rule(("a", 0.2), True)
    assert phase_rule((0.3, 0.7), True, r2=float("nan")) == "unresolved"


def test_envelope_gate_names_bad_values():
    from numerics.anticollapse.envelope_gate import resolution_check, tempered_beta
    with pytest.raises(TypeError, match="log_f"):
        tempered_beta(np.arange(1, 5), "bogus")
    with pytest.raises(ValueError, match="lags must be a nonempty"):
        resolution_check(np.geomspace(1, 100, 64), np.array([]))
    with pytest.raises(TypeError, match="tau must be real"):
        spectrum_envelope_fit(np.ones(64) * (1 + 1j), np.geomspace(4, 40, 12))
