"""A whole rally of three specials with three drivers, played in the console to the end (RULES A2,
A3, A16, A17): every special is announced and classified, the rally classification closes it, and
the stored log replays to the stored snapshot."""

from __future__ import annotations

import io

import pytest

from bot.console import PLACE, Console, user_id
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.protocol import GAME as RALLYMAN
from bot.engine.rallyman.stages.catalogue import load_stage
from bot.services import RallyService
from bot.services.play.replay import log_problem, replay_snapshot

STAGES = ["pinewood-sprint", "gen-5-20", "black-moor"]
NAMES = ("ada", "bea", "cy")


@pytest.mark.parametrize("modules", ["", "attack,seconds,weather,splits"])
async def test_three_specials_three_drivers_in_the_console_to_the_rally_classification(store, modules):
    """With no module, and with every Rules+ module on (A18–A21): the AI's choice for whoever
    drives is typed as a console command each time, so every command of the modules is used."""
    service = RallyService(store, seed_source=lambda: 11)
    out = io.StringIO()
    console = Console(service, out=out)
    await console.run_line(f"ada: /rally create stage:{','.join(STAGES)} drivers:3 assistance:2 modules:{modules}")
    for name in NAMES:
        await console.run_line(f"{name}: /rally join")
    await console.run_line("ada: /rally start")
    by_id = {str(user_id(n)): n for n in NAMES}
    typed: set[str] = set()
    for _ in range(3000):
        rally = await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id)
        if rally is None:
            break
        state = service.work.state_of(rally)
        assert state.active is not None
        choice = RALLYMAN.commands.label(choose_action(state))
        command = f"/roll {choice}" if choice[0] in "12345W" else f"/{choice}"
        typed.add(command.split()[0])
        await console.run_line(f"{by_id[state.active.id]}: {command}")
    text = out.getvalue()
    assert "[only" not in text, text[-2000:]  # no refusal in the whole rally
    assert "opens a rally of 3 specials" in text and "assistance after SS2" in text
    for number, name in enumerate(STAGES, start=1):
        assert f"SS{number} ({load_stage(name).title}) is over." in text
    assert "SS2 starts on" in text and "SS3 starts on" in text
    assert "Classification after SS1" in text and "Classification after SS2" in text
    assert "No assistance after SS1" in text and "Assistance after SS2: damage repaired" in text
    assert "Rally classification — 3 specials" in text
    final = [line for line in text.split("Rally classification — 3 specials")[1].strip().splitlines()
             if "earns an achievement" not in line]  # the careers' post follows the classification
    assert final[-1] == "[channel] 🎬 The replay of rally #1, turn by turn:"  # then its replay
    final = final[:-1]
    assert len(final) == 3 and final[0].startswith("[channel] 1. ")  # one line per driver, the winner first
    finished = (await store.rallies.list_by_status(("finished",)))[0]
    assert finished.status == "finished"
    report = await store.check(replay_snapshot, log_problem)
    assert report.ok and report.rallies == 1, [str(m) for m in report.mismatches]
    if modules:
        assert {"/attack", "/order"} <= typed, typed  # the AI drove time attacks through the console
        assert "Weather for SS1" in text and "Weather for SS3" in text
        assert "split 1:" in text
