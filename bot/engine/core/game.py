"""The `Game` protocol: all that services, store, console, cogs, views, scheduler and renderer may
know of a game (DESIGN §9, issue 23).

One object per game (`bot.games` lists them). A game owns its state, actions and events; the rest
of the bot holds them as opaque values and asks the game for everything else:

- **setup and storage**: `validate_setup`, `setup`, `to_json` / `from_json` (a versioned envelope:
  a snapshot of an unknown schema is refused with both versions, nothing changed);
- **play**: `parse` (what a driver typed, tolerant), `encode` / `decode` (the canonical text of the
  action log, strict; it also writes and reads the rally's own entries, `bot.engine.core.log`),
  `legal_actions`, `apply(state, seat, action)` (the actor is an argument, so the game, not the
  caller, decides who may act; `seat` None is the rally itself: a deadline's `timeout_action`, a
  host's `retire_action`), `to_act`; `label` (an action as a driver types it) and `button` (how
  a label is offered as a button, or not at all);
- **results**: `outcome` — scores in the game's `result` kind (seconds, lower is better; or
  victory points, higher is better), ranked by the game because only it knows its tie-breaks;
  `standing` — where each seat stands at any moment (a rally abandoned while running is rated as
  it stood, `bot/services/rating_sources.py`): a key per seat, smaller is better, None for a seat
  out; once finished it orders the seats as `outcome` does (`outcome_standing`);
- **what is shown**: `view(state, seat | None)` (what that seat, or a spectator, may see: hidden
  information never leaves the game except through a seat's own view), and from a view only:
  `prompt`, `tell(events)` and `narrate(events)`, `title`, `status`, `classification`,
  `seat_name`, all as message keys (`bot.engine.core.text.Msg`), never sentences; `hand(view)`,
  what a seat alone sees and may pick (Road Rally's cards), answered only to that seat;
- **its library**: `stages` (names, facts, digests for result cards, the week's official stage),
  `rulesets()` (the first one the default), `modules`; `provisional(ruleset)` (its results are
  labelled "provisional rules" wherever they are shown) and `rules(ruleset)` (`/rules`' summary);
- **pictures**: `board(view)` / `results(view)`, a picture's data as JSON built from a view only
  (what an outbox row keeps: never the state; its texts as message-key JSON, shown in the reader's
  language when the post is delivered), and `picture(kind, data)`, the renderer's arguments from
  that data once its texts are in the reader's words;
- **commands**: `verbs`, the per-game shortcuts (`/roll 3 white` …) and the generic `/act`, one
  table that cogs, buttons and the console all read;
- **careers**: `tally(events)`, the counters one action's events add per seat (turns, losses of
  control, stages, gears: the closed set of `bot.engine.core.tally`; a game without such a fact
  omits it), summed over a finished rally's log for its drivers' careers;
- **AI and odds**: `choose` (from the seat's own view only; risk None: the game's default) and `odds`;
- **ghosts** (issue 27 §5): `ghost_marks(view)`, each seat's public place on the board and time so
  far (`GhostMark`), from a spectator view only; None for a game without solo runs. A board's data
  may then carry a `GHOST` entry (`{"place": <a GhostMark.place>, "label": <message JSON>}`), which
  the game's `picture` hands to its renderer to draw a translucent car there.

Pure, like every engine module: no discord, asyncio, SQL, Pillow or catalogue here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

from bot.engine.core.difficulty import LengthClass, stars
from bot.engine.core.errors import RallyError
from bot.engine.core.log import CodecError, Lifecycle
from bot.engine.core.text import msg

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
    """One seat's result; `rank` 1 is best and ties share a rank (unless the game breaks them: `ranked`)."""

    seat: SeatId
    status: SeatStatus
    score: int | None
    rank: int | None
    tiebreak: tuple[int, ...] = ()
    reason: str | None = None  # why not finished: a reason code of the game's (knocked_out, retired …)


@dataclass(frozen=True)
class Outcome:
    """A finished game's results in its result kind, best first."""

    kind: ResultKind
    seats: tuple[SeatResult, ...]


#: each seat with where it stands: a key, smaller is better, equal keys tied; None: out of the game
Standing = list[tuple[SeatId, tuple[int, ...] | None]]


def outcome_standing(outcome: Outcome) -> Standing:
    """A finished game's standing: its ranked seats by rank, every seat not finished out."""
    return [(s.seat, (s.rank,) if s.status == "finished" and s.rank is not None else None) for s in outcome.seats]


