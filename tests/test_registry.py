"""The registry of checks: names are unique, profiles valid, and every dotted name in a check's
``closed_form`` / ``numerics`` field resolves to a real object (importlib + getattr), so the report points
at code that exists."""

import importlib
import re

import pytest

from validation.registry import PROFILES, discover, select

_DOTTED = re.compile(r"\b(?:theory|numerics)\.[A-Za-z_][A-Za-z0-9_.]*[A-Za-z0-9_]")
CHECKS = discover()


def _resolve(dotted: str):
    """Import the longest module prefix of ``dotted`` and getattr the rest."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)          # AttributeError: a name that does not exist
        return obj
    raise ModuleNotFoundError(dotted)


def test_names_and_profiles():
    assert len({c.name for c in CHECKS}) == len(CHECKS) > 0
    for c in CHECKS:
        assert set(c.profiles) <= set(PROFILES), c.name


def _param(chk):
    """A check naming code in a torch subpackage resolves only with torch installed (``torch`` marker)."""
    torch_packages = ("numerics.memory_functions.models", "numerics.memory_functions.bench", "numerics.anticollapse.gated",
                      "numerics._torch")
    torch = any(t.startswith(torch_packages) for t in _DOTTED.findall(chk.closed_form) + _DOTTED.findall(chk.numerics))
    return pytest.param(chk, id=chk.name, marks=[pytest.mark.torch] if torch else [])


@pytest.mark.parametrize("chk", [_param(c) for c in CHECKS])
def test_dotted_names_resolve(chk):
    tokens = _DOTTED.findall(chk.closed_form) + _DOTTED.findall(chk.numerics)
    assert tokens, f"{chk.name}: closed_form/numerics name no theory.* or numerics.* function"
    bad = []
    for tok in tokens:
        try:
            _resolve(tok)
        except (ImportError, AttributeError) as exc:
            bad.append(f"{tok} ({type(exc).__name__})")
    assert not bad, f"{chk.name}: unresolvable names {bad}"


def test_the_resolver_rejects_a_wrong_name():
    with pytest.raises(AttributeError):
        _resolve("theory.levy.no_such_function")
    assert _resolve("theory.levy.characteristic_root").__name__ == "characteristic_root"


def test_select_takes_globs_substrings_and_comma_separated_unions():
    names = [c.name for c in CHECKS]
    one = [n for n in names if n.startswith("architectures.heads")]
    two = [n for n in names if n.startswith("architectures.no_single_best")]
    assert one and two
    assert [c.name for c in select(CHECKS, "architectures.heads")] == one                   # substring
    assert [c.name for c in select(CHECKS, "architectures.no_single_best*")] == two          # glob
    union = [c.name for c in select(CHECKS, "architectures.no_single_best*, architectures.heads")]
    assert union == [n for n in names if n in one + two]                                     # registry order
    assert len(select(CHECKS, None)) == len(CHECKS) and [c.name for c in select(CHECKS, "architectures.heads,")] == one


@pytest.mark.parametrize("pattern, named", [
    ("no-such-check", "'no-such-check' matches no check"),                         # was: [] (a silent nothing)
    ("architectures.heads,no-such-check", "'no-such-check' matches no check"),     # was: the typo dropped
    ("signal.[", "'signal.[' is not a valid glob"),                                # was: [] (a literal '[')
    ("signal.[!", "not a valid glob"), (" , ", "holds no pattern")])
def test_select_refuses_a_pattern_that_selects_nothing(pattern, named):
    with pytest.raises(ValueError) as e:
        select(CHECKS, pattern)
    assert named in str(e.value) and repr(pattern) in str(e.value)


def test_select_keeps_fnmatch_sets():
    assert [c.name for c in select(CHECKS, "levy.tail_thresh[a-z]ld")] == ["levy.tail_threshold"]
    assert [c.name for c in select(CHECKS, "levy.tail_thresh[]o]ld")] == ["levy.tail_threshold"]   # ']' in a set


@pytest.mark.parametrize("checks, pattern", [(None, "x"), ("levy", "x"), ([1], "x"), ([], 3), ([], b"x")])
def test_select_checks_its_arguments(checks, pattern):
    with pytest.raises(TypeError, match="checks|pattern"):
        select(CHECKS if checks == [] else checks, pattern)
