"""PyTorch reference architectures (optional extra ``models``), one short file each, ``(B, T, d_in) -> (B, T, d_out)``.

``lstm``, ``s4d``, ``tcn``, ``transformer``, ``compose`` (sequential compositions) and ``gated_rnn`` (the
anti-collapse gated recurrences). The experiments that train them live in ``numerics.memory_bench`` and
``numerics.anticollapse``; torch is imported only by these three packages.
"""
