"""A conformance kit for every game behind the `Game` protocol (bot.engine.core.game), in the spirit
of OpenSpiel's `api_test` (/work/shared/GAME-API-NOTES.md §2, §3.6): random playthroughs over a
game's presets and modules, and after every action a set of properties that any game must keep.

What is checked (the names are the figures' keys):

- `round_trip`: `from_json(to_json(s))` re-serialises byte-identically, and the state read back
  behaves as the one kept: the next action applied to both gives the same state and events;
- `legal_apply`: a sample of the seat's legal actions each applies without error on the state,
  which stays as it was (`apply` never changes its input); each one's log entry decodes and
  encodes back to the very same text (`log_problem`; the actor is the log's column, not the text);
- `illegal_refused`: a legal action played by a seat that is not to act, or by anyone once the
  game is over, and a text no game reads, are refused with a `RallyError` and change nothing;
- `outcome`: finished ⇔ an outcome; finished ⇔ nobody to act; the outcome ranks every seat of the
  game once, in the game's result kind, ranks consistent with statuses and scores;
- `reload`: a twin played alongside, stopped and read back from its snapshot after every action,
  is byte-identical to the state played straight through (a restart, a new console, a cache drop);
- `log_replay` (once per playthrough, at its end): the log as the bot stores it (the start entry,
  then each action's canonical text and actor), replayed by the bot's own replay
  (`bot.services.play.replay.iter_steps`, what `db check`, careers and the web pages read), gives the
  stored snapshot after every action.

**Adding a property** (the extension point): write a function of one `Step` (the state before and
after an action, the action, its seat, the game, the playthrough's random source) that raises
`AssertionError` when the property fails, and either append it to `STEP_PROPERTIES` (every game) or
pass it to `play(..., extra=(my_property,))` for one game's test (a game's secrecy, for instance:
`Step.before` and `Step.config` are there to deal another hidden hand and compare public outputs).
Its name counts its checks in the figures. A property of a whole playthrough is a function of a
`Playthrough` (the configuration, the log and the snapshot after each action) in
`PLAYTHROUGH_PROPERTIES`.

Actions are picked at random among the legal ones (the kit's own seeded `random.Random`), one time
in four by the game's AI, so playthroughs reach the end: every property sees finished games too.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine.core.errors import RallyError
from bot.engine.core.game import Game, is_finished, log_problem
from bot.engine.core.log import Start
from bot.services.play.replay import iter_steps

#: a text no game's grammar reads as an action
GIBBERISH = "zz%% quux 999 ⟂"


@dataclass(frozen=True)
class Config:
    """One way to set a game up: its seats (id, name) and `setup` options (stage, ruleset, modules)."""

    seats: tuple[tuple[str, str], ...]
    options: Mapping[str, Any]

    def row(self, game: Game[Any, Any, Any, Any], seed: int) -> dict[str, Any]:
        """The rally row the bot's replay reads (bot.services.play.replay.setup_options)."""
        return {"game": game.id, "seed": seed, "stage": self.options.get("stage"),
                "ruleset": self.options.get("ruleset"), "modules": self.options.get("modules"),
                "drivers": [{"user_id": s, "display_name": n} for s, n in self.seats]}


@dataclass
class Step:
    """One action of a playthrough, as a property sees it."""

    game: Game[Any, Any, Any, Any]
    config: Config
    index: int  # 1 for the first action after the start
    before: Any
    before_json: str
    seat: str
    action: Any
    after: Any
    after_json: str
    events: list[Any]
    rng: random.Random
    cache: dict[tuple[str, str], list[Any]] = field(default_factory=dict, repr=False)

    def legal(self, after: bool, seat: str) -> list[Any]:
        """The seat's legal actions before (False) or after (True) the action, asked of the game
        once per state and seat in a playthrough (some enumerations, classic attacks, are slow)."""
        state, text = (self.after, self.after_json) if after else (self.before, self.before_json)
        key = (text, seat)
        if key not in self.cache:
            self.cache[key] = list(self.game.rules.legal_actions(state, seat))
        return self.cache[key]


@dataclass
class Playthrough:
    """A whole playthrough: its seed, configuration, log (as the store keeps it: seq, actor, canonical
    text; the start entry first) and the snapshot after each entry."""

    game: Game[Any, Any, Any, Any]
    config: Config
    seed: int
    log: list[dict[str, Any]] = field(default_factory=list)
    snapshots: list[str] = field(default_factory=list)
    finished: bool = False


