"""Careers, ratings, on both backends: OpenSkill ratings per game, applied in the
transaction of the result they come from (a finished live rally, a league round's close, a world
week's close), recomputable from the stored results (`db ratings --rebuild` gives identical
values), and `/ratings` per server or world without naming another server's private drivers.

The toy game (Dice Dash, tests/toy_game) is driven through the real services: quick, with solo
runs, league rounds and a world scratch of its own."""

from __future__ import annotations

import asyncio
import io
from datetime import timedelta

import pytest

from bot import games
from bot.__main__ import main as cli_main
from bot.console import Console
from bot.engine.core.official import week_bounds, week_of
from bot.engine.rallyman.ai import choose_action
from bot.services import Actor, Place, RallyService
from bot.services.career.rating_sources import placed
from bot.services.career.ratings import display_rating, rebuild_tx
from bot.services.errors import ServiceError
from bot.services.league.round_close import close_round
from bot.services.play.ai_drivers import is_ai
from bot.services.work import AI_PAUSE
from bot.store.clock import from_text
from bot.store.leagues import results_of_round_tx, rounds_of_league_tx
from bot.store.ratings import all_history_tx, all_ratings_tx, events_tx
from tests.league.conftest import deliver
from tests.league.league_helpers import ALICE, BOB, CAROL, DAVE, LEAGUE_CHANNEL, ORGANISER, dash, start_run, until
from tests.league.test_table_game_rounds import ENTRANTS, play, road_league, threads  # noqa: F401
from tests.toy_game.conftest import toy  # noqa: F401  (the toy game, registered for these tests)
from tests.toy_game.test_toy_end_to_end import play_to_the_end

TOY = "dicedash"
OTHER_SERVER = Place(guild_id=77, channel_id=70)  # another server, with a private league of its own
RALLY_CHANNEL = Place(guild_id=LEAGUE_CHANNEL.guild_id, channel_id=30)


async def ratings_now(store) -> dict[int, tuple[float, float, int]]:
    """user id → (mu, sigma, events) in the toy game."""
    rows = await store.db.read(all_ratings_tx)
    return {r.user_id: (r.mu, r.sigma, r.events) for r in rows if r.game == TOY}


async def outbox_count(store) -> int:
    row = await store.db.fetch_one("SELECT COUNT(*) FROM outbox")
    return int(row[0])


async def toy_league_round(service, deadlines, clock, posts, drivers, place=LEAGUE_CHANNEL, name="Dash Cup",
                           finish=None):
    """A toy league of `drivers` on `place`'s server, one round opened now; each driver in
    `finish` (default: all) drives their run to its end, the others start one and leave it
    running; then the round closes. Returns the round."""
    champs = service.championships
    organiser = Actor(ORGANISER.user_id, ORGANISER.name, can_manage=True)
    await champs.leagues.create(place, organiser, name, "UTC", game=TOY)
    for driver in drivers:
        await champs.leagues.join(place, driver)
    await champs.rounds.round_add(place, organiser, "dash-3", opens="now", closes="+2d")
    await deadlines.run_due()  # league.open
    leagues = await service.store.db.fetch_all("SELECT id FROM leagues WHERE guild_id = ? ORDER BY id DESC",
                                               (place.guild_id,))
    (rnd,) = [r for r in await service.store.db.read(lambda tx: rounds_of_league_tx(tx, int(leagues[0][0])))]
    for driver in drivers:
        thread = await start_run(service, driver, place)
        if finish is None or driver in finish:
            await dash(service, service.toy, driver, thread)
    await deliver(service, posts)
    await until(clock, deadlines, service, posts, from_text(rnd.closes_at) + timedelta(minutes=1))
    return rnd


async def live_dash(service, toy, place, first, second) -> int:  # noqa: F811
    """A live two-driver Dice Dash in `place`, played to its end by the toy's AI; the rally's id."""
    await service.create(place, first, "dash-3", drivers="2", game=TOY)
    await service.join(place, first)
    await service.join(place, second)
    await service.start(place, first)
    by_seat = {str(first.user_id): first, str(second.user_id): second}
    for _ in range(400):
        rally = await service.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
        if rally is None:
            (done,) = await service.store.rallies.finished_in_channel(place.guild_id, place.channel_id, 1)
            return done.id
        state = service.work.state_of(rally)
        (seat,) = toy.rules.to_act(state)
        await service.act(place, by_seat[seat], toy.coach.choose(toy.rules.view(state, seat), seat).kind)
    raise AssertionError("the dash did not end")


@pytest.fixture
def toy_service(service, toy):  # noqa: F811
    service.toy = toy
    return service


