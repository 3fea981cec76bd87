"""Executors for sweeps: a Dask cluster, local or remote, as a ``concurrent.futures.Executor``.

``make_executor("local", workers)`` starts an in-process ``LocalCluster`` of ``workers`` worker processes
(one thread each: small torch models are Python-bound, and torch's thread count is process-global);
``make_executor("tcp://HOST:8786", workers)`` connects to a running scheduler (``dask scheduler`` on one
machine, ``dask worker tcp://HOST:8786 --nworkers N --nthreads 1`` on each of the others); an unreachable
scheduler is an ``OSError`` after :data:`DASK_CONNECT_TIMEOUT` seconds. Needs the ``distributed`` extra.
"""

from __future__ import annotations

import re
from typing import Callable

from theory._args import as_int

DASK_CONNECT_TIMEOUT = 10.0
_ADDRESS = re.compile(r"^([a-z][a-z0-9+.-]*://)?[^\s:/]+:\d{1,5}$")      # [scheme://]host:port

__all__ = ["make_executor", "DASK_CONNECT_TIMEOUT"]


def make_executor(spec: str | None, workers: int = 1) -> tuple[object | None, Callable[[], None]]:
    """``(executor, close)`` for ``spec``: None (no executor: the sweep decides), ``"local"`` or a scheduler
    address; call ``close()`` when the sweep is done (it shuts down what this call started)."""
    workers = as_int("workers", workers, minimum=1, maximum=1024)
    if spec is None:
        return None, lambda: None
    if not isinstance(spec, str):
        raise TypeError(f"spec must be None, 'local' or a Dask scheduler address, got {type(spec).__name__}")
    if spec != "local" and not _ADDRESS.match(spec):
        raise ValueError(f"spec must be 'local' or a Dask scheduler address such as tcp://host:8786, got {spec!r:.60}")
    from dask.distributed import Client, LocalCluster

    if spec == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        cluster, client = None, Client(spec, timeout=DASK_CONNECT_TIMEOUT)

    def close():
        client.close()
        if cluster is not None:
            cluster.close()

    return client.get_executor(), close
