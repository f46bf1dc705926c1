"""A Road Rally USA game running in a public league's channel (the console, real services), and
one more move of it: what the live page tests watch change."""

from __future__ import annotations

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


