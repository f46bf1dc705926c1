"""What a service returns and who asks: plain data, no Discord types."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field


#: Images are drawn one at a time in this thread: drawing is CPU work that would otherwise take
#: every core from the event loop when many turns end together (see bench/service_latency.py).
RENDER_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")


@dataclass(frozen=True)
class Actor:
    """The user behind a command; `can_manage` = Manage Server permission in that guild."""

    user_id: int
    name: str
    can_manage: bool = False


@dataclass(frozen=True)
class Place:
    """Where a command was typed: one rally per (guild, channel)."""

    guild_id: int
    channel_id: int


@dataclass(frozen=True)
class TurnPrompt:
    """The turn now open, for buttons and autocomplete: `version` makes a stale click detectable."""

    rally_id: int
    version: int
    driver_id: int
    options: tuple[str, ...]  # legal next actions as the driver would type them ("4", "W", "stop")


@dataclass
class Reply:
    """Text lines from the message catalogue, an optional image, who sees it and who is pinged.

    A board image can be left to draw (`render`): the reply's text is ready as soon as the action
    is committed, and the caller draws the picture afterwards (`resolve_image`, in a worker
    thread) to post it as a follow-up, so a burst of turns never waits behind the renderer."""

    lines: list[str] = field(default_factory=list)
    ephemeral: bool = False
    image: bytes | None = None
    image_name: str = "board.png"
    ping: tuple[int, ...] = ()
    turn: TurnPrompt | None = None
    render: Callable[[], bytes] | None = field(default=None, repr=False, compare=False)

    @property
    def has_image(self) -> bool:
        return self.image is not None or self.render is not None

    async def resolve_image(self) -> bytes | None:
        """The image, drawn now in a worker thread if the service left it to draw."""
        if self.image is None and self.render is not None:
            render, self.render = self.render, None
            self.image = await asyncio.get_running_loop().run_in_executor(RENDER_THREAD, render)
        return self.image

    @property
    def text(self) -> str:
        return "\n".join(self.lines)
