"""The rules engine is pure (DESIGN §2): importing it loads no Discord, asyncio, SQL or Pillow."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import bot.engine

FORBIDDEN = ("discord", "asyncio", "aiosqlite", "sqlite3", "PIL")


def test_engine_imports_no_io_or_discord_modules():
    modules = [f"bot.engine.{m.name}" for m in pkgutil.iter_modules(bot.engine.__path__)]
    assert "bot.engine.stage_model" in modules
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"bad = sorted(n for n in sys.modules if n.split('.')[0] in {FORBIDDEN!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"engine imported: {out.stdout.strip()}"
