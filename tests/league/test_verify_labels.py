"""A result card binds every label it shows (`bot/services/world/card_check.py`).

A genuine card whose league, round number, week, assistance, driver name... was edited used to
verify as "genuine" with the edited labels. Now each card is checked against what was published
of its round (the cards file's header and results, bound by the round's SHA-256; in `/verify` the
round as the bot stored it): the field that differs is named, and the names shown are the
published ones. The property: any single-field edit of a genuine card is either refused, naming
the field, or changes nothing the verifier shows.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.services.world.card_check import verify_card, verify_text
from tests.league.league_helpers import ALICE, BOB, CAROL
from tests.league.test_verify import ClosedRound, close_round, file_of, in_a_thread


@pytest.fixture(scope="module")
def closed(tmp_path_factory) -> ClosedRound:
    """Round 1 of Sunday Cup on pinewood-sprint, Alice, Bob and Carol finished, closed."""
    return in_a_thread(close_round(tmp_path_factory.mktemp("labels") / "db.sqlite3", "pinewood-sprint",
                                   "personal", (ALICE, BOB, CAROL)))


def alice(closed: ClosedRound) -> dict[str, Any]:
    return copy.deepcopy(closed.cards[0])


# A plausible relabelling of each label a card shows or binds: the forger's edit, well formed.
RELABEL = {
    "league": "Grand Prix Cup",
    "league_id": 2,
    "round": 7,
    "week": "2026-W18",
    "assistance": [True],
    "modules": {"weather": True},
    "ruleset": "classic-sisu",
    "dice": "shared",
    "name": "Mallory",
    "round_sha256": "ab" * 32,
}


@pytest.mark.parametrize("field", sorted(RELABEL))
def test_a_relabelled_card_in_its_cards_file_is_refused_naming_the_label(closed, field):
    card = alice(closed)
    card[field] = RELABEL[field] if field != "assistance" else [not flag for flag in card["assistance"]]
    report = verify_text(file_of([card] + closed.cards[1:], closed))
    assert [r.ok for r in report.results] == [False, True, True]
    assert report.results[0].line == f"❌ Alice (round 1 of Sunday Cup): its {field} is not the one published for " \
                                     "this round"
    assert "Mallory" not in "\n".join(report.lines) and "Grand Prix" not in "\n".join(report.lines)


def test_names_shown_are_the_published_results_not_the_cards(closed):
    """A file whose results were edited along with the cards no longer hashes to its digest."""
    document = json.loads(closed.text)
    document["results"][0]["name"] = document["cards"][0]["name"] = "Mallory"
    report = verify_text(json.dumps(document))
    assert not report.ok
    assert report.lines == ["❌ The file's round and results do not hash to its round_sha256: they were altered."]
    document["round"]["league"] = "Grand Prix Cup"  # the header too: still refused, before any card is read
    assert verify_text(json.dumps(document)).lines == report.lines


def test_a_card_alone_shows_only_what_its_replay_proves(closed):
    card = alice(closed)
    genuine = verify_card(card)
    for field, value in RELABEL.items():
        if field in ("ruleset", "modules", "assistance", "dice"):
            continue  # these change the run: the replay refuses them (the property below covers them)
        edited = dict(card, **{field: value})
        result = verify_card(edited)
        assert result.ok and result.line == genuine.line, field  # the label is not shown at all
    assert "Sunday Cup" not in genuine.line and "Alice" not in genuine.line


# --- the property ------------------------------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 10**6) | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=6)


def near(value: Any) -> st.SearchStrategy[Any]:
    """Edits close to a field's value: the kind a forger makes (a word changed, a number moved,
    one flag flipped, one entry dropped or changed)."""
    if isinstance(value, bool):
        return st.just(not value)
    if isinstance(value, int):
        return st.integers(value - 3, value + 3).filter(lambda v: v != value)
    if isinstance(value, str):
        return st.one_of(st.just(value.upper()), st.just(value + "x"), st.just(value[:-1]),
                         st.sampled_from(["Sunday Cup", "Grand Prix Cup", "Bob", "2026-W18", "shared", "personal",
                                          "classic", "classic-sisu", "1002", "pinewood-sprint", "black-moor"]))
    if isinstance(value, list) and value:
        return st.integers(0, len(value) - 1).flatmap(
            lambda i: st.one_of(st.just(value[:i] + value[i + 1:]),
                                near(value[i]).map(lambda v, i=i: value[:i] + [v] + value[i + 1:])))
    if isinstance(value, dict) and value:
        return st.sampled_from(sorted(value)).flatmap(
            lambda k: near(value[k]).map(lambda v, k=k: {**value, k: v}))
    return st.sampled_from([{"weather": True}, {"splits": True}, [True], ["black-moor"]])


MISSING = object()


@st.composite
def single_edits(draw, card: dict[str, Any]) -> tuple[str, Any]:
    field = draw(st.sampled_from(sorted(card)))
    value = draw(st.one_of(near(card[field]), JSON, st.just(MISSING)))
    return field, value


def edited(card: dict[str, Any], field: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(card)
    if value is MISSING:
        del out[field]
    else:
        out[field] = value
    return out


# The words a refusal uses for each field (the replay names an action, a stage, the seed...).
NAMED = {"actions": ("action", "the replay gives"), "claimed": ("claim",), "specials": ("special", "stage"),
         "stage_sha256": ("stage_sha256", "stage driven"), "seed": ("seed",), "seed_sha256": ("seed",),
         "driver": ("driver",)}


def names_the_field(reason: str, field: str) -> bool:
    return any(word in reason for word in NAMED.get(field, (field,)))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_single_field_edit_is_refused_naming_the_field_or_changes_nothing_shown(closed, data):
    card = alice(closed)
    field, value = data.draw(single_edits(card))
    changed = edited(card, field, value)
    if changed == card:
        return
    genuine = verify_text(closed.text)
    report = verify_text(file_of([changed] + closed.cards[1:], closed))  # in its round's cards file
    first = report.results[0]
    if first.ok:
        assert report.lines == genuine.lines, (field, value)
    else:
        assert names_the_field(first.reason or "", field), (field, value, first.line)
        if field != "driver":  # a card claiming Bob's run rejects Bob's too: which one is his cannot be told
            assert report.lines[1:3] == genuine.lines[1:3]  # the other cards: unchanged verdicts
    alone, alone_genuine = verify_card(changed), verify_card(card)  # and the card alone
    if alone.ok:
        assert alone.line == alone_genuine.line, (field, value)
    else:
        assert names_the_field(alone.reason or "", field), (field, value, alone.line)
