r"""The tail exponent beta from a simulation of the log-rate SDE: the recipe, as one function.

Source: L. Livi, arXiv:2606.29519 (2026), in the re-derivation of ``docs/papers/anti-collapse.md``: the
log-rate obeys ``d zeta = F dt + sqrt(2 eta_G) dW + dJ`` with a drift that saturates at ``kappa`` on the
left; its stationary left tail is ``P(zeta < z) ~ A exp(beta* z)``, beta* the root of
``Phi(beta) = eta_G beta^2 + Psi*(beta) - kappa beta`` (:func:`theory.levy.characteristic_root`), so the time
scales ``tau = exp(-zeta)`` have ``P(tau > x) ~ A x^(-beta*)``. Measuring beta* from a simulation needs
four choices, which a first attempt easily gets wrong (a short burn-in, or ``tau = exp(+zeta)``, gives a
tail that is far too thin: beta about 5.6 where beta* = 2):

1. **the time scales** are ``tau = exp(-zeta)``: the *left* tail of zeta is the power-law tail of tau;
2. **the drift** ``F = -kappa tanh((zeta - zeta_0)/w)`` with a narrow ``w = 0.1``: below ``zeta_0 - 2w`` the
   drift is kappa to 4% and the chain a random walk whose Cramer exponent is the root of Phi for *every*
   ``dt`` (:mod:`numerics.anticollapse.sde`), so ``dt = 0.05`` does not bias beta;
3. **the burn-in** ``10 T_d`` steps, ``T_d = ln(200) / (beta* Phi'(beta*))``: the time the tilted walk (drift
   ``Phi'(beta*)``) needs to reach the depth ``ln(200)/beta*`` of the 0.5% quantile, ten times over (each
   particle starts at ``zeta_0``; a snapshot taken earlier has not yet filled the tail);
4. **the estimator**: one stationary snapshot per particle (independent particles, so the bootstrap over
   units of :func:`numerics.anticollapse.estimators.tail_beta` is valid) and the CCDF slope over the
   quantile window ``[0.75, 0.995]`` of tau; the jumps by compound Poisson above ``eps = 0.1`` plus Gaussian
   small jumps, whose process has the exponent ``beta*_eps`` (the root of Phi less
   ``int_{|y|<eps} (cosh beta y - 1 - beta^2 y^2/2) nu(dy)``), reported next to beta*.

:func:`beta_from_sde` runs these steps with these defaults and warns (:class:`SDETailWarning`) when a
setting cannot give beta*: a burn-in below the recipe's, a fit window that reaches into the drift's bend,
a small-jump cut-off whose bias exceeds the statistical error, or a tail set by the tempering
(``beta* = lam``). The validation checks ``levy.*`` (``validation/checks/anti_collapse.py``) and notebook 05
use it.
"""

from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np
from scipy.integrate import quad
from scipy.optimize import brentq

from theory._args import as_choice, as_instance, as_int, as_real, check_budget
from theory.levy import DRIFTS, LevyParams, Phi, characteristic_root

from .estimators import TailFit, tail_beta
from .sde import MAX_STEPS, SDEConfig, simulate

__all__ = ["SDEBeta", "SDETailWarning", "beta_from_sde", "stationary_snapshot", "beta_eps", "BURN_FACTOR",
           "TAIL_DEPTH", "LINEAR_RELAXATIONS", "MAX_PARTICLE_STEPS"]

BURN_FACTOR = 10            # burn-in = BURN_FACTOR T_d (saturating drift)
TAIL_DEPTH = 200.0          # T_d: the time to reach depth ln(TAIL_DEPTH)/beta*, the 0.5% quantile
LINEAR_RELAXATIONS = 50     # linear (OU) drift: burn-in = 50 relaxation times w / kappa
_BEND = 2.0                 # the drift is saturated (kappa to 4%) below zeta_0 - _BEND w
MAX_PARTICLE_STEPS = 10**9  # particles * burn_in: about a minute at 50 ns a step (the default size is below 3e8)


class SDETailWarning(UserWarning):
    """A setting of :func:`beta_from_sde` that cannot give beta* (the message says which and why)."""


