"""Precision ladder ("torture") of every ``method="mp"`` / ``dps`` path across its domain edges.

Each case is evaluated at ``dps = 30`` and at ``dps = 60``: the dps-30 value must agree with the dps-60
one to the digits it claims (relative ``10**-(30 - 1)``, absolute for a zero reference), or the call must
raise a clear domain error (``ValueError`` naming a parameter, or a documented ``OverflowError``) at both
precisions. Edges: magnitudes 1e-300 .. 1e30 of the real parameters, subnormal-size and huge integers,
the boundaries of each validity domain (``beta -> lam``, ``alpha -> 0`` or 2, ``k + 2 = n``, ``c -> 0``).
"""

from __future__ import annotations

import dataclasses
import itertools

import mpmath
import numpy as np
import pytest

from theory import complexity, horizon, levy, memory, prony, regimes, signal_energy, tauberian

LO, HI = 30, 60


def _numbers(x) -> list:
    """Every number in a result, as mpmath values (fits and profiles are flattened field by field)."""
    if isinstance(x, (mpmath.mpf, mpmath.mpc, float, int, complex, np.floating, np.integer)) and not isinstance(x, bool):
        return [mpmath.mpmathify(x)]
    if isinstance(x, np.ndarray):
        return [v for e in x.ravel().tolist() for v in _numbers(e)]
    if isinstance(x, (list, tuple)):
        return [v for e in x for v in _numbers(e)]
    if dataclasses.is_dataclass(x):
        return [v for f in dataclasses.fields(x) for v in _numbers(getattr(x, f.name))]
    return []


def _ladder(fn):
    """(ok, detail): fn(dps) at LO and HI digits agree to LO - 1 digits, or both raise a domain error."""
    out = {}
    for dps in (LO, HI):
        try:
            out[dps] = fn(dps)
        except (ValueError, OverflowError) as exc:
            out[dps] = exc
    a, b = out[LO], out[HI]
    if isinstance(a, Exception) or isinstance(b, Exception):
        return isinstance(a, Exception) and isinstance(b, Exception), f"{a!r} vs {b!r}"
    xa, xb = _numbers(a), _numbers(b)
    if len(xa) != len(xb) or not xa:
        return False, f"shapes differ: {a!r} vs {b!r}"
    with mpmath.workdps(HI):
        tol = mpmath.mpf(10) ** -(LO - 1)
        for u, v in zip(xa, xb):
            if mpmath.isnan(v) or mpmath.isinf(v):
                if not (u == v or (mpmath.isnan(u) and mpmath.isnan(v))):
                    return False, f"{u} vs {v}"
            elif abs(u - v) > tol * max(abs(v), mpmath.mpf(10) ** -300 if v == 0 else abs(v)):
                return False, f"{mpmath.nstr(u, 35)} vs {mpmath.nstr(v, 35)}"
    return True, ""


MAG = (1e-300, 1e-30, 1e-5, 1.0, 1e5, 1e30)
LEVY = dict(eta_G=0.1, kappa=1.0, eta_J=0.05, alpha=1.5, lam=2.0, C=1.0)


def _levy_cases():
    for key in LEVY:
        values = (1e-300, 1e-30, 1e-3, 0.999, 1.001, 1.999) if key == "alpha" else MAG
        for v in values:
            p = {**LEVY, key: v}
            yield f"characteristic_root {key}={v}", lambda d, p=p: levy.characteristic_root(**p, method="mp", dps=d)
            for frac in (1e-300, 1e-8, 0.5, 1 - 1e-12, 1.0):
                b = frac * p["lam"]
                yield (f"Phi beta={frac}lam {key}={v}",
                       lambda d, p=p, b=b: levy.Phi(b, **p, method="mp", dps=d))
                jp = {k: p[k] for k in ("eta_J", "alpha", "lam", "C")}
                yield (f"jump_symbol beta={frac}lam {key}={v}",
                       lambda d, jp=jp, b=b: levy.jump_symbol(b, **jp, method="mp", dps=d))


