"""The `Game` seam: all that services, store, console, cogs, views, scheduler and renderer may know
of a game (DESIGN §9).

A game is a `Game`: its required `rules` and a few small facets, each typed by the game's own
State, Action, View and Event (opaque outside its package: the rest of the bot holds them only to
pass them back). `bot.games` lists the games; each assembles its facets in its `protocol.py`.

- **rules** (`Rules`, the one facet every game has): its seats and result kind; `setup` (a bad
  option is refused with a `RallyError` naming it), `to_json` / `from_json` (a versioned envelope:
  a snapshot of an unknown schema is refused with both versions, nothing changed), `encode` /
  `decode` (the canonical text of the action log, strict; it also writes and reads the rally's own
  entries, `bot.engine.core.log`), `legal_actions`, `apply(state, seat, action)` (the actor is an
  argument, so the game, not the caller, decides who may act; `seat` None is the rally itself: a
  deadline's `timeout_action`, a host's `retire_action`), `to_act`; `outcome` — scores in the
  game's `result` kind (seconds, lower is better; or victory points, higher is better), ranked by
  the game because only it knows its tie-breaks, None while it runs (`is_finished`); `standing` —
  where each seat stands at any moment (a rally abandoned while running is rated as it stood,
  `bot/services/career/rating_sources.py`): a key per seat, smaller is better, None for a seat out; once
  finished it orders the seats as `outcome` does (`outcome_standing`); `view(state, seat | None)`
  (what that seat, or a spectator, may see: hidden information never leaves the game except
  through a seat's own view), `progress` and `midturn` from a view;
- **commands** (`Commands`): `verbs`, the per-game shortcuts (`/roll 3 white` …) and the generic
  `/act`, one table that cogs, buttons and the console all read; `parse` (what a driver typed,
  tolerant), `label` / `typed` / `typed_words` (an action as typed) and `button`;
- **narrator** (`Narrator`), from a view only, as message keys (`bot.engine.core.text.Msg`), never
  sentences: `prompt`, `tell(events)`, `title`, `status`, `classification`, `seat_name`,
  `out_reason`, `up_next`, `start_order` — one way to tell each thing;
- **library** (`Library`): its name, `stages` (names, facts, digests for result cards, the week's
  official stage), `rulesets()` (the first one the default), `modules`, `provisional(ruleset)` (its
  results are labelled "provisional rules" wherever they are shown), `summary(ruleset)` (`/rules`),
  `default_stage`, its own texts;
- **coach** (`Coach`): `choose` (from the seat's own view only; risk None: the game's default) and
  `simulate` (the AI plays a whole game);

and the facets a game may not have (None then; never a stub):

- **pictures** (`Pictures`): `board(view)` / `results(view)`, a picture's data as JSON built from
  a view only (what an outbox row keeps: never the state; its texts as message-key JSON, shown in
  the reader's language when the post is delivered), and from that data once its texts are words
  what the game's painter (`bot.render.painter`, handed out by `bot.games`) draws;
- **odds** (`Odds`): the answer to its private command (`/odds`), from the asker's own view;
- **hidden** (`Hidden`): `hand(view)`, what a seat alone sees and may pick (Road Rally's cards),
  answered only to that seat;
- **career** (`Career`): `tally(events)`, the counters one action's events add per seat (turns,
  losses of control, stages, gears: the closed set of `bot.engine.core.tally`; a game without such
  a fact omits it), summed over a finished rally's log for its drivers' careers;
- **ghosts** (`Ghosts`): `ghost_marks(view)`, each seat's public place on the board and time so
  far (`GhostMark`), from a spectator view only, for games with solo runs. A board's data may then
  carry a `GHOST` entry (`{"place": <a GhostMark.place>, "label": <message JSON>}`), which the
  game's painter draws as a translucent car.

What every game answers alike is a plain function here, not a member: `is_finished`,
`stage_option`, `check_schema`, `verb_of`, `log_problem`, `ranked`, `outcome_standing`.

Pure, like every engine module: no discord, asyncio, SQL, Pillow or catalogue here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Generic, Literal, Protocol, TypeVar, runtime_checkable

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
    `private` verbs answer only the asker and change nothing (odds: `Game.odds.odds`)."""

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


def verb_of(game: Game[S, A, V, E], name: str) -> Verb:
    """The game's command called `name`; any other is refused naming the game's commands."""
    for verb in game.commands.verbs:
        if verb.name == name:
            return verb
    raise RallyError(msg("command.unknown", verb=name[:40], verbs=", ".join(f"/{v.name}" for v in game.commands.verbs)))


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
    no action, only the button that opens each seat's own `Game.hidden.hand`. When several seats are
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


