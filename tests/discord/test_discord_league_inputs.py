"""What organisers type in Discord, through the REAL command tree.

A league name differing only by case is taken and found; a reason hiding a bidi override is
refused privately, naming the character's code point, with nothing posted; mentions in a posted
reason do not ping; time zone suggestions offer only the zones a league may have; a day that is
not one is refused even when a client sends it instead of a choice.
"""

from __future__ import annotations

import pytest

from bot.store.leagues import leagues_of_guild_tx, rounds_of_league_tx
from tests.discord.fakes import GUILD, Harness, channel_posts, command_payload, option, private_answers

MOD = (1004, "Mod")
ALICE = (1001, "Alice")
AS_MOD = {"manage": True}


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "league-inputs.sqlite3") as harness:
        yield harness


async def leagues(h: Harness) -> list:
    return await h.bot.store.db.read(lambda tx: leagues_of_guild_tx(tx, GUILD))


async def club_with_round(h: Harness) -> None:
    assert private_answers(await h.command(MOD, "league", "create", name="Club", timezone="Europe/Paris",
                                           payload=AS_MOD)) == []
    assert private_answers(await h.command(MOD, "league", "round add", stage="pinewood-sprint", opens="+1d",
                                           closes="+2d", payload=AS_MOD)) == []


async def test_a_league_name_differing_by_case_is_taken_and_found_however_typed(h):
    await club_with_round(h)
    before = await leagues(h)
    calls = await h.command(MOD, "league", "create", name="CLUB", timezone="UTC", payload=AS_MOD)
    assert private_answers(calls) == ["This server already has a league named **CLUB**: choose another name."]
    assert channel_posts(calls) == [] and await leagues(h) == before
    (call,) = await h.dispatch(command_payload(ALICE, "league", "join", [option("league", "CLU", focused=True)],
                                               autocomplete=True))
    assert [c["value"] for c in call.body["data"]["choices"]] == ["Club"]
    calls = await h.command(ALICE, "league", "join", league="cLuB")
    assert private_answers(calls) == [] and "Alice joined **Club**." in channel_posts(calls)[0].content


async def test_a_reason_hiding_a_bidi_override_is_refused_privately_without_echoing_it(h):
    await club_with_round(h)
    (league,) = await leagues(h)
    before = await h.bot.store.db.read(lambda tx: rounds_of_league_tx(tx, league.id))
    calls = await h.command(MOD, "league", "round cancel", round=1, reason="rain \u202eniar", payload=AS_MOD)
    (text,) = private_answers(calls)
    assert text == ("`reason` holds an invisible or control character (U+202E, character 6): write plain printable "
                    "text on one line (no line breaks, zero-width or text-direction characters).")
    assert channel_posts(calls) == []
    assert await h.bot.store.db.read(lambda tx: rounds_of_league_tx(tx, league.id)) == before
    calls = await h.command(MOD, "league", "round cancel", round=1, reason="pl\u200buie",
                            payload={**AS_MOD, "locale": "fr"})
    (text,) = private_answers(calls)
    assert "U+200B" in text and "caractère invisible" in text and "\u200b" not in text


async def test_mentions_in_a_posted_reason_never_ping(h):
    await club_with_round(h)
    calls = await h.command(MOD, "league", "round cancel", round=1, reason="@everyone <@1001> <@&1180000000000000777>",
                            payload=AS_MOD)
    (post,) = channel_posts(calls)
    assert "＠everyone <＠1001> <＠&1180000000000000777>" in post.content
    assert "@everyone" not in post.content and "<@1001>" not in post.content
    assert post.body["allowed_mentions"].get("parse") == []


async def test_time_zone_suggestions_offer_only_zones_a_league_may_have(h):
    for typed, unwanted in (("local", "localtime"), ("fact", "Factory"), ("est5", "EST5EDT"), ("us/", "US/Eastern")):
        (call,) = await h.dispatch(command_payload(MOD, "league", "create", [option("timezone", typed, focused=True)],
                                                   autocomplete=True))
        assert unwanted not in [c["value"] for c in call.body["data"]["choices"]]
    (call,) = await h.dispatch(command_payload(MOD, "league", "create", [option("timezone", "utc", focused=True)],
                                               autocomplete=True))
    assert [c["value"] for c in call.body["data"]["choices"]] == ["UTC"]
    calls = await h.command(MOD, "league", "create", name="Club", timezone="localtime", payload=AS_MOD)
    assert private_answers(calls)[0].startswith("'localtime' is not a time zone a league can have")
    assert await leagues(h) == []


async def test_a_day_a_client_sends_instead_of_a_choice_is_refused_with_the_days(h):
    await club_with_round(h)
    (league,) = await leagues(h)
    calls = await h.command(MOD, "league", "round add", stage="black-moor", day="monkey", hour=20, payload=AS_MOD)
    (text,) = private_answers(calls)
    assert "not 'monkey'" in text and "(Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday)" in text
    assert channel_posts(calls) == []
    assert len(await h.bot.store.db.read(lambda tx: rounds_of_league_tx(tx, league.id))) == 1
