"""Ensemble simulator for the anti-collapse log-rate SDE ``d zeta = F dt + sqrt(2 eta_G) dW + dJ``.

Source: L. Livi, arXiv:2606.29519 (2026), as restated in ``docs/papers/anti-collapse.md`` (section
"Coarse-grained SDE for the log-rate"). The SDE's parameters are one :class:`theory.levy.LevyParams`
(``SDEConfig.params``), the same object the closed forms take: ``characteristic_root(cfg.params)`` is the
tail exponent of what :func:`simulate` samples. Drifts (``drift=``, the names of ``theory.levy.DRIFTS``):

* ``"saturating"``: ``F(zeta) = -kappa tanh((zeta - zeta_0) / w)``; ``F -> kappa`` as
  ``zeta -> -inf``, which gives the exponential left tail ``P(zeta < z) ~ A exp(beta* z)`` with beta* the
  root of ``Phi(beta) = eta_G beta^2 + Psi*(beta) - kappa beta`` (``theory.levy.characteristic_root``);
* ``"linear"`` (OU, the collapsed control): ``F(zeta) = -(kappa / w) (zeta - zeta_0)``, the same slope
  at zeta_0; with Gaussian noise zeta is Gaussian and tau = exp(-zeta) log-normal.

J is the symmetric CTS Levy process of :mod:`numerics.anticollapse.levy_sampling` (``jumps=``): ``"cp"`` compound
Poisson for ``|y| >= eps`` + Gaussian small jumps (Asmussen-Rosinski; the small-jump variance is merged
with the Brownian one), ``"exact"`` exponentially tilted stable increments, or ``"none"``.

Scheme: Euler-Maruyama with exact Levy increments,
``zeta_{n+1} = zeta_n + F(zeta_n) dt + sqrt(2 eta_G dt) N_n + J_n``. Why the step size does not bias the
tail exponent: where F = kappa the chain is a random walk with i.i.d. increments ``kappa dt + G + J``,
whose log moment generating function at ``-beta`` is exactly ``dt Phi(beta)``; its Cramer-Lundberg
exponent (the left-tail rate of the stationary law) is therefore the root of Phi for every dt (for
``jumps="cp"``: the root of the approximating Phi, which differs from Phi by
``int_{|y|<eps} (cosh(beta y) - 1 - beta^2 y^2 / 2) nu(dy) = O(beta^4 eps^(4 - a))``).

Random streams: particle i owns the xoroshiro128++ state keyed by (``SeedSequence(seed)``, i)
(:func:`numerics.anticollapse.levy_sampling.stream_states`). A particle's whole path is computed by one thread from its
own stream, so the output is bit-identical for any numba thread count and any chunking.

Stationary sampling: ``burn_in`` steps from ``zeta_init``, then ``n_samples`` snapshots ``thin`` steps apart.

Caching caveat (numba): the on-disk cache of the kernel here is keyed on this file only; after editing the
samplers it calls in :mod:`numerics.anticollapse.levy_sampling`, delete ``numerics/__pycache__/sde*.nb[ic]`` (a fresh
checkout, as in CI, compiles from scratch).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numba
import numpy as np
from numba import njit

from theory._args import MAX_LENGTH, as_choice, as_int, as_real, as_real_array
from theory.levy import DRIFTS, LevyParams

from numerics._config import setter
from .levy_sampling import (CPParams, CTSParams, _cp_jumps, _cts_draw, _to_u01, _xoro, cp_params, cts_params,
                            stream_states)

__all__ = ["SDEConfig", "simulate", "simulate_numpy", "drift"]

JUMPS = ("none", "cp", "exact")
_CHUNKS = 32   # progress-bar granularity; results do not depend on it
MAX_STEPS = 10**7     # Euler steps per particle (simulate: ~0.5 s each); simulate_numpy, a Python-loop reference: 10**5
PROGRESS_STEPS = 5 * 10**7   # progress=None shows a bar beyond this many particle steps (about 2-3 s at 50 ns each)


_DEFAULT_PARAMS = LevyParams(eta_G=0.25, kappa=1.0, eta_J=0.0, alpha=1.5, lam=3.0, C=1.0)


@dataclasses.dataclass(frozen=True)
class SDEConfig:
    r"""The settings of one log-rate SDE simulation: the SDE's parameters, its drift and the Euler scheme.

    The SDE is ``d zeta = F(zeta) dt + sqrt(2 eta_G) dW + dJ`` of Livi (2026), arXiv:2606.29519, as
    restated in ``docs/papers/anti-collapse.md`` ("Coarse-grained SDE for the log-rate"); the drifts,
    the jump samplers and the scheme are those of the module docstring. A frozen dataclass: change a
    field with ``dataclasses.replace``. The parameters of :attr:`params` are readable as ``cfg.kappa``,
    ``cfg.eta_G``, ``cfg.eta_J``, ``cfg.alpha``, ``cfg.lam``, ``cfg.C``.

    Parameters
    ----------
    params : theory.levy.LevyParams
        ``eta_G >= 0`` (Gaussian intensity), ``kappa > 0`` (saturation level of the drift), ``eta_J >= 0``,
        ``0 < alpha < 2``, ``lam > 0``, ``C > 0`` (the Levy measure ``eta_J C exp(-lam |y|) |y|^(-1-alpha)``);
        the same object the closed forms of :mod:`theory.levy` take. Stored as floats (the kernel's type):
        exact values are rounded once. Default: ``eta_G=0.25, kappa=1, eta_J=0, alpha=1.5, lam=3, C=1``.
    w : float, default 0.1
        Width of the drift (> 0): ``F = -kappa tanh((zeta - zeta_0) / w)``.
    zeta_0 : float, default 0.0
        The drift's equilibrium.
    dt : float, default 0.05
        Euler step (> 0); the step does not bias the tail exponent (module docstring), 0.05 is the
        recipe of :func:`numerics.anticollapse.sde_tail.beta_from_sde`.
    drift : {"saturating", "linear"}, default "saturating"
        ``theory.levy.DRIFTS``: the saturating drift (power-law tail) or the linear (OU) control.
    jumps : {"cp", "exact", "none"}, default "cp"
        Jump sampler: compound Poisson above ``eps`` plus Gaussian small jumps, exact tempered-stable
        increments, or none (ignored when ``eta_J = 0``).
    eps : float, default 0.1
        Small-jump cut-off of ``jumps="cp"`` (> 0).

    Returns
    -------
    SDEConfig
        The checked, frozen configuration that :func:`simulate` takes.

    Raises
    ------
    TypeError
        ``params`` not a ``LevyParams``, or a field of the wrong type (named).
    ValueError
        ``w``, ``dt`` or ``eps`` not > 0, a non-finite ``zeta_0``, an unknown ``drift`` or ``jumps``.

    Examples
    --------
    >>> cfg = SDEConfig(LevyParams(eta_G=0.5, kappa=1.0, eta_J=0.0, alpha=1.5, lam=3.0), dt=0.1)
    >>> cfg.kappa, cfg.drift
    (1.0, 'saturating')
    >>> from fractions import Fraction
    >>> SDEConfig(LevyParams(eta_G=Fraction(1, 4), kappa=1, eta_J=0, alpha=1.5, lam=3)).eta_G   # floats
    0.25
    >>> from theory.levy import characteristic_root
    >>> characteristic_root(cfg.params)        # the tail exponent of what simulate samples: kappa / eta_G
    2.0
    """

    params: LevyParams = _DEFAULT_PARAMS
    w: float = 0.1
    zeta_0: float = 0.0
    dt: float = 0.05
    drift: str = "saturating"
    jumps: str = "cp"
    eps: float = 0.1

    def __post_init__(self) -> None:
        f = setter(self)
        if not isinstance(self.params, LevyParams):
            raise TypeError(f"params must be a theory.levy.LevyParams, got {type(self.params).__name__}")
        # the numba kernel needs floats: exact values (Fractions) are rounded once, here
        f("params", LevyParams(**{k: float(v) for k, v in self.params.as_dict().items()}))
        for name in ("w", "dt", "eps"):
            f(name, as_real(name, getattr(self, name), minimum=0.0, open_min=True))
        f("zeta_0", as_real("zeta_0", self.zeta_0))
        as_choice("drift", self.drift, DRIFTS)
        as_choice("jumps", self.jumps, JUMPS)

    kappa = property(lambda self: self.params.kappa, doc="saturation level of the drift")
    eta_G = property(lambda self: self.params.eta_G, doc="Gaussian noise intensity")
    eta_J = property(lambda self: self.params.eta_J, doc="jump intensity")
    alpha = property(lambda self: self.params.alpha, doc="stability index of the jumps")
    lam = property(lambda self: self.params.lam, doc="tempering rate of the jumps")
    C = property(lambda self: self.params.C, doc="normalisation of the Levy measure")

    def levy(self) -> dict:
        """The Levy-measure keywords shared with :mod:`theory.levy` and :mod:`numerics.anticollapse.levy_sampling`."""
        return self.params.jump()


def drift(cfg: SDEConfig, zeta) -> np.ndarray:
    """The drift F(zeta) of ``cfg`` (numpy, vectorised), the same formula as the numba kernel."""
    if not isinstance(cfg, SDEConfig):
        raise TypeError(f"cfg must be an SDEConfig, got {type(cfg).__name__}")
    z = (as_real_array("zeta", zeta) - cfg.zeta_0) / cfg.w
    return -cfg.kappa * (np.tanh(z) if cfg.drift == "saturating" else z)


def _kernel_args(cfg: SDEConfig):
    mode = JUMPS.index(cfg.jumps) if cfg.eta_J > 0 else 0
    # the kernel takes both parameter tuples; the one of the unused mode is an inert placeholder
    cp = cp_params(cfg.dt, cfg.eps, **cfg.levy()) if mode == 1 else CPParams(1.0, 1.0, 1.0, 0.0, 1.0, 0.0)
    ex = cts_params(cfg.dt, **cfg.levy()) if mode == 2 else CTSParams(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0)
    noise_sd = math.sqrt(2.0 * cfg.eta_G * cfg.dt + cp.sd_small ** 2)
    return (DRIFTS.index(cfg.drift), cfg.kappa, cfg.zeta_0, 1.0 / cfg.w, cfg.dt, noise_sd, mode,
            tuple(cp[:5]), tuple(ex))


@njit(inline="always")
def _fast_tanh(x):
    """tanh(x) = sign(x) (1 - e) / (1 + e), e = exp(-2|x|): absolute error below 3e-16. libm's tanh costs
    about four times a whole Euler step without it (measured: 21e6 vs 90e6 steps/s on one core)."""
    e = math.exp(-2.0 * abs(x))
    t = (1.0 - e) / (1.0 + e)
    return t if x >= 0.0 else -t


@njit(cache=True, parallel=True)
def _simulate_chunk(states, zeta_init, out, burn_in, thin, drift_kind, kappa, zeta_0, inv_w, dt, noise_sd,
                    mode, cp, ex):
    n, n_samples = out.shape
    a, lam, eps, mean, p0 = cp
    for i in numba.prange(n):
        st = states[i]
        s0, s1 = st[0], st[1]          # the stream's state lives in registers on the hot path
        z = zeta_init[i]
        spare, has_spare = 0.0, False
        total = burn_in + (n_samples - 1) * thin + 1
        k, next_snap = 0, burn_in
        for step in range(total):
            if step == next_snap:
                out[i, k] = z
                k += 1
                next_snap += thin
                if k == n_samples:
                    break
            x = (z - zeta_0) * inv_w
            if drift_kind == 1:
                f = -kappa * x
            else:
                f = -kappa * _fast_tanh(x)
            # Marsaglia's polar method gives normals in pairs (no trigonometry): keep the second for the next step
            if has_spare:
                g = spare
                has_spare = False
            else:
                q = 2.0
                while q >= 1.0:
                    r, s0, s1 = _xoro(s0, s1)
                    v1 = 2.0 * _to_u01(r) - 1.0
                    r, s0, s1 = _xoro(s0, s1)
                    v2 = 2.0 * _to_u01(r) - 1.0
                    q = v1 * v1 + v2 * v2
                m = math.sqrt(-2.0 * math.log(q) / q)
                g = v1 * m
                spare = v2 * m
                has_spare = True
            z += f * dt + noise_sd * g
            if mode == 1:
                r, s0, s1 = _xoro(s0, s1)
                u = _to_u01(r)
                if u >= p0:            # at least one big jump (rare): hand the state to the sampler
                    st[0], st[1] = s0, s1
                    z += _cp_jumps(st, u, a, lam, eps, mean, p0)
                    s0, s1 = st[0], st[1]
            elif mode == 2:
                st[0], st[1] = s0, s1
                z += _cts_draw(st, ex)
                s0, s1 = st[0], st[1]


def _check_run_args(n_particles, burn_in, n_samples, thin, seed, zeta_init, cfg):
    if not isinstance(cfg, SDEConfig):
        raise TypeError(f"cfg must be an SDEConfig, got {type(cfg).__name__}")
    n = as_int("n_particles", n_particles, minimum=1, maximum=MAX_LENGTH)
    # documented bounds: at most MAX_STEPS Euler steps per particle (the cost grows with them)
    b = as_int("burn_in", burn_in, minimum=0, maximum=MAX_STEPS)
    m = as_int("n_samples", n_samples, minimum=1, maximum=MAX_STEPS)
    t = as_int("thin", thin, minimum=1, maximum=MAX_STEPS)
    if b + (m - 1) * t > MAX_STEPS:
        raise ValueError(f"burn_in + (n_samples - 1) * thin must be <= {MAX_STEPS} steps, got {b + (m - 1) * t}")
    s = as_int("seed", seed, minimum=0)
    if zeta_init is None:
        z0 = np.full(n, cfg.zeta_0)
    else:
        z0 = as_real_array("zeta_init", zeta_init)
        if z0.ndim > 1 or z0.size not in (1, n):
            raise ValueError(f"zeta_init must be a scalar or one value per particle ({n}), got shape {z0.shape}")
        z0 = np.broadcast_to(z0, (n,)).copy()
        if not np.all(np.isfinite(z0)):
            raise ValueError("zeta_init must be finite")
    return n, b, m, t, s, z0


def simulate(cfg: SDEConfig, n_particles: int, *, burn_in: int, n_samples: int = 1, thin: int = 1,
             seed: int = 0, zeta_init: Any = None, progress: bool | None = None) -> np.ndarray:
    r"""Simulate independent paths of the log-rate SDE and return snapshots of each, seeded and reproducible.

    The scheme of the module docstring (Euler-Maruyama with exact Levy increments, numba, parallel over
    particles) for the SDE of ``cfg`` (Livi (2026), arXiv:2606.29519, ``docs/papers/anti-collapse.md``).
    Snapshot j of a particle is ``zeta`` after ``burn_in + j * thin`` steps from ``zeta_init``. Particle i
    uses random stream i of ``seed``: the result is bit-identical for any thread count, and the first k
    particles do not depend on ``n_particles``. At most ``MAX_STEPS`` (10**7) Euler steps per particle:
    ``burn_in + (n_samples - 1) * thin <= MAX_STEPS``.

    Parameters
    ----------
    cfg : SDEConfig
        The SDE and the scheme.
    n_particles : int
        Independent paths, ``1 <= n_particles <= MAX_LENGTH`` (2**24).
    burn_in : int
        Steps before the first snapshot (>= 0).
    n_samples : int, default 1
        Snapshots per particle (>= 1).
    thin : int, default 1
        Steps between snapshots (>= 1).
    seed : int, default 0
        Seed (>= 0) of the per-particle streams.
    zeta_init : float or array of float, optional
        Start, one value or one per particle (finite); None: ``cfg.zeta_0``.
    progress : bool, optional
        A tqdm bar over chunks of particles (None: only for long runs, more than ``PROGRESS_STEPS`` = 5e7
        particle steps, a few seconds).

    Returns
    -------
    numpy.ndarray
        float64, shape ``(n_particles, n_samples)``.

    Raises
    ------
    TypeError
        ``cfg`` not an ``SDEConfig``, ``progress`` not a bool or None, an argument of the wrong type (named).
    ValueError
        A size out of range (named), more than ``MAX_STEPS`` steps per particle, a ``zeta_init`` of the
        wrong shape or not finite.

    Examples
    --------
    >>> cfg = SDEConfig(LevyParams(eta_G=0.5, kappa=1.0, eta_J=0.0, alpha=1.5, lam=3.0), dt=0.1)
    >>> z = simulate(cfg, 3, burn_in=0, n_samples=2, thin=1, seed=1)
    >>> z.shape, z.dtype, bool(np.all(z[:, 0] == cfg.zeta_0))       # snapshot 0 after 0 steps
    ((3, 2), dtype('float64'), True)
    >>> bool(np.array_equal(simulate(cfg, 5, burn_in=0, n_samples=2, seed=1)[:3], z))   # streams per particle
    True

    The linear drift without jumps is an AR(1) chain ``zeta' = (1 - dt kappa / w) zeta + sqrt(2 eta_G dt) N``,
    whose stationary variance is ``2 eta_G dt / (1 - (1 - dt kappa / w)^2)`` = 0.1 / 0.19 here:

    >>> ou = dataclasses.replace(cfg, drift="linear", w=1.0)
    >>> x = simulate(ou, 4000, burn_in=200, seed=2)[:, 0] ** 2            # 0.9^200: the start is forgotten
    >>> from numerics.stats import z_for_false_alarm
    >>> bool(abs(x.mean() - 0.1 / 0.19) <= z_for_false_alarm() * x.std(ddof=1) / np.sqrt(x.size))
    True
    """
    n, b, m, t, s, z0 = _check_run_args(n_particles, burn_in, n_samples, thin, seed, zeta_init, cfg)
    args = _kernel_args(cfg)
    states = stream_states(s, n)
    out = np.empty((n, m))
    bounds = np.linspace(0, n, min(n, _CHUNKS) + 1).astype(int)
    from tqdm import tqdm

    if progress is None:
        progress = n * (b + (m - 1) * t) > PROGRESS_STEPS
    if not isinstance(progress, (bool, np.bool_)):
        raise TypeError(f"progress must be True, False or None (automatic), got {progress!r}")
    with tqdm(total=n, disable=not progress, desc="SDE particles", leave=False) as bar:
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            _simulate_chunk(states[lo:hi], z0[lo:hi], out[lo:hi], b, t, *args)
            bar.update(hi - lo)
    return out


def simulate_numpy(cfg: SDEConfig, n_particles: int, *, burn_in: int, n_samples: int = 1, thin: int = 1,
                   seed: int = 0, zeta_init: Any = None) -> np.ndarray:
    """The same Euler-Maruyama scheme vectorised over particles with numpy (benchmark baseline).

    Same distribution as :func:`simulate` (not the same random numbers: one numpy Generator for the
    ensemble). Jumps: ``"none"`` and ``"cp"`` (compound Poisson counts by ``rng.poisson``, sizes by
    vectorised Pareto rejection); ``"exact"`` is not offered here (ValueError).
    """
    n, b, m, t, s, z = _check_run_args(n_particles, burn_in, n_samples, thin, seed, zeta_init, cfg)
    if b + (m - 1) * t > 10**5:        # a Python loop over steps: the reference is for short runs
        raise ValueError(f"burn_in + (n_samples - 1) * thin must be <= 10**5 in simulate_numpy, got {b + (m - 1) * t}")
    if cfg.jumps == "exact" and cfg.eta_J > 0:
        raise ValueError("jumps must be 'none' or 'cp' for simulate_numpy (the exact sampler is numba-only)")
    rng = np.random.default_rng(s)
    a, lam, eps, mean, _, sd_small = cp_params(cfg.dt, cfg.eps, **cfg.levy()) if cfg.eta_J > 0 else (0.0,) * 6
    noise_sd = math.sqrt(2.0 * cfg.eta_G * cfg.dt + sd_small ** 2)
    out = np.empty((n, m))
    k = 0
    for step in range(b + (m - 1) * t + 1):
        if step >= b and (step - b) % t == 0:
            out[:, k] = z
            k += 1
            if k == m:
                break
        z = z + drift(cfg, z) * cfg.dt + noise_sd * rng.standard_normal(n)
        if mean > 0:
            counts = rng.poisson(mean, n)
            idx = np.repeat(np.arange(n), counts)
            sizes = np.empty(idx.size)
            todo = np.arange(idx.size)
            while todo.size:
                y = eps * rng.random(todo.size) ** (-1.0 / a)
                ok = rng.random(todo.size) < np.exp(-lam * (y - eps))
                sizes[todo[ok]] = y[ok]
                todo = todo[~ok]
            sizes *= rng.choice((-1.0, 1.0), size=idx.size)
            z = z + np.bincount(idx, weights=sizes, minlength=n)
    return out
