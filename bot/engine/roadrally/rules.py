"""Road Rally USA's rules facet (bot.engine.core.game `Rules`): setup and storage, the action codec,
legal actions and apply, who acts, the outcome and the views (RULES Part C, with the C10 / OPEN-R /
AMB-R defaults of its presets).

It is the product's first game with hidden information, so this is where the seam is tested:
- the state the services hold is a `Table` (the engine's `RRState` and the seats' names); they
  never look inside it;
- every view is built by `bot.engine.roadrally.view` (a spectator's holds counts and public cards
  only; a seat's adds its own hand, stage cards, answer and Mechanic cards) and wrapped with the
  names and, for a seat, the labels of what it may do now (`TableView.picks`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.core.dice import DiceSource, SeededDice
from bot.engine.core.errors import NotAllowed
from bot.engine.core.game import (
    POINTS,
    Outcome,
    SeatRange,
    SeatResult,
    Standing,
    check_schema,
    outcome_standing,
    ranked,
)
from bot.engine.core.log import Lifecycle
from bot.engine.core.secret_dice import SecretDice, commitment
from bot.engine.core.text import msg
from bot.engine.roadrally import codec, play
from bot.engine.roadrally.actions import Action, Play, Retire, Timeout
from bot.engine.roadrally.course import load_course
from bot.engine.roadrally.events import RoadEvent
from bot.engine.roadrally.library import ROADRALLY_COURSES, course_of, is_sprint
from bot.engine.roadrally.presets import PRESETS
from bot.engine.roadrally.state import RRState
from bot.engine.roadrally.view import RRView
from bot.engine.roadrally.view import view as seat_view
from bot.engine.roadrally.words import label as word_label

SCHEMA = 1


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


def course_played(stage: str, sprint: bool) -> str:
    """The course a game named `stage` plays: a sprint (C9: 5 standard tiles, start and finish)
    played on a preset's own course (`standard`, `base`) plays the sprint course; a sprint on a
    course of another kind, named by the host, is refused (NotAllowed)."""
    if not sprint or is_sprint(stage):
        return stage
    if stage in DEFAULT_COURSES:
        return "sprint"
    raise NotAllowed(msg("roadrally.sprint_course", course=stage[:40]))


def deal_dice(key: str) -> SecretDice:
    """The source of a game's hidden deal from its key; a malformed key is refused."""
    try:
        return SecretDice(key)
    except ValueError:
        raise NotAllowed(msg("roadrally.bad_deal_key")) from None


class RoadRallyRules:
    """Road Rally USA (RULES Part C): what the game is."""

    id = "roadrally"
    seats = SeatRange(play.MIN_SEATS, play.MAX_SEATS)
    result = POINTS
    state_schema = SCHEMA

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
        # a sprint on a preset's own course plays the sprint course (C9); a sprint on a full course
        # the host named is refused, as are an unknown course and an unknown preset
        preset = self._preset(options)
        ROADRALLY_COURSES.facts(stage)
        road = load_course(course_of(course_played(stage, sprint), seed))
        key = options.get("secret")
        dealt: DiceSource
        public: DiceSource | None
        if key:  # the deal from the secret key, the course and the line-up from the public seed
            dealt, public = deal_dice(str(key)), SeededDice(seed)
        else:  # a game started before deals had their own secret: everything from the seed
            dealt, public = SeededDice(seed), None
        state, events = play.new_game(road, [s for s, _ in seats], preset, seed=seed,
                                      dice=dealt, sprint=sprint, public=public)
        if key:  # published with the start: the host cannot change the deal afterwards
            events.insert(0, RoadEvent("dealt", None, (int(commitment(str(key)), 16),)))
        return Table(state, tuple((s, n) for s, n in seats)), events

    def to_json(self, table: Table) -> str:
        data = {"schema": SCHEMA, "names": [list(p) for p in table.names], "state": table.state.to_dict()}
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def from_json(self, text: str) -> Table:
        data = json.loads(text)
        check_schema(self.id, SCHEMA, data.get("schema") if isinstance(data, dict) else None)
        return Table(RRState.from_dict(data["state"]), tuple((str(s), str(n)) for s, n in data["names"]))

    def encode(self, action: Action | Lifecycle) -> str:
        return codec.encode(action)

    def decode(self, text: str) -> Action | Lifecycle:
        return codec.decode(text)

    def legal_actions(self, table: Table, seat: str | None) -> list[Action]:
        if seat is None:
            return []
        return list(play.legal_actions(table.state, seat))

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

    def progress(self, view: TableView) -> tuple[int, ...]:
        """(round, whose turn in the order, stage asked, seat choosing): a new value, a new decision;
        an answer in an open window changes none of them."""
        rr = view.rr
        turn = rr.order.index(rr.current) if rr.current in rr.order else -1
        choosing = rr.order.index(rr.choice[0]) if rr.choice is not None and rr.choice[0] in rr.order else -1
        return (rr.round, turn, rr.window or 0, choosing, len(rr.revealed))

    def view(self, table: Table, seat: str | None) -> TableView:
        rr = seat_view(table.state, seat)
        return TableView(rr, table.names, _picks(table.state, rr.seat))


RULES = RoadRallyRules()