@dataclasses.dataclass(frozen=True)
class SDEBeta:
    """The tail exponent measured from a simulation of the log-rate SDE, with every setting used.

    Returned by :func:`beta_from_sde` (module docstring: the recipe). Compare ``beta`` with ``beta_star``
    by ``|beta - beta_star| <= z se`` (``z`` from :func:`numerics.stats.z_for_false_alarm`), the rule of the
    validation checks ``levy.*``.

    Parameters
    ----------
    fit : numerics.anticollapse.estimators.TailFit
        The CCDF-slope fit of ``tau = exp(-zeta)``: ``beta``, the bootstrap interval ``ci``, ``r2``, the
        replicates ``boot``.
    se : float
        Standard deviation of the bootstrap replicates (over particles).
    beta_star : float
        :func:`theory.levy.characteristic_root` of the parameters (it also sets the burn-in).
    beta_eps : float
        The exponent of the simulated process (compound Poisson jumps above ``eps``, Gaussian below):
        ``beta_star`` when ``eta_J = 0``.
    config : numerics.anticollapse.sde.SDEConfig
        The simulated SDE (parameters, ``w``, ``dt``, jumps, ``eps``).
    particles, burn_in, seed, boot_seed : int
        Independent particles, Euler steps before the snapshot, the simulation's and the bootstrap's seeds.
    zeta : numpy.ndarray
        The stationary snapshot, one log-rate per particle.

    Returns
    -------
    SDEBeta
        A frozen record; ``beta`` and ``ci`` read through to ``fit``.

    Examples
    --------
    >>> r = beta_from_sde(LevyParams(eta_G=0.5, kappa=1.0, eta_J=0.0, alpha=1.5, lam=3.0), particles=4000,
    ...                   n_boot=200)
    >>> r.beta_star, r.burn_in, r.zeta.shape                # kappa / eta_G; 10 T_d / dt
    (2.0, 530, (4000,))
    """

    fit: TailFit
    se: float
    beta_star: float
    beta_eps: float
    config: SDEConfig
    particles: int
    burn_in: int
    seed: int
    boot_seed: int
    zeta: np.ndarray = dataclasses.field(repr=False)

    @property
    def beta(self) -> float:
        """The measured exponent (``fit.beta``)."""
        return self.fit.beta

    @property
    def ci(self) -> tuple[float, float]:
        """The bootstrap percentile interval of ``beta`` (``fit.ci``)."""
        return self.fit.ci


# --------------------------------------------------------------------------------------------------
# the recipe's pieces
# --------------------------------------------------------------------------------------------------
def _dphi(params: LevyParams, b: float) -> float:
    """``Phi'(b)`` by a central difference (``Phi`` is smooth on ``(0, lam)``; one-sided at ``lam``)."""
    h = 1e-6 * max(b, 1e-3)
    if b + h >= float(params.lam):
        return float((Phi(b, params) - Phi(b - h, params)) / h)
    return float((Phi(b + h, params) - Phi(b - h, params)) / (2 * h))


def _burn_in_steps(params: LevyParams, dt: float, w: float, drift: str) -> int:
    """The recipe's burn-in (module docstring, step 3); the linear (OU) drift relaxes at rate ``kappa / w``."""
    if drift == "linear":
        steps = LINEAR_RELAXATIONS * w / (float(params.kappa) * dt)
    else:
        b = float(characteristic_root(params))
        rate = _dphi(params, b)
        if not (math.isfinite(rate) and rate > 0):     # no root below lam (the tempering sets the tail): the drift
            rate = float(params.kappa)
        t_depth = math.log(TAIL_DEPTH) / (b * rate)
        steps = BURN_FACTOR * t_depth / dt
    return int(math.ceil(steps)) if steps < 1e18 else 10**18       # a tiny dt: beyond MAX_STEPS, refused there


def _cosh_remainder(x: float) -> float:
    """``cosh x - 1 - x^2/2`` without cancellation (Taylor series for |x| < 0.1, 4 terms: error < 1e-24)."""
    if abs(x) < 0.1:
        x2 = x * x
        return x2 * x2 * (1 / 24 + x2 * (1 / 720 + x2 * (1 / 40320 + x2 / 3628800)))
    return math.cosh(x) - 1.0 - 0.5 * x * x


