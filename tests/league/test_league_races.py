"""Races between league commands and jobs, through `asyncio.gather`: each pair ends in a state one
of its serial orders gives (the round's lock and the rally's lock, re-reading inside them)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from bot.engine.rallyman.ai import choose_action
from bot.services import Place
from bot.services.play.replay import replay_snapshot
from bot.store.clock import from_text
from bot.store.leagues import results_of_round_tx, rounds_of_league_tx, runs_of_round_tx
from tests.league.league_helpers import ALICE, BOB, LEAGUE_CHANNEL, ORGANISER, drive, new_thread, start_run


async def open_round(service, deadlines):
    champs = service.championships
    leagues = champs.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "UTC")
    for driver in (ALICE, BOB):
        await leagues.join(LEAGUE_CHANNEL, driver)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+2d")
    await deadlines.run_due()
    return (await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1)))[0]


async def settle(coros):
    return await asyncio.gather(*coros, return_exceptions=True)


async def test_two_run_starts_of_one_driver_at_once_make_exactly_one_run(service, deadlines):
    rnd = await open_round(service, deadlines)
    champs = service.championships
    _, league = await champs.check_run(LEAGUE_CHANNEL, ALICE)
    threads = [new_thread(), new_thread()]
    outcomes = await settle([champs.start_run(LEAGUE_CHANNEL, ALICE, rnd, league, t, "S") for t in threads])
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(refused) == 1 and "one attempt" in str(refused[0])
    runs = await service.store.db.read(lambda tx: runs_of_round_tx(tx, rnd.id))
    assert len(runs) == 1
    rallies = await service.store.db.fetch_all("SELECT channel_id FROM rallies")
    assert [r[0] for r in rallies] == [runs[0].thread_id]  # the refused start left no rally behind


async def test_a_run_start_racing_the_close_is_either_a_dnf_or_refused_never_left_running(service, deadlines, clock):
    rnd = await open_round(service, deadlines)
    champs = service.championships
    _, league = await champs.check_run(LEAGUE_CHANNEL, ALICE)
    clock.now = from_text(rnd.closes_at) - timedelta(seconds=1)
    start = champs.start_run(LEAGUE_CHANNEL, ALICE, rnd, league, new_thread(), "S")

    async def close():
        clock.now = from_text(rnd.closes_at) + timedelta(seconds=1)
        return await deadlines.run_due()

    outcomes = await settle([start, close()])
    runs = await service.store.db.read(lambda tx: runs_of_round_tx(tx, rnd.id))
    assert all(r.status != "running" for r in runs)
    if runs:  # started first: the close made it a DNF and ended its rally
        assert runs[0].status == "dnf" and (await service.store.rallies.get(runs[0].rally_id)).status == "abandoned"
    else:
        assert "No round is open" in str(outcomes[0])
    assert (await service.store.check(replay_snapshot)).ok


async def test_the_last_roll_racing_the_close_is_either_classified_or_a_dnf_consistently(service, deadlines, clock):
    rnd = await open_round(service, deadlines)
    thread = await start_run(service, ALICE)
    # drive until one action from the end
    while True:
        rally = await service.store.rallies.get_active_in_channel(thread.guild_id, thread.channel_id)
        state = service.work.state_of(rally)
        from bot.engine.rallyman.game import apply

        after, _ = apply(state, choose_action(state))
        if after.finished:
            break
        await service.act(thread, ALICE, str(choose_action(state)))
    last = str(choose_action(state))

    async def close():
        clock.now = from_text(rnd.closes_at) + timedelta(seconds=1)
        return await deadlines.run_due()

    await settle([service.act(thread, ALICE, last), close()])
    runs = await service.store.db.read(lambda tx: runs_of_round_tx(tx, rnd.id))
    results = await service.store.db.read(lambda tx: results_of_round_tx(tx, rnd.id))
    rally = await service.store.rallies.get(runs[0].rally_id)
    assert (runs[0].status, rally.status, results[0].status) in (
        ("finished", "finished", "classified"), ("dnf", "abandoned", "dnf"))
    assert (await service.store.check(replay_snapshot)).ok


async def test_a_penalty_racing_the_close_always_ends_in_the_stored_results(service, deadlines, clock):
    rnd = await open_round(service, deadlines)
    for driver in (ALICE, BOB):
        await drive(service, driver, await start_run(service, driver))
    clock.now = from_text(rnd.closes_at) + timedelta(seconds=1)
    champs = service.championships
    await settle([champs.stewarding.penalty(LEAGUE_CHANNEL, ORGANISER, ALICE.user_id, "Alice", 600, "cut"),
                  deadlines.run_due()])
    results = {r.user_id: r for r in await service.store.db.read(lambda tx: results_of_round_tx(tx, rnd.id))}
    runs = {r.user_id: r for r in await service.store.db.read(lambda tx: runs_of_round_tx(tx, rnd.id))}
    alice = results[ALICE.user_id]
    if alice.status == "classified":
        assert alice.penalty_s == 600 and alice.time_s == runs[ALICE.user_id].time_s + 600


async def test_a_cancel_racing_the_close_leaves_the_round_cancelled_or_closed_with_its_posts(service, deadlines,
                                                                                            clock):
    rnd = await open_round(service, deadlines)
    await drive(service, ALICE, await start_run(service, ALICE))
    clock.now = from_text(rnd.closes_at) + timedelta(seconds=1)
    champs = service.championships
    await settle([champs.rounds.round_cancel(LEAGUE_CHANNEL, ORGANISER, 1, "storm"), deadlines.run_due()])
    current = (await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1)))[0]
    results = await service.store.db.read(lambda tx: results_of_round_tx(tx, rnd.id))
    assert (current.status, bool(results)) in (("cancelled", False), ("closed", True))
    assert await service.store.jobs.pending() == []


async def test_a_turn_in_a_thread_without_a_run_still_finds_no_rally(service, deadlines):
    await open_round(service, deadlines)
    stray = Place(LEAGUE_CHANNEL.guild_id, new_thread())
    outcome = await settle([service.act(stray, ALICE, "1")])
    assert "no rally" in str(outcome[0]).lower()
