"""A league names its organisers (its creator first): an organiser names another member
(`/league organisers add:`), and hands the league on (`add:` and `remove:` together, in one
step). Refused with nothing changed: a non-organiser, a bot, the last one named removed, one
named twice, one not named removed, the same member both ways, a role and members at once. Each
change is in the league log and the league's channel. On both backends (the `store` fixture)."""

from __future__ import annotations

import pytest

from bot.services.errors import ServiceError
from bot.services.league.leagues import Member
from bot.store.leagues import league_tx
from tests.league.league_helpers import ALICE, BOB, CAROL, LEAGUE_CHANNEL, ORGANISER
from tests.league.test_league_refusals import everything


def named(actor, bot=False) -> Member:
    return Member(actor.user_id, actor.name, bot)


async def organisers_of(store) -> tuple[int, ...]:
    league = await store.db.read(lambda tx: league_tx(tx, 1))
    return league.organisers


async def log_of(store) -> list[tuple]:
    return [tuple(r) for r in await store.db.fetch_all(
        "SELECT actor_id, action, target_id FROM league_log WHERE action LIKE 'organiser%' ORDER BY id")]


async def add_round(service, actor):
    return await service.championships.rounds.round_add(LEAGUE_CHANNEL, actor, "pinewood-sprint", opens="+1d",
                                                        closes="+3d")


@pytest.fixture
async def leagues(service):
    await service.championships.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "Europe/Paris")
    return service.championships.leagues


async def test_an_organiser_names_another_who_then_hands_the_league_on(service, store, leagues):
    assert await organisers_of(store) == (ORGANISER.user_id,)  # the creator
    with pytest.raises(ServiceError, match="Only the organisers"):
        await add_round(service, ALICE)
    reply = await leagues.organisers(LEAGUE_CHANNEL, ORGANISER, None, add=named(ALICE))
    assert "named Alice an organiser of **Sunday Cup**" in str(reply.lines[0])
    assert await organisers_of(store) == (ORGANISER.user_id, ALICE.user_id)
    await add_round(service, ALICE)  # no Manage Server, no role: named

    reply = await leagues.organisers(LEAGUE_CHANNEL, ALICE, None, add=named(BOB), remove=named(ALICE))
    assert [str(line) for line in reply.lines] == [
        f"👥 <@{ALICE.user_id}> named Bob an organiser of **Sunday Cup**.",
        f"👥 <@{ALICE.user_id}> took Alice off the organisers of **Sunday Cup**."]
    assert await organisers_of(store) == (ORGANISER.user_id, BOB.user_id)
    with pytest.raises(ServiceError, match="Only the organisers"):
        await add_round(service, ALICE)
    await add_round(service, BOB)
    assert await log_of(store) == [(ORGANISER.user_id, "organiser_add", ALICE.user_id),
                                   (ALICE.user_id, "organiser_add", BOB.user_id),
                                   (ALICE.user_id, "organiser_remove", ALICE.user_id)]


async def test_the_last_organiser_named_hands_on_but_never_leaves_nobody(service, store, leagues):
    before = await everything(store)
    with pytest.raises(ServiceError, match="last organiser Sunday Cup names"):
        await leagues.organisers(LEAGUE_CHANNEL, ORGANISER, None, remove=named(ORGANISER))
    assert await everything(store) == before
    await leagues.organisers(LEAGUE_CHANNEL, ORGANISER, None, add=named(CAROL), remove=named(ORGANISER))
    assert await organisers_of(store) == (CAROL.user_id,)
    before = await everything(store)
    with pytest.raises(ServiceError, match="last organiser"):
        await leagues.organisers(LEAGUE_CHANNEL, CAROL, None, remove=named(CAROL))
    assert await everything(store) == before


@pytest.mark.parametrize(("who", "add", "remove", "role", "refusal"), [
    (ALICE, CAROL, None, None, "Only the organisers of Sunday Cup"),  # not an organiser: not even for another
    (ALICE, ALICE, None, None, "Only the organisers of Sunday Cup"),  # nor for oneself
    (ORGANISER, "bot", None, None, "is a bot"),
    (ORGANISER, ORGANISER, None, None, "already an organiser"),
    (ORGANISER, None, BOB, None, "not among the organisers"),
    (ORGANISER, BOB, BOB, None, "cannot be added and removed at once"),
    (ORGANISER, BOB, None, 987654321987654321, "not both in one command"),
])
async def test_a_refused_change_of_organisers_changes_nothing(service, store, leagues, who, add, remove, role,
                                                              refusal):
    added = Member(999, "Robo", bot=True) if add == "bot" else (named(add) if add else None)
    before = await everything(store)
    with pytest.raises(ServiceError, match=refusal):
        await leagues.organisers(LEAGUE_CHANNEL, who, role, add=added, remove=named(remove) if remove else None)
    assert await everything(store) == before
