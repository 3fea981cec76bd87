"""(docs build) The module docstrings write their formulas as ASCII math in code spans (``Q_{n,k} = E||W^k x||^2``,
``c = t/sqrt(n)``), readable in a terminal; on the API pages those spans become math (``:math:`` roles, typeset
by MathJax), while names, paths and Python expressions stay code.

:func:`is_math` decides which spans are formulas (conservatively: anything that looks like Python, a path, a
name or a placeholder stays code); :func:`to_tex` writes the ASCII math as TeX; :func:`math_roles` rewrites
the spans of a docstring's lines. ``docs/conf.py`` calls it for module docstrings, before its other hooks.
"""

from __future__ import annotations

import re

GREEK = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "kappa", "lambda", "mu", "nu", "xi",
         "pi", "rho", "sigma", "tau", "phi", "chi", "psi", "omega", "Gamma", "Delta", "Theta", "Lambda", "Sigma",
         "Phi", "Psi", "Omega")
FUNCTIONS = {"sqrt": r"\sqrt", "log": r"\log", "ln": r"\ln", "exp": r"\exp", "sin": r"\sin", "cos": r"\cos",
             "tanh": r"\tanh", "sinh": r"\sinh", "cosh": r"\cosh", "max": r"\max", "min": r"\min", "sum": r"\sum",
             "prod": r"\prod", "lim": r"\lim", "det": r"\det", "log10": r"\log_{10}", "int": r"\int",
             **{f: r"\operatorname{" + f + "}" for f in ("tr", "Var", "conj", "deg", "ceil", "Pf", "mod")}}
OPERATORS = [("+/-", r"\pm "), ("+-", r"\pm "), ("<->", r"\leftrightarrow "), ("...", r"\ldots "), ("..", r"\ldots "), ("||", r"\| "), ("<=", r"\le "),
             (">=", r"\ge "), (">>", r"\gg "), ("<<", r"\ll "), ("!=", r"\ne "), ("->", r"\to "), ("~", r"\sim ")]
_CODE = [
    r'"', r"`", r"\\", r"\*\*", r"==", r"%", r"#", r"&", r"\$", r":", r";", r"@",
    r"(?<![\w)\]])'", r"'(?!\()",                      # quotes (a prime is a letter's f'(x))
    r"[A-Za-z_]\w*\.[A-Za-z_*]",                       # attribute access, globs: mpmath.nstr, levy.*
    r"[(,]\s*[A-Za-z_]\w*=",                           # a keyword argument: f(x, dps=50)
    r"<\w[\w-]*>", r"\w/\w[\w-]*/", r"/$", r"\.(?:py|json|md|sqlite|npy|csv|png|pt)\b",   # placeholders, paths
    r"(?<![A-Za-z])(?!(?:" + "|".join(GREEK) + r")_)[A-Za-z]{2,}_[A-Za-z]{2,}",        # snake_case names
    r"[A-Z]{2,}",                                      # constants (K_NULL, MAX_SERIES_T)
    r"(?<![A-Za-z])(?:True|False|None)(?![A-Za-z])",   # Python values
    r"(?<![A-Za-z\\])(?!(?:" + "|".join([*GREEK, "sqrt", "log", "exp", "sinh", "cosh", "tanh", "prod", "sum", "conj"])
    + r")[(_])[A-Za-z]{4,}[(_]",                       # a call or a name of four letters or more: linspace(
    r"^(?:seqtheory|python|pip|bash) ", r"=$", r"[A-Za-z]{2,}-[A-Za-z]{2,}",   # command lines, keywords, flags
]
# a formula has an operator, a script or a bracket; words alone ("not reproduced") are text in a code span
_SIGNAL = re.compile(r"[\^_=<>+\-/|~*()\[\]{}!]")
_CODE_RE = re.compile("|".join(_CODE))
_NAME_OR_NUMBER = re.compile(r"[A-Za-z_][\w]*|[-+]?\d[\d._]*(?:e[-+]?\d+)?")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")


def is_math(span: str) -> bool:
    """Whether a code span's text is a formula (not a name, a number, a path, a placeholder or Python).

    >>> [is_math(s) for s in ("c = t/sqrt(n)", "Q_{n,k} >= 1", "E|G_ij|^2 = 1", "a_m", "(k+1)(k+2)")]
    [True, True, True, True, True]
    >>> [is_math(s) for s in ("dps", "1024", "mpmath.nstr(x, 50)", '"exact"', "docs/results/x.md", "max_t",
    ...                       "K_NULL", "f(x, dps=50)", "10**18", "DIR/report.md")]
    [False, False, False, False, False, False, False, False, False, False]
    """
    span = span.strip()
    if not span or _NAME_OR_NUMBER.fullmatch(span) and "_" not in span.strip("_"):
        return False
    if _NAME_OR_NUMBER.fullmatch(span) and not re.fullmatch(r"[A-Za-z]_[A-Za-z0-9]{1,3}", span):
        return False                                   # a name with an underscore (max_t) unless a_m, A_ij
    return bool(_SIGNAL.search(span)) and not _CODE_RE.search(span) and _balanced(span)


