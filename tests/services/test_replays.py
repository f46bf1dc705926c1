"""Animated replays through the services: owed once at a rally's finish, the post holds
a reference and is drawn from the store's log at delivery, kept on disk (a second drawing draws
nothing), and `/replay rally:N` (service and console) with its refusals, nothing changed by them."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from bot import games
from bot.console import PLACE, Console
from bot.engine.core.errors import RallyError
from bot.i18n import t
from bot.services import Place, images
from bot.services.alt_text import replay_about
from bot.services.images import PillowRenderer, draw_async, replay_spec
from bot.services.play.replay import read_log, turn_boards
from tests.services.test_archive import owed, played


async def replay_rows(store, rally_id: int | None = None) -> list[dict]:
    """The bodies of the outbox rows whose image is a replay (of `rally_id`'s lane when given)."""
    rows = await store.db.fetch_all("SELECT body, rally_id FROM outbox ORDER BY id", ())
    bodies = [(json.loads(r[0]) if isinstance(r[0], str) else r[0], r[1]) for r in rows]
    return [b for b, rid in bodies if (b.get("image") or {}).get("kind") == "replay"
            and (rally_id is None or rid == rally_id)]


async def unchanged(store) -> tuple:
    rallies = await store.rallies.list_by_status(("lobby", "running", "finished", "abandoned"))
    return await owed(store), [r.as_dict() for r in rallies]


async def test_the_finish_owes_one_replay_post_a_reference_to_the_log_at_its_last_version(store):
    await played(store)
    (rally,) = await store.rallies.list_by_status(("finished",))
    (body,) = await replay_rows(store, rally.id)  # one, for this rally, in its channel's lane
    about = replay_about("rallyman", games.get("rallyman").rules.from_json(rally.snapshot))
    assert body["image"] == replay_spec(rally.id, rally.version, "rallyman", about)
    assert about["winners"] == ["alice"] and about["rounds"] > 0  # what its description tells (alt text)
    assert body["lines"][0]["key"] == "replay.ready"
    assert "log" not in body["image"] and "frames" not in body["image"]  # a reference, never the frames
    assert max(a.seq for a in await store.actions.list(rally.id)) == rally.version


async def test_a_replay_is_drawn_from_the_stored_log_then_read_from_the_disk(store, monkeypatch):
    await played(store)
    (rally,) = await store.rallies.list_by_status(("finished",))
    images.shutdown_pool()  # workers an earlier test of this file may have started
    monkeypatch.setattr(images, "_pool_failed", True)  # drawn in this process: its drawings can be counted
    drawn: list[int] = []
    real = PillowRenderer.animation

    def counting(self, game, frames, winners=None, lang="en"):
        drawn.append(len(frames))
        return real(self, game, frames, winners, lang)

    monkeypatch.setattr(PillowRenderer, "animation", counting)
    spec = replay_spec(rally.id, rally.version, rally.game)
    first = await draw_async(PillowRenderer(), spec, "en", store=store)
    row, actions = await read_log(store, rally.id, rally.version)
    assert drawn == [len(turn_boards(row, actions))]
    image = Image.open(io.BytesIO(first))
    assert image.format == "WEBP" and image.n_frames == drawn[0] + 1  # and the end frame naming the winner
    again = await draw_async(PillowRenderer(), spec, "en", store=store)
    assert again == first and drawn == [drawn[0]]  # the kept file: nothing drawn
    assert images.replay_path(row, rally.version, "en").exists()
    await draw_async(PillowRenderer(), spec, "fr", store=store)
    assert len(drawn) == 2  # another language is another picture
    with pytest.raises(ValueError):
        await draw_async(PillowRenderer(), spec, "en")  # without the store there is no log to draw


async def test_replay_posts_this_channels_finished_rally(store):
    service, console, _ = await played(store)
    (rally,) = await store.rallies.list_by_status(("finished",))
    before = len(await replay_rows(store))
    reply = await service.replay(PLACE, console.actor("bob"), str(rally.id))
    assert reply.lines[0].startswith(f"🎬 Replay of rally #{rally.id} — Pinewood Sprint")
    assert len(reply.outbox) == 1 and len(await replay_rows(store)) == before + 1


async def test_bad_replay_requests_are_refused_privately_and_change_nothing(store):
    service, console, _ = await played(store)
    (finished,) = await store.rallies.list_by_status(("finished",))
    alice = console.actor("alice")
    elsewhere = Place(PLACE.guild_id, PLACE.channel_id + 5)
    other_server = Place(PLACE.guild_id + 1, PLACE.channel_id)
    await console.run_line("alice: /autopilot off")
    for line in ("alice: /rally create stage:black-moor drivers:2", "alice: /rally join", "alice: /rally add-ai",
                 "alice: /rally start"):
        await console.run_line(line)
    running = await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id)
    cases = [
        (service.replay(PLACE, alice, "999999"), "There is no finished rally #999999 here"),
        (service.replay(elsewhere, alice, str(finished.id)), f"There is no finished rally #{finished.id} here"),
        (service.replay(other_server, alice, str(finished.id)), f"There is no finished rally #{finished.id} here"),
        (service.replay(PLACE, alice, str(running.id)), f"Rally #{running.id} has not finished"),
        (service.replay(PLACE, alice, "abc"), "`rally` must be a plain number, not `abc`"),
        (service.replay(PLACE, alice, "0"), "`rally`"),
        (service.replay(Place(0, 0), alice, str(finished.id)), t("discord.guild_only")),
    ]
    before = await unchanged(store)
    for call, needle in cases:
        with pytest.raises(RallyError) as err:
            await call
        assert needle in str(err.value)
    assert await unchanged(store) == before


async def test_the_console_answers_replay_with_the_animation_as_a_file(store, tmp_path):
    service, _, _ = await played(store)
    (rally,) = await store.rallies.list_by_status(("finished",))
    out = io.StringIO()
    console = Console(service, out=out, images=tmp_path)
    await console.run_line(f"bob: /replay rally:{rally.id}")
    text = out.getvalue()
    assert f"🎬 Replay of rally #{rally.id}" in text
    (written,) = tmp_path.glob("*-replay.webp")
    assert Image.open(written).n_frames > 10


def test_the_replays_kept_on_disk_are_bounded_the_oldest_going_first(tmp_path):
    """A small host's disk is not filled by finished rallies' replays (~0.7 MB each)."""
    import os

    folder = tmp_path / "replays"
    for n in range(10):  # ten replays of 300 KB, written one after the other
        path = folder / f"{n}-v9-en-abc.webp"
        images.keep_replay(path, bytes(300_000), keep_mb=1)
        os.utime(path, (1_000_000 + n, 1_000_000 + n))  # each written after the one before
    kept = sorted(int(p.name.split("-")[0]) for p in folder.iterdir())
    assert sum(p.stat().st_size for p in folder.iterdir()) <= 1024 * 1024
    assert kept == [7, 8, 9]  # the newest ones; a pruned one is drawn again from the log if asked
    (folder / ".replay-half-written").write_bytes(bytes(2_000_000))  # another process's temporary file
    images.keep_replay(folder / "10-v9-en-abc.webp", bytes(300_000), keep_mb=1)
    assert (folder / ".replay-half-written").exists() and (folder / "10-v9-en-abc.webp").exists()
