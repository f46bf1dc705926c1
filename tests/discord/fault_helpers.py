"""Helpers of the fault tests: driving the bot through the real tree, and reading what Discord saw."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.engine.rallyman.action_codec import Entry, from_text
from bot.store import Rally
from tests.discord.fakes import (
    CHANNEL,
    GUILD,
    Harness,
    Sent,
    answered,
    channel_posts,
    command_payload,
    option,
)

BOB = (1002, "Bob")  # the host, and the first driver
ALICE = (1001, "Alice")
OTHER_CHANNEL = 21
DAY_S = 24 * 3600  # the default turn deadline
NOTHING_CHANGED = "nothing was changed"


class Killed(BaseException):
    """The process dies here (not an error the bot could catch and handle)."""


class BrokenRenderer:
    """A renderer whose every drawing fails (a missing font, a corrupt stage file...)."""

    def board(self, game, stage, view, lang="en") -> bytes:
        raise RuntimeError("cannot draw the board")

    def preview(self, game, stage, lang="en") -> bytes:
        raise RuntimeError("cannot draw the preview")

    def results(self, game, view, lang="en") -> bytes:
        raise RuntimeError("cannot draw the results")

    def table(self, view, lang="en") -> bytes:
        raise RuntimeError("cannot draw the table")


# -- driving the bot -----------------------------------------------------------------------------

def in_channel(payload: dict, channel_id: int) -> dict:
    """The same interaction, sent from another channel of the guild."""
    payload["channel_id"] = str(channel_id)
    payload["channel"] = dict(payload["channel"], id=str(channel_id))
    return payload


async def command(h: Harness, user, name: str, sub: str | None = None, *, channel: int = CHANNEL,
                  **values: Any) -> list[Sent]:
    options = [option(k, v) for k, v in values.items()]
    return await h.dispatch(in_channel(command_payload(user, name, sub, options), channel))


async def lobby(h: Harness, channel: int = CHANNEL) -> Rally:
    """Bob opens a two-driver rally in `channel`; Bob and Alice join. Every post is delivered."""
    await command(h, BOB, "rally", "create", channel=channel, stage="pinewood-sprint", drivers=2)
    await command(h, BOB, "rally", "join", channel=channel)
    await command(h, ALICE, "rally", "join", channel=channel)
    return await rally_in(h, channel)


async def started(h: Harness) -> Rally:
    """A running rally whose first prompt reached the channel: Bob drives, his clock runs."""
    await lobby(h)
    calls = await command(h, BOB, "rally", "start")
    assert len(channel_posts(calls)) == 1
    rally = await rally_in(h)
    assert await h.bot.deadlines.due_at(rally.id) is not None
    return rally


async def rally_in(h: Harness, channel: int = CHANNEL) -> Rally:
    rally = await h.bot.store.rallies.get_active_in_channel(GUILD, channel)
    assert rally is not None
    return rally


# -- what Discord saw ----------------------------------------------------------------------------

def tries(h: Harness, channel: int = CHANNEL) -> list[Sent]:
    """Every attempt to post a message in `channel`, failed or not."""
    return [c for c in h.sent if c.via == "http" and c.method == "POST"
            and c.url.endswith(f"/channels/{channel}/messages")]


def delivered(h: Harness, channel: int = CHANNEL) -> list[Sent]:
    """The messages that reached `channel`."""
    return [c for c in channel_posts(h.sent) if c.url.endswith(f"/channels/{channel}/messages")]


def dm_channels(h: Harness, user_id: int) -> set[str]:
    return {c.reply["id"] for c in h.sent if c.url.endswith("/users/@me/channels") and c.reply
            and str((c.body or {}).get("recipient_id")) == str(user_id)}


def dm_tries(h: Harness, user_id: int) -> list[Sent]:
    channels = dm_channels(h, user_id)
    return [c for c in h.sent if c.via == "http" and c.method == "POST"
            and any(c.url.endswith(f"/channels/{d}/messages") for d in channels)]


def dms(h: Harness, user_id: int) -> list[Sent]:
    """The direct messages that reached `user_id`."""
    return [c for c in dm_tries(h, user_id) if c.error is None]


def pinged(post: Sent) -> list[str]:
    return [str(u) for u in post.body["allowed_mentions"].get("users", [])]


def turn_ends_text(moment: datetime) -> str:
    """How the turn message shows its deadline (a Discord timestamp)."""
    return f"<t:{int(moment.timestamp())}:f>"


async def log_of(h: Harness, rally_id: int) -> list[tuple[Entry, int | None]]:
    """The rally's log as (entry, actor), the entries read back from the log's canonical form."""
    return [(from_text(a.action), a.actor) for a in await h.bot.store.actions.list(rally_id)]


def fail_interaction(h: Harness, exc: BaseException, methods: tuple[str, ...], times: int = 1,
                     path: str = "/webhooks/") -> None:
    """The interaction's own answers (webhook calls other than the first callback) fail with `exc`:
    `methods` e.g. ("DELETE",) for the removal of the "thinking…" answer, ("DELETE", "POST") for it
    and every followup; `path="/callback"`: the first acknowledgement instead. Failed calls are
    recorded with `error` set, like `RecordingHTTP.fail`."""
    real = h.webhooks.request
    left = [times]

    async def request(route, *args: Any, **kwargs: Any) -> Any:
        if left[0] > 0 and route.method in methods and path in route.url:
            left[0] -= 1
            h.sent.append(Sent(route.method, route.url, kwargs.get("payload"), error=answered(exc, route)))
            raise exc
        return await real(route, *args, **kwargs)

    h.webhooks.request = request
