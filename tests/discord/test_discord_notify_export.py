"""Notifications and exports through the REAL command tree (fakes.py): `/notify dm on` brings a driver's turn
by DM on top of the channel ping, a driver whose DMs are closed (403, 50007) still gets the
channel ping and is not charged (their clock starts with the channel prompt); `/league export`
answers an organiser privately with two CSV files and refuses anybody else, changing nothing;
`/league calendar` answers with an .ics file."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from icalendar import Calendar

from bot.engine.rallyman.ai import choose_action
from bot.services.reply import Actor, Place
from tests.discord.fakes import CHANNEL, GUILD, Harness, channel_posts, http_error, private_answers
from tests.discord.fault_helpers import ALICE, BOB, command, dm_tries, dms, pinged, rally_in, started

MOD = (1004, "Mod")
HERE = Place(GUILD, CHANNEL)


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "notify.sqlite3") as harness:
        yield harness


async def bob_plays_until_alices_turn(h: Harness) -> list:
    """Bob's moves (the AI's choices) until the turn passes to Alice; what was sent meanwhile."""
    before = len(h.sent)
    rally = await rally_in(h)
    while h.bot.rallies.work.state_of(rally).active.id == str(BOB[0]):
        await h.bot.rallies.act(HERE, Actor(*BOB), str(choose_action(h.bot.rallies.work.state_of(rally))))
        await h.bot.sender.flush()
        rally = await rally_in(h)
    return h.sent[before:]


async def test_notify_dm_on_brings_the_turn_by_dm_and_the_channel_still_pings(h):
    calls = await command(h, ALICE, "notify", "dm", value="on")
    assert "DMs on" in private_answers(calls)[0] and channel_posts(calls) == []
    await started(h)
    sent = await bob_plays_until_alices_turn(h)
    (dm,) = dms(h, ALICE[0])
    assert f"<#{CHANNEL}>" in dm.content and "Alice, your turn: you may roll" in dm.content
    assert any(str(ALICE[0]) in pinged(p) for p in channel_posts(sent) if p.url.endswith(f"/{CHANNEL}/messages"))


async def test_closed_dms_fall_back_to_the_channel_ping_and_the_clock_starts_with_it(h):
    await command(h, ALICE, "notify", "dm", value="on")
    rally = await started(h)
    h.http.fail(http_error(403, 50007), times=1000, path="/users/@me/channels")  # Alice's DMs are closed
    sent = await bob_plays_until_alices_turn(h)
    assert dms(h, ALICE[0]) == [] and dm_tries(h, ALICE[0]) == []
    prompt = [p for p in channel_posts(sent) if str(ALICE[0]) in pinged(p)]
    assert prompt, "the channel prompt pings Alice"
    (row,) = [r for r in await h.bot.store.outbox.all() if r.user_id == ALICE[0]]
    assert row.outcome.startswith("dropped") and "50007" in row.outcome
    due = await h.bot.deadlines.due_at(rally.id)
    deadline_s = (await h.bot.store.rallies.get(rally.id)).turn_deadline_s
    assert due == h.clock.now + timedelta(seconds=deadline_s)
    assert (await h.bot.store.drivers.get(rally.id, ALICE[0])).missed_turns == 0


async def test_league_export_gives_an_organiser_two_csv_files_privately_and_refuses_a_driver(h):
    await h.command(MOD, "league", "create", name="=Cup", timezone="Europe/Paris", payload={"manage": True})
    await h.command(ALICE, "league", "join")
    refused = await h.command(ALICE, "league", "export")
    assert "Only the organisers of =Cup" in private_answers(refused)[0]
    assert channel_posts(refused) == [] and not any(c.files for c in refused)
    calls = await h.command(MOD, "league", "export", payload={"manage": True})
    (answer,) = [c for c in calls if c.method == "PATCH" and "/messages/@original" in c.url]
    assert sorted(answer.files) == ["cup-results.csv", "cup-standings.csv"] and channel_posts(calls) == []
    header = next(csv.reader(io.StringIO(answer.data["cup-results.csv"].decode("utf-8-sig"))))
    assert header[:4] == ["round", "stage", "position", "driver"]
    await h.command(MOD, "league", "round add", stage="pinewood-sprint", opens="+1d", closes="+3d",
                    payload={"manage": True})
    calls = await h.command(ALICE, "league", "calendar")
    (answer,) = [c for c in calls if c.method == "PATCH" and "/messages/@original" in c.url]
    assert answer.files == ["cup.ics"]
    opening, close = Calendar.from_ical(answer.data["cup.ics"]).walk("VEVENT")
    assert (str(opening.get("summary")), str(close.get("summary"))) == ("Opening of =Cup — round 1",
                                                                          "Close of =Cup — round 1")
