r"""Time-scale diagnostics for a trained PyTorch RNN: ``torch.nn.GRU``, ``torch.nn.LSTM`` or a toolkit gated model.

Source: L. Livi, arXiv:2606.29519 (2026), as restated in ``docs/papers/anti-collapse.md`` ("Effective
learning rates, time scales, envelope" and "Estimating beta from data"). Given a trained recurrent network
and a batch of its inputs, this module computes per layer the same quantities, with the same estimators,
as the gated-RNN validation checks (:mod:`numerics.anticollapse.gated.diagnostics`): per-unit time scales, the
tail exponent beta with its bootstrap interval, the envelope with the author's window gate, the resolution
check and the phase label. Only the leak traces are cell specific; everything after them is
:func:`~numerics.anticollapse.spectra.rates_and_envelope_from_leaks` and
:func:`~numerics.anticollapse.spectra.diagnose_rates`.

Gate -> leak mapping (PyTorch's equations; gate order GRU ``(r, z, n)``, LSTM ``(i, f, g, o)``)
-----------------------------------------------------------------------------------------------
The leak ``a_p`` of unit q is the zeroth-order part of the diagonal of the one-step Jacobian of the memory
state, and ``r_p`` its remaining diagonal (so ``a_p + r_p = [J_p]_qq``, as for the toolkit's models, where
``a_p = 1 - s_p``):

- **GRU** (``h_p = (1 - z_p) n_p + z_p h_{p-1}``, ``n_p = tanh(W_in x_p + b_in + r_p (W_hn h_{p-1} + b_hn))``):
  ``a_p = z_p``, the update gate, per unit, and::

      r_p = (h_{p-1} - n_p) z_p (1 - z_p) [W_hz]_qq
            + (1 - z_p)(1 - n_p^2) (r_p [W_hn]_qq + (W_hn h_{p-1} + b_hn)_q r_p (1 - r_p) [W_hr]_qq)

  (here the first ``r_p`` on the right is GRU's reset gate); the diagonal of ``dh_p/dh_{p-1}``.
- **LSTM** (``c_p = f_p c_{p-1} + i_p g_p``, ``h_p = o_p tanh(c_p)``): the memory is the cell state;
  ``a_p = f_p``, the forget gate, per unit, and, through ``h_{p-1} = o_{p-1} tanh(c_{p-1})``::

      r_p = (c_{p-1} f_p (1 - f_p) [W_hf]_qq + g_p i_p (1 - i_p) [W_hi]_qq + i_p (1 - g_p^2) [W_hg]_qq)
            * o_{p-1} (1 - tanh^2 c_{p-1})

  the diagonal of ``dc_p/dc_{p-1}`` with ``o_{p-1}`` held fixed (its own dependence on ``c_{p-2}`` is a
  product of two recurrent weights, second order); ``o_{-1} = 0`` (the initial state is given).
- **Toolkit models** (:mod:`numerics.anticollapse.gated.gated_rnn`): ``a_p = 1 - s_p``
  (:func:`~numerics.anticollapse.gated.diagnostics.leak_and_first_order`).

Time scale (the validation checks' definition): ``tau_q = 1 / mubar_q``, ``mubar_q`` = minus the
least-squares slope of ``E_{b,t} log|Gamma_{t,l}|`` against l on the rate-lag grid, with
``Gamma_{t,l} = prod_W a_p (1 + sum_W r_p / a_p)``. For a constant leak and ``r = 0`` this is exactly
``tau_q = -1 / log a_q`` (and ``~ 1 / (1 - a_q)`` for a leak near 1); a non-decaying unit gets ``+inf``.
Default lag grids are the reference grids scaled to the input length T (the author's rate lags 64..384,
32 lags, and envelope ``linspace(4, 384, 128)`` at T = 1280, both times T / 1280). The envelope is the
author's unweighted ``mu0`` observable; there is no optimiser, so the base rate is uniform.

Multi-layer stacks: layer k's inputs are layer k-1's outputs ``h`` (inter-layer dropout is off, as in
``eval()``); ``layer=None`` diagnoses every layer, an integer one layer. Unsupported: bidirectional
stacks and LSTM ``proj_size > 0``. Inputs are batch-first ``(B, T, input_size)``. All arithmetic is
float64 (the weights are cast), recomputed step by step from the weights and checked against the
module's own outputs in ``tests/test_rnn_timescales.py``.

Loading: :func:`load_state_dict` reads a file written by ``torch.save(model.state_dict())`` (or a
checkpoint holding one under ``"model_state_dict"``, ``"state_dict"`` or ``"model"``) with
``torch.load(path, weights_only=True)``; the cell and sizes are inferred from the weight shapes
(``weight_hh_l0`` is (3H, H) for a GRU and (4H, H) for an LSTM; a toolkit model is recognised by its
``W_h.weight``). ``prefix`` selects a submodule's entries (``"rnn."`` for ``model.rnn``). Anything that
does not fit raises one ValueError naming what is wrong.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import sys
from pathlib import Path
from typing import Any, Iterator, Mapping

import numpy as np
import torch
from tqdm import tqdm          # the plain bar on stderr, as elsewhere (tqdm.auto warns in a notebook without ipywidgets)
from torch import nn

from theory._args import MAX_MEMORY_BYTES, as_choice, as_instance, as_int, as_real, check_budget

from numerics.anticollapse.spectra import (ENVELOPES, GatedDiagnostics, REFERENCE_ENVELOPE_LAGS, REFERENCE_RATE_LAGS, diagnose_rates, rates_and_envelope_from_leaks, scaled_lag_grid)

from .diagnostics import diagnose
from .gated_rnn import GatedRNN, build_gated_rnn

__all__ = ["CELLS", "RNNWeights", "RNNTimescales", "weights_from_state_dict", "load_state_dict", "as_rnn",
           "run_layer", "leak_traces", "rnn_timescales", "working_bytes", "first_order_warning"]

CELLS = ("gru", "lstm")
_GATES = {3: "gru", 4: "lstm"}
MIN_T = 16                      # the scaled rate grid needs a few distinct lags
_KEY = re.compile(r"^(weight_ih|weight_hh|bias_ih|bias_hh)_l(\d+)$")


# ---------------------------------------------------------------------------------------------- weights
@dataclasses.dataclass(frozen=True)
class RNNWeights:
    """A unidirectional GRU/LSTM stack as float64 tensors: ``layers[k]`` maps ``w_ih`` (G H, d_k),
    ``w_hh`` (G H, H), ``b_ih``, ``b_hh`` (G H,) (zeros for ``bias=False``); G = 3 (GRU) or 4 (LSTM)."""

    cell: str
    input_size: int
    hidden: int
    layers: tuple

    @property
    def num_layers(self) -> int:
        return len(self.layers)


def _tensor(name: str, v: Any) -> torch.Tensor:
    if not isinstance(v, torch.Tensor):
        raise ValueError(f"state dict entry {name!r} must be a tensor, got {type(v).__name__}")
    if not torch.is_floating_point(v):
        raise ValueError(f"state dict entry {name!r} must be floating point, got {v.dtype}")
    t = v.detach().to("cpu", torch.float64)
    if not torch.isfinite(t).all():
        raise ValueError(f"state dict entry {name!r} holds NaN or inf")
    return t


CHECKPOINT_KEYS = ("model_state_dict", "state_dict", "model")   # common checkpoint layouts around a state dict


def unwrap_checkpoint(sd: Any) -> Any:
    """The state dict inside a checkpoint ``{"model_state_dict": sd, ...}``, ``{"state_dict": sd, ...}`` or
    ``{"model": sd, ...}`` (the toolkit's ``ckpt_<epoch>.pt``); a bare state dict is returned as it is."""
    if isinstance(sd, Mapping) and not any(isinstance(v, torch.Tensor) for v in sd.values()):
        for key in CHECKPOINT_KEYS:
            if isinstance(sd.get(key), Mapping):
                return sd[key]
    return sd


def _entries(sd: Mapping, prefix: str) -> dict:
    sd = unwrap_checkpoint(sd)
    if not isinstance(sd, Mapping):
        raise ValueError(f"expected a state dict (a mapping of names to tensors), got {type(sd).__name__}; "
                         "save one with torch.save(model.state_dict(), path)")
    out = {k[len(prefix):]: v for k, v in sd.items() if isinstance(k, str) and k.startswith(prefix)}
    if "weight_hh_l0" not in out and "W_h.weight" not in out:
        hints = sorted({k[: -len(s)] for k in sd if isinstance(k, str) for s in ("weight_hh_l0", "W_h.weight")
                        if k.endswith(s)})
        hint = f"; pass prefix={hints[0]!r}" if hints else ""
        raise ValueError(f"state dict has no recurrent weights {prefix}weight_hh_l0 (nn.GRU/nn.LSTM) or "
                         f"{prefix}W_h.weight (toolkit gated model){hint}; keys: {sorted(map(str, sd))[:8]}")
    return out


def weights_from_state_dict(sd: Mapping, *, prefix: str = "") -> RNNWeights | GatedRNN:
    """The GRU/LSTM weights (or a toolkit :class:`GatedRNN`) that a state dict describes (module docstring)."""
    if not isinstance(prefix, str):
        raise TypeError(f"prefix must be a str, got {type(prefix).__name__}")
    e = _entries(sd, prefix)
    if "W_h.weight" in e:
        return _gated_from_entries(e, prefix)
    for k in e:
        if "_reverse" in k:
            raise ValueError(f"bidirectional RNNs are not supported (found {prefix}{k})")
        if k.startswith("weight_hr_l"):
            raise ValueError(f"LSTM with proj_size > 0 is not supported (found {prefix}{k})")
        if not _KEY.match(k):
            raise ValueError(f"unexpected state dict entry {prefix}{k!r} for an nn.GRU/nn.LSTM")
    w0 = _tensor(prefix + "weight_hh_l0", e["weight_hh_l0"])
    if w0.ndim != 2 or w0.shape[1] < 1 or w0.shape[0] not in (3 * w0.shape[1], 4 * w0.shape[1]):
        raise ValueError(f"{prefix}weight_hh_l0 must be (3H, H) (GRU) or (4H, H) (LSTM), got {tuple(w0.shape)}")
    H = w0.shape[1]
    G = w0.shape[0] // H
    n_layers = 1 + max(int(_KEY.match(k).group(2)) for k in e)
    layers, d = [], None
    for k in range(n_layers):
        lay = _layer(e, prefix, k, G, H, d)
        d = lay["w_ih"].shape[1] if d is None else d
        layers.append(lay)
    return RNNWeights(cell=_GATES[G], input_size=d, hidden=H, layers=tuple(layers))


def _layer(e: dict, prefix: str, k: int, G: int, H: int, d0: int | None) -> dict:
    names = {s: f"{s}_l{k}" for s in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")}
    for s in ("weight_ih", "weight_hh"):
        if names[s] not in e:
            raise ValueError(f"state dict is missing {prefix}{names[s]} (layer {k})")
    w_ih = _tensor(prefix + names["weight_ih"], e[names["weight_ih"]])
    w_hh = _tensor(prefix + names["weight_hh"], e[names["weight_hh"]])
    d = w_ih.shape[1] if (k == 0 and w_ih.ndim == 2) else H
    if w_ih.ndim != 2 or w_ih.shape != (G * H, d) or (k == 0 and d < 1):
        raise ValueError(f"{prefix}{names['weight_ih']} must be ({G * H}, {'input_size' if k == 0 else H}), "
                         f"got {tuple(w_ih.shape)}")
    if w_hh.shape != (G * H, H):
        raise ValueError(f"{prefix}{names['weight_hh']} must be ({G * H}, {H}) like layer 0, got {tuple(w_hh.shape)}")
    has = [names[s] in e for s in ("bias_ih", "bias_hh")]
    if any(has) and not all(has):
        raise ValueError(f"state dict has only one of {prefix}{names['bias_ih']} and {prefix}{names['bias_hh']}")
    b = {}
    for s in ("bias_ih", "bias_hh"):
        b[s] = _tensor(prefix + names[s], e[names[s]]) if all(has) else torch.zeros(G * H, dtype=torch.float64)
        if b[s].shape != (G * H,):
            raise ValueError(f"{prefix}{names[s]} must have shape ({G * H},), got {tuple(b[s].shape)}")
    return {"w_ih": w_ih, "w_hh": w_hh, "b_ih": b["bias_ih"], "b_hh": b["bias_hh"]}


def _gated_from_entries(e: dict, prefix: str) -> GatedRNN:
    wx, ro = e.get("W_x.weight"), e.get("readout.weight")
    if not (isinstance(wx, torch.Tensor) and wx.ndim == 2 and isinstance(ro, torch.Tensor) and ro.ndim == 2):
        raise ValueError(f"a toolkit gated model needs 2-d {prefix}W_x.weight and {prefix}readout.weight")
    if "s_const" in e:
        arch = "const"
    elif isinstance(e.get("W_s.weight"), torch.Tensor) and e["W_s.weight"].ndim == 2:
        arch = "shared" if e["W_s.weight"].shape[0] == 1 and wx.shape[0] != 1 else "diag"
    else:
        raise ValueError(f"a toolkit gated model needs {prefix}s_const (ConstGate) or a 2-d {prefix}W_s.weight")
    m = build_gated_rnn(arch, wx.shape[1], wx.shape[0], ro.shape[0])
    try:
        m.load_state_dict(e, strict=True)
    except RuntimeError as exc:
        raise ValueError(f"state dict does not fit a toolkit {arch!r} gated model: "
                         f"{' '.join(str(exc).split())[:300]}") from None
    for k, v in m.state_dict().items():
        _tensor(prefix + k, v)                  # finite floats only
    return m.double().eval()


def load_state_dict(path: str | os.PathLike, *, prefix: str = "") -> RNNWeights | GatedRNN:
    """Read ``path`` with ``torch.load(path, weights_only=True)`` and infer the RNN (module docstring)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"path: model file {p}: no such file")
    try:
        sd = torch.load(p, map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 -- torch raises several types (pickle, zip, runtime) for bad files
        msg = " ".join(str(exc).split())[:200]
        raise ValueError(f"model file {p} is not a state dict readable with torch.load(weights_only=True) "
                         f"(save one with torch.save(model.state_dict(), path)): {type(exc).__name__}: {msg}") from None
    return weights_from_state_dict(sd, prefix=prefix)


def as_rnn(model: Any, *, prefix: str = "") -> RNNWeights | GatedRNN:
    """Read a recurrent network in any of the accepted forms: a PyTorch GRU/LSTM, a toolkit gated RNN, a
    state dict or a file.

    ``nn.GRU`` and ``nn.LSTM`` (unidirectional, no projection), a state dict or a path to one become
    :class:`RNNWeights` (float64 copies; the cell and the sizes are inferred from the weight shapes, module
    docstring, section "Loading"); a toolkit :class:`~numerics.anticollapse.gated.gated_rnn.GatedRNN` and an
    ``RNNWeights`` are returned as they are, and a state dict of a toolkit gated model becomes one.

    Parameters
    ----------
    model : torch.nn.GRU, torch.nn.LSTM, GatedRNN, RNNWeights, Mapping or str or os.PathLike
        The network, its state dict (or a checkpoint holding one under ``"model_state_dict"``,
        ``"state_dict"`` or ``"model"``), or a file written by ``torch.save(model.state_dict(), path)``.
    prefix : str, default ""
        Selects a submodule's entries of a state dict or file (``"rnn."`` for ``model.rnn``).

    Returns
    -------
    RNNWeights or GatedRNN
        The weights of a GRU/LSTM stack, or the toolkit model.

    Raises
    ------
    TypeError
        Another kind of module or object, ``prefix`` not a str.
    ValueError
        A bidirectional RNN or an LSTM with a projection, a state dict that does not describe a supported
        RNN (the message names the entry), a file that is missing or not readable with
        ``torch.load(weights_only=True)``.

    Examples
    --------
    >>> w = as_rnn(nn.LSTM(4, 6, num_layers=2))
    >>> w.cell, w.input_size, w.hidden, w.num_layers, w.layers[1]["w_hh"].shape    # (4H, H) for an LSTM
    ('lstm', 4, 6, 2, torch.Size([24, 6]))
    >>> gru = nn.GRU(3, 5)
    >>> sd = {"rnn." + k: v for k, v in gru.state_dict().items()}                 # a submodule's entries
    >>> v = as_rnn(sd, prefix="rnn.")
    >>> v.cell, bool(torch.equal(v.layers[0]["w_ih"], gru.weight_ih_l0.detach().double()))
    ('gru', True)
    >>> as_rnn(nn.GRU(3, 5, bidirectional=True))
    Traceback (most recent call last):
    ...
    ValueError: bidirectional RNNs are not supported
    """
    if isinstance(model, (RNNWeights, GatedRNN)):
        return model
    if isinstance(model, (nn.GRU, nn.LSTM)):
        if model.bidirectional:
            raise ValueError("bidirectional RNNs are not supported")
        return weights_from_state_dict(model.state_dict())
    if isinstance(model, nn.Module):
        raise TypeError(f"model must be an nn.GRU, nn.LSTM or toolkit GatedRNN, got {type(model).__name__}")
    if isinstance(model, (str, os.PathLike)):
        return load_state_dict(model, prefix=prefix)
    if isinstance(model, Mapping):
        return weights_from_state_dict(model, prefix=prefix)
    raise TypeError(f"model must be an nn.GRU, nn.LSTM, GatedRNN, state dict or path, got {type(model).__name__}")


# ---------------------------------------------------------------------------------------------- dynamics
def _diag_blocks(w_hh: torch.Tensor, G: int) -> list[torch.Tensor]:
    H = w_hh.shape[1]
    return [torch.diagonal(w_hh[j * H:(j + 1) * H]) for j in range(G)]


def _gru_leaks(lay: dict, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """GRU layer, step by step (PyTorch's equations): ``(h, a, r)``, each (B, T, H); ``a = z``."""
    B, T, _ = x.shape
    H = lay["w_hh"].shape[1]
    gi = x @ lay["w_ih"].T + lay["b_ih"]                                  # (B, T, 3H)
    dr, dz, dn = _diag_blocks(lay["w_hh"], 3)
    out, A, R = (x.new_empty(B, T, H) for _ in range(3))
    h = x.new_zeros(B, H)
    for t in range(T):
        gh = h @ lay["w_hh"].T + lay["b_hh"]
        i_r, i_z, i_n = gi[:, t].split(H, dim=1)
        h_r, h_z, h_n = gh.split(H, dim=1)
        rg = torch.sigmoid(i_r + h_r)
        z = torch.sigmoid(i_z + h_z)
        n = torch.tanh(i_n + rg * h_n)
        A[:, t] = z
        R[:, t] = (h - n) * z * (1 - z) * dz + (1 - z) * (1 - n * n) * (rg * dn + h_n * rg * (1 - rg) * dr)
        h = (1 - z) * n + z * h
        out[:, t] = h
    return out, A, R


def _lstm_leaks(lay: dict, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """LSTM layer, step by step: ``(h, a, r)``, each (B, T, H); ``a = f`` on the cell state."""
    B, T, _ = x.shape
    H = lay["w_hh"].shape[1]
    gi = x @ lay["w_ih"].T + lay["b_ih"] + lay["b_hh"]                    # (B, T, 4H)
    di, df, dg, _ = _diag_blocks(lay["w_hh"], 4)
    out, A, R = (x.new_empty(B, T, H) for _ in range(3))
    h, c, dh_dc = x.new_zeros(B, H), x.new_zeros(B, H), x.new_zeros(B, H)   # dh_{-1}/dc_{-1} = 0
    for t in range(T):
        i, f, g, o = (gi[:, t] + h @ lay["w_hh"].T).split(H, dim=1)
        i, f, g, o = torch.sigmoid(i), torch.sigmoid(f), torch.tanh(g), torch.sigmoid(o)
        A[:, t] = f
        R[:, t] = (c * f * (1 - f) * df + g * i * (1 - i) * di + i * (1 - g * g) * dg) * dh_dc
        c = f * c + i * g
        tc = torch.tanh(c)
        h = o * tc
        dh_dc = o * (1 - tc * tc)
        out[:, t] = h
    return out, A, R


def run_layer(w: RNNWeights, k: int, x: Any) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Layer ``k`` of the stack on its inputs ``x`` (B, T, d_k): ``(h, a, r)`` as float64 tensors (B, T, H),
    the outputs, the leak and the first-order term (module docstring)."""
    as_instance("w", w, RNNWeights, "RNNWeights (weights_from_state_dict)")
    k = as_int("layer", k, minimum=0, maximum=w.num_layers - 1)
    x = _check_inputs(x, w.input_size if k == 0 else w.hidden, min_t=1)
    with torch.no_grad():
        return (_gru_leaks if w.cell == "gru" else _lstm_leaks)(w.layers[k], x)


def _check_inputs(x: Any, d_in: int, *, min_t: int = MIN_T) -> torch.Tensor:
    """The inputs ``x`` (B, T, d_in) as a float64 tensor: real, finite, ``T >= min_t`` (the rate-lag grid)."""
    if isinstance(x, torch.Tensor):
        x = x.detach().cpu()
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError):            # ragged nested lists: not an array at all
        arr = np.asarray(None)
    if not (np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)) or arr.dtype == bool:
        raise ValueError(f"x (the inputs) must be a real array of shape (B, T, {d_in}), got dtype {arr.dtype}")
    if arr.ndim != 3 or arr.shape[2] != d_in or arr.shape[0] < 1:
        raise ValueError(f"x (the inputs) must have shape (B, T, input_size) = (B, T, {d_in}) (batch first), "
                         f"got {arr.shape}")
    if arr.shape[1] < min_t:
        raise ValueError(f"x (the inputs) needs T >= {min_t} steps for the rate-lag grid, got T = {arr.shape[1]}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"x (the inputs) holds {int(np.size(arr) - np.count_nonzero(np.isfinite(arr)))} NaN or "
                         "inf values")
    return torch.as_tensor(arr, dtype=torch.float64)


def leak_traces(w: RNNWeights, x: Any, layer: int, *, batch: int = 64) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(a, r)`` of layer ``layer`` for ``batch`` sequences at a time, float64 numpy (B_i, T, H): the input
    of :func:`~numerics.anticollapse.spectra.rates_and_envelope_from_leaks`. Arguments are checked when
    it is called, not when the first chunk is drawn."""
    as_instance("w", w, RNNWeights, "RNNWeights (weights_from_state_dict)")
    x = _check_inputs(x, w.input_size)
    layer = as_int("layer", layer, minimum=0, maximum=w.num_layers - 1)
    return _leak_chunks(w, x, layer, as_int("batch", batch, minimum=1))


def _leak_chunks(w: RNNWeights, x, layer: int, batch: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    for s in range(0, x.shape[0], batch):
        u = x[s:s + batch]
        for k in range(layer):
            u = run_layer(w, k, u)[0]
        _, a, r = run_layer(w, layer, u)
        yield a.numpy(), r.numpy()


# ---------------------------------------------------------------------------------------------- diagnostics
_LEAK = {"gru": "a_p = z_p (update gate; h_p = (1 - z_p) n_p + z_p h_{p-1})",
         "lstm": "a_p = f_p (forget gate on the cell state; c_p = f_p c_{p-1} + i_p g_p)",
         "gated": "a_p = 1 - s_p (toolkit gated RNN; h_p = (1 - s_p) h_{p-1} + s_p tanh_p)"}
TAU_DEFINITION = ("tau_q = 1/mubar_q, mubar_q = -LS slope of E_{b,t} log|Gamma_{t,l}| vs l on the rate lags, "
                  "Gamma_{t,l} = prod_W a_p (1 + sum_W r_p/a_p) (the validation checks' estimator)")


def _jsonable(v):
    """``v`` with plain Python numbers; a non-finite float is None (JSON null: strict JSON has no NaN or
    infinity; ``n_finite_tau`` counts the finite time scales)."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, np.ndarray)):
        return [_jsonable(x) for x in (v.tolist() if isinstance(v, np.ndarray) else v)]
    if isinstance(v, (np.floating, np.integer, np.bool_)):
        return _jsonable(v.item())
    return v


@dataclasses.dataclass
class RNNTimescales:
    """The time-scale spectrum of every diagnosed layer of a recurrent network, with its phase diagnosis.

    Returned by :func:`rnn_timescales`; ``to_dict()`` for JSON.

    Parameters
    ----------
    cell : str
        "gru", "lstm", or the toolkit's gated architecture ("const", "shared", "diag").
    input_size, hidden, num_layers : int
        The network's sizes.
    T : int
        Length of the input sequences.
    n_sequences : int
        Sequences run.
    layers : dict
        Layer index -> :class:`~numerics.anticollapse.spectra.GatedDiagnostics` (``tau``, ``tail``,
        ``gate``, ``phase``, ...).
    leak : str
        The leak mapping used (which gate sets the time scale).
    tau_definition : str
        How ``tau`` is defined from the leak.

    Returns
    -------
    RNNTimescales
        A record.

    Examples
    --------
    >>> res = rnn_timescales(nn.GRU(2, 8), np.zeros((2, 64, 2)), n_boot=20)
    >>> res.cell, res.hidden, sorted(res.layers)
    ('gru', 8, [0])
    """

    cell: str                   # "gru" | "lstm" | the toolkit arch ("const", "shared", "diag")
    input_size: int
    hidden: int
    num_layers: int
    T: int
    n_sequences: int
    layers: dict[int, GatedDiagnostics]
    leak: str
    tau_definition: str = TAU_DEFINITION

    def to_dict(self) -> dict:
        """JSON-ready: sizes, the leak mapping, and per layer the decisive numbers and the per-unit tau."""
        rows = []
        for k, d in self.layers.items():
            s = {key: v for key, v in d.summary().items() if key not in ("epoch", "step", "arch")}
            rows.append({"layer": k, **s, "warning": first_order_warning(s).strip(), "rate_lags": d.rates.lags,
                         "envelope_lags": d.envelope.lags, "tau": d.tau})
        head = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "layers"}
        return _jsonable({**head, "layers": rows})


def rnn_timescales(model: Any, x: Any, *, layer: int | None = None, prefix: str = "", rate_lags=None,
                   envelope_lags=None, envelope: str = "mu0", n_boot: int = 2000, level: float = 0.90,
                   seed: int = 0, batch: int = 64, window_stride: int = 1,
                   progress: bool | None = None) -> RNNTimescales:
    """Diagnose a trained recurrent network: per-unit time scales, tail exponent, envelope gate and phase.

    Per layer, the quantities and estimators of the gated-RNN validation checks (Livi (2026),
    arXiv:2606.29519, as restated in ``docs/papers/anti-collapse.md``; module docstring: the gate -> leak
    mapping of each cell and the time-scale definition ``tau_q = 1 / mubar_q``): per-unit time scales, the
    tail exponent beta with its bootstrap interval, the envelope with the author's window gate, the
    resolution check and the phase label. Everything is float64 and recomputed step by step from the
    weights; only forward passes, no training.

    Parameters
    ----------
    model : torch.nn.GRU, torch.nn.LSTM, GatedRNN, Mapping or str or os.PathLike
        The network (unidirectional, no projection), a state dict or a path to one (:func:`as_rnn`).
    x : array_like or torch.Tensor
        Inputs ``(B, T, input_size)``, batch first, finite, ``T >= 16``.
    layer : int, optional
        The layer to diagnose (None: every layer).
    prefix : str, default ""
        Selects a submodule's entries of a state dict or file.
    rate_lags, envelope_lags : array_like of int, optional
        Lag grids below T (default: the reference grids scaled to T, module docstring).
    envelope : {"mu0", "gelr"}, default "mu0"
        The envelope observable (``"mu0"``: the author's, unweighted).
    n_boot : int, default 2000
        Bootstrap resamples of the tail and envelope intervals.
    level : float, default 0.90
        Interval level, in (0, 1).
    seed : int, default 0
        Seed of the bootstraps.
    batch : int, default 64
        Sequences run at a time (bounds the memory, :func:`working_bytes`).
    window_stride : int, default 1
        Stride of the windows of the rate estimate
        (:func:`~numerics.anticollapse.gated.diagnostics.diagnose`).
    progress : bool, optional
        A bar per layer on stderr (a diagnosis takes seconds per layer); None: shown when more than one layer
        is diagnosed.

    Returns
    -------
    RNNTimescales
        The sizes, the leak mapping, and per diagnosed layer a
        :class:`~numerics.anticollapse.spectra.GatedDiagnostics` (``tau``, ``tail``, ``gate``, ``phase``...);
        ``to_dict()`` for JSON.

    Raises
    ------
    TypeError
        ``model`` of an unsupported kind, an argument of the wrong type (named).
    ValueError
        Inputs of the wrong shape, too short or not finite, a layer out of range, an unsupported or
        malformed network, or a working memory above ``theory._args.MAX_MEMORY_BYTES``.

    Examples
    --------
    A GRU whose update gate is a constant ``z = sigmoid(b_iz)`` per unit (input and recurrent weights of
    the gate zero) and whose first-order term vanishes (diagonals of the other recurrent blocks zero) has
    the time scales ``tau = -1 / log z`` exactly:

    >>> gru = nn.GRU(3, 20)
    >>> with torch.no_grad():
    ...     _ = gru.weight_ih_l0[20:40].zero_(), gru.weight_hh_l0[20:40].zero_(), gru.bias_hh_l0.zero_()
    ...     _ = gru.weight_hh_l0[0:20].fill_diagonal_(0.0), gru.weight_hh_l0[40:60].fill_diagonal_(0.0)
    ...     _ = gru.bias_ih_l0[20:40].copy_(torch.logit(torch.linspace(0.5, 0.99, 20, dtype=torch.float64)))
    >>> res = rnn_timescales(gru, np.zeros((2, 64, 3)), n_boot=50)
    >>> tau = res.layers[0].tau          # z = sigmoid(b_iz) exactly, r = 0: tau = -1 / log z
    >>> a = torch.sigmoid(gru.bias_ih_l0[20:40].detach().double()).numpy()
    >>> bool(np.allclose(tau, -1 / np.log(a), rtol=1e-12))
    True
    """
    net = as_rnn(model, prefix=prefix)
    gated = isinstance(net, GatedRNN)
    d_in, H = (net.d_in, net.hidden) if gated else (net.input_size, net.hidden)
    n_layers = 1 if gated else net.num_layers
    xt = _check_inputs(x, d_in)
    B, T = xt.shape[:2]
    batch = as_int("batch", batch, minimum=1)
    check_budget("x", working_bytes(B, T, d_in, H, batch), MAX_MEMORY_BYTES, value=f"shape {tuple(xt.shape)}")
    layers = list(range(n_layers)) if layer is None else [as_int("layer", layer, minimum=0, maximum=n_layers - 1)]
    rl = scaled_lag_grid(T, *REFERENCE_RATE_LAGS) if rate_lags is None else np.asarray(rate_lags)
    el = scaled_lag_grid(T, *REFERENCE_ENVELOPE_LAGS) if envelope_lags is None else np.asarray(envelope_lags)
    envelope = as_choice("envelope", envelope, ENVELOPES)
    level = as_real("level", level, minimum=0.0, maximum=1.0, open_min=True, open_max=True)
    kw = dict(n_boot=n_boot, level=level, seed=seed)
    out = {}
    if progress is None:
        progress = not gated and len(layers) > 1
    if not isinstance(progress, (bool, np.bool_)):
        raise TypeError(f"progress must be True, False or None (automatic), got {progress!r}")
    bar = tqdm(total=1 if gated else len(layers), desc=f"diagnosing {net.arch if gated else net.cell} layers",
               unit="layer", disable=not progress, leave=False, file=sys.stderr)
    if gated:
        m = build_gated_rnn(net.arch, net.d_in, net.hidden, net.d_out).double()
        m.load_state_dict(net.state_dict())             # a float64 copy: the caller's model is left alone
        out[0] = diagnose(m, xt, rate_lags=rl, envelope_lags=el, envelope=envelope, batch=batch,
                          window_stride=window_stride, **kw)
        bar.update()
    for k in ([] if gated else layers):
        rates, env = rates_and_envelope_from_leaks(leak_traces(net, xt, k, batch=batch), T=T, hidden=H,
                                                   rate_lags=rl, envelope_lags=el, envelope=envelope,
                                                   window_stride=window_stride)
        out[k] = diagnose_rates(rates, env, arch=f"nn.{net.cell.upper()} layer {k}", base_rate=np.ones(H),
                                base_rate_method="uniform (no optimiser)", **kw)
        bar.update()
    bar.close()
    cell = net.arch if gated else net.cell
    return RNNTimescales(cell=cell, input_size=d_in, hidden=H, num_layers=n_layers, T=T, n_sequences=B,
                         layers=out, leak=_LEAK["gated" if gated else cell])


def working_bytes(B: int, T: int, d_in: int, H: int, batch: int) -> float:
    """Up-front memory estimate: the inputs in float64 (and their tensor copy), plus per chunk of ``batch``
    sequences the traces of a layer (hidden states, gates, leaks: ~8 float64 arrays of (batch, T, H))."""
    B, T, d_in, H, batch = (as_int(k, v, minimum=1) for k, v in (("B", B), ("T", T), ("d_in", d_in), ("H", H),
                                                                 ("batch", batch)))
    return 8.0 * B * T * d_in * 2 + 8.0 * min(batch, B) * T * H * 8


FIRST_ORDER_WARN = 0.5     # median |sum_W r/a| above this: the first-order expansion is no longer small



def first_order_warning(s: dict) -> str:
    """A warning line when the first-order term at the largest rate lag is large (median ``|sum r/a|`` above
    :data:`FIRST_ORDER_WARN`): tau then carries a large correction to the leak; '' otherwise."""
    as_instance("s", s, dict, "dict (a GatedDiagnostics summary)")
    m = s.get("first_order_size_median", 0.0)
    if not m > FIRST_ORDER_WARN:
        return ""
    return (f"  warning: the first-order term is large (median |sum r/a| = {m:.3g} > {FIRST_ORDER_WARN} at the "
            f"largest rate lag): tau includes a large first-order correction; leak-only tau median "
            f"{s.get('tau_leak_median', float('nan')):.4g}")
