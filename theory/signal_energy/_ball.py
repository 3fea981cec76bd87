"""(private) Certified arithmetic of :mod:`theory.signal_energy` (python-flint ``arb`` balls, extra ``certified``):
``Q`` from certified log-gamma values; ``S`` by the 1/n^2 series with a proved remainder (sub- and critical),
the supercritical top terms (:mod:`theory.signal_energy._ball_super`), Euler-Maclaurin on the top window
(:mod:`theory.signal_energy._ball_em`), or the direct sum. Proofs: ``docs/papers/signal-propagation.md``,
"Certified balls"."""

from __future__ import annotations

import math

from . import _ball_em, _ball_super
from ._factorial_logs import _guard_bits, _log_Q


def _flint():
    try:
        import flint
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise ImportError("method='ball' needs python-flint: pip install 'seqtheory[certified]'") from exc
    return flint


def _Q_ball(n: int, k: int, dps: int):
    flint = _flint()
    arb = flint.arb
    m = k + 2
    target = int(dps * 3.33) + 4
    prec = target + _guard_bits(n, m)
    while True:
        with flint.ctx.workprec(prec):
            N = arb(n)
            lg_n = N.lgamma()
            a = arb(n + m).lgamma() - lg_n - m * N.log()
            if m <= n:
                d = arb(n + m).lgamma() + arb(n - m + 1).lgamma() - lg_n - arb(n + 1).lgamma()
                q = N * a.exp() * (-(-d).expm1()) / ((k + 1) * (k + 2))
            else:
                q = N * a.exp() / ((k + 1) * (k + 2))
        if q.rel_accuracy_bits() >= target:
            return q
        prec *= 2

_S_BALL_SERIES_MIN_T = 2000       # below: the O(t) direct sum is cheap
_S_BALL_SERIES_MAX_G = 400        # series terms at most (O(G^2) big-integer work; c = t/sqrt(n) up to ~ 20)


