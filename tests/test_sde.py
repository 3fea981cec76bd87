"""numerics.anticollapse.sde: determinism across thread counts, exact one-step moments, OU stationary law, baseline."""

import math

import numba
import numpy as np
import pytest

from numerics.anticollapse.levy_sampling import cts_cumulant
from numerics.anticollapse.sde import SDEConfig, drift, simulate, simulate_numpy
from theory.levy import LevyParams, characteristic_root
from numerics.stats import agreement, z_for_false_alarm

JUMPY = dict(params=LevyParams(kappa=1.0, eta_G=0.3, eta_J=0.8, alpha=1.5, lam=3.0), w=0.2, zeta_0=-1.0, dt=0.05,
             eps=0.2)


def _params(**kw) -> LevyParams:
    return LevyParams(**{**dict(eta_G=0.25, kappa=1.0, eta_J=0.0, alpha=1.5, lam=3.0), **kw})


@pytest.mark.parametrize("jumps", ["none", "cp", "exact"])
def test_bit_identical_for_any_thread_count(jumps):
    cfg = SDEConfig(**JUMPY, jumps=jumps)
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a = simulate(cfg, 300, burn_in=40, n_samples=3, thin=5, seed=4)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        b = simulate(cfg, 300, burn_in=40, n_samples=3, thin=5, seed=4, progress=True)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(a, b)
    # particle i depends only on (seed, i): a smaller ensemble is a prefix
    assert np.array_equal(simulate(cfg, 7, burn_in=40, n_samples=3, thin=5, seed=4), a[:7])
    assert not np.array_equal(simulate(cfg, 7, burn_in=40, n_samples=3, thin=5, seed=5), a[:7])


@pytest.mark.parametrize("jumps", ["none", "cp", "exact"])
def test_one_step_moments_are_exact(jumps):
    """One Euler-Maruyama step from zeta_init: mean zeta + F dt, variance 2 eta_G dt + kappa_2(dt), and
    fourth central moment 3 var^2 + kappa_4 (exact jumps; the cp approximation keeps kappa_2 exactly)."""
    cfg = SDEConfig(**JUMPY, jumps=jumps)
    z0 = -1.7
    z = simulate(cfg, 200_000, burn_in=0, n_samples=2, seed=8, zeta_init=z0)
    assert np.all(z[:, 0] == z0)
    d = z[:, 1] - (z0 + float(drift(cfg, z0)) * cfg.dt)
    kw = cfg.levy() if jumps != "none" else dict(cfg.levy(), eta_J=0.0)
    var = 2 * cfg.eta_G * cfg.dt + cts_cumulant(2, cfg.dt, **kw)
    n = d.size
    est = [d.mean(), np.mean(d * d)]
    se = [d.std(ddof=1) / math.sqrt(n), np.std(d * d, ddof=1) / math.sqrt(n)]
    ex = [0.0, var]
    if jumps == "exact":
        est.append(np.mean(d ** 4))
        se.append(np.std(d ** 4, ddof=1) / math.sqrt(n))
        ex.append(3 * var * var + cts_cumulant(4, cfg.dt, **kw))
    ag = agreement(est, se, ex, z=z_for_false_alarm(m=8))
    assert ag.ok, ag.zscores


def test_ou_stationary_law_is_the_ar1_gaussian():
    """Linear drift + Gaussian noise: the scheme is the AR(1) z' = z0 + r (z - z0) + s N with r = 1 - kappa dt / w,
    s^2 = 2 eta_G dt, whose stationary law is N(z0, s^2 / (1 - r^2)); started there it stays there."""
    cfg = SDEConfig(_params(eta_G=0.4), w=0.5, zeta_0=2.0, dt=0.1, drift="linear")
    r, s2 = 1 - cfg.kappa * cfg.dt / cfg.w, 2 * cfg.eta_G * cfg.dt
    v = s2 / (1 - r * r)
    rng = np.random.default_rng(1)
    start = cfg.zeta_0 + math.sqrt(v) * rng.standard_normal(100_000)
    z = simulate(cfg, start.size, burn_in=30, seed=2, zeta_init=start)[:, 0] - cfg.zeta_0
    n = z.size
    est = [z.mean(), np.mean(z * z), np.mean(z ** 4)]
    se = [z.std(ddof=1) / math.sqrt(n), np.std(z * z, ddof=1) / math.sqrt(n), np.std(z ** 4, ddof=1) / math.sqrt(n)]
    ag = agreement(est, se, [0.0, v, 3 * v * v], z=z_for_false_alarm(m=3))
    assert ag.ok, ag.zscores