# -- who counts, and how ----------------------------------------------------------------------------

def test_ai_seats_stay_in_as_fixed_opponents_and_the_out_tie_last():
    match = placed([(-1, "🤖 Ada", (1,)), (11, "Ann", (2,)), (12, "Ben", None), (13, "Cy", (3,)),
                    (14, "Di", None)])
    assert [(p.user_id, p.rank, p.ai) for p in match] == [(-1, 1, True), (11, 2, False), (13, 3, False),
                                                          (12, 4, False), (14, 4, False)]
    alone = placed([(-1, "🤖 Ada", (2,)), (11, "Ann", (1,))])  # one person against the AI: rated
    assert [(p.user_id, p.rank, p.ai) for p in alone] == [(11, 1, False), (-1, 2, True)]
    assert placed([(-1, "🤖 Ada", (1,)), (-2, "🤖 Bo", (2,))]) == []  # no person: nothing to rate
    assert placed([(11, "Ann", (1,))]) == []  # one car: no match
    assert placed([(11, "Ann", (1,)), (12, "Ben", (1,))])[1].rank == 1  # equal results share a rank


def test_an_ai_opponent_is_always_at_the_starting_rating_and_never_rated():
    """Beating the AI twice moves a person twice as a beaten newcomer would, each time from the
    same AI: its rating is never stored nor changed."""
    from bot.services.career.ratings import MODEL, rate_matches

    won = placed([(11, "Ann", (1,)), (-1, "🤖 Ada", (2,))])
    first, history = rate_matches("rallyman", {}, [won], 1, "t")
    assert [r.user_id for r in first] == [11] and [h.user_id for h in history] == [11]
    second, _ = rate_matches("rallyman", {11: first[0]}, [won], 2, "t")
    newcomer = MODEL.rate([[MODEL.rating(mu=first[0].mu, sigma=first[0].sigma)], [MODEL.rating()]], ranks=[1, 2])
    assert (second[0].mu, second[0].sigma) == (float(newcomer[0][0].mu), float(newcomer[0][0].sigma))
    assert second[0].mu > first[0].mu > MODEL.mu


def test_the_displayed_rating_is_the_ordinal_scaled_a_new_driver_shows_1000():
    assert display_rating(25.0, 25 / 3) == 1000
    assert display_rating(30.0, 2.0) == 1000 + 40 * 24


# -- a live rally ---------------------------------------------------------------------------------

async def test_a_finished_live_rally_rates_its_drivers_once_winner_up_loser_down(toy_service, store, toy):  # noqa: F811
    rally_id = await live_dash(toy_service, toy, RALLY_CHANNEL, ALICE, BOB)
    (event,) = await store.db.read(lambda tx: events_tx(tx, TOY))
    assert (event.source, event.source_id) == ("rally", rally_id)
    history = await store.db.read(all_history_tx)
    ranks = {h.user_id: h.rank for h in history}
    rated = await ratings_now(store)
    assert set(rated) == {ALICE.user_id, BOB.user_id} and all(e == 1 for _, _, e in rated.values())
    assert ranks[ALICE.user_id] != ranks[BOB.user_id]  # this seed's dash has a winner
    winner, loser = sorted(ranks, key=ranks.get)
    assert rated[winner][0] > 25 > rated[loser][0]  # the winner's mu rises, the loser's falls
    assert all(sigma < 25 / 3 for _, sigma, _ in rated.values())  # both are better known now


# -- a league round ---------------------------------------------------------------------------------

async def test_a_closed_round_rates_by_its_results_and_a_not_finished_run_ranks_last(toy_service, store, clock,
                                                                                     deadlines, posts):
    rnd = await toy_league_round(toy_service, deadlines, clock, posts, (ALICE, BOB, CAROL), finish=(ALICE, BOB))
    results = await store.db.read(lambda tx: results_of_round_tx(tx, rnd.id))
    assert {r.user_id: r.status for r in results}[CAROL.user_id] == "dnf"
    (event,) = await store.db.read(lambda tx: events_tx(tx, TOY))
    assert (event.source, event.source_id) == ("round", rnd.id)
    rated = await ratings_now(store)
    ordinal = {u: mu - 3 * sigma for u, (mu, sigma, _) in rated.items()}
    position = {r.user_id: r.position for r in results}
    assert all(ordinal[CAROL.user_id] < ordinal[u] for u in (ALICE.user_id, BOB.user_id))  # DNF: last
    if position[ALICE.user_id] != position[BOB.user_id]:
        first, second = sorted((ALICE.user_id, BOB.user_id), key=lambda u: position[u])
        assert ordinal[first] > ordinal[second]


