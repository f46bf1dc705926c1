"""The select menu of a private answer (`/hand`, the hand button of a private prompt): the actions
the asker's seat may take now, from its own view (`Game.hidden.hand`), shown only to that user.

Like the turn buttons (bot/views/turn_buttons.py), the menu is a `DynamicItem` whose `custom_id`
carries the rally and the version it was drawn for (`pick:12:40`), registered once per bot bound
to what a pick does (`picked_by(on_pick)`, the same click path as a button: `service.press(...,
expected_version)`), so a menu answers after a restart and a pick on a turn that moved on is
refused. The options' values are the game's labels (`play g1 g2`), their texts the game's words
(`Game.commands.button`) in the reader's language; at most 25 (Discord's limit), the rest typed (`/act`).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot import games
from bot.i18n import DEFAULT_LANG, t
from bot.views.outgoing import MAX_OPTION_TEXT, MAX_SELECT_OPTIONS, option_text, placeholder
from bot.views.turn_buttons import button_label

TEMPLATE = r"pick:(?P<rally>\d+):(?P<version>\d+)"

#: What a pick does: (interaction, rally id, version, action) → answered.
Pick = Callable[[discord.Interaction, int, int, str], Awaitable[None]]


def custom_id(rally_id: int, version: int) -> str:
    return f"pick:{rally_id}:{version}"


def menu_options(picks: tuple[str, ...] | list[str], lang: str, game_id: str | None) -> list[discord.SelectOption]:
    """One option per pick the menu can carry (a label longer than Discord takes is left to `/act`)."""
    game = games.get(game_id)
    shown = [p for p in picks if 0 < len(p) <= MAX_OPTION_TEXT][:MAX_SELECT_OPTIONS]
    return [discord.SelectOption(label=option_text(button_label(p, lang, game)), value=p) for p in shown]


class PickMenu(discord.ui.DynamicItem[discord.ui.Select], template=TEMPLATE):
    """The picks of one private answer; persistent across restarts through its custom_id."""

    def __init__(self, rally_id: int, version: int, options: list[discord.SelectOption] | None = None,
                 lang: str = DEFAULT_LANG) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id(rally_id, version), options=options or [],
                                           placeholder=placeholder(t("turn.pick_placeholder", lang)),
                                           min_values=1, max_values=1))
        self.rally_id = rally_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PickMenu:
        return cls(int(match["rally"]), int(match["version"]))


def picked_by(on_pick: Pick) -> type[PickMenu]:
    """The menu a bot registers (`add_dynamic_items`): a pick calls `on_pick` with the menu's rally,
    version and the chosen action."""

    class PickedMenu(PickMenu, template=TEMPLATE):
        async def callback(self, interaction: discord.Interaction) -> None:
            chosen = self.item.values[0] if self.item.values else ""
            await on_pick(interaction, self.rally_id, self.version, chosen)

    return PickedMenu


def hand_view(rally_id: int, version: int, picks: tuple[str, ...] | list[str], lang: str, game_id: str | None,
              *, menu: type[PickMenu]) -> discord.ui.View | None:
    """A view with the menu of `picks` (None when none can be offered); `menu` is the bot's
    registered class (`picked_by`)."""
    options = menu_options(picks, lang, game_id)
    if not options:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(menu(rally_id, version, options, lang))
    return view
