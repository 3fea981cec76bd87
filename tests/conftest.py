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


# torch is an extra ("models"): the core installs and its tests run without it. A test needs torch when its
# file imports torch or a torch subpackage (statically, anywhere in the file) or when it is marked
# ``@pytest.mark.torch`` (it reaches torch indirectly). SEQTHEORY_CORE_ONLY=1 (the CI's core-only job, a
# virtual environment without torch) leaves those out explicitly: the files are not collected, the marked
# tests are deselected, and the run says how many. Everywhere else they run, so in the full CI job a
# missing torch is an import error or a skip, i.e. a failure (above), never a silent pass.
_CORE_ONLY = os.environ.get("SEQTHEORY_CORE_ONLY") == "1"
TORCH_ROOMS = ("torch", "numerics._torch", "numerics.memory_functions.models", "numerics.memory_functions.bench",
               "numerics.anticollapse.gated")
_needs_torch_cache: dict = {}


def file_needs_torch(path) -> bool:
    """Whether a test file imports torch or a torch subpackage anywhere (read with ``ast``, not imported)."""
    import ast
    from pathlib import Path

    path = Path(path)
    key = str(path)
    if key not in _needs_torch_cache:
        names = set()
        for node in ast.walk(ast.parse(open(path, encoding="utf-8").read(), filename=key)):
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
                names.update(f"{node.module}.{a.name}" for a in node.names)
            elif (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "importorskip" and node.args
                  and isinstance(node.args[0], ast.Constant)):
                names.add(str(node.args[0].value))
        _needs_torch_cache[key] = False                 # an import cycle between helper modules ends here
        # a helper module beside the tests (``fuzz_harness`` -> ``fuzz_torch``) passes on what it imports
        helpers = [path.parent / f"{n}.py" for n in names if (path.parent / f"{n}.py").is_file()]
        _needs_torch_cache[key] = (any(n == r or n.startswith(r + ".") for n in names for r in TORCH_ROOMS)
                                   or any(file_needs_torch(h) for h in helpers))
    return _needs_torch_cache[key]


def pytest_ignore_collect(collection_path, config):
    if _CORE_ONLY and collection_path.suffix == ".py" and collection_path.name.startswith("test_"):
        return file_needs_torch(collection_path) or None
    return None


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.suffix == ".py" and file_needs_torch(item.path):
            item.add_marker(pytest.mark.torch)
    if _CORE_ONLY:
        torch_items = [i for i in items if i.get_closest_marker("torch")]
        if torch_items:
            config.hook.pytest_deselected(items=torch_items)
            items[:] = [i for i in items if not i.get_closest_marker("torch")]
