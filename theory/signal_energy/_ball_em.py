r"""(private) Certified ``S_{n,t}`` between the critical series and the supercritical top terms: Euler-Maclaurin
with a proved remainder (python-flint arb).

``S = sum_{k<=t} Q_k``, ``Q_k = R_k - F_k``, ``R_k = f(k)`` with the analytic function
``f(x) = n Gamma(n+x+2) / (Gamma(n) n^(x+2) (x+1)(x+2))`` and ``0 <= F_k <= R_k e^(-(k+2)(k+1)/n)`` (Seleznova
2026, Theorem 2.1; the representation of :func:`theory.signal_energy.Q`). With a cut ``K ~ 11 sqrt(n)`` (the
falling part is below the target accuracy past it) and a window ``[a, t]``, ``a = max(K + 1, t - J)``:

* ``sum_{k=a}^{t} R_k`` by Euler-Maclaurin with P Bernoulli terms:
  ``integral_a^t f + (f(a) + f(t))/2 + sum_{j<=P} B_(2j)/(2j)! (f^(2j-1)(t) - f^(2j-1)(a)) + E``,
  ``|E| <= |B_(2P)|/(2P)! integral_a^t |f^(2P)|``. The integral is certified by ``acb.integral`` (its
  integrand in mean-value form, so that the ``n log n``-sized log-gamma terms do not inflate the balls) and
  the derivatives by arb series. The bound on E: for ``Re z = s > -1`` and ``Re(n + z + 2) > 0``,
  ``|Gamma(w)| <= Gamma(Re w)`` gives ``|f(z)| <= f(s)``; f increases for ``s >= 2 sqrt(n) + 2``
  (``psi(x) > log(x - 1/2)``); so Cauchy's estimate on circles of radius ``rho`` (with ``a - rho`` past that
  point) gives ``|f^(2P)(x)| <= (2P)! f(x + rho) / rho^(2P)``, and ``f(x + rho) <= f(x) e^(rho (t+rho+2)/n)``
  (``log Gamma(y + rho) - log Gamma(y) <= rho log(y + rho)``). With ``|B_(2P)|/(2P)! = 2 zeta(2P)/(2 pi)^(2P)``
  and ``zeta(2P) <= 2``: ``|E| <= 4 (2P)! / (2 pi rho)^(2P) e^(rho (t+rho+2)/n) integral_a^t f``;
  ``rho = 2P n/t`` makes it about ``(t / (2 pi n))^(2P)``.
* the falling part on the window: ``0 <= sum F_k <= e^(-(a+2)(a+1)/n) sum R_k``;
* below the window: ``S_{n,K}`` (a certified ball, the caller's) when ``a = K + 1``; otherwise
  ``0 <= sum_{k<a} Q_k <= sum_{k<a} R_k <= n e^(a_(a+1)) = a (a+1) R_(a-1)`` (``a_m = log(n^(m) / n^m)``
  increases with m and ``sum_k 1/((k+1)(k+2)) <= 1``), added to the radius.

Every piece is a proved inequality or a certified ball, so the result is a certified ball. Proof write-up:
``docs/papers/signal-propagation.md``, "Certified balls".
"""

from __future__ import annotations

import math

_MAX_P = 60                   # Bernoulli terms at most (series of length 2P)


def cut(n: int, bits: int) -> int:
    """``K`` with ``e^(-(K+2)(K+3)/n) <= 2^-(bits+10)``: the falling part is negligible past it."""
    return math.isqrt(math.ceil((bits + 10) * math.log(2) * n)) + 1


def _window(n: int, t: int, bits: int) -> int:
    """About how many top terms matter: below the top they fall by a factor ``1 + k/n`` per step (k the
    lowest index of the window), and the bound on the rest carries a factor ``(t+1)(t+2)``."""
    need = (bits + 10) * math.log(2) + 2 * math.log(t + 2) + 5
    J = need * n / t
    for _ in range(2):                                 # the rate at the window's lower end, twice refined
        low = t - J
        if low <= 0:
            return t
        J = need / math.log1p(low / n)
    return math.ceil(1.1 * J) + 2


