"""Where ratings come from: the ranking of people each stored result gives, read
the same way when the result is applied and when `db ratings --rebuild` replays it.

- a **live rally** (`rally`, its id): the finished rally's classification (`Game.rules.standing` of its
  stored snapshot: the outcome's ranks). A rally abandoned once running is rated as it stood at
  that moment (the same `Game.rules.standing`), the driver who abandoned it (its host) last of all: a
  host who abandons every rally they are losing keeps their losses. A driver kicked out of a
  running rally is not rated in it (no DNF: a host cannot rank a rival last by kicking them); they
  stay in its match as an opponent of fixed strength (`Placed.ai`), and whoever kicked them (the
  actor of the logged retirement of their car) ranks last, as one who abandons: kicking the rival
  one is losing to is no way out of a loss either. A driver retired by missed deadlines (the
  bot's retirement), or who left, is rated (out, last). Runs and league tables are rallies too,
  but they are rated through their round, never here.
- a **league round** (`round`, its id): its stored results (`round_results` positions, after any
  penalty or disqualification). A table game's round is one match per table (each table's own
  positions); a round on the week's official stage rates nothing itself (below).
- a **world week** (`week`, the world round's id): every official run of that game and week,
  driven on any server (the world ranking): finished runs by score, the game's way.

Who is rated: people only. An AI seat (a negative id) of a live rally is an opponent of fixed
strength (`Placed.ai`: the model's starting rating, never updated — the bot's AI plays the same
today as next year), so a person who races the AI alone is rated too, as the README's first solo
session shows; a match needs one person and two cars. Knocked-out, retired, not finished and
disqualified drivers all rank last, tied.

One performance moves a rating once: an official run of the week is rated in its world week
only (the one field every official run is in, and a public one), never again in the league
rounds it was driven in or answers; other league runs are rated in their round.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bot import games
from bot.engine.core.ranking import shared_ranks
from bot.services.play.ai_drivers import is_ai
from bot.store.connection import Tx
from bot.store.leagues import Round, counted_runs_tx, results_of_round_tx, round_tx
from bot.store.ratings import first_actors_tx, rally_seats_tx, week_runs_tx

RALLY, ROUND, WEEK = "rally", "round", "week"

_OUT = (1, 0)  # every driver out ranks after every finisher, tied
_LAST = (2,)  # the driver who abandoned a running rally: after everyone, out or not


@dataclass(frozen=True)
class Placed:
    """A person's place in one match: rank 1 is best, ties share a rank."""

    user_id: int
    name: str
    rank: int
    ai: bool = False  # an AI seat: a fixed-strength opponent, never rated itself


Match = list[Placed]


def placed(entries: Sequence[tuple[int, str, tuple[int, ...] | None]], last: Collection[int] = (),
           fixed: Collection[int] = ()) -> Match:
    """The cars of one match by their result key (better first; None: out, last and tied), their
    ranks shared on equal keys; the drivers `last` (who abandoned the rally, or kicked someone out
    of it) after all of them; AI seats and the people of `fixed` (kicked out) stay in as
    fixed-strength opponents, never rated (`Placed.ai`). No rated person, or fewer than two cars:
    no match ([])."""
    cars = [(uid, name, _LAST if uid in last else (0, *key) if key is not None else _OUT)
            for uid, name, key in entries]
    if len(cars) < 2 or all(is_ai(uid) or uid in fixed for uid, _, _ in cars):
        return []
    cars.sort(key=lambda p: (p[2], p[0]))
    ranks = shared_ranks([p[2] for p in cars])
    return [Placed(uid, name, rank, is_ai(uid) or uid in fixed) for (uid, name, _), rank in zip(cars, ranks)]


def is_round_rally(modules: object) -> bool:
    """A run's rally or a league table's: rated through its round, never as a live rally."""
    return isinstance(modules, dict) and ("run" in modules or "table" in modules)


async def rally_matches_tx(tx: Tx, rally_id: int, game_id: str) -> list[Match]:
    """A live rally's classification among its people, finished or abandoned once running (see
    the module's docstring): by `Game.rules.standing`; who abandoned it or kicked someone out of it
    last; a driver kicked out a fixed-strength opponent, never rated."""
    seats = await rally_seats_tx(tx, rally_id)
    if seats is None or seats.status not in ("finished", "abandoned") or seats.snapshot is None:
        return []
    game = games.get(game_id)
    state = game.rules.from_json(seats.snapshot)
    if seats.status == "finished" and game.rules.outcome(state) is None:
        return []
    standing = game.rules.standing(state)
    last = {seats.last_actor} if seats.status == "abandoned" and seats.last_actor is not None else set()
    kicks = {game.rules.encode(game.rules.retire_action(str(uid))) for uid in seats.kicked}
    last |= set((await first_actors_tx(tx, rally_id, kicks)).values())  # who retired a kicked car: the kicker
    entries = []
    for seat, key in standing:
        try:
            uid = int(seat)
        except ValueError:
            continue
        entries.append((uid, seats.names.get(uid, str(uid)), key))
    match = placed(entries, last, seats.kicked)
    return [match] if match else []


async def round_matches_tx(tx: Tx, rnd: Round) -> list[Match]:
    """A closed league round's stored results: one match, or one per table of a table game; none
    for a round on the week's official stage (its runs are rated in the world week)."""
    if rnd.league_id is None or rnd.week is not None or rnd.status != "closed":
        return []
    results = await results_of_round_tx(tx, rnd.id)
    tables: dict[int | None, list[tuple[int, str, tuple[int, ...] | None]]] = {}
    table_of: dict[int, int | None] = {}
    if not games.get(rnd.game).library.solo_runs:  # a table game: each table is its own match
        table_of = {r.user_id: r.rally_id for r in await counted_runs_tx(tx, rnd.id)}
    for r in sorted(results, key=lambda r: r.user_id):
        key = (r.position,) if r.status == "classified" and r.position is not None else None
        tables.setdefault(table_of.get(r.user_id), []).append((r.user_id, r.display_name, key))
    return [m for _, entries in sorted(tables.items(), key=lambda t: (t[0] is None, t[0] or 0))
            if (m := placed(entries))]


async def week_matches_tx(tx: Tx, rnd: Round) -> list[Match]:
    """A closed world week: every finished official run of its game by score, DNFs last."""
    if rnd.league_id is not None or rnd.week is None or rnd.status != "closed":
        return []
    kind = games.get(rnd.game).rules.result
    runs = await week_runs_tx(tx, rnd.game, rnd.week)
    match = placed([(r.user_id, r.display_name,
                     kind.key(r.score) if r.status == "finished" and r.score is not None else None) for r in runs])
    return [match] if match else []


async def matches_of_tx(tx: Tx, source: str, source_id: int, game_id: str) -> list[Match]:
    """The matches a stored result gives now (the rebuild's and the judge's reading)."""
    if source == RALLY:
        return await rally_matches_tx(tx, source_id, game_id)
    rnd = await round_tx(tx, source_id)
    if rnd is None:
        return []
    return await (week_matches_tx(tx, rnd) if source == WEEK else round_matches_tx(tx, rnd))
