"""Careers through the services, on both backends: stats written in the
transaction that ends a rally (numbers checked against the game's own record), achievements earned
and announced once, `/driver`'s card and its refusals, what another server may see, the rebuild."""

from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot import games
from bot.engine.core.game import UnknownGame
from bot.engine.core.text import from_json, msg
from bot.services import Actor, Place, RallyService
from bot.services.career.careers import career_rating, stats_of
from bot.services.career.ratings import display_rating
from bot.services.errors import ServiceError
from bot.services.images import PillowRenderer
from bot.services.play.deadlines import DeadlineService
from bot.services.work import AI_PAUSE
from bot.store.careers import earned_tx, results_tx
from bot.store.web import set_league_web_tx

HERE = Place(guild_id=10, channel_id=20)
ELSEWHERE = Place(guild_id=99, channel_id=990)
ALICE = Actor(1001, "Alice")
BOB = Actor(1002, "Bob")
CAROL = Actor(1003, "Carol")
START = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)
MESSAGE_IDS = itertools.count(1_300_000_000_000_000_000)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


class ThreadRenderer(PillowRenderer):
    """The real drawing, in the render thread (`draw_async` sends only the bot's own class to the
    worker processes): the test draws without starting a pool."""


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def service(store, clock):
    return RallyService(store, seed_source=lambda: 42, clock=clock)


async def play_to_end(service: RallyService, place: Place, clock: Clock, max_actions: int = 900) -> int:
    """Drive the rally of `place` to its end: each human seat types the game AI's choice, AI seats
    drive through their scheduled jobs. Returns the rally's id."""
    deadlines = DeadlineService(service.work, clock=clock)
    rally = await service.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
    assert rally is not None
    rally_id = rally.id
    for _ in range(max_actions):
        rally = await service.store.rallies.get(rally_id)
        if rally.status != "running":
            return rally_id
        game = games.get(rally.game)
        state = await service.turns.answered_state(rally)  # a window: with the answers kept so far
        seat = sorted(game.rules.to_act(state))[0]  # a window every seat answers: one after the other
        if int(seat) < 0:  # its clock starts once its prompt is delivered
            for out in await service.delivery.claim():
                await service.delivery.sent(out, next(MESSAGE_IDS))
            clock.now += AI_PAUSE * 2
            await deadlines.run_due()
            continue
        action = game.coach.choose(game.rules.view(state, seat), seat)
        await service.act(place, Actor(int(seat), f"u{seat}"), game.commands.label(action))
    raise AssertionError("the rally did not end")


async def live_rally(service, place=HERE, stage="pinewood-sprint", *actors, game=None) -> None:
    actors = actors or (BOB, ALICE)
    await service.create(place, actors[0], stage, drivers=len(actors), game=game)
    for a in actors:
        await service.join(place, a)
    await service.start(place, actors[0])


async def rows_of(store, user_id, game=None, viewer=None):
    return await store.db.read(lambda tx: results_tx(tx, user_id, game, viewer))


async def earned_of(store, user_id, viewer=None):
    return await store.db.read(lambda tx: earned_tx(tx, user_id, viewer))


async def career_tables(store):
    out = {}
    for table, keys in (("career_results", "rally_id, user_id"), ("career_achievements", "user_id, achievement")):
        out[table] = [tuple(r) for r in await store.db.fetch_all(f"SELECT * FROM {table} ORDER BY {keys}")]
    return out


async def earned_posts(store) -> list[tuple[int, str, str]]:
    """(channel, achievement key, driver) of every achievement announced through the outbox."""
    import json

    rows = await store.db.fetch_all("SELECT channel_id, body FROM outbox ORDER BY id")
    found = []
    for channel, body in rows:
        for line in json.loads(body)["lines"]:
            if isinstance(line, dict) and line.get("key") == "career.earned":
                found.append((int(channel), line["params"]["achievement"]["key"], line["params"]["name"]))
    return found


