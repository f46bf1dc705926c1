"""The `Game` protocol: all that services, store, console, cogs, views, scheduler and renderer may
know of a game (DESIGN §9, issue 23).

One object per game (`bot.games` lists them). A game owns its state, actions and events; the rest
of the bot holds them as opaque values and asks the game for everything else:

- **setup and storage**: `validate_setup`, `setup`, `to_json` / `from_json` (a versioned envelope:
  a snapshot of an unknown schema is refused with both versions, nothing changed);
- **play**: `parse` (what a driver typed, tolerant), `encode` / `decode` (the canonical text of the
  action log, strict), `legal_actions`, `apply(state, seat, action)` (the actor is an argument, so
  the game, not the caller, decides who may act), `to_act`, `timeout_action`;
- **results**: `outcome` — scores in the game's `result` kind (seconds, lower is better; or
  victory points, higher is better), ranked by the game because only it knows its tie-breaks;
- **what is shown**: `view(state, seat | None)` (what that seat, or a spectator, may see: hidden
  information never leaves the game except through a seat's own view), `prompt(view)`,
  `narrate(events)`, all as message keys (`bot.engine.core.text.Msg`), never sentences;
- **pictures**: `board(view)` / `results(view)`, a picture's data as JSON built from a view only
  (what an outbox row keeps: never the state; its texts as message-key JSON, shown in the reader's
  language when the post is delivered), and `picture(kind, data)`, the renderer's arguments from
  that data once its texts are in the reader's words;
- **commands**: `verbs`, the per-game shortcuts (`/roll 3 white` …) and the generic `/act`, one
  table that cogs, buttons and the console all read;
- **AI and odds**: `choose` (from the seat's own view only; risk None: the game's default) and `odds`.

Pure, like every engine module: no discord, asyncio, SQL, Pillow or catalogue here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

from bot.engine.core.errors import RallyError
from bot.engine.core.text import Msg, msg

Unit = Literal["s", "vp"]
Better = Literal["lower", "higher"]
SeatStatus = Literal["finished", "dnf", "retired"]
#: a seat: the driver's id as the game's state knows it (a Discord user id as text; AI seats negative)
SeatId = str


@dataclass(frozen=True)
class ResultKind:
    """What a result is: a score in a unit, and which way is better (DESIGN §9)."""

    unit: Unit
    better: Better

    def key(self, score: int | None) -> tuple[int, int]:
        """Sort key of a score: better first, no score (DNF) last."""
        if score is None:
            return (1, 0)
        return (0, score if self.better == "lower" else -score)


SECONDS = ResultKind("s", "lower")
POINTS = ResultKind("vp", "higher")


@dataclass(frozen=True)
class SeatRange:
    """How many seats a game takes (inclusive bounds)."""

    min: int
    max: int

    def __post_init__(self) -> None:
        if not 1 <= self.min <= self.max:
            raise ValueError(f"seats {self.min}..{self.max}: need 1 <= min <= max")


@dataclass(frozen=True)
class SeatResult:
    """One seat's result; `rank` 1 is best and ties share a rank."""

    seat: SeatId
    status: SeatStatus
    score: int | None
    rank: int | None
    tiebreak: tuple[int, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """A finished game's results in its result kind, best first."""

    kind: ResultKind
    seats: tuple[SeatResult, ...]


@dataclass(frozen=True)
class VerbOption:
    """One option of a command: its name, its help key, and whether its values come from the
    game's legal actions (autocomplete) or from a fixed list (`choices`)."""

    name: str
    help: str
    required: bool = True
    choices: tuple[str, ...] = ()
    autocomplete: bool = False


@dataclass(frozen=True)
class Verb:
    """A game command (`/roll`, `/stop` …): how its options become the text `parse` reads.

    `template` is a `str.format` pattern over the option names (`"{dice}"`, `"attack {dice}"`); an
    option left empty is dropped with its surrounding spaces. `private` answers only the asker
    (odds); `needs_turn` verbs are refused to seats not in `to_act`."""

    name: str
    help: str
    template: str
    options: tuple[VerbOption, ...] = ()
    private: bool = False
    flags: tuple[tuple[str, str], ...] = field(default=())  # (boolean option, word appended when true)

    def text(self, values: Mapping[str, object]) -> str:
        """The command text for `parse`, from the options given (unknown options refused)."""
        known = {o.name for o in self.options} | {f for f, _ in self.flags}
        extra = sorted(set(values) - known)
        if extra:
            raise RallyError(msg("command.unknown_option", option=extra[0], verb=self.name))
        words: dict[str, str] = {}
        for option in self.options:
            value = values.get(option.name)
            words[option.name] = "" if value is None else str(value).strip()
        text = " ".join(self.template.format(**words).split())
        for flag, word in self.flags:
            if values.get(flag) and not text.lower().endswith(word):
                text = f"{text} {word}".strip()
        return text


@dataclass(frozen=True)
class Prompt:
    """What the channel is told after an action: lines as message keys, whose turn it is, and the
    buttons (action labels) the seat to act may press. Built from a view only."""

    lines: tuple[Msg, ...]
    to_act: frozenset[SeatId] = frozenset()
    buttons: tuple[str, ...] = ()
    ping: tuple[SeatId, ...] = ()


class StateVersionError(RallyError):
    """A snapshot of a schema this game does not read."""


class UnknownGame(RallyError):
    """A game id that no game answers to."""


S = TypeVar("S")
A = TypeVar("A")


@runtime_checkable
class Game(Protocol[S, A]):
    """A game behind the bot (see the module docstring for the why of each member)."""

    id: str
    name: str            # message key of the game's name
    seats: SeatRange
    solo_runs: bool      # league rounds and the world scratch: every driver drives alone
    result: ResultKind
    state_schema: int    # the JSON shape of `to_json`; `from_json` refuses any other
    verbs: tuple[Verb, ...]

    def validate_setup(self, options: Mapping[str, Any]) -> None: ...

    def setup(self, seed: int, seats: Sequence[tuple[SeatId, str]], options: Mapping[str, Any]
              ) -> tuple[S, list[Any]]: ...

    def to_json(self, state: S) -> str: ...

    def from_json(self, text: str) -> S: ...

    def parse(self, text: str, state: S, seat: SeatId) -> A: ...

    def encode(self, action: A) -> str: ...

    def decode(self, text: str) -> A: ...

    def legal_actions(self, state: S, seat: SeatId | None) -> Sequence[A]: ...

    def label(self, action: A) -> str: ...

    def apply(self, state: S, seat: SeatId, action: A) -> tuple[S, list[Any]]: ...

    def to_act(self, state: S) -> frozenset[SeatId]: ...

    def timeout_action(self, state: S, seat: SeatId) -> A: ...

    def finished(self, state: S) -> bool: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def view(self, state: S, seat: SeatId | None) -> Any: ...

    def prompt(self, view: Any, events: Sequence[Any]) -> Prompt: ...

    def narrate(self, events: Sequence[Any], view: Any) -> list[str]: ...

    def board(self, view: Any) -> dict[str, Any]: ...

    def results(self, view: Any) -> dict[str, Any]: ...

    def picture(self, kind: str, data: Mapping[str, Any]) -> tuple[Any, ...]: ...

    def choose(self, view: Any, seat: SeatId, risk: float | None = None) -> A: ...

    def odds(self, state: S, seat: SeatId, text: str) -> list[str]: ...


def envelope(game: str, schema: int, state: Mapping[str, Any]) -> dict[str, Any]:
    """The stored form of a snapshot: which game, which JSON shape, and the state."""
    return {"game": game, "schema": schema, "state": dict(state)}


def check_schema(game: Game[Any, Any], found: object) -> None:
    """Refuse a snapshot whose schema the game does not read, naming both versions."""
    if found != game.state_schema:
        raise StateVersionError(msg("game.state_version", game=game.id, found=str(found),
                                    expected=str(game.state_schema)))


def ranked(kind: ResultKind, rows: Sequence[tuple[SeatId, SeatStatus, int | None, tuple[int, ...]]]
           ) -> tuple[SeatResult, ...]:
    """Seat results ranked by one sort key for every table: finished before DNF before retired,
    then the score the better way, then the tie-break; equal keys share a rank (1, 1, 3)."""
    order = {"finished": 0, "dnf": 1, "retired": 2}

    def key(row: tuple[SeatId, SeatStatus, int | None, tuple[int, ...]]) -> tuple:
        _, status, score, tiebreak = row
        return (order[status], kind.key(score if status == "finished" else None), tiebreak)

    out: list[SeatResult] = []
    previous: tuple | None = None
    rank = 0
    for i, row in enumerate(sorted(rows, key=key)):
        k = key(row)
        if row[1] != "finished":
            out.append(SeatResult(row[0], row[1], row[2], None, row[3]))
            continue
        if k != previous:
            rank = i + 1
            previous = k
        out.append(SeatResult(row[0], row[1], row[2], rank, row[3]))
    return tuple(out)
