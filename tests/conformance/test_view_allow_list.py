"""A view is an allow-list: what a seat (or a spectator) is given of a game, and nothing else.

For every registered game, after every action of a random playthrough of each of the conformance
kit's configurations (tests/conformance/configs.py: every preset and module) and every fifth of
one game played to its end, for each seat and a spectator:

- the view holds exactly the fields allowed (written out here, so a field added to a view is a
  decision this file records), and nothing reached from it, walking every attribute, slot and
  container, is a dice source (the seed and the stream position of every die and draw to come)
  or its key written out, the config that holds the seed, the game's whole state, a probe holding
  it, a shortcut deck (A9.1) or a hand, a deck or stage cards the viewer may not see (RULES C10.8);
- a twin of the state whose secrets alone differ (other dice and seed, another shortcut-deck
  order, the cards the viewer does not see dealt again) gives an equal view, and the same
  prompt, story, status, classification, board and results data, ghost marks, hand, odds and AI
  choice: a reader of a view cannot tell one from the other.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import fields, is_dataclass, replace
from enum import Enum
from types import BuiltinFunctionType, FunctionType, MethodType, ModuleType
from typing import Any

import pytest

from bot import games
from bot.engine.core.dice import ScriptedDice, SeededDice, StreamDice
from bot.engine.core.game import is_finished
from bot.engine.core.secret_dice import SecretDice
from bot.engine.dirt.probe import Probe
from bot.engine.dirt.reach import Reach
from bot.engine.dirt.state import DirtState
from bot.engine.rallyman.state import GameConfig, GameState
from bot.engine.roadrally.protocol import Table
from bot.engine.roadrally.state import RRState, SeatState
from tests.conformance.configs import CONFIGS, MAX_ACTIONS
from tests.conformance.kit import Config

#: the public part of a classic state: the state's fields but the dice, the shortcut deck and the
#: config (its ruleset and modules kept, its seed not), plus the deck's size
CLASSIC = ("stage", "rules", "ruleset", "modules", "cars", "dirt", "round", "queue", "entry", "turn", "arrival",
           "finishers", "last_path", "last_driver", "moves", "course", "weather", "deck_size")
#: the public part of a DIRT state: the state's fields but the dice and the engine's probe
DIRT = ("seats", "stages", "assistance", "modules", "ruleset", "cars", "stage_index", "start_order", "round", "order",
        "previous_order", "turn", "turn_dice", "turn_path", "hazards", "last_dice", "last_path", "fresh",
        "sisu_active", "minus", "bag", "someone_finished", "over")
#: Road Rally's view (C10.8): public seats (counts, discards, tiles), the seat's own part in `me`
ROAD_RALLY = {
    "TableView": ("rr", "names", "picks"),
    "RRView": ("seat", "preset", "sprint", "road", "round", "phase", "order", "current", "to_act", "seats",
               "stage_tiles", "checkpoint_tiles", "window", "choice", "revealed", "me"),
    "PublicSeat": ("id", "place", "pos", "mark", "hand_size", "deck_size", "discard", "vp", "stage_tiles",
                   "checkpoints", "stage_cards", "scored_cards", "retired"),
    "Private": ("hand", "stage_cards", "mechanic_top", "answered"),
}
#: what no view may reach, whoever it is for
NEVER = (SeededDice, StreamDice, ScriptedDice, SecretDice, GameConfig, GameState, DirtState, RRState, SeatState,
         Table, Probe, Reach)
#: actions of each configuration's playthrough, every state checked (then one game to its end)
SHORT = {"rallyman": 20, "dirt": 20, "roadrally": 25}

_LEAVES = (str, bytes, int, float, complex, bool, type(None), Enum, range)
_OPAQUE = (type, ModuleType, FunctionType, BuiltinFunctionType, MethodType)
#: big public objects (stages, rulesets, roads) already walked once: their insides are not walked again
_WALKED: set[int] = set()
_KEEP: list[object] = []  # keeps those objects alive, so their ids stay theirs


def _children(o: object) -> Iterator[object]:
    if isinstance(o, dict):
        yield from o.keys()
        yield from o.values()
    elif isinstance(o, (list, tuple, set, frozenset)):
        yield from o
    else:
        yield from getattr(o, "__dict__", {}).values()
        for cls in type(o).__mro__:
            for slot in getattr(cls, "__slots__", ()):
                if slot != "__dict__" and hasattr(o, slot):
                    yield getattr(o, slot)


def reachable(root: object) -> Iterator[object]:
    """Every object reached from `root` through attributes, slots and containers (not into
    classes, modules or functions)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        o = stack.pop()
        if isinstance(o, str):
            yield o  # a key written out is a secret too
            continue
        if id(o) in seen or isinstance(o, _LEAVES) or isinstance(o, _OPAQUE):
            continue
        seen.add(id(o))
        yield o
        big = type(o).__name__ in ("Stage", "DirtStage", "Ruleset", "DirtRuleset", "Road", "Preset")
        if big and id(o) in _WALKED:
            continue
        if big:
            _WALKED.add(id(o))
            _KEEP.append(o)
        stack.extend(_children(o))


