"""The coefficient table of docs/results/init-laws.md is generated from the committed data, not typed.

``python benchmarks/init_laws/fit_structure.py --table`` prints it; the page must hold that exact text. The text
itself is checked independently: each ``A(k)``, ``B(k)`` cell read back by sympy equals the committed
coefficient ``c_{m,mu}(k)`` (``quasi_value``) on the first rows past ``k0``, and the formatter on hand-written cases.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import sympy

from theory.init_laws import structure as S
from theory.real_expansion import quasi_value

import script_module

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "results" / "init-laws.md"


def _fit_structure():
    return script_module.load("benchmarks/init_laws/fit_structure.py")


def test_the_page_holds_the_generated_table():
    table = _fit_structure().coefficient_table()
    assert table in PAGE.read_text(encoding="utf-8"), "rerun fit_structure.py --table and paste it into the page"


def _read(text: str) -> sympy.Expr:
    k = sympy.Symbol("k")
    return sympy.sympify(re.sub(r"(\d) k", r"\1*k", text.strip("`").replace("^", "**")), locals={"k": k})


def test_every_row_reads_back_as_the_committed_coefficient():
    k = sympy.Symbol("k")
    rows = [line for line in _fit_structure().coefficient_table().splitlines()[2:]]
    keys = [(m, mu) for m in range(2, S.M_LAW + 1) for mu in S.monomials(m)]
    assert len(rows) == len(keys)
    for line, (m, mu) in zip(rows, keys):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert int(cells[0]) == m
        A, B, k0 = S.coefficient(m, mu)
        a, b = _read(cells[3]), _read(cells[4])
        for kk in range(k0, k0 + 6):
            value = a.subs(k, kk) + (-1) ** kk * b.subs(k, kk)
            assert sympy.Rational(value) == sympy.Rational(quasi_value(A, B, kk)), (m, mu, kk)


def test_polynomial_text_on_hand_written_cases():
    poly = _fit_structure()._poly
    F = Fraction
    assert poly((F(0), F(-1, 2), F(1, 2))) == "1/2 k^2 - 1/2 k"
    assert poly((F(-2), F(1))) == "k - 2"
    assert poly((F(-1, 8),)) == "-1/8"
    assert poly((F(3), F(0), F(-1))) == "-k^2 + 3"
    assert poly((F(0), F(-1))) == "-k"
    assert poly((F(0), F(1), F(0), F(1))) == "k^3 + k"
    assert poly(()) == "0"


def test_monomial_text_on_hand_written_cases():
    mono = _fit_structure()._monomial
    assert mono((2,)) == "kappa_4"
    assert mono((2, 2, 2)) == "kappa_4^3"
    assert mono((3, 2)) == "kappa_6 kappa_4"
