"""A Road Rally USA game running in a public league's channel (the console, real services), and
one more move of it: what the live page tests watch change."""

from __future__ import annotations

from tests.roadrally.test_rr_guard import RR
from tests.web.test_web_rally import PublicGuard, Stop, rally_here


async def running_public_rally(store, steps: int = 6):
    """(the guard playing it, the rally) after `steps` steps of a public league's rally."""
    guard = PublicGuard(store, stop_at=steps)
    await guard.publish()
    try:
        await guard.play()
    except Stop:
        pass
    rally = await rally_here(store)
    assert rally is not None and rally.status == "running"
    return guard, rally


async def one_move(guard, store) -> None:
    """Play until the rally's version changes (a seat's move, or the AI seats' job)."""
    before = (await rally_here(store)).version
    for _ in range(20):
        now = await rally_here(store)
        if now is None or now.version != before:
            return
        table = guard.service.work.state_of(now)
        people = sorted(s for s in RR.to_act(table) if s in guard.seats)
        if people:
            seat = people[0]
            await guard.console.run_line(f"{guard.seats[seat]}: /act {RR.label(RR.choose(RR.view(table, seat), seat))}")
        else:
            await guard.console.run_line("ann: /rally status")
    raise AssertionError("the rally did not move")
