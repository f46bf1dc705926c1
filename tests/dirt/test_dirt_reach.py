"""The compiled stage tables and `reach.Reach` ("Speed", second pass) say what the plain
rules of `moves` say: on every state of AI-driven rallies, each direction word's target, each
space's freedom and each jump's landing; the tables are the stage's graph read once; and a draw
(B10 shortcut "−1" token, B13.3 damage token) on a clone never changes the state it came from."""

from __future__ import annotations

import random

from bot.engine.core.dice import SeededDice
from bot.engine.dirt import rally
from bot.engine.dirt.actions import DIRECTIONS
from bot.engine.dirt.moves import find_target, free, landing, pose_of
from bot.engine.dirt.rally import Roll, Step, Stop
from bot.engine.dirt.reach import Reach
from bot.engine.dirt.stages.catalogue import load_stage, stage_names
from bot.engine.dirt.stages.model import SpaceKind
from tests.dirt.rally_kit import kinds, put, space, start
from tests.dirt.test_dirt_speed_paths import rally_states

SHORTCUT = 35  # the corner tile's shortcut space in rally_kit.CORNER (limit 2)


def test_the_tables_are_the_stage_graph_read_once():
    for name in stage_names():
        stage = load_stage(name)
        tables = stage.tables
        assert stage.tables is tables  # worked out once per stage
        for s in stage.spaces:
            assert tables.pose[s.id] == pose_of(s)
            assert tables.finish[s.id] == stage.finished(s.id)
            assert tables.plain[s.id] == (s.kind is SpaceKind.NORMAL)
            assert tables.lane[s.id] == (s.lanes[0] if len(s.lanes) == 1 else None)
            assert tables.special[s.id] == (s.limit is not None or s.jump is not None or s.kind is SpaceKind.SHORTCUT)
            assert tables.touch[s.id] == {s.id} | {t.id for t in stage.spaces if s.id in t.overlaps} | set(s.overlaps)
            assert tables.words[s.id] == stage.forward_words[s.id]
            for word, targets in stage.targets_by_word[s.id].items():
                assert tables.first[s.id][word] == targets[0]
        for i in range(len(stage.tiles)):  # B4.3: the inside lane of the next corner
            corner = next((t for t in stage.tiles[i + 1:] if t.kind != "straight"), None)
            assert tables.next_inner[i] == (None if corner is None else {"left": 0, "right": 1}[corner.kind])


def test_reach_gives_the_plain_rules_targets_freedom_and_landings_on_every_state_of_rallies():
    met = jumps = 0
    for stages, seed in ((["kettle-gorge", "red-quarry"], 7), (["sauna-hill", "northern-lights"], 2)):
        for state, seat in rally_states(stages, seed):
            reach = Reach(state, seat)
            for word in DIRECTIONS:
                assert reach.target(word) == find_target(state, seat, word), (stages, seed, word)
            for target in range(len(state.stage.spaces)):
                assert reach.free(target) == free(state, seat, target)
                if state.stage.spaces[target].jump is not None:
                    jumps += 1
                    for lane in (0, 1):
                        assert reach.landing(target, lane) == landing(state, seat, target, lane)
            met += 1
    assert met > 300 and jumps > 0


def test_reach_follows_the_minus_one_tokens_and_the_other_cars():
    s = start(seats=("a", "b"))
    st = s.stage
    put(s, "b", space(st, 1, 0, 2), 1)
    s.minus = {2: ["a", "a"]}  # the inside line of tile 2 is closed for b (B10)
    s.order, s.turn = ["b"], 0
    for word in DIRECTIONS:
        assert Reach(s, "b").target(word) == find_target(s, "b", word)
    put(s, "a", space(st, 2, 1, 0), 1)  # a car on the outside line blocks it (B7)
    s.order, s.turn = ["b"], 0
    reach = Reach(s, "b")
    assert [reach.free(t) for t in range(len(st.spaces))] == [free(s, "b", t) for t in range(len(st.spaces))]


