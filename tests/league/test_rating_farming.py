"""Ratings a host cannot farm, on both backends: a rally abandoned once running is
rated as it stood, the host who abandoned it last, so abandoning every rally one is losing is
never better than playing them out; a driver the host kicks out of a running rally is not rated
in it (no DNF to hand a rival) and the host who kicked ranks last, so kicking the rival one is
losing to is no better either; a driver retired by missed deadlines is rated; `db ratings
--rebuild` reads abandoned and kicked rallies the same way.

Driven through the real services with the toy game (Dice Dash, tests/toy_game)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.services import Actor, Place
from bot.services.career.rating_sources import placed
from bot.services.career.ratings import display_rating, rebuild_tx
from bot.store.ratings import all_history_tx, all_ratings_tx, events_tx
from tests.league.conftest import deliver
from tests.league.league_helpers import ALICE, BOB, CAROL, DAVE, LEAGUE_CHANNEL
from tests.league.test_ratings import TOY, toy_service  # noqa: F401  (the fixture, for these tests)
from tests.toy_game.conftest import toy  # noqa: F401  (the toy game, registered for these tests)

HONEST = Place(guild_id=LEAGUE_CHANNEL.guild_id, channel_id=41)
CHERRY = Place(guild_id=LEAGUE_CHANNEL.guild_id, channel_id=42)
RALLIES = 30


async def dash_rally(service, toy, place: Place, host: Actor, rival: Actor, when_losing: str | None  # noqa: F811
                     ) -> bool:
    """A two-driver Dice Dash in `place`, both driven by the toy's AI; as soon as the rival has
    more points the host `abandon`s the rally, or `kick`s the rival and drives on alone (None:
    plays it out). Whether the host did."""
    await service.create(place, host, "dash-3", drivers="2", game=TOY)
    await service.join(place, host)
    await service.join(place, rival)
    await service.start(place, host)
    by_seat = {str(host.user_id): host, str(rival.user_id): rival}
    escaped = False
    for _ in range(400):
        rally = await service.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
        if rally is None:
            return escaped
        state = service.work.state_of(rally)
        if not escaped and when_losing and state.points[str(rival.user_id)] > state.points[str(host.user_id)]:
            escaped = True
            if when_losing == "abandon":
                await service.abandon(place, host)
                return True
            await service.kick(place, host, rival.user_id, rival.name)
            continue
        (seat,) = toy.rules.to_act(state)
        await service.act(place, by_seat[seat], toy.coach.choose(toy.rules.view(state, seat), seat).kind)
    raise AssertionError("the dash did not end")


async def rating_of(store, user_id: int) -> int:
    (rating,) = [r for r in await store.db.read(all_ratings_tx) if r.game == TOY and r.user_id == user_id]
    return display_rating(rating.mu, rating.sigma)


@pytest.mark.parametrize("escape", ["abandon", "kick"])
async def test_escaping_every_rally_one_is_losing_is_never_better_than_playing_it_out(toy_service, store,  # noqa: F811
                                                                                     toy, escape):  # noqa: F811
    """The same 30 rallies (the same dice, the same choices) twice: Alice plays each to its end
    against Bob; Carol abandons each (or kicks Dave out of it) as soon as Dave leads. Carol's
    escapes are rated as losses (she ranks last), so her rating is no higher than Alice's; a
    rebuild gives the same values."""
    abandoned = 0
    for n in range(RALLIES):
        toy_service.lobby.seed_source = lambda n=n: 1000 + n  # both rallies of the pair: one seed
        assert not await dash_rally(toy_service, toy, HONEST, ALICE, BOB, None)
        abandoned += await dash_rally(toy_service, toy, CHERRY, CAROL, DAVE, escape)
    assert 0 < abandoned < RALLIES  # the test covers both: rallies played out and rallies abandoned
    assert len(await store.db.read(lambda tx: events_tx(tx, TOY))) == 2 * RALLIES  # every rally is rated
    honest, cherry = await rating_of(store, ALICE.user_id), await rating_of(store, CAROL.user_id)
    assert cherry <= honest, (cherry, honest)
    if escape == "abandon":  # the rival's wins count as wins
        assert await rating_of(store, DAVE.user_id) >= await rating_of(store, BOB.user_id)
    else:  # a kicked rival is not rated in that rally: neither a win nor a DNF
        dave = [r for r in await store.db.read(all_ratings_tx) if r.user_id == DAVE.user_id]
        assert [r.events for r in dave] == [RALLIES - abandoned]
    abandoners = {h.rank for h in await store.db.read(all_history_tx) if h.user_id == CAROL.user_id}
    assert 2 in abandoners  # an escape ranks its host last
    played = (await store.db.read(all_ratings_tx), await store.db.read(all_history_tx))
    await store.db.write(rebuild_tx)
    assert (await store.db.read(all_ratings_tx), await store.db.read(all_history_tx)) == played


def test_the_driver_who_abandoned_ranks_after_everyone_the_others_by_their_standing():
    match = placed([(11, "Ann", (1,)), (12, "Ben", (2,)), (13, "Cy", None), (-1, "🤖 Ada", (3,))], last={11})
    assert [(p.user_id, p.rank) for p in match] == [(12, 1), (-1, 2), (13, 3), (11, 4)]
    assert placed([(11, "Ann", (1,)), (12, "Ben", (1,))])[1].rank == 1  # no quitter: as placed
    kicked = placed([(11, "Ann", (2,)), (12, "Ben", None)], last={11}, fixed={12})  # Ann kicked Ben out
    assert [(p.user_id, p.rank, p.ai) for p in kicked] == [(12, 1, True), (11, 2, False)]
    assert placed([(11, "Ann", (1,)), (12, "Ben", None)], fixed={11, 12}) == []  # nobody left to rate


async def test_a_host_who_abandons_while_leading_still_ranks_last(toy_service, store, toy):  # noqa: F811
    place = Place(LEAGUE_CHANNEL.guild_id, 43)
    await toy_service.create(place, ALICE, "dash-3", drivers="2", game=TOY)
    await toy_service.join(place, ALICE)
    await toy_service.join(place, BOB)
    await toy_service.start(place, ALICE)
    by_seat = {str(d.user_id): d for d in (ALICE, BOB)}
    for _ in range(400):
        rally = await store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
        state = toy_service.work.state_of(rally)
        if state.points[str(ALICE.user_id)] > state.points[str(BOB.user_id)]:
            break
        (seat,) = toy.rules.to_act(state)
        await toy_service.act(place, by_seat[seat], toy.coach.choose(toy.rules.view(state, seat), seat).kind)
    else:
        raise AssertionError("Alice never led")
    await toy_service.abandon(place, ALICE)
    assert {h.user_id: h.rank for h in await store.db.read(all_history_tx)} == {BOB.user_id: 1, ALICE.user_id: 2}


async def test_a_rally_abandoned_in_its_lobby_rates_nobody(toy_service, store):  # noqa: F811
    place = Place(LEAGUE_CHANNEL.guild_id, 44)
    await toy_service.create(place, ALICE, "dash-3", drivers="2", game=TOY)
    await toy_service.join(place, ALICE)
    await toy_service.join(place, BOB)
    await toy_service.abandon(place, ALICE)
    assert await store.db.read(lambda tx: events_tx(tx, TOY)) == []
    assert await store.db.read(all_ratings_tx) == []


async def drive_until_over(service, toy, store, place, by_seat, skip=None, clock=None,  # noqa: F811
                           deadlines=None, posts=None, before=None) -> None:
    """Both seats driven by the toy's AI until the rally ends; `skip`'s turns are left to run out
    (the deadline passes); `before(state)` is called before each move (it may act itself: then
    it returns True)."""
    for _ in range(400):
        rally = await service.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
        if rally is None:
            return
        state = service.work.state_of(rally)
        if before is not None and await before(state):
            continue
        (seat,) = toy.rules.to_act(state)
        if seat == skip:
            await deliver(service, posts)  # the turn is posted: its deadline runs from then
            clock.now += timedelta(hours=1, minutes=1)
            await deadlines.run_due()
            continue
        await service.act(place, by_seat[seat], toy.coach.choose(toy.rules.view(state, seat), seat).kind)
    raise AssertionError("the dash did not end")


async def start_dash(service, place, **options) -> dict[str, Actor]:
    await service.create(place, ALICE, "dash-3", drivers="2", game=TOY, **options)
    for driver in (ALICE, BOB):
        await service.join(place, driver)
    await service.start(place, ALICE)
    return {str(d.user_id): d for d in (ALICE, BOB)}


async def test_a_driver_kicked_mid_rally_gets_no_dnf_and_the_kicker_ranks_last(toy_service, store, toy):  # noqa: F811
    """Alice kicks Bob out in the second round and drives on alone to the end: no rating for Bob
    (no DNF handed to him); Alice ranks last, behind Bob as a fixed-strength opponent."""
    place = Place(LEAGUE_CHANNEL.guild_id, 45)
    by_seat = await start_dash(toy_service, place)
    kicked = []

    async def kick_in_round_two(state) -> bool:
        if kicked or state.round < 2:
            return False
        await toy_service.kick(place, Actor(ALICE.user_id, ALICE.name), BOB.user_id, BOB.name)
        kicked.append(BOB.user_id)
        return True

    await drive_until_over(toy_service, toy, store, place, by_seat, before=kick_in_round_two)
    assert kicked
    (rally,) = await store.rallies.finished_in_channel(place.guild_id, place.channel_id, 1)
    assert str(BOB.user_id) in toy_service.work.state_of(rally).out  # the game retired his car
    assert {h.user_id: h.rank for h in await store.db.read(all_history_tx)} == {ALICE.user_id: 2}
    (alice,) = await store.db.read(all_ratings_tx)
    assert alice.user_id == ALICE.user_id and alice.mu < 25  # a loss


async def test_a_driver_retired_by_missed_deadlines_is_rated_last(toy_service, store, toy, clock, deadlines,  # noqa: F811
                                                                  posts):
    place = Place(LEAGUE_CHANNEL.guild_id, 46)
    by_seat = await start_dash(toy_service, place, deadline_hours=1, ai_on_timeout=False)
    await drive_until_over(toy_service, toy, store, place, by_seat, skip=str(BOB.user_id), clock=clock,
                           deadlines=deadlines, posts=posts)
    (rally,) = await store.rallies.finished_in_channel(place.guild_id, place.channel_id, 1)
    assert str(BOB.user_id) in toy_service.work.state_of(rally).out
    history = await store.db.read(all_history_tx)
    assert {h.user_id: h.rank for h in history} == {ALICE.user_id: 1, BOB.user_id: 2}
    played = (await store.db.read(all_ratings_tx), history)
    await store.db.write(rebuild_tx)
    assert (await store.db.read(all_ratings_tx), await store.db.read(all_history_tx)) == played
