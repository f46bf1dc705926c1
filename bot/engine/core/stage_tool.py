"""What every game's stage tool (`python -m bot stage … --game G`) does the same way: load each
stage or file in turn, telling each one that does not load on stderr without stopping, print
the `list` table with its numeric columns right-aligned, and print a generated stage's text."""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path
from typing import TypeVar

from bot.engine.core.errors import StageError

K = TypeVar("K")
T = TypeVar("T")


def expand(paths: Iterable[Path], patterns: Sequence[str] = ("*.stage",)) -> list[Path]:
    """The files given, a folder standing for its files of each pattern in turn (sorted by name)."""
    out: list[Path] = []
    for path in paths:
        out.extend([f for pattern in patterns for f in sorted(path.glob(pattern))] if path.is_dir() else [path])
    return out


def load_each(keys: Iterable[K], load: Callable[[K], T], error: str = "{}") -> tuple[list[tuple[K, T]], int]:
    """Each key with what `load` made of it, and how many it refused: each `StageError` is printed
    to stderr as `error` formats it, and the others still load."""
    loaded: list[tuple[K, T]] = []
    failed = 0
    for key in keys:
        try:
            loaded.append((key, load(key)))
        except StageError as exc:
            print(error.format(exc), file=sys.stderr)
            failed += 1
    return loaded, failed


def print_table(rows: Sequence[Sequence[str]], numeric: Collection[int]) -> None:
    """`rows` (the header first) in aligned columns; the `numeric` ones are right-aligned."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = [cell.rjust(w) if i in numeric else cell.ljust(w) for i, (cell, w) in enumerate(zip(row, widths))]
        print("  ".join(cells).rstrip())


def print_generated(generate: Callable[[], str], command: str) -> int:
    """`stage generate`: print the text `generate` makes (exit 0); an argument it refuses
    (`ValueError`) is told on stderr after the `command`'s name, exit 2."""
    try:
        text = generate()
    except ValueError as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0
