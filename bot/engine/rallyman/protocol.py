"""Rallyman classic behind the `Game` protocol (bot.engine.core.game): the one object through which
the rest of the bot plays classic (RULES Part A, with every Rules+ module).

Classic hides nothing from one seat that another sees: every seat's view and the spectators' view
hold the same public part of the state (`public.PublicState`: no dice stream, shortcut-deck order
or seed), so code written against the protocol never holds a secret it could leak.

Snapshots keep the bare state JSON they always had (the rally row carries its `game`), so stored
snapshots and replays stay byte-identical; a `schema` key, absent in every snapshot written so far,
would name a newer shape, and `from_json` refuses any it does not read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot.engine.core.dice import DiceSource, ScriptedDice, StreamDice
from bot.engine.core.difficulty import TIGHT_GEAR, length_class
from bot.engine.core.errors import NotAllowed
from bot.engine.core.events import Event
from bot.engine.core.game import (
    SECONDS,
    Button,
    Game,
    GhostMark,
    Outcome,
    Prompt,
    SeatRange,
    SeatResult,
    StageFacts,
    StageLibrary,
    Standing,
    Told,
    Verb,
    VerbOption,
    check_schema,
    outcome_standing,
    ranked,
)
from bot.engine.core.official import official_stage
from bot.engine.core.tally import Counters, gear_tally
from bot.engine.core.text import Listed, msg
from bot.engine.rallyman import ai as classic_ai
from bot.engine.rallyman import game as engine
from bot.engine.rallyman.action_codec import Entry, from_text, log_text
from bot.engine.rallyman.actions import Action, Attack, Retire, Roll, Stop, Timeout, Tires
from bot.engine.rallyman.board import board_view
from bot.engine.rallyman.buttons import button as action_button
from bot.engine.rallyman.buttons import reader_words, shown
from bot.engine.rallyman.classify import classification as special_classification
from bot.engine.rallyman.course import course_of
from bot.engine.rallyman.dice_rules import describe_allowed, dice_allowed
from bot.engine.rallyman.ghosts import ghost_marks
from bot.engine.rallyman.narrate import narrate
from bot.engine.rallyman.odds import odds as plan_odds
from bot.engine.rallyman.out_reasons import OUT_REASONS, out_reason_word
from bot.engine.rallyman.parse import parse as parse_text
from bot.engine.rallyman.pictures import board_data, picture_args, results_data
from bot.engine.rallyman.public import PublicState, public, replica
from bot.engine.rallyman.rally_classification import rally_classification
from bot.engine.rallyman.ruleset import GEARS, load_ruleset, ruleset_names
from bot.engine.rallyman.simulate import modules_named
from bot.engine.rallyman.simulate import simulate as simulate_course
from bot.engine.rallyman.specials import Seat
from bot.engine.rallyman.stages.catalogue import is_stage_name, load_stage, stage_digest
from bot.engine.rallyman.stages.loader import stage_names
from bot.engine.rallyman.state import FINISHED, OUT, GameState
from bot.engine.rallyman.status_text import course_lines, results_lines, status_lines
from bot.engine.rallyman.view import BoardView
from bot.engine.rallyman.words import dice_words

#: modules every snapshot writes, on or off (as it always did), and the Rules+ modules (A18–A21),
#: written only when on so the snapshots of rallies without them stay byte-identical
ENGINE_MODULES = ("sisu", "shakedown")
RULES_PLUS = ("attack", "seconds", "weather", "splits")
#: the JSON shape `to_json` writes: 1, the shape of every snapshot stored so far (no `schema` key)
STATE_SCHEMA = 1

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


def rules_lines(ruleset: str) -> list[str]:
    """`/rules` for classic (RULES Part A): the ruleset shown and the others, the optional modules
    (A18–A23) and where the rules come from, as message keys. An unknown ruleset is refused
    (`DataError` naming the rulesets there are)."""
    load_ruleset(ruleset)
    return [msg("rules.classic.head", ruleset=ruleset, rulesets=", ".join(f"`{n}`" for n in ruleset_names())),
            msg("rules.classic.modules"), msg("rules.classic.options"), msg("rules.classic.source")]


#: classic's length classes, in spaces by the shortest line: short below 30, long from 60
MEDIUM_FROM, LONG_FROM = 30, 60


class ClassicStages:
    """Classic's stages: the shipped `.stage` files of data/stages and the generated `gen-…` ones.

    Facts: the length in spaces by the shortest line, the zones in route order, tight corners
    (interior note 1–2, A8.1) and hazards (bumps, A10, and shortcuts, A8.4) for the difficulty."""

    def names(self) -> list[str]:
        return stage_names()

    def exists(self, name: str) -> bool:
        return is_stage_name(name)

    def facts(self, name: str) -> StageFacts:
        stage = load_stage(name)
        counts = stage.counts()
        return StageFacts(name, stage.title, stage.length, counts["corners"],
                          length_class=length_class(stage.length, MEDIUM_FROM, LONG_FROM), unit="spaces",
                          zones=stage.zone_order,
                          tight=sum(1 for c in stage.corners if c.interior_note <= TIGHT_GEAR),
                          hazards=counts["bumps"] + counts["shortcuts"])

    def digest(self, name: str) -> str:
        return stage_digest(name)

    def official(self, week: str) -> str:
        """The week's generated official stage, as it has always been named (RULES A24)."""
        return official_stage(week)


