"""The buttons of a turn message: each legal next die (with its trajectory at a corner), stop, spare.

Buttons are `DynamicItem`s whose `custom_id` carries the rally, the version the turn was drawn
for and the action as the driver would type it: `rally:12:40:4 skid`. The class is registered
once per bot, bound to what a click does (`clicked_by(on_click)`, given `add_dynamic_items` in
`setup_hook`), so any such button works after a restart without keeping views in memory, and a
click reaches the bot that registered it without reading `interaction.client`. The click runs
`service.press(..., expected_version)`, which refuses a click on a turn that has moved on ("This
turn is over").
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.engine.core.text import Listed, msg
from bot.engine.rallyman.words import die_word
from bot.i18n import DEFAULT_LANG, render, t

TEMPLATE = r"rally:(?P<rally>\d+):(?P<version>\d+):(?P<action>[\w !]+)"
MAX_BUTTONS = 25  # 5 rows of 5: Discord's limit for one message
LINES = ("interior", "skid", "shortcut")

#: What a click does: (interaction, rally id, version, action) → answered.
Click = Callable[[discord.Interaction, int, int, str], Awaitable[None]]


#: Closed tables, action or line → catalogue key (no key is built from a value).
BUTTON_WORDS = {"stop": "discord.button_stop", "spare": "discord.button_spare"}
LINE_WORDS = {"interior": "word.interior", "skid": "word.skid", "shortcut": "word.shortcut"}


def custom_id(rally_id: int, version: int, action: str) -> str:
    return f"rally:{rally_id}:{version}:{action}"


def button_label(action: str, lang: str = DEFAULT_LANG) -> str:
    """In the rally's language: `W` → `white`, `4 skid` → `4 · skid`, `stop` → `Stop`, `W!` →
    `white⚠` (`blanc`, `4 · dérapage` … in French). The action itself stays the canonical one."""
    if action in BUTTON_WORDS:
        return t(BUTTON_WORDS[action], lang)
    words = [die_word(w) if w in ("W", "W!") else msg(LINE_WORDS[w]) if w in LINE_WORDS else w
             for w in action.split()]
    return render(Listed(words, "dot"), lang)


def button_style(action: str) -> discord.ButtonStyle:
    words = action.split()
    if action == "stop":
        return discord.ButtonStyle.danger
    if action == "spare" or words[0] == "W":
        return discord.ButtonStyle.secondary
    if any(w in LINES for w in words):
        return discord.ButtonStyle.success
    return discord.ButtonStyle.primary


class TurnButton(discord.ui.DynamicItem[discord.ui.Button], template=TEMPLATE):
    """One action of one turn; persistent across restarts through its custom_id. What a click
    does is the bot's: it posts and registers its own subclass, `clicked_by(...)`'s."""

    def __init__(self, rally_id: int, version: int, action: str, lang: str = DEFAULT_LANG) -> None:
        super().__init__(discord.ui.Button(label=button_label(action, lang), style=button_style(action),
                                           custom_id=custom_id(rally_id, version, action)))
        self.rally_id = rally_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> TurnButton:
        return cls(int(match["rally"]), int(match["version"]), match["action"])


def clicked_by(on_click: Click) -> type[TurnButton]:
    """The turn button a bot registers (`add_dynamic_items`): a click on any turn button, posted
    before or after a restart, calls `on_click` with the button's rally, version and action."""

    class ClickedTurnButton(TurnButton, template=TEMPLATE):
        async def callback(self, interaction: discord.Interaction) -> None:
            await on_click(interaction, self.rally_id, self.version, self.action)

    return ClickedTurnButton


def turn_view(rally_id: int, version: int, options: tuple[str, ...] | list[str],
              lang: str = DEFAULT_LANG, *, button: type[TurnButton]) -> discord.ui.View:
    """A persistent view (timeout None) with one button per legal action, at most 25. Time-attack
    groups are typed (`/attack`), not offered as buttons: there are too many. `button` is the
    bot's registered class (`clicked_by`): discord.py registers the class of a posted dynamic
    item for its template, so posting any other would take the bot's clicks away from it."""
    view = discord.ui.View(timeout=None)
    shown = [a for a in options if not a.startswith("attack ") and re.fullmatch(r"[\w !]+", a)]
    for action in shown[:MAX_BUTTONS]:
        view.add_item(button(rally_id, version, action, lang))
    return view
