"""The gated-RNN anti-collapse experiments (Livi 2026, experiments 1-2); needs PyTorch (extra ``models``).

``gated_rnn`` (ConstGate, SharedGate, DiagGate), ``delayed_task`` (the multi-lag delayed-regression task),
``train`` (configs, sweep files, seeded training with checkpointed diagnoses), ``diagnostics`` (time scales,
envelopes, tail and envelope exponents and the phase of a trained model), ``long_horizon`` (the same
weights re-diagnosed at a longer T), ``rnn_timescales`` (the diagnosis of a user's ``nn.GRU`` / ``nn.LSTM``).
"""