# -- stats ------------------------------------------------------------------------------------------------

async def test_a_finished_rally_writes_each_drivers_stats_matching_the_games_own_record(service, store, clock):
    await live_rally(service)
    rally_id = await play_to_end(service, HERE, clock)
    rally = await store.rallies.get(rally_id)
    game = games.get(rally.game)
    state = game.rules.from_json(rally.snapshot)
    outcome = game.rules.outcome(state)
    assert outcome is not None
    by_seat = {r.seat: r for r in outcome.seats}
    winner = min(r.score for r in outcome.seats if r.score is not None)
    for actor in (ALICE, BOB):
        (row,) = await rows_of(store, actor.user_id)
        car = next(c for c in state.cars if c.id == str(actor.user_id))
        # the chrono pile is the game's own record of every turn's end (A6.4, A11, A15)
        gears = [c.gear for c in car.pile if c.kind == "gear"]
        for gear in range(1, 6):
            assert row.counters.get(f"gear.{gear}", 0) == gears.count(gear)
        assert row.counters["losses"] == sum(c.kind == "loc" for c in car.pile)
        assert row.counters["top"] == gears.count(5)
        assert row.counters["stages"] == 1
        assert row.counters["turns"] >= len(car.pile) - sum(c.kind == "spare" for c in car.pile)
        result = by_seat[str(actor.user_id)]
        assert (row.status, row.place, row.score) == ("finished", result.rank, result.score)
        assert row.gap == result.score - winner
        assert (row.game, row.guild_id, row.stage, row.seats, row.rally_id) == ("rallyman", 10, "pinewood-sprint", 2,
                                                                                rally_id)
    stats = stats_of(await rows_of(store, ALICE.user_id))
    assert stats["rallies"] == 1 and stats["dnfs"] == 0
    assert stats["wins"] == int(by_seat[str(ALICE.user_id)].rank == 1)


async def test_road_rally_and_dirt_careers_match_their_games_own_record(service, store, clock):
    await live_rally(service, HERE, None, BOB, ALICE, CAROL, game="roadrally")
    rally = await store.rallies.get(await play_to_end(service, HERE, clock))
    state = games.get("roadrally").rules.from_json(rally.snapshot).state  # the game's own state in its table
    for seat in state.seats:  # the stage cards each seat scored (C6.4): the game's own count
        (row,) = await rows_of(store, int(seat.id), "roadrally")
        assert row.counters.get("stages", 0) == seat.scored_cards
        assert row.counters["turns"] > 0 and not any(k.startswith("gear.") or k == "losses" for k in row.counters)
        assert row.unit == "vp" and row.seats == 3
    stats = stats_of(await rows_of(store, ALICE.user_id, "roadrally"))
    assert stats["losses_per_100"] is None and stats["favourite_gear"] is None  # no such facts in this game

    dirt = games.get("dirt")
    await live_rally(service, HERE, dirt.library.stages.names()[0], BOB, ALICE, game="dirt")
    rally = await store.rallies.get(await play_to_end(service, HERE, clock))
    outcome = dirt.rules.outcome(dirt.rules.from_json(rally.snapshot))
    assert outcome is not None
    for result in outcome.seats:
        (row,) = await rows_of(store, int(result.seat), "dirt")
        assert row.counters.get("stages", 0) == (1 if result.status == "finished" else 0)
        assert (row.place, row.score) == ((result.rank, result.score) if result.status == "finished" else (None, None))
        assert "losses" in row.counters and row.counters["top"] <= row.counters["turns"]


async def test_an_ai_seat_has_no_career(service, store, clock):
    await service.create(HERE, ALICE, "pinewood-sprint", drivers=2)
    await service.join(HERE, ALICE)
    await service.add_ai(HERE, ALICE, 1, "bold")
    await service.start(HERE, ALICE)
    rally_id = await play_to_end(service, HERE, clock)
    users = [r[0] for r in await store.db.fetch_all("SELECT user_id FROM career_results WHERE rally_id = ?",
                                                    (rally_id,))]
    assert users == [ALICE.user_id]


