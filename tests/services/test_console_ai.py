"""The console's first hour: a newcomer alone plays a rally of two specials
against two AI drivers, who drive at once in the console; `/autopilot` stays on, turn after turn,
until `/autopilot off`."""

from __future__ import annotations

import io

from bot.console import PLACE, Console
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.protocol import GAME as RALLYMAN
from bot.services import RallyService
from bot.services.play.replay import log_problem, replay_snapshot


async def console_with_robots(store, stages="pinewood-sprint, black-moor"):
    service = RallyService(store, seed_source=lambda: 5)
    out = io.StringIO()
    console = Console(service, out=out)
    for line in (f"alice: /rally create stage:{stages} drivers:3", "alice: /rally join",
                 "alice: /rally add-ai count:2 style:bold", "alice: /rally start"):
        await console.run_line(line)
    return service, console, out


async def test_a_newcomer_plays_two_specials_against_two_robots_with_the_autopilot(store):
    service, console, out = await console_with_robots(store)
    await console.run_line("alice: /autopilot")  # on until switched off: every one of her turns
    text = out.getvalue()
    assert "[only" not in text, text[-1500:]  # nothing refused
    assert text.count("(AI) is at the wheel") >= 6
    assert "SS1 (Pinewood Sprint) is over." in text and "SS2" in text
    assert await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id) is None  # finished
    (finished,) = await store.rallies.list_by_status(("finished",))
    report = await store.check(replay_snapshot, log_problem)
    assert report.ok
    cars = service.work.state_of(finished).cars
    assert sum(c.name.startswith("🤖") for c in cars) == 2


async def test_autopilot_stays_on_across_turns_until_switched_off(store):
    """Alice on autopilot, Bob typing, one robot: each time her turn comes it is driven for her (and
    the robot's at once), turn after turn, until `/autopilot off` hands hers back."""
    service = RallyService(store, seed_source=lambda: 5)
    out = io.StringIO()
    console = Console(service, out=out)
    for line in ("bob: /rally create stage:pinewood-sprint drivers:3", "bob: /rally join", "alice: /rally join",
                 "bob: /rally add-ai", "bob: /rally start", "alice: /autopilot"):
        await console.run_line(line)
    assert "Autopilot on" in out.getvalue()

    async def state():
        rally = await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id)
        return service.work.state_of(rally)

    async def bob_plays_until_alice_was_driven() -> None:
        turns_before = out.getvalue().count("alice stops") + out.getvalue().count("alice FINISHES")
        for _ in range(200):
            current = await state()
            assert current.active.name == "bob"  # alice's and the robot's turns never wait
            await console.run_line("bob: " + typed(choose_action(current)))
            if out.getvalue().count("alice stops") + out.getvalue().count("alice FINISHES") > turns_before:
                return
        raise AssertionError("alice's turn never came")

    await bob_plays_until_alice_was_driven()
    await bob_plays_until_alice_was_driven()  # still on after a turn
    await console.run_line("alice: /autopilot off")
    assert "Autopilot off: your turns are yours again." in out.getvalue()
    for _ in range(200):
        current = await state()
        if current.active.name == "alice":
            break
        await console.run_line("bob: " + typed(choose_action(current)))
    assert (await state()).active.name == "alice"  # her turn waits for her now


def typed(action) -> str:
    choice = RALLYMAN.commands.label(action)
    return f"/roll {choice}" if choice[0] in "12345W" else f"/{choice}"


async def test_autopilot_for_a_number_of_turns_then_off(store):
    service, console, out = await console_with_robots(store, "pinewood-sprint")
    await console.run_line("alice: /autopilot turns:1")  # her first turn only
    rally = await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id)
    state = service.work.state_of(rally)
    assert state.active.name == "alice" and state.turn.used == []  # her second turn waits for her
    assert out.getvalue().count("alice stops") == 1