def beta_eps(params: LevyParams, eps: float) -> float:
    """The tail exponent of the simulated process: the root of ``Phi(beta) - delta(beta)``, ``delta`` the
    small jumps' ``int_{|y|<eps} (cosh beta y - 1 - beta^2 y^2/2) nu(dy)`` that the Gaussian replaces
    (``jumps="cp"``, module docstring). ``characteristic_root(params)`` when ``eta_J = 0``.

    >>> beta_eps(LevyParams(eta_G=0.5, kappa=1.0, eta_J=0.0, alpha=1.5, lam=3.0), 0.1)
    2.0
    """
    as_instance("params", params, LevyParams, "theory.levy.LevyParams")
    eps = as_real("eps", eps, minimum=0.0, open_min=True)
    b0 = float(characteristic_root(params))
    if float(params.eta_J) == 0 or b0 >= float(params.lam):
        return b0
    lam, a, scale = float(params.lam), float(params.alpha), 2 * float(params.eta_J) * float(params.C)

    def delta(b):
        f = lambda y: _cosh_remainder(b * y) * math.exp(-lam * y) * y ** (-1 - a)
        return scale * quad(f, 0.0, eps, limit=200)[0]

    g = lambda b: float(Phi(b, params)) - delta(b)
    return float(brentq(g, 0.5 * b0, min(lam * (1 - 1e-9), 2 * b0)))


def stationary_snapshot(params: LevyParams, particles: int, *, seed: int = 0, dt: float = 0.05, w: float = 0.1,
                        eps: float = 0.1, drift: str = "saturating", burn_in: int | None = None,
                        progress: bool | None = None) -> np.ndarray:
    r"""One stationary log-rate ``zeta`` per particle of the SDE (the recipe's steps 2 and 3).

    ``particles`` independent paths of :func:`numerics.anticollapse.sde.simulate` from ``zeta_0 = 0`` with
    ``SDEConfig(params, w=w, dt=dt, drift=drift, jumps="cp", eps=eps)``, each read once after ``burn_in``
    Euler steps (default: the recipe's ``10 T_d / dt`` for the saturating drift, 50 relaxation times
    ``w / kappa`` for the linear one; module docstring). Source: Livi (2026), as in the module docstring.
    Cost: about 50 ns per particle step (``particles * burn_in``; a progress bar beyond a few seconds).

    Parameters
    ----------
    params : theory.levy.LevyParams
        The SDE's parameters.
    particles : int
        Independent particles, ``particles >= 1`` with ``particles * burn_in <= MAX_PARTICLE_STEPS`` (1e9,
        about a minute).
    seed : int, default 0
        Seed (>= 0) of the particles' streams.
    dt, w, eps : float
        Euler step, drift width, small-jump cut-off (> 0): the recipe's 0.05, 0.1, 0.1.
    drift : {"saturating", "linear"}, default "saturating"
        The drift (``theory.levy.DRIFTS``).
    burn_in : int, optional
        Euler steps before the snapshot (None: the recipe's).
    progress : bool, optional
        A progress bar (None: only for long runs).

    Returns
    -------
    numpy.ndarray
        float64, shape ``(particles,)``.

    Raises
    ------
    TypeError, ValueError
        An argument of the wrong type or out of range (named), a burn-in beyond ``MAX_STEPS`` (1e7), or more
        than ``MAX_PARTICLE_STEPS`` particle steps.

    Examples
    --------
    >>> p = LevyParams(eta_G=0.5, kappa=1.0, eta_J=0.0, alpha=1.5, lam=3.0)
    >>> stationary_snapshot(p, 3, seed=1).shape
    (3,)
    """
    as_instance("params", params, LevyParams, "theory.levy.LevyParams")
    drift = as_choice("drift", drift, DRIFTS)
    particles = as_int("particles", particles, minimum=1)
    cfg = SDEConfig(params, w=w, zeta_0=0.0, dt=dt, drift=drift, jumps="cp", eps=eps)
    if burn_in is None:
        burn_in = _burn_in_steps(params, cfg.dt, cfg.w, drift)
        if burn_in > MAX_STEPS:
            raise ValueError(f"the recipe's burn-in, {burn_in} steps (10 T_d / dt), exceeds MAX_STEPS = {MAX_STEPS}: "
                             f"the tail relaxes too slowly at these parameters (beta* = "
                             f"{float(characteristic_root(params)):.3g}); raise dt")
    burn_in = as_int("burn_in", burn_in, minimum=0, maximum=MAX_STEPS)
    check_budget("particles", float(particles) * max(burn_in, 1), MAX_PARTICLE_STEPS, unit="particle steps",
                 value=particles)
    return simulate(cfg, particles, burn_in=burn_in, n_samples=1, seed=seed, progress=progress)[:, 0]


