"""The web page's pictures drawn by the bot's render workers, over a socket pair.

Drawing a board costs a process about 70 MB (Pillow's frames, a stage's layers, fonts); the web
page's process drawing its own pictures cost the bot as much as a second render worker. So the bot
lends its render workers to its page: `WebChild` makes a socket pair, hands one end to the child
(`python -m bot web --draw-fd N`, inherited through `pass_fds`) and serves the other with a
`DrawLender`; the child's site draws through a `LinkedDrawer` instead of in its own thread. The
child then never imports the drawing code, and each picture is drawn where the bot's own are: in
the render workers (or the bot's render thread with 0 workers), reading the same static layers.

    parent: lender = DrawLender(draw)          # draw(spec, lang) -> PNG bytes: images.draw_async
            task = asyncio.create_task(lender.serve(parent_socket))
    child:  drawer = await LinkedDrawer.connect(fd)
            png = await drawer.draw(spec, lang)   # DrawUnavailable: the bot could not draw it now

What crosses the link: a frame is a 4-byte big-endian length and that many bytes. A request is
JSON `{"id": N, "spec": {...}, "lang": "en"}`; its answer is JSON `{"id": N, "size": S}` followed
by a frame of the S picture bytes, or `{"id": N, "error": REASON}`. Only the spectators' pictures
travel (`KINDS`: a board's spec is built from the spectators' view, DESIGN §9; a stage preview),
never a state, a hand or a replay's log; the lender refuses anything else, and a frame over
`MAX_REQUEST` bytes closes the link (the child is ours, but a link is an input like any other).

Fairness to the drivers: the lender draws at most `AT_ONCE` web pictures at a time and holds at
most `QUEUED` more (the rest are answered `busy` at once, a 503 for the reader), so a storm of page
views queues behind the bot's own posts by one picture at most; the site caches each picture by
its version, so readers cost draws only when a rally moves. A reader whose picture takes more than
`TIMEOUT_S` gets a 503 too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import struct
from collections.abc import Awaitable, Callable
from typing import Any

from bot.engine.core.errors import RallyError

log = logging.getLogger(__name__)

KINDS = frozenset({"board", "preview"})  # the pictures a web page shows
AT_ONCE = 1  # web pictures drawn at a time by the bot's workers
QUEUED = 32  # web pictures waiting at most; more are answered "busy"
TIMEOUT_S = 30.0  # a reader waits this long for a picture
MAX_REQUEST = 1 << 20  # bytes of a request (a board's spec is a few KB)
MAX_PICTURE = 32 << 20  # bytes of a picture (a board is about 100 KB)
HEADER = struct.Struct(">I")

Draw = Callable[[dict[str, Any], str], Awaitable[bytes]]


class DrawUnavailable(RuntimeError):
    """The bot could not draw this picture now (busy, gone, failed, too slow): a 503 for the reader."""


class DrawRefused(RallyError):
    """The bot's drawing refused the spec as a rules error would (a preset's name, not a course)."""


async def read_frame(reader: asyncio.StreamReader, limit: int) -> bytes:
    """One frame's bytes; `ValueError` when it says it is longer than `limit`."""
    size = HEADER.unpack(await reader.readexactly(HEADER.size))[0]
    if size > limit:
        raise ValueError(f"a frame of {size} bytes (at most {limit})")
    return await reader.readexactly(size)


def frame(payload: bytes) -> bytes:
    return HEADER.pack(len(payload)) + payload


def _request(data: bytes, languages: frozenset[str]) -> tuple[int, dict[str, Any], str] | None:
    """(id, spec, lang) when `data` is a request the lender draws, else None."""
    try:
        value = json.loads(data)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    number, spec, lang = value.get("id"), value.get("spec"), value.get("lang")
    if type(number) is not int or not isinstance(spec, dict) or spec.get("kind") not in KINDS:
        return None
    if not isinstance(lang, str) or lang not in languages:
        return None
    return number, spec, lang