def test_draws_on_a_clone_leave_the_state_it_came_from_as_it_was():
    s = start(seats=("a", "b"), draws=["minus_one"])
    st = s.stage
    put(s, "b", space(st, 1, 1, 2), 2)
    put(s, "a", space(st, 1, 0, 2), 2)
    s.order, s.turn = ["a", "b"], 0
    before = s.to_dict()
    after, _ = rally.apply(s.clone(), "a", Roll(Step("2"), "cut"))  # B10: the shortcut's "−1" goes on the tile
    assert after.minus == {2: ["a"]} and s.to_dict() == before
    assert after.bag is not s.bag and after.minus is not s.minus
    s = start(faces=[True] * 6, draws=["brake"])
    before = s.to_dict()
    after, events = s.clone(), []
    for die in ("1", "2", "3"):  # every die shows ⚠: the third reaches the limit
        after, events = rally.apply(after, "a", Roll(Step(die)))
    assert "dirt_damage" in kinds(events)  # ⚠ reached the limit: a damage token is drawn (B13.3)
    assert after.cars["a"].tokens["brake"] == 1 and s.to_dict() == before


def test_the_ais_remembered_choice_is_the_one_worked_out_on_every_state_of_rallies():
    from bot.engine.dirt import ai
    from bot.engine.dirt.moves import steps_now

    ai._BEST.clear()
    met = hits = 0
    for stages, seed in ((["lakeside-loop", "wolf-forest"], 4), (["lakeside-loop", "wolf-forest"], 5)):
        for state, seat in rally_states(stages, seed):
            size = len(ai._BEST)
            remembered = ai._best_known(state, seat)
            hits += len(ai._BEST) == size
            steps = steps_now(state, seat)
            assert remembered == (ai._best(state, seat, steps, Reach(state, seat)) if steps else None)
            met += 1
    assert met > 300 and hits > met // 10  # the other cars far away do not count: states meet again


def _random_states(stage: str, seed: int):
    """Every (state, seat to act) of a rally of three random legal players, shortcuts and all."""
    rng = random.Random(seed)
    s, _ = rally.new_rally([("a", "A"), ("b", "B"), ("c", "C")], [stage], dice=SeededDice(seed))
    while not rally.finished(s):
        seat = rally.to_act(s)
        assert seat is not None
        yield s, seat
        s, _ = rally.apply(s, seat, rng.choice(rally.legal_actions(s, seat)))


def _cut_first(rolls: list[Roll], seed: int) -> Roll | Stop:
    """A roll onto a shortcut when there is one (its token is drawn), else any legal roll."""
    cuts = [r for r in rolls if r.to == "cut"]
    return random.Random(seed).choice(cuts or rolls or [Stop()])


def test_the_dice_key_after_a_step_is_worked_out_from_the_one_before_onto_special_spaces_too():
    """`turn._key_after`: the end-of-turn check's dice key, from the step's checked one, is the
    state's own after the step, also after a limit, a jump or a shortcut's token (B10)."""
    from bot.engine.dirt import ai, turn
    from bot.engine.dirt.moves import dice_key

    met = special = shortcuts = 0
    plays = [(s.clone(), seat, ai.choose(s, seat)) for s, seat in rally_states(["dusty-pines", "copper-mine"], 3)]
    plays += [(s.clone(), seat, _cut_first(turn.legal_rolls(s, seat), n))
              for n, stage in enumerate(stage_names()) for s, seat in _random_states(stage, n)]
    for state, seat, action in plays:
        if not isinstance(action, Roll):
            continue
        target, _, key = turn._checked(state, seat, action)
        after, _ = rally.apply(state.clone(), seat, action)  # the rally goes on from `state`
        if after.to_act() != seat or len(after.turn_dice) <= len(state.turn_dice):
            continue  # the turn ended: no end-of-turn check on the state after
        assert turn._key_after(key, after.cars[seat].gear, action.step.dice()) == dice_key(after, seat)
        met += 1
        special += state.stage.tables.special[target]
        shortcuts += state.stage.spaces[target].kind is SpaceKind.SHORTCUT
    assert met > 300 and special > 50 and shortcuts > 5, (met, special, shortcuts)
