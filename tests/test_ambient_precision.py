"""``dps=None`` on a ``method="mp"`` path is the ambient mpmath precision (mpmath's own convention).

Under ``mpmath.workdps(50)`` every mp path returns 50 digits: checked against exact rationals
(``method="exact"``) to 48 digits where an exact value exists, otherwise against the same function at 90
digits; and the ambient result equals the explicit ``dps=50`` one. The caller's precision is left as it was.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from theory import complexity, levy, memory, signal_energy, tauberian
from theory._args import MAX_DPS, MIN_DPS, ambient_dps, as_dps, as_method_dps

DIGITS = 48
AMBIENT = 50


def _rel(value, ref) -> mpmath.mpf:
    with mpmath.workdps(120):
        ref = mpmath.mpf(ref.numerator) / ref.denominator if isinstance(ref, Fraction) else mpmath.mpf(ref)
        return abs(mpmath.mpf(value) - ref) / abs(ref)


def _ambient(fn, *args, **kwargs):
    with mpmath.workdps(AMBIENT):
        out = fn(*args, method="mp", **kwargs)
        assert mpmath.mp.dps == AMBIENT                        # the caller's context is left as it was
    return out


@pytest.mark.parametrize("n,k", [(1024, 64), (4, 2), (10**6, 3000), (3, 40)])
def test_Q_and_S_under_workdps_50_match_the_exact_values_to_48_digits(n, k):
    for fn in (signal_energy.Q, signal_energy.S):
        value = _ambient(fn, n, k)
        assert _rel(value, fn(n, k, method="exact")) <= mpmath.mpf(10) ** -DIGITS, (fn.__name__, n, k)
        assert value == fn(n, k, method="mp", dps=AMBIENT)


def test_the_issue_example_prints_50_correct_digits():
    with mpmath.workdps(50):
        value = signal_energy.Q(1024, 64, method="mp")
        text = mpmath.nstr(value, 50)
    exact = signal_energy.Q(1024, 64, method="exact")
    with mpmath.workdps(60):
        assert text == mpmath.nstr(mpmath.mpf(exact.numerator) / exact.denominator, 50)


def test_Q_all_and_logs_under_workdps_50():
    n, t = 500, 30
    values = _ambient(signal_energy.Q_all, n, t)
    assert len(values) == t + 1
    for k, v in enumerate(values):
        assert _rel(v, signal_energy.Q(n, k, method="exact")) <= mpmath.mpf(10) ** -DIGITS
    with mpmath.workdps(120):
        exact = signal_energy.Q(n, t, method="exact")
        log_ref = mpmath.log(mpmath.mpf(exact.numerator) / exact.denominator)
        exact_s = signal_energy.S(n, t, method="exact")
        log_s_ref = mpmath.log(mpmath.mpf(exact_s.numerator) / exact_s.denominator)
    assert _rel(_ambient(signal_energy.log_Q, n, t), log_ref) <= mpmath.mpf(10) ** -DIGITS
    assert _rel(_ambient(signal_energy.log_S, n, t), log_s_ref) <= mpmath.mpf(10) ** -DIGITS


_LEVY = dict(eta_G=0.25, kappa=1.0, eta_J=0.4, alpha=1.5, lam=5.0)
# mp paths without an exact counterpart: the reference is the same function at 90 digits
_NO_EXACT = {
    "levy.jump_symbol": lambda **kw: levy.jump_symbol(0.5, eta_J=0.4, alpha=1.5, lam=5.0, **kw),
    "levy.Phi": lambda **kw: levy.Phi(0.5, **_LEVY, **kw),
    "levy.characteristic_root": lambda **kw: levy.characteristic_root(**_LEVY, **kw),
    "memory.exp_area": lambda **kw: memory.exp_area(7.5, 64, **kw),
    "memory.poly_area": lambda **kw: memory.poly_area(1.5, 64, **kw),
    "complexity.exp_tail_energy": lambda **kw: complexity.exp_tail_energy(7.5, 64, 4, **kw),
    "complexity.poly_tail_energy": lambda **kw: complexity.poly_tail_energy(1.5, 64, 4, **kw),
    "tauberian.pareto_envelope": lambda **kw: tauberian.pareto_envelope(20, beta=0.7, **kw),
}


@pytest.mark.parametrize("name", sorted(_NO_EXACT))
def test_every_mp_path_honours_the_ambient_precision(name):
    fn = _NO_EXACT[name]
    value = _ambient(fn)
    assert value == fn(method="mp", dps=AMBIENT)
    assert _rel(value, fn(method="mp", dps=90)) <= mpmath.mpf(10) ** -DIGITS, name
    low = fn(method="mp")                                      # mpmath's default 15 digits, not 50
    assert _rel(low, fn(method="mp", dps=90)) > mpmath.mpf(10) ** -30


def test_ambient_dps_is_bounded_like_an_explicit_one():
    assert ambient_dps() == mpmath.mp.dps == 15 and as_dps(None) == 15
    with mpmath.workdps(2):
        assert ambient_dps() == MIN_DPS                        # raised to the smallest precision allowed
    with mpmath.workdps(MAX_DPS + 1):
        with pytest.raises(ValueError, match="ambient"):
            as_dps(None)
    with mpmath.workdps(200):
        assert as_method_dps("mp", None) == ("mp", 200)
        with pytest.raises(ValueError, match=r"<= 100 .*ambient"):
            as_method_dps("mp", None, max_dps=100)
    assert as_method_dps("float", None) == ("float", None)
