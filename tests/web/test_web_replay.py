"""A finished rally, turn by turn (`/rally/N/replay?turn=K`): one turn per frame of
its animated replay (a driver's several actions are one turn), every line of the rally page's
story told once, in order, with the board from the spectators' view, plain links, a slider and
play/pause between the turns, the winner on the last turn; only for a public rally that has
ended, on both backends. Road Rally USA: no seat's hand on any turn of the replay, in any
language, and its winner by VP."""

from __future__ import annotations

import re
from html import unescape

from bot import games
from bot.console import PLACE
from bot.i18n import render, t
from bot.services.play.replay import read_log, turn_views
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


def told_lines(body: str) -> list[str]:
    """The lines a replay page tells of its turn (its `div.told`), as a reader sees them."""
    (block,) = re.findall(r'<div class="told">(.*?)</div>', body, re.S)
    return [unescape(re.sub(r"<[^>]+>", "", line)) for line in re.findall(r"<p>(.*?)</p>", block, re.S)]


async def frames_of(store, rally_id: int) -> int:
    """How many turns the rally's animated replay draws after its start (`replay.turn_views`)."""
    row, actions = await read_log(store, rally_id)
    return len(turn_views(row, actions)) - 1


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
    total = await frames_of(store, rally.id)
    assert 3 <= total < len(story)  # a driver's turn is several actions: one turn here, as in the animation
    page = await (await client.get(f"/rally/{rally.id}?lang=en")).text()
    assert f'href="/rally/{rally.id}/replay?lang=en"' in page  # the rally page links to its replay

    first = await client.get(f"/rally/{rally.id}/replay?lang=en")
    assert first.status == 200 and first.content_type == "text/html"
    body = await first.text()
    assert f"Turn 1 of {total}" in page_text(body)
    assert f'src="/rally/{rally.id}/replay/1/board.png?lang=en"' in body
    step = links(body)
    assert set(step) == {"next", "last"}  # no way back from the first turn
    assert step["next"] == f"/rally/{rally.id}/replay?turn=2&lang=en"
    assert step["last"] == f"/rally/{rally.id}/replay?turn={total}&lang=en"
    assert f'href="/league/{league_id}?lang=en"' in body
    assert f'<input type="range" id="turn" name="turn" min="1" max="{total}" value="1"' in body  # the slider
    assert "http-equiv" not in body  # paused: the page stays on its turn

    seen = told_lines(body)
    for turn in range(2, total + 1):
        body = await (await client.get(f"/rally/{rally.id}/replay?turn={turn}&lang=en")).text()
        assert f"Turn {turn} of {total}" in page_text(body)
        assert told_lines(body)
        seen += told_lines(body)
        assert links(body)["prev"] == f"/rally/{rally.id}/replay?turn={turn - 1}&lang=en"
        assert ("Winner:" in page_text(body)) == (turn == total)
    assert seen == [line for lines in story for line in told(lines)]  # every line once, in order
    assert set(links(body)) == {"first", "prev"}  # the last turn: no way on
    assert "Winner: Alice (2:00)" in page_text(body)  # the rally's winner, not the last special's fastest

    french = await (await client.get(f"/rally/{rally.id}/replay?turn=2&lang=fr")).text()
    assert render(t("web.replay_turn", "fr", turn=2, total=total), "fr") in page_text(french)
    assert f'href="/rally/{rally.id}/replay?turn=2&amp;lang=de"' in french  # the language switch keeps the turn


async def test_play_moves_on_by_itself_at_a_readable_pace_and_pause_stops(service, deadlines, clock, store, client):
    await season(service, deadlines, clock)
    total = await frames_of(store, 1)
    paused = await (await client.get("/rally/1/replay?turn=1&lang=fr")).text()
    play = re.search(r'<a class="play" href="([^"]+)">', paused).group(1).replace("&amp;", "&")
    assert play == "/rally/1/replay?turn=2&play=1&lang=fr"
    playing = await (await client.get(play)).text()
    refresh = re.search(r'<meta http-equiv="refresh" content="(\d+);url=([^"]+)">', playing)
    assert refresh is not None and int(refresh.group(1)) >= 1  # no script needed, a turn readable
    assert refresh.group(2).replace("&amp;", "&") == "/rally/1/replay?turn=3&play=1&lang=fr"
    pause = re.search(r'<a class="play" href="([^"]+)">', playing).group(1).replace("&amp;", "&")
    assert pause == "/rally/1/replay?turn=2&lang=fr"
    assert 'hreflang="en"' in playing and "play=1&amp;lang=en" in playing  # a language switch keeps playing
    end = await (await client.get(f"/rally/1/replay?turn={total}&play=1")).text()
    assert "http-equiv" not in end  # the last turn stops
    slider = await client.get("/rally/1/replay", params={"turn": "2", "lang": "de"})  # the slider's form, no script
    assert slider.status == 200 and f"Zug 2 von {total}" in page_text(await slider.text())


async def test_each_turn_has_its_board_cached_by_etag(service, deadlines, clock, store, client):
    await season(service, deadlines, clock)
    total = await frames_of(store, 1)
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
    total = await frames_of(store, 1)
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
    first = page_text(await (await client.get(f"/rally/{rally.id}/replay?lang=en")).text())
    total = int(re.search(r"Turn 1 of (\d+)", first).group(1))
    assert 10 < total <= await frames_of(store, rally.id)  # a turn that told a spectator nothing is not shown
    game = games.get(rally.game)
    state = game.rules.from_json(rally.snapshot)
    (best,) = [seat for seat in game.rules.outcome(state).seats if seat.rank == 1]
    winner = f"Winner: {game.narrator.seat_name(game.rules.view(state, None), best.seat)} ({best.score} VP)"
    for turn in range(1, total + 1):
        for lang in LANGS:
            response = await client.get(f"/rally/{rally.id}/replay?turn={turn}&lang={lang}")
            assert response.status == 200
            shown = page_text(await response.text())
            leaks = [s for _, s, _ in guard.secrets if plain(s) in shown and s not in played]
            assert not leaks, (turn, lang, leaks)
            if lang == "en":
                assert (winner in shown) == (turn == total), (turn, winner)
    assert (await client.get(f"/rally/{rally.id}/replay/{total}/board.png")).status == 200