def beta_from_sde(params: LevyParams, *, particles: int = 100_000, seed: int = 0, dt: float = 0.05,
                  w: float = 0.1, eps: float = 0.1, burn_in: int | None = None,
                  window: tuple[float, float] = (0.75, 0.995), n_boot: int = 2000, boot_seed: int | None = None,
                  level: float = 0.9, progress: bool | None = None) -> SDEBeta:
    r"""Measure the tail exponent beta* of the log-rate SDE from a simulation (the recipe of the module docstring).

    Simulates ``particles`` independent paths of ``d zeta = -kappa tanh(zeta / w) dt + sqrt(2 eta_G) dW + dJ``
    (:func:`stationary_snapshot`: ``dt``, ``w``, compound Poisson jumps above ``eps``, burn-in
    ``10 T_d / dt`` with ``T_d = ln(200) / (beta* Phi'(beta*))``), takes one stationary snapshot per
    particle, and fits ``P(tau > x) ~ A x^(-beta)`` to ``tau = exp(-zeta)`` over the quantile ``window``
    (:func:`numerics.anticollapse.estimators.tail_beta`, bootstrap over particles). Theory: the stationary
    left tail ``P(zeta < z) ~ A exp(beta* z)``, beta* the root of ``Phi`` (Livi 2026, arXiv:2606.29519;
    ``docs/papers/anti-collapse.md``, "Stationary tail"), :func:`theory.levy.characteristic_root`.

    Why the defaults: ``w = 0.1`` keeps the drift saturated (kappa to 4%) below ``-2w``, well above the
    window; ``dt = 0.05`` does not bias beta (the random walk's Cramer exponent is the root of Phi for every
    step) and keeps the burn-in short; ``eps = 0.1`` makes the compound-Poisson approximation's exponent
    ``beta_eps`` differ from beta* by ``O(beta^4 eps^(4 - alpha))``, below the statistical error at the
    default size; ``10 T_d`` lets every particle forget ``zeta_0 = 0`` down to the 0.5% quantile, ten times
    over; the window ``[0.75, 0.995]`` of tau starts below the drift's bend and stops before the last 0.5%
    (too few points); ``particles = 100_000`` and ``n_boot = 2000`` are the validation checks' full size
    (standard error about ``0.008 beta``, measured at beta* = 0.57, 1.6 and 2). Cost: the simulation
    (``particles * burn_in`` steps, about 50 ns each: 5e7 at beta* = 2, 2e8 at 0.57) and the bootstrap
    (``n_boot`` fits of ``particles`` points), about half a minute to a minute on two cores at the defaults.

    A setting that cannot give beta* raises a :class:`SDETailWarning` that says why: a ``burn_in`` below the
    recipe's (the tail is not yet filled: beta too large), a window that reaches above ``-2w`` (the drift's
    bend), ``|beta_eps - beta*|`` above the standard error (lower ``eps``), or no root of Phi below ``lam``
    (the tempering sets the tail; the fitted slope approaches ``lam`` slowly).

    Parameters
    ----------
    params : theory.levy.LevyParams
        The SDE's parameters (the same object :func:`theory.levy.characteristic_root` solves).
    particles : int, default 100_000
        Independent particles, ``>= 16``, with ``particles * burn_in <= MAX_PARTICLE_STEPS`` (1e9).
    seed : int, default 0
        Seed (>= 0) of the simulation.
    dt, w, eps : float, default 0.05, 0.1, 0.1
        Euler step, drift width, small-jump cut-off (> 0).
    burn_in : int, optional
        Euler steps before the snapshot; None: the recipe's ``10 T_d / dt``.
    window : (float, float), default (0.75, 0.995)
        Quantile window of tau for the CCDF fit.
    n_boot : int, default 2000
        Bootstrap resamples over particles.
    boot_seed : int, optional
        Seed of the bootstrap (None: ``seed``).
    level : float, default 0.9
        Level of the bootstrap interval ``ci``.
    progress : bool, optional
        The simulation's progress bar (None: only for long runs).

    Returns
    -------
    SDEBeta
        ``beta``, ``ci``, ``se``, ``beta_star``, ``beta_eps``, the fit, the configuration, the burn-in and
        seeds used, and the snapshot ``zeta``.

    Raises
    ------
    TypeError, ValueError
        An argument of the wrong type or out of range (named), or a recipe burn-in beyond 1e7 steps.

    Warns
    -----
    SDETailWarning
        A setting that cannot give beta* (above).

    Examples
    --------
    Gaussian noise only, ``eta_G = 0.5``: ``beta* = kappa / eta_G = 2``.

    >>> from numerics.stats import z_for_false_alarm
    >>> p = LevyParams(eta_G=0.5, kappa=1.0, eta_J=0.0, alpha=1.5, lam=3.0)
    >>> r = beta_from_sde(p, particles=20_000, n_boot=300)
    >>> r.ci[0] < 2.0 < r.ci[1], abs(r.beta - r.beta_star) <= z_for_false_alarm() * r.se
    (True, True)
    """
    as_instance("params", params, LevyParams, "theory.levy.LevyParams")
    particles = as_int("particles", particles, minimum=16)
    seed = as_int("seed", seed, minimum=0)
    boot_seed = seed if boot_seed is None else as_int("boot_seed", boot_seed, minimum=0)
    cfg = SDEConfig(params, w=w, zeta_0=0.0, dt=dt, drift="saturating", jumps="cp", eps=eps)
    recipe = _burn_in_steps(params, cfg.dt, cfg.w, "saturating")
    if burn_in is not None:
        burn_in = as_int("burn_in", burn_in, minimum=0)
        if burn_in < recipe:
            warnings.warn(f"burn_in = {burn_in} is below the recipe's {recipe} steps (10 T_d / dt): the particles "
                          f"start at zeta_0 = 0 and have not yet filled the left tail, so beta comes out too large",
                          SDETailWarning, stacklevel=2)
    zeta = stationary_snapshot(params, particles, seed=seed, dt=cfg.dt, w=cfg.w, eps=cfg.eps, burn_in=burn_in,
                               progress=progress)
    fit = tail_beta(np.exp(-zeta), window=window, n_boot=n_boot, seed=boot_seed, level=level)
    out = SDEBeta(fit=fit, se=float(np.std(fit.boot, ddof=1)) if fit.boot.size > 1 else math.nan,
                  beta_star=float(characteristic_root(params)), beta_eps=beta_eps(params, cfg.eps), config=cfg,
                  particles=particles, burn_in=recipe if burn_in is None else burn_in, seed=seed,
                  boot_seed=boot_seed, zeta=zeta)
    _warn_why_not(out)
    return out


