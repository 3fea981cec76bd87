"""Numerics of the anti-collapse paper (Livi 2026, arXiv:2606.29519; ``docs/papers/anti-collapse.md``).

Core (numpy, numba): ``levy_sampling`` (stable and tempered-stable increments), ``sde`` (the Levy SDE
ensemble), ``sde_tail`` (beta from a simulation: the recipe as one function, ``beta_from_sde``), ``estimators`` (tail and envelope exponents, the phase rule), ``envelope_gate`` (the author's
power-law-window gate, the resolution check, the calibrated tail-vs-envelope comparison),
``calibrated_phase`` (our phase decision), ``synthetic_spectra`` (spectra of known shape pushed through
the diagnosis, for the calibration).

Needs PyTorch (extra ``models``): ``gated`` (the gated-RNN experiments: the models, the delayed task,
training, the diagnoses of trained weights, ``rnn_timescales`` for a user's GRU/LSTM).
"""
