"""The outbox sender: delivers what the bot owes Discord, in order per channel, once.

One task (`run`) claims the oldest owed row of each lane (`Delivery.claim`), and sends the rows
of different lanes concurrently (at most `CONCURRENCY` at once); the rows of one lane go one
after the other. It wakes as soon as a commit owes something (`wake`, called by the unit of
work) and otherwise looks again every `IDLE_S` seconds for rows whose retry time came.

For each row it draws the image (a drawing that fails is logged and the text goes without it),
sends the message with a nonce made from the row id (discord.py sends it with `enforce_nonce`,
so a send repeated after a crash between Discord's answer and our bookkeeping is not posted
twice), then reports the outcome to `Delivery`, which decides what it changes (deadline from
delivery, retry, pause, abandon; see bot/services/delivery.py). The old turn message loses its
buttons after the new one is delivered.

A row may carry a file to attach, read from the store at delivery (`attach` in its body): a
closed round's result cards (`{"kind": "cards", "round_id": N, "name": "round-N-cards.json"}`)
go with the results post as a second file. Cards too large for one Discord attachment (8 MiB)
are not sent; the post says so instead.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.i18n import t
from bot.services.delivery import Delivery, Failure, Outgoing
from bot.services.images import Renderer, draw_async
from bot.store.leagues import cards_tx
from bot.views.publish import MAX_CONTENT, content_of, file_of, mentions_for
from bot.views.turn_buttons import turn_view

if TYPE_CHECKING:
    from bot.client import RallyBot

log = logging.getLogger(__name__)

CONCURRENCY = 8
IDLE_S = 2.0
SEND_TIMEOUT_S = 60.0  # well under the outbox lease (120 s), so a row is never sent by two senders
UNKNOWN_CHANNEL = 10003
UNKNOWN_USER = 10013
MAX_INTERNAL_ATTEMPTS = 5  # a row that keeps failing inside the bot is given up, so its lane moves on
CANNOT_DM = 50007
TOO_LARGE = 40005
MAX_ATTACHMENT = 8 * 1024 * 1024  # the attachment size every Discord server accepts
CARDS_NAME = re.compile(r"round-\d+-cards\.json")


def classify(exc: BaseException) -> tuple[Failure, float | None]:
    """What a failed send means for the row: (failure, seconds to wait or None)."""
    if isinstance(exc, discord.RateLimited):
        return Failure.RETRY, exc.retry_after
    if isinstance(exc, discord.HTTPException):
        if exc.status == 429:
            retry = exc.response.headers.get("Retry-After") if exc.response is not None else None
            try:
                return Failure.RETRY, float(retry) if retry is not None else None
            except ValueError:
                return Failure.RETRY, None
        if exc.status >= 500:
            return Failure.RETRY, None
        if exc.status == 413 or exc.code == TOO_LARGE:
            return Failure.TOO_LARGE, None
        if exc.status == 404:
            # Only Discord's own "Unknown Channel" abandons a rally; a bare 404 (an edge page, a
            # glitch) is tried again, and an unknown user (a DM) is given up.
            if exc.code == UNKNOWN_CHANNEL:
                return Failure.GONE, None
            return (Failure.REFUSED if exc.code == UNKNOWN_USER else Failure.RETRY), None
        if exc.status == 403:
            return (Failure.REFUSED if exc.code == CANNOT_DM else Failure.FORBIDDEN), None
        return Failure.REFUSED, None
    if isinstance(exc, (asyncio.TimeoutError, aiohttp.ClientError, OSError)):
        return Failure.RETRY, None
    raise exc


class OutboxSender:
    """Delivers the outbox of one bot; `start()` / `stop()` around the bot's life."""

    def __init__(self, bot: RallyBot, delivery: Delivery, renderer: Renderer | None,
                 concurrency: int = CONCURRENCY, idle_s: float = IDLE_S) -> None:
        self.bot = bot
        self.delivery = delivery
        self.renderer = renderer
        self.idle_s = idle_s
        self._slots = asyncio.Semaphore(concurrency)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._inflight: set[asyncio.Task[None]] = set()

    def wake(self) -> None:
        self._wake.set()

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self.run(), name="outbox-sender")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        if self._inflight:
            await asyncio.gather(*self._inflight, return_exceptions=True)

    async def run(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.flush()
            except Exception:  # keep delivering: the next round tries again
                log.exception("the outbox sender failed a round")
            try:
                await asyncio.wait_for(self._wake.wait(), self.idle_s)
            except TimeoutError:
                pass
            self._wake.clear()

    async def flush(self) -> int:
        """Deliver every row that is due now, lane by lane in order; returns how many were tried."""
        tried = 0
        while True:
            self._wake.clear()
            batch = await self.delivery.claim(limit=CONCURRENCY * 4)
            if not batch:
                return tried
            await asyncio.gather(*(self._guarded(out) for out in batch))
            tried += len(batch)

    async def _guarded(self, out: Outgoing) -> None:
        async with self._slots:
            try:
                await self.deliver(out)
            except Exception:
                log.exception("could not deliver outbox row %s", out.row.id)
                give_up = out.row.attempts >= MAX_INTERNAL_ATTEMPTS
                await self.delivery.failed(out, Failure.REFUSED if give_up else Failure.RETRY, error="internal error")

    async def deliver(self, out: Outgoing) -> None:
        image = await self._draw(out)
        try:
            message = await asyncio.wait_for(self.send(out, image), SEND_TIMEOUT_S)
        except Exception as exc:
            failure, wait = classify(exc)
            log.info("outbox row %s (%s): %s (%s)", out.row.id, out.row.lane, failure.value, exc)
            await self.delivery.failed(out, failure, retry_after=wait, error=f"{type(exc).__name__}: {exc}"[:300])
            return
        old = await self.delivery.sent(out, getattr(message, "id", None))
        if out.turn is not None:
            self.bot.options_cache.remember(out.row.channel_id, out.turn)
        elif not out.is_dm:
            self.bot.options_cache.forget(out.row.channel_id)
        if old is not None:
            await remove_buttons(self.bot, old.channel_id, old.message_id)

    async def _draw(self, out: Outgoing) -> bytes | None:
        if out.image is None or self.renderer is None:
            return None
        try:
            return await draw_async(self.renderer, out.image, out.lang)
        except Exception:  # the text goes without its picture
            log.exception("could not draw the image of outbox row %s", out.row.id)
            return None

    async def send(self, out: Outgoing, image: bytes | None) -> Any:
        content = content_of(out)
        files = [f for f in (file_of(out, image),) if f is not None]
        attached, note = await self.attachment(out)
        if attached is not None:
            files.append(attached)
        if note:  # the note is kept whole; the text before it is cut if both are too long
            head = content if len(content) + len(note) < MAX_CONTENT else content[: MAX_CONTENT - len(note) - 2] + "…"
            content = f"{head}\n{note}"
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": mentions_for(out.ping),
                                  "nonce": f"rb{out.row.id}"}
        if files:
            kwargs["files"] = files
        if out.is_dm:
            assert out.row.user_id is not None
            channel: Any = await self.bot.create_dm(discord.Object(id=out.row.user_id))
        else:
            channel = self.bot.get_partial_messageable(out.row.channel_id, guild_id=out.row.guild_id)
            if out.turn is not None and out.turn.options:
                kwargs["view"] = turn_view(out.turn.rally_id, out.turn.version, out.turn.options, out.lang)
        return await channel.send(**kwargs)

    async def attachment(self, out: Outgoing) -> tuple[discord.File | None, str | None]:
        """The file the row asks to attach (`attach` in its body), read now; or, when it is too
        large for Discord, no file and a line saying so. A malformed request attaches nothing."""
        spec = out.row.body.get("attach")
        if not spec:
            return None, None
        kind, round_id, name = (spec.get("kind"), spec.get("round_id"), spec.get("name")) \
            if isinstance(spec, dict) else (None, None, None)
        if kind != "cards" or not isinstance(round_id, int) or not isinstance(name, str) \
                or not CARDS_NAME.fullmatch(name):
            log.warning("outbox row %s: ignoring the attachment %r", out.row.id, spec)
            return None, None
        body = await self.delivery.store.db.read(lambda tx: cards_tx(tx, round_id))
        if body is None:
            return None, None
        data = body.encode("utf-8")
        if len(data) > MAX_ATTACHMENT:
            return None, t("discord.cards_too_large", name=name, size=f"{len(data) / 1024 / 1024:.1f}")
        return discord.File(io.BytesIO(data), filename=name), None


async def remove_buttons(bot: discord.Client, channel_id: int, message_id: int) -> None:
    """Take the buttons off an old turn message; a deleted message or missing right is no error."""
    try:
        await bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(view=None)
    except discord.HTTPException as exc:
        log.info("could not remove the buttons of message %s: %s", message_id, exc)