async def test_a_driver_who_left_the_lobby_before_the_start_has_no_career_row(service, store, clock):
    await service.create(HERE, BOB, "pinewood-sprint", drivers=3)
    for a in (BOB, ALICE, CAROL):
        await service.join(HERE, a)
    await service.leave(HERE, CAROL)
    await service.start(HERE, BOB)
    rally_id = await play_to_end(service, HERE, clock)
    rows = await store.db.fetch_all("SELECT user_id, seats FROM career_results WHERE rally_id = ? ORDER BY user_id",
                                    (rally_id,))
    assert [tuple(r) for r in rows] == [(ALICE.user_id, 2), (BOB.user_id, 2)]


async def test_a_host_abandoning_a_live_rally_counts_for_nobody(service, store, clock):
    await live_rally(service)
    await service.act(HERE, BOB, "1")
    await service.abandon(HERE, BOB)
    assert (await career_tables(store))["career_results"] == []


async def test_the_rebuild_writes_the_very_same_rows_from_the_logs(service, store, clock):
    await live_rally(service)
    await play_to_end(service, HERE, clock)
    await live_rally(service, HERE, "frozen-lakes", ALICE, BOB, CAROL)
    await play_to_end(service, HERE, clock)
    before = await career_tables(store)
    assert len(before["career_results"]) == 5
    assert await service.careers.rebuild() == 5
    assert await career_tables(store) == before


# -- achievements ---------------------------------------------------------------------------------------

async def test_achievements_are_earned_once_and_announced_once_where_they_happened(service, store, clock):
    await live_rally(service)
    first = await play_to_end(service, HERE, clock)
    after_one = await earned_posts(store)
    earned = await earned_of(store, ALICE.user_id)
    assert "first_finish" in {e.achievement for e in earned}
    assert all(e.rally_id == first and e.guild_id == HERE.guild_id for e in earned)
    assert ((HERE.channel_id, "career.ach_first_finish", "Alice") in after_one)
    assert len(after_one) == len(set(after_one))  # one post per driver and achievement

    await live_rally(service)  # the same again: nothing earned twice, nothing announced twice
    await play_to_end(service, HERE, clock)
    after_two = await earned_posts(store)
    assert after_two[:len(after_one)] == after_one
    again = [p for p in after_two[len(after_one):] if p in after_one]
    assert again == []
    assert len({e.achievement for e in await earned_of(store, ALICE.user_id)}) == \
        len(await earned_of(store, ALICE.user_id))
    rows = await store.db.fetch_all("SELECT user_id, achievement, COUNT(*) FROM career_achievements "
                                    "GROUP BY user_id, achievement")
    assert all(int(r[2]) == 1 for r in rows)


# -- /driver ----------------------------------------------------------------------------------------------

async def test_driver_answers_a_career_card_image_privately(service, store, clock):
    await live_rally(service)
    await play_to_end(service, HERE, clock)
    before = await career_tables(store)
    reply = await service.careers.driver(HERE, BOB, ALICE.user_id, "Alice", None, "de", ThreadRenderer())
    assert reply.ephemeral and reply.outbox == ()
    assert "Alice" in reply.text
    (name, png), = reply.files
    assert name == "career.png"
    from io import BytesIO

    from PIL import Image

    image = Image.open(BytesIO(png)).convert("RGB")
    assert image.width == 1080 and 1000 < image.height < 2400
    assert len(image.resize((60, 100)).getcolors(maxcolors=6000) or ()) > 20  # drawn, not blank
    assert await career_tables(store) == before


