"""Small valid PyTorch inputs shared by the tests of several modules: a tiny trained gated run and its config,
rates and envelopes of a tiny gated RNN, a diagnosis from them, a GRU and its weights."""

from __future__ import annotations

import numpy as np



def gated_run():
    import fuzz_torch

    return fuzz_torch._gated_run()


def gated_config():
    import fuzz_torch

    return fuzz_torch._gated_config()


def rates_env():
    import fuzz_torch

    return fuzz_torch._rates_env()


def diagnose_rates(**kw):
    from numerics.anticollapse.spectra import diagnose_rates

    rates, env = rates_env()
    return diagnose_rates(rates, env, **{**dict(arch="diag", base_rate=np.ones(4), base_rate_method="uniform",
                                                n_boot=20), **kw})


def gru():
    import torch

    torch.manual_seed(0)
    return torch.nn.GRU(2, 4)


def rnn_weights():
    from numerics.anticollapse.gated.rnn_timescales import weights_from_state_dict

    return weights_from_state_dict(gru().state_dict())
