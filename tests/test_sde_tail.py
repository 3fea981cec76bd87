"""numerics.anticollapse.sde_tail: beta from a simulation of the log-rate SDE (the recipe as one function).

The reference is the closed form ``theory.levy.characteristic_root`` (and, for Gaussian noise alone, the hand
value ``beta* = kappa / eta_G``); the decision rule is the validation checks' (``levy.*``):
``|beta_hat - beta*| <= z se``, se the bootstrap standard deviation over particles, z from a false-alarm rate.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from numerics.anticollapse.sde_tail import (MAX_PARTICLE_STEPS, SDETailWarning, beta_eps, beta_from_sde,
                                            stationary_snapshot)
from numerics.stats import z_for_false_alarm
from theory.levy import LevyParams, characteristic_root, threshold_eta_J

GAUSS = LevyParams(eta_G=0.5, kappa=1.0, eta_J=0.0, alpha=1.5, lam=3.0)      # beta* = kappa / eta_G = 2


@pytest.mark.slow
def test_the_naive_call_gives_beta_star():
    """Issue 44: a first attempt gave 5.6 against beta* = 2. The call with every default (100_000 particles,
    the recipe's burn-in, window and bootstrap) must agree with the closed form, without a warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", SDETailWarning)           # a clean call: no warning
        r = beta_from_sde(GAUSS)
    assert r.beta_star == 2.0 == characteristic_root(GAUSS)
    assert abs(r.beta - 2.0) <= z_for_false_alarm() * r.se, (r.beta, r.se)
    assert r.particles == 100_000 and r.fit.n == 100_000 and r.fit.boot.size == 2000


def test_jumps_across_the_threshold_against_characteristic_root():
    """The validation check's sweep (eta_J = 0.5, 1, 2 eta_J*) at its quick size: Bonferroni z over 3 settings."""
    star = threshold_eta_J(eta_G=0.25, kappa=1.0, alpha=1.5, lam=3.0)
    z = z_for_false_alarm(m=3)
    for i, ratio in enumerate((0.5, 1.0, 2.0)):
        p = LevyParams(eta_G=0.25, kappa=1.0, eta_J=ratio * star, alpha=1.5, lam=3.0)
        r = beta_from_sde(p, particles=20_000, seed=11 + i, eps=0.2, n_boot=300)
        assert r.beta_star == characteristic_root(p)
        assert abs(r.beta - r.beta_star) <= z * r.se, (ratio, r.beta, r.beta_star, r.se)


def test_the_recipe_burn_in_by_hand():
    """Gaussian noise alone: Phi(b) = eta_G b^2 - kappa b, Phi'(beta*) = kappa at beta* = kappa / eta_G, so
    T_d = ln(200) / (beta* kappa) and the burn-in is ceil(10 T_d / dt)."""
    r = beta_from_sde(GAUSS, particles=200, n_boot=20)
    assert r.burn_in == math.ceil(10 * math.log(200) / (2.0 * 1.0) / 0.05) == 530
    assert (r.config.dt, r.config.w, r.config.eps, r.config.drift, r.config.jumps) == (0.05, 0.1, 0.1, "saturating", "cp")
    assert r.zeta.shape == (200,) and r.beta == r.fit.beta and r.ci == r.fit.ci
    assert r.se == float(np.std(r.fit.boot, ddof=1)) and r.boot_seed == r.seed == 0
    # the linear (OU) control: 50 relaxation times w / kappa
    z = stationary_snapshot(GAUSS, 200, drift="linear")
    assert z.shape == (200,)


def test_a_short_burn_in_warns_and_misses_beta_star():
    """The failure the warning names: particles started at zeta_0 = 0 have not filled the tail after 20 steps
    (one time unit), so the fitted tail is far too thin, beyond z standard errors of beta*."""
    with pytest.warns(SDETailWarning, match="burn_in = 20 is below the recipe's 530"):
        r = beta_from_sde(GAUSS, particles=20_000, burn_in=20, n_boot=200)
    assert r.beta - r.beta_star > z_for_false_alarm() * r.se, (r.beta, r.se)
    # the recipe's own burn-in does not warn
    with warnings.catch_warnings():
        warnings.simplefilter("error", SDETailWarning)
        beta_from_sde(GAUSS, particles=2000, burn_in=530, n_boot=20)


def test_the_other_warnings_say_why():
    with pytest.warns(SDETailWarning, match="drift bends"):          # w = 1: the window sits in the bend
        beta_from_sde(GAUSS, particles=2000, w=1.0, n_boot=20)
    tempered = LevyParams(eta_G=0.1, kappa=1.0, eta_J=0.1, alpha=1.5, lam=1.0)    # Phi(lam) < 0: no root
    assert characteristic_root(tempered) == 1.0
    with pytest.warns(SDETailWarning, match="tempering"):
        beta_from_sde(tempered, particles=2000, n_boot=20, w=0.01)
    jumpy = LevyParams(eta_G=0.1, kappa=1.0, eta_J=0.5, alpha=1.0, lam=8.0)    # beta* = 5.89
    assert beta_eps(jumpy, 2.0) - characteristic_root(jumpy) > 0.2             # a coarse cut-off biases (6.15)
    with pytest.warns(SDETailWarning, match="lower eps"):
        beta_from_sde(jumpy, particles=20_000, w=0.01, eps=2.0, n_boot=100)


def test_beta_eps_is_the_root_of_the_simulated_phi():
    """beta_eps solves Phi(b) = 2 eta_J C int_0^eps (cosh by - 1 - b^2 y^2/2) e^(-lam y) y^(-1-alpha) dy; checked
    by evaluating both sides with an independent quadrature (mpmath) at the returned root."""
    import mpmath

    from theory.levy import Phi
    p = LevyParams(eta_G=0.25, kappa=1.0, eta_J=1.0, alpha=1.5, lam=3.0)
    b = beta_eps(p, 0.5)
    with mpmath.workdps(30):
        rhs = 2 * mpmath.quad(lambda y: (mpmath.cosh(b * y) - 1 - b * b * y * y / 2) * mpmath.exp(-3 * y) * y ** -2.5,
                              [0, 0.5])
    assert abs(float(Phi(b, p)) - float(rhs)) < 2e-8      # beta_eps integrates with scipy quad's epsabs 1.49e-8
    assert b > characteristic_root(p)           # the Gaussian stand-in for the small jumps is lighter: a larger beta


@pytest.mark.parametrize("call,exc,word", [
    (lambda: beta_from_sde({"eta_G": 0.5}), TypeError, "params"),
    (lambda: beta_from_sde(GAUSS, particles=8), ValueError, "particles"),
    (lambda: beta_from_sde(GAUSS, particles=10**7), ValueError, "particles"),
    (lambda: beta_from_sde(GAUSS, dt=1e-9), ValueError, "raise dt"),
    (lambda: beta_from_sde(GAUSS, particles=200, burn_in=-1), ValueError, "burn_in"),
    (lambda: beta_from_sde(GAUSS, particles=200, boot_seed=-1), ValueError, "boot_seed"),
    (lambda: stationary_snapshot(GAUSS, 10, drift="sideways"), ValueError, "drift"),
    (lambda: beta_eps(GAUSS, 0.0), ValueError, "eps"),
])
def test_bad_input(call, exc, word):
    with pytest.raises(exc, match=word):
        call()


def test_the_budget_is_stated():
    assert MAX_PARTICLE_STEPS == 10**9
    with pytest.raises(ValueError, match="particle steps"):
        stationary_snapshot(GAUSS, 10**6, burn_in=2000)
