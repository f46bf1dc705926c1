"""The registry: the one place that lists the games the bot runs (DESIGN §9).

A shipped game is one line here, its id in `SHIPPED`; everything else of it is found by that id:

- `bot/engine/<id>/protocol.py` holds `GAME`, the game as a `Game` (bot.engine.core.game);
- `bot/render/<id>/painter.py` holds `PAINTER` (bot.render.painter), when the game draws pictures:
  imported on first use (`painter`), so a process that never draws never loads Pillow;
- `bot/engine/<id>/stages/tool.py`, when there is one, is the game's stage tool
  (`python -m bot stage … --game <id>`, bot/cli/stage.py); the default game's
  `bot/render/<id>/tool.py` is `python -m bot render` (its boards and previews as PNG files);
- `data/<id>/` holds its files, read by the game's own modules.

A listed game whose protocol module has no `GAME`, or one that is not a `Game`, or a `Game` of
another id, is refused when this module is imported, naming the module.

Everything outside a game's own folders (`bot/engine/<game>/`, `bot/render/<game>/`) reaches a
game through `get(game_id)` and the `Game` protocol, never by importing it
(tests/house/test_game_packages.py). Tests may `register` a game of their own (the toy game
proves a new game needs no change elsewhere) and `unregister` it afterwards.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot import i18n
from bot.engine.core.game import Game, UnknownGame, Verb
from bot.engine.core.text import msg

if TYPE_CHECKING:  # a painter is imported on first use only (Pillow)
    from bot.render.painter import Painter

#: the games the bot runs, by id: the one line a new game adds
SHIPPED = ("rallyman", "dirt", "roadrally")

#: the game a rally, league or command without one is played in (every one before)
DEFAULT_GAME = "rallyman"

#: where the modules named below are looked up without importing them (the `bot` folder)
_BOT = Path(__file__).resolve().parent


def _has_module(name: str) -> bool:
    """A module of this install exists (`bot.x.y`: `bot/x/y.py` or `bot/x/y/__init__.py`),
    found on disk: nothing is imported, so looking for a painter or a tool loads no Pillow."""
    path = _BOT.joinpath(*name.split(".")[1:])
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _check(game: Game[Any, Any, Any, Any]) -> None:
    """Refuses a private command (`Verb.private`: answered from the game's odds) in a game without odds."""
    if game.odds is None and any(v.private for v in game.commands.verbs):
        raise ValueError(f"the game {game.id!r} has a private command but no odds to answer it")


def load(game_id: str) -> Game[Any, Any, Any, Any]:
    """The shipped game `game_id`: the `GAME` of `bot.engine.<game_id>.protocol`; a module without
    one, or whose `GAME` is not a `Game` of that id, is refused naming the module."""
    name = f"bot.engine.{game_id}.protocol"
    game = getattr(importlib.import_module(name), "GAME", None)
    if not isinstance(game, Game):
        found = "nothing" if game is None else f"a {type(game).__name__}"
        raise TypeError(f"{name}: GAME must be the game as a bot.engine.core.game.Game, found {found}")
    if game.id != game_id:
        raise ValueError(f"{name}: GAME is the game {game.id!r}, not {game_id!r} (the name of its package)")
    _check(game)
    return game


_GAMES: dict[str, Game[Any, Any, Any, Any]] = {game_id: load(game_id) for game_id in SHIPPED}


def _tools() -> dict[str, str]:
    """The games' own tools of `python -m bot`, by subcommand: the module in the game's folder that
    registers it. `stage:GAME` is a game's stage tool, picked by `python -m bot stage … --game GAME`
    (bot/cli/stage.py); `render` is the default game's picture tool."""
    named = {"render": f"bot.render.{DEFAULT_GAME}.tool"}
    named.update((f"stage:{game_id}", f"bot.engine.{game_id}.stages.tool") for game_id in SHIPPED)
    return {command: module for command, module in named.items() if _has_module(module)}


TOOLS = _tools()


def painter(game_id: str) -> Painter[Any, Any, Any, Any]:
    """The painter of `game_id`'s pictures (`PAINTER` of `bot.render.<id>.painter`, imported now):
    a game that draws none is refused, and a painter module without a `PAINTER` names the module."""
    game = get(game_id)
    name = f"bot.render.{game.id}.painter"
    if not _has_module(name):
        raise ValueError(f"the game {game_id!r} draws no pictures")
    found: Painter[Any, Any, Any, Any] | None = getattr(importlib.import_module(name), "PAINTER", None)
    if found is None:
        raise TypeError(f"{name}: PAINTER, the game's painter (bot.render.painter), is missing")
    return found


def get(game_id: str | None) -> Game[Any, Any, Any, Any]:
    """The game called `game_id` (None: the default game); an unknown id is refused naming the
    games there are."""
    game = _GAMES.get(DEFAULT_GAME if game_id is None else game_id)
    if game is None:
        raise UnknownGame(msg("game.unknown", game=str(game_id)[:40], games=", ".join(ids())))
    return game


def ids() -> tuple[str, ...]:
    """The ids of every game, in the order they were registered."""
    return tuple(_GAMES)


def games() -> tuple[Game[Any, Any, Any, Any], ...]:
    return tuple(_GAMES.values())


def verbs() -> tuple[Verb, ...]:
    """Every game's own commands (`/roll`, `/stop` …), each name once, in the registry's order: a
    name two games declare is one command, played in the game of the rally where it is typed."""
    seen: dict[str, Verb] = {}
    for game in _GAMES.values():
        for verb in game.commands.verbs:
            seen.setdefault(verb.name, verb)
    return tuple(seen.values())


def verb(name: str) -> Verb | None:
    """The command `name` of a registered game, None if no game has one."""
    return next((v for v in verbs() if v.name == name), None)


def register(game: Game[Any, Any, Any, Any]) -> None:
    """Add a game (tests' toy games; the real games are `SHIPPED`), with its own texts when it
    brings them (`texts`: a folder of `<lang>.json`). Refuses what is not a `Game`, a taken id, and a
    private command (`Verb.private`: answered from the game's odds) in a game without odds."""
    if not isinstance(game, Game):
        raise TypeError(f"only a bot.engine.core.game.Game can be registered, not a {type(game).__name__}")
    if game.id in _GAMES:
        raise ValueError(f"a game called {game.id!r} is registered already")
    _check(game)
    _GAMES[game.id] = game
    if game.library.texts is not None:
        i18n.add_texts(game.library.texts)


def unregister(game_id: str) -> None:
    if game_id == DEFAULT_GAME:
        raise ValueError("the default game stays registered")
    game = _GAMES.pop(game_id, None)
    if game is not None and game.library.texts is not None:
        i18n.remove_texts(game.library.texts)
