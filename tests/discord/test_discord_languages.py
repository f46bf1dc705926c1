"""Every word in the reader's language, through the real command tree: a private answer
in the reader's own Discord language, a channel post in the rally's language (chosen at creation,
else the server's), the buttons too."""

from __future__ import annotations

from bot.i18n import t
from tests.discord.fakes import CHANNEL, GUILD, Harness, buttons_of, channel_posts, private_answers

BOB = (1002, "Bob")
ALICE = (1001, "Alice")


async def test_one_refusal_reads_in_each_readers_language_while_the_post_stays_in_the_rallys(tmp_path):
    async with Harness(tmp_path / "lang.sqlite3") as h:
        await h.command(BOB, "rally", "create", stage="pinewood-sprint", drivers=2)
        await h.command(BOB, "rally", "join")
        await h.command(ALICE, "rally", "join")
        started = await h.command(BOB, "rally", "start")
        assert "Bob" in channel_posts(started)[0].content and "Rallye" not in channel_posts(started)[0].content
        # Alice is not driving: the same refusal, once read in French, once in German, once in English
        fr = private_answers(await h.command(ALICE, "roll", dice="1", payload={"locale": "fr"}))
        de = private_answers(await h.command(ALICE, "roll", dice="1", payload={"locale": "de"}))
        en = private_answers(await h.command(ALICE, "roll", dice="1"))
        assert fr == [t("turn.not_your_turn", "fr", name="Bob")]
        assert de == [t("turn.not_your_turn", "de", name="Bob")]
        assert en == [t("turn.not_your_turn", "en", name="Bob")]
        assert len({fr[0], de[0], en[0]}) == 3
        # a French reader's move in an English rally: the channel still reads English
        played = await h.command(BOB, "roll", dice="1", payload={"locale": "fr"})
        assert private_answers(played) == []
        post = channel_posts(played)[0].content
        assert "rolls" in post and "lance" not in post


async def test_a_rally_created_on_a_french_server_posts_in_french_with_french_buttons(tmp_path):
    french_server = {"guild_locale": "fr"}
    async with Harness(tmp_path / "fr.sqlite3") as h:
        created = await h.command(BOB, "rally", "create", stage="pinewood-sprint", drivers=1, payload=french_server)
        await h.command(BOB, "rally", "join", payload=french_server)
        started = await h.command(BOB, "rally", "start", payload=french_server)
        rally = await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)
        assert rally.modules["language"] == "fr"
        text = "\n".join(c.content for c in channel_posts(created) + channel_posts(started))
        assert "virages" in text and "Ordre de départ" in text  # RULES D1 terms, in French
        assert "corners" not in text and "your turn" not in text
        message = h.last_turn_message()
        labels = [c["label"] for row in message["components"] for c in row["components"]]
        assert labels and buttons_of(message)  # the buttons keep their canonical actions in the id
        played = await h.command(BOB, "roll", dice="1 blanc")  # French die words, typed
        post = channel_posts(played)[0].content
        assert "rolls" not in post and "Bob" in post and t("word.white", "fr") in post


async def test_the_language_option_wins_over_the_servers_language(tmp_path):
    async with Harness(tmp_path / "de.sqlite3") as h:
        await h.command(BOB, "rally", "create", stage="pinewood-sprint", drivers=1, language="de",
                        payload={"guild_locale": "fr"})
        rally = await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)
        assert rally.modules["language"] == "de"
        joined = await h.command(BOB, "rally", "join")
        assert channel_posts(joined)[0].content.startswith(t("rally.joined", "de", name="Bob", count=1, max=1)[:10])


async def test_the_turn_buttons_of_a_german_rally_read_german(tmp_path):
    async with Harness(tmp_path / "buttons.sqlite3") as h:
        await h.command(BOB, "rally", "create", stage="pinewood-sprint", drivers=1, language="de")
        await h.command(BOB, "rally", "join")
        await h.command(BOB, "rally", "start")
        await h.command(BOB, "roll", dice="1")
        message = h.last_turn_message()
        label_of = {c["custom_id"].rsplit(":", 1)[1]: c["label"] for row in message["components"]
                    for c in row["components"]}
        assert label_of["W"] == t("word.white", "de") != "white"
        assert label_of["stop"] == t("discord.button_stop", "de")


async def test_commands_named_in_a_text_are_shown_as_the_readers_client_names_them(tmp_path):
    """A French client shows `/course créer`, not `/rally create` (the names of commands.json)."""
    async with Harness(tmp_path / "names.sqlite3") as h:
        fr = private_answers(await h.command(ALICE, "rally", "status", payload={"locale": "fr"}))
        en = private_answers(await h.command(ALICE, "rally", "status"))
        assert "`/rally create`" in en[0]
        assert "`/course créer`" in fr[0] and "/rally" not in fr[0]
