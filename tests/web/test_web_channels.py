"""A channel published without a league (`/rally web public|private`), on both
backends: its rallies' pages answer 200 while it is public and 404 again once private; the rally
page lists the channel's rallies instead of a league; the home page lists the published
channels' rallies; a member without Manage Channels or Manage Server is refused with nothing
changed, in every language."""

from __future__ import annotations

import pytest

from bot.console import PLACE
from bot.console.lines import user_id
from bot.i18n import render, t
from bot.services import Actor, Place
from bot.services.errors import ServiceError
from tests.web.test_web_live import next_event, page_version
from tests.web.test_web_rally import LANGS, PublicGuard, Stop, page_text, rally_here


async def published(store) -> list[tuple]:
    return [tuple(r) for r in await store.db.fetch_all("SELECT guild_id, channel_id, published_by FROM web_channels")]


async def a_finished_and_a_running_rally(store) -> tuple[PublicGuard, int, int]:
    """A Road Rally USA game played to its end in the console's channel (no league), then a
    second one started there and stopped after a few steps: (guard, finished id, running id)."""
    guard = PublicGuard(store)
    await guard.play()
    (finished,) = await store.rallies.finished_in_channel(PLACE.guild_id, PLACE.channel_id, 5)
    second = PublicGuard(store, stop_at=4)
    try:
        await second.play()
    except Stop:
        pass
    running = await rally_here(store)
    assert running is not None and running.status == "running"
    return guard, finished.id, running.id


async def test_a_published_channel_shows_its_rallies_until_it_is_private_again(store, client):
    guard, finished, running = await a_finished_and_a_running_rally(store)
    paths = (f"/rally/{finished}", f"/rally/{running}", f"/rally/{finished}/replay",
             f"/rally/{finished}/replay/1/board.png", f"/rally/{running}/board.png")
    for path in paths:
        assert (await client.get(path)).status == 404, path
    home = page_text(await (await client.get("/?lang=en")).text())
    assert "No channel shows its rallies yet" in home

    await guard.console.run_line("mod: /rally web public")
    assert "The rallies of this channel are now public" in guard.out.getvalue()
    assert await published(store) == [(PLACE.guild_id, PLACE.channel_id, user_id("mod"))]
    for path in paths:
        assert (await client.get(path)).status == 200, path
    page = await (await client.get(f"/rally/{finished}?lang=en")).text()
    assert "Back to the league" not in page_text(page) and "Rallies of this channel:" in page_text(page)
    assert f'href="/rally/{running}?lang=en">#{running}</a>' in page  # the channel's other rally
    assert f'<strong aria-current="page">#{finished}</strong>' in page
    home = await (await client.get("/?lang=en")).text()
    assert f'href="/rally/{running}?lang=en">Rally #{running} · Road Rally USA' in home
    assert f'href="/rally/{finished}?lang=en">Rally #{finished} · Road Rally USA' in home
    assert page_text(home).index("In play") < page_text(home).index("Latest ended")

    await guard.console.run_line("mod: /rally web public")  # again: nothing changes, said privately
    assert "already public" in guard.out.getvalue()
    await guard.console.run_line("mod: /rally web private")
    assert "no longer shown on the web page" in guard.out.getvalue()
    assert await published(store) == []
    for path in paths:
        assert (await client.get(path)).status == 404, path
    assert f"/rally/{running}" not in await (await client.get("/?lang=en")).text()


async def test_a_member_without_manage_channels_is_refused_and_nothing_changes(store, client):
    guard = PublicGuard(store, stop_at=3)
    try:
        await guard.play()
    except Stop:
        pass
    rally = await rally_here(store)
    await guard.console.run_line("ann: /rally web public")
    assert "Only a member with the Manage Channels or Manage Server permission" in guard.out.getvalue()
    assert await published(store) == []
    assert (await client.get(f"/rally/{rally.id}")).status == 404

    service = guard.service.channel_web
    here = Place(PLACE.guild_id, PLACE.channel_id)
    for actor, choice, key in ((Actor(7, "Ann"), "public", "rally.web_needs_manage"),
                               (Actor(7, "Ann", roles=(99,)), "private", "rally.web_needs_manage"),
                               (Actor(8, "Mod", can_manage=True), "everyone", "rally.bad_web"),
                               (Actor(8, "Mod", can_manage=True), None, "rally.bad_web"),
                               (Actor(8, "Mod", can_manage_channels=True), "<script>" * 50, "rally.bad_web")):
        with pytest.raises(ServiceError) as refused:
            await service.set(here, actor, choice)
        assert refused.value.key == key
        texts = {lang: render(t(key, lang, **refused.value.params), lang) for lang in LANGS}
        assert len(set(texts.values())) == len(LANGS) and all(texts.values())  # its own words in each language
        assert await published(store) == []
    with pytest.raises(ServiceError) as refused:
        await service.set(Place(0, PLACE.channel_id), Actor(8, "Mod", can_manage=True), "public")
    assert refused.value.key == "discord.guild_only" and await published(store) == []
    assert (await client.get(f"/rally/{rally.id}")).status == 404


async def test_manage_channels_alone_may_publish(store, client):
    guard = PublicGuard(store, stop_at=3)
    try:
        await guard.play()
    except Stop:
        pass
    rally = await rally_here(store)
    reply = await guard.service.channel_web.set(Place(PLACE.guild_id, PLACE.channel_id),
                                                Actor(9, "Chan", can_manage_channels=True), "PUBLIC")
    assert not reply.ephemeral and await published(store) == [(PLACE.guild_id, PLACE.channel_id, 9)]
    assert (await client.get(f"/rally/{rally.id}")).status == 200
    assert (await client.get(f"/rally/{rally.id}/replay")).status == 404  # in play: its live page, no replay


async def test_a_published_channel_s_running_rally_streams_live_until_it_is_private(store, client):
    guard = PublicGuard(store, stop_at=3)
    try:
        await guard.play()
    except Stop:
        pass
    rally = await rally_here(store)
    assert (await client.get(f"/rally/{rally.id}/events")).status == 404
    await guard.console.run_line("mod: /rally web public")
    page = await (await client.get(f"/rally/{rally.id}")).text()
    async with client.get(f"/rally/{rally.id}/events") as stream:
        assert stream.status == 200 and stream.content_type == "text/event-stream"
        assert await next_event(stream) == ("version", {"version": page_version(page)})
        await guard.console.run_line("mod: /rally web private")
        assert (await next_event(stream))[0] == "end"  # hidden again: the stream ends
    assert (await client.get(f"/rally/{rally.id}/events")).status == 404