async def test_a_close_that_fails_leaves_the_ratings_unchanged_then_closes_once(toy_service, store, clock,
                                                                                deadlines, posts):
    champs = toy_service.championships
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Dash Cup", "UTC", game=TOY)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "dash-3", opens="now", closes="+2d")
    await deadlines.run_due()  # league.open
    for driver in (ALICE, BOB):
        await champs.leagues.join(LEAGUE_CHANNEL, driver)
        await dash(toy_service, toy_service.toy, driver, await start_run(toy_service, driver))
    (rnd,) = await store.db.read(lambda tx: rounds_of_league_tx(tx, 1))

    async def broken(tx):
        raise RuntimeError("the disk is full")

    clock.now = from_text(rnd.closes_at) + timedelta(minutes=1)
    with pytest.raises(RuntimeError):
        async with champs.locks(rnd.id):
            await close_round(toy_service.work, rnd.id, clock.now, [], broken)
    assert await ratings_now(store) == {}
    assert await store.db.read(lambda tx: events_tx(tx, TOY)) == []
    async with champs.locks(rnd.id):
        assert await close_round(toy_service.work, rnd.id, clock.now, [], lambda tx: _nothing()) == 1
        assert await close_round(toy_service.work, rnd.id, clock.now, [], lambda tx: _nothing()) == 0
    rated = await ratings_now(store)
    assert set(rated) == {ALICE.user_id, BOB.user_id} and all(e == 1 for _, _, e in rated.values())


async def _nothing() -> None:
    return None


async def test_a_disqualification_after_the_close_replays_the_ratings_as_a_rebuild_would(toy_service, store,
                                                                                          clock, deadlines, posts):
    first = await toy_league_round(toy_service, deadlines, clock, posts, (ALICE, BOB, CAROL))
    await live_dash(toy_service, toy_service.toy, RALLY_CHANNEL, ALICE, CAROL)  # a later event of the game
    results = await store.db.read(lambda tx: results_of_round_tx(tx, first.id))
    winner = min(results, key=lambda r: r.position or 99)
    before = await ratings_now(store)
    await toy_service.championships.stewarding.disqualify(LEAGUE_CHANNEL, ORGANISER, winner.user_id,
                                                          winner.display_name, "1", "wrong car")
    after = await ratings_now(store)
    mu_before, sigma_before, _ = before[winner.user_id]
    mu_after, sigma_after, _ = after[winner.user_id]
    assert mu_after - 3 * sigma_after < mu_before - 3 * sigma_before  # the round now ranks them last
    judged = (await store.db.read(all_ratings_tx), await store.db.read(all_history_tx))
    await store.db.write(rebuild_tx)
    assert (await store.db.read(all_ratings_tx), await store.db.read(all_history_tx)) == judged


# -- the world week, and a run counted once --------------------------------------------------------

async def test_the_world_week_rates_every_servers_official_runs_and_its_league_round_does_not_again(
        toy_service, store, clock, deadlines, posts):
    champs = toy_service.championships
    week = week_of(clock())
    for driver, place in ((ALICE, LEAGUE_CHANNEL), (BOB, OTHER_SERVER)):
        await champs.scratch.check_run(place, driver, TOY)
        thread = Place(place.guild_id, 950_000 + driver.user_id)
        await champs.scratch.start_run(place, driver, thread.channel_id, "Server", TOY)
        await dash(toy_service, toy_service.toy, driver, thread)
    # a league round on the week's official stage, answered by Alice's world run: not rated by itself
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Dash Cup", "UTC", game=TOY)
    await champs.leagues.join(LEAGUE_CHANNEL, ALICE)
    await champs.leagues.join(LEAGUE_CHANNEL, CAROL)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "official", opens="now", closes="+6h")
    await deadlines.run_due()
    await dash(toy_service, toy_service.toy, CAROL, await start_run(toy_service, CAROL))
    _, closes = week_bounds(week)
    await until(clock, deadlines, toy_service, posts, closes + timedelta(minutes=5))
    events = await store.db.read(lambda tx: events_tx(tx, TOY))
    assert [e.source for e in events] == ["week"]  # the league round (closed before) rated nobody
    rated = await ratings_now(store)
    assert set(rated) == {ALICE.user_id, BOB.user_id, CAROL.user_id}  # every official run, any server, once
    assert all(e == 1 for _, _, e in rated.values())


# -- rebuild ------------------------------------------------------------------------------------------

