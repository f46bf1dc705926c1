"""Road Rally USA behind the `Game` protocol (bot.engine.core.game): the one object through which
the rest of the bot plays it (RULES Part C, with the C10 / OPEN-R / AMB-R defaults of its presets).

It is the product's first game with hidden information, so this is where the seam is tested:
- the state the services hold is a `Table` (the engine's `RRState` and the seats' names); they
  never look inside it;
- every view is built by `bot.engine.roadrally.view` (a spectator's holds counts and public cards
  only; a seat's adds its own hand, stage cards, answer and Mechanic cards) and wrapped with the
  names and, for a seat, the labels of what it may do now (`TableView.picks`);
- the channel's prompt is `private`: it names the seat to act (or, in a stage window, asks every
  active seat alike, C10.8) and offers no action; each seat acts from its own `hand` (`/hand`, a
  select menu of its picks) or types the action (`/play`, `/reveal`, `/pass`, `/act`);
- the AI decides from its own seat's view (`ai.choose`), never from the state.

Snapshots are `{"schema": 1, "names": [[seat, name], …], "state": RRState.to_dict()}`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.engine.core.dice import DiceSource, SeededDice
from bot.engine.core.errors import NotAllowed
from bot.engine.core.game import (
    POINTS,
    Button,
    Hand,
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
from bot.engine.core.log import Lifecycle
from bot.engine.core.secret_dice import SecretDice, commitment
from bot.engine.core.tally import Counters, add
from bot.engine.core.text import msg
from bot.engine.roadrally import ai as rr_ai
from bot.engine.roadrally import codec, play
from bot.engine.roadrally.actions import Action, Play, Retire, StageAnswer, Timeout
from bot.engine.roadrally.course import load_course
from bot.engine.roadrally.events import RoadEvent
from bot.engine.roadrally.library import ROADRALLY_COURSES, course_of, is_sprint, title_of
from bot.engine.roadrally.narrate import narrate
from bot.engine.roadrally.pictures import board_data, picture_args, results_data
from bot.engine.roadrally.presets import PRESETS
from bot.engine.roadrally.rules_text import rules_lines
from bot.engine.roadrally.simulate import simulate as simulate_game
from bot.engine.roadrally.state import RRState
from bot.engine.roadrally.status_text import hand_lines, prompt_lines, results_lines, status_lines
from bot.engine.roadrally.view import RRView
from bot.engine.roadrally.view import view as seat_view
from bot.engine.roadrally.words import label as word_label
from bot.engine.roadrally.words import parse as word_parse
from bot.engine.roadrally.words import pick_text, typed_text

SCHEMA = 1
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
MODULES = ("sprint",)
OUT_REASONS = ("retired",)
#: events after which a new decision begins (a ping, a deadline, the board): a turn played, a
#: stage window opened or closed, a choice made; an answer in an open window tells nothing
NEW_TURN = frozenset({"played", "reshuffled", "stage_window", "stage_scored", "stage_bypassed", "round",
                      "retired", "over", "final_vp", "vp"})


@dataclass(frozen=True)
class Table:
    """What the services hold: the engine's state and the seats' names (never shown as such)."""

    state: RRState
    names: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class TableView:
    """What one seat (or a spectator: `rr.seat` None) may see, with the names, and the labels of
    what that seat may do now (empty for a spectator)."""

    rr: RRView
    names: tuple[tuple[str, str], ...]
    picks: tuple[str, ...] = ()

    @property
    def name_of(self) -> dict[str, str]:
        return dict(self.names)


def _picks(state: RRState, seat: str | None) -> tuple[str, ...]:
    """The seat's legal actions as labels, the plain plays first, then those with a choice."""
    if seat is None:
        return ()
    actions = play.legal_actions(state, seat)
    plain = [a for a in actions if not (isinstance(a, Play) and (a.store or a.shortcut or a.draw_first))]
    rest = [a for a in actions if a not in plain]
    return tuple(word_label(a) for a in plain + rest)


#: the course names a preset gives by itself (`default_stage`): a sprint plays its own course instead
DEFAULT_COURSES = ("standard", "base")


