"""Independent numerics, one subpackage per paper, each a different route to the numbers ``theory`` computes.

- ``numerics.signal_propagation``: Wick counters, Ginibre and quaternion Monte Carlo, the real-weight rows
  (enumeration, Pfaffian route, loop equations), real-weight regimes, the horizon Monte Carlo (Seleznova 2026).
- ``numerics.memory_functions``: memory-function targets and the memory report of any target (core);
  ``.models`` (the PyTorch architectures) and ``.bench`` (the architecture benchmark) need PyTorch
  (Jiang, Bao, Wang, Li 2025).
- ``numerics.anticollapse``: Levy sampling, the SDE, the estimators, envelope gate, calibrated phase,
  time-scale spectra (core); ``.gated`` (the gated-RNN experiments and ``rnn_timescales``) needs PyTorch
  (Livi 2026).
- ``numerics.experiments``: the experiment engine both trained-model experiments run through
  (content-addressed run ids, the SQLite result store, resumable sweeps on any executor, Dask).

Shared helpers: ``numerics.stats`` (the statistical tests), ``numerics.plotting`` (figures),
``numerics._config`` (frozen-dataclass configs), ``numerics._torch`` (device and size checks of the PyTorch
subpackages). PyTorch is imported only by ``numerics.memory_functions.models``,
``numerics.memory_functions.bench``, ``numerics.anticollapse.gated`` and ``numerics._torch``
(``tests/test_layout.py``).
"""
