"""Whole Road Rally USA games and the action codec (RULES C3-C8, C10): AI games of 3, 4 and 5 seats
end with final VP; any action applies or is refused with the state unchanged; log entries are
canonical JSON that decode back to the same action."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from bot.engine.core.errors import RallyError
from bot.engine.core.log import CodecError, Start, Status
from bot.engine.roadrally import ai
from bot.engine.roadrally.actions import Choose, Order, Play, Reshuffle, Retire, StageAnswer, Timeout
from bot.engine.roadrally.codec import decode, encode, label, parse
from bot.engine.roadrally.play import apply, final_vp, legal_actions, new_game, ranking, to_act
from bot.engine.roadrally.view import view
from tests.roadrally.helpers import SEATS, game, snap
from tests.roadrally.roads import LONG, road


@pytest.mark.parametrize("preset", ["rr-base", "rr-standard", "rr-demo-fr"])
@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("sprint", [False, True])
def test_a_whole_ai_game_ends_with_final_vp(n, preset, sprint):
    """C3-C8: every AI action is legal; the game ends at the end of the round a car finishes in."""
    st, _ = new_game(road(LONG), SEATS[:n], preset, seed=11 * n, sprint=sprint)
    steps = 0
    while st.phase != "over":
        for seat in sorted(to_act(st)):
            action = ai.choose(view(st, seat))
            if st.phase != "turn":  # a turn's play need not be one of the deduplicated legal plays
                assert action in legal_actions(st, seat)
            st, _ = apply(st, seat, action)
            break
        steps += 1
        assert steps < 3000
    assert any(s.mark == 1 for s in st.seats) and st.final_scored
    vp = final_vp(st)
    assert set(vp) == set(SEATS[:n]) and max(vp.values()) > 0
    assert sorted(ranking(st)) == sorted(SEATS[:n])
    for s in st.seats:  # every seat still has its 21 cards
        assert sorted(s.hand + s.deck + s.discard) == list(range(21))


CARDS = hs.lists(hs.integers(0, 21), min_size=0, max_size=7).map(tuple)
ACTIONS = hs.one_of(
    hs.builds(Play, CARDS, hs.booleans(), hs.booleans(), hs.booleans()),
    hs.builds(Reshuffle, hs.booleans()), hs.builds(Order, CARDS),
    hs.builds(StageAnswer, hs.integers(0, 22), hs.booleans()),
    hs.builds(Choose, hs.sampled_from(["vp", "cards"])), hs.builds(Retire, hs.sampled_from(["a", "b", "x"])),
    hs.just(Timeout()))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 1000), preset=hs.sampled_from(["rr-base", "rr-standard", "rr-demo-fr"]),
       script=hs.lists(hs.tuples(hs.sampled_from(["a", "b", "c", "d", None]), ACTIONS, hs.booleans()),
                       max_size=60))
def test_any_action_applies_or_is_refused_with_the_state_unchanged(seed, preset, script):
    """Any seat, any action: applied, or refused with a message key and nothing changed."""
    st = game(LONG, n=4, preset=preset, seed=seed)
    for seat, action, legal in script:
        if st.phase == "over":
            break
        if legal:  # move the game on with a legal action of someone to act
            seat = sorted(to_act(st))[0]
            action = ai.choose(view(st, seat))
        before = snap(st)
        try:
            st, _ = apply(st, seat, action)
        except RallyError as err:
            assert err.message.key.startswith("roadrally.")
            assert snap(st) == before


def test_log_entries_are_canonical_and_decode_to_the_same_action():
    actions = [Play((3, 5), True, False, True), Reshuffle(False), Order((4, 1, 2)), StageAnswer(7, True),
               Choose("cards"), Retire("a"), Timeout(), Start(("a", "b", "c")), Status("finished")]
    for action in actions:
        text = encode(action)
        assert decode(text) == action and encode(decode(text)) == text
    for bad in ['{"v":1,"type":"play","cards":[1]}', '{"v":2,"type":"timeout"}', '{"type": "timeout", "v": 1}',
                '{"v":1,"type":"choose","take":"both"}', '{"v":1,"type":"stage","play":true,"stage":"7"}', "[]",
                "nope"]:
        with pytest.raises(CodecError):
            decode(bad)


def test_parse_reads_what_label_writes_and_card_codes():
    st = game(LONG, n=3)
    seat = st.seats[st.current()]
    for action in legal_actions(st, seat.id)[:30]:
        assert parse(label(action), st, seat.id) == action
    green = [c for c in sorted(seat.hand) if c <= 4]
    if green:
        assert parse("play g1", st, seat.id) == Play((green[0],))
    assert parse("stage 4 keep", st, seat.id) == StageAnswer(4, False)
    assert parse("vp", st, seat.id) == Choose("vp")
    for bad in ["", "fly", "play x9", "stage seven pass"]:
        with pytest.raises(RallyError) as err:
            parse(bad, st, seat.id)
        assert err.value.message.key == "roadrally.cannot_parse"
