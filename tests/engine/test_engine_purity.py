"""The rules engine is pure (DESIGN §2): no Discord, asyncio, SQL or Pillow in the rules code."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import bot.engine

FORBIDDEN = ("discord", "asyncio", "aiosqlite", "sqlite3", "PIL")
ENGINE_DIR = Path(bot.engine.__file__).parent


def _engine_modules() -> list[str]:
    return [f"bot.engine.{m.name}" for m in pkgutil.iter_modules(bot.engine.__path__)]


def test_engine_source_imports_nothing_forbidden():
    offenders = []
    for path in sorted(ENGINE_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert len(list(ENGINE_DIR.glob("*.py"))) > 3
    assert offenders == []


def test_importing_the_engine_loads_no_forbidden_module_beyond_pydantic():
    """pydantic itself loads asyncio; the engine must add none of the forbidden modules."""
    modules = _engine_modules()
    assert "bot.engine.stage_model" in modules
    code = (
        "import importlib, sys\n"
        "import pydantic\n"
        f"base = {{n for n in sys.modules if n.split('.')[0] in {FORBIDDEN!r}}}\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"bad = sorted(n for n in sys.modules if n.split('.')[0] in {FORBIDDEN!r} and n not in base)\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"engine imported: {out.stdout.strip()}"


def test_the_guard_would_catch_an_impure_module(tmp_path):
    """The scan is not vacuous: a module importing sqlite3 is flagged."""
    bad = tmp_path / "impure.py"
    bad.write_text("import sqlite3\nfrom PIL import Image\n")
    tree = ast.parse(bad.read_text())
    found = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    found += [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert [f for f in found if f.split(".")[0] in FORBIDDEN] == ["sqlite3", "PIL"]
