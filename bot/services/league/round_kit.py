"""What every league service shares about rounds: their secret seeds, their jobs, their locks and
how their times and stages are written in posts.

A round's secret is 256 random bits (hex); only its SHA-256 is shown until the close, when the
seed itself is published so anybody can check the hash and replay every result card. The jobs of
a round (open, reminders 24 h and 1 h before the close, close) are scheduled in the transaction
that adds the round and are handled by `bot/services/league/jobs.py`.
"""

from __future__ import annotations

import hashlib
import secrets
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot import games
from bot.engine.core.text import Listed, msg
from bot.services.stage_library import size_text
from bot.services.work import Post, post_tx
from bot.store.clock import from_text
from bot.store.connection import Database, Tx
from bot.store.jobs import schedule_tx
from bot.store.leagues import League, Round, rounds_of_league_tx, set_round_numbers_tx

KIND_OPEN, KIND_REMIND, KIND_CLOSE = "league.open", "league.remind", "league.close"
LEAGUE_KINDS = (KIND_OPEN, KIND_REMIND, KIND_CLOSE)
REMINDERS = (timedelta(hours=24), timedelta(hours=1))


def new_seed() -> str:
    """A round's secret: 256 random bits (hex), so its published SHA-256 cannot be reversed."""
    return secrets.token_hex(32)


def seed_hash(seed: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def plural(n: int) -> str:
    """The catalogue's plural form of a count (`.one` / `.other`)."""
    return "one" if n == 1 else "other"


def round_ref(round_id: int, what: str = "") -> str:
    return f"round:{round_id}" + (f":{what}" if what else "")


def round_of_ref(ref: str) -> int | None:
    parts = ref.split(":")
    return int(parts[1]) if len(parts) >= 2 and parts[0] == "round" and parts[1].isdigit() else None


def discord_time(moment: datetime) -> str:
    """A Discord timestamp: every reader sees it in their own time zone and language."""
    stamp = int(moment.timestamp())
    return f"<t:{stamp}:f> (<t:{stamp}:R>)"


class RoundLocks:
    """One lock per round, across every process of the database (`Database.locked`): its open,
    close, penalties and run starts never interleave."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def __call__(self, round_id: int) -> AbstractAsyncContextManager[None]:
        return self._db.locked("round", round_id)


async def schedule_round_tx(tx: Tx, rnd: Round, guild_id: int) -> None:
    """Inside `tx`: the round's jobs: open (unless it is open already: a round moved), a reminder
    24 h and 1 h before the close (when the round is open by then), and the close; they belong to
    the league's server (`guild_id`)."""
    opens, closes = from_text(rnd.opens_at), from_text(rnd.closes_at)
    if rnd.status == "scheduled":
        await schedule_tx(tx, KIND_OPEN, round_ref(rnd.id, "open"), opens, guild_id=guild_id)
    for before in REMINDERS:
        if closes - before > opens:
            await schedule_tx(tx, KIND_REMIND, round_ref(rnd.id, f"{int(before.total_seconds() // 3600)}h"),
                              closes - before, guild_id=guild_id)
    await schedule_tx(tx, KIND_CLOSE, round_ref(rnd.id, "close"), closes, guild_id=guild_id)


def numbers_by_date(rounds: list[Round]) -> dict[int, int]:
    """Each round's number (by id): a closed round keeps its own (its posts and result cards name
    it); the scheduled and open rounds take the other numbers from 1 up in the order they open;
    the cancelled ones come after all of them (no gap among the rounds that are driven)."""
    numbers = {r.id: r.number for r in rounds if r.status == "closed"}
    taken = set(numbers.values())
    n = 0
    for r in sorted((r for r in rounds if r.status in ("scheduled", "open")),
                    key=lambda r: (r.opens_at, r.closes_at, r.id)):
        n += 1
        while n in taken:
            n += 1
        numbers[r.id] = n
    top = max(numbers.values(), default=0)
    for i, r in enumerate(sorted((r for r in rounds if r.status == "cancelled"), key=lambda r: r.id), 1):
        numbers[r.id] = top + i
    return numbers


async def renumber_tx(tx: Tx, league_id: int) -> tuple[dict[int, int], list[tuple[int, int]]]:
    """Inside `tx` (after a round is added, moved or cancelled): the league's rounds numbered by
    date (`numbers_by_date`); every round's number by id, and the (old, new) numbers that changed."""
    rounds = await rounds_of_league_tx(tx, league_id)
    numbers = numbers_by_date(rounds)
    changed = {r.id: numbers[r.id] for r in rounds if numbers[r.id] != r.number}
    if changed:
        await set_round_numbers_tx(tx, changed)
    return numbers, sorted((r.number, numbers[r.id]) for r in rounds if r.id in changed)


def renumbered_line(changes: list[tuple[int, int]]) -> list[str]:
    """The line a post adds when rounds were renumbered by date (none when nothing changed)."""
    if not changes:
        return []
    return [msg("league.renumbered", changes=Listed([msg("league.renumbered_one", old=old, new=new)
                                                    for old, new in changes], "comma"))]


def local(moment: datetime | str, league: League) -> datetime:
    """A stored time (UTC, or its text) in the league's time zone: what a post's times are shown
    in where they are written out (the console); a Discord timestamp shows each reader their own."""
    when = from_text(moment) if isinstance(moment, str) else moment
    try:
        return when.astimezone(ZoneInfo(league.timezone))
    except (ZoneInfoNotFoundError, ValueError):
        return when


def league_language(league: League) -> str:
    """The language of a league's posts (chosen at creation; English before)."""
    return league.language


async def league_post_tx(tx: Tx, league: League, post: Post, now: datetime) -> int:
    """Inside `tx`: owe `post` to the league's channel, in the league's language."""
    return await post_tx(tx, post, league.guild_id, league.channel_id, now, lang=league_language(league))


def specials_text(specials: list[str], game: str | None = None) -> str:
    """A round's stage, or its course of specials, as posts name it (from the game's library)."""
    stages = games.get(game).library.stages
    if len(specials) == 1:
        stage = stages.facts(specials[0])
        return msg("league.stage_one", title=stage.title, size=size_text(stage))
    return Listed([msg("special.numbered", n=i + 1, title=stages.facts(name).title) for i, name in enumerate(specials)])


def world_title(week: str | None, game: str) -> str:
    """A world round's title: classic's as it always was (`World scratch 2026-W48`), any other
    game's naming the game."""
    if game == games.DEFAULT_GAME:
        return msg("scratch.title", week=week or "?")
    return msg("scratch.title_game", week=week or "?", game=msg(games.get(game).library.name))


def round_title(rnd: Round, league_name: str | None) -> str:
    if league_name is None:
        return world_title(rnd.week, rnd.game)
    return msg("league.round_title", league=league_name, number=rnd.number)