def _warn_why_not(r: SDEBeta) -> None:
    """The settings under which the measured beta cannot be beta* (module docstring), as warnings."""
    cfg = r.config
    if r.beta_star >= float(cfg.lam) * (1 - 1e-12):
        warnings.warn(f"Phi has no root below lam = {cfg.lam:g}: the tempering sets the tail (beta_eff = lam), "
                      f"whose CCDF slope approaches lam only slowly", SDETailWarning, stacklevel=3)
    top = -math.log(r.fit.window_x[0])              # the window's upper edge in zeta
    if top > cfg.zeta_0 - _BEND * cfg.w:
        warnings.warn(f"the fit window reaches zeta = {top:.3g}, above zeta_0 - 2w = {cfg.zeta_0 - _BEND * cfg.w:.3g} "
                      f"where the drift bends (w = {cfg.w:g}): a narrower w or a higher window[0] keeps it in the "
                      f"saturated region", SDETailWarning, stacklevel=3)
    if math.isfinite(r.se) and abs(r.beta_eps - r.beta_star) > r.se:
        warnings.warn(f"the simulated process's exponent beta_eps = {r.beta_eps:.4g} differs from beta* = "
                      f"{r.beta_star:.4g} by more than the standard error {r.se:.2g}: lower eps (= {cfg.eps:g})",
                      SDETailWarning, stacklevel=3)
