"""League tables (results, standings, the world ranking) as text for a terminal: the console
prints what Discord shows as an image."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.i18n import DEFAULT_LANG, render
from bot.services.images import table_view


def table_lines(spec: Mapping[str, Any], lang: str = DEFAULT_LANG) -> list[str]:
    """A league table image (results, standings, world ranking) as text for a terminal, in the
    post's language: the title, the column heads and one line per row, each column as wide as
    its widest cell. A row's detail (why a driver is out) follows on its own indented line, and a
    struck cell (a round dropped from the standings) is written in brackets."""
    view = table_view(dict(spec))
    heads = [render(c.label, lang) for c in view.columns]
    aligns = [c.align for c in view.columns]
    rows = [[f"({render(cell, lang)})" if i in row.struck else render(cell, lang) for i, cell in enumerate(row.cells)]
            for row in view.rows]
    widths = [len(h) for h in heads]
    for cells in rows:
        for i, cell in enumerate(cells[:len(widths)]):
            widths[i] = max(widths[i], len(cell))

    def line(cells: Iterable[str], mark: str = " ") -> str:
        out = []
        for i, text in enumerate(cells):
            align = aligns[i] if i < len(aligns) else "l"
            width = widths[i] if i < len(widths) else len(text)
            out.append(text.rjust(width) if align == "r" else text.center(width) if align == "c" else text.ljust(width))
        return (f"{mark} " + "  ".join(out)).rstrip()

    title, subtitle = render(view.title, lang), render(view.subtitle, lang)
    lines = [f"{title} — {subtitle}" if subtitle else title, line(heads)]
    for row, cells in zip(view.rows, rows):
        if row.gap_before:
            lines.append("  ⋯")
        lines.append(line(cells, ">" if row.highlight else " "))
        if row.detail:
            lines.append(f"      {render(row.detail, lang)}")
    if view.note:
        lines.append(f"  ({render(view.note, lang)})")
    return lines