def _secret_containers(game_id: str, state: Any, seat: str | None) -> list[object]:
    """The state's containers of secrets, the dice first, each object itself (its identity is what is
    looked for)."""
    if game_id == "rallyman":
        return [state.dice, state.deck]
    if game_id == "dirt":
        return [state.dice]
    rr: RRState = state.state
    secret: list[object] = [rr.dice, rr.answers]  # the dice first
    for s in rr.seats:
        secret.append(s.deck)  # even the viewer's own: a Mechanic shows its top as a copy
        if s.id != seat:
            secret += [s.hand, s.stage_cards]
    return secret


def _check_fields(game_id: str, view: Any) -> None:
    if game_id == "roadrally":
        for o in reachable(view):
            name = type(o).__name__
            if name in ROAD_RALLY:
                got = tuple(f.name for f in fields(o)) if is_dataclass(o) else o._fields
                assert got == ROAD_RALLY[name], name
        return
    assert tuple(f.name for f in fields(view)) == ("state", "seat")
    assert tuple(f.name for f in fields(view.state)) == (CLASSIC if game_id == "rallyman" else DIRT)
    assert type(view.state).__slots__, "the public part has slots: no attribute beyond its fields"


def _keys(dice: Any) -> set[str]:
    """The long texts of a dice source's saved form: a stream's or a deal's key."""
    return {v for v in dice.to_dict().values() if isinstance(v, str) and len(v) >= 16}


def _check_unreachable(game_id: str, state: Any, seat: str | None, view: Any) -> None:
    containers = _secret_containers(game_id, state, seat)
    secret = {id(o) for o in containers}
    keys = _keys(containers[0])  # the dice come first
    for o in reachable(view):
        assert not (isinstance(o, str) and o in keys), f"{seat}'s view reaches the dice's key"
        assert not isinstance(o, NEVER), f"{seat}'s view reaches a {type(o).__name__}"
        assert id(o) not in secret, f"{seat}'s view reaches a secret {type(o).__name__} of the state"
        assert not (hasattr(o, "roll") and hasattr(o, "shuffle")), f"{seat}'s view reaches dice: {type(o).__name__}"


# -- twins: the same public history, other secrets ---------------------------------------------------


def _classic_twin(state: GameState, seat: str | None, rng: random.Random) -> GameState:
    twin = state.clone()
    twin.dice = SeededDice(rng.randrange(1, 10**9), rng.randrange(100))
    twin.deck = list(reversed(state.deck)) if len(set(state.deck)) > 1 else ["flat", *state.deck[1:]][:len(state.deck)]
    twin.config = replace(state.config, seed=state.config.seed + 1 + rng.randrange(10**6))
    return twin


def _dirt_twin(state: DirtState, seat: str | None, rng: random.Random) -> DirtState:
    twin = state.clone()
    twin.dice = SeededDice(rng.randrange(1, 10**9), rng.randrange(100))
    return twin


def _rr_twin(table: Table, seat: str | None, rng: random.Random) -> Table:
    """Every card `seat` does not see dealt again: the other seats' hands and decks (within each
    seat), their stage cards (among them), the viewer's deck below what a Mechanic shows it, the
    others' answers in a stage window; and another secret key."""
    state = table.state.clone()
    state.dice = SecretDice(f"{rng.getrandbits(256):064x}", rng.randrange(100))
    viewer = state.index(seat) if seat is not None else None
    others = [s for i, s in enumerate(state.seats) if i != viewer]
    for s in others:
        cards = s.hand + s.deck
        rng.shuffle(cards)
        s.hand, s.deck = cards[:len(s.hand)], cards[len(s.hand):]
    if viewer is not None:
        own = state.seats[viewer]
        shown = state.preset.mechanic_look if state.phase == "mechanic" and state.current() == viewer else 0
        rest = own.deck[shown:]
        rng.shuffle(rest)
        own.deck = own.deck[:shown] + rest
    hidden = [c for s in others for c in s.stage_cards]
    rng.shuffle(hidden)
    for s in others:
        s.stage_cards, hidden = sorted(hidden[:len(s.stage_cards)]), hidden[len(s.stage_cards):]
    state.answers = {i: (not yes if i != viewer else yes) for i, yes in state.answers.items()}
    return Table(state, table.names)


TWINS: dict[str, Callable[[Any, str | None, random.Random], Any]] = {
    "rallyman": _classic_twin, "dirt": _dirt_twin, "roadrally": _rr_twin}


def _answer(call: Callable[[], object]) -> object:
    """What a reader gets: the value, or the error (its type and message: some readers are asked
    only at some moments, classic's `classification` once a special is over)."""
    try:
        return call()
    except Exception as exc:  # compared, not hidden: both twins must fail alike
        return (type(exc).__name__, str(exc))


