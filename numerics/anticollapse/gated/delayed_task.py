"""The delayed linear-regression task of the anti-collapse experiments, with heavy-tailed (Pareto) lags.

Source: L. Livi, arXiv:2606.29519 (2026), experiments section, as restated in
``docs/papers/anti-collapse.md`` ("The gated-RNN experiment"):

    y_t = sum_{k=0}^{K-1} c_k  u . x_{t - l_k}  +  eps_t,     x_t ~ N(0, I_D),  eps_t ~ N(0, sigma^2),

with ``u`` a random unit vector in R^D (D = 16), ``sigma = 0.3``, ``K = 16`` *distinct* integer lags
``l_0 < l_1 < ... < l_{K-1}`` and weights ``c_k = 0.6 * 0.85^k`` (the largest weight on the shortest lag).
Terms with ``t - l_k < 0`` are absent (the sequence starts at t = 0).

Lags. The reference draws them from a truncated Pareto law ``p(l) ~ l^(-1.6)`` on ``[8, 640]``. Here the
law is put on the integers: ``P(l) = l^(-1.6) / sum_{m=lo}^{hi} m^(-1.6)`` for ``l = lo..hi``, and the K
lags are K successive draws *without replacement* (a draw equal to an earlier lag is redrawn), which is
what ``numpy.random.Generator.choice(..., replace=False, p=P)`` does. For a shorter sequence length T the
cpu sweep scales the range with T: ``[max(1, round(8 T / 1280)), round(640 T / 1280)]``
(:func:`scaled_lag_range`; the reference has T = 1280, so 640 = T/2).

Everything is seeded: the lags come from ``lag_seed`` (the author's public code draws them once from
``20260410`` and shares them across training seeds; ``lag_seed=None`` draws them from ``seed``), ``u`` from
the task seed, the sequences from the generator passed to :meth:`DelayedTask.sample`. ``Var(y_t) = sum_k c_k^2 + sigma^2`` once ``t >= l_{K-1}`` (since |u| = 1).
"""

from __future__ import annotations

import dataclasses
import sys

import numpy as np
from tqdm import tqdm

from theory._args import MAX_LENGTH, as_int, as_real

_BLOCK_ENTRIES = 1 << 22        # normal draws per block of sequences in DelayedTask.sample
REFERENCE_T = 1280
REFERENCE_LAG_RANGE = (8, 640)


def scaled_lag_range(T: int, *, reference_T: int = REFERENCE_T, lag_range: tuple[int, int] = REFERENCE_LAG_RANGE) -> tuple[int, int]:
    """The reference lag range ``[8, 640]`` (for T = 1280) scaled to sequence length ``T``.

    >>> scaled_lag_range(1280)
    (8, 640)
    >>> scaled_lag_range(256)
    (2, 128)
    """
    T = as_int("T", T, minimum=2)
    reference_T = as_int("reference_T", reference_T, minimum=2)
    if not isinstance(lag_range, (tuple, list)) or len(lag_range) != 2:
        raise TypeError(f"lag_range must be a pair (lo, hi) of integers, got {lag_range!r:.60}")
    lag_range = (as_int("lag_range[0]", lag_range[0], minimum=1), as_int("lag_range[1]", lag_range[1], minimum=1))
    f = T / reference_T
    lo = max(1, int(round(lag_range[0] * f)))
    hi = max(lo + 1, int(round(lag_range[1] * f)))
    return lo, hi


# l^(-exponent) underflows to 0 for every lag past exponent ~ 300 / log10(lag_min): 100 is far beyond use
MAX_EXPONENT = 100.0


def _as_exponent(name: str, value) -> float:
    """A Pareto lag exponent in ``(0, MAX_EXPONENT]``, checked under the caller's parameter name."""
    return as_real(name, value, minimum=0.0, open_min=True, maximum=MAX_EXPONENT)


def pareto_lag_probabilities(lag_min: int, lag_max: int, exponent: float = 1.6) -> tuple[np.ndarray, np.ndarray]:
    """Support ``lag_min..lag_max`` and probabilities ``P(l) ∝ l^(-exponent)`` of the discrete truncated Pareto.

    >>> l, p = pareto_lag_probabilities(1, 2, 1.0)
    >>> l.tolist(), [round(float(v), 12) for v in p]
    ([1, 2], [0.666666666667, 0.333333333333])
    """
    lag_min = as_int("lag_min", lag_min, minimum=1)
    lag_max = as_int("lag_max", lag_max, minimum=1, maximum=MAX_LENGTH)
    if lag_max <= lag_min:
        raise ValueError(f"lag_max must be > lag_min, got lag_min={lag_min}, lag_max={lag_max}")
    exponent = _as_exponent("exponent", exponent)
    support = np.arange(lag_min, lag_max + 1)
    w = support.astype(np.float64) ** (-exponent)
    return support, w / w.sum()


