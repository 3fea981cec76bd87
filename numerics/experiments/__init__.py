"""The experiment engine every trained-model experiment runs through (no PyTorch at import).

``ids`` (canonical JSON and content-addressed run ids), ``store`` (the SQLite result store: results by run id,
claims so that sweeps sharing one store train each run once, artifacts such as trained weights).
"""
