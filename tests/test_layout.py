"""The import graph: three layers, arrows only downward, no circles, heavy dependencies in their subpackages.

``theory`` (exact/symbolic) <- ``numerics`` (numba, Monte Carlo, torch models) <- ``validation`` (checks)
<- ``seqtheory`` (the user's package: re-exports and the command line).
See ARCHITECTURE.md. The graph is read statically from the source (``ast``), module-level and
function-level imports alike: a lazy import inside a function is still an arrow.
"""

import ast
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("theory", "numerics", "validation", "seqtheory")
LAYER = {"theory": 0, "numerics": 1, "validation": 2, "seqtheory": 3}
# the subpackages that need PyTorch (and the helper only they import); everything else in theory and numerics is core
TORCH_ROOMS = ("numerics.memory_functions.models", "numerics.memory_functions.bench", "numerics.anticollapse.gated",
               "numerics._torch")
# numerics: one subpackage per paper, the engine, and the shared helpers at the top level
PAPERS = ("numerics.signal_propagation", "numerics.memory_functions", "numerics.anticollapse")
NUMERICS_SUBPACKAGES = {"signal_propagation", "memory_functions", "anticollapse", "experiments"}
NUMERICS_HELPERS = {"__init__.py", "_config.py", "_torch.py", "plotting.py", "stats.py"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _imports(name: str, path: Path) -> set[str]:
    """Absolute names of every module imported anywhere in the file (relative imports resolved)."""
    is_pkg = path.name == "__init__.py"
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_pkg else 0)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)   # "from pkg import module"
    return out


MODULES = _modules()
GRAPH = {m: {i for i in _imports(m, p) if i in MODULES and i != m} for m, p in MODULES.items()}
RAW = {m: _imports(m, p) for m, p in MODULES.items()}


def test_the_scan_sees_the_packages():
    assert {"theory.levy", "numerics.anticollapse.sde", "validation.registry", "numerics.memory_functions.models.lstm"} <= set(MODULES)
    assert "theory.levy" in GRAPH["numerics.anticollapse.sde"]                 # a known arrow is found


# ``python -m validation`` keeps working as a launcher of ``seqtheory validate``: a ``__main__`` is an entry
# point that nothing imports, not part of the library's graph; it may import the command line and nothing else
LAUNCHERS = {"validation.__main__", "seqtheory.__main__"}


def test_arrows_point_down():
    up = [(m, i) for m, deps in GRAPH.items() if m not in LAUNCHERS for i in deps
          if LAYER[i.split(".")[0]] > LAYER[m.split(".")[0]]]
    assert not up, f"imports that point up a layer: {up}"


def test_launchers_only_launch_the_command_line():
    assert {m for m in MODULES if m.endswith("__main__")} == LAUNCHERS
    for m in LAUNCHERS:
        assert RAW[m] <= {"sys", "seqtheory.cli", "seqtheory.cli.main", "seqtheory.cli.validate",
                          "seqtheory.cli.validate.main"}, (m, RAW[m])
        assert len(MODULES[m].read_text().splitlines()) <= 12, f"{m} holds more than a launcher"


def test_command_lines_live_in_seqtheory_cli():
    """No module outside ``seqtheory.cli`` builds an argument parser or defines a ``main(argv)``."""
    bad = [m for m, p in MODULES.items() if not m.startswith("seqtheory.cli") and m not in LAUNCHERS
           and ("argparse" in RAW[m] or any(isinstance(n, ast.FunctionDef) and n.name == "main"
                                            for n in ast.parse(p.read_text()).body))]
    assert not bad, f"command-line code outside seqtheory/cli/: {bad}"


def test_torch_only_in_its_rooms():
    bad = [m for m, deps in RAW.items() if m.split(".")[0] in ("theory", "numerics")
           and any(d == "torch" or d.startswith("torch.") for d in deps)
           and not m.startswith(TORCH_ROOMS)]
    assert not bad, f"torch imported outside {TORCH_ROOMS}: {bad}"


def _closure(m: str) -> set[str]:
    seen, todo = set(), [m]
    while todo:
        for d in GRAPH[todo.pop()] - seen:
            seen.add(d)
            todo.append(d)
    return seen


