"""What DIRT's drivers type (bot.engine.core.game `Commands`). Its commands share classic's names
and options (`/roll`, `/stop`, `/odds`, `/attack`): one slash command per name serves every game,
and each rally's game reads the text (`parse`)."""

from __future__ import annotations

from bot.engine.core.game import Button, Verb, VerbOption
from bot.engine.core.text import msg
from bot.engine.dirt import rally as engine
from bot.engine.dirt.actions import Action, Roll
from bot.engine.dirt.parse import STOP_WORDS, typed_words
from bot.engine.dirt.rules import RollStop
from bot.engine.dirt.state import DirtState

DICE = VerbOption("dice", "discord.opt.dice", autocomplete=True)


#: DIRT's commands: the same names and options as classic's (one slash command per name), read by
#: DIRT's grammar (bot.engine.dirt.parse): `/roll 4 left`, `/roll 2+brake`, `/attack 4 5 coast`.
VERBS: tuple[Verb, ...] = (
    Verb("roll", "discord.cmd.roll", "{dice}",
         (DICE, VerbOption("end", "discord.opt.end", required=False, kind="bool", word="stop"))),
    Verb("stop", "discord.cmd.stop", "stop"),
    Verb("spare", "discord.cmd.spare", "spare"),
    Verb("odds", "discord.cmd.odds", "{dice}", (VerbOption("dice", "discord.opt.odds_dice", autocomplete=True),),
         private=True),
    Verb("attack", "discord.cmd.attack", "attack {dice}", (VerbOption("dice", "discord.opt.attack_dice"),)),
)


#: the button colours of DIRT's actions (a closed table by the action's kind)
STYLES = {"stop": "danger", "spare": "secondary"}


class DirtCommands:
    """DIRT's commands and the text of its actions."""

    verbs = VERBS

    def parse(self, text: str, state: DirtState, seat: str) -> Action | RollStop:
        words = text.strip()
        head, _, last = words.rpartition(" ")
        if head and last.lower() in STOP_WORDS:  # `4 left stop`, `4 gauche arrêt`: roll, then stop
            action = engine.parse(head, state, seat)
            if isinstance(action, Roll):
                return RollStop(action)
            return action
        return engine.parse(words, state, seat)

    def label(self, action: Action | RollStop) -> str:
        if isinstance(action, RollStop):
            return f"{engine.label(action.roll)} stop"
        return engine.label(action)

    def typed(self, action: Action | RollStop) -> str:
        """The command a driver types for `action`: `roll 4 left`, `stop`, `attack 4 5`, `spare`."""
        if isinstance(action, (Roll, RollStop)):
            return f"roll {self.label(action)}"
        return self.label(action)

    def button(self, label: str) -> Button | None:
        """Every step is a button (its label, as typed), stop in red; time attacks are typed."""
        if not label or label.startswith("attack"):
            return None
        return Button(msg("dirt.button", action=typed_words(label)), STYLES.get(label, "primary"))  # type: ignore[arg-type]

    def typed_words(self, label: str) -> str:
        return typed_words(label)


COMMANDS = DirtCommands()
