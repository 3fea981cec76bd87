"""PyTorch reference architectures (extra ``models``), one short file each, ``(B, T, d_in) -> (B, T, d_out)``.

``lstm``, ``s4d``, ``tcn``, ``transformer`` and ``compose`` (sequential compositions). The benchmark that
trains them is ``numerics.memory_functions.bench``; the gated RNNs of the anti-collapse paper live in
``numerics.anticollapse.gated``.
"""
