"""Road Rally USA's public engine API (RULES Part C): `new_game`, `apply`, `to_act`,
`legal_actions`, `final_vp`, `ranking`. Every decision that may involve hidden information is asked
of every active seat at once (C10.8): `to_act` returns a set of seats."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.core.dice import DiceSource, SeededDice
from bot.engine.core.errors import RallyError
from bot.engine.core.text import msg
from bot.engine.roadrally.actions import Action, Choose, Order, Play, Reshuffle, Retire, StageAnswer, Timeout
from bot.engine.roadrally.cards import deck_of, refuse, value
from bot.engine.roadrally.events import RoadEvent
from bot.engine.roadrally.presets import DECK_A, DECK_B, preset
from bot.engine.roadrally.road import Road, SpaceKind
from bot.engine.roadrally.stages import answer, choose, end_round, final_stage, next_stage, resolve
from bot.engine.roadrally.state import RRState, SeatState
from bot.engine.roadrally.turn import begin_turn, check_play, empty_hand, mechanic_order, play

MIN_SEATS, MAX_SEATS = 3, 5


def _shuffled(dice: DiceSource, items: Sequence[int]) -> list[int]:
    return [int(x) for x in dice.shuffle([str(x) for x in items])]


def new_game(road: Road, seats: Sequence[str], preset_name: str = "rr-standard", *, seed: int = 0,
             dice: DiceSource | None = None, sprint: bool = False,
             public: DiceSource | None = None) -> tuple[RRState, list[RoadEvent]]:
    """Set up a game on `road` (C2, C7, C9, OPEN-R3): decks shuffled, hands of 5, secret stage
    cards, stage tiles on the Diner sites in road order, the random line-up on the start space.

    `dice` deals the hidden cards and stays in the state for every later shuffle; `public` draws
    what everybody sees at once (the line-up), so the deal and the public draws are independent
    streams. Without `public` (games set up before the deal had its own secret) the line-up is
    drawn from `dice` after the deal, as it always was, so those games replay unchanged."""
    if not MIN_SEATS <= len(seats) <= MAX_SEATS or len(set(seats)) != len(seats):
        raise RallyError(msg("roadrally.seats", min=MIN_SEATS, max=MAX_SEATS))
    p = preset(preset_name)
    dice = dice if dice is not None else SeededDice(seed)
    n = len(seats)
    first = p.sprint.first_stage if sprint else 1
    numbers = range(first, 22)
    stage_tiles = dict(zip(road.diners(), numbers, strict=False))  # C2, C10.7
    players: list[SeatState] = []
    for sid in seats:
        deck = _shuffled(dice, range(len(p.deck())))
        players.append(SeatState(sid, deck[:p.hand_size], deck[p.hand_size:], [], []))
    # stage cards (C2, C7, C9)
    if sprint:
        pool = _shuffled(dice, DECK_B)
        k = p.sprint.stage_cards
        for j, s in enumerate(players):
            s.stage_cards = pool[j * k:(j + 1) * k]
    elif p.stage_deal == "mixed":
        pool = _shuffled(dice, DECK_A + DECK_B)
        k = p.stage_cards[str(n)]
        for j, s in enumerate(players):
            s.stage_cards = pool[j * k:(j + 1) * k]
    else:
        k = p.stage_cards[str(n)]
        half = k // 2
        a, b = _shuffled(dice, DECK_A), _shuffled(dice, DECK_B)
        for j, s in enumerate(players):
            s.stage_cards = a[j * half:(j + 1) * half] + b[j * half:(j + 1) * half]
        if k % 2:
            rest = _shuffled(dice, a[n * half:] + b[n * half:])
            for j, s in enumerate(players):
                s.stage_cards.append(rest[j])
    for s in players:
        s.stage_cards.sort()
    start = next((sp.index for sp in road.spaces if sp.kind is SpaceKind.START), 0)
    lineup = _shuffled(public or dice, range(n))  # OPEN-R3: the random line-up is round 1's order
    for stamp, i in enumerate(lineup, 1):
        players[i].pos = start
        players[i].arrived = stamp
    state = RRState(p, sprint, road, dice, players, lineup, stamp=n, stage_tiles=stage_tiles,
                    checkpoint_tiles=set(road.checkpoints()))
    events: list[RoadEvent] = [RoadEvent("round", None, (1,))]
    _start_turns(state, events)
    return state, events


def _start_turns(state: RRState, events: list[RoadEvent]) -> None:
    """Begin the current turn, passing over retired seats and finished empty-hand turns."""
    while state.phase == "turn":
        if state.turn >= len(state.order):
            end_round(state, events)
            continue
        if state.seats[state.current()].retired:
            state.turn += 1
            continue
        if begin_turn(state, events):
            state.turn += 1
            continue
        return


def _end_turn(state: RRState, events: list[RoadEvent]) -> None:
    state.turn += 1
    state.phase = "turn"
    _start_turns(state, events)


def to_act(state: RRState) -> frozenset[str]:
    """Who must act now: the seat whose turn it is, the seat choosing, or every active seat that
    has not answered the stage window yet (C10.8)."""
    if state.phase == "over":
        return frozenset()
    if state.phase == "stage":
        answers = state.answers
        return frozenset([s.id for i, s in enumerate(state.seats) if not s.retired and i not in answers])
    if state.phase == "choose":
        return frozenset({state.seats[state.choices[0][0]].id})
    return frozenset({state.seats[state.current()].id})


def apply(state: RRState, seat: str | None, action: Action) -> tuple[RRState, list[RoadEvent]]:
    """The new state and its events; a refusal raises and leaves `state` unchanged (a clone is changed)."""
    if state.phase == "over":
        raise refuse("roadrally.game_over")
    new = state.clone()
    events: list[RoadEvent] = []
    if isinstance(action, Timeout):
        if seat is not None:
            raise refuse("roadrally.not_for_players")
        _timeout(new, events)
        return new, events
    if isinstance(action, Retire):
        _retire(new, seat, action, events)
        return new, events
    i = new.index(seat) if seat is not None else None
    if i is None or new.seats[i].retired:
        raise refuse("roadrally.not_a_player")
    if new.seats[i].id not in to_act(new):
        raise refuse("roadrally.not_your_turn")
    _act(new, i, action, events)
    return new, events


def _act(state: RRState, i: int, action: Action, events: list[RoadEvent]) -> None:
    phase = state.phase
    if isinstance(action, StageAnswer):
        if phase != "stage":
            raise refuse("roadrally.stage_not_reached", stage=action.stage)
        if answer(state, i, action, events):
            resolve(state, events)
            _start_turns(state, events)
        return
    if isinstance(action, Play) and phase == "turn":
        check_play(state, action)
        if play(state, action, events):
            _end_turn(state, events)
        return
    if isinstance(action, Play) and phase == "reshuffle":
        raise refuse("roadrally.hand_empty")
    if isinstance(action, Reshuffle) and phase == "reshuffle":
        empty_hand(state, action, events)
        _end_turn(state, events)
        return
    if isinstance(action, Order) and phase == "mechanic":
        mechanic_order(state, action, events)
        _end_turn(state, events)
        return
    if isinstance(action, Choose) and phase == "choose":
        choose(state, action, events)
        _start_turns(state, events)
        return
    raise refuse(_WAITING[phase])


_WAITING = {"turn": "roadrally.expected_play", "reshuffle": "roadrally.expected_reshuffle",
            "mechanic": "roadrally.expected_order", "stage": "roadrally.expected_stage_answer",
            "choose": "roadrally.expected_choice", "over": "roadrally.game_over"}


def _timeout(state: RRState, events: list[RoadEvent]) -> None:
    """C10.2 and the defaults: keep a stage card secret, reshuffle, take the points, keep the order;
    a turn plays the seat's first legal play (its lowest card)."""
    p = state.preset
    if state.phase == "stage":
        for i in state.active():
            state.answers.setdefault(i, False)
        resolve(state, events)
        _start_turns(state, events)
    elif state.phase == "choose":
        choose(state, Choose(p.timeout_choice), events)
        _start_turns(state, events)
    elif state.phase == "reshuffle":
        empty_hand(state, Reshuffle(p.timeout_reshuffles), events)
        _end_turn(state, events)
    elif state.phase == "mechanic":
        seat = state.seats[state.current()]
        mechanic_order(state, Order(tuple(seat.deck[:p.mechanic_look])), events)
        _end_turn(state, events)
    else:
        seat = state.seats[state.current()]
        card = min(seat.hand, key=lambda c: (value(state, c), c))
        if play(state, Play((card,)), events):
            _end_turn(state, events)


