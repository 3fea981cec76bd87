r"""(private) Certified supercritical ``S_{n,t}`` (python-flint arb): a top-down sum with a proved tail bound.

``S = sum_{k<=t} Q_k`` with ``Q_k = R_k - F_k``, ``R_k = n e^(a_m) / ((k+1)(k+2))``, ``F_k = R_k e^(-d_m)``,
``m = k + 2`` (Seleznova 2026, Theorem 2.1; the representation of :func:`theory.signal_energy.Q`). Far above
``sqrt(n)`` the terms grow like ``e^(k^2 / 2n)``, so the sum is its top ``O((n/t) log)`` terms:

* ``R_t`` is one certified log-gamma evaluation, then ``R_(k-1) = R_k * n m / ((m - 2)(n + m - 1))``
  (exact rational factors, ball arithmetic);
* the falling part: ``0 <= F_k <= R_k e^(-m(m-1)/n)`` (``d_m = sum_{j<m} 2 atanh(j/n) >= m(m-1)/n``), and
  ``m(m-1)/n`` only grows with k, so ``sum F_k <= e^(-(K+1)(K+2)/n) sum R_k`` over the summed range
  ``k > K``: added to the radius (the method applies only where this is below the target accuracy);
* the tail ``k <= K``: ``a_m`` increases with m, so ``R_k <= n e^(a_(K+2)) / ((k+1)(k+2))`` and
  ``sum_{k<=K} Q_k <= sum R_k <= n e^(a_(K+2)) = (K+1)(K+2) R_K``: the loop stops once this is below
  ``2^-(target+4)`` of the partial sum and adds it to the radius.

Everything is a proved inequality, so the result is a certified ball (python-flint ``arb``).
"""

from __future__ import annotations

import math

_MAX_STEPS = 100_000          # and at most t / 2: otherwise the direct sum of all terms is as cheap


def steps_needed(n: int, t: int, bits: int) -> float:
    """About how many top terms the sum needs: ``(target) ln 2 / (t/n)`` plus slack (the terms fall by
    ``~ e^(-t/n)`` per step below the top)."""
    return (bits * math.log(2) + math.log(n * (t + 2.0)) + 10) * n / t + 10


def applies(n: int, t: int, bits: int) -> bool:
    """Supercritical enough: the stop comes within ``_MAX_STEPS`` steps and the falling part is negligible
    over them (``(K+1)(K+2)/n`` beyond the target bits at the lowest summed K). Never at ``t = 0`` (one term)."""
    if t < 1:
        return False
    K = t - steps_needed(n, t, bits)
    steps = steps_needed(n, t, bits)
    return K > 2 and steps < min(_MAX_STEPS, t / 2) and K * K / n > (bits + 8) * math.log(2)


def S_ball_super(flint, n: int, t: int, bits: int, prec: int):
    """The certified ball of the module docstring at working precision ``prec`` (``applies`` must hold)."""
    arb = flint.arb
    with flint.ctx.workprec(prec):
        N = arb(n)
        m = t + 2
        R = N * (arb(n + m).lgamma() - N.lgamma() - m * N.log()).exp() / ((t + 1) * (t + 2))
        total = arb(0)
        k = t
        while True:
            total += R
            if k == 0:
                tail = arb(0)
                break
            m = k + 2
            R = R * (n * m) / ((m - 2) * (n + m - 1))          # R_(k-1)
            k -= 1
            tail = R * ((k + 1) * (k + 2))                      # >= sum_{j<=k} R_j
            if (tail / total).upper() < arb(2) ** -(bits + 4) or t - k > _MAX_STEPS:
                break                                           # (the step cap: a wide ball, the caller falls back)
        falling = total * (-arb((k + 2) * (k + 3)) / N).exp()  # >= sum of F over the summed range (k+1..t)
        # S lies in [total - falling, total + tail]: a ball around total of radius tail + falling contains it
        return total + arb(0, (tail + falling).upper())
