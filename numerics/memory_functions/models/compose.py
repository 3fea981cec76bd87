"""Sequential compositions ``A -> B`` of benchmark models (the seed's claim 6: LSTM -> TCN; order matters).

``Sequential(A, B)(x) = B(A(x))``: A maps the scalar input (B, T, 1) to an ``interface``-wide feature
sequence (B, T, k), B maps it to the scalar output (B, T, 1). Any models with matching widths compose,
in any order and any number of stages; the composite is causal when every stage is, and its receptive
field (for convolutional stages) adds up.
"""

from __future__ import annotations

import torch
from torch import nn

from ._common import SeqModel


class Sequential(SeqModel):
    def __init__(self, *stages: SeqModel):
        if len(stages) < 2:
            raise ValueError(f"stages: Sequential needs at least 2 stages, got {len(stages)}")
        for i, s in enumerate(stages):
            if not isinstance(s, SeqModel):
                raise TypeError(f"stages[{i}] must be a SeqModel, got {type(s).__name__}")
        for i, (a, b) in enumerate(zip(stages, stages[1:])):
            if a.d_out != b.d_in:
                raise ValueError(f"stages[{i}] outputs width {a.d_out} but stages[{i + 1}] expects d_in={b.d_in}")
        super().__init__(stages[0].d_in, stages[-1].d_out)
        self.stages = nn.ModuleList(stages)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for stage in self.stages:
            x = stage(x)                       # (B, T, width of this interface)
        return x
