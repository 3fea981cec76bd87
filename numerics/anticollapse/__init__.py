"""The gated-RNN anti-collapse experiments (Livi 2026): the experiment room around ``numerics.models.gated_rnn``.

``delayed_task`` (the multi-lag delayed-recall task), ``train`` (configs, profiles, seeded training with
checkpointed diagnostics), ``diagnostics`` (time scales, envelopes, tail and envelope exponents, the phase)
and ``envelope_gate`` (the author's power-law-window gate, the resolution check and the calibrated
tail-vs-envelope comparison; numpy only).
The Levy-SDE numerics of the same paper live beside it in ``numerics.levy_sampling`` and ``numerics.sde``.
"""