def _sprint_course(stage: str, sprint: bool) -> str:
    """The course a game named `stage` plays: a sprint (C9: 5 standard tiles, start and finish)
    played on a preset's own course (`standard`, `base`) plays the sprint course; a sprint on a
    course of another kind, named by the host, is refused (NotAllowed)."""
    if not sprint or is_sprint(stage):
        return stage
    if stage in DEFAULT_COURSES:
        return "sprint"
    raise NotAllowed(msg("roadrally.sprint_course", course=stage[:40]))


class RoadRally:
    """Road Rally USA (RULES Part C) as a `Game`."""

    id = "roadrally"
    name = "game.roadrally"
    seats = SeatRange(play.MIN_SEATS, play.MAX_SEATS)
    solo_runs = False
    result = POINTS
    state_schema = SCHEMA
    verbs = VERBS
    stages: StageLibrary = ROADRALLY_COURSES
    modules: tuple[str, ...] = MODULES
    out_reasons: tuple[str, ...] = OUT_REASONS
    texts: Path | None = Path(__file__).parent / "text"  # its own words, {en,fr,de}.json
    renderer: str | None = "bot.render.roadrally.painter"

    def rulesets(self) -> list[str]:
        """The presets, `rr-standard` first (the default: RR-EN's standard rules)."""
        return sorted(PRESETS, key=lambda n: (n != "rr-standard", n))

    def provisional(self, ruleset: str) -> bool:
        return False

    def rules(self, ruleset: str) -> list[str]:
        return rules_lines(ruleset)

    def default_stage(self, ruleset: str) -> str:
        """The base rules play the fixed base course (C2); the others the variable course (C7)."""
        return "base" if ruleset == "rr-base" else "standard"

    # -- setup and storage -----------------------------------------------------------------------

    def validate_setup(self, options: Mapping[str, Any]) -> None:
        self._preset(options)
        stage = str(options.get("stage") or "standard")
        self.stages.facts(stage)
        _sprint_course(stage, bool((options.get("modules") or {}).get("sprint")))

    @staticmethod
    def _preset(options: Mapping[str, Any]) -> str:
        name = str(options.get("ruleset") or "rr-standard")
        if name not in PRESETS:  # a name from Discord: never a path
            raise NotAllowed(msg("roadrally.unknown_preset", name=name[:40], known=", ".join(PRESETS)))
        return name

    def setup(self, seed: int, seats: Sequence[tuple[str, str]], options: Mapping[str, Any]
              ) -> tuple[Table, list[RoadEvent]]:
        """A new game: the course named by `stage` (`standard`/`sprint` laid from `seed`), the
        preset, the sprint when the stage or the `sprint` module says so (C9). `secret` (the
        rally's deal key, 64 hex digits, drawn by the service) deals every hidden card; the seed,
        which the course's name shows, draws only what is public (RULES C10.8)."""
        modules = options.get("modules") or {}
        stage = str(options.get("stage") or "standard")
        sprint = bool(modules.get("sprint")) or is_sprint(stage)
        # a sprint on a preset's own course plays the sprint course (C9); a course the host named
        # was checked by `validate_setup`, and a stored rally replays on the course it was given
        road = load_course(course_of("sprint" if sprint and stage in DEFAULT_COURSES else stage, seed))
        key = options.get("secret")
        dealt: DiceSource
        public: DiceSource | None
        if key:  # the deal from the secret key, the course and the line-up from the public seed
            dealt, public = deal_dice(str(key)), SeededDice(seed)
        else:  # a game started before deals had their own secret: everything from the seed
            dealt, public = SeededDice(seed), None
        state, events = play.new_game(road, [s for s, _ in seats], self._preset(options), seed=seed,
                                      dice=dealt, sprint=sprint, public=public)
        if key:  # published with the start: the host cannot change the deal afterwards
            events.insert(0, RoadEvent("dealt", None, (int(commitment(str(key)), 16),)))
        return Table(state, tuple((s, n) for s, n in seats)), events

    def to_json(self, table: Table) -> str:
        data = {"schema": SCHEMA, "names": [list(p) for p in table.names], "state": table.state.to_dict()}
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def from_json(self, text: str) -> Table:
        data = json.loads(text)
        check_schema(self, data.get("schema") if isinstance(data, dict) else None)
        return Table(RRState.from_dict(data["state"]), tuple((str(s), str(n)) for s, n in data["names"]))

    # -- play ------------------------------------------------------------------------------------

    def parse(self, text: str, table: Table, seat: str) -> Action:
        """What `seat` typed, read from its own view (its cards, its window)."""
        return word_parse(text, seat_view(table.state, seat))

    def encode(self, action: Action | Lifecycle) -> str:
        return codec.encode(action)

    def decode(self, text: str) -> Action | Lifecycle:
        return codec.decode(text)

    def legal_actions(self, table: Table, seat: str | None) -> list[Action]:
        if seat is None:
            return []
        return list(play.legal_actions(table.state, seat))

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

    def apply(self, table: Table, seat: str | None, action: Action) -> tuple[Table, list[RoadEvent]]:
        """Play `action` for `seat`; `seat` None is the rally: a deadline (`Timeout`), a retirement,
        or the AI's move for the one seat to act (a window has no one seat: each answers as itself)."""
        if isinstance(action, Retire):  # the rally retires the car: a host's kick is logged with the host
            seat = None                  # (a seat's own typed `retire` names only itself)
        elif seat is None and not isinstance(action, Timeout):
            acting = play.to_act(table.state)
            if len(acting) != 1:
                raise NotAllowed(msg("roadrally.not_a_player"))
            (seat,) = acting
        state, events = play.apply(table.state, seat, action)
        return Table(state, table.names), events

    def retire_action(self, seat: str) -> Action:
        return Retire(seat)

    def to_act(self, table: Table) -> frozenset[str]:
        return play.to_act(table.state)

    def timeout_action(self, table: Table, seat: str) -> Action:
        """C10.2: every seat asked gets its default (a stage card kept secret, a turn's lowest card …)."""
        return Timeout()

    def midturn(self, view: TableView) -> bool:
        """A Mechanic's reorder or an empty hand's choice is part of a turn already played."""
        return view.rr.phase in ("reshuffle", "mechanic")

    def finished(self, table: Table) -> bool:
        return table.state.phase == "over"

    def progress(self, view: TableView) -> tuple[int, ...]:
        """(round, whose turn in the order, stage asked, seat choosing): a new value, a new decision;
        an answer in an open window changes none of them."""
        rr = view.rr
        turn = rr.order.index(rr.current) if rr.current in rr.order else -1
        choosing = rr.order.index(rr.choice[0]) if rr.choice is not None and rr.choice[0] in rr.order else -1
        return (rr.round, turn, rr.window or 0, choosing, len(rr.revealed))

    def outcome(self, table: Table) -> Outcome | None:
        """Final VP, higher is better; equal VP: the car further ahead wins (C8: a rank of its own,
        never shared); retired last."""
        state = table.state
        if state.phase != "over":
            return None
        vp = play.final_vp(state)
        ahead = {state.seats[i].id: place for place, i in enumerate(state.race_order())}
        rows = [SeatResult(s.id, "retired" if s.retired else "finished", None if s.retired else vp[s.id], None,
                           (ahead.get(s.id, len(state.seats)),), "retired" if s.retired else None)
                for s in state.seats]
        return Outcome(self.result, ranked(self.result, rows, ties_broken=True))

    def standing(self, table: Table) -> Standing:
        """Finished: the outcome's ranks. Running: by the VP a seat would score now (C8), then
        the car further ahead; a retired seat out."""
        outcome = self.outcome(table)
        if outcome is not None:
            return outcome_standing(outcome)
        state = table.state
        vp = play.final_vp(state)
        ahead = {state.seats[i].id: place for place, i in enumerate(state.race_order())}
        return [(s.id, None if s.retired else (-vp[s.id], ahead.get(s.id, len(state.seats)))) for s in state.seats]

    # -- what is shown ---------------------------------------------------------------------------

    def view(self, table: Table, seat: str | None) -> TableView:
        rr = seat_view(table.state, seat)
        return TableView(rr, table.names, _picks(table.state, rr.seat))

    def prompt(self, view: TableView, events: Sequence[RoadEvent]) -> Prompt:
        """Who is asked (a window: every active seat, C10.8) and what kind of decision, in public
        words; the choice itself is made in private (`hand`)."""
        rr = view.rr
        if rr.phase == "over" or not rr.to_act:
            return Prompt((), frozenset(), (), False)
        new_turn = any(e.kind in NEW_TURN for e in events)
        return Prompt(tuple(prompt_lines(rr, view.name_of)), rr.to_act, (), new_turn, private=True)

    def hand(self, view: TableView) -> Hand:
        """The seat's own cards and what it is asked, with its picks."""
        return Hand(tuple(hand_lines(view.rr, view.name_of)), view.picks)

    def tell(self, view: TableView, events: Sequence[RoadEvent]) -> Told:
        return Told((), tuple(narrate(list(events), view.name_of, view.rr.road)))

    def seat_name(self, view: TableView, seat: str) -> str | None:
        return view.name_of.get(seat)

    def title(self, view: TableView) -> str:
        return title_of(view.rr.road.name)

    def rally_title(self, view: TableView) -> str:
        return title_of(view.rr.road.name)

    def status(self, view: TableView) -> list[str]:
        return status_lines(view.rr, view.name_of)

    def classification(self, view: TableView) -> list[str]:
        return results_lines(view.rr, view.name_of)

    def out_reason(self, code: str) -> str:
        return msg("roadrally.out_retired")

    def up_next(self, view: TableView) -> str | None:
        rr = view.rr
        if rr.current is None or rr.current not in rr.order:
            return None
        i = rr.order.index(rr.current)
        return rr.order[i + 1] if i + 1 < len(rr.order) else None

    def start_order(self, view: TableView) -> tuple[str, ...]:
        """Round 1's order: the random line-up on the start tile (OPEN-R3), not the seats' order."""
        return view.rr.order

    def narrate(self, events: Sequence[RoadEvent], view: TableView) -> list[str]:
        return narrate(list(events), view.name_of, view.rr.road)

    def tally(self, events: Sequence[RoadEvent]) -> Counters:
        """Career counters (bot.engine.core.tally): a turn is a hand of cards played, a stage one
        the seat scored (C10), `crossed` the finish line reached (C8: the classification by VP
        ranks the cars that did not too); no gears and no losses of control in this game: omitted."""
        out: Counters = {}
        for e in events:
            if e.kind == "played":
                add(out, e.seat, "turns")
                add(out, e.seat, "crossed", 0)
            elif e.kind == "stage_scored":
                add(out, e.seat, "stages")
            elif e.kind == "finished":
                add(out, e.seat, "crossed")
        return out

    # -- pictures (from the spectators' view: `me` is never read) ---------------------------------

    def board(self, view: TableView) -> dict[str, Any]:
        return board_data(view.rr, view.name_of)

    def results(self, view: TableView) -> dict[str, Any]:
        return results_data(view.rr, view.name_of)

    def picture(self, kind: str, data: Mapping[str, Any]) -> tuple[Any, ...]:
        return picture_args(kind, data)

    # -- AI and odds -----------------------------------------------------------------------------

    def choose(self, view: TableView, seat: str, risk: float | None = None) -> Action:
        """The AI's action from the seat's own view (it never sees the state)."""
        if view.rr.seat != seat or view.rr.me is None or seat not in view.rr.to_act:
            raise NotAllowed(msg("game.not_your_action"))
        return rr_ai.choose(view.rr)

    def odds(self, view: TableView, seat: str, text: str) -> list[str]:
        raise NotAllowed(msg("roadrally.no_odds"))

    def simulate(self, stages: Sequence[str], drivers: int, seed: int, assistance: Sequence[bool],
                 modules: str, ruleset: str | None = None) -> dict[str, Any]:
        """`python -m bot simulate --game roadrally --players 5 --preset rr-standard --seed 7`."""
        preset = ruleset or "rr-standard"
        sprint = "sprint" in [m.strip() for m in modules.split(",") if m.strip()]
        course = course_of(_sprint_course(stages[0], sprint), seed) if stages else None
        return simulate_game(drivers, preset, seed, sprint=sprint, course=course)

    def ghost_marks(self, view: TableView) -> None:
        """No ghosts: Road Rally has no solo runs (its rounds are table games)."""
        return None


def deal_dice(key: str) -> SecretDice:
    """The source of a game's hidden deal from its key; a malformed key is refused."""
    try:
        return SecretDice(key)
    except ValueError:
        raise NotAllowed(msg("roadrally.bad_deal_key")) from None


ROADRALLY = RoadRally()
