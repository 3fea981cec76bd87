"""LSTM baseline (Hochreiter & Schmidhuber 1997) as a sequence-to-sequence map (B, T, d_in) -> (B, T, d_out).

A stacked ``torch.nn.LSTM`` (``layers`` layers of ``width`` cells, batch first) read out by a linear map at
every time step: ``yhat(t) = W h_L(t) + b``. PyTorch's default initialisation (all weights and biases
``U(-1/sqrt(width), 1/sqrt(width))``) is kept, plus the common forget-gate bias of +1 (Jozefowicz et al.
2015), which lets the cell keep memory from the start of training. With ``batchable`` set (vmapped groups),
the same layers run as :func:`numerics.memory_functions.models._lstm_scan.lstm_layer` (same parameters, same math).
"""

from __future__ import annotations

import torch
from torch import nn

from theory._args import as_int

from numerics._torch import check_parameters

from ._common import SeqModel, as_layers
from ._lstm_scan import lstm_layer


class LSTM(SeqModel):
    """LSTM baseline (Hochreiter & Schmidhuber 1997): a causal map (B, T, d_in) -> (B, T, d_out), a stacked
    ``torch.nn.LSTM`` read out linearly at every step (module docstring: initialisation, forget-gate bias +1).

    Parameters
    ----------
    width : int, default 16
        Cells per layer (>= 1).
    layers : int, default 1
        Stacked LSTM layers (>= 1).
    d_in, d_out : int, default 1
        Input and output features per time step.

    Returns
    -------
    LSTM
        A ``torch.nn.Module``; calling it on a float tensor (B, T, d_in) returns (B, T, d_out).

    Raises
    ------
    TypeError, ValueError
        A size that is not a positive integer, or a model above ``theory._args.MAX_PARAMETERS`` parameters.

    Examples
    --------
    >>> import torch
    >>> LSTM(width=8)(torch.zeros(2, 5, 1)).shape
    torch.Size([2, 5, 1])
    """

    def __init__(self, width: int = 16, layers: int = 1, *, d_in: int = 1, d_out: int = 1):
        super().__init__(d_in, d_out)
        self.width = as_int("width", width, minimum=1)
        self.layers = as_layers("layers", layers)
        w = self.width
        check_parameters({"width": width, "layers": layers, "d_in": d_in},
                         4 * w * (max(self.d_in, w) + w + 2) * self.layers)
        self.rnn = nn.LSTM(self.d_in, self.width, num_layers=self.layers, batch_first=True)
        with torch.no_grad():
            for name, p in self.rnn.named_parameters():
                if name.startswith("bias_ih"):
                    p[self.width:2 * self.width] += 1.0   # gate order (i, f, g, o): forget gate
        self.readout = nn.Linear(self.width, self.d_out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.batchable:                     # aten::lstm has no vmap batching rule
            h = x
            for k in range(self.layers):
                names = (f"weight_ih_l{k}", f"weight_hh_l{k}", f"bias_ih_l{k}", f"bias_hh_l{k}")
                h = lstm_layer(h, *(getattr(self.rnn, n) for n in names))
        else:
            h, _ = self.rnn(x)                 # (B, T, width)
        return self.readout(h)                 # (B, T, d_out)
