"""Temporal convolutional network (Bai, Kolter, Koltun 2018, "An Empirical Evaluation of Generic
Convolutional and Recurrent Networks for Sequence Modeling", arXiv:1803.01271), (B, T, d_in) -> (B, T, d_out).

Level i = 0 .. levels-1 is a residual block with dilation ``d_i = 2**i``:

    h -> CausalConv(k, d_i) -> ReLU -> CausalConv(k, d_i) -> ReLU  (+ h, through a 1x1 conv if widths differ)

A causal convolution with kernel size k and dilation d reads lags 0, d, ..., (k-1) d (left zero padding
of (k-1) d keeps the length and causality). Two such convolutions per level give the exact receptive field

    R = 1 + 2 (k - 1) sum_{i<levels} 2**i = 1 + 2 (k - 1) (2**levels - 1),

i.e. the output at t depends on x(t - s) exactly for s = 0 .. R-1 (:meth:`TCN.receptive_field`, verified by
probing the Jacobian in the tests). Weights: PyTorch's default (Kaiming-uniform) initialisation; no
weight norm and no dropout (the benchmark measures approximation, not generalisation).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from theory._args import as_int

from numerics._torch import check_parameters

from ._common import MAX_TCN_LEVELS, SeqModel, as_layers

MAX_KERNEL = 1 << 16     # taps of one causal convolution (the receptive field grows with the dilations instead)


class CausalConv1d(nn.Conv1d):
    """Conv1d on (B, C, T) that pads (k-1)*dilation zeros on the left only: output t sees inputs <= t."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, *, dilation: int = 1, **kw):
        c_in, c_out = as_int("in_channels", in_channels, minimum=1), as_int("out_channels", out_channels, minimum=1)
        k = as_int("kernel_size", kernel_size, minimum=1, maximum=MAX_KERNEL)
        d = as_int("dilation", dilation, minimum=1, maximum=2 ** MAX_TCN_LEVELS)
        check_parameters({"in_channels": in_channels, "out_channels": out_channels, "kernel_size": kernel_size},
                         c_in * c_out * k + c_out)
        super().__init__(c_in, c_out, k, dilation=d, **kw)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        pad = (self.kernel_size[0] - 1) * self.dilation[0]
        return super().forward(F.pad(x, (pad, 0)))


class TemporalBlock(nn.Module):
    def __init__(self, c_in: int, c_out: int, kernel_size: int, dilation: int):
        super().__init__()
        c_in, c_out = as_int("c_in", c_in, minimum=1), as_int("c_out", c_out, minimum=1)
        k = as_int("kernel_size", kernel_size, minimum=1, maximum=MAX_KERNEL)
        check_parameters({"c_in": c_in, "c_out": c_out, "kernel_size": k}, 2 * (c_in + c_out + 1) * c_out * k)
        self.conv1 = CausalConv1d(c_in, c_out, kernel_size, dilation=dilation)
        self.conv2 = CausalConv1d(c_out, c_out, kernel_size, dilation=dilation)
        self.down = nn.Conv1d(c_in, c_out, 1) if c_in != c_out else None

    def forward(self, h: torch.Tensor) -> torch.Tensor:        # (B, C, T) -> (B, C', T)
        out = F.relu(self.conv2(F.relu(self.conv1(h))))
        res = h if self.down is None else self.down(h)
        return F.relu(out + res)


class TCN(SeqModel):
    """Temporal convolutional network (Bai, Kolter, Koltun 2018): a causal map (B, T, d_in) -> (B, T, d_out)
    of ``levels`` residual blocks with dilations 1, 2, 4, ...; receptive field
    ``R = 1 + 2 (kernel_size - 1) (2**levels - 1)`` (module docstring, :meth:`receptive_field`).

    Parameters
    ----------
    channels : int, default 16
        Channels of every block (>= 1).
    levels : int, default 6
        Residual blocks (dilation ``2**i`` at level i).
    kernel_size : int, default 2
        Taps of each causal convolution.
    d_in, d_out : int, default 1
        Input and output features per time step.

    Returns
    -------
    TCN
        A ``torch.nn.Module``; calling it on a float tensor (B, T, d_in) returns (B, T, d_out).

    Raises
    ------
    TypeError, ValueError
        A size that is not a positive integer, or above its stated maximum (levels, kernel, parameters).

    Examples
    --------
    >>> import torch
    >>> m = TCN(channels=4, levels=3)
    >>> m(torch.zeros(2, 9, 1)).shape, m.receptive_field()
    (torch.Size([2, 9, 1]), 15)
    """

    def __init__(self, channels: int = 16, levels: int = 6, kernel_size: int = 2, *, d_in: int = 1, d_out: int = 1):
        super().__init__(d_in, d_out)
        self.channels = as_int("channels", channels, minimum=1)
        self.levels = as_layers("levels", levels, maximum=MAX_TCN_LEVELS)
        self.kernel_size = as_int("kernel_size", kernel_size, minimum=2)
        c = self.channels
        check_parameters({"channels": channels, "levels": levels, "kernel_size": kernel_size},
                         2 * self.levels * self.kernel_size * c * (c + self.d_in + 1))
        self.blocks = nn.Sequential(*(
            TemporalBlock(self.d_in if i == 0 else self.channels, self.channels, self.kernel_size, 2 ** i)
            for i in range(self.levels)))
        self.readout = nn.Linear(self.channels, self.d_out)

    def receptive_field(self) -> int:
        """Number of lags the output sees: ``1 + 2 (kernel_size - 1) (2**levels - 1)``."""
        return 1 + 2 * (self.kernel_size - 1) * (2 ** self.levels - 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.blocks(x.transpose(1, 2))           # (B, channels, T)
        return self.readout(h.transpose(1, 2))       # (B, T, d_out)
