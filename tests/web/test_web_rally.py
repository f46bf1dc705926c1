"""A rally's page: its board and its turn log from the spectators' view, a refresh that follows
the play, and, for Road Rally USA, no seat's hand or stage cards anywhere on the page (the scan of
tests/roadrally/test_rr_guard.py applied to the page, in every language)."""

from __future__ import annotations

import html
import re

from bot.console import PLACE, Console
from tests.roadrally.test_rr_guard import RR, Guard

LANGS = ("en", "fr", "de")


class Stop(Exception):
    """Ends a guarded game after a number of steps (the page is read mid-game)."""


class PublicGuard(Guard):
    """The guard's game, in the channel of a public league (made through the console), stopped
    after `stop_at` steps when given."""

    def __init__(self, store, stop_at: int | None = None) -> None:
        super().__init__(store, ["ann", "ben"], 2, 11)
        self.console = Console(self.service, out=self.out, admins=["mod"])
        self.stop_at = stop_at

    async def publish(self) -> None:
        await self.console.run_line("mod: /league create name:Road Cup timezone:UTC")
        await self.console.run_line("mod: /league web public")
        assert "is now public" in self.out.getvalue()

    def scan(self, chunk, secrets) -> None:
        super().scan(chunk, secrets)
        if self.stop_at is not None and self.steps + 1 >= self.stop_at:
            raise Stop


def page_text(body: str) -> str:
    """What a reader sees of a page: tags gone, entities read, markup marks gone."""
    text = re.sub(r"<br>|</li>|</p>|</h\d>", "\n", body)
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def plain(secret: str) -> str:
    return secret.replace("**", "").replace("`", "")


async def assert_no_secret(client, rally_id: int, secrets) -> str:
    english = ""
    played: set[str] = set()  # cards a hand held once and then played: public since (the English log's "plays …")
    for lang in LANGS:
        response = await client.get(f"/rally/{rally_id}?lang={lang}")
        assert response.status == 200
        shown = page_text(await response.text())
        if not english:
            english = shown
            played = {s for _, s, whole in secrets if not whole and f"plays {plain(s)}" in shown}
        leaks = [s for _, s, _ in secrets if plain(s) in shown and s not in played]
        assert not leaks, leaks
    return english


async def rally_here(store):
    return await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id)


async def one_move(guard, store) -> None:
    """Play until the rally's version changes (a seat's move, or the AI seats' job)."""
    before = (await rally_here(store)).version
    for _ in range(20):
        now = await rally_here(store)
        if now is None or now.version != before:
            return
        table = await guard.service.turns.answered_state(now)  # a window: with the answers kept so far
        people = sorted(s for s in RR.rules.to_act(table) if s in guard.seats)
        if people:
            seat = people[0]
            move = RR.commands.label(RR.coach.choose(RR.rules.view(table, seat), seat))
            await guard.console.run_line(f"{guard.seats[seat]}: /act {move}")
        else:
            await guard.console.run_line("ann: /rally status")
    raise AssertionError("the rally did not move")


async def test_a_running_road_rally_page_shows_its_board_and_log_but_no_hand_and_follows_the_play(store, client):
    guard = PublicGuard(store, stop_at=25)
    await guard.publish()
    try:
        await guard.play()
    except Stop:
        pass
    rally = await rally_here(store)
    assert rally is not None and rally.status == "running" and rally.game == "roadrally"
    table = guard.service.work.state_of(rally)
    assert any(seat.hand for seat in table.state.seats)
    # every secret line seen along the game, and the hands held now (a hand held earlier may have
    # been played since: played cards are public)
    secrets = guard.now(table) | {x for x in guard.secrets if x[2]}
    assert any(plain(s) in plain(guard.out.getvalue()) for _, s, _ in secrets)  # the scan finds what it looks for
    shown = await assert_no_secret(client, rally.id, secrets)
    assert "Turn log" in shown and "This page follows the rally as it is played." in shown
    assert "Without JavaScript, refresh the page" in shown  # the <noscript> line: a refresh still works
    board = await client.get(f"/rally/{rally.id}/board.png")
    assert board.status == 200 and board.content_type == "image/png"
    first = await client.get(f"/rally/{rally.id}")
    tag = first.headers["ETag"]
    assert (await client.get(f"/rally/{rally.id}", headers={"If-None-Match": tag})).status == 304
    # one more move: the same address answers anew
    await one_move(guard, store)
    assert (await rally_here(store)).version != rally.version
    after = await client.get(f"/rally/{rally.id}", headers={"If-None-Match": tag})
    assert after.status == 200 and after.headers["ETag"] != tag
    await assert_no_secret(client, rally.id, guard.now(guard.service.work.state_of(await rally_here(store))))


async def test_a_finished_road_rally_tells_its_whole_story_and_no_secret_of_the_game(store, client):
    guard = PublicGuard(store)
    await guard.publish()
    await guard.play()
    (rally,) = await store.rallies.finished_in_channel(PLACE.guild_id, PLACE.channel_id, 5)
    shown = await assert_no_secret(client, rally.id, guard.secrets)
    assert "finished" in shown and "Results" in shown
    assert shown.count("\n") > 50  # the story of the game, turn by turn


async def test_a_rally_of_a_channel_no_league_publishes_answers_404(store, client):
    guard = PublicGuard(store, stop_at=3)
    try:
        await guard.play()  # no league made public in this channel
    except Stop:
        pass
    rally = await rally_here(store)
    assert (await client.get(f"/rally/{rally.id}")).status == 404
    assert (await client.get(f"/rally/{rally.id}/board.png")).status == 404