def pareto_lags(n_lags: int, lag_min: int, lag_max: int, exponent: float = 1.6, *, rng: np.random.Generator) -> np.ndarray:
    """``n_lags`` distinct integer lags drawn without replacement from ``P(l) ∝ l^(-exponent)``, sorted."""
    n_lags = as_int("n_lags", n_lags, minimum=1)
    support, p = pareto_lag_probabilities(lag_min, lag_max, exponent)
    if n_lags > support.size:
        raise ValueError(f"n_lags must be <= the number of integers in [lag_min, lag_max] = {support.size}, got {n_lags}")
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return np.sort(rng.choice(support, size=n_lags, replace=False, p=p))


@dataclasses.dataclass(frozen=True)
class DelayedTask:
    """One instance of the task: lags ``l_k`` (ascending), weights ``c_k``, direction ``u``, noise level."""

    lags: np.ndarray
    coeffs: np.ndarray
    u: np.ndarray
    noise_std: float

    @property
    def d_in(self) -> int:
        return int(self.u.size)

    @property
    def target_variance(self) -> float:
        """``Var(y_t)`` for ``t >= max lag``: ``sum c_k^2 + sigma^2``."""
        return float(np.sum(self.coeffs ** 2) + self.noise_std ** 2)

    def sample(self, n_seq: int, T: int, *, rng: np.random.Generator,
               progress: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """``(x, y)`` of shapes (n_seq, T, D) and (n_seq, T, 1), float32; ``progress``: a bar over the draws
        (they are made in blocks of sequences, the same numbers as one draw of the whole array)."""
        n_seq = as_int("n_seq", n_seq, minimum=1)
        T = as_int("T", T, minimum=1)
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        x, y = np.empty((n_seq, T, self.d_in)), np.empty((n_seq, T))
        step = max(1, _BLOCK_ENTRIES // (T * self.d_in))
        with tqdm(total=2 * n_seq, desc="delayed-task sequences", unit="seq", disable=not progress, leave=False,
                  file=sys.stderr) as bar:
            for out in (x, y):                  # all of x, then all of the noise: the stream of one draw each
                for i in range(0, n_seq, step):
                    out[i:i + step] = rng.standard_normal(out[i:i + step].shape)
                    bar.update(out[i:i + step].shape[0])
        proj = x @ self.u                                           # (n_seq, T): u . x_t
        y *= self.noise_std
        for lag, c in zip(self.lags, self.coeffs):
            if lag < T:
                y[:, lag:] += c * proj[:, : T - lag]
        return x.astype(np.float32), y[..., None].astype(np.float32)


def make_delayed_task(
    *,
    n_lags: int = 16,
    lag_min: int = 8,
    lag_max: int = 640,
    lag_exponent: float = 1.6,
    coeff_base: float = 0.6,
    coeff_decay: float = 0.85,
    d_in: int = 16,
    noise_std: float = 0.3,
    seed: int = 0,
    lag_seed: int | None = None,
) -> DelayedTask:
    """Draw a task instance: lags from ``lag_seed`` (``None``: from ``seed``), ``u`` from ``seed``; see the
    module docstring for the law.

    >>> task = make_delayed_task(n_lags=4, lag_min=2, lag_max=40, seed=1)
    >>> len(set(task.lags.tolist())) == 4 and bool(np.all(np.diff(task.lags) > 0))
    True
    >>> [round(float(c), 6) for c in task.coeffs]
    [0.6, 0.51, 0.4335, 0.368475]
    """
    seed = as_int("seed", seed, minimum=0)
    d_in = as_int("d_in", d_in, minimum=1, maximum=1 << 16)       # input features of one step
    coeff_base = as_real("coeff_base", coeff_base)
    coeff_decay = as_real("coeff_decay", coeff_decay, minimum=0.0)
    noise_std = as_real("noise_std", noise_std, minimum=0.0)
    lag_exponent = _as_exponent("lag_exponent", lag_exponent)
    rng_lags, rng_u = (np.random.default_rng(s) for s in np.random.SeedSequence([seed, 7]).spawn(2))
    if lag_seed is not None:
        rng_lags = np.random.default_rng(np.random.SeedSequence([as_int("lag_seed", lag_seed, minimum=0), 7]))
    lags = pareto_lags(n_lags, lag_min, lag_max, lag_exponent, rng=rng_lags)
    coeffs = coeff_base * coeff_decay ** np.arange(lags.size, dtype=np.float64)
    u = rng_u.standard_normal(d_in)
    u /= np.linalg.norm(u)
    return DelayedTask(lags=lags, coeffs=coeffs, u=u, noise_std=noise_std)