OptionKind = Literal["text", "bool"]


@dataclass(frozen=True)
class VerbOption:
    """One option of a command: its name, its help key (`discord.opt.*`), its kind (free text, or
    a yes/no), whether it must be given, a fixed list of values (`choices`: value → the key of the
    name a reader sees) or values suggested from the seat's legal actions (`autocomplete`). A
    yes/no option adds its `word` to the command's text when it is yes (`/roll … end:yes` is
    `… stop`)."""

    name: str
    help: str
    required: bool = True
    choices: tuple[tuple[str, str], ...] = ()
    autocomplete: bool = False
    kind: OptionKind = "text"
    word: str = ""


@dataclass(frozen=True)
class Verb:
    """A game command (`/roll`, `/stop` …): how its options become the text `parse` reads.

    `template` is a `str.format` pattern over the text options (`"{dice}"`, `"attack {dice}"`); an
    option left empty is dropped with its surrounding spaces, a yes/no option adds its word.
    `private` verbs answer only the asker and change nothing (odds: `Game.odds`)."""

    name: str
    help: str
    template: str
    options: tuple[VerbOption, ...] = ()
    private: bool = False

    def option(self, name: str) -> VerbOption:
        """The option called `name`; any other is refused, naming the command."""
        for option in self.options:
            if option.name == name:
                return option
        raise RallyError(msg("command.unknown_option", option=name[:40], verb=self.name))

    def text(self, values: Mapping[str, object]) -> str:
        """The command text for `parse`, from the options given (unknown options refused)."""
        for name in sorted(values):
            self.option(name)
        words = {o.name: str(values.get(o.name) or "").strip() for o in self.options if o.kind == "text"}
        text = " ".join(self.template.format(**words).split())
        for option in self.options:
            if option.kind == "bool" and values.get(option.name) is True and not text.lower().endswith(option.word):
                text = f"{text} {option.word}".strip()
        return text


#: The generic command of every game: any move as the driver would type it, the autocomplete offering
#: the seat's legal actions (`legal_actions`, by `label`); the game's `parse` reads it.
ACT = Verb("act", "discord.cmd.act", "{action}", (VerbOption("action", "discord.opt.action", autocomplete=True),))


def verb_of(game: Game[Any, Any], name: str) -> Verb:
    """The game's command called `name`; any other is refused naming the game's commands."""
    for verb in game.verbs:
        if verb.name == name:
            return verb
    raise RallyError(msg("command.unknown", verb=name[:40], verbs=", ".join(f"/{v.name}" for v in game.verbs)))


ButtonStyle = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True)
class Button:
    """How one legal action is offered as a button: its text as message keys (a `Msg`, or a
    `Listed` of words and keys, shown in the reader's language) and its colour."""

    text: object
    style: ButtonStyle


@dataclass(frozen=True)
class Prompt:
    """What the seats to act are asked after an action, from the spectators' view only: lines as
    message keys, who is asked, the buttons (action labels) they may press, and whether their turn
    is a new one (then they are pinged, a new deadline starts and the board is posted: not after
    every die).

    `private`: the seats decide from what only they see (a hand of cards): the channel post offers
    no action, only the button that opens each seat's own `Game.hand`. When several seats are
    asked at once (`to_act` of more than one: a window every seat answers, RULES C10.8), they are
    asked the same words and waited for together, so nobody learns from the channel who holds
    what: the services ping them all, run out their clock together with one `timeout_action`, name
    none of them, and count no missed turn (keeping silent is an answer).

    `certain_loss`: the buttons whose move loses control whatever the dice show (worked out by
    the rules code that plays it); their buttons say so (the lines name them too)."""

    lines: tuple[str, ...]
    to_act: frozenset[SeatId] = frozenset()
    buttons: tuple[str, ...] = ()
    new_turn: bool = True
    private: bool = False
    certain_loss: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Hand:
    """What one seat alone is shown and may pick now (`/hand`, the button of a private prompt),
    from its own view: lines as message keys (its cards, what it is asked), and the labels of the
    actions it may take (offered as a select menu; none when it has nothing to decide)."""

    lines: tuple[str, ...]
    picks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Told:
    """The story of an action for the channel, from the spectators' view: `chapters` posted on their
    own before it (each closes a part of the game, with its results card: a special of a longer
    rally), then `lines`."""

    chapters: tuple[tuple[str, ...], ...]
    lines: tuple[str, ...]