def _balanced(s: str) -> bool:
    depth = {"(": 0, "[": 0, "{": 0}
    close = {")": "(", "]": "[", "}": "{"}
    for ch in s:
        if ch in depth:
            depth[ch] += 1
        elif ch in close:
            depth[close[ch]] -= 1
            if depth[close[ch]] < 0 and ch != "]" and ch != ")":    # half-open intervals [a, b) are math
                return False
    return depth["{"] == 0


def _group(s: str, i: int) -> int:
    """The index after the bracket group that opens at ``s[i]``."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    opener, depth = s[i], 0
    for j in range(i, len(s)):
        if s[j] == opener:
            depth += 1
        elif s[j] == pairs[opener]:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(s)


def _script(s: str, i: int) -> tuple[str, int]:
    """The TeX group of a super- or subscript that starts at ``s[i]`` and the index after it."""
    if i < len(s) and s[i] == "{":
        end = _group(s, i)
        return "{" + to_tex(s[i + 1:end - 1]) + "}", end
    sign = s[i] if i < len(s) and s[i] in "+-" else ""
    j = i + len(sign)
    if j < len(s) and s[j] == "(":
        end = _group(s, j)
        return "{" + sign + to_tex(s[j:end]) + "}", end
    m = re.compile(r"[A-Za-z0-9.]+\*?|\*").match(s, j)
    if m is None:
        return "{" + sign + "}", j
    token = m.group(0).rstrip(".")
    if token == "*":
        return "{" + sign + "*}", j + 1
    return "{" + sign + to_tex(token) + "}", j + len(token)


def to_tex(s: str) -> str:
    r"""ASCII math as TeX: scripts in braces, sqrt, Greek letters, functions, operators; other words upright.

    >>> to_tex("c = t/sqrt(n)")
    'c = t/\\sqrt{n}'
    >>> to_tex("E||W^k x||^2 = (1/n) E tr((W^k)^* W^k)")
    'E\\| W^{k} x\\| ^{2} = (1/n) E \\operatorname{tr}((W^{k})^{*} W^{k})'
    >>> to_tex("P(tau > x) ~ A x^(-beta*)")
    'P(\\tau > x) \\sim  A x^{(-\\beta^{*})}'
    """
    out, i = [], 0
    while i < len(s):
        ch = s[i]
        op = next((o for o in OPERATORS if s.startswith(o[0], i)), None)
        if op is not None:
            out.append(op[1])
            i += len(op[0])
        elif ch in "^_":
            group, i = _script(s, i + 1)
            out.append(ch + group)
        elif ch == "*":
            prev, nxt = s[i - 1:i], s[i + 1:i + 2]          # beta* (a star on its symbol) or a product
            out.append("^{*}" if prev and (prev.isalnum() or prev in ")}") and not (nxt.isalnum() or nxt == "(")
                       else r"\cdot ")
            i += 1
        elif ch in "{}":
            out.append("\\" + ch)
            i += 1
        elif ch.isalpha():
            word = _WORD.match(s, i).group(0)
            i += len(word)
            if word == "sqrt" and i < len(s) and s[i] == "(":
                end = _group(s, i)
                out.append(r"\sqrt{" + to_tex(s[i + 1:end - 1]) + "}")
                i = end
            elif word in GREEK:
                out.append("\\" + word + (" " if i < len(s) and s[i].isalpha() else ""))
            elif word in FUNCTIONS:
                out.append(FUNCTIONS[word] + (" " if i < len(s) and s[i].isalnum() else ""))
            elif len(word) <= 2 or re.fullmatch(r"[A-Za-z]\d+", word):     # x, ij, dt, x1
                out.append(word)
            else:
                out.append(r"\mathrm{" + word + "}")
        else:
            out.append(ch)
            i += 1
    return "".join(out)


_SPAN = re.compile(r"(?<!`)``([^`]+?)``(?!`)")


def math_roles(lines: list[str]) -> None:
    """Rewrite, in place, every code span of ``lines`` that :func:`is_math` calls a formula as a ``:math:``
    role; doctest lines and the bodies of directives (``.. math::``, ``::`` blocks) are left alone."""
    block_indent, open_span = None, False
    underline = re.compile(r"^\s*([-=~^\"'`#*+])\1{2,}\s*$")
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and underline.match(lines[i + 1]):
            continue                                   # a section title: its underline must stay as long
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if block_indent is not None:
            if not stripped or indent > block_indent:
                continue
            block_indent = None
        if stripped.startswith((">>>", "...")):
            continue
        if stripped.startswith(".. ") or stripped.endswith("::"):
            block_indent = indent
            if stripped.startswith(".. "):
                continue
        # a code span may run over a line break: such a span stays code (its two halves are left alone)
        head = ""
        if open_span:
            cut = line.find("``")
            if cut < 0:
                continue
            head, line = line[:cut + 2], line[cut + 2:]
        tail = ""
        if len(re.findall(r"(?<!`)``(?!`)", line)) % 2:
            cut = line.rfind("``")
            line, tail = line[:cut], line[cut:]
        open_span = bool(tail) or (open_span and not head)
        lines[i] = head + _SPAN.sub(lambda m: f":math:`{to_tex(m.group(1)).strip()}`" if is_math(m.group(1))
                                    else m.group(0), line) + tail
