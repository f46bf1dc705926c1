"""SQL lives only in `bot/store/` (DESIGN §2): no string literal anywhere else in
`bot/` reads as a statement, so the services, console and cogs reach the database through the store's
functions and a second backend needs no change outside it."""

from __future__ import annotations

import ast
from pathlib import Path

import bot
from tests.house.test_user_texts_in_catalogue import SQL

BOT = Path(bot.__file__).resolve().parent


def sql_outside_the_store(root: Path = BOT) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if relative.startswith("store/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.search(node.value):
                found.append(f"{relative}:{node.lineno}: {node.value[:60]!r}")
    return found


def test_no_sql_is_written_outside_the_store():
    assert sql_outside_the_store() == []


def test_the_scan_finds_a_statement_written_in_a_service(tmp_path):
    (tmp_path / "services").mkdir()
    (tmp_path / "services" / "bad.py").write_text(
        'async def f(db):\n    return await db.fetch_one("SELECT id FROM rallies WHERE id = ?", (1,))\n',
        encoding="utf-8")
    assert sql_outside_the_store(tmp_path) == ["services/bad.py:2: 'SELECT id FROM rallies WHERE id = ?'"]