def _series_head(n: int, t: int, G: int, Z=int):
    r"""The exact integer ``n^(2(G-1)) T_G``, ``T_G = sum_{k<=t} sum_{g<G} q_g(k) n^(-2g)`` (see :func:`_S_ball_series`).

    ``P(k) = sum_{g<G} q_g(k) n^(2(G-1-g))`` is an integer polynomial in k of degree ``D = 4(G-1)``, so its
    values at ``k = 0..D`` give its Newton form ``P(k) = sum_i Delta^i P(0) C(k, i)`` and
    ``sum_{k<=t} P(k) = sum_i Delta^i P(0) C(t+1, i+1)`` exactly. The values come from one table of the
    elementary symmetric polynomials ``e_j(0, ..., m-1)`` (``e_j <- e_j + m e_(j-1)`` as m is added):
    O(G^2) big-integer operations in all, in the integer type ``Z`` (FLINT's ``fmpz`` halves the time).
    One extra value checks that the degree is what the math says.
    """
    D = 4 * (G - 1)
    n2 = Z(n) * n
    e = [Z(1)] + [Z(0)] * (2 * G)             # e_j(0..m-1) for j = 0..2G-1, starting from the empty set
    values = []
    for m in range(D + 3):                    # after adding m: the set {0..m}, i.e. k = m - 1 below
        for j in range(2 * G - 1, 0, -1):
            e[j] += m * e[j - 1]
        if m < 1:
            continue
        acc = Z(0)
        for g in range(G):                    # Horner in n^2
            acc = acc * n2 + e[2 * g + 1]
        q, r = divmod(acc, m * (m + 1) // 2)  # C(k+2, 2) with k = m - 1
        assert r == 0
        values.append(q)
    diffs = []
    for _ in range(D + 2):
        diffs.append(values[0])
        values = [b - a for a, b in zip(values, values[1:])]
    assert diffs[-1] == 0                     # degree D: the (D+1)-th difference vanishes
    total, comb = Z(0), Z(t + 1)              # comb = C(t+1, i+1)
    for i in range(D + 1):
        total += diffs[i] * comb
        comb = comb * (t - i) // (i + 2)
    return int(total)


def _remainder_log2(n: int, t: int, G: int) -> float:
    """log2 of the remainder bound ``R`` of :func:`_S_ball_series` (float, only to choose G); +inf where
    ``rho >= 1/2``."""
    log_x = 2 * math.log(t + 2.5) - math.log(2) - math.log(n)     # log X, in logs: n may exceed float64
    if 2 * log_x >= math.log((2 * G + 2) * (2 * G + 3) / 2):
        return math.inf
    log_r = math.log(t + 2.5) + 2 * G * log_x - math.lgamma(2 * G + 2) - math.log(4 * G + 1) + math.log(2)
    return log_r / math.log(2)


def _S_log2_estimate(n: int, t: int) -> float:
    """A rough lower estimate of ``log2 S_{n,t}`` (not a bound: it only chooses G, and a ball that misses its
    accuracy is recomputed with more terms): ``S >= t + 1``, and ``S ~ Q_{n,t} n/t`` once the top terms
    dominate (they fall like ``e^(-(t-k) t/n)`` below the top)."""
    top = _log_Q(n, t) + min(math.log(t + 1.0), math.log(n) - math.log(t)) - 2.0
    return max(math.log2(t + 1.0), top / math.log(2))


def _S_ball_series_terms(n: int, t: int, target: int) -> int | None:
    """The number G of series terms whose remainder is below about 2^-target of S, or None (another path)."""
    if t <= _S_BALL_SERIES_MIN_T:
        return None
    allowed = _S_log2_estimate(n, t) - target
    for G in range(1, _S_BALL_SERIES_MAX_G + 1):
        if _remainder_log2(n, t, G) + 0.1 <= allowed:
            return G
    return None


def _S_ball_series(n: int, t: int, G: int, prec: int):
    r"""Certified ``S_{n,t}`` from the first G terms of its 1/n^2 series and a rigorous remainder bound.

    Used in the subcritical and the critical regime (``c = t / sqrt(n)`` up to about 30 at 40 digits:
    ``G <= _S_BALL_SERIES_MAX_G``). The math (proof in ``docs/papers/signal-propagation.md``, "Certified
    balls"). With ``m = k + 2``, ``x^(m) - x_(m) = 2 sum_j c(m, m-j) x^(m-j)`` over odd j, where
    ``c(m, m-j) = e_j(0, 1, ..., m-1)`` (elementary symmetric polynomial; ``x^(m) = prod_{i<m} (x + i)``).
    Hence (Seleznova 2026, Theorem 2.1) ``Q_{n,k} = sum_{g>=0} q_g(k) n^{-2g}`` with
    ``q_g(k) = e_{2g+1}(0..m-1) / C(m, 2) >= 0``, and

    * *exactness of the kept terms*: ``c(m, m-j)`` is a polynomial in m of degree 2j vanishing at
      ``m = 0, ..., j`` (Stirling polynomials; Graham-Knuth-Patashnik (6.43)-(6.44)), so ``q_g`` is a
      polynomial in k of degree 4g (the division by ``C(m, 2)`` is exact: it vanishes at m = 0, 1) and
      ``T_G = sum_{k<=t} sum_{g<G} q_g(k) n^{-2g}`` is an exact rational (:func:`_series_head`);
    * *the remainder*: ``e_j(a) <= (sum_i a_i)^j / j!`` for ``a_i >= 0`` (every product of j distinct
      entries occurs j! times in the expansion of ``(sum a)^j``) gives ``q_g(k) <= y_k^{2g} / (2g+1)!`` with
      ``y_k = C(k+2, 2) / n <= (k + 3/2)^2 / (2n)``. As ``v^(4g)`` increases,
      ``sum_{k<=t} (k + 3/2)^(4g) <= integral_{3/2}^{t+5/2} v^(4g) dv``, so with ``X = (t + 5/2)^2 / (2n)``
      ``sum_{k<=t} y_k^{2g} <= (t + 5/2) X^{2g} / (4g+1)`` and
      ``0 <= S_{n,t} - T_G <= R = (t + 5/2) X^{2G} / ((4G+1) (2G+1)! (1 - rho))``,
      ``rho = X^2 / ((2G+2)(2G+3))`` (the ratio of consecutive bounds is at most rho; needs rho < 1).
      No smallness of X is needed: the series of ``sinh(X)/X`` converges for every X.

    The returned ball is ``T_G`` (rounded outward) plus ``R * [0, 1]`` (R evaluated in ball arithmetic);
    since ``S >= t + 1``, its relative radius is at most ``R / (t + 1)`` plus rounding. An infinite radius
    when rho >= 1 (too few terms).
    """
    flint = _flint()
    arb = flint.arb
    num = _series_head(n, t, G, flint.fmpz)
    with flint.ctx.workprec(prec):
        head = arb(num) / arb(n * n) ** (G - 1)
        X = arb(2 * t + 5) ** 2 / arb(8 * n)
        rho = X * X / ((2 * G + 2) * (2 * G + 3))
        if not rho < 1:
            return head + arb(0, "inf")
        rem = (arb(2 * t + 5) / 2) * X ** (2 * G) / (arb(math.factorial(2 * G + 1)) * (4 * G + 1) * (1 - rho))
        return head + rem * arb(0.5, 0.5)                # [0, 1] * R: the remainder is non-negative


def _S_ball_is_direct(n: int, t: int, dps: int) -> bool:
    """Whether ``S(n, t, method="ball", dps=dps)`` sums all t + 1 certified terms (neither the series nor the
    supercritical top terms apply): the command line's up-front cost notice asks this."""
    target = int(dps * 3.33) + 4
    return (_S_ball_series_terms(n, t, target + 4) is None and not _ball_super.applies(n, t, target)
            and _ball_em.plan(n, t, target) is None)


def _S_ball_em(flint, n: int, t: int, dps: int, target: int):
    """Between the critical series and the supercritical top terms: Euler-Maclaurin on the top window with a
    proved remainder (:mod:`theory._ball_em`), or None if the ball misses its accuracy."""
    plan = _ball_em.plan(n, t, target)
    if plan is None:
        return None
    K, a = plan[0], plan[1]
    head = _S_ball(n, K, dps + 1) if a == K + 1 else None     # K < t: the series (or a short direct sum)
    m = n + t + 2
    prec = target + m.bit_length() + m.bit_length().bit_length() + 30   # log-gamma terms of size m log m
    ball = _ball_em.S_ball_em(flint, n, t, target, prec, head)
    return ball if ball.rel_accuracy_bits() >= target else None

_S_BALL_EM_FIRST_G = 64          # the series with more terms than this: Euler-Maclaurin first (where it applies)


def _S_ball(n: int, t: int, dps: int):
    """Certified S: the 1/n^2 series (sub- and critical), the supercritical top terms, Euler-Maclaurin on the
    top window (in between), each only where it applies and reaches the accuracy; else the direct sum."""
    flint = _flint()
    target = int(dps * 3.33) + 4
    G = _S_ball_series_terms(n, t, target + 4)
    series = [] if G is None else [lambda: _S_ball_by_series(n, t, G, target)]
    others = [lambda: _S_ball_by_super(flint, n, t, target), lambda: _S_ball_em(flint, n, t, dps, target)]
    attempts = series + others if G is not None and G <= _S_BALL_EM_FIRST_G else others + series
    for attempt in attempts:
        ball = attempt()
        if ball is not None:
            return ball
    return _S_ball_direct(flint, n, t, target)


def _S_ball_by_series(n: int, t: int, G: int, target: int):
    """The 1/n^2 series ball with G terms, more if the estimate of S that chose G was too high; None past
    ``_S_BALL_SERIES_MAX_G`` terms."""
    while G <= _S_BALL_SERIES_MAX_G:
        ball = _S_ball_series(n, t, G, target + 40)
        if ball.rel_accuracy_bits() >= target:
            return ball
        G += G // 4 + 2
    return None


def _S_ball_by_super(flint, n: int, t: int, target: int):
    """Supercritical: the top terms and a proved tail bound (:mod:`theory._ball_super`), or None."""
    if not _ball_super.applies(n, t, target):
        return None
    prec = target + 2 * int(math.log2(t + 2)) + 40
    for _ in range(3):                      # not accurate after that: the bounds are too loose here
        ball = _ball_super.S_ball_super(flint, n, t, target, prec)
        if ball.rel_accuracy_bits() >= target:
            return ball
        prec *= 2
    return None


def _S_ball_direct(flint, n: int, t: int, target: int):
    """The direct O(t) sum of certified terms, the precision doubled until the ball is accurate enough."""
    arb = flint.arb
    prec = target + int(math.log2(n)) + int(math.log2(t + 2)) + 24
    while True:
        with flint.ctx.workprec(prec):
            N = arb(n)
            pr, pf = (N + 1) / N, (N - 1) / N
            total = arb(0)
            for k in range(t + 1):
                m = k + 2
                total += N * (pr - pf) / ((k + 1) * m)
                pr *= (N + m) / N
                pf *= (N - m) / N
        if total.rel_accuracy_bits() >= target:
            return total
        prec *= 2
