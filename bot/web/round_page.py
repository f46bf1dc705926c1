"""A round's page: every run counting in it with its score, the seed's hash while the round is
open and the seed once it closed, the stored classification (points, penalties) after the close,
and the result cards to download: the round's file (`/round/N/cards.json`, as attached to the
results post) and each driver's card alone (`/round/N/card/DRIVER.json`); `python -m bot verify
FILE` checks either offline.

A league round is shown only when its league is public; a world round always (the world
ranking is public). A run's rally is linked only where its page is public (bot/store/web.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from bot import games
from bot.services.league.points import Classified
from bot.services.league.round_close import reason_text, stored_classification
from bot.services.league.round_kit import round_title, specials_text
from bot.services.league.table_games import is_table_game
from bot.services.world.cards import carded
from bot.services.world.rounds import score_text
from bot.store import Store
from bot.store.connection import Tx
from bot.store.leagues import League, Round, cards_tx, counted_runs_tx, results_of_round_tx, round_tx
from bot.store.web import public_league_tx
from bot.web.league_page import local_time, moves_tx

UTC_ZONE = "UTC"


@dataclass(frozen=True)
class RunRow:
    name: str
    status: str  # running | finished | dnf
    score: str | None
    reason: object  # why not finished, in words (a message), or None
    rally_id: int | None  # its rally, when that page is public
    card: int | None  # the driver whose card the file holds (None: no card)


@dataclass(frozen=True)
class ResultRow:
    line: Classified
    score: str | None
    gap: str | None
    reason: object


@dataclass(frozen=True)
class RoundPage:
    round: Round
    league: League | None
    title: object
    stage: object
    zone: str
    opens: str
    closes: str
    runs: list[RunRow]
    results: list[ResultRow]
    has_cards: bool
    unit: str  # the game's result unit: "s" (a time) or victory points
    moves: list[str] = field(default_factory=list)  # each move of the round, oldest first (`moved_line`)


async def public_round_tx(tx: Tx, round_id: int) -> tuple[Round, League | None] | None:
    """The round and its league when the round may be shown (league public, or a world round)."""
    rnd = await round_tx(tx, round_id)
    if rnd is None:
        return None
    if rnd.league_id is None:
        return rnd, None
    league = await public_league_tx(tx, rnd.league_id)
    return (rnd, league) if league is not None else None


async def round_page_tx(tx: Tx, round_id: int) -> RoundPage | None:
    found = await public_round_tx(tx, round_id)
    if found is None:
        return None
    rnd, league = found
    game = games.get(rnd.game)
    runs = await counted_runs_tx(tx, rnd.id)
    closed = rnd.status == "closed"
    # a table round publishes no cards (a card replays one driver alone: bot/services/league/round_close.py)
    cards = {r.id for r in carded(rnd, runs)} if closed and not is_table_game(rnd.game) else set()
    rows = []
    for run in sorted(runs, key=lambda r: (r.status != "finished", game.rules.result.key(r.score),
                                           r.display_name.lower())):
        # its rally's page is public (`rally_league_tx`) when it was driven in this closed round of a public league
        public = run.rally_id is not None and closed and league is not None and run.round_id == rnd.id
        rows.append(RunRow(run.display_name, run.status,
                           score_text(game, run.score) if run.score is not None and run.status == "finished" else None,
                           reason_text(run.reason) if run.status == "dnf" else None,
                           run.rally_id if public else None, run.user_id if run.id in cards else None))
    results = []
    if closed and league is not None:
        for line in stored_classification(rnd, await results_of_round_tx(tx, rnd.id), runs):
            results.append(ResultRow(line, score_text(game, line.score) if line.score is not None else None,
                                     score_text(game, line.gap_s) if line.gap_s is not None else None,
                                     reason_text(line.reason) if line.status != "classified" else None))
    zone = league.timezone if league is not None else UTC_ZONE
    moves = (await moves_tx(tx, league)).get(rnd.id, []) if league is not None else []
    return RoundPage(rnd, league, round_title(rnd, league.name if league else None),
                     specials_text(rnd.specials, rnd.game), zone, local_time(rnd.opens_at, zone),
                     local_time(rnd.closes_at, zone), rows, results, closed and bool(cards), game.rules.result.unit,
                     moves)


async def round_page(store: Store, round_id: int) -> RoundPage | None:
    return await store.db.read(lambda tx: round_page_tx(tx, round_id))


async def cards_file_of(store: Store, round_id: int) -> tuple[Round, str] | None:
    """The round's cards file, when the round may be shown and is closed (the file is written at the close)."""
    async def read(tx: Tx) -> tuple[Round, str] | None:
        found = await public_round_tx(tx, round_id)
        if found is None or found[0].status != "closed":
            return None
        body = await cards_tx(tx, round_id)
        return (found[0], body) if body is not None else None

    return await store.db.read(read)


def one_card(body: str, driver: int) -> str | None:
    """The card of `driver` from a round's cards file, as a file of its own (None: no such card)."""
    document: dict[str, Any] = json.loads(body)
    for card in document.get("cards", []):
        if isinstance(card, dict) and card.get("driver") == str(driver):
            return json.dumps(card, ensure_ascii=False, separators=(",", ":"))
    return None
