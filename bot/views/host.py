"""What the cogs and views use of the running bot, given to them rather than looked up.

A cog receives the bot in its constructor, a turn button's click and a command's answer receive
it as an argument: none of them reads it from `interaction.client`, and none imports
`bot.client` (which imports them: an import cycle, type-only imports included). `RallyBot` is
a `Host`; a test may pass anything with these six members.
"""

from __future__ import annotations

from typing import Protocol

from bot.services import RallyService
from bot.store import Store
from bot.views.hand_menu import PickMenu
from bot.views.member_roles import MemberRoles
from bot.views.options_cache import OptionsCache
from bot.views.sender import OutboxSender


class Host(Protocol):
    """The services (`rallies`, and `store` for the autocompletes' short reads), the outbox
    sender (woken once a command's posts are saved), the turn prompts posted last, and the class
    of the select menu its private answers carry (`pick_menu`: registered, so picks reach it), and
    the members' roles learnt from Discord when a league's organiser role decides (`member_roles`)."""

    @property
    def rallies(self) -> RallyService: ...

    @property
    def store(self) -> Store: ...

    @property
    def sender(self) -> OutboxSender: ...

    @property
    def options_cache(self) -> OptionsCache: ...

    @property
    def pick_menu(self) -> type[PickMenu]: ...

    @property
    def member_roles(self) -> MemberRoles: ...
