"""The outbox sender: delivers what the bot owes Discord, in order per channel, once; text first.

One task (`run`) claims the oldest owed row of each lane (`Delivery.claim`), and sends the rows
of different lanes concurrently (at most `CONCURRENCY` at once); the rows of one lane go one
after the other. It wakes as soon as a commit owes something (`wake`, called by the unit of
work) and otherwise looks again every `IDLE_S` seconds for rows whose retry time came.

Text first. For each row it sends the message at once (its text, ping, buttons and any attached
file that is not its picture) with a nonce made from the row id (discord.py sends it with
`enforce_nonce`, so a send repeated after a crash between Discord's answer and our bookkeeping
is not posted twice). A text longer than one Discord message goes as several, in order, split
between lines (bot/views/outgoing.py): each part has its own nonce (`rb<id>`, `rb<id>.1`, …), so
a row sent again reposts none of them (within the few minutes Discord remembers a nonce); the
buttons and the attached file go with the last part, the ping notifies from one part (the last
naming the pinged driver), and the last part is the row's message (recorded, given its picture, its buttons taken off
later). A part's nonce is its position: a row whose text gains a first line between two tries
(the "late" note) after some of its parts went out may show a few lines twice, and loses none
(with a line more at the top, every cut falls at the same line or an earlier one). Then it
reports the outcome to `Delivery`, which decides what it changes
(deadline from delivery, retry, pause, abandon; see bot/services/delivery.py). So the lane moves
on and the turn's clock starts from the text; the old turn message loses its buttons then. A row
with an image (`Post.image`: a board, results, a stage preview, a table) starts drawing it when
its text starts going out (`_draw`, in the render worker); once the text is recorded as
delivered, a background task (one per picture, never holding a send slot) waits for the drawing
and adds the picture to that same message: `Message.edit(attachments=[picture, *kept])`, the
message's other attachments kept (Discord keeps only the attachments an edit lists). Nothing of
the lane waits for a picture: the next row (the next driver's ping) and the other channels go
out while it is drawn. A drawing that fails is logged, and the text stays without its picture.

Why the same message, edited, rather than a follow-up post: a picture belongs to its turn. Edited
into the turn's message it sits under that turn's text and buttons whatever was posted since,
whichever picture is drawn first; a follow-up would land wherever the channel is by then (after
the next driver's ping when turns follow quickly: a board under the wrong turn) and would need its
own place in the lane's order. An edit also adds no message to the channel and notifies nobody
again (its ping is not re-sent). The price is the "(edited)" mark, and a message that grows when
its picture arrives. An edit sends the attachments only: never the text (it is never posted
twice), never the buttons (taking the old turn's buttons off is another edit of other fields).

When the edit fails: 404 (the message was deleted) gives up quietly; 403 gives up and logs it;
413 (too large) gives up on the picture, the text is already there; 429, 5xx, time-outs and
lost connections are tried again a few times (`BOARD_RETRIES_S`, or Discord's Retry-After up
to `BOARD_MAX_WAIT_S`), then given up. None of them changes the row, the rally or its clock.

A picture is owed in memory only. `stop` lets the pictures in flight finish (for at most
`BOARD_DRAIN_S`); a crash between a text and its picture loses that picture: the text was
recorded as delivered, so it is never posted again, and the rally's next post brings a fresh
board (`/rally board` draws one any time). It is not written down as an owed outbox row: such a
row would sit in its channel's lane, whose rows go one at a time, so the next driver's ping
would wait behind a drawing again (what this design removes); a lane of its own and a new kind
of row in the store, for a picture the next turn replaces anyway, are not worth it.

`flush` (tests, a drain) delivers what is due and then waits until the pictures of what it
delivered are attached; the running loop (`run`, through `deliver_due`) never waits for them.

A row may carry a file to attach, read from the store at delivery (`attach` in its body): a
closed round's result cards (`{"kind": "cards", "round_id": N, "name": "round-N-cards.json"}`)
go with the results post's text as its file; its picture joins them when drawn. Cards too large
for one Discord attachment (8 MiB) are not sent; the post says so instead.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import aiohttp
import discord

from bot import games
from bot.i18n import t
from bot.services.delivery import Delivery, Failure, Outgoing
from bot.services.images import Renderer, draw_async
from bot.store.leagues import cards_tx
from bot.views.discord_errors import describe
from bot.views.options_cache import OptionsCache
from bot.views.outgoing import MAX_FILE_ASSUMED, edit_attachments, post_parts, take_buttons_off
from bot.views.publish import content_of, file_of, mentions_for
from bot.views.turn_buttons import TurnButton, turn_view

log = logging.getLogger(__name__)

CONCURRENCY = 8
IDLE_S = 2.0
SEND_TIMEOUT_S = 60.0  # well under the outbox lease (120 s), so a row is never sent by two senders
UNKNOWN_CHANNEL = 10003
UNKNOWN_USER = 10013
MAX_INTERNAL_ATTEMPTS = 5  # a row that keeps failing inside the bot is given up, so its lane moves on
CANNOT_DM = 50007
TOO_LARGE = 40005
MAX_ATTACHMENT = MAX_FILE_ASSUMED  # the attachment size every Discord server accepts
CARDS_NAME = re.compile(r"round-\d+-cards\.json")
#: Waits before the 2nd, 3rd and 4th try of a picture's edit that Discord could not take (429, 5xx, network).
BOARD_RETRIES_S = (1.0, 4.0, 15.0)
BOARD_MAX_WAIT_S = 60.0  # a Retry-After longer than this gives the picture up
BOARD_DRAIN_S = 15.0  # how long `stop` lets the pictures in flight reach their messages


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


def board_fault(exc: BaseException) -> tuple[bool, float | None, int]:
    """What a failed edit adding a picture means: (try again?, Discord's Retry-After, the log
    level of giving up). The text is already in the channel, so nothing here touches the row."""
    if isinstance(exc, discord.RateLimited):
        return True, exc.retry_after, logging.WARNING
    if isinstance(exc, discord.HTTPException):
        if exc.status == 429:
            return True, classify(exc)[1], logging.WARNING
        if exc.status >= 500:
            return True, None, logging.WARNING
        if exc.status == 404:  # the message (or its channel) was deleted meanwhile: nobody will miss it
            return False, None, logging.INFO
        return False, None, logging.WARNING  # 403, 413 (too large), any other refusal
    if isinstance(exc, (asyncio.TimeoutError, aiohttp.ClientError, OSError)):
        return True, None, logging.WARNING
    return False, None, logging.ERROR


class OutboxSender:
    """Delivers the outbox of one bot (`client`, the Discord connection it sends through);
    `start()` / `stop()` around the bot's life. `prompts` is the bot's cache of the turn prompts
    posted last, kept up to date with what is delivered; `buttons` the turn button class whose
    clicks the bot answers (bot/views/turn_buttons.py)."""

    def __init__(self, client: discord.Client, delivery: Delivery, renderer: Renderer | None,
                 concurrency: int = CONCURRENCY, idle_s: float = IDLE_S, *, prompts: OptionsCache,
                 buttons: type[TurnButton]) -> None:
        self.client = client
        self.prompts = prompts
        self.buttons = buttons
        self.delivery = delivery
        self.renderer = renderer
        self.idle_s = idle_s
        self._slots = asyncio.Semaphore(concurrency)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._inflight: set[asyncio.Task[None]] = set()
        self._boards: set[asyncio.Task[None]] = set()  # pictures on their way to delivered messages
        self.board_retries_s: tuple[float, ...] = BOARD_RETRIES_S

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
        if self._boards:
            _, late = await asyncio.wait(list(self._boards), timeout=BOARD_DRAIN_S)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)

    async def run(self) -> None:
        await self.client.wait_until_ready()
        while True:
            try:
                await self.deliver_due()
            except Exception:  # keep delivering: the next round tries again
                log.exception("the outbox sender failed a round")
            try:
                await asyncio.wait_for(self._wake.wait(), self.idle_s)
            except TimeoutError:
                pass
            self._wake.clear()

    async def flush(self) -> int:
        """Deliver every row that is due now, then wait until their pictures are on their messages
        (tests, a drain); returns how many rows were tried."""
        tried = await self.deliver_due()
        await self.boards_attached()
        return tried

    async def boards_attached(self) -> None:
        """Wait until every picture on its way is attached (or given up)."""
        while self._boards:
            await asyncio.gather(*list(self._boards), return_exceptions=True)

    async def deliver_due(self) -> int:
        """Deliver the text of every row that is due now, lane by lane in order, without waiting
        for any picture; returns how many were tried."""
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
        """Send the row's text now; its picture, drawn meanwhile, follows by an edit (`_board`)."""
        drawing = self._start_drawing(out)
        try:
            try:
                message = await asyncio.wait_for(self.send(out), SEND_TIMEOUT_S)
            except Exception as exc:
                failure, wait = classify(exc)
                log.log(logging.INFO if failure is Failure.RETRY else logging.WARNING, "outbox row %s (%s): %s: %s",
                        out.row.id, out.row.lane, failure.value,
                        describe(exc, f"POST /channels/{out.row.channel_id}/messages" if not out.is_dm else "a DM"))
                await self.delivery.failed(out, failure, retry_after=wait,
                                           error=f"{type(exc).__name__}: {exc}"[:300])
                return
            old = await self.delivery.sent(out, getattr(message, "id", None))
            if drawing is not None:  # only now: a row sent again (its delivery not recorded) gets one picture
                self._follow(out, message, drawing)
                drawing = None
            if out.turn is not None:
                self.prompts.remember(out.row.channel_id, out.turn)
            elif not out.is_dm:
                self.prompts.forget(out.row.channel_id)
            if old is not None:
                await remove_buttons(self.client, old.channel_id, old.message_id)
        finally:
            if drawing is not None:  # the text did not go (or was not recorded): its picture waits for it
                drawing.cancel()

    def _start_drawing(self, out: Outgoing) -> asyncio.Task[bytes | None] | None:
        if out.image is None or self.renderer is None:
            return None
        return asyncio.create_task(self._draw(out), name=f"outbox-draw-{out.row.id}")

    def _follow(self, out: Outgoing, message: Any, drawing: asyncio.Task[bytes | None]) -> None:
        task = asyncio.create_task(self._board(out, message, drawing), name=f"outbox-board-{out.row.id}")
        self._boards.add(task)
        task.add_done_callback(self._boards.discard)

    async def _board(self, out: Outgoing, message: Any, drawing: asyncio.Task[bytes | None]) -> None:
        try:
            image = await drawing
            if image is not None:
                await self.attach_board(out, message, image)
        except Exception:  # a background task: nobody else would see it
            log.exception("could not attach the image of outbox row %s", out.row.id)

    async def _draw(self, out: Outgoing) -> bytes | None:
        if out.image is None or self.renderer is None:
            return None
        try:
            return await draw_async(self.renderer, out.image, out.lang, store=self.delivery.store)
        except Exception:  # the text goes without its picture
            log.exception("could not draw the image of outbox row %s", out.row.id)
            return None

    async def attach_board(self, out: Outgoing, message: Any, image: bytes) -> bool:
        """Add the drawn picture to the row's delivered message, trying again a few times while
        Discord cannot take it (see the module docstring); returns whether it is attached."""
        for wait in (*self.board_retries_s, None):  # None: the last try
            try:
                await asyncio.wait_for(self.edit_in(out, message, image), SEND_TIMEOUT_S)
                return True
            except Exception as exc:
                again, retry_after, level = board_fault(exc)
                delay = max(wait, retry_after or 0.0) if again and wait is not None else None
                if delay is not None and delay <= BOARD_MAX_WAIT_S:
                    log.info("the image of outbox row %s: %s; trying again in %.1f s", out.row.id,
                             describe(exc, f"PATCH message {getattr(message, 'id', None)}"), delay)
                    await asyncio.sleep(delay)
                    continue
                log.log(level, "the image of outbox row %s is not attached to message %s: %s", out.row.id,
                        getattr(message, "id", None), describe(exc, f"PATCH message {getattr(message, 'id', None)}"),
                        exc_info=level >= logging.ERROR)
                return False
        return False  # not reached: the last try returns

    async def edit_in(self, out: Outgoing, message: Any, image: bytes) -> Any:
        """One edit: the picture first, then the message's other attachments (kept by id; a picture
        of the same name, from an earlier edit, is replaced)."""
        picture = file_of(out, image)
        assert picture is not None
        kept = [a for a in getattr(message, "attachments", ()) if a.filename != picture.filename]
        return await edit_attachments(message, [picture], kept)

    async def send(self, out: Outgoing) -> Any:
        """The row's message without its picture: text, ping, buttons, its attached file; a text
        longer than one message goes as several, in order (bot/views/outgoing.py), the buttons and
        the file with the last part, whose message is returned (the one recorded, and the one its
        picture is added to)."""
        content = content_of(out)
        files: list[discord.File] = []
        attached, note = await self.attachment(out)
        if attached is not None:
            files.append(attached)
        if note:
            content = f"{content}\n{note}"
        last: dict[str, Any] = {}
        if files:
            last["files"] = files
        if out.is_dm:
            assert out.row.user_id is not None
            channel: Any = await self.client.create_dm(discord.Object(id=out.row.user_id))
        else:
            channel = self.client.get_partial_messageable(out.row.channel_id, guild_id=out.row.guild_id)
            if out.turn is not None and out.turn.options:
                last["view"] = turn_view(out.turn.rally_id, out.turn.version, out.turn.options, out.lang,
                                         button=self.buttons, game=games.get(out.turn.game),
                                         certain_loss=out.turn.certain_loss)
        return await post_parts(channel, content, stem=f"rb{out.row.id}", ping=out.ping,
                                allowed=mentions_for(out.ping), last=last)

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
        number = name.removeprefix("round-").split("-")[0]  # the round's number, as CARDS_NAME matched it
        alt = t("alt.cards_file", out.lang, number=number)
        return discord.File(io.BytesIO(data), filename=name, description=alt), None


async def remove_buttons(bot: discord.Client, channel_id: int, message_id: int) -> None:
    """Take the buttons off an old turn message; a deleted message or missing right is no error."""
    try:
        await take_buttons_off(bot.get_partial_messageable(channel_id).get_partial_message(message_id))
    except discord.HTTPException as exc:
        log.info("could not remove the buttons of message %s: %s", message_id, describe(exc))
