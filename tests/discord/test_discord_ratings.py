"""`/ratings` through the real command tree with the fakes: a refusal is private, in
the reader's language, and changes nothing; once two drivers are rated the list is posted in the
channel by the outbox sender, like `/scratch ranking`."""

from __future__ import annotations

from bot.services import Actor, Place
from bot.store.ratings import all_ratings_tx
from tests.discord.fakes import CHANNEL, GUILD, Harness, channel_posts, private_answers
from tests.league.test_ratings import live_dash
from tests.toy_game.conftest import toy  # noqa: F401  (the toy game, registered for these tests)

ALICE = (1001, "Alice")


async def test_a_hostile_game_is_refused_privately_and_a_rated_channel_gets_its_list(tmp_path, toy):  # noqa: F811
    async with Harness(tmp_path / "h.sqlite3") as h:
        store = h.bot.rallies.store
        sent = await h.command(ALICE, "ratings", game="**x** @everyone <@&5>")
        (answer,) = private_answers(sent)
        assert "Unknown game" in answer and "dicedash" in answer
        assert channel_posts(sent) == []
        (fr,) = private_answers(await h.command(ALICE, "ratings", game="dicedash", payload={"locale": "fr"}))
        assert fr.startswith("Aucun pilote ayant couru à Course aux dés sur ce serveur")
        assert "`/cotes portée:world`" in fr  # the command as a French client names it
        assert await store.db.read(all_ratings_tx) == []
        assert (await store.db.fetch_one("SELECT COUNT(*) FROM outbox"))[0] == 0

        await live_dash(h.bot.rallies, toy, Place(GUILD, CHANNEL), Actor(1001, "Alice"), Actor(1002, "Bob"))
        await h.settle()  # the rally's own posts go out first
        posts = channel_posts(await h.command(ALICE, "ratings"))  # this channel's game: the dash
        text = posts[-1].content
        assert "Ratings of this server in Dice Dash: 2 rated drivers." in text
        assert "Alice" in text and "Bob" in text