@dataclass(frozen=True)
class StageFacts:
    """What a lobby post, a round's announcement, a card or `/stage list` says of a stage before it
    is driven. `length` counts `unit`s (classic: spaces by the shortest line; DIRT: hex tiles);
    `zones` are the zone boards it drives over (none for a game without zones); `tight` and
    `hazards` feed `difficulty`, the one formula of `bot.engine.core.difficulty`."""

    name: str
    title: str
    length: int
    corners: int
    length_class: LengthClass = "short"
    unit: Literal["spaces", "tiles"] = "spaces"
    zones: tuple[str, ...] = ()
    tight: int = 0     # corners whose slowest line allows gear 2 or less
    hazards: int = 0   # jumps (classic: bumps) and shortcuts

    @property
    def difficulty(self) -> int:
        """1 to 5 stars, the same formula for every game (bot/engine/core/difficulty.py)."""
        return stars(self.corners, self.tight, self.hazards, self.length_class)


@runtime_checkable
class StageLibrary(Protocol):
    """A game's stages: the shipped ones by name, and generated ones named by their seed."""

    def names(self) -> Sequence[str]: ...          # the shipped stages (autocomplete, listings)

    def exists(self, name: str) -> bool: ...       # a shipped or generated name

    def facts(self, name: str) -> StageFacts: ...  # raises a RallyError for an unknown name (shipped or generated)

    def digest(self, name: str) -> str: ...        # SHA-256 of the stage's text (result cards)

    def official(self, week: str) -> str: ...      # the ISO week's official stage (world scratch), from the week alone


#: the entry of a board's data (`Game.board`) that a ghost car is drawn from: `{"place": ..., "label": ...}`
GHOST = "ghost"


@dataclass(frozen=True)
class GhostMark:
    """Where a seat stands, as a ghost car would be drawn from it (issue 27 §5): `place` is what
    the game's board draws a car at (JSON: classic's space id on its stage, DIRT's hex space; a
    finished car's place is the game's finish mark), `time` the seat's time so far in seconds as
    the board shows it (over the whole rally: the finished specials' times plus the current
    one's). `distance` is how far along the rally the car is: the specials done, plus the share
    of the current one driven (its start line 0, its finish line 1), so that two runs are compared
    at the same place on the road (None: the car is out, or the game does not say). Only what a
    spectator sees: never a die, a hand or a seed."""

    place: int | None
    time: int
    distance: float | None = None


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
    stages: StageLibrary
    modules: tuple[str, ...]  # optional rule modules a lobby may turn on (classic: Rules+ A18–A21)
    out_reasons: tuple[str, ...]  # the codes of SeatResult.reason this game writes
    texts: Path | None  # a folder of `<lang>.json` with the game's own message keys (None: data/i18n)
    renderer: str | None  # its painter's module (bot/render/<game>/painter.py, bot.games `painter`); None: none

    def rulesets(self) -> Sequence[str]: ...  # the first is the game's default (its world scratch week's)

    def provisional(self, ruleset: str) -> bool: ...  # results under it are shown as "provisional rules"

    def rules(self, ruleset: str) -> list[str]: ...   # `/rules`: a summary of the game's rules, as message keys

    def default_stage(self, ruleset: str) -> str | None: ...  # a rally without a stage plays it (None: name one)

    def validate_setup(self, options: Mapping[str, Any]) -> None: ...

    def setup(self, seed: int, seats: Sequence[tuple[SeatId, str]], options: Mapping[str, Any]
              ) -> tuple[S, list[Any]]: ...

    def to_json(self, state: S) -> str: ...

    def from_json(self, text: str) -> S: ...

    def parse(self, text: str, state: S, seat: SeatId) -> A: ...

    def encode(self, action: A | Lifecycle) -> str: ...

    def decode(self, text: str) -> A | Lifecycle: ...

    def legal_actions(self, state: S, seat: SeatId | None) -> Sequence[A]: ...

    def label(self, action: A) -> str: ...  # an action as typed after its verb (buttons, autocomplete)

    def typed(self, action: A) -> str: ...  # an action as a whole command of the game's verbs, no slash

    def apply(self, state: S, seat: SeatId | None, action: A) -> tuple[S, list[Any]]: ...

    def retire_action(self, seat: SeatId) -> A: ...

    def button(self, label: str) -> Button | None: ...

    def typed_words(self, label: str) -> str: ...  # a label as the reader types it (their words, which `parse` reads)

    def to_act(self, state: S) -> frozenset[SeatId]: ...

    def timeout_action(self, state: S, seat: SeatId) -> A: ...

    def midturn(self, view: Any) -> bool: ...  # the seat to act has begun its turn (a timeout ends it as it stands)

    def finished(self, state: S) -> bool: ...

    def progress(self, view: Any) -> tuple[int, ...]: ...  # where play stands; a new value: a new turn

    def outcome(self, state: S) -> Outcome | None: ...

    def standing(self, state: S) -> Standing: ...  # where each seat stands now (see the module docstring)

    def view(self, state: S, seat: SeatId | None) -> Any: ...

    def prompt(self, view: Any, events: Sequence[Any]) -> Prompt: ...

    def hand(self, view: Any) -> Hand | None: ...  # what the view's seat alone sees (None: the game hides nothing)

    def tell(self, view: Any, events: Sequence[Any]) -> Told: ...  # the story of an action

    def seat_name(self, view: Any, seat: SeatId) -> str | None: ...  # None: not a seat of this game

    def title(self, view: Any) -> str: ...                 # what is being played now (classic: the special)

    def rally_title(self, view: Any) -> str: ...           # the whole rally's (classic: its specials)

    def status(self, view: Any) -> list[str]: ...          # `/rally status`: where everyone stands

    def classification(self, view: Any) -> list[str]: ...  # the results as lines, once finished

    def out_reason(self, code: str) -> str: ...            # why a seat is out (SeatResult.reason), in words

    def up_next(self, view: Any) -> SeatId | None: ...     # who plays after the seat to act, when known

    def start_order(self, view: Any) -> Sequence[SeatId] | None: ...  # who plays first (None: as seated)

    def narrate(self, events: Sequence[Any], view: Any) -> list[str]: ...

    def tally(self, events: Sequence[Any]) -> Mapping[SeatId, Mapping[str, int]]: ...  # career counters (core/tally.py)

    def board(self, view: Any) -> dict[str, Any] | None: ...    # None: the game draws no board

    def results(self, view: Any) -> dict[str, Any] | None: ...  # None: no results card

    def picture(self, kind: str, data: Mapping[str, Any]) -> tuple[Any, ...]: ...

    def choose(self, view: Any, seat: SeatId, risk: float | None = None) -> A: ...

    def odds(self, view: Any, seat: SeatId, text: str) -> list[str]: ...  # from the asker's own view

    def simulate(self, stages: Sequence[str], drivers: int, seed: int, assistance: Sequence[bool],
                 modules: str, ruleset: str | None = None) -> dict[str, Any]: ...  # the AI plays a game: its report

    def ghost_marks(self, view: Any) -> Mapping[SeatId, GhostMark] | None: ...  # None: no ghosts (no solo runs)


