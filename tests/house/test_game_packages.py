"""A game's packages are its own. Nothing outside `bot/engine/<game>/` and `bot/render/<game>/`
imports a game package; everything else reaches a game through `bot.games.get` and the `Game`
protocol (bot/engine/core/game.py).

`bot/engine/core/` holds only what every game uses, so it imports no game package either.

A new game is its folders and one line, its id in `bot.games.SHIPPED`: the registry imports no
game, finds each one's protocol, painter and stage tool by its id (refusing a module without the
object it looks for, naming the module), and no file the bot runs or ships outside a game's
folders and benches names a game's package (the default game, classic, aside).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import types
from dataclasses import replace
from pathlib import Path

import pytest

from bot import games
from bot.engine.dirt.rules import DirtRules

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


# -- one game, one line: the registry finds the rest by the game's id --------------------------------

#: where a game may be named by its package (`bot.engine.<g>`, `bot/render/<g>` …): its own folders,
#: its benches, and the tests; everything the bot runs or ships besides is scanned
SCANNED = ("bot", "bench", "data")
SCANNED_FILES = ("pyproject.toml", ".ci/run")


def _package_pattern(game: str) -> re.Pattern[str]:
    return re.compile(rf"\bbot[./](engine|render)[./]{re.escape(game)}\b")


def _own_file(relative: str, game: str) -> bool:
    """A file of the game's own: `bot/engine/<g>/`, `bot/render/<g>/`, `data/<g>/`, `bench/*_<g>.py`."""
    return (relative.startswith((f"bot/engine/{game}/", f"bot/render/{game}/", f"data/{game}/"))
            or re.fullmatch(rf"bench/[a-z]+_{re.escape(game)}\.py", relative) is not None)


def _text_files() -> list[Path]:
    files = [p for top in SCANNED for p in sorted((ROOT / top).rglob("*")) if p.is_file()
             and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".png", ".ttf", ".sqlite3")]
    return files + [ROOT / name for name in SCANNED_FILES]


def naming_outside(game: str) -> list[str]:
    """The files outside the game's own that name one of its packages."""
    pattern = _package_pattern(game)
    out = []
    for path in _text_files():
        relative = path.relative_to(ROOT).as_posix()
        if not _own_file(relative, game) and pattern.search(path.read_text(encoding="utf-8", errors="replace")):
            out.append(relative)
    return out


def test_every_game_is_one_id_in_the_registry_and_the_registry_imports_none():
    """`bot/games.py` names each game once, in `SHIPPED` (and the default game in `DEFAULT_GAME`), and
    imports no game package: its protocol, painter and stage tool are found by the id."""
    engine_games = [p.rsplit(".", 1)[1] for p in GAME_PACKAGES if p.startswith("bot.engine.")]
    assert sorted(games.SHIPPED) == sorted(engine_games), "every game package is listed, once, in SHIPPED"
    source = (BOT / "games.py").read_text(encoding="utf-8")
    naming = [line for line in source.splitlines() if any(f'"{g}"' in line or f"'{g}'" in line for g in games.SHIPPED)]
    assert naming == [line for line in source.splitlines() if line.startswith(("SHIPPED = ", "DEFAULT_GAME = "))]
    (listed,) = [line for line in naming if line.startswith("SHIPPED = ")]
    assert all(listed.count(f'"{g}"') == 1 for g in games.SHIPPED)
    assert {m for m in imports_of(BOT / "games.py") if _game_of(m)} == set()
    assert not re.search(r"\b(RALLYMAN|DIRT|ROADRALLY)\b", source)


def test_no_file_outside_a_new_game_names_its_package():
    """A game besides the default one is its folders and its id in `SHIPPED`: nothing else of the bot,
    its data, benches, packaging or CI names its packages. (The default game, classic, is the one the
    bot's own benchmarks drive and the one its store's oldest rows were written in; it is exempt.)"""
    others = [g for g in games.SHIPPED if g != games.DEFAULT_GAME]
    assert others and len(_text_files()) > 300
    assert {g: naming_outside(g) for g in others} == {g: [] for g in others}


