"""`/replay` through the real command tree: a rally finished in the channel posts its
replay once, with the picture added to that message (`replay.webp`); `/replay rally:N` posts it again
in the channel; an unknown or foreign rally is answered privately and nothing is posted."""

from __future__ import annotations

from bot.engine.rallyman.ai import choose_action
from bot.services import Actor, Place
from tests.discord.fakes import (
    CHANNEL,
    GUILD,
    WEBP,
    Harness,
    attachment_edits,
    channel_posts,
    private_answers,
    text_channel_payload,
)

BOB = (1002, "Bob")


async def finished_rally(h: Harness) -> int:
    """Bob's rally of one car on pinewood-sprint: created through Discord, driven by the AI's
    choices through the service (as typed), to its finish; every post delivered."""
    for sub, values in (("create", {"stage": "pinewood-sprint", "drivers": 1}), ("join", {}), ("start", {})):
        await h.command(BOB, "rally", sub, **values)
    rally = await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)
    place, bob = Place(GUILD, CHANNEL), Actor(*BOB)
    for _ in range(400):
        current = await h.bot.store.rallies.get(rally.id)
        if current.status != "running":
            break
        await h.bot.rallies.act(place, bob, str(choose_action(h.bot.rallies.work.state_of(current))))
    assert (await h.bot.store.rallies.get(rally.id)).status == "finished"
    return rally.id


async def test_a_finished_rally_posts_its_replay_once_and_replay_posts_it_again(tmp_path):
    async with Harness(tmp_path / "replay.sqlite3") as h:
        start = len(h.sent)
        rally_id = await finished_rally(h)
        await h.bot.sender.flush()
        calls = h.sent[start:]
        posted = [p for p in channel_posts(calls) if f"The replay of rally #{rally_id}" in p.content]
        assert len(posted) == 1  # once
        (edit,) = attachment_edits(calls, posted[0])
        assert edit.files == ["replay.webp"] and edit.data["replay.webp"] == WEBP
        await h.bot.sender.flush()  # nothing owed any more: not posted again
        assert sum(f"The replay of rally #{rally_id}" in p.content for p in channel_posts(h.sent)) == 1

        calls = await h.command(BOB, "replay", rally=rally_id)
        assert private_answers(calls) == []
        (post,) = channel_posts(calls)
        assert post.content.startswith(f"🎬 Replay of rally #{rally_id} — Pinewood Sprint")
        (edit,) = attachment_edits(calls, post)
        assert edit.files == ["replay.webp"] and edit.data["replay.webp"] == WEBP  # the renderer's animation


async def test_replay_of_an_unknown_or_foreign_rally_is_a_private_answer_and_posts_nothing(tmp_path):
    async with Harness(tmp_path / "replay-refused.sqlite3") as h:
        rally_id = await finished_rally(h)
        await h.bot.sender.flush()
        owed = await h.bot.store.db.fetch_one("SELECT COUNT(*) FROM outbox", ())
        calls = await h.command(BOB, "replay", rally=rally_id + 100)
        assert channel_posts(calls) == []
        assert private_answers(calls) == [f"There is no finished rally #{rally_id + 100} here: `/rally history` "
                                          "lists this channel's, `/league results` a closed round's runs."]
        elsewhere = {"channel": text_channel_payload(CHANNEL + 1, "general")}  # another channel of the server
        calls = await h.command(BOB, "replay", rally=rally_id, payload=elsewhere)
        assert channel_posts(calls) == [] and private_answers(calls)[0].startswith(
            f"There is no finished rally #{rally_id} here")
        assert await h.bot.store.db.fetch_one("SELECT COUNT(*) FROM outbox", ()) == owed