def check_schema(game: Game[Any, Any], found: object) -> None:
    """Refuse a snapshot whose schema the game does not read, naming both versions."""
    if found != game.state_schema:
        raise StateVersionError(msg("game.state_version", game=game.id, found=str(found),
                                    expected=str(game.state_schema)))


def log_problem(game: Game[Any, Any], text: str) -> str | None:
    """Why `text` is not a canonical log entry of `game`, or None when it is (`db check`): it must
    decode, and encode back to the very same text."""
    try:
        canonical = game.encode(game.decode(text))
    except (CodecError, ValueError) as exc:
        return str(exc)
    if canonical != text:
        return f"not in canonical form (canonical: {canonical})"
    return None


def ranked(kind: ResultKind, rows: Sequence[SeatResult], *, ties_broken: bool = False) -> tuple[SeatResult, ...]:
    """Seat results (their `rank` ignored) ranked by one sort key for every table: finished before
    DNF before retired, then the score the better way, then the tie-break; rows with the same
    status and score share a rank (1, 1, 3) and the tie-break orders them (RULES A17 OPEN-5).
    `ties_broken`: the game's rules break a tie by the tie-break (Road Rally USA's car further
    ahead, C8), so every finished row has a rank of its own (1, 2, 3)."""
    order = {"finished": 0, "dnf": 1, "retired": 2}

    def key(row: SeatResult) -> tuple:
        return (order[row.status], kind.key(row.score if row.status == "finished" else None), row.tiebreak)

    out: list[SeatResult] = []
    previous: int | None = None
    rank = 0
    for i, row in enumerate(sorted(rows, key=key)):
        if row.status != "finished":
            out.append(replace(row, rank=None))
            continue
        if row.score != previous or ties_broken:
            rank = i + 1
            previous = row.score
        out.append(replace(row, rank=rank))
    return tuple(out)