#: the entry of a board's data (`Game.pictures.board`) that a ghost car is drawn from: `{"place": ..., "label": ...}`
GHOST = "ghost"


@dataclass(frozen=True)
class GhostMark:
    """Where a seat stands, as a ghost car would be drawn from it: `place` is what
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
V = TypeVar("V")
E = TypeVar("E")
A_co = TypeVar("A_co", covariant=True)
V_contra = TypeVar("V_contra", contravariant=True)
S_contra = TypeVar("S_contra", contravariant=True)
E_contra = TypeVar("E_contra", contravariant=True)


@runtime_checkable
class Rules(Protocol[S, A, V, E]):
    """What a game is, the one facet every game has: its seats and result kind, its state's setup
    and storage, its actions (codec, legal ones, apply), who acts, the outcome and each seat's view.
    Everything else is told, drawn or chosen from a view (`V`), never from the state (`S`)."""

    id: str
    seats: SeatRange
    result: ResultKind
    state_schema: int    # the JSON shape of `to_json`; `from_json` refuses any other

    def setup(self, seed: int, seats: Sequence[tuple[SeatId, str]], options: Mapping[str, object]
              ) -> tuple[S, list[E]]: ...  # a bad option is refused with a RallyError naming it

    def to_json(self, state: S) -> str: ...

    def from_json(self, text: str) -> S: ...

    def encode(self, action: A | Lifecycle) -> str: ...

    def decode(self, text: str) -> A | Lifecycle: ...

    def legal_actions(self, state: S, seat: SeatId | None) -> Sequence[A]: ...

    def apply(self, state: S, seat: SeatId | None, action: A) -> tuple[S, list[E]]: ...

    def to_act(self, state: S) -> frozenset[SeatId]: ...

    def timeout_action(self, state: S, seat: SeatId) -> A: ...

    def retire_action(self, seat: SeatId) -> A: ...

    def outcome(self, state: S) -> Outcome | None: ...  # None while the game runs

    def standing(self, state: S) -> Standing: ...  # where each seat stands now (see the module docstring)

    def view(self, state: S, seat: SeatId | None) -> V: ...

    def progress(self, view: V) -> tuple[int, ...]: ...  # where play stands; a new value: a new turn

    def midturn(self, view: V) -> bool: ...  # the seat to act has begun its turn (a timeout ends it as it stands)


@runtime_checkable
class Commands(Protocol[S_contra, A]):
    """What drivers type: the game's commands, the tolerant reading of a text, and an action as a
    label, a whole command and a button."""

    verbs: tuple[Verb, ...]

    def parse(self, text: str, state: S_contra, seat: SeatId) -> A: ...

    def label(self, action: A) -> str: ...  # an action as typed after its verb (buttons, autocomplete)

    def typed(self, action: A) -> str: ...  # an action as a whole command of the game's verbs, no slash

    def button(self, label: str) -> Button | None: ...  # None: the label is not offered as a button

    def typed_words(self, label: str) -> str: ...  # a label as the reader types it (their words, which `parse` reads)


@runtime_checkable
class Narrator(Protocol[V_contra, E_contra]):
    """What is said, from a view only, as message keys: one way to tell each thing."""

    def prompt(self, view: V_contra, events: Sequence[E_contra]) -> Prompt: ...

    def tell(self, view: V_contra, events: Sequence[E_contra]) -> Told: ...  # the story of an action

    def title(self, view: V_contra) -> str: ...  # the rally's title (classic: its specials' stages)

    def status(self, view: V_contra) -> list[str]: ...  # `/rally status`: where everyone stands

    def classification(self, view: V_contra) -> list[str]: ...  # the results as lines, once finished

    def seat_name(self, view: V_contra, seat: SeatId) -> str | None: ...  # None: not a seat of this game

    def out_reason(self, code: str) -> str: ...  # why a seat is out (SeatResult.reason), in words

    def up_next(self, view: V_contra) -> SeatId | None: ...  # who plays after the seat to act, when known

    def start_order(self, view: V_contra) -> Sequence[SeatId]: ...  # who plays first, in order


@runtime_checkable
class Library(Protocol):
    """What a game offers before a rally: its name, stages, rulesets and modules, its texts."""

    name: str            # message key of the game's name
    solo_runs: bool      # league rounds and the world scratch: every driver drives alone
    stages: StageLibrary
    modules: tuple[str, ...]  # optional rule modules a lobby may turn on (classic: Rules+ A18–A21)
    out_reasons: tuple[str, ...]  # the codes of SeatResult.reason this game writes
    texts: Path | None  # a folder of `<lang>.json` with the game's own message keys (None: data/i18n)

    def rulesets(self) -> Sequence[str]: ...  # the first is the game's default (its world scratch week's)

    def provisional(self, ruleset: str) -> bool: ...  # results under it are shown as "provisional rules"

    def summary(self, ruleset: str) -> list[str]: ...  # `/rules`: a summary of the game's rules, as message keys

    def default_stage(self, ruleset: str) -> str | None: ...  # a rally without a stage plays it (None: name one)


@runtime_checkable
class Pictures(Protocol[V_contra]):
    """A picture's data as JSON, from a view only (what an outbox row keeps: never the state; its
    texts as message-key JSON, shown in the reader's language when the post is delivered). The
    game's painter (bot.render.painter, handed out by bot.games) draws it."""

    def board(self, view: V_contra) -> dict[str, object]: ...

    def results(self, view: V_contra) -> dict[str, object]: ...

    # what its painter draws from a picture's data once its texts are in the reader's words: a board
    # (the painter's arguments: classic's stage and board view …), a results card, a stage's preview
    def board_picture(self, data: Mapping[str, object]) -> tuple[object, ...]: ...

    def results_picture(self, data: Mapping[str, object]) -> object: ...

    def preview_picture(self, stage: str) -> object: ...


