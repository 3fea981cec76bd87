"""The validation report's Markdown tables (validation/report.py): every row has as many cells as its header,
and every cell renders to the text it was given, whatever ``|``, code spans or line breaks the text holds
(issue 44: unescaped ``|`` in summaries such as ``|log10 AdamW/Adam|`` gave rows of 5, 6 or 8 cells under a
4-column header)."""

from __future__ import annotations

import re

from validation.registry import Check, Context, Outcome, Result
from validation.report import markdown_table, write_report

# summaries as the checks write them: absolute values, norms, code spans with bars, a line break
_SUMMARIES = ["|log10 AdamW/Adam| sparse 0.10 vs smooth 0.08 (MWU p = 0.43)",
              "max |Q - f| = 1e-12; ||g||/||g0|| <= 1e-3",
              "`|x|` inside a code span, and a \\ backslash",
              "two lines:\nthe second",
              "plain"]


def _cells(line: str) -> list[str]:
    """A GFM table row split at its unescaped ``|`` (the GFM spec's rule, code spans included), outer pipes
    dropped."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return re.split(r"(?<!\\)\|", body)


def _tables(markdown: str) -> list[list[str]]:
    """Every table of ``markdown`` as its lines: a header line followed by a ``|---|`` separator line."""
    lines, out = markdown.splitlines(), []
    for i in range(len(lines) - 1):
        if lines[i].startswith("|") and re.fullmatch(r"\|(?:\s*:?-+:?\s*\|)+", lines[i + 1].strip()):
            j = i + 2
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            out.append(lines[i:j])
    return out


def _report(tmp_path) -> str:
    results = [Result(Check(f"x.check{i}", "paper | one", "claim |a|", "f", "n", "s", lambda c: None),
                      Outcome("pass", text, details=markdown_table(["a | b", "c"], [[text, 1.5]])), 0.1)
               for i, text in enumerate(_SUMMARIES)]
    return write_report(results, Context("quick", tmp_path)).read_text(encoding="utf-8")


def test_every_row_of_every_table_is_as_wide_as_its_header(tmp_path):
    tables = _tables(_report(tmp_path))
    assert len(tables) == 1 + len(_SUMMARIES)            # the summary table and one details table per check
    for table in tables:
        width = len(_cells(table[0]))
        assert [len(_cells(row)) for row in table[2:]] == [width] * (len(table) - 2), table


def test_every_cell_renders_to_the_text_it_was_given(tmp_path):
    """Rendered by markdown-it (GFM tables, as the docs site's MyST parser reads the committed reports)."""
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").enable("table").render(_report(tmp_path))
    cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td>(.*?)</td>", html, flags=re.S)]
    import html as html_lib

    cells = [html_lib.unescape(c) for c in cells]
    for text in _SUMMARIES:
        shown = " ".join(text.replace("`", "").splitlines())
        assert cells.count(shown) == 2, (shown, cells)      # the summary table and the check's details
    headers = [html_lib.unescape(h) for h in re.findall(r"<th>(.*?)</th>", html)]
    assert headers.count("a | b") == len(_SUMMARIES)
