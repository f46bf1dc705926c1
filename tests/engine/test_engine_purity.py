"""The rules engine is pure (DESIGN §2): no Discord, asyncio, SQL or Pillow in the rules code."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import bot.engine
from tests.import_scan import forbidden_imports

FORBIDDEN = ("discord", "asyncio", "aiosqlite", "sqlite3", "PIL")
ENGINE_DIR = Path(bot.engine.__file__).parent


def _engine_modules() -> list[str]:
    return [m.name for m in pkgutil.walk_packages(bot.engine.__path__, "bot.engine.")]


def test_engine_source_imports_nothing_forbidden():
    assert len(list(ENGINE_DIR.rglob("*.py"))) > 30
    assert forbidden_imports(ENGINE_DIR, FORBIDDEN) == []


def test_importing_the_engine_loads_no_forbidden_module_beyond_pydantic():
    """pydantic itself loads asyncio; the engine must add none of the forbidden modules."""
    modules = _engine_modules()
    assert "bot.engine.rallyman.stages.model" in modules
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
    """The scan is not vacuous: a module importing sqlite3 and PIL is flagged."""
    (tmp_path / "impure.py").write_text("import sqlite3\nfrom PIL import Image\nimport json\n")
    assert forbidden_imports(tmp_path, FORBIDDEN) == ["impure.py: sqlite3", "impure.py: PIL"]


def _bot_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("bot.")}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bot.") and node.level == 0:
            found.add(node.module)
    return found


def test_the_engine_never_imports_the_message_catalogue_even_through_another_module():
    """Below the boundary, texts are message keys (`bot.engine.core.text.Msg`); the engine
    reaches nothing that imports `bot.i18n`, following every `bot.*` import it makes."""
    seen: set[str] = set()
    todo = [m.name for m in pkgutil.walk_packages(bot.engine.__path__, "bot.engine.")]
    root = ENGINE_DIR.parent.parent
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        path = root / (module.replace(".", "/") + ".py")
        if not path.exists():
            path = root / module.replace(".", "/") / "__init__.py"
        if path.exists():
            todo += sorted(_bot_imports(path))
    assert "bot.engine.core.text" in seen
    assert "bot.i18n" not in seen, sorted(m for m in seen if not m.startswith("bot.engine"))
