"""A game's packages are its own. Nothing outside `bot/engine/<game>/`,
`bot/render/<game>/` and the registry (`bot/games.py`) imports a game package; everything else
reaches a game through `bot.games.get` and the `Game` protocol (bot/engine/core/game.py).

`bot/engine/core/` holds only what every game uses, so it imports no game package either.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
#: every game's packages: the engine's and the renderer's sub-packages but the core (a new game's
#: folder is held to the rule the day it appears); `render/career/` is no game's: the `/driver` card of
#: every game's drivers
NOT_GAMES = ("core", "career")
GAME_PACKAGES = tuple(f"bot.{layer}.{d.name}" for layer in ("engine", "render") for d in sorted((BOT / layer).iterdir())
                      if d.is_dir() and (d / "__init__.py").exists() and d.name not in NOT_GAMES)


def test_the_game_packages_are_found():
    assert {"bot.engine.rallyman", "bot.render.rallyman"} <= set(GAME_PACKAGES)
    assert "bot.engine.core" not in GAME_PACKAGES


def _game_of(module: str) -> str | None:
    for package in GAME_PACKAGES:
        if module == package or module.startswith(package + "."):
            return package
    return None


def _own(path: Path, package: str) -> bool:
    """A file inside one of the game's own folders (`engine/<game>/`, `render/<game>/`)."""
    game = package.rsplit(".", 1)[1]
    relative = path.relative_to(BOT).as_posix()
    return relative.startswith((f"engine/{game}/", f"render/{game}/"))


def imports_of(path: Path) -> set[str]:
    """Every absolute module a file imports, type-only and function-level imports included."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return found


def offenders() -> dict[str, set[str]]:
    """file (relative to bot/) → the game packages it imports though it is not theirs."""
    out: dict[str, set[str]] = {}
    for path in sorted(BOT.rglob("*.py")):
        relative = path.relative_to(BOT).as_posix()
        if relative == "games.py":
            continue
        for module in imports_of(path):
            package = _game_of(module)
            if package is not None and not _own(path, package):
                out.setdefault(relative, set()).add(package)
    return out


def test_no_file_outside_a_game_imports_that_game():
    found = offenders()
    assert found == {}, f"reach the game through bot.games.get instead: {found}"


def test_the_core_imports_no_game():
    core = [p.relative_to(BOT).as_posix() for p in (BOT / "engine" / "core").rglob("*.py")
            if any(_game_of(m) for m in imports_of(p))]
    assert core == []


def test_the_scan_sees_every_kind_of_import(tmp_path):
    """The scan is not blind: a plain, a from, a lazy and a type-only import are all found."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "import bot.engine.rallyman.state\n"
        "if TYPE_CHECKING:\n"
        "    from bot.render.rallyman.board import draw\n"
        "def f():\n"
        "    from bot.engine import rallyman\n",
        encoding="utf-8")
    packages = {_game_of(m) for m in imports_of(sample)} - {None}
    assert packages == {"bot.engine.rallyman", "bot.render.rallyman"}
    assert _game_of("bot.engine.rallyman") == "bot.engine.rallyman"
    assert _game_of("bot.engine.rallymanx") is None
