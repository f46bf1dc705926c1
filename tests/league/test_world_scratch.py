"""The world scratch ranking: one official run per driver and week across servers, the
ranking with the top and the asker's neighbourhood, hidden server names, the weekly jobs."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.engine.core.errors import RallyError
from bot.engine.core.official import official_stage, week_bounds, week_of
from bot.services import Actor, Place
from bot.store.leagues import world_round_tx
from tests.league.conftest import deliver
from tests.league.league_helpers import ALICE, BOB, LEAGUE_CHANNEL, ORGANISER, drive, new_thread

OTHER_SERVER = Place(guild_id=77, channel_id=88)


async def scratch_run(service, actor, place=LEAGUE_CHANNEL, guild_name="Test server"):
    scratch = service.championships.scratch
    await scratch.check_run(place, actor)
    thread = Place(place.guild_id, new_thread())
    await scratch.start_run(place, actor, thread.channel_id, guild_name)
    return thread


async def test_anyone_on_any_server_drives_the_week_s_official_stage_once(service, store, clock):
    thread = await scratch_run(service, ALICE)
    rally = await store.rallies.get_active_in_channel(thread.guild_id, thread.channel_id)
    assert rally.stage == official_stage(week_of(clock()))
    assert rally.modules["streams"]["key"] != rally.modules["streams"]["common"]  # personal dice
    await drive(service, ALICE, thread)
    with pytest.raises(RallyError, match="is your one attempt at the official stage"):
        await scratch_run(service, ALICE, OTHER_SERVER)  # another server: still one attempt a week
    await scratch_run(service, BOB, OTHER_SERVER, "Other server")
    runs = await store.db.fetch_all("SELECT user_id, guild_id, week FROM runs ORDER BY id")
    assert [tuple(r) for r in runs] == [(ALICE.user_id, 10, week_of(clock())), (BOB.user_id, 77, week_of(clock()))]


async def insert_results(store, week: str, round_id: int, count: int, guild_of=lambda i: 1000 + i % 3):
    async def body(tx):
        await tx.execute_many(
            "INSERT INTO runs (round_id, user_id, display_name, guild_id, guild_name, week, status, score, "
            "started_at) VALUES (?, ?, ?, ?, ?, ?, 'finished', ?, '2026-11-22T12:00:00.000000Z')",
            [(round_id, 50_000 + i, f"Driver {i}", guild_of(i), f"Server {guild_of(i)}", week, 200 + i)
             for i in range(count)])

    await store.db.write(body)


async def test_the_ranking_shows_the_top_then_the_askers_neighbourhood_highlighted(service, store, clock, posts):
    scratch = service.championships.scratch
    rnd = await scratch.this_week()
    await insert_results(store, rnd.week, rnd.id, 200)
    asker = Actor(50_000 + 120, "Driver 120")
    reply = await scratch.ranking(LEAGUE_CHANNEL, asker)
    assert "Driver 120 is ranked 121 of 200." in reply.lines  # a public post: third person
    await deliver(service, posts)
    rows = await store.db.fetch_all("SELECT body FROM outbox ORDER BY id DESC LIMIT 1")
    import json

    table = json.loads(rows[0][0])["image"]["table"]
    ranks = [row["cells"][0] for row in table["rows"]]
    assert ranks == [str(i) for i in range(1, 11)] + [str(i) for i in range(118, 125)]
    highlighted = [row["cells"][1] for row in table["rows"] if row["highlight"]]
    assert highlighted == ["Driver 120"]
    assert [row["gap_before"] for row in table["rows"]].index(True) == 10


async def test_a_server_that_opts_out_is_hidden_but_its_drivers_still_rank(service, store, clock):
    scratch = service.championships.scratch
    rnd = await scratch.this_week()
    await insert_results(store, rnd.week, rnd.id, 6, guild_of=lambda i: 1000 + i % 2)
    organiser = Actor(1, "Owner", can_manage=True)
    await service.championships.leagues.world_name(Place(1001, 5), organiser, "off")
    await scratch.ranking(LEAGUE_CHANNEL, ALICE)
    import json

    body = json.loads((await store.db.fetch_all("SELECT body FROM outbox ORDER BY id DESC LIMIT 1"))[0][0])
    servers = [row["cells"][2] for row in body["image"]["table"]["rows"]]
    assert servers == ["Server 1000", "(hidden)"] * 3


async def test_bad_weeks_are_refused_by_name(service):
    scratch = service.championships.scratch
    for bad in ("2026-W60", "next week", "../../x", "2026-W5"):
        with pytest.raises(RallyError, match="ISO week"):
            await scratch.ranking(LEAGUE_CHANNEL, ALICE, bad)
    with pytest.raises(RallyError, match="Nobody drove"):
        await scratch.ranking(LEAGUE_CHANNEL, ALICE, "2020-W01")


async def test_the_week_rolls_over_reveals_its_seed_and_final_top_in_every_league_channel(service, store, clock,
                                                                                          deadlines, posts):
    await service.championships.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "UTC")
    rnd = await service.championships.scratch.this_week()
    thread = await scratch_run(service, ALICE)
    await drive(service, ALICE, thread)
    bob_thread = await scratch_run(service, BOB)  # still driving at the close
    _, end = week_bounds(rnd.week)
    clock.now = end + timedelta(minutes=1)
    await deadlines.run_due()
    await deliver(service, posts)
    text = posts.text(LEAGUE_CHANNEL.channel_id)
    assert f"world scratch of {rnd.week} is closed" in text and rnd.seed in text
    assert "1. Alice" in text
    bob_rally = await store.rallies.get_active_in_channel(bob_thread.guild_id, bob_thread.channel_id)
    assert bob_rally is None  # ended at the close: a DNF
    bob = (await store.db.fetch_all("SELECT status, reason FROM runs WHERE user_id = ?", (BOB.user_id,)))[0]
    assert tuple(bob) == ("dnf", "not_finished")
    nxt = await store.db.read(lambda tx: world_round_tx(tx, week_of(end)))
    assert nxt is not None and nxt.seed != rnd.seed and nxt.specials == [official_stage(week_of(end))]
    await deadlines.run_due()  # the next week opens: its hash (not its seed) is announced
    await deliver(service, posts)
    text = posts.text(LEAGUE_CHANNEL.channel_id)
    assert nxt.seed_hash in text and nxt.seed not in text


async def test_a_league_round_on_the_official_stage_is_the_week_s_official_run(service, store, clock, deadlines):
    champs = service.championships
    leagues = champs.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "UTC", dice="shared")
    await leagues.join(LEAGUE_CHANNEL, ALICE)
    start, end = week_bounds(week_of(clock() + timedelta(days=7)))
    clock.now = start + timedelta(hours=1)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "official", opens="now", closes="+2d")
    await deadlines.run_due()
    rnd = (await store.db.fetch_all("SELECT dice, week, specials, seed FROM rounds WHERE league_id = 1"))[0]
    world = await store.db.read(lambda tx: world_round_tx(tx, week_of(start)))
    assert rnd["dice"] == "personal" and rnd["week"] == world.week and rnd["seed"] == world.seed
    from tests.league.league_helpers import start_run

    await start_run(service, ALICE)
    with pytest.raises(RallyError, match="is your one attempt at the official stage"):
        await scratch_run(service, ALICE)


async def test_the_weather_of_a_round_is_the_same_for_every_driver_with_personal_dice(service, store, deadlines):
    """DESIGN §6: weather is fixed per special from the round's seed (the common stream), while
    each driver's dice are their own (RULES A20.1 weather roll)."""
    champs = service.championships
    leagues = champs.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Snow Cup", "UTC", modules="weather")
    for driver in (ALICE, BOB):
        await leagues.join(LEAGUE_CHANNEL, driver)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "frozen-lakes, hollowell-winter", opens="now",
                                  closes="+2d")
    await deadlines.run_due()
    from tests.league.league_helpers import start_run

    states = []
    for driver in (ALICE, BOB):
        thread = await start_run(service, driver)
        rally = await store.rallies.get_active_in_channel(thread.guild_id, thread.channel_id)
        states.append(service.work.state_of(rally))
    alice, bob = states
    assert alice.weather is not None and alice.weather == bob.weather
    assert alice.dice.key != bob.dice.key and alice.dice.common_key == bob.dice.common_key
    # rolled with each driver's own dice instead, the weather would differ for some seeds: the
    # common stream is what makes it equal (checked over a few rounds' seeds)
    from bot.engine.core.dice import StreamDice, stream_keys
    from bot.engine.rallyman.weather import roll_weather

    differs = False
    for n in range(1, 30):
        own = [StreamDice(*stream_keys(f"{n:064x}", d, "personal")) for d in ("1", "2")]
        differs |= roll_weather(alice.stage, alice.rules, own[0]) != roll_weather(alice.stage, alice.rules, own[1])
        common = [dice.common() for dice in own]
        assert roll_weather(alice.stage, alice.rules, common[0]) == roll_weather(alice.stage, alice.rules, common[1])
    assert differs


