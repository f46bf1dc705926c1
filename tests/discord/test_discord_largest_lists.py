"""Every listing command with the largest data the product allows, through the real command tree:
no request over Discord's limits (tests/discord/limits_check.py), nothing lost, in order, split
between lines (bot/views/outgoing.py).

The largest: a league name of 40 characters (`MAX_LEAGUE_NAME`), 200 drivers with names of 64
(`MAX_DISPLAY_NAME`), rounds of 4 specials (`MAX_SPECIALS`, the longest stage names of the
library) each with a power stage, added 26 at a time (`MAX_WEEKLY_ROUNDS`, the most one
`/league round add` takes) twice: a league holds as many rounds as are added (52 weeks here, within
the 400 days ahead a round may open), so its lists grow without bound and must be split.
Driver lists in text are bounded by the product (results: 10 rows, ratings and scratch: 10 and
the asker's neighbours; standings are a picture), so the 200 drivers weigh on the join posts,
the league's files and the standings picture, all checked against the limits here too."""

from __future__ import annotations

import re

import pytest

from bot import games
from bot.services.inputs import MAX_DISPLAY_NAME, MAX_SPECIALS
from bot.services.league.leagues import MAX_LEAGUE_NAME, MAX_REASON
from bot.services.league.timing import MAX_WEEKLY_ROUNDS
from bot.store.leagues import leagues_of_guild_tx, members_tx, rounds_of_league_tx
from bot.views.outgoing import MAX_CONTENT
from tests.discord.fakes import GUILD, Harness, buttons_of, channel_posts, http_error, private_answers
from tests.discord.fault_helpers import BOB, command, lobby
from tests.discord.limits_check import over_limits

MOD = (1004, "Mod")
DRIVERS = 200
#: the round word of each language's round lines and announcements
ROUND_WORD = {"fr": "manche", "en": "round", "de": "lauf"}
LOCALES = {"fr": "fr", "en": "en-US", "de": "de"}


def longest_stages() -> str:
    names = sorted(games.get(None).library.stages.names(), key=lambda n: (-len(n), n))[:MAX_SPECIALS]
    return ", ".join(names)


def round_numbers(text: str, lang: str) -> list[int]:
    """The round numbers `text`'s lines name, in order (one a line)."""
    word = re.compile(rf"\b{ROUND_WORD[lang]} (\d+)\b", re.IGNORECASE)
    return [int(m.group(1)) for line in text.split("\n") if (m := word.search(line))]


def assert_split_on_lines(parts: list[str], line_start: re.Pattern[str]) -> None:
    """Several messages, each within the limit, each made of whole lines (every line of every
    part starts as a line of this listing does)."""
    assert len(parts) > 1 and all(0 < len(p) <= MAX_CONTENT for p in parts)
    for part in parts:
        for line in part.split("\n"):
            assert line_start.match(line), line[:80]


