"""A league of Road Rally USA on Discord, through the real command tree and the
scheduler: the round's opening makes one private thread per table in the league's channel, with
the table's drivers added to it, and posts which table plays where; each table's first prompt is
posted in its thread, asking for `/hand`, with no card in it."""

from __future__ import annotations

from bot import games
from bot.store.leagues import leagues_of_guild_tx, rounds_of_league_tx
from tests.discord.fakes import CHANNEL, GUILD, Harness, channel_posts, private_answers

RR = games.get("roadrally")
MOD = (5004, "Mod")
DRIVERS = [(5100 + i, name) for i, name in enumerate(("Ann", "Ben", "Cat", "Dan", "Eva", "Fay", "Gus"))]


async def test_a_road_rally_round_opens_one_private_thread_per_table_with_its_drivers(tmp_path):
    async with Harness(tmp_path / "rr-league.sqlite3") as h:
        assert private_answers(await h.command(MOD, "league", "create", name="Road Cup", timezone="UTC",
                                               game="roadrally", payload={"manage": True})) == []
        for driver in DRIVERS:
            assert private_answers(await h.command(driver, "league", "join")) == []
        calls = await h.command(MOD, "league", "round add", stage="standard", opens="now", closes="+7d",
                                payload={"manage": True})
        assert private_answers(calls) == []
        before = len(h.sent)
        await h.bot.deadlines.run_due()
        await h.bot.sender.flush()
        sent = h.sent[before:]
        made = [c for c in sent if c.method == "POST" and c.url.endswith(f"/channels/{CHANNEL}/threads")
                and c.error is None]
        assert len(made) == 2  # 7 drivers: a table of 4 and a table of 3
        threads = [int(c.reply["id"]) for c in made]
        added = [c for c in sent if c.method == "PUT" and "/thread-members/" in c.url and c.error is None]
        assert len(added) == 7 and {int(c.url.rsplit("/", 1)[1]) for c in added} == {d[0] for d in DRIVERS}
        posts = channel_posts(sent)
        opened = next(p for p in posts if p.url.endswith(f"/channels/{CHANNEL}/messages") and "table" in p.content)
        assert all(f"<#{t}>" in opened.content for t in threads)
        for thread in threads:
            prompts = [p for p in posts if p.url.endswith(f"/channels/{thread}/messages")]
            assert prompts and any("/hand" in p.content for p in prompts)
            assert not any("Your hand" in p.content for p in prompts)
            rally = await h.bot.store.rallies.get_active_in_channel(GUILD, thread)
            assert rally is not None and rally.game == "roadrally" and rally.status == "running"
        (league,) = await h.bot.store.db.read(lambda tx: leagues_of_guild_tx(tx, GUILD))
        (rnd,) = await h.bot.store.db.read(lambda tx: rounds_of_league_tx(tx, league.id))
        assert rnd.status == "open"
