"""The frozen translator of the old action log (`bot.store.legacy_actions`) agrees with the codec:
for every entry the old bot could log, the text it wrote (`str(action)`, `start a,b`,
`status abandoned`) becomes exactly the canonical text the new bot writes for that entry."""

from __future__ import annotations

import pytest
from hypothesis import given

from bot.engine.rallyman.action_codec import Start, Status, log_text
from bot.engine.rallyman.actions import Order, Place, Retire, Roll, Timeout
from bot.engine.rallyman.parse import parse
from bot.store.legacy_actions import UntranslatableAction, legacy_to_canonical
from tests.engine.action_strategies import actions, lifecycle


def old_text(entry) -> str:
    """What the action log held for `entry` before schema 3."""
    if isinstance(entry, Start):
        return "start " + ",".join(entry.seats)
    if isinstance(entry, Status):
        return f"status {entry.status}"
    return str(entry)


@given(actions)
def test_the_old_text_of_every_engine_action_becomes_its_canonical_text(action):
    assert legacy_to_canonical(str(action)) == log_text(action)


@given(lifecycle)
def test_the_old_start_and_status_entries_become_their_canonical_text(entry):
    assert legacy_to_canonical(old_text(entry)) == log_text(entry)


@given(actions)
def test_the_translation_means_what_the_old_replay_read_in_the_text(action):
    """Before schema 3 the replay read the log with `parse` (retire and timeout by hand): the
    translation keeps that meaning, so a migrated rally replays to the same state."""
    if isinstance(action, (Retire, Timeout)):
        return  # read by hand (`retire <everything after the space>`, `timeout`), tested above
    assert legacy_to_canonical(str(action)) == log_text(parse(str(action)))


@pytest.mark.parametrize("text, entry", [
    ("roll 3 W interior stop", Roll(("3", "W"), "interior", True, line_at=1)),
    ("roll 3 W 4 skid", Roll(("3", "W", "4"), "skid", line_at=2)),  # the line word follows its die
    ("order W! 3 interior", Order(("W!", "3"), "interior", 1)),
    ("order best", Order(best=True)),
    ("place 3 interior", Place("3", "interior")),
    ("retire 123", Retire("123")),
    ("start 1002,1001", Start(("1002", "1001"))),
    ("status abandoned", Status("abandoned")),
])
def test_examples_of_the_old_log(text, entry):
    assert legacy_to_canonical(text) == log_text(entry)


@pytest.mark.parametrize("text", [
    "", " ", "snapshot", "roll", "roll ", "roll stop", "roll 6", "roll w", "roll 3 blanc", "roll 3  4",
    "roll skid 3", "roll 3 skid 4 cut", "roll 3 stop 4", "roll 3 W!", "3 W", "Roll 3", "stop now", "spare 1",
    "timeout 3", "line", "line cut", "line skid skid", "tires", "tires rain", "attack", "attack 3 skid",
    "attack W!", "order", "order best 3", "order 3 best", "place", "place 3 4", "place W!", "place 3 cut",
    "start", "start ", "start 1,,2", "start 1,1", "status", "status paused", "status abandoned now",
    "retire", "retire ", "retire  ", '{"type":"stop","v":1}',
])
def test_a_text_the_old_bot_never_wrote_is_refused_with_the_text(text):
    with pytest.raises(UntranslatableAction) as refused:
        legacy_to_canonical(text)
    assert repr(text) in str(refused.value)
