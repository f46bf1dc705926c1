"""Ghost cars in the console: `/run start ghost:leader` is refused while the only
runs on the stage are in an open round, then races the closed round's leader, its gap said after
each turn; the same option as Discord's (`ghost:best|leader|off`)."""

from __future__ import annotations

import io
from datetime import UTC, datetime

from bot.console import run_console
from bot.console.clock import console_service

NOW = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)  # a Monday


def two_rounds():
    yield 'mod: /league create name:"Ghost Cup" timezone:UTC'
    yield "mod: /league round add stage:pinewood-sprint day:mon hour:20 rounds:2"
    for name in ("ann", "ben"):
        yield f"{name}: /league join"
    yield "mod: /clock +13h"
    yield "ann: /run start"
    yield "ann: /autopilot"
    yield "ben: /run start ghost:leader"     # ann's run is in the open round: hidden
    yield "ben: /run start ghost:sideways"   # not a ghost
    yield "mod: /clock +7d"                  # round 1 closes, round 2 opens
    yield "ben: /run start ghost:leader"
    yield "ben: /autopilot"


async def test_a_leader_ghost_waits_for_the_close_then_races_it_with_the_gap_each_turn(store):
    service = console_service(store, seed=3, now=NOW)
    out = io.StringIO()
    await run_console(two_rounds(), service, out, admins=["mod"])
    text = out.getvalue()
    assert "No leader ghost on Pinewood Sprint yet" in text, text[-3000:]
    assert "No ghost of an open round: its runs stay hidden until it closes." in text
    assert "Unknown ghost “sideways”: choose best, leader or off." in text
    assert "You race the leader's ghost: ann (" in text, text[-3000:]
    assert text.count("s on the leader (ann).") > 3
    runs = await store.db.read(lambda tx: tx.fetch_all("SELECT user_id, round_id FROM runs ORDER BY id", ()))
    assert len(runs) == 2 and runs[0][1] != runs[1][1]  # the refusals started nothing