def test_the_package_scan_is_not_blind():
    pattern = _package_pattern("dirt")
    assert pattern.search("see `bot/engine/dirt/rules.py`") and pattern.search("from bot.render.dirt import x")
    assert not pattern.search("bot.engine.dirty") and not pattern.search("state.dirt")
    assert naming_outside(games.DEFAULT_GAME), "classic is named outside its folders (the scan reads the files)"
    assert _own_file("bench/render_dirt.py", "dirt") and not _own_file("bench/render.py", "dirt")


def test_a_listed_game_is_found_by_its_id_or_refused_naming_its_module(monkeypatch):
    module = types.ModuleType("bot.engine.nogame.protocol")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    with pytest.raises(TypeError, match=r"^bot\.engine\.nogame\.protocol: GAME must be .* found nothing$"):
        games.load("nogame")
    module.GAME = "a game"  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match=r"^bot\.engine\.nogame\.protocol: GAME .* found a str$"):
        games.load("nogame")
    module.GAME = games.get("dirt")  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=r"^bot\.engine\.nogame\.protocol: GAME is the game 'dirt', not 'nogame'"):
        games.load("nogame")
    with pytest.raises(ModuleNotFoundError, match=r"bot\.engine\.nosuchgame"):
        games.load("nosuchgame")
    assert "nogame" not in games.ids() and games.ids() == games.SHIPPED
    assert all(games.load(g) is games.get(g) for g in games.SHIPPED)


class _NoPictures(DirtRules):
    """DIRT's rules under an id with no painter module (`bot/render/nopics/`)."""

    id = "nopics"


def test_a_painter_is_found_by_the_games_id_or_refused(monkeypatch, tmp_path):
    assert {g: type(games.painter(g)).__name__ for g in games.SHIPPED} == {
        "rallyman": "ClassicPainter", "dirt": "DirtPainter", "roadrally": "RoadRallyPainter"}
    games.register(replace(games.get("dirt"), rules=_NoPictures()))
    try:
        with pytest.raises(ValueError, match="the game 'nopics' draws no pictures"):
            games.painter("nopics")
        (tmp_path / "render" / "nopics").mkdir(parents=True)
        (tmp_path / "render" / "nopics" / "painter.py").write_text("", encoding="utf-8")
        monkeypatch.setattr(games, "_BOT", tmp_path)  # a painter module with no PAINTER in it
        monkeypatch.setitem(sys.modules, "bot.render.nopics.painter", types.ModuleType("bot.render.nopics.painter"))
        with pytest.raises(TypeError, match=r"^bot\.render\.nopics\.painter: PAINTER, .* is missing$"):
            games.painter("nopics")
    finally:
        games.unregister("nopics")
    with pytest.raises(TypeError, match=r"only a bot\.engine\.core\.game\.Game can be registered"):
        games.register(object())  # type: ignore[arg-type]
    assert games.ids() == games.SHIPPED


def test_the_tools_are_found_by_the_games_id():
    assert games.TOOLS == {"render": "bot.render.rallyman.tool", "stage:rallyman": "bot.engine.rallyman.stages.tool",
                           "stage:dirt": "bot.engine.dirt.stages.tool"}
    assert all((ROOT / (module.replace(".", "/") + ".py")).is_file() for module in games.TOOLS.values())
    assert not (BOT / "engine" / "roadrally" / "stages" / "tool.py").exists()  # so Road Rally has none


def test_a_process_that_never_draws_never_loads_pillow():
    """Every game is loaded with the registry, its painter (Pillow) only when asked for."""
    code = ("import sys\nfrom bot import games\nfrom bot.cli import stage\n"
            "assert [games.get(g).id for g in games.SHIPPED] == list(games.SHIPPED) and stage.tool_games()\n"
            "print('PIL' in sys.modules)\ngames.painter('dirt')\nprint('PIL' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.split() == ["False", "True"]
