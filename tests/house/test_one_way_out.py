"""Every message the bot sends Discord goes through bot/views/outgoing.py, which keeps it within
Discord's limits (a long text split into several messages): no other module of the Discord layer
calls discord.py's sending or editing methods itself."""

from __future__ import annotations

import ast
from pathlib import Path

import bot

BOT = Path(bot.__file__).resolve().parent
#: discord.py's calls that post or change a message (an interaction's answer, a followup, a channel post, an edit)
SENDING = {"send", "send_message", "edit_original_response", "edit", "reply", "edit_message"}
THE_WAY_OUT = "views/outgoing.py"


def sends_outside(root: Path = BOT) -> list[str]:
    found = []
    paths = [root / "client.py", *sorted((root / "views").rglob("*.py")), *sorted((root / "cogs").rglob("*.py"))]
    for path in paths:
        relative = path.relative_to(root).as_posix()
        if relative == THE_WAY_OUT:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SENDING \
                    and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "self"):  # its own
                found.append(f"{relative}:{node.lineno}: .{node.func.attr}(...)")
    return found


def test_every_message_goes_out_through_one_module():
    assert sends_outside() == []


def test_the_check_finds_a_send(tmp_path):
    (tmp_path / "views").mkdir()
    (tmp_path / "cogs").mkdir()
    (tmp_path / "client.py").write_text("async def f(i):\n    await i.followup.send('x')\n", encoding="utf-8")
    assert sends_outside(tmp_path) == ["client.py:2: .send(...)"]