@runtime_checkable
class Coach(Protocol[A_co, V_contra]):
    """The AI, from the seat's own view only, and a whole game played by it."""

    def choose(self, view: V_contra, seat: SeatId, risk: float | None = None) -> A_co: ...  # risk None: the default

    def simulate(self, stages: Sequence[str], drivers: int, seed: int, assistance: Sequence[bool],
                 modules: str, ruleset: str | None = None) -> Mapping[str, object]: ...  # the AI plays a game


@runtime_checkable
class Odds(Protocol[V_contra]):
    """A game with chances to work out: the answer to its private command (`Verb.private`, `/odds`),
    from the asker's own view only."""

    def odds(self, view: V_contra, seat: SeatId, text: str) -> list[str]: ...


@runtime_checkable
class Hidden(Protocol[V_contra]):
    """A game with hidden hands: what the view's seat alone sees and may pick (`/hand`)."""

    def hand(self, view: V_contra) -> Hand: ...


@runtime_checkable
class Career(Protocol[E_contra]):
    """Career counters: what one action's events add per seat (the closed set of `core.tally`)."""

    def tally(self, events: Sequence[E_contra]) -> Mapping[SeatId, Mapping[str, int]]: ...


@runtime_checkable
class Ghosts(Protocol[V_contra]):
    """Solo runs' ghosts: each seat's public place on the board and its time so far, from a
    spectator view only (a board's data may then carry a `GHOST` entry)."""

    def ghost_marks(self, view: V_contra) -> Mapping[SeatId, GhostMark]: ...


@dataclass(frozen=True)
class Game(Generic[S, A, V, E]):
    """A game behind the bot: its required rules and its facets; an optional facet is None when the
    game has none (no pictures, no odds, no hidden hands, no careers, no ghosts)."""

    rules: Rules[S, A, V, E]
    commands: Commands[S, A]
    narrator: Narrator[V, E]
    library: Library
    coach: Coach[A, V]
    pictures: Pictures[V] | None = None
    odds: Odds[V] | None = None
    hidden: Hidden[V] | None = None
    career: Career[E] | None = None
    ghosts: Ghosts[V] | None = None

    @property
    def id(self) -> str:
        """The game's id (its rules'): the registry's key, stored with every rally."""
        return self.rules.id


def is_finished(rules: Rules[S, A, V, E], state: S) -> bool:
    """The game is over: it has an outcome."""
    return rules.outcome(state) is not None


def check_schema(game_id: str, schema: int, found: object) -> None:
    """Refuse a snapshot whose schema the game does not read, naming both versions."""
    if found != schema:
        raise StateVersionError(msg("game.state_version", game=game_id, found=str(found), expected=str(schema)))


def stage_option(game_id: str, options: Mapping[str, object]) -> str:
    """The `stage` option of a setup; a setup without one is refused, naming the option."""
    stage = options.get("stage")
    if not stage:
        raise RallyError(msg("rally.need_stage", game=game_id))
    return str(stage)


def log_problem(game: Game[S, A, V, E], text: str) -> str | None:
    """Why `text` is not a canonical log entry of `game`, or None when it is (`db check`): it must
    decode, and encode back to the very same text."""
    try:
        canonical = game.rules.encode(game.rules.decode(text))
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