async def test_db_ratings_rebuild_gives_identical_values(toy_service, store, clock, deadlines, posts, db_target,
                                                         capsys):
    await toy_league_round(toy_service, deadlines, clock, posts, (ALICE, BOB, CAROL), finish=(ALICE, BOB))
    await live_dash(toy_service, toy_service.toy, RALLY_CHANNEL, BOB, CAROL)
    await live_dash(toy_service, toy_service.toy, RALLY_CHANNEL, CAROL, ALICE)
    await toy_league_round(toy_service, deadlines, clock, posts, (ALICE, BOB, CAROL), place=OTHER_SERVER,
                           name="Other Cup")
    played = (await store.db.read(all_ratings_tx), await store.db.read(all_history_tx))
    assert len(await store.db.read(lambda tx: events_tx(tx, TOY))) == 4
    assert sorted(r.events for r in played[0]) == [3, 3, 4]  # Carol drove all four, Alice and Bob three
    await store.db.write(lambda tx: tx.execute("UPDATE ratings SET mu = 0, sigma = 1, events = 0"))
    assert await store.db.read(all_ratings_tx) != played[0]
    if isinstance(db_target, str):  # PostgreSQL: the service's rebuild, in one transaction
        await store.db.write(rebuild_tx)
    else:  # SQLite: the command line itself, on the same file
        assert await asyncio.to_thread(cli_main, ["db", "ratings", "--rebuild", "--db", str(db_target)]) == 0
        out = capsys.readouterr().out
        assert "ratings rebuilt from 4 results" in out and "ratings of 1 games, 3 drivers" in out
    assert (await store.db.read(all_ratings_tx), await store.db.read(all_history_tx)) == played


# -- /ratings ---------------------------------------------------------------------------------------

async def test_a_servers_list_names_its_drivers_the_worlds_only_the_world_scratchs(toy_service, store, clock,
                                                                                    deadlines, posts):
    await live_dash(toy_service, toy_service.toy, RALLY_CHANNEL, ALICE, BOB)
    # Carol and Dave drive in another server's private league
    await toy_league_round(toy_service, deadlines, clock, posts, (CAROL, DAVE), place=OTHER_SERVER,
                           name="Private Cup")
    for driver, place in ((BOB, RALLY_CHANNEL), (CAROL, OTHER_SERVER)):  # on the world scratch: public
        await toy_service.championships.scratch.check_run(place, driver, TOY)
        thread = Place(place.guild_id, 960_000 + driver.user_id)
        await toy_service.championships.scratch.start_run(place, driver, thread.channel_id, "Server", TOY)
        await dash(toy_service, toy_service.toy, driver, thread)

    def text(reply) -> str:
        return "\n".join(str(line) for line in reply.lines)

    here = text(await toy_service.ratings.ratings(RALLY_CHANNEL, ALICE, TOY))
    assert "Alice" in here and "Bob" in here and "2 rated drivers" in here
    assert "Dave" not in here and "Carol" not in here and "Private Cup" not in here
    there = text(await toy_service.ratings.ratings(OTHER_SERVER, DAVE, TOY))
    assert "Carol" in there and "Dave" in there and "Alice" not in there and "Bob" not in there
    world = await toy_service.ratings.ratings(RALLY_CHANNEL, ALICE, TOY, "world")
    shown = text(world)
    assert "Bob" in shown and "Carol" in shown and "2 rated drivers" in shown and len(world.outbox) == 1
    assert "Alice" not in shown and "Dave" not in shown and "Private Cup" not in shown and "Server" not in shown
    # a channel without a rally or a league of its own: classic, which nobody here has a rating in
    with pytest.raises(ServiceError) as refused:
        await toy_service.ratings.ratings(Place(LEAGUE_CHANNEL.guild_id, 99), ALICE)
    assert refused.value.key == "ratings.none_here"


@pytest.mark.parametrize(("game", "scope", "key"), [
    ("tetris", None, "ratings.unknown_game"), ("<@1>" * 30, None, "ratings.unknown_game"),
    (TOY, "galaxy", "ratings.bad_scope"), (TOY, None, "ratings.none_here"), (TOY, "world", "ratings.none"),
])
async def test_bad_ratings_requests_are_refused_privately_and_change_nothing(toy_service, store, game, scope, key):
    before = (await outbox_count(store), await store.db.read(all_ratings_tx))
    with pytest.raises(ServiceError) as refused:
        await toy_service.ratings.ratings(RALLY_CHANNEL, ALICE, game, scope)
    assert refused.value.key == key
    assert (await outbox_count(store), await store.db.read(all_ratings_tx)) == before


