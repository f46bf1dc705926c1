"""Finished rallies stay readable: `/rally results [rally]` posts a finished
rally's classification and last board again, `/rally history` lists the channel's finished rallies,
and `/rally status` after the finish points to them; refusals are specific and change nothing."""

from __future__ import annotations

import io

import pytest

from bot.console import PLACE, Console
from bot.engine.core.errors import RallyError
from bot.engine.rallyman.stages.catalogue import load_stage
from bot.services import Place, RallyService


async def played(store, stages: str = "pinewood-sprint") -> tuple[RallyService, Console, io.StringIO]:
    """A rally of alice against one AI driver, driven to its finish in the console."""
    service = RallyService(store, seed_source=lambda: 3)
    out = io.StringIO()
    console = Console(service, out=out)
    for line in (f"alice: /rally create stage:{stages} drivers:2", "alice: /rally join", "alice: /rally add-ai",
                 "alice: /rally start", "alice: /autopilot"):
        await console.run_line(line)
    assert await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id) is None
    return service, console, out


async def owed(store) -> int:
    row = await store.db.fetch_one("SELECT COUNT(*) FROM outbox", ())
    return int(row[0])


async def test_results_post_the_classification_and_the_last_board_again(store):
    service, console, _ = await played(store, "pinewood-sprint, black-moor")
    (rally,) = await store.rallies.list_by_status(("finished",))
    alice = console.actor("alice")
    before = await owed(store)
    reply = await service.results(PLACE, alice)  # the channel's latest
    assert reply.lines[0].startswith(f"📜 Rally #{rally.id} — Pinewood Sprint, Black Moor in Winter, finished ")
    assert any("Rally classification" in line or "classification" in line.lower() for line in reply.lines)
    assert await owed(store) == before + 2  # the classification with its image, then the last board
    rows = await store.db.fetch_all("SELECT body FROM outbox ORDER BY id DESC LIMIT 2", ())
    kinds = sorted(('"kind": "board"' in r[0]) or ('"kind":"board"' in r[0]) for r in rows)
    assert kinds == [False, True]
    again = await service.results(PLACE, alice, str(rally.id))  # named, as `/rally history` shows it
    assert again.lines == reply.lines


async def test_history_lists_the_finished_rallies_newest_first_with_their_winner(store):
    service, console, _ = await played(store)
    for line in ("alice: /rally create stage:black-moor drivers:2", "alice: /rally join", "alice: /rally add-ai",
                 "alice: /rally start", "alice: /autopilot"):
        await console.run_line(line)
    first, second = await store.rallies.list_by_status(("finished",))
    reply = await service.history(PLACE, console.actor("bob"))
    assert reply.ephemeral
    assert reply.lines[0] == "The latest finished rallies of this channel (2):"
    assert reply.lines[1].startswith(f"#{second.id} — {load_stage('black-moor').title} — 2 drivers — won by ")
    assert reply.lines[2].startswith(f"#{first.id} — Pinewood Sprint — 2 drivers — ")
    assert reply.lines[-1] == "`/rally results rally:N` posts one again."


async def test_status_after_the_finish_points_to_the_results(store):
    service, console, _ = await played(store)
    (rally,) = await store.rallies.list_by_status(("finished",))
    with pytest.raises(RallyError) as err:
        await service.status(PLACE, console.actor("alice"))
    assert str(err.value).startswith(f"No rally is running in this channel. The last one, #{rally.id} (Pinewood")
    assert "`/rally results`" in str(err.value) and "`/rally history`" in str(err.value)


async def test_bad_results_requests_are_refused_and_change_nothing(store):
    service, console, _ = await played(store)
    (finished,) = await store.rallies.list_by_status(("finished",))
    alice = console.actor("alice")
    elsewhere = Place(PLACE.guild_id, PLACE.channel_id + 5)
    await service.create(elsewhere, alice, "pinewood-sprint", drivers=2)  # another channel's rally
    other = await store.rallies.get_active_in_channel(elsewhere.guild_id, elsewhere.channel_id)
    await console.run_line("alice: /autopilot off")
    await console.run_line("alice: /rally create stage:black-moor drivers:2")  # one running here
    await console.run_line("alice: /rally join")
    await console.run_line("alice: /rally add-ai")
    await console.run_line("alice: /rally start")
    running = await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id)
    cases = [
        (service.results(PLACE, alice, "999999"), "There is no rally #999999 in this channel"),
        (service.results(PLACE, alice, str(other.id)), f"There is no rally #{other.id} in this channel"),
        (service.results(PLACE, alice, str(running.id)), f"Rally #{running.id} has not finished yet"),
        (service.results(PLACE, alice, "abc"), "`rally` must be a plain number, not `abc`"),
        (service.results(elsewhere, alice), "No rally has finished in this channel yet."),
        (service.history(elsewhere, alice), "No rally has finished in this channel yet."),
    ]
    before = (await owed(store), [r.as_dict() for r in await store.rallies.list_by_status(
        ("lobby", "running", "finished", "abandoned"))])
    for call, needle in cases:
        with pytest.raises(RallyError) as err:
            await call
        assert needle in str(err.value)
    await service.abandon(elsewhere, alice)
    with pytest.raises(RallyError) as err:
        await service.results(elsewhere, alice, str(other.id))
    assert f"Rally #{other.id} was abandoned before its finish" in str(err.value)
    after = (await owed(store), [r.as_dict() for r in await store.rallies.list_by_status(
        ("lobby", "running", "finished"))])
    assert after[1] == [r for r in before[1] if r["id"] != other.id] and after[0] == before[0] + 1  # the abandon's post
    assert finished.id != running.id
