"""What a service returns and who asks: plain data, no Discord types."""

from __future__ import annotations

from dataclasses import dataclass, field


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
    """Text lines from the message catalogue, an optional image, who sees it and who is pinged."""

    lines: list[str] = field(default_factory=list)
    ephemeral: bool = False
    image: bytes | None = None
    image_name: str = "board.png"
    ping: tuple[int, ...] = ()
    turn: TurnPrompt | None = None

    @property
    def text(self) -> str:
        return "\n".join(self.lines)
