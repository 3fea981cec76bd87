"""The memory-function architecture benchmark (Jiang et al. 2025) around ``numerics.memory_functions.models``;
the modules that train need PyTorch (extra ``models``).

``zoo`` (model specs -> models), ``trainer`` (seeded training), ``probe`` (memory probes of a trained
model), ``polish`` (the certified full-batch L-BFGS polish after the Adam stage, and its flat-floor
certificate), ``grouped`` (vmapped seed groups), ``runs`` (one run config -> one result), ``sweep`` (sweep
files expanded into runs, executed by ``numerics.experiments``), ``aggregate`` (rows, medians, the per-kind
score, the cells' certified floors) and ``plots`` (the sweep figures).
"""