def _energy_cases():
    for n in (1, 2, 3, 64, 10**6, 10**30):
        for k in sorted({0, 1, max(n - 3, 0), max(n - 2, 0), n - 1, n, 40, 3000} & set(range(0, 10**4))):
            for name in ("Q", "S", "log_Q", "log_S"):
                fn = getattr(signal_energy, name)
                yield f"{name}(n={n}, {k})", lambda d, fn=fn, n=n, k=k: fn(n, k, method="mp", dps=d)
        yield f"Q_all(n={n}, 12)", lambda d, n=n: signal_energy.Q_all(n, 12, method="mp", dps=d)


def _profile_cases():
    for c in (0.0, 1e-300, 1e-8, 0.5, 1.0, 6.3, 30.0, 1e3, 1e6):
        yield f"critical_curve c={c}", lambda d, c=c: regimes.critical_curve(c, dps=d)
        yield f"critical_S_curve c={c}", lambda d, c=c: regimes.critical_S_curve(c, dps=d)


def _memory_cases():
    for T, x in itertools.product((2, 64, 10**6), (1e-300, 1e-30, 1e-3, 0.5, 1.0, 2.0, 1e3, 1e30)):
        yield f"exp_area tau={x} T={T}", lambda d, x=x, T=T: memory.exp_area(x, T, method="mp", dps=d)
        yield f"poly_area p={x} T={T}", lambda d, x=x, T=T: memory.poly_area(x, T, method="mp", dps=d)
        for s in sorted({0, 1, T - 1}):
            yield (f"exp_tail_energy tau={x} T={T} s={s}",
                   lambda d, x=x, T=T, s=s: complexity.exp_tail_energy(x, T, s, method="mp", dps=d))
            yield (f"poly_tail_energy p={x} T={T} s={s}",
                   lambda d, x=x, T=T, s=s: complexity.poly_tail_energy(x, T, s, method="mp", dps=d))
    for T, a in itertools.product((2, 64, 10**5), (1e-300, 1e-8, 0.25, 0.5, 0.999, 1.0)):
        yield f"exp_tau alpha={a} T={T}", lambda d, a=a, T=T: memory.exp_tau(a, T, work_dps=d)
        yield f"poly_exponent alpha={a} T={T}", lambda d, a=a, T=T: memory.poly_exponent(a, T, work_dps=d)


def _tauberian_cases():
    for lag, beta, tmin in itertools.product((1.0, 1e3, 1e6), (1e-6, 0.5, 2.0, 40.0), (1e-30, 1.0, 1e5)):
        yield (f"pareto_envelope lag={lag} beta={beta} tau_min={tmin}",
               lambda d, lag=lag, beta=beta, tmin=tmin: tauberian.pareto_envelope(lag, beta=beta, tau_min=tmin,
                                                                                  method="mp", dps=d))
    for lag in (1.0, 50.0):
        yield (f"envelope_from_density lag={lag}",
               lambda d, lag=lag: tauberian.envelope_from_density(
                   np.array([lag]), lambda x: mpmath.exp(-x), support=(1.0, mpmath.inf), method="mp", dps=d))


def _prony_cases():
    for r in (0.5, 0.9, 0.999, 1e-5):
        h = r ** np.arange(1, 17) + 0.3 * (r / 2) ** np.arange(1, 17)
        yield f"prony r={r}", lambda d, h=h: prony.prony(h, 2, method="mp", dps=d).poles
        poles = np.array([r, r / 2])
        yield (f"vandermonde_condition r={r}",
               lambda d, poles=poles: prony.vandermonde_condition(poles, 16, method="mp", dps=d))


def _horizon_cases():
    for n, t in ((1, 3), (4, 20), (64, 40), (10**6, 60)):
        yield f"sigma_for_horizon n={n} t={t}", lambda d, n=n, t=t: horizon.sigma_for_horizon(
            n, t, 0.05, method="mp", dps=d, quantity="Q").sigma


CASES = dict(itertools.chain(_levy_cases(), _energy_cases(), _profile_cases(), _memory_cases(), _tauberian_cases(),
                             _prony_cases(), _horizon_cases()))
GROUPS = {}
for _name in CASES:
    GROUPS.setdefault(_name.split(" ")[0].split("(")[0], []).append(_name)


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_precision_ladder(group):
    bad = []
    for name in GROUPS[group]:
        ok, detail = _ladder(CASES[name])
        if not ok:
            bad.append(f"{name}: {detail}")
    assert not bad, f"{len(bad)} of {len(GROUPS[group])} cases disagree between dps {LO} and {HI}:\n" + "\n".join(bad[:20])