@pytest.mark.parametrize("lang", ["fr", "en", "de"])
async def test_the_largest_league_lists_split_within_discords_limits_and_lose_nothing(tmp_path, lang):
    here = {"locale": LOCALES[lang], "guild_locale": LOCALES[lang]}
    organiser = {**here, "manage": True}
    async with Harness(tmp_path / f"largest-{lang}.sqlite3") as h:
        name = ("Championnat d'hiver des Ardennes éèàçù ÉÀÇ" * 2)[:MAX_LEAGUE_NAME]
        await h.command(MOD, "league", "create", name=name, timezone="Europe/Paris", language=lang, payload=organiser)
        for i in range(DRIVERS):  # the first one's name longer than Discord gives: shown cut to 64
            driver = (5000 + i, (f"Pilote n°{i:03d} " + "é" * 300)[:300 if i == 0 else MAX_DISPLAY_NAME])
            assert private_answers(await h.command(driver, "league", "join", payload=here)) == []
        (league,) = await h.bot.store.db.read(lambda tx: leagues_of_guild_tx(tx, GUILD))
        members = await h.bot.store.db.read(lambda tx: members_tx(tx, league.id))
        assert len(members) == DRIVERS and league.name == name
        assert {len(shown) for _, shown in members} == {MAX_DISPLAY_NAME}

        announced: list[str] = []
        for series, day in enumerate(("mon", "mon")):  # 26 weekly rounds, twice, one after the other: 52
            if series:  # the second series from the week after the first ends (rounds are numbered by date)
                h.clock.advance(weeks=MAX_WEEKLY_ROUNDS + 1)
            calls = await h.command(MOD, "league", "round add", stage=longest_stages(), day=day, hour=20,
                                    rounds=MAX_WEEKLY_ROUNDS, power_stage=True, payload=organiser)
            assert private_answers(calls) == []
            parts = [p.content for p in channel_posts(calls)]
            assert_split_on_lines(parts, re.compile("📅"))
            announced.append("\n".join(parts))
        rounds = await h.bot.store.db.read(lambda tx: rounds_of_league_tx(tx, league.id))
        assert len(rounds) == 2 * MAX_WEEKLY_ROUNDS and all(len(r.specials) == MAX_SPECIALS for r in rounds)
        assert round_numbers(announced[0], lang) == list(range(1, 27))
        assert round_numbers(announced[1], lang) == list(range(27, 53))

        calls = await h.command(MOD, "league", "round list", payload=organiser)
        listed = private_answers(calls)
        assert calls[1].method == "PATCH" and "@original" in calls[1].url  # the "thinking…" answer is the first
        assert_split_on_lines(listed, re.compile(rf"{ROUND_WORD[lang]} \d+ —|.*\*\*{re.escape(name)}\*\*",
                                                 re.IGNORECASE))
        text = "\n".join(listed)
        assert round_numbers(text, lang) == [r.number for r in rounds] == list(range(1, 53))
        hashes = [r.seed_hash[:16] for r in rounds]
        assert [text.index(x) for x in hashes] == sorted(text.index(x) for x in hashes)

        reason = ("Tempête de neige sur le col, route fermée par la préfecture " * 5)[:MAX_REASON]
        calls = await h.command(MOD, "league", "round cancel", round=52, reason=reason, payload=organiser)
        assert any(reason in p.content for p in channel_posts(calls))
        for command in (("league", "standings"), ("league", "calendar"), ("league", "export"), ("help",),
                        ("stage", "list"), ("rules",), ("ratings",), ("scratch", "ranking"), ("scratch", "me"),
                        ("driver",)):
            calls = await h.command(MOD, *command, payload=organiser)
            assert private_answers(calls) or channel_posts(calls), command
        assert over_limits(h.sent) == []


async def test_a_turn_post_longer_than_a_message_goes_as_several_with_buttons_ping_and_picture_on_the_last(tmp_path):
    """A rally start whose text is longer than a message (its lines made long here): the parts go
    in order with their own nonces; the buttons, the ping and the board are the last part's, and
    the last part is the message recorded as the turn's."""
    async with Harness(tmp_path / "long-turn.sqlite3") as h:
        delivery = h.bot.rallies.delivery
        real = delivery.prepare
        extra = [f"Ligne {i:03d} : " + "ô" * 60 for i in range(80)]

        async def long(row, now):
            out = await real(row, now)
            if out.turn is not None:
                out.lines = [*out.lines, *extra]
            return out

        delivery.prepare = long
        rally = await lobby(h)
        await command(h, BOB, "rally", "start")
        (row,) = [r for r in await h.bot.store.outbox.all() if r.kind == "turn"]
        parts = [p for p in channel_posts(h.sent) if p.body.get("nonce", "").startswith(f"rb{row.id}")]
        assert len(parts) > 1 and over_limits(h.sent) == []
        assert [p.body["nonce"] for p in parts] == [f"rb{row.id}", *(f"rb{row.id}.{i}" for i in range(1, len(parts)))]
        text = "\n".join(p.content for p in parts)
        assert [line for line in text.split("\n") if line.startswith("Ligne ")] == extra
        *first, last = parts
        assert buttons_of(last.reply) and not any(buttons_of(p.reply) for p in first)
        assert f"<@{BOB[0]}>" in last.content and last.body["allowed_mentions"]["users"] == [BOB[0]]
        assert all(p.body["allowed_mentions"] == {"parse": []} for p in first)  # the ping notifies once
        (board,) = [c for c in h.sent if c.method == "PATCH" and "attachments" in (c.body or {})]
        assert board.url.endswith(f"/messages/{last.reply['id']}")
        # the last part is the turn's recorded message: the next turn takes its buttons off
        await command(h, BOB, "roll", dice="1", end=True)
        removed = [c for c in h.sent if c.method == "PATCH" and (c.body or {}).get("components") == []]
        assert [c.url.rsplit("/", 1)[1] for c in removed] == [str(last.reply["id"])] and row.rally_id == rally.id


