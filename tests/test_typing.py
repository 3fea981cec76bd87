"""Typed returns (issue 44): ``mypy --strict`` on a user's script sees the type each ``method`` returns.

``typing.overload`` on the method's ``Literal``: exact -> ``Fraction``, float -> ``float``, mp -> ``mpf`` (the
static face ``theory._types.mpf``: mpmath ships no types), ball -> ``flint.arb``; a wrong annotation is an
error. mypy is in the ``test`` extra (a missing one fails, never skips). The library is found through
``MYPYPATH`` (this checkout) and its own errors are silenced as an installed package's would be
(``follow_imports = silent``); the heaviest third-party packages (torch, scipy, sympy, ...) are not analysed,
which only keeps the run short: none of them appears in the asserted signatures.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = textwrap.dedent('''\
    from fractions import Fraction

    import numpy as np

    from seqtheory import (QR, SR, LevyParams, Q, Q_all, S, characteristic_root, log_Q, log_S)

    reveal_type(Q(4, 2, method="exact"))          # line 7
    reveal_type(Q(4, 2, method="float"))
    reveal_type(Q(4, 2, method="mp", dps=30))
    reveal_type(S(4, 2, method="exact"))          # line 10
    reveal_type(S(4, 2))
    reveal_type(S(4, 2, method="mp"))
    reveal_type(Q(4, 2, method="ball"))           # line 13
    reveal_type(Q(np.array([4, 8]), 2))
    reveal_type(log_Q(4, 2))
    reveal_type(log_S(4, 2, method="mp"))         # line 16
    reveal_type(Q_all(4, 3))
    reveal_type(Q_all(4, 3, method="mp"))
    reveal_type(QR(10**6, 1000, method="mp").value)   # line 19
    reveal_type(SR(10**6, 1000).error)
    reveal_type(characteristic_root(LevyParams(eta_G=0.5, kappa=1.0, eta_J=0.0, alpha=1.5, lam=3.0)))
    reveal_type(characteristic_root(eta_G=0.5, kappa=1.0, eta_J=0.0, alpha=1.5, lam=3.0, method="mp"))  # 22
    x: Fraction = Q(4, 2, method="float")         # line 23: an error
    y: float = Q(4, 2, method="exact")            # line 24: an error
    z: float = Q(4, 2)                            # line 25: fine
    ''')

EXPECTED = {   # line -> the revealed type (a regular expression over mypy's text)
    7: r"fractions\.Fraction", 8: r"(builtins\.)?float", 9: r"theory\._types\.mpf",
    10: r"fractions\.Fraction", 11: r"(builtins\.)?float", 12: r"theory\._types\.mpf",
    13: r"flint\.types\.arb\.arb", 14: r"numpy\.ndarray\[.*numpy\.float64\]\]", 15: r"(builtins\.)?float",
    16: r"theory\._types\.mpf", 17: r"numpy\.ndarray\[.*numpy\.float64\]\]", 18: r"(builtins\.)?list\[theory\._types\.mpf\]",
    19: r"theory\._types\.mpf", 20: r"(builtins\.)?float", 21: r"(builtins\.)?float", 22: r"theory\._types\.mpf",
}

CONFIG = textwrap.dedent('''\
    [mypy]
    strict = True
    follow_imports = silent
    [mypy-torch.*,scipy.*,sympy.*,numba.*,matplotlib.*,tqdm.*,dask.*,distributed.*,pandas.*,IPython.*,jedi.*]
    follow_imports = skip
    ''')


def _mypy(tmp_path: Path) -> list[str]:
    import mypy  # noqa: F401  (the test extra's: a missing one fails here)

    script, config = tmp_path / "user_script.py", tmp_path / "mypy.ini"
    script.write_text(SCRIPT)
    config.write_text(CONFIG)
    env = {**os.environ, "MYPYPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir",
                          str(tmp_path / "cache"), "--show-error-codes", str(script)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert "error: " not in res.stderr, res.stderr
    return [ln for ln in res.stdout.splitlines() if ln.startswith(str(script)) or ln.startswith("user_script.py")]


def test_a_user_script_sees_the_type_of_each_method(tmp_path):
    lines = _mypy(tmp_path)
    revealed, errors = {}, {}
    for ln in lines:
        m = re.match(r".*user_script\.py:(\d+): (note|error): (.*)", ln)
        if m and m.group(2) == "note" and m.group(3).startswith("Revealed type is"):
            revealed[int(m.group(1))] = m.group(3).split('"')[1]
        elif m and m.group(2) == "error":
            errors[int(m.group(1))] = m.group(3)
    for line, pattern in EXPECTED.items():
        assert line in revealed, (line, lines)
        assert re.fullmatch(pattern, revealed[line]), (line, revealed[line])
    # a Fraction annotation on the float path, a float one on the exact path: errors; nothing else is
    assert set(errors) == {23, 24}, errors
    assert "Incompatible types in assignment" in errors[23] and '"float", variable has type "Fraction"' in errors[23]
    assert '"Fraction", variable has type "float"' in errors[24]


def test_the_test_extra_installs_mypy():
    text = (ROOT / "pyproject.toml").read_text()
    test_extra = re.search(r"^test = \[(.*?)\]", text, re.S | re.M).group(1)
    assert re.search(r'"mypy[>=<]', test_extra), test_extra