class DrawLender:
    """The bot's side: draws the child's requests with `draw` (the bot's own `draw_async` with its
    renderer), `AT_ONCE` at a time, and sends the pictures back."""

    def __init__(self, draw: Draw, languages: frozenset[str] | None = None, *, at_once: int = AT_ONCE,
                 queued: int = QUEUED) -> None:
        if languages is None:
            from bot.i18n import languages as spoken

            languages = frozenset(spoken())
        self._draw = draw
        self.languages = languages
        self.queued = queued
        self.waiting = 0
        self.drawn = 0  # pictures sent (for tests and logs)
        self._slots = asyncio.Semaphore(at_once)
        self._tasks: set[asyncio.Task[None]] = set()

    async def serve(self, sock: socket.socket) -> None:
        """Answer the requests on `sock` until the child closes it (or sends a malformed frame)."""
        reader, writer = await asyncio.open_connection(sock=sock)
        try:
            while True:
                try:
                    data = await read_frame(reader, MAX_REQUEST)
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                except ValueError as exc:
                    log.warning("the web page's process sent %s: closing its drawing link", exc)
                    return
                found = _request(data, self.languages)
                if found is None:
                    number = _id_of(data)
                    log.warning("the web page's process asked for a picture it may not have (request %s)", number)
                    self._answer(writer, {"id": number, "error": "refused"})
                    continue
                if self.waiting >= self.queued:
                    self._answer(writer, {"id": found[0], "error": "busy"})
                    continue
                self.waiting += 1  # counted now: the requests read before their tasks run count too
                task = asyncio.create_task(self._one(writer, *found), name="web-draw")
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        finally:
            for task in list(self._tasks):
                task.cancel()
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _one(self, writer: asyncio.StreamWriter, number: int, spec: dict[str, Any], lang: str) -> None:
        try:
            async with self._slots:
                picture = await self._draw(spec, lang)
        except RallyError:
            self._answer(writer, {"id": number, "error": "rules"})
            return
        except Exception:
            log.exception("a picture of the web page could not be drawn (%s)", spec.get("kind"))
            self._answer(writer, {"id": number, "error": "failed"})
            return
        finally:
            self.waiting -= 1
        self._answer(writer, {"id": number, "size": len(picture)}, picture)
        self.drawn += 1

    @staticmethod
    def _answer(writer: asyncio.StreamWriter, head: dict[str, Any], body: bytes | None = None) -> None:
        """One answer, written whole at once (answers never interleave)."""
        if writer.is_closing():
            return
        data = frame(json.dumps(head).encode())
        writer.write(data + frame(body) if body is not None else data)


def _id_of(data: bytes) -> int | None:
    with contextlib.suppress(ValueError, AttributeError):
        number = json.loads(data).get("id")
        return number if type(number) is int else None
    return None


class LinkedDrawer:
    """The web page's side: `draw(spec, lang)` asks the bot and waits for the picture; the same
    picture asked again while it is being drawn waits for that drawing (readers of a rally that
    just moved ask at once)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 timeout: float = TIMEOUT_S) -> None:
        self._reader = reader
        self._writer = writer
        self.timeout = timeout
        self._next = 0
        self._waiting: dict[int, asyncio.Future[bytes]] = {}
        self._drawing: dict[str, asyncio.Future[bytes]] = {}
        self._closed = False
        self._listener = asyncio.create_task(self._listen(), name="web-draw-link")

    @classmethod
    async def connect(cls, fd: int, timeout: float = TIMEOUT_S) -> LinkedDrawer:
        """The drawer on the inherited socket `fd` (`--draw-fd`)."""
        sock = socket.socket(fileno=fd)
        reader, writer = await asyncio.open_connection(sock=sock, limit=MAX_PICTURE)
        return cls(reader, writer, timeout)

    async def draw(self, spec: dict[str, Any], lang: str) -> bytes:
        """The picture of `spec` in `lang`, drawn by the bot. `DrawRefused` when its drawing
        refused the spec; `DrawUnavailable` when the bot could not draw it now."""
        key = json.dumps([spec, lang], sort_keys=True)
        shared = self._drawing.get(key)
        if shared is None:
            shared = asyncio.ensure_future(self._ask(spec, lang))
            self._drawing[key] = shared
            shared.add_done_callback(lambda _: self._drawing.pop(key, None))
        return await asyncio.shield(shared)

    async def _ask(self, spec: dict[str, Any], lang: str) -> bytes:
        if self._closed:
            raise DrawUnavailable("the bot's drawing link is closed")
        self._next += 1
        number = self._next
        answer: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._waiting[number] = answer
        try:
            self._writer.write(frame(json.dumps({"id": number, "spec": spec, "lang": lang}).encode()))
            await self._writer.drain()
            return await asyncio.wait_for(asyncio.shield(answer), self.timeout)
        except TimeoutError:
            raise DrawUnavailable(f"the bot did not draw the picture within {self.timeout:.3g} s") from None
        except ConnectionError as exc:
            raise DrawUnavailable(f"the bot's drawing link is closed ({exc})") from None
        finally:
            self._waiting.pop(number, None)

    async def _listen(self) -> None:
        try:
            while True:
                head = json.loads(await read_frame(self._reader, MAX_REQUEST))
                body = await read_frame(self._reader, MAX_PICTURE) if "size" in head else None
                answer = self._waiting.get(head.get("id"))
                if answer is None or answer.done():
                    continue  # its reader gave up waiting
                if body is not None:
                    answer.set_result(body)
                elif head.get("error") == "rules":
                    answer.set_exception(DrawRefused("the bot's drawing refused this picture"))
                else:
                    answer.set_exception(DrawUnavailable(f"the bot could not draw it ({head.get('error')})"))
        except (asyncio.IncompleteReadError, ConnectionError, ValueError) as exc:
            log.warning("the bot's drawing link closed (%s)", type(exc).__name__)
        finally:
            self._closed = True
            for answer in self._waiting.values():
                if not answer.done():
                    answer.set_exception(DrawUnavailable("the bot's drawing link is closed"))

    async def close(self) -> None:
        self._listener.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._listener
        self._writer.close()
        with contextlib.suppress(Exception):
            await self._writer.wait_closed()