def plan(n: int, t: int, bits: int) -> tuple[int, int, int, float] | None:
    """``(K, a, P, rho)`` of the module docstring, or None where the method does not apply (t not past the cut
    and the monotone range, or more than ``_MAX_P`` Bernoulli terms needed)."""
    if n.bit_length() > 1000 or t.bit_length() > 1000:
        return None                                    # past float64 (the planning is in floats); never needed there
    K = cut(n, bits)
    if t <= K + 1:
        return None
    a = max(K + 1, t - _window(n, t, bits))
    room = a - 2 * math.sqrt(n) - 3                   # rho must keep a - rho in the range where f increases
    for P in range(1, _MAX_P + 1):
        rho = min(2 * P * n / t, room)
        if rho <= 1:
            return None
        log_e = (math.log(4) + math.lgamma(2 * P + 1) - 2 * P * math.log(2 * math.pi * rho)
                 + rho * (t + rho + 2) / n)
        if log_e / math.log(2) < -(bits + 6):
            return K, a, P, rho
    return None


def _integrand(n: int, lgn, logn):
    """``f(z)`` on complex balls: the exponent in mean-value form ``E(z0) + (z - z0) E'(Z)`` (E' = psi - log n):
    the average of E' over the segment lies in any convex enclosure of E'(Z), so this encloses E(z)."""
    from flint import acb

    def f(z, analytic):
        w = z + (n + 2)
        if analytic and not (w.real > 0):
            return acb("nan")                            # outside the half-plane where log-gamma is analytic
        z0 = acb(z.mid())
        e0 = (z0 + (n + 2)).lgamma() - lgn - (z0 + 2) * logn
        return (e0 + (z - z0) * (w.digamma() - logn)).exp() * n / ((z + 1) * (z + 2))
    return f


def _derivatives(flint, n: int, x: int, length: int, lgn, logn) -> list:
    """``f^(i)(x)``, i < length, from the arb Taylor series of f at x (the series cap raised for the call)."""
    old = flint.ctx.cap
    flint.ctx.cap = length
    try:
        h = flint.arb_series([x, 1], prec=length)
        s = ((h + (n + 2)).lgamma() - lgn - (h + 2) * logn).exp() * n / ((h + 1) * (h + 2))
        cs = s.coeffs()
    finally:
        flint.ctx.cap = old
    return [cs[i] * math.factorial(i) if i < len(cs) else flint.arb(0) for i in range(length)]


def _em_sum(flint, n: int, a: int, t: int, P: int, rho: float, bits: int):
    """(the Euler-Maclaurin value of ``sum_{k=a}^{t} R_k``, the bound on |E|) as arb balls."""
    arb = flint.arb
    N = arb(n)
    lgn, logn = N.lgamma(), N.log()
    integral = flint.acb.integral(_integrand(n, lgn, logn), a, t, rel_tol=arb(2) ** -(bits + 10)).real
    da = _derivatives(flint, n, a, 2 * P, lgn, logn)
    db = _derivatives(flint, n, t, 2 * P, lgn, logn)
    total = integral + (da[0] + db[0]) / 2
    for j in range(1, P + 1):
        total += arb(flint.fmpq.bernoulli(2 * j)) / math.factorial(2 * j) * (db[2 * j - 1] - da[2 * j - 1])
    r = arb(rho)
    err = 4 * arb(math.factorial(2 * P)) / (2 * arb.pi() * r) ** (2 * P) * (r * (t + r + 2) / N).exp() * integral
    return total, err


def S_ball_em(flint, n: int, t: int, bits: int, prec: int, head=None):
    """The certified ball of the module docstring; ``plan(n, t, bits)`` must not be None. ``head`` is the
    certified ball of ``S_{n,K}``, needed (and used) only when the window starts at ``K + 1``."""
    arb = flint.arb
    K, a, P, rho = plan(n, t, bits)                    # type: ignore[misc]
    with flint.ctx.workprec(prec):
        total, err = _em_sum(flint, n, a, t, P, rho, bits)
        upper = total + arb(0, err.upper())
        falling = (-arb((a + 2) * (a + 1)) / n).exp() * upper
        if a == K + 1:
            below = head
        else:                                          # 0 <= sum_{k<a} Q_k <= a (a+1) R_(a-1) = n e^(a_(a+1))
            N = arb(n)
            bound = N * (arb(n + a + 1).lgamma() - N.lgamma() - (a + 1) * N.log()).exp()
            below = bound * arb(0.5, 0.5)
        # S in below + [total - err - falling, total + err]: one ball containing it
        return below + total - falling * arb(0.5, 0.5) + arb(0, err.upper())
