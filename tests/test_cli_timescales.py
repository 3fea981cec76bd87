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