def test_numpy_baseline_has_the_same_law():
    """Two different implementations of the scheme (numba streams, numpy Generator): two-sample z-tests
    on the mean, E zeta^2 and the lower-tail fraction after 200 steps with jumps."""
    cfg = SDEConfig(**JUMPY, jumps="cp")
    a = simulate(cfg, 40_000, burn_in=200, seed=1)[:, 0]
    b = simulate_numpy(cfg, 40_000, burn_in=200, seed=1)[:, 0]
    q = np.quantile(a, 0.1)
    stats = [lambda x: x, lambda x: x * x, lambda x: (x < q).astype(float)]
    est, se = [], []
    for g in stats:
        ga, gb = g(a), g(b)
        est.append(ga.mean() - gb.mean())
        se.append(math.sqrt(ga.var(ddof=1) / ga.size + gb.var(ddof=1) / gb.size))
    ag = agreement(est, se, [0.0] * 3, z=z_for_false_alarm(m=3))
    assert ag.ok, ag.zscores


def test_snapshots_and_drift():
    cfg = SDEConfig(_params(kappa=2.0, eta_G=0.0), w=1.0, zeta_0=0.0, dt=0.1)
    z = simulate(cfg, 2, burn_in=1, n_samples=3, thin=2, zeta_init=1.0)
    # deterministic: z_{n+1} = z_n - 2 tanh(z_n) 0.1, snapshots after 1, 3, 5 steps
    path = [1.0]
    for _ in range(5):
        path.append(path[-1] - 0.2 * math.tanh(path[-1]))
    assert np.allclose(z, [path[1], path[3], path[5]], rtol=0, atol=1e-15)
    assert float(drift(SDEConfig(_params(kappa=2.0), drift="linear", w=0.5), 1.0)) == -4.0


@pytest.mark.parametrize("kw,exc,word", [
    (dict(kappa=0.0), ValueError, "kappa"), (dict(eta_G=-0.1), ValueError, "eta_G"),
    (dict(eta_J=-1.0), ValueError, "eta_J"), (dict(alpha=2.0), ValueError, "alpha"),
    (dict(alpha=0.0), ValueError, "alpha"), (dict(lam=0.0), ValueError, "lam"), (dict(kappa="1"), TypeError, "kappa"),
])
def test_bad_params(kw, exc, word):
    with pytest.raises(exc, match=word):
        SDEConfig(_params(**kw))


@pytest.mark.parametrize("kw,exc,word", [
    (dict(w=0.0), ValueError, "w"), (dict(dt=-1.0), ValueError, "dt"), (dict(drift="cubic"), ValueError, "drift"),
    (dict(drift="tanh"), ValueError, "drift"), (dict(jumps="gauss"), ValueError, "jumps"),
    (dict(params={"kappa": 1.0}), TypeError, "params"),
])
def test_bad_config(kw, exc, word):
    with pytest.raises(exc, match=word):
        SDEConfig(**kw)


def test_one_spec_drives_theory_and_simulation():
    from fractions import Fraction
    p = LevyParams(eta_G=Fraction(1, 4), kappa=1, eta_J=Fraction(1, 2), alpha=Fraction(3, 2), lam=3)
    cfg = SDEConfig(p)
    assert (cfg.kappa, cfg.eta_G, cfg.eta_J, cfg.alpha, cfg.lam, cfg.C) == (1.0, 0.25, 0.5, 1.5, 3.0, 1.0)
    assert characteristic_root(cfg.params) == characteristic_root(**{k: float(v) for k, v in p.as_dict().items()})
    assert cfg.levy() == dict(eta_J=0.5, alpha=1.5, lam=3.0, C=1.0)


def test_bad_run_arguments():
    cfg = SDEConfig()
    with pytest.raises(ValueError, match="n_particles"):
        simulate(cfg, 0, burn_in=1)
    with pytest.raises(ValueError, match="burn_in"):
        simulate(cfg, 3, burn_in=-1)
    with pytest.raises(ValueError, match="thin"):
        simulate(cfg, 3, burn_in=1, thin=0)
    with pytest.raises(ValueError, match="seed"):
        simulate(cfg, 3, burn_in=1, seed=-2)
    with pytest.raises(TypeError, match="cfg"):
        simulate({"kappa": 1.0}, 3, burn_in=1)
    with pytest.raises(ValueError, match="zeta_init"):
        simulate(cfg, 3, burn_in=1, zeta_init=float("nan"))
    with pytest.raises(ValueError, match="jumps"):
        simulate_numpy(SDEConfig(_params(eta_J=1.0), jumps="exact"), 3, burn_in=1)
