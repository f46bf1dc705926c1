"""The world rounds of an ISO week: one per game that has solo runs, each on that game's official
stage of the week (`StageLibrary.official`), driven once by anyone on any server.

One row per game and week in `rounds` (league NULL, unique by (game, week) since migration 12),
created by the first caller who needs it (the week's rollover job, a `/scratch run`, a league of
that game adding an official round), in that caller's transaction: the unique index makes
concurrent callers agree on one seed. Its dice are always personal (the seed and the driver's id),
so scouting with a second account reveals nothing. It plays the game's default ruleset (the first
of `Game.library.rulesets()`: classic's is `classic`, as it always was).

Its jobs are `scratch.open` / `scratch.close` with the ref `week:W` for classic (unchanged, so the
jobs already scheduled keep running) and `week:W:GAME` for any other game.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot import games
from bot.engine.core.game import Game
from bot.engine.core.official import week_bounds
from bot.engine.core.scores import format_score
from bot.engine.core.text import msg
from bot.services.errors import ServiceError
from bot.services.league.round_kit import seed_hash, world_title
from bot.services.play.provisional import provisional_lines
from bot.store.connection import Tx
from bot.store.jobs import schedule_tx
from bot.store.leagues import Round, add_round_tx, world_round_tx

KIND_WEEK_OPEN, KIND_WEEK_CLOSE = "scratch.open", "scratch.close"
SCRATCH_KINDS = (KIND_WEEK_OPEN, KIND_WEEK_CLOSE)
__all__ = [
    "SCRATCH_KINDS",
    "ensure_week_tx",
    "score_text",
    "scratch_command",
    "week_of_ref",
    "week_ref",
    "world_game",
    "world_head",
    "world_title",
]


def week_ref(week: str, game: str = games.DEFAULT_GAME) -> str:
    """The jobs' ref of a game's world week: `week:W` (classic), `week:W:GAME` (any other)."""
    return f"week:{week}" if game == games.DEFAULT_GAME else f"week:{week}:{game}"


def week_of_ref(ref: str) -> tuple[str, str]:
    """(week, game) of a world week's job ref (`week_ref` read back)."""
    week, _, game = ref.removeprefix("week:").partition(":")
    return week, game or games.DEFAULT_GAME


def world_game(game_id: object) -> Game[Any, Any, Any, Any]:
    """The game of a world scratch: a registered game (None or empty: the default) with solo
    runs; anything else is refused naming it."""
    text = str(game_id).strip().lower()[:40] if game_id is not None else ""
    game = games.get(text or None)
    if not game.library.solo_runs:
        raise ServiceError("scratch.no_world_for_game", game=msg(game.library.name))
    return game


def scratch_command(game: str) -> str:
    """The command that drives a game's world week (the game named unless it is the default)."""
    return msg("scratch.command") if game == games.DEFAULT_GAME else msg("scratch.command_game", game=game)


def score_text(game: Game[Any, Any, Any, Any], score: int) -> str:
    """A world-ranking score in the game's unit (a time, or points)."""
    return format_score(game.rules.result, score)


def world_head(rnd: Round) -> list[str]:
    """What a world round's posts add under its title: "provisional rules" when its ruleset is
    provisional (RULES B13), nothing otherwise."""
    return provisional_lines(rnd.game, rnd.ruleset)


async def ensure_week_tx(tx: Tx, week: str, now: datetime, seed_source: Callable[[], str],
                         game: str = games.DEFAULT_GAME) -> Round:
    """Inside `tx`: `game`'s world round of the week, created (open if the week has begun) with its jobs."""
    found = await world_round_tx(tx, week, game)
    if found is not None:
        return found
    played = world_game(game)
    opens, closes = week_bounds(week)
    seed = seed_source()
    _, number = week.split("-W")
    rnd = await add_round_tx(tx, league_id=None, specials=[played.library.stages.official(week)], assistance=[True],
                             power_stage=False, week=week, opens_at=opens, closes_at=closes, seed=seed,
                             seed_hash=seed_hash(seed), dice="personal", ruleset=played.library.rulesets()[0],
                             modules={}, created_by=None, now=now, number=int(number), game=played.id)
    # made after the week began (its first `/scratch run`): announced now, not as a late job
    await schedule_tx(tx, KIND_WEEK_OPEN, week_ref(week, played.id), max(opens, now))
    await schedule_tx(tx, KIND_WEEK_CLOSE, week_ref(week, played.id), closes)
    return rnd
