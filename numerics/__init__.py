"""Independent numerics: numba Wick counters, Monte Carlo, SDE simulators, data generators, estimators.

Rooms: ``numerics.models`` (the PyTorch architectures), ``numerics.memory_bench`` (the memory-function
benchmark that trains them) and ``numerics.anticollapse`` (the gated-RNN experiments). Torch is imported only
inside those three.
"""
