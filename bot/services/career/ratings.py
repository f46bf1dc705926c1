"""Ratings per game: OpenSkill, applied in the transaction of the result they come
from, recomputable from the stored results in the stored order.

- **Model**: `openskill.models.BradleyTerryPart`. A world week or a league round can rank a
  thousand drivers and more in one match; Plackett-Luce costs O(n²) there (≈ 80 ms for 1,000
  drivers, over 2 s for 5,000 on this machine) while the partial-pairing Bradley-Terry compares
  each driver with their neighbours in the ranking (window of 4 each side) in O(n) (≈ 7 ms for
  1,000, 40 ms for 5,000), which is what a ranking of strangers tells anyway. Its defaults (mu 25,
  sigma 25/3) are the starting rating.
- **Displayed rating**: `display_rating`: the ordinal mu − 3σ (a rating the driver has at least,
  with 99.7 % confidence), ×40, plus 1000, rounded: a new driver shows 1000, a proven fast one
  around 2000.
- **When**: a live rally that ends finished or abandoned once running (`RallyWork.end_hooks`), a
  league round's close and a world week's close (`bot/services/league/round_close.py` calls
  `rate_closed_round_tx` in its transaction); what counts and who ranks where:
  `bot/services/career/rating_sources.py`. Each result is applied once (`rating_events` is unique by
  source) and in order (the game's rating lock).
- **Judging** a closed round (a penalty, a disqualification) changes its stored results: the
  game's ratings are replayed from that round's event on (`rerate_round_tx`, the same function as
  the rebuild), so they are what they would have been had the round closed with those results.
- **Rebuild**: `rebuild_tx` replays every game from its first event: `db ratings --rebuild`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from openskill.models import BradleyTerryPart

from bot.services.career.rating_sources import RALLY, ROUND, WEEK, Match, is_round_rally, matches_of_tx
from bot.services.work import Change, RallyWork
from bot.store import Rally
from bot.store.clock import to_text
from bot.store.connection import Tx
from bot.store.leagues import Round
from bot.store.ratings import (
    Rated,
    Rating,
    add_event_tx,
    add_history_tx,
    event_of_tx,
    events_tx,
    lock_game_tx,
    put_ratings_tx,
    rated_games_tx,
    ratings_of_tx,
    rewind_tx,
)

MODEL = BradleyTerryPart()
SCALE = 40
BASE = 1000


def display_rating(mu: float, sigma: float) -> int:
    """The rating a driver is shown: round(1000 + 40 × (mu − 3σ)) (see the module's docstring)."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def rate_matches(game: str, prior: dict[int, Rating], matches: list[Match], event_id: int, at: str
                 ) -> tuple[list[Rating], list[Rated]]:
    """The new ratings and history rows of one event: each match rated by the model from the
    drivers' ratings before it (a driver never rated starts at the model's defaults; an AI seat
    is always at them, and its new rating is dropped: `rating_sources.Placed.ai`)."""
    ratings: list[Rating] = []
    history: list[Rated] = []
    for match in matches:
        teams: list[list[Any]] = []
        for p in match:
            before = None if p.ai else prior.get(p.user_id)
            teams.append([MODEL.rating() if before is None else MODEL.rating(mu=before.mu, sigma=before.sigma)])
        after = MODEL.rate(teams, ranks=[p.rank for p in match])
        for p, (new,) in zip(match, after):
            if p.ai:
                continue
            before = prior.get(p.user_id)
            old = ordinal(before.mu, before.sigma) if before is not None else ordinal(MODEL.mu, MODEL.sigma)
            mu, sigma = float(new.mu), float(new.sigma)
            now = ordinal(mu, sigma)
            ratings.append(Rating(game, p.user_id, p.name, mu, sigma, now, now - old,
                                  (before.events if before is not None else 0) + 1, at))
            history.append(Rated(event_id, p.user_id, game, p.name, p.rank, mu, sigma, now, now - old, at))
    return ratings, history


async def _apply_tx(tx: Tx, game: str, event_id: int, matches: list[Match], at: str) -> int:
    """Apply one event's matches to the stored ratings; how many drivers it rated."""
    prior = await ratings_of_tx(tx, game, (p.user_id for m in matches for p in m if not p.ai))
    ratings, history = rate_matches(game, prior, matches, event_id, at)
    await put_ratings_tx(tx, ratings)
    await add_history_tx(tx, history)
    return len(ratings)


async def apply_source_tx(tx: Tx, game: str, source: str, source_id: int, now: datetime,
                          matches: list[Match] | None = None) -> int:
    """Inside the transaction that stores a result: apply it to `game`'s ratings, after every
    result applied before; once (a second call does nothing). How many drivers it rated."""
    await lock_game_tx(tx, game)
    if matches is None:
        matches = await matches_of_tx(tx, source, source_id, game)
    if not matches:
        return 0
    at = to_text(now)
    event_id = await add_event_tx(tx, game, source, source_id, at)
    if event_id is None:
        return 0
    return await _apply_tx(tx, game, event_id, matches, at)


async def replay_tx(tx: Tx, game: str, first_id: int = 0) -> int:
    """Recompute `game`'s ratings from event `first_id` on: what those events did is forgotten,
    then each is applied again, in order, from its stored result as it reads now. Events applied
    before `first_id` are kept as they are. How many events were replayed."""
    await lock_game_tx(tx, game)
    await rewind_tx(tx, game, first_id)
    events = await events_tx(tx, game, first_id)
    for event in events:
        matches = await matches_of_tx(tx, event.source, event.source_id, game)
        if matches:  # a result that no longer ranks two people keeps its place and rates nobody
            await _apply_tx(tx, game, event.id, matches, event.applied_at)
    return len(events)


async def rebuild_tx(tx: Tx) -> int:
    """Every game's ratings recomputed from the stored results in the stored order (`db ratings
    --rebuild`); how many events were replayed."""
    return sum([await replay_tx(tx, game) for game in await rated_games_tx(tx)])


async def rate_closed_round_tx(tx: Tx, rnd: Round, now: datetime) -> int:
    """Inside a round's close (`close_round`): a world week's ranking or a league round's results
    applied to its game's ratings (a round of the week's official stage: nothing, see
    `bot/services/career/rating_sources.py`)."""
    return await apply_source_tx(tx, rnd.game, WEEK if rnd.league_id is None else ROUND, rnd.id, now)


async def rerate_round_tx(tx: Tx, rnd: Round) -> int:
    """Inside a judgement of a closed round (its results just recomputed): the game's ratings
    replayed from the round's event on. A round that was not rated: nothing."""
    event = await event_of_tx(tx, WEEK if rnd.league_id is None else ROUND, rnd.id)
    if event is None:
        return 0
    return await replay_tx(tx, event.game, event.id)


class RatingHooks:
    """Rates a live rally inside the transaction that ends it, finished or abandoned (`RallyWork.end_hooks`;
    an abandoned rally that had not started rates nobody: `rating_sources.rally_matches_tx`)."""

    def __init__(self, work: RallyWork, clock: Callable[[], datetime]) -> None:
        self.work = work
        self.clock = clock
        work.end_hooks.append(self.on_rally_end)

    async def on_rally_end(self, tx: Tx, rally: Rally, change: Change, status: str) -> None:
        if status not in ("finished", "abandoned") or is_round_rally(rally.modules):
            return
        await apply_source_tx(tx, rally.game, RALLY, rally.id, self.clock())
