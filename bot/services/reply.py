"""What a service returns and who asks: plain data, no Discord types."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.games import DEFAULT_GAME


@dataclass(frozen=True)
class Actor:
    """The user behind a command; `can_manage` = Manage Server permission in that guild,
    `can_manage_channels` = Manage Channels in the channel (who may publish its rallies: `/rally web`)."""

    user_id: int
    name: str
    can_manage: bool = False
    #: the member's role ids (league organisers may be a role); None: not known yet (Discord's layer
    #: learns them only when a role could decide: `RolesNeeded`)
    roles: tuple[int, ...] | None = ()
    can_manage_channels: bool = False


@dataclass(frozen=True)
class Place:
    """Where a command was typed: one rally per (guild, channel); `guild_id` 0 means a DM."""

    guild_id: int
    channel_id: int
    lang: str = "en"  # the server's preferred language: the default of a rally or league created here


#: The one button of a decision taken in private (`Prompt.private`): it opens the clicker's own hand
#: (`/hand`), never plays anything; no game has an action of that label.
HAND = "hand"


@dataclass(frozen=True)
class TurnPrompt:
    """The turn now open, for buttons and autocomplete: `version` makes a stale click detectable.
    On a private reply (`/hand`), the picks of the asker's select menu, bound the same way."""

    rally_id: int
    version: int
    driver_id: int
    options: tuple[str, ...]  # legal next actions as the driver would type them ("4", "W", "stop")
    game: str = DEFAULT_GAME  # whose buttons these are (an outbox row names it only when not the default)
    certain_loss: tuple[str, ...] = ()  # the options whose move loses control for certain (`Prompt.certain_loss`)


@dataclass
class Reply:
    """The answer to a command.

    A private reply (`ephemeral`: refusal, odds, status) is for the user who asked and is answered
    on the interaction. A public one was committed with the change as outbox rows (`outbox`):
    the sender delivers them to the channel; `lines`, `ping` and `turn` repeat what was posted
    (for the console's and the tests' eyes, and the autocomplete cache). A private reply may
    carry `files` (a league's CSV export, its calendar), made for the reader alone; `alt` holds the
    description of each attached picture by file name (bot.services.alt_text, the reader's words)."""

    lines: list[str] = field(default_factory=list)
    ephemeral: bool = False
    ping: tuple[int, ...] = ()
    turn: TurnPrompt | None = None
    outbox: tuple[int, ...] = ()
    paused: bool = False  # saved, but the rally's channel cannot be posted in right now
    files: tuple[tuple[str, bytes], ...] = ()  # files attached to a private reply: (name, bytes)
    alt: dict[str, str] = field(default_factory=dict)  # a picture's description, by its file name

    @property
    def text(self) -> str:
        return "\n".join(self.lines)