@dataclass(frozen=True)
class RallymanView:
    """What `seat` (None: a spectator) may see: the public part of the state, the same for every
    seat; callers read it, never change it (`board()` is the picture's data)."""

    state: PublicState
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
    stages: StageLibrary = ClassicStages()
    modules: tuple[str, ...] = RULES_PLUS
    out_reasons: tuple[str, ...] = OUT_REASONS
    texts: Path | None = None  # classic's texts are the shared catalogue's (data/i18n)
    renderer: str | None = "bot.render.rallyman.painter"

    def rulesets(self) -> list[str]:
        return ruleset_names()  # "classic" first: the default

    def provisional(self, ruleset: str) -> bool:
        """Classic's rules are the published rules: never provisional."""
        return False

    def rules(self, ruleset: str) -> list[str]:
        """`/rules`: classic's rulesets and Rules+ modules and where the rules come from."""
        return rules_lines(ruleset)

    def default_stage(self, ruleset: str) -> None:
        """A rally of this game names its stage (`/rally create stage:`): there is no default."""
        return None

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

    def encode(self, action: Entry) -> str:
        """The canonical text the action log keeps (bot.engine.rallyman.action_codec)."""
        return log_text(action)

    def decode(self, text: str) -> Entry:
        """An action or a lifecycle entry from its logged text (strict: `CodecError`)."""
        return from_text(text)

    def legal_actions(self, state: GameState, seat: str | None) -> list[Action]:
        return engine.legal_actions(state, seat)

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

    def apply(self, state: GameState, seat: str | None, action: Action) -> tuple[GameState, list[Event]]:
        """Play `action` for `seat`: the engine checks it is that seat's to take (a driver may
        choose tires before their start, A20.2, out of turn). `seat` None: the rally acts (a
        timeout, a retirement), or a log written before actors were kept replays as it was."""
        if seat is None or isinstance(action, (Retire, Timeout)):
            return engine.apply(state, action)
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
        """The deadline passed: the bot ends the turn, a stop once a die is used (A6.4), else the
        car stands still and takes the no-move card (A13.5)."""
        return Stop() if state.turn is not None and state.turn.started else Timeout()

    def midturn(self, view: RallymanView) -> bool:
        """A die of the turn is used already (then `/stop` is allowed, A6.3.7)."""
        turn = view.state.turn
        return turn is not None and turn.started

    def retire_action(self, seat: str) -> Action:
        """The seat leaves the rally (left, removed by the host, or too many missed turns)."""
        return Retire(seat)

    def finished(self, state: GameState) -> bool:
        return state.finished

    def outcome(self, state: GameState) -> Outcome | None:
        """Seconds, lower is better: a rally by its total over every special (A2, A17), a single
        special by its stage time (A15.2); equal times by the last special's time (the power
        stage), then the start order (A17 OPEN-5). Knocked out and retired drivers are DNF, with
        their reason. None while the rally runs."""
        if not state.finished:
            return None
        rows: list[SeatResult] = []
        if state.course is not None and state.course.results:
            for r in rally_classification(state.course):
                power = r.times[-1] if r.times else None
                rows.append(SeatResult(r.driver, "finished" if r.total is not None else "dnf", r.total, None,
                                       (power or 0, r.seat), None if r.total is not None else r.reason or "retired"))
        else:
            for c in state.cars:
                done = c.status == FINISHED
                rows.append(SeatResult(c.id, "finished" if done else "dnf", c.time if done else None, None,
                                       (c.time if done else 0, c.seat), None if done else c.out_reason or "retired"))
        return Outcome(self.result, ranked(self.result, rows))

    def standing(self, state: GameState) -> Standing:
        """Finished: the outcome's ranks. Running: every driver still in by the total of the
        specials driven so far, then by their place on the special being driven (finished by
        time, then racing by distance, `classify.classification`); knocked out or retired: out."""
        if state.finished:
            outcome = self.outcome(state)
            assert outcome is not None
            return outcome_standing(outcome)
        driven = state.course is not None and bool(state.course.results)
        earlier = {r.driver: r.total for r in rally_classification(state.course)} if state.course and driven else {}
        rows: Standing = []
        for place, row in enumerate(special_classification(state)):
            out = row["status"] == OUT or (driven and earlier.get(row["driver"]) is None)
            rows.append((str(row["driver"]), None if out else (earlier.get(row["driver"]) or 0, place)))
        return rows

    def progress(self, view: RallymanView) -> tuple[int, int]:
        """(special, round): the board changes turn when either moves on."""
        state = view.state
        return (state.course.index if state.course else 0, state.round)

    # -- what is shown ---------------------------------------------------------------------------

    def view(self, state: GameState, seat: str | None) -> RallymanView:
        return RallymanView(public(state), seat)

    def prompt(self, view: RallymanView, events: Sequence[Event]) -> Prompt:
        """The driver to act, the dice they may roll, their buttons; a turn is new when the events
        passed it (or there were none: the start), not after each die of the same turn."""
        state = replica(view.state)
        if state.turn is None:
            return Prompt((), frozenset(), (), False)
        car = state.cars[state.turn.car]
        new_turn = not events or any(e.kind in ("turn", "retired") for e in events)
        actions = self.legal_actions(state, None)
        labels = tuple(self.label(a) for a in actions)
        allowed = describe_allowed(dice_allowed(state, car, state.turn))
        if state.turn.attack is not None:  # a time attack rolled: only its order may follow (A18.3)
            orders = [o for o in labels if o.startswith("order ")]
            line = msg("turn.order_due", name=car.name, orders=", ".join(f"`{o}`" for o in orders[:6]))
        elif new_turn or not state.turn.started:  # not begun yet (after tires, a spare): no `/stop` (A6.3.7)
            line = msg("turn.your_turn", name=car.name, allowed=allowed)
        else:
            line = msg("turn.go_on", name=car.name, allowed=allowed)
        lines = [line]
        doomed = tuple(self.label(a) for a in actions
                       if isinstance(a, Roll) and plan_odds(state, a).loss_of_control >= 1.0)
        if doomed:  # over the corner's limit, a bump at N+2 …: whatever the dice show (A8.6, A10, A11.1)
            lines.append(msg("turn.certain_losses", moves=Listed([shown(label) for label in doomed], "comma")))
        return Prompt(tuple(lines), frozenset({car.id}), labels, new_turn, certain_loss=frozenset(doomed))

    def hand(self, view: object) -> None:
        """Nothing is hidden: every seat sees what the board shows (`/hand` says so)."""
        return None

    def tell(self, view: RallymanView, events: Sequence[Event]) -> Told:
        """The story: in a rally of several specials "SSn is over" replaces "the stage is over",
        and a special that ended (the next one begun) is told in a post of its own, with the
        rally's classification so far (A17)."""
        state = view.state
        told = list(events)
        chapters: tuple[tuple[str, ...], ...] = ()
        if state.course is not None:
            told = [e for e in told if e.kind != "stage_over"]
            over = [i for i, e in enumerate(told) if e.kind == "special_over"]
            if over and not state.finished:
                cut = over[-1] + 1
                chapters = (tuple(narrate(told[:cut], state)) + tuple(course_lines(state.course)),)
                told = told[cut:]
        return Told(chapters, tuple(narrate(told, state)))

    def seat_name(self, view: RallymanView, seat: str) -> str | None:
        car = view.state.car_by_id(seat)
        return car.name if car is not None else None

    def title(self, view: RallymanView) -> str:
        return view.state.stage.title

    def rally_title(self, view: RallymanView) -> str:
        """The rally's title: its stage, or its specials' stages in order."""
        state = view.state
        if state.course is not None and len(state.course.specials) > 1:
            return Listed([load_stage(name).title for name in state.course.specials], "comma")
        return state.stage.title

    def status(self, view: RallymanView) -> list[str]:
        return status_lines(view.state)

    def classification(self, view: RallymanView) -> list[str]:
        return results_lines(view.state)

    def out_reason(self, code: str) -> str:
        return out_reason_word(code)

    def up_next(self, view: RallymanView) -> str | None:
        """The driver after the one whose turn it is, when this round's order knows it (A4)."""
        state = view.state
        if state.turn is None or not state.queue:
            return None
        return state.cars[state.queue[0]].id

    def start_order(self, view: object) -> None:
        """The first turns go in the order the seats were given (RULES A3 / B5: the host's call)."""
        return None

    def narrate(self, events: Sequence[Event], view: RallymanView) -> list[str]:
        return narrate(list(events), view.state)

    def tally(self, events: Sequence[Event]) -> Counters:
        """Career counters (bot.engine.core.tally): a turn begun (`turn`), a loss of control, the
        gear a turn ended in by a stop or the finish line (its card, A6.4, A15), a special finished."""
        return gear_tally(events, turn="turn", lost="loss_of_control", ends=("stop", "finish"), finish="finish",
                          top=int(GEARS[-1]))

    # -- pictures --------------------------------------------------------------------------------

    def board(self, view: RallymanView) -> dict[str, Any]:
        """The board image's data (`BoardView` JSON, its status line a message)."""
        return board_data(view.state)

    def results(self, view: RallymanView) -> dict[str, Any]:
        """The results image's data (`ResultsView` JSON, its words messages)."""
        return results_data(view.state)

    def picture(self, kind: str, data: Mapping[str, Any]) -> tuple[Any, ...]:
        """The renderer's arguments: (stage, BoardView) for a board, (ResultsView,) for results,
        (stage,) for a preview."""
        return picture_args(kind, data)

    # -- AI and odds -----------------------------------------------------------------------------

    def choose(self, view: RallymanView, seat: str, risk: float | None = None) -> Action:
        state = replica(view.state)
        if seat not in self.to_act(state):
            raise NotAllowed(msg("game.not_your_action"))
        return classic_ai.choose_action(state) if risk is None else classic_ai.choose_action(state, risk)

    def odds(self, view: RallymanView, seat: str, text: str) -> list[str]:
        """The exact chance of losing control for a plan of dice (A11), in message keys."""
        state = replica(view.state)
        action = parse_text(text, state, driver=seat)
        if not isinstance(action, (Roll, Attack)):
            raise NotAllowed(msg("odds.need_dice"))
        result = plan_odds(state, action)
        key = "odds.attack" if isinstance(action, Attack) else "odds.result"
        lines = [msg(key, plan=dice_words(action.dice), percent=result.percent)]
        if result.knocked_out:
            lines.append(msg("odds.knock_out", percent=msg("number.percent", value=round(result.knocked_out * 100, 1))))
        return lines


    def simulate(self, stages: Sequence[str], drivers: int, seed: int, assistance: Sequence[bool],
                 modules: str, ruleset: str | None = None) -> dict[str, Any]:
        """`python -m bot simulate`: a whole course driven by the AI (bot.engine.rallyman.simulate);
        an unknown module is refused (ValueError) before anything is played."""
        return simulate_course(list(stages), drivers, seed, list(assistance), modules_named(modules))

    # -- ghosts (issue 27 §5) ----------------------------------------------------------------------

    def ghost_marks(self, view: RallymanView) -> dict[str, GhostMark]:
        """Each car's space id on the special being driven (START / FINISH as the board has them;
        None once knocked out) and its time so far: the chrono cards less the second markers
        held, as the board's table shows it, plus the times of the specials already finished."""
        return ghost_marks(view.state)


RALLYMAN: Game[GameState, Action] = Rallyman()

__all__ = ["RALLYMAN", "Rallyman", "RallymanView", "Retire", "Stop", "Tires", "start_state"]
