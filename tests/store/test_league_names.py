"""Migration 8: league names unique whatever their case, on both backends.

Before it, "Cup" and "cup" could both be created in one server but only the first was ever found
by name. The migration keeps the first created as it is, renames each later one "Cup (2)"…, tells
its channel, and the store's unique index refuses a new name that differs only by case or form.
"""

from __future__ import annotations

import pytest

from bot.i18n import render
from bot.store import Store
from bot.store.clock import utc_now
from bot.store.league_names import STEP, name_key
from bot.store.leagues import Duplicate, create_league_tx, leagues_of_guild_tx
from bot.store.migrations import MIGRATIONS

GUILD, OTHER_GUILD = 10, 11
# (guild, name, channel, language), created in this order
OLD_LEAGUES = [
    (GUILD, "Cup", 100, "en"),
    (GUILD, "cup", 101, "fr"),
    (GUILD, "Cup (2)", 102, "en"),  # the name the rename would pick first: taken, so "(3)"
    (GUILD, "CUP", 103, "de"),
    (GUILD, "Spring", 104, "en"),
    (OTHER_GUILD, "cup", 200, "en"),  # another server's league keeps its name
]


async def _old_database(target) -> None:
    async with Store.open(target, migrations=MIGRATIONS[:STEP - 1]) as old:  # the schema before the name keys
        rows = [(guild, name, channel, "UTC", "[25]", "classic", "{}", "personal", lang, 1, "2026-01-01T00:00:00Z")
                for guild, name, channel, lang in OLD_LEAGUES]
        await old.db.write(lambda tx: tx.execute_many(
            "INSERT INTO leagues (guild_id, name, channel_id, timezone, points, ruleset, modules, dice, language, "
            "created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows))


async def test_later_leagues_named_alike_are_renamed_and_their_channel_told(db_target):
    await _old_database(db_target)
    async with Store.open(db_target) as store:
        assert await store.schema_version() == len(MIGRATIONS) >= 8
        ours = await store.db.read(lambda tx: leagues_of_guild_tx(tx, GUILD))
        assert [lg.name for lg in ours] == ["Cup", "cup (3)", "Cup (2)", "CUP (4)", "Spring"]
        theirs = await store.db.read(lambda tx: leagues_of_guild_tx(tx, OTHER_GUILD))
        assert [lg.name for lg in theirs] == ["cup"]
        keys = await store.db.fetch_all("SELECT name, name_key FROM leagues ORDER BY id")
        assert [tuple(r) for r in keys] == [(name, name_key(name)) for name in
                                            ["Cup", "cup (3)", "Cup (2)", "CUP (4)", "Spring", "cup"]]
        owed = await store.outbox.all()
        assert [(o.guild_id, o.channel_id, o.body["lang"]) for o in owed] == [(GUILD, 101, "fr"), (GUILD, 103, "de")]
        [line] = owed[0].body["lines"]
        assert line["key"] == "league.renamed_duplicate"
        assert line["params"] == {"other": "Cup", "old": "cup", "name": "cup (3)"}


async def test_after_the_migration_a_name_differing_only_by_case_or_form_is_refused_by_the_index(db_target):
    await _old_database(db_target)
    async with Store.open(db_target) as store:
        before = await store.db.fetch_all("SELECT * FROM leagues ORDER BY id")
        for name in ("SPRING", "spring", "Ｓｐｒｉｎｇ", "cup (3)"):
            with pytest.raises(Duplicate) as refused:
                await store.db.write(lambda tx, name=name: create_league_tx(
                    tx, guild_id=GUILD, name=name, channel_id=1, timezone="UTC", points=[1], best_rounds=None,
                    ruleset="classic", modules={}, dice="personal", created_by=1, now=utc_now()))
            assert name in str(refused.value)
        assert [tuple(r) for r in await store.db.fetch_all("SELECT * FROM leagues ORDER BY id")] == \
            [tuple(r) for r in before]


def test_the_renamed_leagues_post_reads_in_each_language():
    from bot.engine.core.text import msg

    told = msg("league.renamed_duplicate", other="Cup", old="cup", name="cup (2)")
    for lang in ("en", "fr", "de"):
        text = render(told, lang)
        assert "**Cup**" in text and "**cup (2)**" in text and "{" not in text


def test_a_name_key_ignores_case_and_unicode_form_only():
    assert name_key("Cup") == name_key("CUP") == name_key("ｃｕｐ") == name_key("Ｃｕｐ") == "cup"
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("Coupe d'été") == name_key("COUPE D'ÉTÉ") != name_key("Coupe d'ete")
    assert name_key("Cup 2") != name_key("Cup")
