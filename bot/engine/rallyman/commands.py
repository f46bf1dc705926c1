"""What classic's drivers type (bot.engine.core.game `Commands`): the commands, the drivers'
grammar (bot.engine.rallyman.parse) and an action as a label, a command and a button."""

from __future__ import annotations

from bot.engine.core.game import Button, Verb, VerbOption
from bot.engine.rallyman.actions import Action, Roll
from bot.engine.rallyman.buttons import button as action_button
from bot.engine.rallyman.buttons import reader_words
from bot.engine.rallyman.parse import parse as parse_text
from bot.engine.rallyman.state import GameState

DICE = VerbOption("dice", "discord.opt.dice", autocomplete=True)


#: The trajectories of `/line` (RULES A8) and the tires of `/tires` (A20.2), each with the key of
#: the name a reader sees (closed tables: no key built from a value).
LINE_CHOICES = (("interior", "discord.line_interior"), ("skid", "discord.line_skid"),
                ("shortcut", "discord.line_shortcut"))


TIRE_CHOICES = (("snow", "choice.snow"), ("asphalt", "choice.asphalt"))


#: The classic commands, one table for the slash commands, the console, the help and the service
#: (`Turns.verb`), in the help's order. Each template gives the text `parse` reads (the drivers'
#: grammar, bot.engine.rallyman.parse).
VERBS: tuple[Verb, ...] = (
    Verb("roll", "discord.cmd.roll", "{dice}",
         (DICE, VerbOption("end", "discord.opt.end", required=False, kind="bool", word="stop"))),
    Verb("stop", "discord.cmd.stop", "stop"),
    Verb("line", "discord.cmd.line", "{line}", (VerbOption("line", "discord.opt.line", choices=LINE_CHOICES),)),
    Verb("spare", "discord.cmd.spare", "spare"),
    Verb("odds", "discord.cmd.odds", "{dice}", (VerbOption("dice", "discord.opt.odds_dice", autocomplete=True),),
         private=True),
    Verb("tires", "discord.cmd.tires", "tires {tires}",
         (VerbOption("tires", "discord.opt.tires", choices=TIRE_CHOICES),)),
    Verb("attack", "discord.cmd.attack", "attack {dice}", (VerbOption("dice", "discord.opt.attack_dice"),)),
    Verb("order", "discord.cmd.order", "order {order}", (VerbOption("order", "discord.opt.order_dice"),)),
    Verb("place", "discord.cmd.place", "place {die}", (VerbOption("die", "discord.opt.place_die"),)),
)


class ClassicCommands:
    """Classic's commands and the text of its actions."""

    verbs = VERBS

    def parse(self, text: str, state: GameState, seat: str) -> Action:
        return parse_text(text, state, driver=seat)

    def label(self, action: Action) -> str:
        """An action as a driver would type it (buttons, autocomplete)."""
        if isinstance(action, Roll):
            return " ".join([*action.dice, *([action.line] if action.line else [])])
        return str(action)

    def typed(self, action: Action) -> str:
        """The command a driver types for `action` (`roll 3 W`, `stop`, `order best` …)."""
        return str(action)

    def button(self, label: str) -> Button | None:
        return action_button(label)

    def typed_words(self, label: str) -> str:
        return reader_words(label)


COMMANDS = ClassicCommands()