async def test_driver_on_someone_without_history_is_refused_and_changes_nothing(service, store, clock):
    await live_rally(service)
    await play_to_end(service, HERE, clock)
    before = await career_tables(store)
    with pytest.raises(ServiceError) as refused:
        await service.careers.driver(HERE, ALICE, CAROL.user_id, "Carol", None, "en", None)
    assert refused.value.key == "career.no_history" and "Carol" in str(refused.value)
    with pytest.raises(ServiceError) as other_game:
        await service.careers.driver(HERE, ALICE, None, None, "dirt", "en", None)
    assert other_game.value.key == "career.no_history_game"
    with pytest.raises(UnknownGame):
        await service.careers.driver(HERE, ALICE, None, None, "chess<script>", "en", None)
    assert await career_tables(store) == before


async def test_another_servers_private_rallies_stay_out_of_the_card_until_public(service, store, clock):
    await live_rally(service, HERE)
    here_rally = await play_to_end(service, HERE, clock)
    league = await service.championships.leagues.create(ELSEWHERE, Actor(5, "Org", can_manage=True), "Secret Cup",
                                                        "UTC")
    assert league is not None
    await live_rally(service, ELSEWHERE)  # in the channel of another server's (private) league
    there_rally = await play_to_end(service, ELSEWHERE, clock)

    seen_here = {r.rally_id for r in await rows_of(store, ALICE.user_id, viewer=HERE.guild_id)}
    seen_there = {r.rally_id for r in await rows_of(store, ALICE.user_id, viewer=ELSEWHERE.guild_id)}
    assert seen_here == {here_rally}
    assert seen_there == {there_rally}
    assert {e.rally_id for e in await earned_of(store, ALICE.user_id, HERE.guild_id)} <= {here_rally}
    reply = await service.careers.driver(HERE, BOB, ALICE.user_id, "Alice", None, "en", None)
    assert "(rallies: 1," in reply.text
    own = await service.careers.driver(HERE, ALICE, None, None, None, "en", None)  # her own, to her alone
    assert "(rallies: 2," in own.text

    (league_id,) = [int(r[0]) for r in await store.db.fetch_all("SELECT id FROM leagues WHERE guild_id = ?",
                                                                  (ELSEWHERE.guild_id,))]
    await store.db.write(lambda tx: set_league_web_tx(tx, league_id, True))  # `/league web public`
    seen_here = {r.rally_id for r in await rows_of(store, ALICE.user_id, viewer=HERE.guild_id)}
    assert seen_here == {here_rally, there_rally}


async def test_the_card_shows_the_ratings_stores_rating_and_trend_only_where_a_list_may_name_the_driver(
        service, store, clock):
    """The card's rating is the one `/ratings` shows, its trend the shown rating after
    each rated rally; seen from a server the driver never drove in (and not in a world ranking), no
    rating: it may come from a private league elsewhere."""
    assert await store.db.read(lambda tx: career_rating(tx, "rallyman", ALICE.user_id)) == (None, [])
    await live_rally(service)
    await play_to_end(service, HERE, clock)
    await live_rally(service)
    await play_to_end(service, HERE, clock)
    row = await store.db.fetch_one("SELECT mu, sigma FROM ratings WHERE game = 'rallyman' AND user_id = ?",
                                   (ALICE.user_id,))
    history = await store.db.fetch_all("SELECT mu, sigma FROM rating_history WHERE game = 'rallyman' AND user_id = ? "
                                       "ORDER BY event_id", (ALICE.user_id,))
    shown, trend = await store.db.read(lambda tx: career_rating(tx, "rallyman", ALICE.user_id))
    assert shown == display_rating(row[0], row[1]) and len(trend) == len(history) == 2
    assert trend == [float(display_rating(h[0], h[1])) for h in history] and trend[-1] == shown
    here = await store.db.read(lambda tx: career_rating(tx, "rallyman", ALICE.user_id, HERE.guild_id))
    elsewhere = await store.db.read(lambda tx: career_rating(tx, "rallyman", ALICE.user_id, ELSEWHERE.guild_id))
    assert here == (shown, trend) and elsewhere == (None, [])


