"""`/notify dm on|off` and `/notify next on|off`: a driver's notifications by direct message.

- `dm`: when a turn prompt pings the driver, a short DM is owed too (the rally's channel, what
  they may roll); when a league round they have not finished closes in 24 h or 1 h, the same.
- `next`: when the driver before them in the round's order starts their turn, a heads-up by DM
  ("you are next"). DM only: a channel mention would ping them for a turn that is not theirs.

The DM is extra, never instead: the channel prompt always pings the driver, and the turn's clock
starts, as for everybody, when that channel prompt is delivered (`Delivery.sent`). So a driver
whose DMs are closed (Discord answers 403) still gets the channel ping, the refused DM is dropped
(`Failure.REFUSED`), and neither a failed nor a late DM ever starts a clock or counts a missed
turn. Why not skip the channel ping for DM users and fall back on failure: that would make the
turn's start wait on a DM's fate, and the channel would no longer show who is up.

A driver who just acted in the change (the one who played, the host who started) gets no DM for
the prompt it brings: they are reading the channel (a solo league run would else DM every turn).
The DMs are written by the hook `turn_dms_tx` in the transaction of the change that owes the
prompt (`RallyWork.post_hooks`), so they exist exactly when the prompt does.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot.engine.core.game import Game
from bot.engine.core.text import msg
from bot.services.errors import ServiceError
from bot.services.league.round_kit import league_post_tx
from bot.services.reply import Actor, Place, Reply
from bot.services.work import Change, Post, RallyWork, State, game_of, language_of_rally, post_tx
from bot.store import Rally
from bot.store.connection import Tx
from bot.store.leagues import League
from bot.store.notify import prefs_tx, set_pref_tx

#: The option as typed → its column in `notify_prefs`.
WHAT = {"dm": "dm", "next": "next_turn"}


class NotifyService:
    """The `/notify` command: a driver's own preferences (no permission needed)."""

    def __init__(self, work: RallyWork, clock: Callable[[], datetime]) -> None:
        self.work = work
        self.clock = clock

    async def set(self, place: Place, actor: Actor, what: object, value: object) -> Reply:
        """Turn `dm` or `next` on or off for the actor; a private answer saying what changed."""
        kind = str(what).strip().lower() if what is not None else ""
        if kind not in WHAT:
            raise ServiceError("notify.bad_kind", value=kind[:20])
        text = str(value).strip().lower() if value is not None else ""
        if text not in ("on", "off"):
            raise ServiceError("league.bad_on_off", option=kind, value=text[:20])
        now = self.clock()
        await self.work.store.db.write(lambda tx: set_pref_tx(tx, actor.user_id, WHAT[kind], text == "on", now))
        return Reply([msg(f"notify.{kind}_{text}")], ephemeral=True)


def next_driver(game: Game[Any, Any, Any, Any], state: State | None) -> int | None:
    """The driver who plays after the one whose turn it is, when the game's order knows it (a
    person: AI seats get no DM)."""
    seat = game.narrator.up_next(game.rules.view(state, None)) if state is not None else None
    return int(seat) if seat is not None and seat.isdigit() else None


def acting_name(game: Game[Any, Any, Any, Any], state: State | None) -> str | None:
    """The name of the seat whose turn it is (None: nobody's)."""
    if state is None:
        return None
    seats = game.rules.to_act(state)
    return game.narrator.seat_name(game.rules.view(state, None), min(seats)) if seats else None


async def turn_dms_tx(tx: Tx, rally: Rally, change: Change, now: datetime) -> list[int]:
    """Inside the change's transaction: the DMs its turn prompts owe (see the module docstring);
    the outbox ids."""
    prompts = [p for p in change.posts if p.turn is not None and p.ping]
    if not prompts:
        return []
    present = {e.actor for e in change.logged if e.actor is not None} | {change.played_by}
    state = change.final_state
    game = game_of(rally)
    upcoming = next_driver(game, state)
    prefs = await prefs_tx(tx, {u for p in prompts for u in p.ping} | ({upcoming} if upcoming else set()))
    channel = f"<#{rally.channel_id}>"
    dms: list[Post] = []
    for prompt in prompts:
        for user_id in prompt.ping:
            if user_id not in present and user_id in prefs and prefs[user_id].dm:
                dms.append(Post([msg("notify.turn_dm", channel=channel), prompt.lines[-1]], user_id=user_id))
        active = acting_name(game, state)
        if upcoming is not None and upcoming not in prompt.ping and upcoming in prefs and prefs[upcoming].next_turn \
                and active is not None:
            dms.append(Post([msg("notify.next_dm", name=active, channel=channel)], user_id=upcoming))
    lang = language_of_rally(rally)
    return [await post_tx(tx, dm, rally.guild_id, rally.channel_id, now, rally.id, lang) for dm in dms]


async def reminder_dms_tx(tx: Tx, league: League, waiting: list[int], lines: list[str], now: datetime) -> None:
    """Inside the reminder's transaction: the same reminder by DM to the waiting drivers who
    turned DMs on (their channel ping is posted anyway)."""
    prefs = await prefs_tx(tx, waiting)
    for user_id in waiting:
        if user_id in prefs and prefs[user_id].dm:
            dm = Post([*lines, msg("notify.league_channel", channel=f"<#{league.channel_id}>")], user_id=user_id)
            await league_post_tx(tx, league, dm, now)
