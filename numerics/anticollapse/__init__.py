"""The gated-RNN anti-collapse experiments (Livi 2026): the experiment room around ``numerics.models.gated_rnn``.

``delayed_task`` (the multi-lag delayed-recall task), ``train`` (configs, profiles, seeded training with
checkpointed diagnostics) and ``diagnostics`` (time scales, tail and envelope exponents, the phase).
The Levy-SDE numerics of the same paper live beside it in ``numerics.levy_sampling`` and ``numerics.sde``.
"""
