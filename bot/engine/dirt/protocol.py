"""Rallyman: DIRT behind the `Game` protocol (bot.engine.core.game): the one object through which the
rest of the bot plays DIRT (RULES Part B, with the B13 provisional defaults).

DIRT hides nothing from one seat that another sees: a seat's view and the spectators' hold the same
public part of the state (`public.PublicState`: no dice stream), so code written against the
protocol never holds a state.
Its commands share classic's names and options (`/roll`, `/stop`, `/odds`, `/attack`): one slash
command per name serves every game, and each rally's game reads the text (`parse`).
Snapshots are `{"schema": 1, …}` (bot.engine.dirt.state); `from_json` refuses any other schema.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.engine.core.dice import DiceSource, ScriptedDice, SeededDice, StreamDice
from bot.engine.core.errors import NotAllowed
from bot.engine.core.events import Event
from bot.engine.core.game import (
    SECONDS,
    Button,
    GhostMark,
    Outcome,
    Prompt,
    SeatRange,
    SeatResult,
    StageLibrary,
    Standing,
    Told,
    Verb,
    VerbOption,
    check_schema,
    outcome_standing,
    ranked,
)
from bot.engine.core.log import CodecError, Lifecycle, to_text
from bot.engine.core.tally import Counters, gear_tally
from bot.engine.core.text import Listed, msg
from bot.engine.dirt import ai as dirt_ai
from bot.engine.dirt import rally as engine
from bot.engine.dirt.actions import Action, Attack, Retire, Roll, Stop, Timeout
from bot.engine.dirt.classification import rally_rows
from bot.engine.dirt.ghosts import ghost_marks
from bot.engine.dirt.library import DIRT_STAGES
from bot.engine.dirt.move_odds import certain_losses, loss_chance
from bot.engine.dirt.narrate import narrate
from bot.engine.dirt.out_reasons import OUT_REASONS, out_reason_word
from bot.engine.dirt.parse import STOP_WORDS, shown, typed_words
from bot.engine.dirt.pictures import board_data, picture_args, results_data
from bot.engine.dirt.public import PublicState, public, replica
from bot.engine.dirt.rules_text import rules_lines
from bot.engine.dirt.ruleset import DEFAULT_RULESET, GEARS, load_ruleset, ruleset_names
from bot.engine.dirt.simulate import simulate as simulate_course
from bot.engine.dirt.state import SCHEMA, DirtState
from bot.engine.dirt.status_text import results_lines, stage_lines, status_lines
from bot.engine.dirt.turn import landing_choices

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
MODULES = ("sisu",)
#: events the channel is not told: the next driver's turn (the prompt after it names them)
UNTOLD = ("dirt_turn",)
#: the button colours of DIRT's actions (a closed table by the action's kind)
STYLES = {"stop": "danger", "spare": "secondary"}


@dataclass(frozen=True)
class DirtView:
    """What `seat` (None: a spectator) may see: the same for every seat, the public part of the state."""

    state: PublicState
    seat: str | None


@dataclass(frozen=True)
class RollStop:
    """`/roll … end:yes`: the step, then a stop if the turn still runs (the driver's one command)."""

    roll: Roll


def _dice_source(seed: int, modules: Mapping[str, Any]) -> DiceSource:
    script = modules.get("dice_script")
    streams = modules.get("streams")  # a championship run: named streams from the round's seed
    if script is not None:
        return ScriptedDice(script.get("faces", []), script.get("events", []))
    if streams is not None:
        return StreamDice(str(streams["key"]), str(streams["common"]))
    return SeededDice(seed)


class Dirt:
    """Rallyman: DIRT (RULES Part B, B13 provisional defaults) as a `Game`."""

    id = "dirt"
    name = "game.dirt"
    seats = SeatRange(1, 6)
    solo_runs = True
    result = SECONDS
    state_schema = SCHEMA
    verbs = VERBS
    stages: StageLibrary = DIRT_STAGES
    modules: tuple[str, ...] = MODULES
    out_reasons: tuple[str, ...] = OUT_REASONS
    texts: Path | None = None  # DIRT's texts are in the shared catalogue (data/i18n, `dirt.` keys)
    renderer: str | None = "bot.render.dirt.painter"

    def rulesets(self) -> list[str]:
        """"provisional" first: the default (the B13 house rules, RULES Part B)."""
        names = ruleset_names()
        return sorted(names, key=lambda n: n != DEFAULT_RULESET)

    def provisional(self, ruleset: str) -> bool:
        """The ruleset file says whether its rules are provisional (B13: every default is)."""
        return load_ruleset(ruleset).provisional

    def rules(self, ruleset: str) -> list[str]:
        """`/rules`: the B13 defaults with their OPEN ids, numbers from the ruleset file."""
        return rules_lines(ruleset)

    def default_stage(self, ruleset: str) -> None:
        """A rally of this game names its stage (`/rally create stage:`): there is no default."""
        return None

    # -- setup and storage -----------------------------------------------------------------------

    def validate_setup(self, options: Mapping[str, Any]) -> None:
        """Every stage of the course exists and the ruleset is DIRT's (a `RallyError` names the bad one)."""
        for name in self._course(options)[0]:
            self.stages.facts(name)
        self._ruleset(options)

    def _ruleset(self, options: Mapping[str, Any]) -> str:
        name = str(options.get("ruleset") or "provisional")
        if name not in ruleset_names():  # a name from Discord: never a path
            raise NotAllowed(msg("dirt.unknown_ruleset", name=name[:40], known=", ".join(ruleset_names())))
        return name

    @staticmethod
    def _course(options: Mapping[str, Any]) -> tuple[list[str], list[bool]]:
        planned = (options.get("modules") or {}).get("course")
        if planned:
            return list(planned["specials"]), list(planned["assistance"])
        return [str(options["stage"])], []

    def setup(self, seed: int, seats: Sequence[tuple[str, str]], options: Mapping[str, Any]
              ) -> tuple[DirtState, list[Event]]:
        modules = options.get("modules") or {}
        stages, assistance = self._course(options)
        return engine.new_rally(list(seats), stages, dice=_dice_source(seed, modules), assistance=assistance,
                                ruleset=self._ruleset(options),
                                modules={m: bool(modules.get(m)) for m in MODULES})

    def to_json(self, state: DirtState) -> str:
        return json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def from_json(self, text: str) -> DirtState:
        data = json.loads(text)
        check_schema(self, data.get("schema") if isinstance(data, dict) else None)
        return DirtState.from_dict(data)

    # -- play ------------------------------------------------------------------------------------

    def parse(self, text: str, state: DirtState, seat: str) -> Action | RollStop:
        words = text.strip()
        head, _, last = words.rpartition(" ")
        if head and last.lower() in STOP_WORDS:  # `4 left stop`, `4 gauche arrêt`: roll, then stop
            action = engine.parse(head, state, seat)
            if isinstance(action, Roll):
                return RollStop(action)
            return action
        return engine.parse(words, state, seat)

    def encode(self, action: Action | RollStop | Lifecycle) -> str:
        """The canonical log entry; a `RollStop` is one entry, the roll's with `"stop": true`."""
        if isinstance(action, RollStop):
            fields = json.loads(engine.encode(action.roll))
            return to_text({**fields, "stop": True})
        return engine.encode(action)

    def decode(self, text: str) -> Action | RollStop | Lifecycle:
        try:
            fields = json.loads(text)
        except ValueError as exc:
            raise CodecError(f"not JSON: {exc}") from None
        if not isinstance(fields, dict) or fields.get("v") != 1:
            raise CodecError("v: not a log entry of version 1")
        if fields.get("stop") is True:
            rest = {k: v for k, v in fields.items() if k != "stop"}
            roll = engine.decode(to_text(rest))
            if not isinstance(roll, Roll):
                raise CodecError("stop: only a roll may end with a stop")
            return RollStop(roll)
        return engine.decode(text)

    def legal_actions(self, state: DirtState, seat: str | None) -> list[Action]:
        acting = state.to_act()
        if acting is None or (seat is not None and seat != acting):
            return []
        return list(engine.legal_actions(state, acting))

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

    def apply(self, state: DirtState, seat: str | None, action: Action | RollStop
              ) -> tuple[DirtState, list[Event]]:
        """Play `action` for `seat`; `seat` None is the rally itself: a deadline, a retirement, or
        the AI's move for the seat to act (the services log an AI driver's moves so). The state
        given never changes (the `Game` contract: the services keep states by version, a replay
        keeps each one): the engine's `apply` plays on one copy made here, once per command."""
        if seat is None and not isinstance(action, (Retire, Timeout)):
            seat = state.to_act()
        state = state.clone()  # the engine plays on the state it is given; the caller's stays as it was
        if isinstance(action, RollStop):
            state, events = engine.apply(state, seat, action.roll)
            if seat is not None and state.to_act() == seat and Stop() in engine.legal_actions(state, seat):
                state, more = engine.apply(state, seat, Stop())
                events += more
            return state, events
        return engine.apply(state, seat, action)

    def retire_action(self, seat: str) -> Action:
        return Retire(seat)

    def to_act(self, state: DirtState) -> frozenset[str]:
        acting = state.to_act()
        return frozenset() if acting is None else frozenset({acting})

    def timeout_action(self, state: DirtState, seat: str) -> Action:
        """The deadline passed: the turn ends as it stands (no die rolled: B13.8.2's card)."""
        return Timeout()

    def midturn(self, view: DirtView) -> bool:
        return bool(view.state.turn_dice)

    def finished(self, state: DirtState) -> bool:
        return engine.finished(state)

    def progress(self, view: DirtView) -> tuple[int, int, int]:
        """(stage, round, turn): each driver's turn is a new one."""
        state = view.state
        return (state.stage_index, state.round, state.turn)

    def outcome(self, state: DirtState) -> Outcome | None:
        """Seconds, lower is better: the rally's total over its stages (B13.2); equal totals share
        a rank; knocked-out and retired drivers are DNF with their reason (B13.8.10)."""
        if not engine.finished(state):
            return None
        rows = [SeatResult(r.seat, "finished" if r.total is not None else "dnf", r.total, None,
                           (r.place,), r.reason if r.total is None else None) for r in rally_rows(state)]
        return Outcome(self.result, ranked(self.result, rows))

    def standing(self, state: DirtState) -> Standing:
        """Finished: the outcome's ranks. Running: every car still in by the stages it has
        finished (more first), then by its time over them; out or retired: out."""
        if engine.finished(state):
            outcome = self.outcome(state)
            assert outcome is not None
            return outcome_standing(outcome)
        rows: Standing = []
        for seat, _ in state.seats:
            car = state.cars[seat]
            times = [t for t in car.stage_times if t is not None]
            out = car.status in ("out", "retired") or len(times) < len(car.stage_times)
            rows.append((seat, None if out else (-len(times), sum(times))))
        return rows

    # -- what is shown ---------------------------------------------------------------------------

    def view(self, state: DirtState, seat: str | None) -> DirtView:
        return DirtView(public(state), seat)

    def prompt(self, view: DirtView, events: Sequence[Event]) -> Prompt:
        state = replica(view.state)
        acting = state.to_act()
        if acting is None:
            return Prompt((), frozenset(), (), False)
        name = dict(state.seats)[acting]
        new_turn = not events or any(e.kind in ("dirt_turn", "dirt_stage_end") for e in events)
        actions = engine.legal_actions(state, acting)
        labels = tuple(self.label(a) for a in actions)
        steps = [label for label in labels if label not in ("stop", "spare")]
        allowed = Listed([shown(label) for label in steps], "either") if steps else msg("dirt.word_nothing")
        key = "dirt.go_on" if state.turn_dice else "dirt.your_turn"
        lines = [msg(key, name=name, allowed=allowed)]
        rolls = [a for a in actions if isinstance(a, Roll)]
        doomed = tuple(self.label(a) for a in certain_losses(state, acting, rolls))
        if doomed:
            lines.append(msg("turn.certain_losses", moves=Listed([shown(label) for label in doomed], "comma")))
        flying = [self.label(a) for a in landing_choices(state, acting)]
        if flying:  # B11: the driver chooses where a jump lands
            lines.append(msg("dirt.landing_choice", moves=Listed([shown(label) for label in flying], "comma")))
        if state.rules.provisional:  # B13: every message of this ruleset says so
            lines.append(msg("dirt.turn_provisional"))
        return Prompt(tuple(lines), frozenset({acting}), labels, new_turn, certain_loss=frozenset(doomed))

    def hand(self, view: object) -> None:
        """Nothing is hidden: every seat sees what the board shows (`/hand` says so)."""
        return None

    def tell(self, view: DirtView, events: Sequence[Event]) -> Told:
        """The story; a stage that ended while the rally goes on is a chapter of its own, with the
        rally's classification so far (B13.8.10). Whose turn it is is not told: the prompt that
        follows says it (or the AI's own line), once."""
        state = view.state
        told = [e for e in events if e.kind not in UNTOLD]
        ends = [i for i, e in enumerate(told) if e.kind == "dirt_stage_end"]
        if ends and not engine.finished(state):
            cut = ends[-1] + 1
            names = dict(state.seats)
            chapter = tuple(narrate(told[:cut], names)) + tuple(stage_lines(state))
            return Told((chapter,), tuple(narrate(told[cut:], names)))
        return Told((), tuple(narrate(told, dict(state.seats))))

    def seat_name(self, view: DirtView, seat: str) -> str | None:
        return dict(view.state.seats).get(seat)

    def title(self, view: DirtView) -> str:
        return view.state.stage.title

    def rally_title(self, view: DirtView) -> str:
        state = view.state
        if len(state.stages) > 1:
            return Listed([self.stages.facts(name).title for name in state.stages], "comma")
        return state.stage.title

    def status(self, view: DirtView) -> list[str]:
        return status_lines(view.state)

    def classification(self, view: DirtView) -> list[str]:
        return results_lines(view.state)

    def out_reason(self, code: str) -> str:
        return out_reason_word(code)

    def up_next(self, view: DirtView) -> str | None:
        state = view.state
        if state.to_act() is None or state.turn + 1 >= len(state.order):
            return None
        return state.order[state.turn + 1]

    def start_order(self, view: object) -> None:
        """The first turns go in the order the seats were given (RULES A3 / B5: the host's call)."""
        return None

    def narrate(self, events: Sequence[Event], view: DirtView) -> list[str]:
        return narrate(list(events), dict(view.state.seats))

    def tally(self, events: Sequence[Event]) -> Counters:
        """Career counters (bot.engine.core.tally): a turn begun, a loss of control, the gear a turn
        ended in (its card, B3; the finish line ends the turn too), a stage finished."""
        return gear_tally(events, turn="dirt_turn", lost="dirt_lost_control", ends=("dirt_turn_end", "dirt_finish"),
                          finish="dirt_finish", top=max(GEARS))

    # -- pictures --------------------------------------------------------------------------------

    def board(self, view: DirtView) -> dict[str, Any]:
        return board_data(view.state)

    def results(self, view: DirtView) -> dict[str, Any]:
        return results_data(view.state)

    def picture(self, kind: str, data: Mapping[str, Any]) -> tuple[Any, ...]:
        return picture_args(kind, data)

    # -- AI and odds -----------------------------------------------------------------------------

    def choose(self, view: DirtView, seat: str, risk: float | None = None) -> Action:
        state = replica(view.state)
        if seat not in self.to_act(state):
            raise NotAllowed(msg("game.not_your_action"))
        return dirt_ai.choose(state, seat) if risk is None else dirt_ai.choose(state, seat, risk)

    def odds(self, view: DirtView, seat: str, text: str) -> list[str]:
        """The exact chance that the next step or a planned group loses control, worked out by
        playing it with every draw of the dice and the bag (`move_odds`: the ⚠ limit, speed
        limits, jumps, damage; B13.1, B13.3–B13.5); a move not allowed now is refused as `/roll`
        refuses it."""
        state = replica(view.state)
        if state.to_act() != seat:
            raise NotAllowed(msg("game.not_your_action"))
        action = self.parse(text, state, seat)
        roll = action.roll if isinstance(action, RollStop) else action
        if isinstance(roll, Roll):
            steps = [roll.step]
        elif isinstance(roll, Attack):
            steps = [step for step, _ in roll.steps]
        else:
            raise NotAllowed(msg("dirt.odds_need_dice"))
        chance = loss_chance(state, seat, roll)
        plan = " ".join(engine.label(Roll(s)) for s in steps)
        if chance == 1:
            return [msg("dirt.odds_certain", plan=plan)]
        percent = msg("number.percent", value=round(float(chance) * 100, 1))
        return [msg("dirt.odds", plan=plan, percent=percent)]

    def simulate(self, stages: Sequence[str], drivers: int, seed: int, assistance: Sequence[bool],
                 modules: str, ruleset: str | None = None) -> dict[str, Any]:
        return simulate_course(list(stages), drivers, seed, list(assistance), modules)

    # -- ghosts (issue 27 §5) ----------------------------------------------------------------------

    def ghost_marks(self, view: DirtView) -> dict[str, GhostMark]:
        """Each car's hex space (None off the track) and its time so far over the rally: the
        finished stages' times plus this stage's time cards less its second tokens."""
        return ghost_marks(view.state)


DIRT = Dirt()
