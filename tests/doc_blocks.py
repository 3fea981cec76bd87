"""(test helper) The code blocks of the README and the docs pages, and how to run them.

A page's fenced blocks are read with markdown-it (the parser of the docs site's MyST). By language:

* ``python``: a block with ``>>>`` prompts runs through doctest (its output must match); a plain block is
  executed. The blocks of one page share one namespace, in page order.
* ``console``: ``$ COMMAND`` lines run (``seqtheory ...`` or ``python ...``), in one folder per page; the lines
  after a command are its shown output: text is compared with doctest's ``...`` (ELLIPSIS) and whitespace
  rules; after a ``--json`` command every ``"key": value`` pair the page shows must be in the output (a value
  shown with trailing ``...`` is a prefix of the printed number).
* ``bash``: every command line runs; exit status 0.
* ``text``, ``bibtex``, directives (``{toctree}``): not code.

A block that cannot run in CI (hours of CPU, a cluster, an install into the running environment) carries the
line ``# not run by the docs test: REASON`` inside it, which readers see, and is listed in
``tests/test_doc_blocks.py``'s skip list. An indented (unfenced) code block has no language: a page may not
have one.
"""

from __future__ import annotations

import dataclasses
import decimal
import doctest
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP_MARK = "# not run by the docs test:"
PYTHON = {"python", "pycon", "py"}
SHELL = {"console", "bash", "sh", "shell"}
NOT_CODE = {"text", "bibtex", "json"}
# a page that runs from an installed wheel says so: its blocks run in the wheel's environment (test_wheel.py)
WHEEL_PHRASE = "on this page works from an installed wheel"


@dataclasses.dataclass
class Block:
    page: str          # path relative to the repository root
    line: int          # 1-based line of the opening fence
    lang: str
    text: str

    @property
    def skipped(self) -> bool:
        return SKIP_MARK in self.text

    def __str__(self) -> str:
        return f"{self.page}:{self.line} ({self.lang})"


def pages() -> list[Path]:
    """README.md and every Markdown page under docs/ (generated API stubs and build output excluded)."""
    docs = [p for p in sorted((ROOT / "docs").rglob("*.md"))
            if not {"_build", "generated"} & set(p.relative_to(ROOT).parts)]
    return [ROOT / "README.md", *docs]


def blocks(page: Path) -> list[Block]:
    """Every code block of ``page``; an indented block gets the language ``"<indented>"``."""
    from markdown_it import MarkdownIt

    rel = page.relative_to(ROOT).as_posix()
    out = []
    for tok in MarkdownIt("commonmark").parse(page.read_text(encoding="utf-8")):
        if tok.type == "fence":
            out.append(Block(rel, tok.map[0] + 1, (tok.info.split() or [""])[0], tok.content))
        elif tok.type == "code_block":
            out.append(Block(rel, tok.map[0] + 1, "<indented>", tok.content))
    return out


def is_wheel_page(page: Path) -> bool:
    return WHEEL_PHRASE in page.read_text(encoding="utf-8")


# ------------------------------------------------------------------------------------------ shell blocks
def commands(block: Block) -> list[tuple[str, str]]:
    """``(command, shown output)`` pairs: console ``$`` lines with the lines after them, or bash lines
    (``\\`` continuations joined, comments dropped) with no output."""
    lines = block.text.splitlines()
    out: list[tuple[str, str]] = []
    if block.lang == "console":
        for line in lines:
            if line.startswith("$ "):
                out.append((line[2:], ""))
            elif out:
                out[-1] = (out[-1][0], out[-1][1] + line + "\n")
        return out
    joined, cur = [], ""
    for line in lines:
        cur += line.rstrip()[:-1] + " " if line.rstrip().endswith("\\") else line
        if not line.rstrip().endswith("\\"):
            joined.append(cur)
            cur = ""
    for line in joined:
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        if line:
            out.append((line, ""))
    return out


def argv(command: str, seqtheory: list[str], python: str) -> list[str]:
    """The argument vector of a documented command: ``seqtheory ...`` through ``seqtheory`` (a list: the
    program and its leading arguments), ``python ...`` through ``python``; anything else is a ValueError."""
    words = shlex.split(command)
    if words[0] == "seqtheory":
        return [*seqtheory, *words[1:]]
    if words[0] == "python":
        return [python, *words[1:]]
    raise ValueError(f"not a seqtheory or python command: {command!r} (mark the block '{SKIP_MARK} REASON')")


def run_command(command: str, shown: str, cwd: Path, *, seqtheory: list[str], python: str,
                env: dict) -> subprocess.CompletedProcess:
    """Run one documented command in ``cwd`` and check it: exit status 0 (1 for an infeasible ``horizon
    sigma``, whose exit status the page documents), and the shown output (module docstring)."""
    args = argv(command, seqtheory, python)
    res = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    allowed = (0, 1) if command.startswith("seqtheory horizon sigma") else (0,)
    assert res.returncode in allowed and (res.returncode == 0 or not res.stderr), \
        f"{command}: exit {res.returncode}\n{res.stdout[-2000:]}\n{res.stderr[-2000:]}"
    if shown.strip():
        if "--json" in command.split():
            check_json_shown(command, shown, res.stdout)
        else:
            checker = doctest.OutputChecker()
            flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
            assert checker.check_output(shown, res.stdout, flags), \
                f"{command}: the page shows\n{shown}\nthe command prints\n{res.stdout}"
    return res