async def test_a_league_run_of_another_server_shows_once_its_public_round_is_closed(service, store, clock):
    from datetime import timedelta

    from tests.league.league_helpers import drive, start_run

    organiser = Actor(5, "Org", can_manage=True)
    champs = service.championships
    await champs.leagues.create(ELSEWHERE, organiser, "Far Cup", "UTC")
    await champs.leagues.join(ELSEWHERE, ALICE)
    await champs.rounds.round_add(ELSEWHERE, organiser, "pinewood-sprint", opens="now", closes="+2d")
    deadlines = DeadlineService(service.work, clock=clock)
    await deadlines.run_due()
    thread = await start_run(service, ALICE, ELSEWHERE)
    await drive(service, ALICE, thread)
    (row,) = await rows_of(store, ALICE.user_id)
    assert row.seats == 1 and row.place in (1, None)  # a run is alone in its rally: never a "win"
    (league_id,) = [int(r[0]) for r in await store.db.fetch_all("SELECT id FROM leagues")]
    await store.db.write(lambda tx: set_league_web_tx(tx, league_id, True))
    assert await rows_of(store, ALICE.user_id, viewer=HERE.guild_id) == []  # public, but its round is open
    with pytest.raises(ServiceError):
        await service.careers.driver(HERE, BOB, ALICE.user_id, "Alice", None, "en", None)
    clock.now += timedelta(days=3)
    await deadlines.run_due()  # the close
    assert [r.rally_id for r in await rows_of(store, ALICE.user_id, viewer=HERE.guild_id)] == [row.rally_id]


async def test_an_abandoned_run_is_its_drivers_dnf(service, store, clock):
    from tests.league.league_helpers import start_run

    organiser = Actor(5, "Org", can_manage=True)
    champs = service.championships
    await champs.leagues.create(HERE, organiser, "Home Cup", "UTC")
    await champs.leagues.join(HERE, ALICE)
    await champs.rounds.round_add(HERE, organiser, "pinewood-sprint", opens="now", closes="+2d")
    await DeadlineService(service.work, clock=clock).run_due()
    thread = await start_run(service, ALICE, HERE)
    await service.act(thread, ALICE, "1")
    await service.abandon(thread, ALICE)  # a run abandoned is a DNF, never a restart
    (row,) = await rows_of(store, ALICE.user_id)
    assert (row.status, row.place, row.score, row.seats) == ("dnf", None, None, 1)
    assert row.counters["turns"] >= 1
    assert stats_of([row])["dnfs"] == 1


# -- every special, every game's own statistics, the reader's words -------------------------------------

async def test_a_rally_of_several_specials_gives_a_personal_best_on_each(service, store, clock):
    """The README's solo example (a course of two specials with AI opponents): before, `/driver`
    showed "None yet" under the personal bests."""
    await service.create(HERE, ALICE, "pinewood-sprint, black-moor", drivers=3)
    await service.join(HERE, ALICE)
    await service.add_ai(HERE, ALICE, 2, "bold")
    await service.start(HERE, ALICE)
    rally_id = await play_to_end(service, HERE, clock)
    (row,) = await rows_of(store, ALICE.user_id)
    rally = await store.rallies.get(rally_id)
    state = games.get("rallyman").rules.from_json(rally.snapshot)
    from bot.engine.rallyman.rally_classification import rally_classification

    (mine,) = [r for r in rally_classification(state.course) if r.driver == str(ALICE.user_id)]
    crossed = [(stage, t) for stage, t in zip(("pinewood-sprint", "black-moor"), mine.times) if t is not None]
    assert row.stage is None and row.specials == tuple(crossed) and crossed  # the game's own times, each special
    assert stats_of([row])["bests"] == dict(crossed)
    from bot.services.career.careers import card_data

    card = card_data("Alice", games.get("rallyman"), [row], [], (), None, [])
    assert len(card["bests"]) == len(crossed)