StepProperty = Callable[[Step], None]
PlaythroughProperty = Callable[[Playthrough], None]


def _unchanged(game: Game[Any, Any, Any, Any], state: Any, text: str, what: str) -> None:
    assert game.rules.to_json(state) == text, f"{what} changed the state it was given"


def round_trip(step: Step) -> None:
    game = step.game
    back = game.rules.from_json(step.before_json)
    assert game.rules.to_json(back) == step.before_json, "a snapshot read back does not re-serialise byte-identically"
    after, events = game.rules.apply(back, step.seat, step.action)
    assert game.rules.to_json(after) == step.after_json, f"action {step.index}: the state read back plays differently"
    assert [repr(e) for e in events] == [repr(e) for e in step.events], \
        f"action {step.index}: the state read back tells other events"


LEGAL_SAMPLE = 2  # legal actions tried per step, beside the one played


def legal_apply(step: Step) -> None:
    game = step.game
    legal = step.legal(False, step.seat)
    assert legal, f"action {step.index}: seat {step.seat} is to act but has no legal action"
    for action in step.rng.sample(legal, min(LEGAL_SAMPLE, len(legal))):
        game.rules.apply(step.before, step.seat, action)
        text = game.rules.encode(action)
        assert log_problem(game, text) is None, f"{text}: {log_problem(game, text)}"
    _unchanged(game, step.before, step.before_json, "applying a legal action")


def _refused(attempt: Callable[[], object], what: str) -> None:
    try:
        attempt()
    except RallyError:
        return
    raise AssertionError(f"{what} was accepted")


def illegal_refused(step: Step) -> None:
    game, state = step.game, step.after
    acting = game.rules.to_act(state)
    legal = step.legal(True, sorted(acting)[0]) if acting else [step.action]
    seats = [s for s, _ in step.config.seats]
    idle = [s for s in seats if s not in acting] or ["-424242"]  # a seat not to act, else a stranger
    seat = step.rng.choice(idle)
    action = step.rng.choice(legal)
    _refused(lambda: game.rules.apply(state, seat, action),
             f"{game.commands.label(action)!r} by seat {seat}, not to act")
    speaker = (sorted(acting) or seats)[0]
    _refused(lambda: game.rules.apply(state, speaker, game.commands.parse(GIBBERISH, state, speaker)),
             f"the text {GIBBERISH!r}")
    _unchanged(game, state, step.after_json, "refusing an illegal action")


def outcome(step: Step) -> None:
    game, state = step.game, step.after
    result, finished, acting = game.rules.outcome(state), is_finished(game.rules, state), game.rules.to_act(state)
    assert finished == (result is not None), f"finished {finished} but outcome {result}"
    assert finished == (not acting), f"finished {finished} but to act: {sorted(acting)}"
    if result is None:
        return
    assert result.kind == game.rules.result
    assert sorted(r.seat for r in result.seats) == sorted(s for s, _ in step.config.seats), "not every seat ranked once"
    position = 0
    shared, broken = [], []  # each finished row's rank as tied scores share it (A17) / as tie-breaks part it (C8)
    for i, row in enumerate(result.seats):
        if row.status == "finished":
            assert row.score is not None and row.rank is not None, f"{row}: finished with no score or rank"
            assert i == position, f"{row}: a finished seat ranked after one that did not finish"
            position += 1
            mine = game.rules.result.key(row.score)
            better = [r for r in result.seats if r.status == "finished" and game.rules.result.key(r.score) <= mine
                      and r is not row]
            shared.append(row.rank == 1 + sum(1 for r in better if game.rules.result.key(r.score) < mine))
            broken.append(row.rank == 1 + sum(1 for r in better if (game.rules.result.key(r.score), r.tiebreak)
                                              < (mine, row.tiebreak)))
        else:
            assert row.rank is None, f"{row}: not finished but ranked"
    # one rule for the whole table: tied scores share a rank, or the game's tie-break parts them
    assert all(shared) or all(broken), f"ranks follow neither tied scores nor tie-breaks: {result.seats}"


#: the properties checked after every action (append a game-agnostic one here)
STEP_PROPERTIES: list[StepProperty] = [round_trip, legal_apply, illegal_refused, outcome]