async def test_a_private_answer_longer_than_a_message_edits_the_thinking_answer_then_follows_up(tmp_path):
    """`/league round list` of 30 rounds in French: the deferred answer is edited with the first
    part, the rest are ephemeral follow-ups in order; nothing is sent that Discord would refuse."""
    async with Harness(tmp_path / "private.sqlite3") as h:
        fr = {"locale": "fr", "guild_locale": "fr", "manage": True}
        await h.command(MOD, "league", "create", name="Club", timezone="Europe/Paris", language="fr", payload=fr)
        await h.command(MOD, "league", "round add", stage="pinewood-sprint", day="mon", hour=20, rounds=26,
                        payload=fr)
        calls = await h.command(MOD, "league", "round list", payload=fr)
        callback, original, *followups = calls
        assert callback.body["type"] == 5 and original.method == "PATCH" and "@original" in original.url
        assert followups and all(c.method == "POST" and c.ephemeral for c in followups)
        assert round_numbers("\n".join(private_answers(calls)), "fr") == list(range(1, 27))
        assert over_limits(calls) == []


async def test_a_post_whose_second_part_fails_is_sent_again_whole_with_the_same_nonces(tmp_path):
    """Discord fails the second part (a 500): the row is tried again later, every part with the
    nonce it had, so the part Discord took is not posted twice (enforce_nonce)."""
    async with Harness(tmp_path / "retry.sqlite3") as h:
        fr = {"locale": "fr", "guild_locale": "fr", "manage": True}
        await h.command(MOD, "league", "create", name="Club", timezone="Europe/Paris", language="fr", payload=fr)
        seen = []

        async def second_fails() -> None:
            seen.append(1)
            if len(seen) == 2:
                h.http.fail(http_error(500))

        h.http.before("/channels/20/messages", second_fails, times=100)
        calls = await h.command(MOD, "league", "round add", stage=longest_stages(), day="mon", hour=20, rounds=26,
                                payload=fr)
        first = [c for c in calls if c.method == "POST" and c.via == "http"]
        assert [c.body["nonce"] for c in first] == ["rb2", "rb2.1"] and first[1].error is not None
        h.clock.advance(seconds=10)
        again = [c for c in await flush_all(h) if c.method == "POST" and c.via == "http"]
        nonces = [c.body["nonce"] for c in again]
        assert nonces == ["rb2", *(f"rb2.{i}" for i in range(1, len(nonces)))] and len(nonces) > 2
        assert all(c.error is None for c in again)
        assert round_numbers("\n".join(c.content for c in again), "fr") == list(range(1, 27))
        (row,) = [r for r in await h.bot.store.outbox.all() if r.id == 2]
        assert row.outcome == "sent" and over_limits(h.sent) == []


async def flush_all(h: Harness) -> list:
    before = len(h.sent)
    await h.bot.sender.flush()
    return h.sent[before:]