def _shown(game: Any, view: Any, seat: str | None, events: list[Any], state: Any) -> dict[str, object]:
    """Everything a reader of `view` is told."""
    pictures, ghosts, hidden, odds = game.pictures, game.ghosts, game.hidden, game.odds
    out: dict[str, object] = {
        "prompt": _answer(lambda: game.narrator.prompt(view, events)),
        "tell": _answer(lambda: game.narrator.tell(view, events)),
        "status": _answer(lambda: game.narrator.status(view)),
        "classification": _answer(lambda: game.narrator.classification(view)),
        "board": _answer(lambda: pictures.board(view) if pictures else None),
        "ghosts": _answer(lambda: ghosts.ghost_marks(view) if ghosts else None),
        "hand": _answer(lambda: hidden.hand(view) if hidden else None),
        "progress": _answer(lambda: game.rules.progress(view)),
        "up_next": _answer(lambda: game.narrator.up_next(view)), "midturn": _answer(lambda: game.rules.midturn(view)),
        "title": _answer(lambda: game.narrator.title(view))}
    if is_finished(game.rules, state):
        out["results"] = _answer(lambda: pictures.results(view) if pictures else None)
    if seat is not None and seat in game.rules.to_act(state):
        out["choose"] = _answer(lambda: game.coach.choose(view, seat))
        labels = [game.commands.label(a) for a in game.rules.legal_actions(state, seat)[:3]]
        out["odds"] = [_answer(lambda label=label: odds.odds(view, seat, label) if odds else None) for label in labels]
    return out


def check_views(game: Any, seats: Sequence[str], state: Any, events: list[Any], rng: random.Random) -> None:
    """The allow-list, the walk and the twins, for each seat's view and a spectator's."""
    text = game.rules.to_json(state)
    for seat in [*seats, None]:
        view = game.rules.view(state, seat)
        _check_fields(game.id, view)
        _check_unreachable(game.id, state, seat, view)
        twin = TWINS[game.id](state, seat, rng)
        assert game.rules.to_json(twin) != text, "the twin's secrets differ"
        twin_view = game.rules.view(twin, seat)
        assert twin_view == view, f"{seat}'s view tells the secrets apart"
        assert _shown(game, twin_view, seat, events, twin) == _shown(game, view, seat, events, state), \
            f"what {seat}'s view tells differs with the secrets"


def playthrough(game: Any, config: Config, seed: int, limit: int, every: int) -> tuple[int, bool]:
    """One of the kit's random playthroughs (its configurations; the AI one move in four), the views
    checked at the start, every `every` actions and at the end: the number of states checked, and
    whether the game finished."""
    rng = random.Random(seed)
    state, events = game.rules.setup(seed, list(config.seats), config.options)
    seats = [s for s, _ in config.seats]
    checked = 0
    for index in range(limit + 1):
        acting = sorted(game.rules.to_act(state))
        if index % every == 0 or not acting:
            check_views(game, seats, state, events, rng)
            checked += 1
        if not acting:
            break
        seat = rng.choice(acting)
        legal = game.rules.legal_actions(state, seat)
        if rng.random() < 0.25 or not legal:
            action = game.coach.choose(game.rules.view(state, seat), seat)
        else:
            action = rng.choice(legal)
        state, events = game.rules.apply(state, seat, action)
    return checked, is_finished(game.rules, state)


@pytest.mark.parametrize("game_id", sorted(SHORT))
def test_a_view_holds_only_what_its_seat_may_see(game_id: str) -> None:
    assert set(SHORT) == set(games.ids())  # every registered game
    game = games.get(game_id)
    configs = CONFIGS[game_id]
    checked = sum(playthrough(game, config, seed, SHORT[game_id], 1)[0] for seed, config in enumerate(configs))
    assert checked >= len(configs) * 10
    end, finished = playthrough(game, configs[0], len(configs), MAX_ACTIONS[game_id], 5)  # finished views too
    assert finished and end >= 5


def test_the_walk_finds_what_a_view_used_to_reach() -> None:
    """The checks can fail: the whole state, as classic's and DIRT's views held it, reaches the
    dice, the config's seed and the shortcut deck."""
    classic = games.get("rallyman")
    state, _ = classic.rules.setup(3, [("1", "Ann"), ("2", "Ben")], {"stage": "iron-sprint", "ruleset": "classic"})
    found = {type(o) for o in reachable(state)}
    assert SeededDice in found and GameConfig in found
    with pytest.raises(AssertionError, match="reaches"):
        _check_unreachable("rallyman", state, None, (state,))
    twin = _classic_twin(state, None, random.Random(1))
    assert twin.dice.to_dict() != state.dice.to_dict() and twin.deck != state.deck
    assert classic.rules.view(twin, None) == classic.rules.view(state, None)  # the view cannot tell them apart