def test_core_reaches_no_torch():
    """A core module (theory, numerics outside the torch subpackages) reaches no module that imports torch,
    directly or through other modules, lazily or not: the core install (no PyTorch) can run all of it. (The
    torch subpackages may hold torch-free modules that core code uses, e.g. the benchmark's aggregation.)"""
    uses_torch = {m for m, deps in RAW.items() if any(d == "torch" or d.startswith("torch.") for d in deps)}
    core = [m for m in MODULES if m.split(".")[0] in ("theory", "numerics") and not m.startswith(TORCH_ROOMS)]
    bad = {m: sorted(_closure(m) & uses_torch) for m in core}
    bad = {m: d for m, d in bad.items() if d}
    assert not bad, f"core modules that reach torch: {bad}"


def test_numerics_top_level_is_subpackages_and_shared_helpers():
    top = ROOT / "numerics"
    files = {p.name for p in top.glob("*.py")}
    dirs = {p.name for p in top.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert files == NUMERICS_HELPERS, f"numerics/ top-level files: {sorted(files ^ NUMERICS_HELPERS)}"
    assert dirs == NUMERICS_SUBPACKAGES, f"numerics/ subpackages: {sorted(dirs ^ NUMERICS_SUBPACKAGES)}"


def test_papers_do_not_import_each_other_and_the_engine_imports_no_paper():
    """Each paper's numerics stands alone (it may use the engine and the shared helpers); the engine serves
    every paper and depends on none."""
    def paper(m):
        return next((p for p in PAPERS if m == p or m.startswith(p + ".")), None)

    across = [(m, d) for m, deps in GRAPH.items() for d in deps if paper(m) and paper(d) and paper(m) != paper(d)]
    assert not across, f"imports between paper subpackages: {across}"
    engine = [(m, d) for m, deps in GRAPH.items() if m.startswith("numerics.experiments") for d in deps if paper(d)]
    assert not engine, f"the engine imports a paper subpackage: {engine}"


def test_theory_imports_neither_numba_nor_torch_statically():
    bad = [m for m, deps in RAW.items() if m.startswith("theory")
           and any(d.split(".")[0] in ("numba", "torch") for d in deps)]
    assert not bad, bad


def _cycle(graph: dict = GRAPH) -> list[str] | None:
    """A cycle of the module graph (package __init__ arrows to their own submodules excluded), or None."""
    color, stack = {}, []

    def visit(m):
        color[m] = 1
        stack.append(m)
        for d in sorted(graph[m]):
            if m == d.rsplit(".", 1)[0]:               # a package importing its own submodule
                continue
            if color.get(d) == 1:
                return stack[stack.index(d):] + [d]
            if d not in color and (c := visit(d)):
                return c
        stack.pop()
        color[m] = 2
        return None

    for m in sorted(graph):
        if m not in color and (c := visit(m)):
            return c
    return None


def test_the_cycle_finder_finds_one():
    assert _cycle({"a.x": {"a.y"}, "a.y": {"a.z"}, "a.z": {"a.x"}}) == ["a.x", "a.y", "a.z", "a.x"]
    assert _cycle({"a.x": {"a.y"}, "a.y": set()}) is None


def test_no_import_cycles():
    assert _cycle() is None, f"import cycle: {' -> '.join(_cycle())}"


def test_importing_theory_loads_neither_numba_nor_torch():
    mods = [m for m in MODULES if m.startswith("theory") and m != "theory.__main__"]
    code = ("import importlib, sys\n"
            f"for m in {mods!r}:\n    importlib.import_module(m)\n"
            "bad = [k for k in ('numba', 'torch') if k in sys.modules]\n"
            "assert not bad, bad\nprint(len(sys.modules))")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr


def test_theory_index_lists_every_module():
    import theory

    missing = [m for m in MODULES if m.startswith("theory.") and m != "theory.__main__" and m not in theory.__doc__]
    assert not missing, f"theory/__init__.py does not list {missing}"


def test_importing_seqtheory_loads_neither_numba_nor_torch():
    """The package's names load on first use: ``import seqtheory`` (and its command line module) stays cheap."""
    code = ("import sys, seqtheory, seqtheory.cli\n"
            "bad = [k for k in ('numba', 'torch', 'sympy', 'numerics', 'validation') if k in sys.modules]\n"
            "assert not bad, bad\n"
            "seqtheory.Q, seqtheory.wick_polynomial, seqtheory.memory_report\n"
            "assert 'torch' not in sys.modules\n")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