def _retire(state: RRState, seat: str | None, action: Retire, events: list[RoadEvent]) -> None:
    i = state.index(action.seat)
    if i is None:
        raise refuse("roadrally.not_a_player")
    if seat is not None and seat != action.seat:
        raise refuse("roadrally.retire_others")
    if state.seats[i].retired:
        raise refuse("roadrally.already_retired")
    state.seats[i].retired = True
    events.append(RoadEvent("retired", action.seat))
    if not state.active():
        final_stage(state, events)
        return
    if state.phase == "stage":
        state.answers.pop(i, None)
        if all(j in state.answers for j in state.active()):
            resolve(state, events)
            _start_turns(state, events)
    elif state.phase == "choose":
        state.choices = [c for c in state.choices if c[0] != i]
        if not state.choices:
            state.pending.pop(0)
            next_stage(state, events)
            _start_turns(state, events)
    elif state.current() == i:
        state.mechanic_draw = 0
        _end_turn(state, events)


def _multisets(kinds: list[list[int]], low: int, high: int) -> list[tuple[int, ...]]:
    """Every choice of cards taking the first n of each kind's ids (same colour and value are
    interchangeable), with low <= total <= high."""
    out: list[tuple[int, ...]] = [()]
    for ids in kinds:
        out = [chosen + tuple(ids[:n]) for chosen in out for n in range(len(ids) + 1)
               if len(chosen) + n <= high]
    return [chosen for chosen in out if len(chosen) >= low]