async def test_equal_times_share_their_rank_in_the_top_and_in_the_neighbourhood(service, store):
    scratch = service.championships.scratch
    rnd = await scratch.this_week()

    async def body(tx):
        await tx.execute_many(
            "INSERT INTO runs (round_id, user_id, display_name, guild_id, guild_name, week, status, score, "
            "started_at) VALUES (?, ?, ?, 1, 'S', ?, 'finished', ?, '2026-11-22T12:00:00.000000Z')",
            [(rnd.id, 60_000 + i, f"T{i}", rnd.week, 200 + i // 3) for i in range(90)])

    await store.db.write(body)
    import json

    for asker_index in (4, 40, 41, 42, 89):
        reply = await scratch.ranking(LEAGUE_CHANNEL, Actor(60_000 + asker_index, "x"))
        body_json = json.loads((await store.db.fetch_all("SELECT body FROM outbox ORDER BY id DESC LIMIT 1"))[0][0])
        shown = {row["cells"][1]: int(row["cells"][0]) for row in body_json["image"]["table"]["rows"]}
        for name, rank in shown.items():
            i = int(name[1:])
            assert rank == 1 + 3 * (i // 3), (asker_index, name, rank)  # three drivers share each time
        assert f"T{asker_index} is ranked {1 + 3 * (asker_index // 3)} of 90." in reply.lines


async def test_the_closing_post_ranks_ties_as_the_ranking_does(service, store, clock, deadlines, posts):
    """One ranking rule everywhere (RULES OPEN-5, A17: equal times share a rank,
    "1, 1, 3"). The weekly closing post used to number its lines 1, 2, 3 while `/scratch` showed
    1, 1, 3; both now come from `ranking.shared_ranks`. Times: a tie at the top, a lone driver, a
    tie of three in the middle and a last one."""
    import json

    await service.championships.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "UTC")
    rnd = await service.championships.scratch.this_week()
    times = {"bob": 160, "carol": 160, "dave": 170, "erin": 180, "finn": 180, "gus": 180, "hal": 190}

    async def body(tx):
        await tx.execute_many(
            "INSERT INTO runs (round_id, user_id, display_name, guild_id, guild_name, week, status, score, "
            "started_at) VALUES (?, ?, ?, 1, 'S', ?, 'finished', ?, '2026-11-22T12:00:00.000000Z')",
            [(rnd.id, 70_000 + i, name, rnd.week, t) for i, (name, t) in enumerate(times.items())])

    await store.db.write(body)
    expected = {"bob": 1, "carol": 1, "dave": 3, "erin": 4, "finn": 4, "gus": 4, "hal": 7}
    await service.championships.scratch.ranking(LEAGUE_CHANNEL, ALICE)
    table = json.loads((await store.db.fetch_all("SELECT body FROM outbox ORDER BY id DESC LIMIT 1"))[0][0])
    assert {row["cells"][1]: int(row["cells"][0]) for row in table["image"]["table"]["rows"]} == expected
    _, end = week_bounds(rnd.week)
    clock.now = end + timedelta(minutes=1)
    await deadlines.run_due()
    await deliver(service, posts)
    text = posts.text(LEAGUE_CHANNEL.channel_id)
    closing = text[text.index(f"world scratch of {rnd.week} is closed"):]
    for name, rank in expected.items():
        assert f"{rank}. {name} — " in closing, (name, rank)
    assert "2. carol" not in closing and "2. " not in closing
