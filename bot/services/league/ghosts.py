"""Choosing a run's ghost car: `/run start ghost:best|leader`, `/scratch run ghost:…`.

A driver starting a solo run may race the ghost of
- **their personal best** on that stage: their best finished run of the game on the same course
  of specials, any round, any server (it is their own), or
- **the leader**: the best finished run on it that is already public to them without scouting,
  from **closed** rounds only (this server's leagues, or a world scratch week that closed).
  No ghost of an open round: its runs stay hidden until it closes (DESIGN §6: a run's place turn
  by turn tells a driver what the others did, and with shared dice the dice themselves).

The ghost is chosen once, at the start (not switched mid-run: the run's boards all show the same
ghost, and a driver cannot peek at one ghost after another while driving). Its run is replayed
from its stored log (`bot.services.play.replay`) into a track of public marks
(`bot.services.league.ghost_board.ghost_track`) kept in the new run's rally modules. Every refusal
(an unknown choice, a game without ghosts, no personal best, no closed run) comes before
anything is written: the run does not start.
"""

from __future__ import annotations

from typing import Any

from bot import games
from bot.engine.core.errors import RallyError
from bot.engine.core.game import Game
from bot.engine.core.text import Listed, msg
from bot.services.errors import ServiceError
from bot.services.league.ghost_board import KINDS, ghost_track
from bot.services.play.replay import replay_states
from bot.store import Store
from bot.store.ghosts import best_run_tx, leader_run_tx, open_runs_on_stage_tx
from bot.store.leagues import Round, Run

#: `ghost:` values that mean no ghost
OFF = ("", "off", "none")
MAX_CHOICE = 20


def ghost_choice(value: object) -> str | None:
    """The ghost asked for: `best`, `leader`, or None (none given, or `off`); anything else is
    refused naming the choices."""
    if value is None:
        return None
    text = str(value).strip().lower()
    if text in OFF:
        return None
    if text not in KINDS:
        raise ServiceError("ghost.bad_choice", value=str(value).strip()[:MAX_CHOICE],
                           choices=Listed([*KINDS, OFF[1]], "either"))
    return text


def has_ghosts(game: Game[Any, Any, Any, Any], state: Any) -> bool:
    """Whether the game draws ghosts (its `ghost_marks` answers for a state of it)."""
    return game.ghosts is not None


def stage_words(rnd: Round) -> str:
    """The course's stage titles, for a refusal ("no personal best on Black Moor yet")."""
    facts = games.get(rnd.game).library.stages
    titles = []
    for name in rnd.specials:
        try:
            titles.append(facts.facts(name).title)
        except RallyError:  # a stage that no longer loads is named as it is
            titles.append(name)
    return ", ".join(titles)


async def ghost_run(store: Store, rnd: Round, user_id: int, guild_id: int, kind: str) -> Run:
    """The run a ghost of `kind` is drawn from for a run of `rnd` by `user_id` on the server
    `guild_id`, or a refusal saying why there is none."""
    game = games.get(rnd.game)

    async def read(tx: Any) -> tuple[Run | None, int]:
        if kind == "best":
            return await best_run_tx(tx, user_id, game.id, list(rnd.specials), game.rules.result), 0
        found = await leader_run_tx(tx, guild_id, game.id, list(rnd.specials), game.rules.result)
        return found, 0 if found else await open_runs_on_stage_tx(tx, guild_id, game.id, list(rnd.specials))

    run, hidden = await store.db.read(read)
    if run is not None:
        return run
    stage = stage_words(rnd)
    if kind == "best":
        raise ServiceError("ghost.no_best", stage=stage)
    raise ServiceError("ghost.leader_open" if hidden else "ghost.no_leader", stage=stage)


async def choose_ghost(store: Store, rnd: Round, user_id: int, guild_id: int, value: object
                       ) -> dict[str, Any] | None:
    """The ghost a run of `rnd` races (what its rally's `modules["ghost"]` keeps), or None when
    none was asked for: its kind, the run it comes from, the name and time shown, and its track."""
    kind = ghost_choice(value)
    if kind is None:
        return None
    game = games.get(rnd.game)
    run = await ghost_run(store, rnd, user_id, guild_id, kind)
    assert run.rally_id is not None  # ghost_run reads runs with a log only
    rally = await store.rallies.get(run.rally_id)
    row = {**rally.as_dict(), "drivers": [d.as_dict() for d in await store.drivers.list(run.rally_id)]}
    log = [a.as_dict() for a in await store.actions.list(run.rally_id)]
    track = ghost_track(game, replay_states(row, log), str(run.user_id))
    if not track:
        raise ServiceError("ghost.not_in_game", game=msg(game.library.name))
    return {"kind": kind, "run_id": run.id, "name": run.display_name, "score": run.score, "track": track}
