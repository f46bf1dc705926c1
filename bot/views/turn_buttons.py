"""The buttons of a turn message: one per legal action the game offers as a button (classic: each
next die, with its trajectory at a corner, stop, spare), its words and colour the game's (`label`,
`button`): no action written here.

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

from bot import games
from bot.engine.core.game import Button, Game
from bot.engine.core.text import msg
from bot.i18n import DEFAULT_LANG, render
from bot.services.reply import HAND
from bot.views.outgoing import MAX_BUTTONS, custom_id_fits, label

TEMPLATE = r"rally:(?P<rally>\d+):(?P<version>\d+):(?P<action>[\w !]+)"

#: What a click does: (interaction, rally id, version, action) → answered.
Click = Callable[[discord.Interaction, int, int, str], Awaitable[None]]

#: A game's button colours as Discord's
STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
          "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger}


def custom_id(rally_id: int, version: int, action: str) -> str:
    return f"rally:{rally_id}:{version}:{action}"


def offered(action: str, game: Game[Any, Any, Any, Any], doomed: bool = False) -> Button:
    """How the game offers `action` (an action it does not offer as a button: its label as it is);
    the `HAND` button of a private prompt is every game's own ("My hand"). `doomed`: the move
    loses control whatever the dice show (`Prompt.certain_loss`): its button says so, in red."""
    if action == HAND:
        return Button(msg("turn.hand_button"), "primary")
    button = game.commands.button(action) or Button(action, "primary")
    if doomed:
        return Button(msg("turn.certain_loss_button", action=button.text), "danger")
    return button


def button_label(action: str, lang: str = DEFAULT_LANG, game: Game[Any, Any, Any, Any] | None = None,
                 doomed: bool = False) -> str:
    """The game's words for `action` in the rally's language (classic: `W` → `white`, `4 skid` →
    `4 · skid`, `stop` → `Stop` …); the action itself stays the canonical one."""
    return render(offered(action, game or games.get(None), doomed).text, lang)


def button_style(action: str, game: Game[Any, Any, Any, Any] | None = None,
                 doomed: bool = False) -> discord.ButtonStyle:
    return STYLES[offered(action, game or games.get(None), doomed).style]


class TurnButton(discord.ui.DynamicItem[discord.ui.Button], template=TEMPLATE):
    """One action of one turn; persistent across restarts through its custom_id. What a click
    does is the bot's: it posts and registers its own subclass, `clicked_by(...)`'s."""

    def __init__(self, rally_id: int, version: int, action: str, lang: str = DEFAULT_LANG,
                 game: Game[Any, Any, Any, Any] | None = None, doomed: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label(button_label(action, lang, game, doomed)),
                                           style=button_style(action, game, doomed),
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
              lang: str = DEFAULT_LANG, *, button: type[TurnButton], game: Game[Any, Any, Any, Any] | None = None,
              certain_loss: tuple[str, ...] = ()) -> discord.ui.View:
    """A persistent view (timeout None) with one button per legal action the game offers as one
    (`Game.commands.button`; classic types its time-attack groups instead), at most 25, each within
    Discord's limits (label, custom_id: bot/views/outgoing.py); `game`: the rally's (None: the
    default game, the only one whose turns are posted yet); `certain_loss`: the actions whose
    buttons say the move loses control for certain. `button` is the
    bot's registered class (`clicked_by`): discord.py registers the class of a posted dynamic
    item for its template, so posting any other would take the bot's clicks away from it."""
    view = discord.ui.View(timeout=None)
    game = game or games.get(None)
    shown = [a for a in options if (a == HAND or game.commands.button(a) is not None) and re.fullmatch(r"[\w !]+", a)
             and custom_id_fits(custom_id(rally_id, version, a))]
    for action in shown[:MAX_BUTTONS]:
        view.add_item(button(rally_id, version, action, lang, game, action in certain_loss))
    return view
