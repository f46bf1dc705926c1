"""Finished rallies stay readable: `/rally results [rally]` and `/rally history`.

A finished rally keeps its last snapshot, so its classification and its last board are drawn
from it again, exactly as they were posted at the finish. Only the rallies of the channel asked
in are shown (a rally of another channel may be private): `/rally results` without a rally is
the channel's latest finished one, `/rally history` lists the latest ones with their ids.
"""

from __future__ import annotations

from typing import Any

from bot.engine.core.game import Game
from bot.engine.core.scores import format_score
from bot.engine.core.text import msg
from bot.services.errors import ServiceError
from bot.services.images import board_spec, results_spec
from bot.services.inputs import number
from bot.services.play.provisional import provisional_lines
from bot.services.reply import Actor, Place, Reply
from bot.services.work import Post, RallyWork, State, game_of, language_of_rally, post_tx
from bot.store import Rally
from bot.store.connection import Tx

HISTORY_SIZE = 10  # rallies `/rally history` lists
MAX_RALLY_ID = 2**63 - 1


def winner_of(game: Game[Any, Any, Any, Any], state: State) -> tuple[str, int] | None:
    """(name, score) of the rally's winner: the first of the game's outcome (classic: the rally
    classification, A17, or the special's for a rally of one stage); None when nobody finished."""
    outcome = game.rules.outcome(state)
    first = outcome.seats[0] if outcome is not None and outcome.seats else None
    if first is None or first.status != "finished" or first.score is None:
        return None
    return (game.narrator.seat_name(game.rules.view(state, None), first.seat) or first.seat, first.score)


class Archive:
    """`results` (posted in the channel) and `history` (private)."""

    def __init__(self, work: RallyWork) -> None:
        self.work = work
        self.store = work.store

    async def _finished(self, place: Place, rally_id: object) -> Rally:
        if place.guild_id <= 0:
            raise ServiceError("discord.guild_only")
        if rally_id is None or str(rally_id).strip() == "":
            latest = await self.store.rallies.finished_in_channel(place.guild_id, place.channel_id, 1)
            if not latest:
                raise ServiceError("archive.none_finished")
            return latest[0]
        wanted = int(number("rally", str(rally_id).strip().lstrip("#"), 1, MAX_RALLY_ID, whole=True))
        rally = await self.store.rallies.find(wanted)
        if rally is None or rally.guild_id != place.guild_id or rally.channel_id != place.channel_id:
            raise ServiceError("archive.not_here", rally=wanted)
        if rally.status != "finished" or rally.snapshot is None:
            key = "archive.still_running" if rally.status in ("lobby", "running") else "archive.abandoned"
            raise ServiceError(key, rally=wanted)
        return rally

    async def results(self, place: Place, actor: Actor, rally_id: object = None) -> Reply:
        """Post a finished rally's final classification (with its image), then its last board."""
        rally = await self._finished(place, rally_id)
        game = game_of(rally)
        state = self.work.state_of(rally)
        view = game.rules.view(state, None)
        lead = msg("archive.results_head", rally=rally.id, title=game.narrator.title(view), when=rally.updated_at[:10])
        classified = Post([lead, *game.narrator.classification(view), *provisional_lines(rally.game, rally.ruleset)],
                          image=results_spec(state, rally.game))
        board = Post([msg("archive.last_board", rally=rally.id)], image=board_spec(state, rally.game))
        now = self.work.clock()
        lang = language_of_rally(rally)

        async def body(tx: Tx) -> tuple[int, ...]:
            return tuple([await post_tx(tx, post, place.guild_id, place.channel_id, now, lang=lang)
                          for post in (classified, board)])

        committed = await self.store.db.write(body)
        self.work.wake()
        return Reply(list(classified.lines), outbox=committed)

    async def history(self, place: Place, actor: Actor) -> Reply:
        """The channel's latest finished rallies, newest first: id, title, winner, date."""
        if place.guild_id <= 0:
            raise ServiceError("discord.guild_only")
        rallies = await self.store.rallies.finished_in_channel(place.guild_id, place.channel_id, HISTORY_SIZE)
        if not rallies:
            raise ServiceError("archive.none_finished")
        lines = [msg("archive.history_head", count=len(rallies))]
        for rally in rallies:
            game = game_of(rally)
            state = self.work.state_of(rally)
            won = winner_of(game, state)
            outcome = game.rules.outcome(state)
            title = game.narrator.title(game.rules.view(state, None))
            lines.append(msg("archive.history_row", rally=rally.id, title=title,
                             drivers=len(outcome.seats) if outcome is not None else 0, when=rally.updated_at[:10],
                             winner=msg("archive.won_by", name=won[0], time=format_score(game.rules.result, won[1]))
                             if won else msg("archive.nobody_finished")))
        lines.append(msg("archive.history_hint"))
        return Reply(lines, ephemeral=True)

    async def latest_hint(self, place: Place) -> ServiceError:
        """The refusal of `/rally status` in a channel with no rally: points to the last one that
        finished here, if any."""
        latest = await self.store.rallies.finished_in_channel(place.guild_id, place.channel_id, 1)
        if not latest:
            return ServiceError("rally.none_here")
        game = game_of(latest[0])
        view = game.rules.view(self.work.state_of(latest[0]), None)
        return ServiceError("archive.status_after_finish", rally=latest[0].id, title=game.narrator.title(view))
