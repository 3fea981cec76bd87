"""Causal Transformer encoder (Vaswani et al. 2017, pre-norm variant) as a map (B, T, d_in) -> (B, T, d_out).

    h_0 = W_in x + P,        h_{l+1} = h_l + MHA(LN(h_l)) ; h_{l+1} += FFN(LN(h_{l+1})),   yhat = W_out LN(h_L)

with a causal mask (position t attends to positions <= t only). The model width ``d_model`` is fixed and
split over ``heads`` heads of dimension ``d_model / heads`` (the head-width trade-off of the seed's claim
5). Positional encoding ``P``: sinusoidal ``P[t, 2j] = sin(t / 10000**(2j/d))``, ``P[t, 2j+1] = cos(...)``
(default) or learned (``N(0, 0.02^2)`` init, for sequences up to ``max_len``). Feed-forward width
``ffn_mult * d_model`` with GELU; no dropout.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from theory._args import MAX_LENGTH, MAX_MEMORY_BYTES, as_choice, as_int, check_budget

from numerics._torch import MAX_FEATURES, check_parameters

from ._common import SeqModel, as_layers


def sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """(T, d) table ``P[t, 2j] = sin(t w_j), P[t, 2j+1] = cos(t w_j)``, ``w_j = 10000**(-2j/d)``."""
    T, d = as_int("T", T, minimum=1, maximum=MAX_LENGTH), as_int("d", d, minimum=1, maximum=MAX_FEATURES)
    # float32: the table, and the (T, d/2) phases and their sine and cosine on the way
    check_budget("T x d", 12.0 * T * d, MAX_MEMORY_BYTES, value=f"{T} x {d}")
    t = torch.arange(T, dtype=torch.float32)[:, None]
    w = torch.exp(-math.log(10000.0) * torch.arange(0, d, 2, dtype=torch.float32) / d)
    P = torch.zeros(T, d)
    P[:, 0::2] = torch.sin(t * w)
    P[:, 1::2] = torch.cos(t * w)[:, : d // 2]
    return P


class Transformer(SeqModel):
    """Causal pre-norm Transformer encoder (Vaswani et al. 2017): a map (B, T, d_in) -> (B, T, d_out) in which
    position t attends to positions <= t only (module docstring: the layer equations, positional encodings).

    Parameters
    ----------
    d_model : int, default 16
        Model width, split over the heads.
    heads : int, default 2
        Attention heads; must divide ``d_model``.
    layers : int, default 1
        Encoder layers.
    pos : {"sinusoidal", "learned"}, default "sinusoidal"
        Positional encoding.
    max_len : int, default 1024
        Longest sequence of a learned encoding.
    ffn_mult : int, default 2
        Feed-forward width as a multiple of ``d_model``.
    d_in, d_out : int, default 1
        Input and output features per time step.

    Returns
    -------
    Transformer
        A ``torch.nn.Module``; calling it on a float tensor (B, T, d_in) returns (B, T, d_out).

    Raises
    ------
    TypeError, ValueError
        A bad size, ``heads`` not dividing ``d_model``, an unknown ``pos``, or too many parameters.

    Examples
    --------
    >>> import torch
    >>> Transformer(d_model=8, heads=2)(torch.zeros(2, 5, 1)).shape
    torch.Size([2, 5, 1])
    """

    def __init__(self, d_model: int = 16, heads: int = 2, layers: int = 1, *, pos: str = "sinusoidal",
                 max_len: int = 1024, ffn_mult: int = 2, d_in: int = 1, d_out: int = 1):
        super().__init__(d_in, d_out)
        self.d_model = as_int("d_model", d_model, minimum=1)
        self.heads = as_int("heads", heads, minimum=1)
        if self.d_model % self.heads:
            raise ValueError(f"heads must divide d_model (per-head width d_model/heads); got d_model="
                             f"{self.d_model}, heads={self.heads}")
        self.pos = as_choice("pos", pos, ("sinusoidal", "learned"))
        self.max_len = as_int("max_len", max_len, minimum=1)
        ffn_mult = as_int("ffn_mult", ffn_mult, minimum=1)
        layers = as_layers("layers", layers)
        d = self.d_model
        check_parameters({"d_model": d_model, "layers": layers, "ffn_mult": ffn_mult, "max_len": max_len},
                         layers * (4 + 2 * ffn_mult) * d * (d + 1) + self.max_len * d)
        self.embed = nn.Linear(self.d_in, self.d_model)
        if self.pos == "learned":
            self.pos_table = nn.Parameter(0.02 * torch.randn(self.max_len, self.d_model))
        layer = nn.TransformerEncoderLayer(self.d_model, self.heads, ffn_mult * self.d_model, dropout=0.0,
                                           activation="gelu", batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(self.d_model)
        self.readout = nn.Linear(self.d_model, self.d_out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        T = x.shape[1]
        if T > self.max_len:
            raise ValueError(f"sequence length {T} exceeds max_len={self.max_len}")
        P = self.pos_table[:T] if self.pos == "learned" else sinusoidal_encoding(T, self.d_model).to(x)
        h = self.embed(x) + P                                             # (B, T, d_model)
        mask = nn.Transformer.generate_square_subsequent_mask(T, device=x.device, dtype=x.dtype)
        h = self.encoder(h, mask=mask, is_causal=True)                    # (B, T, d_model)
        return self.readout(self.norm(h))                                 # (B, T, d_out)
