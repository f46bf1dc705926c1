"""A finished rally, turn by turn (`/rally/N/replay?turn=K`, issue 26 §1): one turn per entry of
the rally page's story, its lines and board from the spectators' view, plain links between the
turns; only for a public rally that has ended, on both backends. Road Rally USA: no seat's hand
on any turn of the replay, in any language."""

from __future__ import annotations

import re

from bot.console import PLACE
from bot.i18n import render, t
from bot.web.rally_page import public_rally, rally_page
from tests.web.live_helpers import running_public_rally
from tests.web.test_web_rally import LANGS, PublicGuard, assert_no_secret, page_text, plain
from tests.web.web_helpers import season


def links(body: str) -> dict[str, str]:
    """The replay's step links by their `rel` (first, prev, next, last) → address."""
    return {rel: href.replace("&amp;", "&") for href, rel in re.findall(r'<a href="([^"]+)" rel="(\w+)"', body)}


def told(lines, lang: str = "en") -> list[str]:
    """What a reader sees of a turn's lines (the marks of bold and code gone)."""
    return [plain(render(line, lang)) for line in lines]


async def story_of(store, rally_id: int):
    found = await public_rally(store, rally_id)
    data = await rally_page(store, found.rally, found.league_id)
    assert data.cut == 0
    return data.story


async def test_a_finished_rally_steps_through_its_story_turn_by_turn(service, deadlines, clock, store, client):
    league_id, _ = await season(service, deadlines, clock)
    rally = await store.rallies.get(1)
    assert rally.status == "finished"
    story = await story_of(store, rally.id)
    total = len(story)
    assert total >= 3
    page = await (await client.get(f"/rally/{rally.id}?lang=en")).text()
    assert f'href="/rally/{rally.id}/replay?lang=en"' in page  # the rally page links to its replay

    first = await client.get(f"/rally/{rally.id}/replay?lang=en")
    assert first.status == 200 and first.content_type == "text/html"
    body = await first.text()
    shown = page_text(body)
    assert f"Turn 1 of {total}" in shown
    assert all(line in shown for line in told(story[0]))
    assert f'src="/rally/{rally.id}/replay/1/board.png?lang=en"' in body
    step = links(body)
    assert set(step) == {"next", "last"}  # no way back from the first turn
    assert step["next"] == f"/rally/{rally.id}/replay?turn=2&lang=en"
    assert step["last"] == f"/rally/{rally.id}/replay?turn={total}&lang=en"
    assert f'href="/league/{league_id}?lang=en"' in body

    for turn in (2, total):
        body = await (await client.get(f"/rally/{rally.id}/replay?turn={turn}&lang=en")).text()
        shown = page_text(body)
        assert f"Turn {turn} of {total}" in shown
        assert all(line in shown for line in told(story[turn - 1]))
        assert links(body)["prev"] == f"/rally/{rally.id}/replay?turn={turn - 1}&lang=en"
    assert set(links(body)) == {"first", "prev"}  # the last turn: no way on

    french = await (await client.get(f"/rally/{rally.id}/replay?turn=2&lang=fr")).text()
    assert render(t("web.replay_turn", "fr", turn=2, total=total), "fr") in page_text(french)
    assert all(line in page_text(french) for line in told(story[1], "fr"))
    assert f'href="/rally/{rally.id}/replay?turn=2&amp;lang=de"' in french  # the language switch keeps the turn


async def test_each_turn_has_its_board_cached_by_etag(service, deadlines, clock, store, client):
    await season(service, deadlines, clock)
    total = len(await story_of(store, 1))
    board = await client.get("/rally/1/replay/2/board.png")
    assert board.status == 200 and board.content_type == "image/png"
    tag = board.headers["ETag"]
    assert (await client.get("/rally/1/replay/2/board.png", headers={"If-None-Match": tag})).status == 304
    other = await client.get(f"/rally/1/replay/{total}/board.png")
    assert other.status == 200 and other.headers["ETag"] != tag
    page = await client.get("/rally/1/replay?turn=2")
    assert (await client.get("/rally/1/replay?turn=2", headers={"If-None-Match": page.headers["ETag"]})).status == 304


async def test_turns_that_are_not_there_are_404_and_unreadable_ones_400(service, deadlines, clock, store, client):
    await season(service, deadlines, clock)
    total = len(await story_of(store, 1))
    for turn in ("0", str(total + 1), "999999"):
        assert (await client.get(f"/rally/1/replay?turn={turn}")).status == 404, turn
    for turn in ("abc", "-1", "1.5", "", "1e3", "٣", "1234567", "2%20or%201"):
        assert (await client.get(f"/rally/1/replay?turn={turn}")).status == 400, turn
    for path in ("/rally/1/replay/0/board.png", f"/rally/1/replay/{total + 1}/board.png", "/rally/1/replay/x/board.png",
                 "/rally/1/replay/1234567/board.png", "/rally/99/replay", "/rally/99/replay/1/board.png"):
        assert (await client.get(path)).status == 404, path
    assert (await client.post("/rally/1/replay")).status == 405


async def test_a_private_league_s_rally_has_no_replay(service, deadlines, clock, client):
    await season(service, deadlines, clock, public=False)
    for path in ("/rally/1", "/rally/1/replay", "/rally/1/replay/1/board.png"):
        assert (await client.get(path)).status == 404, path


async def test_a_rally_in_play_has_no_replay_its_live_page_shows_every_turn(store, client):
    _, rally = await running_public_rally(store)
    assert (await client.get(f"/rally/{rally.id}")).status == 200
    assert "/replay" not in await (await client.get(f"/rally/{rally.id}")).text()
    assert (await client.get(f"/rally/{rally.id}/replay")).status == 404
    assert (await client.get(f"/rally/{rally.id}/replay/1/board.png")).status == 404


async def test_the_replay_of_a_road_rally_shows_no_hand_on_any_turn(store, client):
    guard = PublicGuard(store)
    await guard.publish()
    await guard.play()
    (rally,) = await store.rallies.finished_in_channel(PLACE.guild_id, PLACE.channel_id, 5)
    story = await assert_no_secret(client, rally.id, guard.secrets)  # the rally page's scan, as a check of the scan
    # a hand held once and played since is public (the whole story's "plays …")
    played = {s for _, s, whole in guard.secrets if not whole and f"plays {plain(s)}" in story}
    assert any(plain(s) in plain(guard.out.getvalue()) for _, s, _ in guard.secrets)  # it finds what it looks for
    total = len(await story_of(store, rally.id))
    assert total > 10
    for turn in range(1, total + 1):
        for lang in LANGS:
            response = await client.get(f"/rally/{rally.id}/replay?turn={turn}&lang={lang}")
            assert response.status == 200
            shown = page_text(await response.text())
            leaks = [s for _, s, _ in guard.secrets if plain(s) in shown and s not in played]
            assert not leaks, (turn, lang, leaks)
    assert (await client.get(f"/rally/{rally.id}/replay/{total}/board.png")).status == 200
