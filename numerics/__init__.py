"""Independent numerics: numba Wick counters, Monte Carlo, SDE simulators, data generators, estimators.

``numerics.models`` holds the PyTorch reference models (the only place torch is imported).
"""
