import os

# Bounds-checked numba kernels for tests: SEQTHEORY_NUMBA_BOUNDSCHECK=1 turns on numba's NUMBA_BOUNDSCHECK
# (every array index checked, an IndexError instead of a segfault), so an indexing bug in a kernel fails
# one test instead of killing the whole test process. It must be set before numba is imported, hence here.
# Slower kernels, compiled into their own cache directory. Usage:
#   SEQTHEORY_NUMBA_BOUNDSCHECK=1 python -m pytest tests/test_wick.py tests/test_sde.py tests/test_levy_sampling.py
if os.environ.get("SEQTHEORY_NUMBA_BOUNDSCHECK") == "1":
    import tempfile

    os.environ["NUMBA_BOUNDSCHECK"] = "1"
    # numba's on-disk cache key does not include the bounds-check flag: keep these kernels apart
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(tempfile.gettempdir(), "seqtheory-numba-boundscheck")

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

# Deterministic property tests: the same examples on every run (CI and local), no deadline on shared,
# noisy machines.
settings.register_profile(
    "default", derandomize=True, deadline=None, max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

_CI = os.environ.get("SEQTHEORY_CI") == "1"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI (SEQTHEORY_CI=1) a skipped test is a failure: every optional dependency must be installed."""
    outcome = yield
    rep = outcome.get_result()
    if _CI and rep.skipped and not hasattr(rep, "wasxfail"):
        rep.outcome = "failed"
        rep.longrepr = f"test skipped in CI (not allowed): {rep.longrepr}"
