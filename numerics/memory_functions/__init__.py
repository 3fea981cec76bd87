"""Numerics of the memory-function paper (Jiang, Bao, Wang, Li 2025, arXiv:2506.05678; ``docs/papers/memory-functions.md``).

Core (numpy only): ``targets`` (FFT targets and data sets for a memory function) and ``memory_report`` (the
memory report of any target, ranked against the committed benchmark results in
``data/cpu_architectures_results.json``).

Needs PyTorch (extra ``models``): ``models`` (LSTM, S4D, TCN, Transformer, compositions) and ``bench`` (the
architecture benchmark that trains them through ``numerics.experiments``).
"""