def test_a_podium_is_a_top_three_place_ahead_of_a_car_ai_seats_counting_as_cars():
    """Decided: Alice third of three (two AI cars) is last, not on the podium — the rule the
    podium achievement states ("ahead of at least one car"); third of four is."""
    from bot.services.career.careers import podium
    from bot.store.careers import CareerResult

    def third_of(seats):
        return CareerResult(1, ALICE.user_id, "rallyman", 10, "pinewood-sprint", seats, "finished", 3, 300, "s", 20,
                            False, {}, "2026-11-23T08:00:00Z")

    assert not podium(third_of(3)) and podium(third_of(4))


async def test_a_road_rally_card_shows_only_its_statistics_and_finisher_only_for_a_finish(service, store, clock):
    from bot.i18n import render
    from bot.services.career.careers import card_data, finished

    await live_rally(service, HERE, None, BOB, ALICE, CAROL, game="roadrally")
    rally = await store.rallies.get(await play_to_end(service, HERE, clock))
    state = games.get("roadrally").rules.from_json(rally.snapshot).state
    for seat in state.seats:
        (row,) = await rows_of(store, int(seat.id), "roadrally")
        assert finished(row) == (seat.mark is not None and not seat.retired)  # its classification's "finished"
        assert row.counters["crossed"] == int(seat.mark is not None)
        earned = {e.achievement for e in await earned_of(store, int(seat.id))}
        assert ("first_finish" in earned) == finished(row)
    (row,) = await rows_of(store, ALICE.user_id, "roadrally")
    card = card_data("Alice", games.get("roadrally"), [row], [], (), None, [])
    labels = [render(from_json(label), "en") for label, _ in card["stats"]]
    assert "Favourite gear" not in labels and "Losses of control per 100 turns" not in labels
    classic = card_data("Alice", games.get("rallyman"), [], [], (), None, [])
    assert classic["stats"] and all(render(from_json(label), "en") != "Favourite gear" for label, _ in classic["stats"])


def test_the_card_writes_numbers_plurals_and_names_the_readers_way():
    from bot.i18n import render, t
    from bot.services.career.careers import card_data
    from bot.store.careers import CareerResult

    row = CareerResult(1, ALICE.user_id, "rallyman", 10, "pinewood-sprint", 2, "finished", 2, 310, "s", 15, False,
                       {"turns": 6, "losses": 1, "top": 0, "gear.3": 6, "stages": 1}, "2026-11-23T08:00:00Z",
                       (("pinewood-sprint", 310),))
    card = card_data("alice", games.get("rallyman"), [row], [], (), None, [])
    values = {render(from_json(label), "fr"): render(from_json(value), "fr") for label, value in card["stats"]}
    assert values[t("career.stat_losses", "fr")] == "16,7" and values[t("career.stat_gap", "fr")] == "+15 s"
    assert {render(from_json(v), "en") for _, v in card["stats"]} >= {"16.7", "+15 s"}
    half = card_data("alice", games.get("rallyman"), [row, replace(row, rally_id=2, gap=16)], [], (), None, [])
    (gap,) = [value for label, value in half["stats"] if render(from_json(label), "de") == t("career.stat_gap", "de")]
    assert render(from_json(gap), "de") == "+15,5 s"
    assert render(msg("career.reply", name="alice", game="Rallyman", rallies=1, wins=0), "fr") \
        .startswith("Fiche de carrière d'alice à Rallyman")
    assert render(msg("career.reply", name="Bob", game="Rallyman", rallies=1, wins=0), "fr") \
        .startswith("Fiche de carrière de Bob")
    one = msg("ratings.line", rank=1, name="Ann", rating=1010, events=msg("ratings.events", n=1), trend="")
    two = msg("ratings.line", rank=1, name="Ann", rating=1010, events=msg("ratings.events", n=2), trend="")
    assert "(1 event)" in str(one) and "(2 events)" in str(two)
    zero = msg("ratings.events", n=0)
    assert (str(zero), render(zero, "fr"), render(zero, "de")) == ("0 events", "0 épreuve", "0 Events")
