"""The base class every benchmark model shares: sequences in, sequences out, (B, T, d_in) -> (B, T, d_out).

Standalone models use ``d_in = d_out = 1`` (scalar input and target sequences); the stages of a
:class:`numerics.memory_functions.models.compose.Sequential` composition talk to each other through a wider interface.
"""

from __future__ import annotations

from torch import nn

from numerics._torch import MAX_FEATURES, count_parameters
from theory._args import as_int

# Stacks deeper than this are typos, not experiments (the benchmark's deepest has 8; building 10**7 layers would
# take hours, 1000 transformer layers over a second): the stated maximum of every ``layers`` / ``levels``.
MAX_LAYERS = 256
# TCN dilations are 2**level: 2**40 lags is far past any sequence a model sees
MAX_TCN_LEVELS = 40


def as_layers(name: str, value, *, maximum: int = MAX_LAYERS) -> int:
    """A layer count in ``[1, maximum]`` (default :data:`MAX_LAYERS`)."""
    return as_int(name, value, minimum=1, maximum=maximum)


class SeqModel(nn.Module):
    """A causal sequence-to-sequence model; subclasses implement ``forward(x)`` with x of shape (B, T, d_in).

    ``batchable``: compute with operations that ``torch.func.vmap`` batches (today this changes the LSTM,
    whose fused ``aten::lstm`` has no batching rule; attention keeps vmap's per-member fallback); same
    parameters, same math, equal up to float reassociation. Set on every stage by :func:`make_batchable`;
    ``numerics.memory_functions.bench.grouped`` does.
    """

    batchable = False

    def __init__(self, d_in: int = 1, d_out: int = 1):
        super().__init__()
        self.d_in = as_int("d_in", d_in, minimum=1, maximum=MAX_FEATURES)
        self.d_out = as_int("d_out", d_out, minimum=1, maximum=MAX_FEATURES)

    @property
    def n_params(self) -> int:
        """Number of trainable scalars (a complex parameter stored as (re, im) counts twice)."""
        return count_parameters(self)


def make_batchable(model: nn.Module) -> nn.Module:
    """Switch every ``SeqModel`` inside ``model`` to its vmap-batchable formulation (``SeqModel.batchable``)."""
    for m in model.modules():
        if isinstance(m, SeqModel):
            m.batchable = True
    return model
