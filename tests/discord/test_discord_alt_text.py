"""Every picture the bot posts carries its alt text (the attachment's `description`, read to
screen-reader users), through the real command tree: a board (classic, DIRT, Road Rally USA), a
stage preview, a results card, a replay, a career card, the ratings and a league's standings; in
the post's language for a channel post and in the reader's own for a private reply; at most 1,024
characters; naming what the picture shows (the stage, the drivers)."""

from __future__ import annotations

import pytest

from bot import games
from bot.engine.core.text import msg
from bot.engine.rallyman.ai import choose_action
from bot.i18n import render
from bot.services import Actor, Place
from bot.services.alt_text import MAX_CHARS
from tests.discord.fakes import CHANNEL, GUILD, PNG, FakeRenderer, Harness, channel_posts
from tests.league.test_ratings import live_dash
from tests.services.test_alt_text import marker
from tests.toy_game.conftest import toy  # noqa: F401  (the toy game, registered for these tests)

ALICE = (1001, "Alice")
BOB = (1002, "Bob")
CAROL = (1003, "Carol")
LANGS = ("en", "fr", "de")


class AnyBoardRenderer(FakeRenderer):
    """The fakes' renderer, taking a board of any game's arguments (Road Rally USA's are three:
    road, view, names) in any language."""

    def board(self, game, *args, lang="en") -> bytes:
        return PNG


def described(calls) -> dict[str, list[str | None]]:
    """Each uploaded attachment's description among `calls`, by file name (the outbox's picture
    edits and the private answers' uploads alike)."""
    found: dict[str, list[str | None]] = {}
    for call in calls:
        for attachment in (call.body or {}).get("attachments") or ():
            if isinstance(attachment, dict) and "filename" in attachment:
                found.setdefault(attachment["filename"], []).append(attachment.get("description"))
    return found


def the(calls, name: str) -> str:
    """The one description of picture `name` among `calls` (several copies: the last)."""
    texts = described(calls).get(name)
    assert texts, f"no {name} attached among {sorted(described(calls))}"
    text = texts[-1]
    assert text, f"{name} has no description"
    assert len(text) <= MAX_CHARS
    return text


def reads(text: str, key: str, lang: str) -> bool:
    """`text` opens with the words of message `key` in `lang`, and in no other language's (its
    words before the first placeholder, less a short word elided before a vowel: `marker`)."""
    return text.startswith(marker(key, lang)) and not any(text.startswith(marker(key, o)) for o in LANGS if o != lang)


def other(lang: str) -> str:
    return LANGS[(LANGS.index(lang) + 1) % len(LANGS)]


@pytest.mark.parametrize("lang", LANGS)
async def test_a_classic_rally_describes_its_preview_board_results_replay_and_the_career_card(tmp_path, lang):
    async with Harness(tmp_path / "alt.sqlite3") as h:
        start = len(h.sent)
        await h.command(ALICE, "rally", "create", stage="pinewood-sprint", drivers=1, language=lang)
        await h.command(ALICE, "rally", "join")
        lobby = await h.command(ALICE, "rally", "board")
        preview = the(lobby, "stage.png")
        assert reads(preview, "alt.preview", lang) and "Pinewood Sprint" in preview
        await h.command(ALICE, "rally", "start")
        board = the(h.sent[start:], "board.png")
        assert reads(board, "alt.board", lang) and "Pinewood Sprint" in board and "Alice" in board
        assert render(msg("board.to_drive", name="Alice"), lang) in board  # who plays next

        rally = await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)
        place, alice = Place(GUILD, CHANNEL), Actor(*ALICE)
        for _ in range(400):
            current = await h.bot.store.rallies.get(rally.id)
            if current.status != "running":
                break
            await h.bot.rallies.act(place, alice, str(choose_action(h.bot.rallies.work.state_of(current))))
        await h.bot.sender.flush()
        finish = h.sent[start:]
        results = the(finish, "results.png")
        assert reads(results, "alt.results", lang) and "Alice" in results
        assert render(msg("alt.results_count", drivers=1, finished=1), lang) in results
        replay = the(finish, "replay.webp")
        assert reads(replay, "alt.replay", lang) and "Pinewood Sprint" in replay
        assert render(msg("alt.winner", names="Alice"), lang) in replay
        again = the(await h.command(ALICE, "replay", rally=rally.id, payload={"locale": other(lang)}), "replay.webp")
        assert again == replay  # a post: the rally's language, whoever asked

        # private answers: the reader's own language, not the rally's
        reader = other(lang)
        card = the(await h.command(ALICE, "driver", payload={"locale": reader}), "career.png")
        assert reads(card, "alt.career", reader) and "Alice" in card
        assert render(msg("alt.figure", label=msg("career.stat_rallies"), value="1"), reader) in card
        shown = the(await h.command(ALICE, "stage", "show", name="pinewood-sprint", payload={"locale": reader}),
                    "stage.png")
        assert reads(shown, "alt.preview", reader) and "Pinewood Sprint" in shown


@pytest.mark.parametrize(("game", "stage", "lang"), [("dirt", "birch-ridge", "fr"), ("dirt", "copper-mine", "de"),
                                                     ("roadrally", "standard", "en"), ("roadrally", "sprint", "fr")])
async def test_a_dirt_and_a_road_rally_board_name_their_stage_and_every_driver(tmp_path, game, stage, lang):
    played = games.get(game)
    drivers = (ALICE, BOB, CAROL) if game == "roadrally" else (ALICE, BOB)
    async with Harness(tmp_path / "alt-games.sqlite3") as h:
        h.bot.sender.renderer = AnyBoardRenderer()
        start = len(h.sent)
        await h.command(ALICE, "rally", "create", game=game, stage=stage, drivers=len(drivers), language=lang)
        for driver in drivers:
            await h.command(driver, "rally", "join")
        await h.command(ALICE, "rally", "start")
        rally = await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)
        board = the(h.sent[start:], "board.png")
        assert reads(board, "alt.board", lang)
        shown = played.pictures.board(played.rules.view(h.bot.rallies.work.state_of(rally), None))
        course = shown["course"] if game == "roadrally" else shown["stage"]  # the road the picture draws
        assert render(played.library.stages.facts(course).title, lang) in board
        assert all(name in board for _, name in drivers)
        if game == "roadrally":  # the spectators' counts only: hands are never told (C10.8)
            assert render(msg("alt.vp", vp=0), lang) in board


@pytest.mark.parametrize("lang", LANGS)
async def test_the_ratings_and_the_standings_tables_name_their_title_and_top_rows(tmp_path, toy, lang):  # noqa: F811
    server = {"guild_locale": lang}
    async with Harness(tmp_path / "alt-tables.sqlite3") as h:
        await live_dash(h.bot.rallies, toy, Place(GUILD, CHANNEL, lang=lang), Actor(*ALICE), Actor(*BOB))
        await h.settle()
        calls = await h.command(ALICE, "ratings", payload=server)
        ratings = the(calls, "ratings.png")
        assert reads(ratings, "alt.table", lang) and "Alice" in ratings and "Bob" in ratings
        assert channel_posts(calls)

        await h.command(ALICE, "league", "create", name="Club", timezone="Europe/Paris",
                        payload={"manage": True, **server})
        standings = the(await h.command(BOB, "league", "standings", payload={"locale": other(lang)}), "standings.png")
        assert reads(standings, "alt.table", lang) and "Club" in standings
