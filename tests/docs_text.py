"""The documentation the tests read: README.md and every Markdown file under docs/.

Text moves between the README and docs/ as they grow; a test that checks what a page shows names
the part it checks by its marker (`<!-- section: NAME -->` … `<!-- /section: NAME -->`), found in
whichever file holds it, never by a file and a position."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def doc_files() -> list[Path]:
    """README.md first, then docs/ recursively, in a stable order."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def doc_text() -> str:
    """Every documentation file, one after the other."""
    return "\n".join(path.read_text(encoding="utf-8") for path in doc_files())


def section(name: str) -> str:
    """The text between the markers of section `name`: exactly one file must hold them, once."""
    start, end = f"<!-- section: {name} -->", f"<!-- /section: {name} -->"
    found = [text for text in (path.read_text(encoding="utf-8") for path in doc_files()) if start in text]
    assert len(found) == 1, f"section {name!r} is in {len(found)} documentation files, not 1"
    text = found[0]
    assert text.count(start) == 1 and text.count(end) == 1, f"section {name!r}: one start and one end marker"
    return text.split(start)[1].split(end)[0]
