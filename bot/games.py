"""The registry: the one place that lists the games the bot runs (DESIGN §9).

Everything outside a game's own folders (`bot/engine/<game>/`, `bot/render/<game>/`) reaches a
game through `get(game_id)` and the `Game` protocol (bot.engine.core.game), never by importing it.
Tests may `register` a game of their own (the toy game proves a new game needs no change elsewhere)
and `unregister` it afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot import i18n
from bot.engine.core.game import Game, UnknownGame, Verb
from bot.engine.core.text import msg
from bot.engine.dirt.protocol import DIRT
from bot.engine.rallyman.protocol import RALLYMAN
from bot.engine.roadrally.protocol import ROADRALLY

if TYPE_CHECKING:  # a painter is imported on first use only (Pillow)
    from bot.render.painter import Painter

#: the game a rally, league or command without one is played in (every one before)
DEFAULT_GAME = "rallyman"

_GAMES: dict[str, Game[Any, Any, Any, Any]] = {RALLYMAN.id: RALLYMAN, DIRT.id: DIRT, ROADRALLY.id: ROADRALLY}

#: the games' own tools of `python -m bot`, by subcommand: the module in the game's folder that
#: registers it (classic's boards and previews as PNG files); `stage:GAME` is a game's stage tool,
#: picked by `python -m bot stage … --game GAME` (bot/cli/stage.py), classic's and DIRT's
TOOLS = {"render": "bot.render.rallyman.tool",
         "stage:rallyman": "bot.engine.rallyman.stages.tool", "stage:dirt": "bot.engine.dirt.stages.tool"}


def _classic_painter() -> Painter[Any, Any, Any, Any]:
    from bot.render.rallyman.painter import PAINTER

    return PAINTER


def _dirt_painter() -> Painter[Any, Any, Any, Any]:
    from bot.render.dirt.painter import PAINTER

    return PAINTER


def _roadrally_painter() -> Painter[Any, Any, Any, Any]:
    from bot.render.roadrally.painter import PAINTER

    return PAINTER


#: each game's painter (bot.render.painter), imported on first use: a process that never draws
#: never loads Pillow, and a render worker loads the painters only
_PAINTERS: dict[str, Callable[[], Painter[Any, Any, Any, Any]]] = {
    RALLYMAN.id: _classic_painter, DIRT.id: _dirt_painter, ROADRALLY.id: _roadrally_painter}


def painter(game_id: str) -> Painter[Any, Any, Any, Any]:
    """The painter of `game_id`'s pictures; a game that draws none is refused."""
    found = _PAINTERS.get(get(game_id).id)
    if found is None:
        raise ValueError(f"the game {game_id!r} draws no pictures")
    return found()


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
    """Add a game (tests' toy games; the real games are listed above), with its own texts when it
    brings them (`texts`: a folder of `<lang>.json`). Refuses a taken id, and a private command
    (`Verb.private`: answered from the game's odds) in a game without odds."""
    if game.id in _GAMES:
        raise ValueError(f"a game called {game.id!r} is registered already")
    if game.odds is None and any(v.private for v in game.commands.verbs):
        raise ValueError(f"the game {game.id!r} has a private command but no odds to answer it")
    _GAMES[game.id] = game
    if game.library.texts is not None:
        i18n.add_texts(game.library.texts)


def unregister(game_id: str) -> None:
    if game_id == DEFAULT_GAME:
        raise ValueError("the default game stays registered")
    game = _GAMES.pop(game_id, None)
    if game is not None and game.library.texts is not None:
        i18n.remove_texts(game.library.texts)
