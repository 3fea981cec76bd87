"""``seqtheory timescales`` (seqtheory.cli.timescales): the JSON is the library's result, the text labels are
consistent, and bad arguments or a bad model file are one line, exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
import torch
from torch import nn

from numerics.anticollapse.gated import rnn_timescales as rt
from seqtheory.cli.timescales import main
from test_rnn_timescales import _save
import tiny_inputs as tiny


def test_cli_json_round_trip(tmp_path, capsys):
    torch.manual_seed(5)
    m = nn.LSTM(2, 6, batch_first=True)
    torch.save(m.state_dict(), tmp_path / "lstm.pt")
    x = np.random.default_rng(0).standard_normal((2, 48, 2))
    np.save(tmp_path / "x.npy", x)
    assert main([str(tmp_path / "lstm.pt"), "--inputs", str(tmp_path / "x.npy"), "--n-boot", "30", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ref = rt.rnn_timescales(m, x, n_boot=30).to_dict()
    assert out == json.loads(json.dumps(ref))
    assert out["cell"] == "lstm" and out["layers"][0]["n_units"] == 6 and len(out["layers"][0]["tau"]) == 6
    assert main([str(tmp_path / "lstm.pt"), "--T", "32", "--batch", "2", "--n-boot", "30"]) == 0
    text = capsys.readouterr().out
    assert "author's phase label:" in text and "calibrated phase label:" in text
    assert "resolved: True" not in text and "envelope lags reach the tau tail (spectrum resolved):" in text


@pytest.mark.parametrize("argv,msg", [
    (["--T", "8"], "--T must be"),
    (["--inputs", "x.npy", "--T", "64"], "do not apply with --inputs"),
    (["--rate-lags", "9", "3", "4"], "--rate-lags HI"),
])
def test_cli_bad_arguments(tmp_path, capsys, argv, msg):
    p = _save(tmp_path, nn.GRU(3, 4).state_dict())
    with pytest.raises(SystemExit) as e:
        main([str(p), *argv])
    assert e.value.code == 2 and msg in capsys.readouterr().err


def test_cli_module_bad_file_exits_2(tmp_path):
    (tmp_path / "bad.pt").write_bytes(b"\x00garbage")
    r = subprocess.run([sys.executable, "-m", "seqtheory", "timescales", str(tmp_path / "bad.pt")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == ""
    err = r.stderr.strip().splitlines()
    assert err[-1].startswith("seqtheory timescales: error: model file")


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def test_rnn_timescales_cli_memory_estimate(tmp_path):
    import torch

    path = tmp_path / "gru.pt"
    torch.save(torch.nn.GRU(3, 8).state_dict(), path)
    proc, wall = tiny.cli(["-m", "seqtheory", "timescales", str(path), "--T", "65536", "--batch", "65536"])
    tiny.one_line(proc, "--batch", "GiB")
    assert wall < 30


# ------------------------------------------------------------------------------------------- lags, the limit
def test_a_huge_lag_count_costs_nothing(tmp_path, capsys):
    """`--envelope-lags 1 10 1000000000` built a 10^9-point grid (8 GB, minutes; issue 43): every integer of
    [LO, HI] once N reaches their count."""
    import time

    p = _save(tmp_path, nn.GRU(2, 4).state_dict())
    t0 = time.perf_counter()
    assert main([str(p), "--T", "64", "--batch", "4", "--n-boot", "20", "--envelope-lags", "1", "10", "1000000000",
                 "--no-progress", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["layers"][0]["envelope_lags"] == list(range(1, 11))
    assert time.perf_counter() - t0 < 60


@pytest.mark.parametrize("lo, hi, n", [(1, 10, 10), (1, 10, 9), (1, 10, 11), (3, 60, 7), (2, 63, 62), (2, 63, 61),
                                       (5, 6, 2)])
def test_linear_lags_are_the_rounded_linspace(lo, hi, n):
    """The same lags as numpy's rounded linspace, at the switch (N = HI - LO + 1) and on both sides of it."""
    from seqtheory.cli.timescales import _linear_lags

    ref = np.unique(np.round(np.linspace(lo, hi, n)).astype(np.int64))
    assert np.array_equal(_linear_lags("--rate-lags", (lo, hi, n), 64), ref)


def test_lags_stay_below_the_length():
    from seqtheory.cli.timescales import _linear_lags

    assert _linear_lags("--envelope-lags", (1, 63, 3), 64).tolist() == [1, 32, 63]          # HI = T - 1
    with pytest.raises(ValueError, match="--envelope-lags HI must be"):
        _linear_lags("--envelope-lags", (1, 64, 3), 64)                                       # HI = T
    with pytest.raises(ValueError, match="--envelope-lags N must be"):
        _linear_lags("--envelope-lags", (1, 10, 1), 64)


def test_a_diagnosis_past_the_limit_is_stopped(tmp_path, monkeypatch, capsys):
    import time

    monkeypatch.setattr(rt, "rnn_timescales", lambda *a, **k: time.sleep(30))
    p = _save(tmp_path, nn.GRU(2, 4).state_dict())
    t0 = time.perf_counter()
    with pytest.raises(SystemExit) as e:
        main([str(p), "--T", "32", "--batch", "2", "--max-seconds", "0.5"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and "stopped after --max-seconds 0.5" in err
    assert time.perf_counter() - t0 < 10


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_max_seconds_is_a_positive_finite_number(tmp_path, value, capsys):
    p = _save(tmp_path, nn.GRU(2, 4).state_dict())
    with pytest.raises(SystemExit) as e:
        main([str(p), "--max-seconds", value])
    assert e.value.code == 2 and "--max-seconds" in capsys.readouterr().err
