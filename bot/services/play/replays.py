"""Animated replays: posted once when a rally or a run finishes, and `/replay rally:N`.

The post holds a reference to the replay (`images.replay_spec`: rally id and the version of its
finish), never its frames: the outbox sender draws it like any other picture (`draw_async` with
the store: one render worker job, kept on disk), so a second `/replay` of the same rally reads
the kept file and draws nothing.

At the finish (`on_rally_end`, an end hook of the unit of work: inside the transaction that ends
the rally) the rally's channel is owed one post with the replay — the run's own thread for a
championship run. The outbox delivers a row once (a retried send carries the same nonce, its
picture follows only the recorded delivery), so the replay is posted once.

Who may see which replay (`/replay`): a rally of the channel asked in (as `/rally results N`);
a run (a rally with a `run` module) once its round is closed, when that round is a league round
of this server or a world scratch round (public once its week is closed). A run of a round still
open is refused (its dice would help those still driving: DESIGN §6), whichever channel asks;
anything else is "no finished rally N here", privately, and nothing changes.
"""

from __future__ import annotations

from bot import games
from bot.engine.core.text import msg
from bot.services.alt_text import replay_about
from bot.services.errors import ServiceError
from bot.services.images import replay_spec
from bot.services.inputs import number
from bot.services.reply import Actor, Place, Reply
from bot.services.work import Change, Post, RallyWork, for_rally, game_of, language_of_rally, post_tx
from bot.store import Rally
from bot.store.connection import Tx
from bot.store.leagues import league_tx, round_tx, run_of_rally_tx

MAX_RALLY_ID = 2**63 - 1


def animated(rally: Rally) -> bool:
    """Does the rally's game draw a board (a replay is its boards)?"""
    return games.get(rally.game).pictures is not None


def is_run(rally: Rally) -> bool:
    return isinstance(rally.modules, dict) and "run" in rally.modules


class Replays:
    """The end hook that owes a finished rally's replay, and `/replay`."""

    def __init__(self, work: RallyWork) -> None:
        self.work = work
        self.store = work.store
        work.end_hooks.append(self.on_rally_end)

    async def on_rally_end(self, tx: Tx, rally: Rally, change: Change, status: str) -> None:
        """Inside the transaction that ends `rally`: a finished rally of a game with a board owes
        its channel one post with its replay (up to the version of its finish)."""
        if status != "finished" or not animated(rally):
            return
        version = rally.version + len(change.logged)  # each logged entry is one version
        final = change.final_state
        about = replay_about(rally.game, final) if final is not None else None
        post = Post([msg("replay.ready", rally=rally.id)], image=replay_spec(rally.id, version, rally.game, about))
        await post_tx(tx, for_rally(post, rally), rally.guild_id, rally.channel_id, self.work.clock(), rally.id,
                      language_of_rally(rally))

    async def replay(self, place: Place, actor: Actor, rally_id: object) -> Reply:
        """Post the replay of finished rally (or run) `rally_id` here, if this place may see it."""
        if place.guild_id <= 0:
            raise ServiceError("discord.guild_only")
        wanted = int(number("rally", str(rally_id if rally_id is not None else "").strip().lstrip("#"),
                            1, MAX_RALLY_ID, whole=True))
        rally = await self.store.rallies.find(wanted)
        if rally is None:
            raise ServiceError("replay.not_here", rally=wanted)
        if is_run(rally):
            await self.store.db.read(lambda tx: self._run_visible_tx(tx, rally, place))
        elif rally.guild_id != place.guild_id or rally.channel_id != place.channel_id:
            raise ServiceError("replay.not_here", rally=wanted)
        if rally.status != "finished" or rally.snapshot is None:
            raise ServiceError("replay.not_finished", rally=wanted)
        if not animated(rally):
            raise ServiceError("replay.no_board", rally=wanted)
        game = game_of(rally)
        state = self.work.state_of(rally)
        title = game.narrator.title(game.rules.view(state, None))
        post = Post([msg("replay.head", rally=rally.id, title=title)],
                    image=replay_spec(rally.id, rally.version, rally.game, replay_about(rally.game, state)))
        lang = language_of_rally(rally) if rally.channel_id == place.channel_id else place.lang
        now = self.work.clock()
        row = await self.store.db.write(lambda tx: post_tx(tx, post, place.guild_id, place.channel_id, now, lang=lang))
        self.work.wake()
        return Reply(list(post.lines), outbox=(row,))

    async def _run_visible_tx(self, tx: Tx, rally: Rally, place: Place) -> None:
        """Refuse a run's replay this place may not see: its round still open (wherever asked),
        a league round of another server; a world round is public once closed."""
        run = await run_of_rally_tx(tx, rally.id)
        rnd = await round_tx(tx, run.round_id) if run is not None else None
        if rnd is None:
            raise ServiceError("replay.not_here", rally=rally.id)
        if rnd.league_id is not None:
            league = await league_tx(tx, rnd.league_id)
            if league is None or league.guild_id != place.guild_id:
                raise ServiceError("replay.not_here", rally=rally.id)
        if rnd.status != "closed":
            raise ServiceError("replay.round_open", rally=rally.id)
