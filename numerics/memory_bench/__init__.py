"""The memory-function architecture benchmark (Jiang et al. 2025): the experiment room around ``numerics.models``.

``zoo`` (model specs -> models), ``trainer`` (seeded training), ``probe`` (memory probes of a trained
model), ``polish`` (the certified full-batch L-BFGS polish after
the Adam stage, and its flat-floor certificate), ``runs`` (one run config -> one result), ``store`` (content-addressed SQLite results), ``sweep``
(plain lists of configs, resumable, parallel), ``aggregate`` (rows, medians, the per-kind score, the
cells' certified floors) and
``plots`` (the sweep figures). Importing this package imports no torch; the modules that train do.
"""