def _plays(state: RRState, i: int) -> list[Play]:
    """Every distinct play of seat `i` (cards of the same colour and value are interchangeable):
    one colour, any number (C4); on a General Store, up to 5 of any colours (C5)."""
    seat = state.seats[i]
    road = state.road
    deck = deck_of(state)
    by_kind: dict[tuple[str, int], list[int]] = {}
    for c in sorted(seat.hand):
        by_kind.setdefault(deck[c], []).append(c)
    candidates: list[tuple[tuple[int, ...], bool]] = []
    for col in ("green", "yellow", "red"):
        kinds = [ids for kind, ids in by_kind.items() if kind[0] == col]
        candidates += [(cards, False) for cards in _multisets(kinds, 1, len(seat.hand))]
    if road.spaces[seat.pos].kind is SpaceKind.STORE:
        candidates += [(cards, True) for cards in _multisets(list(by_kind.values()), 1, state.preset.store_max)]
    out: list[Play] = []
    choose_gas = state.preset.gas_draw == "choose"
    for cards, at_store in candidates:
        end = min(seat.pos + sum(deck[c][1] for c in cards), road.final)
        target = road.spaces[end].shortcut_to if road.spaces[end].kind is SpaceKind.SHORTCUT else None
        for cut in ([False, True] if target is not None else [False]):
            last = target if cut and target is not None else end
            gas = choose_gas and road.spaces[last].kind is SpaceKind.GAS
            for first in ([False, True] if gas else [False]):
                out.append(Play(tuple(sorted(cards)), at_store, cut, first))
    return out


def legal_actions(state: RRState, seat: str | None) -> list[Action]:
    """What `seat` may do now (None: the rally's own actions)."""
    if state.phase == "over":
        return []
    if seat is None:
        return [Timeout()]
    i = state.index(seat)
    if i is None or seat not in to_act(state):
        return []
    if state.phase == "turn":
        return list(_plays(state, i))
    if state.phase == "reshuffle":
        return [Reshuffle(True), Reshuffle(False)]
    if state.phase == "mechanic":
        top = state.seats[i].deck[:state.preset.mechanic_look]
        return [Order(tuple(top)), Order(tuple(sorted(top, key=lambda c: (-value(state, c), c))))]
    if state.phase == "stage":
        stage = state.pending[0]
        own = stage in state.seats[i].stage_cards
        answers: list[Action] = [StageAnswer(stage, False)]
        return answers + [StageAnswer(stage, True)] if own else answers
    return [Choose("vp"), Choose("cards")]


def final_vp(state: RRState) -> dict[str, int]:
    """C8: VP tiles + 2 per stage tile + 2 per checkpoint tile."""
    p = state.preset
    return {s.id: s.vp + p.tile_vp * len(s.stage_tiles) + p.checkpoint_vp * s.checkpoints for s in state.seats}


def ranking(state: RRState) -> list[str]:
    """Seats best first: final VP, a tie to the car further ahead (C8); retired seats last."""
    vp = final_vp(state)
    ahead = {state.seats[i].id: place for place, i in enumerate(state.race_order())}
    return sorted(vp, key=lambda sid: (sid not in ahead, -vp[sid], ahead.get(sid, 0)))

