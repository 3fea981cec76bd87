"""(private) The time limit of the command lines that have ``--max-seconds``: an up-front estimate refuses what
would clearly take longer (each command estimates its own work), and :func:`deadline` stops whatever the
estimate missed once the limit has passed, for every method and path alike: no command runs past its limit."""

from __future__ import annotations

import contextlib
import signal
import threading


_MAX_TIMER = 1e8          # seconds (three years): past it, or not a number, no timer (the parsers refuse such limits)


class OverLimit(TimeoutError):
    """The computation ran past ``--max-seconds`` (raised by :func:`deadline`)."""


@contextlib.contextmanager
def deadline(seconds: float, what: str = "the computation"):
    """Raise :class:`OverLimit` in the block once it has run ``seconds`` (wall clock; ``SIGALRM``).

    Python code is stopped between two bytecodes, so a long mpmath or python-flint loop stops within one of its
    steps. Outside the main thread, or where there is no ``setitimer``, the block runs without the stop (the
    up-front estimate still applies).

    >>> import time
    >>> with deadline(0.05):
    ...     time.sleep(1)
    Traceback (most recent call last):
    ...
    seqtheory.cli._limits.OverLimit: the computation was stopped after --max-seconds 0.05: it took longer than estimated up front; raise --max-seconds to let it finish
    """
    if (threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer")
            or not 0 < seconds < _MAX_TIMER):
        yield
        return

    def stop(signum, frame):
        raise OverLimit(f"{what} was stopped after --max-seconds {seconds:g}: it took longer than estimated up "
                        "front; raise --max-seconds to let it finish")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