_PAIR = re.compile(r'"(\w+)":\s*("(?:[^"\\]|\\.)*"|-?[\d.]+(?:[eE][-+]?\d+)?(?:\.\.\.)?|true|false|null|\{\})')


def _find(obj, key):
    """The values of ``key`` anywhere in ``obj``."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == key:
                yield v
            yield from _find(v, key)
    elif isinstance(obj, list):
        for v in obj:
            yield from _find(v, key)


def _same(shown: str, actual) -> bool:
    """Whether the value a page shows is the printed one: a number rounded to its shown digits, or with
    ``...`` a prefix of it (``3.62...e-06``: a prefix of the mantissa, the same exponent); a string equal, or
    with ``...`` at its end or start a prefix or suffix of it."""
    sci = re.fullmatch(r"(-?\d+\.\d*)\.\.\.[eE]([-+]?\d+)", shown)
    if sci:
        mant, _, exp = format(decimal.Decimal(actual), "e").partition("e") if isinstance(actual, decimal.Decimal) \
            else ("", "", "")
        return bool(mant) and mant.startswith(sci.group(1)) and int(exp) == int(sci.group(2))
    if shown.startswith('"...'):                                 # a suffix of the printed text
        return isinstance(actual, str) and actual.endswith(json.loads('"' + shown[4:]))
    if shown.endswith("..."):                                    # a prefix of the printed number
        return isinstance(actual, decimal.Decimal) and str(actual).startswith(shown[:-3])
    if shown.startswith('"') and shown.endswith('..."'):         # a prefix of the printed text
        return isinstance(actual, str) and actual.startswith(json.loads(shown[:-4] + '"'))
    value = json.loads(shown, parse_float=decimal.Decimal)
    if isinstance(value, decimal.Decimal) and isinstance(actual, (decimal.Decimal, int)):
        last = decimal.Decimal(1).scaleb(value.as_tuple().exponent)        # the shown number, rounded
        return abs(decimal.Decimal(actual) - value) <= last / 2
    return value == actual


def check_json_shown(command: str, shown: str, stdout: str) -> None:
    """Every ``"key": value`` the page shows is in the command's JSON (at any level)."""
    actual = json.loads(stdout, parse_float=decimal.Decimal)
    pairs = _PAIR.findall(shown)
    assert pairs, f"{command}: the page shows no \"key\": value pair to compare:\n{shown}"
    for key, value in pairs:
        found = list(_find(actual, key))
        assert found and any(_same(value, a) for a in found), \
            f"{command}: the page shows \"{key}\": {value}; the command printed {found}"


# ------------------------------------------------------------------------------------------ python blocks
def run_python(block: Block, namespace: dict) -> None:
    """A ``>>>`` block through doctest (ELLIPSIS), a plain block executed, both in ``namespace``."""
    if re.search(r"^\s*>>> ", block.text, flags=re.M):
        test = doctest.DocTestParser().get_doctest(block.text, namespace, str(block), block.page, block.line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test, clear_globs=False)
        namespace.update(test.globs)                   # a DocTest runs in a copy: later blocks see its names
        assert runner.failures == 0 and runner.tries > 0, f"{block}: {runner.failures} of {runner.tries} failed"
    else:
        exec(compile(block.text, str(block), "exec"), namespace)


def checkout_env() -> dict:
    """The environment of a command run from the checkout: its packages first, no display, one BLAS thread."""
    env = {**os.environ, "MPLBACKEND": "Agg", "OPENBLAS_NUM_THREADS": "1"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def run_page(page: Path, cwd: Path, *, seqtheory: list[str] | None = None, python: str = sys.executable,
             env: dict | None = None, python_in_process: bool = True) -> int:
    """Run every runnable block of ``page`` in order, in the folder ``cwd``; returns how many ran.
    ``python_in_process``: python blocks in this process (the checkout), else as scripts by ``python`` (a
    wheel's environment; the page's plain blocks then share nothing, a ``>>>`` block runs through doctest
    there)."""
    seqtheory = seqtheory or [sys.executable, "-m", "seqtheory"]
    env = env or checkout_env()
    namespace: dict = {"__name__": "__doc_block__"}
    ran = 0
    old = Path.cwd()
    os.chdir(cwd)
    try:
        for block in blocks(page):
            if block.skipped or block.lang in NOT_CODE or block.lang.startswith("{"):
                continue
            if block.lang in PYTHON:
                if python_in_process:
                    run_python(block, namespace)
                else:
                    _run_python_elsewhere(block, cwd, python, env)
            elif block.lang in SHELL:
                for command, shown in commands(block):
                    run_command(command, shown, cwd, seqtheory=seqtheory, python=python, env=env)
            else:
                raise AssertionError(f"{block}: a code block needs a language the docs test knows "
                                     f"({sorted(PYTHON | SHELL | NOT_CODE)}), not {block.lang!r}")
            ran += 1
    finally:
        os.chdir(old)
    return ran


def _run_python_elsewhere(block: Block, cwd: Path, python: str, env: dict) -> None:
    script = cwd / f"block_{block.line}.py"
    if re.search(r"^\s*>>> ", block.text, flags=re.M):
        script.write_text("import doctest, sys\n"
                          f"t = doctest.DocTestParser().get_doctest({block.text!r}, {{}}, 'block', None, 0)\n"
                          "r = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)\nr.run(t)\n"
                          "sys.exit(1 if r.failures or not r.tries else 0)\n", encoding="utf-8")
    else:
        script.write_text(block.text, encoding="utf-8")
    res = subprocess.run([python, str(script)], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, f"{block}: exit {res.returncode}\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
