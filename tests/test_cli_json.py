"""Every command's ``--json`` writes numbers in one format (issue 44; seqtheory.cli._json, docs/conventions.md):
strict JSON, every number a JSON number (mp values as number literals with all their digits, read exactly by
``json.loads(text, parse_float=decimal.Decimal)``), exact fractions ``{"numerator", "denominator"}``, balls
``{"mid", "rad"}``, never a number written as a string, never NaN or Infinity."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from fractions import Fraction

import mpmath
import pytest

from seqtheory import cli

# text that is a number in disguise: a decimal literal, a fraction "17/16", a ball "[1.0 +/- 1e-30]", "nan"
_NUMBER_TEXT = re.compile(r"-?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|-?\d+/\d+|\[.* \+/- .*\]|[+-]?(?:nan|inf(?:inity)?)",
                          re.IGNORECASE)


def _strict(text: str):
    """The JSON of ``text``, floats as Decimal; NaN / Infinity (not JSON) raise."""
    def no_constant(name):
        raise ValueError(f"not strict JSON: {name}")

    return json.loads(text, parse_float=Decimal, parse_constant=no_constant)


def _leaves(obj, path="$"):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _leaves(v, f"{path}[{i}]")
    else:
        yield path, obj


def check_number_format(text: str):
    """Parse ``text`` strictly and check every leaf: numbers are JSON numbers, no string holds a number."""
    obj = _strict(text)
    for path, v in _leaves(obj):
        assert v is None or isinstance(v, (bool, int, Decimal, str)), (path, v)
        if isinstance(v, str):
            assert not _NUMBER_TEXT.fullmatch(v.strip()), f"{path}: a number written as a string: {v!r}"
    return obj


def _json(argv, capsys, codes=(0,)):
    code = cli.main([*argv, "--json"])
    assert code in codes, (argv, code, capsys.readouterr().err)
    return check_number_format(capsys.readouterr().out)


@pytest.mark.parametrize("method", ["float", "mp", "exact", "ball"])
def test_energy(method, capsys):
    from theory.signal_energy import Q

    argv = ["energy", "--n", "1024", "--t", "64", "--method", method] + (["--dps", "40"] if method in ("mp", "ball")
                                                                          else [])
    out = _json(argv, capsys)
    with mpmath.workdps(60):
        exact = Q(1024, 64, method="exact")
        ref = mpmath.mpf(exact.numerator) / exact.denominator
        if method == "float":
            assert isinstance(out["Q"], Decimal) and float(out["Q"]) == Q(1024, 64)
        elif method == "mp":            # a number literal of 40 significant digits, all correct
            assert isinstance(out["Q"], Decimal) and len(out["Q"].as_tuple().digits) == 40
            assert abs(mpmath.mpf(str(out["Q"])) - ref) <= mpmath.mpf(10) ** -39 * ref
        elif method == "exact":
            assert Fraction(out["Q"]["numerator"], out["Q"]["denominator"]) == exact
            assert all(isinstance(out["Q"][k], int) for k in ("numerator", "denominator"))
        else:                           # the ball contains the exact value
            mid, rad = (mpmath.mpf(str(out["Q"][k])) for k in ("mid", "rad"))
            assert isinstance(out["Q"]["mid"], Decimal) and abs(mid - ref) <= rad < mpmath.mpf(10) ** -35
    assert out["dps"] == (40 if method in ("mp", "ball") else None) and isinstance(out["c"], Decimal)


def test_energy_past_float64_gives_null_and_the_log(capsys):
    out = _json(["energy", "--n", "10", "--t", "2000"], capsys)
    assert out["Q"] is None and isinstance(out["log_Q"], Decimal)


@pytest.mark.parametrize("argv,codes", [
    (["horizon", "sigma", "--n", "1024", "--t", "40", "--tol", "0.05"], (0,)),
    (["horizon", "sigma", "--n", "64", "--t", "8", "--tol", "0.05", "--method", "mp", "--dps", "30"], (0,)),
    (["horizon", "sigma", "--n", "16", "--t", "5", "--tol", "0.1", "--field", "real"], (0, 1)),
    (["horizon", "sigma", "--quantity", "Q", "--n", "4096", "--t", "100", "--tol", "0.02"], (1,)),
    (["horizon", "depth", "--n", "64", "--sigma", "1.0", "--tol", "0.05", "--field", "real"], (0,)),
    (["horizon", "table", "--n", "256", "1024", "--tol", "0.05"], (0,)),
    (["memory-report", "--kind", "poly", "--alpha", "0.5", "--T", "64"], (0,)),
    (["validate", "--list"], (0,)),
    (["sweep", "list"], (0,)),
])
def test_every_other_command(argv, codes, capsys):
    _json(argv, capsys, codes)


def test_horizon_mp_values_are_numbers_with_their_digits(capsys):
    from theory.horizon import sigma_for_horizon

    out = _json(["horizon", "sigma", "--quantity", "Q", "--n", "64", "--t", "8", "--tol", "0.05", "--method", "mp",
                 "--dps", "30"], capsys)
    ref = sigma_for_horizon(64, 8, 0.05, quantity="Q", method="mp", dps=30)
    for key in ("sigma", "deviation", "sigma_low", "sigma_high"):
        assert isinstance(out[key], Decimal) and out[key] == Decimal(mpmath.nstr(getattr(ref, key), 30)), key


def test_validate_writes_its_verdicts_in_the_format(tmp_path, capsys):
    out = _json(["validate", "--only", "wick.complex_hultman", "--report", str(tmp_path), "--no-progress"], capsys)
    assert out["counts"] == {"pass": 1} and isinstance(out["results"][0]["seconds"], Decimal)


def test_the_checker_catches_numbers_written_as_strings():
    """The check can fail: today's (issue 44) output wrote mp values as strings, exact ones as "17/16"."""
    for bad in ['{"Q": "1.0421906935950746840962071856"}', '{"Q": "17/16"}', '{"x": NaN}',
                '{"Q": "[1008391443.85672 +/- 9.42e-7]"}']:
        with pytest.raises((AssertionError, ValueError)):
            check_number_format(bad)
    assert check_number_format('{"Q": 1.0625, "regime": "critical", "n": 4}')["n"] == 4


@pytest.mark.torch
def test_the_torch_commands(tmp_path, capsys):
    """``timescales`` (NaN-free strict JSON: a non-finite float is null) and ``sweep status`` of both kinds."""
    import torch

    torch.manual_seed(0)
    torch.save(torch.nn.GRU(2, 4, batch_first=True).state_dict(), tmp_path / "gru.pt")
    out = _json(["timescales", str(tmp_path / "gru.pt"), "--T", "32", "--batch", "2", "--n-boot", "30",
                 "--no-progress"], capsys)
    assert out["cell"] == "gru" and isinstance(out["layers"][0]["tau"][0], (Decimal, type(None)))
    for name in ("gated/quick", "arch/cpu_T256"):
        status = _json(["sweep", "status", name, "--store", str(tmp_path / "none.sqlite")], capsys)
        assert all(isinstance(c["total"], int) and c["done"] == 0 for c in status.values())