def log_replay(run: Playthrough) -> None:
    game = run.game
    replayed = [game.rules.to_json(state) for state, _ in iter_steps(run.config.row(game, run.seed), run.log)
                if state is not None]
    assert len(replayed) == len(run.snapshots), f"{len(replayed)} states replayed for {len(run.snapshots)} entries"
    for seq, (stored, again) in enumerate(zip(run.snapshots, replayed), start=1):
        assert stored == again, f"seed {run.seed}: the log replayed differs from the snapshot at entry {seq}"


#: the properties checked once per playthrough, at its end
PLAYTHROUGH_PROPERTIES: list[PlaythroughProperty] = [log_replay]


@dataclass
class Figures:
    """What a kit run covered: playthroughs, actions, finished games, checks by property."""

    game: str
    playthroughs: int = 0
    actions: int = 0
    finished: int = 0
    checks: Counter[str] = field(default_factory=Counter)

    def line(self) -> str:
        checks = ", ".join(f"{name} {n}" for name, n in sorted(self.checks.items()))
        return (f"conformance {self.game}: {self.playthroughs} playthroughs, {self.actions} actions, "
                f"{self.finished} finished; checks: {checks} (total {sum(self.checks.values())})")


def _actor(seat: str) -> int | None:
    return int(seat) if seat.lstrip("-").isdigit() else None


def playthrough(game: Game[Any, Any, Any, Any], config: Config, seed: int, max_actions: int, figures: Figures,
                properties: Sequence[StepProperty]) -> Playthrough:
    """Play one game at random from `seed`, checking `properties` after every action and reloading a
    twin from its snapshot after each one (`reload`)."""
    rng = random.Random(seed)
    state, _ = game.rules.setup(seed, list(config.seats), config.options)
    run = Playthrough(game, config, seed)
    run.log.append({"seq": 1, "actor": None, "action": game.rules.encode(Start(tuple(s for s, _ in config.seats)))})
    text = game.rules.to_json(state)
    run.snapshots.append(text)
    twin = game.rules.from_json(text)
    cache: dict[tuple[str, str], list[Any]] = {}
    for index in range(1, max_actions + 1):
        acting = sorted(game.rules.to_act(state))
        if not acting:
            break
        seat = rng.choice(acting)
        legal = cache.get((text, seat))
        if legal is None:
            legal = cache[(text, seat)] = list(game.rules.legal_actions(state, seat))
        action = game.coach.choose(game.rules.view(state, seat),
                                   seat) if rng.random() < 0.25 or not legal else rng.choice(legal)
        after, events = game.rules.apply(state, seat, action)
        after_text = game.rules.to_json(after)
        step = Step(game, config, index, state, text, seat, action, after, after_text, events, rng, cache)
        for prop in properties:
            prop(step)
            figures.checks[prop.__name__] += 1
        twin, _ = game.rules.apply(twin, seat, action)
        assert game.rules.to_json(twin) == after_text, f"action {index}: the twin reloaded at every action differs"
        twin = game.rules.from_json(after_text)  # stopped, and read back from its snapshot
        figures.checks["reload"] += 1
        run.log.append({"seq": index + 1, "actor": _actor(seat), "action": game.rules.encode(action)})
        run.snapshots.append(after_text)
        state, text = after, after_text
        cache = {k: v for k, v in cache.items() if k[0] == text}  # the next state's only
        figures.actions += 1
    run.finished = is_finished(game.rules, state)
    figures.finished += run.finished
    figures.playthroughs += 1
    return run


def play(game: Game[Any, Any, Any, Any], configs: Sequence[Config], playthroughs: int, max_actions: int = 400,
         short: int | None = None, extra: Iterable[StepProperty] = ()) -> Figures:
    """`playthroughs` random playthroughs of `game`, cycling through `configs` (seeds 0, 1, …), every
    property checked: the figures of what was covered. Every fourth playthrough goes on to the end
    (`max_actions` at most), the others stop after `short` actions (None: as many), which keeps the
    kit quick while finished games are still checked. The first failure raises, naming the
    configuration and seed to replay it."""
    figures = Figures(game.id)
    properties = [*STEP_PROPERTIES, *extra]
    for seed in range(playthroughs):
        config = configs[seed % len(configs)]
        try:
            limit = max_actions if short is None or seed % 4 == 0 else min(short, max_actions)
            run = playthrough(game, config, seed, limit, figures, properties)
            for prop in PLAYTHROUGH_PROPERTIES:
                prop(run)
                figures.checks[prop.__name__] += 1
        except AssertionError as exc:
            raise AssertionError(f"{game.id} {dict(config.options)} seats {len(config.seats)} seed {seed}: {exc}") \
                from exc
    return figures
