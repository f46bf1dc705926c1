"""What Road Rally's drivers type (bot.engine.core.game `Commands`): `/play`, `/reveal`, `/pass`
(and `/act` for all), each read from the typing seat's own view."""

from __future__ import annotations

from bot.engine.core.game import Button, Verb, VerbOption
from bot.engine.roadrally.actions import Action, Play, StageAnswer
from bot.engine.roadrally.rules import Table
from bot.engine.roadrally.view import view as seat_view
from bot.engine.roadrally.words import label as word_label
from bot.engine.roadrally.words import parse as word_parse
from bot.engine.roadrally.words import pick_text, typed_text

#: Road Rally's commands: `/play cards:g1 g2 shortcut:yes`, `/reveal`, `/pass` (and `/act` for all)
VERBS: tuple[Verb, ...] = (
    Verb("play", "discord.cmd.play", "play {cards}",
         (VerbOption("cards", "discord.opt.cards", autocomplete=True),
          VerbOption("store", "discord.opt.store", required=False, kind="bool", word="store"),
          VerbOption("shortcut", "discord.opt.shortcut", required=False, kind="bool", word="shortcut"),
          VerbOption("draw", "discord.opt.draw_first", required=False, kind="bool", word="draw"))),
    Verb("reveal", "discord.cmd.reveal", "reveal {stage}",
         (VerbOption("stage", "discord.opt.stage_card", required=False),)),
    Verb("pass", "discord.cmd.pass", "pass"),
)


class RoadRallyCommands:
    """Road Rally's commands and the text of its actions."""

    verbs = VERBS

    def parse(self, text: str, table: Table, seat: str) -> Action:
        """What `seat` typed, read from its own view (its cards, its window)."""
        return word_parse(text, seat_view(table.state, seat))

    def label(self, action: Action) -> str:
        return word_label(action)

    def typed(self, action: Action) -> str:
        """The whole command: `play g1 g2`, `reveal 7`, `pass`; the rest through `/act`."""
        text = word_label(action)
        if isinstance(action, (Play, StageAnswer)):
            return text
        return f"act {text}"

    def button(self, label: str) -> Button | None:
        """How a pick reads in a select menu (`🟩1 🟩2 · shortcut`); a spectator sees none."""
        return Button(pick_text(label), "primary") if label else None

    def typed_words(self, label: str) -> str:
        """`play g1` as the reader types it: `jouer v1`, `spielen gr1`."""
        return typed_text(label)


COMMANDS = RoadRallyCommands()