async def test_ai_seats_are_not_rated_and_the_people_rank_as_the_classification_says(service, store, clock,
                                                                                      deadlines, posts):
    """Alice and Bob against an AI driver in a classic rally, as on Discord: only the two people
    are rated, ranked where the classification puts them (the AI a fixed opponent among them)."""
    await service.create(RALLY_CHANNEL, ALICE, "pinewood-sprint", drivers=3)
    await service.join(RALLY_CHANNEL, ALICE)
    await service.join(RALLY_CHANNEL, BOB)
    await service.add_ai(RALLY_CHANNEL, ALICE, 1, "bold")
    await service.start(RALLY_CHANNEL, ALICE)
    people = {ALICE.user_id: ALICE, BOB.user_id: BOB}
    for _ in range(600):
        await deliver(service, posts)
        rally = await store.rallies.get_active_in_channel(RALLY_CHANNEL.guild_id, RALLY_CHANNEL.channel_id)
        if rally is None:
            break
        state = service.work.state_of(rally)
        if is_ai(state.active.id):
            clock.now += AI_PAUSE
            await deadlines.run_due()
        else:
            await service.act(RALLY_CHANNEL, people[int(state.active.id)], str(choose_action(state)))
    (rally,) = await store.rallies.finished_in_channel(RALLY_CHANNEL.guild_id, RALLY_CHANNEL.channel_id, 1)
    outcome = games.get(rally.game).rules.outcome(games.get(rally.game).rules.from_json(rally.snapshot))
    assert any(is_ai(s.seat) for s in outcome.seats)
    placed_at = {int(s.seat): s.rank for s in outcome.seats if s.status == "finished"}
    history = await store.db.read(all_history_tx)
    assert {h.user_id for h in history} == {ALICE.user_id, BOB.user_id}  # no AI seat is rated
    rank = {h.user_id: h.rank for h in history}
    for person in (ALICE.user_id, BOB.user_id):  # the classification's place (all out: after every finisher)
        assert rank[person] == placed_at.get(person, len(placed_at) + 1)


async def test_ratings_in_the_console_as_typed(store, toy):  # noqa: F811
    """`/ratings` works in the console like every command: refused privately before any rating,
    then posted in the channel, the world's and the server's."""
    service = RallyService(store, seed_source=lambda: 5)
    out = io.StringIO()
    console = Console(service, out=out)
    await console.run_line("ann: /ratings dicedash")
    assert "Nobody who drove Dice Dash on this server has a rating yet" in out.getvalue()
    await console.run_line("ann: /rally create stage:dash-3 drivers:2 game:dicedash")
    for name in ("ann", "ben"):
        await console.run_line(f"{name}: /rally join")
    await console.run_line("ann: /rally start")
    await play_to_the_end(console, service, store, toy)
    mark = len(out.getvalue())
    await console.run_line("ann: /ratings")  # this channel's game: the dash just played
    await console.run_line("ben: /ratings game:dicedash scope:world")
    shown = out.getvalue()[mark:]
    assert "Ratings of this server in Dice Dash: 2 rated drivers" in shown
    assert "ann" in shown and "ben" in shown
    assert "World scratch" not in shown  # neither drove the world scratch: the world list refuses
    assert "Nobody of the Dice Dash world scratch ranking has a rating yet" in shown


async def test_a_table_game_round_rates_each_table_as_its_own_match_and_its_tables_not_as_rallies(
        service, store, deadlines, clock, posts, threads):  # noqa: F811
    rnd = await road_league(service, ENTRANTS[:6])  # two tables of three
    await until(clock, deadlines, service, posts, from_text(rnd.opens_at) + timedelta(minutes=1))
    for thread, _, _ in threads:
        await play(service, thread)
    assert await store.db.read(lambda tx: events_tx(tx, "roadrally")) == []  # a table is rated with its round
    await until(clock, deadlines, service, posts, from_text(rnd.closes_at) + timedelta(minutes=1))
    (event,) = await store.db.read(lambda tx: events_tx(tx, "roadrally"))
    assert (event.source, event.source_id) == ("round", rnd.id)
    history = {h.user_id: h.rank for h in await store.db.read(all_history_tx)}
    position = {r.user_id: r.position for r in await store.db.read(lambda tx: results_of_round_tx(tx, rnd.id))}
    assert set(history) == {a.user_id for a in ENTRANTS[:6]}
    assert history == position  # each driver's rank is their place in their own table
    for _, _, seated in threads:  # each table is a match of its own: ranks from 1 in each
        assert min(history[u] for u in seated) == 1
