r"""Monte Carlo moments of the quaternion Ginibre matrix: the beta = 4 side of the real-weight duality.

``Q`` is ``m x m`` quaternion with iid standard quaternion Gaussian entries, written as the ``2m x 2m``
complex matrix of 2 x 2 blocks ``[[a, b], [-conj(b), conj(a)]]`` with ``a, b`` iid standard complex Gaussian
(``E|a|^2 = 1``). The duality of :mod:`numerics.signal_propagation.real_wick_pfaffian` states
``E tr(Q^k (Q^*)^k) = (-1)^(k+1) P_k(-2m)`` with ``P_k(n) = E tr((G^k)^T G^k)`` for real Ginibre ``G``
(m = 2, k = 1..3: 16, 72, 400). The estimate here is an independent check of that statement: plain sampling,
the trace of the complex 2m x 2m matrix, se from the same run.

>>> est = quaternion_moments(1, 2, 4000, seed=1)     # m = 1: E tr (Q Q^*)^k = 2 (k+1)!: 4, 12
>>> bool(abs(est.mean[1] - 4) < 6 * est.se[1]) and bool(abs(est.mean[2] - 12) < 6 * est.se[2])
True
"""

from __future__ import annotations

import dataclasses

import numpy as np

from theory._args import as_int, as_seed_sequence

__all__ = ["quaternion_moments", "QuaternionMoments"]

_CHUNK = 4096


@dataclasses.dataclass(frozen=True)
class QuaternionMoments:
    """``mean[k]`` estimates ``E tr(Q^k (Q^*)^k)``; ``se[k]`` is the sample sd over ``sqrt(samples)``."""

    mean: np.ndarray
    se: np.ndarray
    samples: int
    m: int


def _quaternion_ginibre(m: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` draws of the m x m quaternion Ginibre matrix as ``(size, 2m, 2m)`` complex arrays."""
    def cgauss():
        return (rng.standard_normal((size, m, m)) + 1j * rng.standard_normal((size, m, m))) / np.sqrt(2)
    a, b = cgauss(), cgauss()
    out = np.empty((size, 2 * m, 2 * m), dtype=complex)
    out[:, 0::2, 0::2], out[:, 0::2, 1::2] = a, b
    out[:, 1::2, 0::2], out[:, 1::2, 1::2] = -b.conj(), a.conj()
    return out


def quaternion_moments(m: int, k: int, samples: int, *, seed=0) -> QuaternionMoments:
    """Monte Carlo ``E tr(Q^j (Q^*)^j)``, j = 0..k, for the m x m quaternion Ginibre Q (module docstring);
    ``1 <= m <= 64``, ``0 <= k <= 40``, ``2 <= samples <= 10^8``, ``seed`` as in :mod:`numerics.signal_propagation.ginibre`."""
    m = as_int("m", m, minimum=1, maximum=64)
    k = as_int("k", k, minimum=0, maximum=40)
    samples = as_int("samples", samples, minimum=2, maximum=10**8)
    ss = as_seed_sequence(seed)
    rng = np.random.default_rng(ss)
    s1 = np.zeros(k + 1)
    s2 = np.zeros(k + 1)
    done = 0
    while done < samples:
        size = min(_CHUNK, samples - done)
        Q = _quaternion_ginibre(m, size, rng)
        P = np.broadcast_to(np.eye(2 * m, dtype=complex), Q.shape).copy()
        for j in range(k + 1):
            if j:
                P = P @ Q
            v = np.sum(np.abs(P) ** 2, axis=(1, 2))          # tr(Q^j (Q^*)^j) = ||Q^j||_F^2
            s1[j] += v.sum()
            s2[j] += (v * v).sum()
        done += size
    mean = s1 / samples
    se = np.sqrt(np.maximum(s2 / samples - mean**2, 0.0) * samples / (samples - 1) / samples)
    return QuaternionMoments(mean=mean, se=se, samples=samples, m=m)
