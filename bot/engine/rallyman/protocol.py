"""Rallyman classic behind the `Game` protocol (bot.engine.core.game): the one object through which
the rest of the bot plays classic (RULES Part A, with every Rules+ module).

Classic has no hidden information: every seat's view and the spectators' view are the same public
state. `view` still returns a `RallymanView` (a read-only wrapper), so code written against the
protocol never holds a state it could leak once a game with secrets (Road Rally USA) sits beside it.

Snapshots keep the bare state JSON they always had (the rally row carries its `game`), so stored
snapshots and replays stay byte-identical; a `schema` key, absent in every snapshot written so far,
would name a newer shape, and `from_json` refuses any it does not read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.engine.core.dice import DiceSource, ScriptedDice, StreamDice
from bot.engine.core.errors import NotAllowed
from bot.engine.core.game import SECONDS, Game, Outcome, Prompt, SeatRange, Verb, VerbOption, check_schema, ranked
from bot.engine.core.text import msg
from bot.engine.rallyman import ai as classic_ai
from bot.engine.rallyman import game as engine
from bot.engine.rallyman.action_codec import from_text, log_text
from bot.engine.rallyman.actions import Action, Attack, Event, Retire, Roll, Stop, Timeout, Tires
from bot.engine.rallyman.board import board_view
from bot.engine.rallyman.course import course_of
from bot.engine.rallyman.odds import odds as plan_odds
from bot.engine.rallyman.parse import parse as parse_text
from bot.engine.rallyman.pictures import board_data, picture_args, results_data
from bot.engine.rallyman.rally_classification import rally_classification
from bot.engine.rallyman.ruleset import load_ruleset
from bot.engine.rallyman.specials import Seat
from bot.engine.rallyman.state import FINISHED, OUT, GameState
from bot.engine.rallyman.view import BoardView
from bot.engine.rallyman.words import dice_words

#: modules every snapshot writes, on or off (as it always did), and the Rules+ modules (A18–A21),
#: written only when on so the snapshots of rallies without them stay byte-identical
ENGINE_MODULES = ("sisu", "shakedown")
RULES_PLUS = ("attack", "seconds", "weather", "splits")
#: the JSON shape `to_json` writes: 1, the shape of every snapshot stored so far (no `schema` key)
STATE_SCHEMA = 1

DICE = VerbOption("dice", "discord.opt.dice", autocomplete=True)
#: The classic commands, one table for the slash commands, the console and the buttons. Each
#: template gives the text `parse` reads (the drivers' grammar, bot.engine.rallyman.parse).
VERBS: tuple[Verb, ...] = (
    Verb("roll", "discord.cmd.roll", "{dice}", (DICE,), flags=(("end", "stop"),)),
    Verb("stop", "discord.cmd.stop", "stop"),
    Verb("line", "discord.cmd.line", "{line}",
         (VerbOption("line", "discord.opt.line", choices=("interior", "skid", "shortcut")),)),
    Verb("spare", "discord.cmd.spare", "spare"),
    Verb("attack", "discord.cmd.attack", "attack {dice}", (VerbOption("dice", "discord.opt.attack_dice"),)),
    Verb("order", "discord.cmd.order", "order {order}", (VerbOption("order", "discord.opt.order_dice"),)),
    Verb("place", "discord.cmd.place", "place {die}", (VerbOption("die", "discord.opt.place_die"),)),
    Verb("tires", "discord.cmd.tires", "tires {tires}",
         (VerbOption("tires", "discord.opt.tires", choices=("snow", "asphalt")),)),
    Verb("odds", "discord.cmd.odds", "{dice}", (VerbOption("dice", "discord.opt.odds_dice", autocomplete=True),),
         private=True),
)


@dataclass(frozen=True)
class RallymanView:
    """What `seat` (None: a spectator) may see. Classic hides nothing, so it is the public state;
    callers read it, never change it (`board()` is the picture's data)."""

    state: GameState
    seat: str | None

    def board(self) -> BoardView:
        return board_view(self.state)


def start_state(stage: str, ruleset: str, seed: int, modules: Mapping[str, Any] | None, seats: Sequence[Seat],
                events: list[Event] | None = None) -> GameState:
    """The state a rally starts in: the same function serves the start and the replay of the log.
    `events` receives what happens before the first die (the weather roll, the first turn)."""
    modules = modules or {}
    # sisu and shakedown are always written (as before); a Rules+ module only when it is on, so the
    # snapshots of rallies without it stay byte-identical.
    engine_modules = {k: bool(modules.get(k, False)) for k in ENGINE_MODULES}
    engine_modules.update({k: True for k in RULES_PLUS if modules.get(k)})
    script = modules.get("dice_script")
    streams = modules.get("streams")  # a championship run: named streams from the round's seed
    dice: DiceSource | None = None
    if script is not None:
        dice = ScriptedDice(script.get("faces", []), script.get("events", []))
    elif streams is not None:
        dice = StreamDice(str(streams["key"]), str(streams["common"]))
    planned = modules.get("course")
    rally_course = course_of(planned["specials"], planned["assistance"]) if planned else None
    return engine.new_game(stage, list(seats), seed=seed, ruleset=ruleset, modules=engine_modules, dice=dice,
                           course=rally_course, events=events)


class Rallyman:
    """Rallyman classic (RULES Part A) as a `Game`."""

    id = "rallyman"
    name = "game.rallyman"
    seats = SeatRange(1, 4)
    solo_runs = True
    result = SECONDS
    state_schema = STATE_SCHEMA
    verbs = VERBS

    # -- setup and storage -----------------------------------------------------------------------

    def validate_setup(self, options: Mapping[str, Any]) -> None:
        """A stage name and a ruleset this engine knows (raises a `RallyError` naming the bad one)."""
        load_ruleset(str(options.get("ruleset", "classic")))

    def setup(self, seed: int, seats: Sequence[tuple[str, str]], options: Mapping[str, Any]
              ) -> tuple[GameState, list[Event]]:
        events: list[Event] = []
        state = start_state(str(options["stage"]), str(options.get("ruleset", "classic")), seed,
                            options.get("modules"), [Seat(i, n) for i, n in seats], events)
        return state, events

    def to_json(self, state: GameState) -> str:
        """Canonical JSON: compact and key-sorted, so replays compare byte for byte."""
        return json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def from_json(self, text: str) -> GameState:
        data = json.loads(text)
        check_schema(self, data.pop("schema", STATE_SCHEMA) if isinstance(data, dict) else None)
        return GameState.from_dict(data)

    # -- play ------------------------------------------------------------------------------------

    def parse(self, text: str, state: GameState, seat: str) -> Action:
        return parse_text(text, state, driver=seat)

    def encode(self, action: Action) -> str:
        return log_text(action)

    def decode(self, text: str) -> Action:
        entry = from_text(text)
        if not isinstance(entry, Action):  # a Start/Status entry is the rally's, not a move
            raise NotAllowed(msg("game.not_an_action", entry=text[:60]))
        return entry

    def legal_actions(self, state: GameState, seat: str | None) -> list[Action]:
        return engine.legal_actions(state, seat)

    def label(self, action: Action) -> str:
        """An action as a driver would type it (buttons, autocomplete)."""
        if isinstance(action, Roll):
            return " ".join([*action.dice, *([action.line] if action.line else [])])
        return str(action)

    def apply(self, state: GameState, seat: str, action: Action) -> tuple[GameState, list[Event]]:
        """Play `action` for `seat`: the engine checks it is that seat's to take (a driver may
        choose tires before their start, A20.2, or retire, out of turn)."""
        if getattr(action, "driver", None) is None:
            action = replace(action, driver=seat)
        elif action.driver != seat:
            raise NotAllowed(msg("game.not_your_action"))
        return engine.apply(state, action)

    def to_act(self, state: GameState) -> frozenset[str]:
        if state.turn is None:
            return frozenset()
        return frozenset({state.cars[state.turn.car].id})

    def timeout_action(self, state: GameState, seat: str) -> Action:
        return Timeout(driver=seat)

    def finished(self, state: GameState) -> bool:
        return state.finished

    def outcome(self, state: GameState) -> Outcome | None:
        """Seconds, lower is better: a rally by its classification over every special (A2), a
        single special by its stage times (A17); knocked out and retired drivers are DNF."""
        if not state.finished:
            return None
        if state.course is not None:
            rows = [(r.driver, "finished" if r.total is not None else "dnf", r.total,
                     ((r.times or (0,))[-1] or 0, r.seat)) for r in rally_classification(state.course)]
        else:
            rows = [(c.id, "finished" if c.status == FINISHED else "dnf",
                     c.time if c.status == FINISHED else None, (0, c.seat))
                    for c in state.cars if c.status in (FINISHED, OUT)]
        return Outcome(self.result, ranked(self.result, rows))  # type: ignore[arg-type]

    # -- what is shown ---------------------------------------------------------------------------

    def view(self, state: GameState, seat: str | None) -> RallymanView:
        return RallymanView(state, seat)

    def prompt(self, view: RallymanView, events: Sequence[Event]) -> Prompt:
        """Whose turn it is and the buttons they may press (the text is built by the services'
        turn post for now: see the closing note of issue 23)."""
        seats = self.to_act(view.state)
        labels = tuple(self.label(a) for a in self.legal_actions(view.state, None)) if seats else ()
        return Prompt((), seats, labels, tuple(s for s in seats if not s.startswith("-")))

    def narrate(self, events: Sequence[Event], view: RallymanView) -> list[str]:
        from bot.engine.rallyman.narrate import narrate
        return narrate(list(events), view.state)

    # -- pictures --------------------------------------------------------------------------------

    def board(self, view: RallymanView) -> dict[str, Any]:
        """The board image's data (`BoardView` JSON, its status line a message)."""
        return board_data(view.state)

    def results(self, view: RallymanView) -> dict[str, Any]:
        """The results image's data (`ResultsView` JSON, its words messages)."""
        return results_data(view.state)

    def picture(self, kind: str, data: Mapping[str, Any]) -> tuple[Any, ...]:
        """The renderer's arguments: (stage, BoardView) for a board, (ResultsView,) for results."""
        return picture_args(kind, data)

    # -- AI and odds -----------------------------------------------------------------------------

    def choose(self, view: RallymanView, seat: str, risk: float | None = None) -> Action:
        if seat not in self.to_act(view.state):
            raise NotAllowed(msg("game.not_your_action"))
        return classic_ai.choose_action(view.state) if risk is None else classic_ai.choose_action(view.state, risk)

    def odds(self, state: GameState, seat: str, text: str) -> list[str]:
        """The exact chance of losing control for a plan of dice (A11), in message keys."""
        action = parse_text(text, state, driver=seat)
        if not isinstance(action, (Roll, Attack)):
            raise NotAllowed(msg("odds.need_dice"))
        result = plan_odds(state, action)
        key = "odds.attack" if isinstance(action, Attack) else "odds.result"
        lines = [msg(key, plan=dice_words(action.dice), percent=result.percent)]
        if result.knocked_out:
            lines.append(msg("odds.knock_out", percent=msg("number.percent", value=round(result.knocked_out * 100, 1))))
        return lines


RALLYMAN: Game[GameState, Action] = Rallyman()

__all__ = ["RALLYMAN", "Rallyman", "RallymanView", "Retire", "Stop", "Tires", "start_state"]
