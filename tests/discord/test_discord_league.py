"""Championships in Discord, through the REAL command tree from raw payloads (see fakes.py).

A league is created, drivers join, an organiser adds a round, the scheduler opens it; each driver's
`/run start` makes a private thread in the league's channel with them in it, where the run is
played with the usual `/roll` and `/stop`; the league channel gets one line per finished run; at
the close the results post carries the results image and the round's cards file, then the
standings. What may go wrong on Discord's side is tested as a user would notice it: a refused
organiser command changes nothing, a second `/run start` racing the first leaves no second thread,
a bot without Create Private Threads says so, `/verify` tells a genuine card from a tampered one.
"""

from __future__ import annotations

import json

import discord
import pytest

from bot.engine.rallyman.actions import Roll, Stop
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.protocol import GAME as RALLYMAN
from bot.engine.rallyman.turn import format_time as label_time
from bot.services.play.replay import log_problem, replay_snapshot
from bot.services.reply import Actor, Place
from bot.services.work import Post, post_tx
from bot.store.leagues import cards_tx, leagues_of_guild_tx, put_cards_tx, rounds_of_league_tx, run_of_tx
from tests.discord.fakes import (
    CHANNEL,
    EVERYTHING,
    GUILD,
    Harness,
    attachment_edits,
    attachment_option,
    buttons_of,
    channel_option,
    channel_posts,
    command_payload,
    http_error,
    option,
    private_answers,
    role_option,
    thread_payload,
    user_option,
)

MOD = (1004, "Mod")
ALICE = (1001, "Alice")
BOB = (1002, "Bob")
CAROL = (1003, "Carol")
AS_MOD = {"manage": True}
ORGANISERS = 1_122_334_455_667_788_990
MAX_MOVES = 400
CARDS_URL = "https://cdn.example/attachments/round-1-cards.json"


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "league.sqlite3") as harness:
        yield harness


async def flush(h: Harness) -> list:
    before = len(h.sent)
    await h.bot.sender.flush()
    return h.sent[before:]


async def tick(h: Harness) -> list:
    """The scheduler's round, then the sender's: what the jobs posted."""
    await h.bot.deadlines.run_due()
    return await flush(h)


async def rounds(h: Harness) -> list:
    (league,) = await h.bot.store.db.read(lambda tx: leagues_of_guild_tx(tx, GUILD))
    return await h.bot.store.db.read(lambda tx: rounds_of_league_tx(tx, league.id))


async def league_with_open_round(h: Harness, *drivers: tuple[int, str]) -> None:
    """`Club` posting in the test channel, `drivers` joined, round 1 open now for two days."""
    assert private_answers(await h.command(MOD, "league", "create", name="Club", timezone="Europe/Paris",
                                           payload=AS_MOD)) == []
    for driver in drivers:
        assert private_answers(await h.command(driver, "league", "join")) == []
    calls = await h.command(MOD, "league", "round add", stage="pinewood-sprint", opens="now", closes="+2d",
                            payload=AS_MOD)
    assert private_answers(calls) == [] and len(channel_posts(calls)) == 1
    (opened,) = channel_posts(await tick(h))
    (rnd,) = await rounds(h)
    assert "is open" in opened.content and opened.url.endswith(f"/channels/{CHANNEL}/messages")
    assert rnd.seed_hash in opened.content and rnd.seed not in opened.content  # the hash now, the seed at close


def in_thread(thread_id: int) -> dict:
    """`_base` keywords of an interaction typed in the private thread `thread_id`."""
    return {"channel": thread_payload(thread_id, CHANNEL)}


def thread_requests(calls) -> list:
    return [c for c in calls if c.method == "POST" and c.url.endswith("/threads") and c.error is None]


async def run_start(h: Harness, user: tuple[int, str], **kwargs) -> tuple[int, list]:
    """`/run start` that is expected to work: the new thread's id and the calls."""
    calls = await h.command(user, "run", "start", **kwargs)
    (made,) = thread_requests(calls)
    thread_id = int(made.reply["id"])
    assert private_answers(calls) == [f"Your run is in <#{thread_id}>."]
    return thread_id, calls


async def drive(h: Harness, user: tuple[int, str], thread_id: int, through_tree: int = 0) -> list:
    """Drive a run to its end with the AI's choices: the first `through_tree` moves as `/roll` or
    `/stop` typed in the thread (each refused by nothing and answered in the thread), the others
    through the service (what a command does after the tree). Returns what the sender delivered."""
    place, actor = Place(GUILD, thread_id), Actor(user[0], user[1])
    delivered = []
    for move in range(MAX_MOVES):
        rally = await h.bot.store.rallies.get_active_in_channel(GUILD, thread_id)
        if rally is None or rally.status != "running":
            return delivered + await flush(h)
        action = choose_action(h.bot.rallies.work.state_of(rally))
        if move < through_tree:
            assert isinstance(action, (Roll, Stop))
            if isinstance(action, Roll):
                calls = await h.command(user, "roll", dice=RALLYMAN.commands.label(action),
                                        payload=in_thread(thread_id))
            else:
                calls = await h.command(user, "stop", payload=in_thread(thread_id))
            assert private_answers(calls) == []
            posts = channel_posts(calls)
            assert posts and all(p.url.endswith(f"/channels/{thread_id}/messages") for p in posts)
            delivered += calls
        else:
            await h.bot.rallies.act(place, actor, str(action))
    raise AssertionError("the run did not end")


async def test_a_round_is_run_in_private_threads_and_closes_with_results_cards_and_standings(h):
    await league_with_open_round(h, ALICE, BOB)

    alice_thread, calls = await run_start(h, ALICE)
    (made,) = thread_requests(calls)
    assert made.url.endswith(f"/channels/{CHANNEL}/threads")
    assert made.body["type"] == 12 and made.body["invitable"] is False  # private; nobody else can invite
    assert made.body["name"] == "Run — Alice — Club round 1"
    assert any(c.method == "PUT" and c.url.endswith(f"/channels/{alice_thread}/thread-members/{ALICE[0]}")
               for c in calls)
    (prompt,) = channel_posts(calls)  # the first turn prompt, in the thread, pinging Alice only
    assert prompt.url.endswith(f"/channels/{alice_thread}/messages")
    assert "Alice's run of **Club — round 1**" in prompt.content and "Alice, your turn" in prompt.content
    assert prompt.body["allowed_mentions"]["users"] == [ALICE[0]] and buttons_of(prompt.body)

    delivered = await drive(h, ALICE, alice_thread, through_tree=4)
    (finished,) = [p for p in channel_posts(delivered) if p.url.endswith(f"/channels/{CHANNEL}/messages")]
    assert "🏁 Alice finished Club — round 1 in " in finished.content and "provisionally 1 of 1" in finished.content
    assert "roll" not in finished.content and finished.files == []  # no dice shown

    bob_thread, _ = await run_start(h, BOB)
    assert bob_thread != alice_thread
    delivered = await drive(h, BOB, bob_thread)
    (finished,) = [p for p in channel_posts(delivered) if p.url.endswith(f"/channels/{CHANNEL}/messages")]
    assert "🏁 Bob finished" in finished.content and "of 2" in finished.content

    h.clock.advance(days=2, minutes=1)
    closing = await tick(h)
    results, standings, *earned = channel_posts(closing)
    # the close also announces the achievements the round's places earn (one post: bot/services/career/achievements.py)
    winner = results.content.split("\n1. ", 1)[1].split(" — ", 1)[0]
    lines = [line for p in earned for line in p.content.splitlines()]
    assert lines and all(line.startswith("🏆 ") for line in lines)
    assert f"🏆 {winner} earns an achievement: **First win**. Win a rally with several cars." in lines
    (rnd,) = await rounds(h)
    # text first: the results go with their cards, the picture joins them by an edit that keeps
    # the cards (listed by id, not uploaded again)
    (text,) = [c for c in closing if c.method == "POST" and c.via == "http" and c.reply == results.reply]
    assert text.files == ["round-1-cards.json"]
    assert text.body["attachments"][0]["description"] == "Result cards of round 1: the file /verify checks."
    (edit,) = attachment_edits(closing, results)
    assert edit.files == ["results.png"] and edit.body["attachments"][0]["filename"] == "results.png"
    assert str(edit.body["attachments"][1]["id"]) == text.reply["attachments"][0]["id"]
    assert results.url.endswith(f"/channels/{CHANNEL}/messages") and "is closed" in results.content
    assert "Alice" in results.content and "Bob" in results.content and rnd.seed in results.content
    assert results.files == ["results.png", "round-1-cards.json"]
    attached = results.data["round-1-cards.json"]
    assert attached.decode() == await h.bot.store.db.read(lambda tx: cards_tx(tx, rnd.id))
    assert {card["name"] for card in json.loads(attached)["cards"]} == {"Alice", "Bob"}
    assert "Standings of **Club**" in standings.content and standings.files == ["standings.png"]

    report = await h.bot.store.check(replay_snapshot, log_problem)  # the runs' logs replay to their boards
    assert report.ok

    # the runs are public now: anyone may look at a driver's board after a turn
    calls = await h.command(CAROL, "run", "replay", special=(user_option("driver", ALICE),), turn=1)
    (board,) = channel_posts(calls)
    assert "Alice in Club — round 1: the board after turn 1 of" in board.content and board.files == ["board.png"]

    # the cards attached to the results verify; a card with one action altered does not
    (text,) = private_answers(await verify(h, ALICE, attached))
    assert "✅ Alice" in text and "✅ Bob" in text and "2 of 2 cards genuine" in text
    tampered = json.loads(attached)
    alice = next(card for card in tampered["cards"] if card["name"] == "Alice")
    alice["actions"][1] = {"dice": ["3"], "type": "roll", "v": 1} if alice["actions"][1]["dice"] != ["3"] \
        else {"dice": ["5"], "type": "roll", "v": 1}
    (text,) = private_answers(await verify(h, ALICE, json.dumps(tampered).encode()))
    assert "❌ Alice" in text and "diverges at action 2 of" in text and "✅ Bob" in text
    assert "1 of 2 cards genuine" in text


async def verify(h: Harness, user: tuple[int, str], data: bytes) -> list:
    h.cdn[CARDS_URL] = data
    return await h.command(user, "verify", special=(attachment_option("file", "round-1-cards.json", len(data),
                                                                      CARDS_URL),))


async def test_a_non_organiser_cannot_add_a_round_and_an_organiser_role_can(h):
    await league_with_open_round(h, ALICE)
    before = await rounds(h)
    calls = await h.command(BOB, "league", "round add", stage="pinewood-sprint", opens="+3d", closes="+5d")
    (text,) = private_answers(calls)
    assert text == ("Only the organisers of Club can do that (Manage Server, the organisers' role, or named by "
                    "`/league organisers add:`).")
    assert channel_posts(calls) == [] and await rounds(h) == before  # nothing scheduled

    calls = await h.command(BOB, "league", "penalty", seconds=30, reason="no", special=(user_option("driver", ALICE),))
    assert private_answers(calls) == [text] and channel_posts(calls) == []

    # Manage Server sets an organisers role; a member with that role (and no Manage Server) may add rounds
    calls = await h.command(MOD, "league", "organisers", special=(role_option("role", ORGANISERS),), payload=AS_MOD)
    assert private_answers(calls) == [] and f"<@&{ORGANISERS}>" in channel_posts(calls)[0].content
    calls = await h.command(CAROL, "league", "round add", stage="official", opens="+3d", closes="+4d",
                            payload={"roles": (ORGANISERS,)})
    assert private_answers(calls) == [] and len(channel_posts(calls)) == 1
    assert len(await rounds(h)) == len(before) + 1


async def test_organiser_commands_list_cancel_disqualify_and_post_standings(h):
    await league_with_open_round(h, ALICE, BOB)
    (rnd,) = await rounds(h)
    (text,) = private_answers(await h.command(BOB, "league", "round list"))
    assert text.startswith("Rounds of **Club**:") and "Round 1 — " in text
    assert rnd.seed_hash[:16] in text and rnd.seed not in text

    thread_id, _ = await run_start(h, ALICE)
    await drive(h, ALICE, thread_id)
    calls = await h.command(MOD, "league", "disqualify", special=(user_option("driver", ALICE),), round=1,
                            reason="jump start", payload=AS_MOD)
    (post,) = channel_posts(calls)
    assert "Alice" in post.content and "jump start" in post.content and f"<@{MOD[0]}>" in post.content
    calls = await h.command(MOD, "league", "penalty", special=(user_option("driver", BOB),), seconds=10,
                            reason="cut", payload=AS_MOD)
    assert "Bob" in private_answers(calls)[0] and channel_posts(calls) == []  # no run of Bob to penalise

    calls = await h.command(MOD, "league", "round cancel", round=1, reason="server outage", payload=AS_MOD)
    (post,) = channel_posts(calls)
    assert "server outage" in post.content
    assert [r.status for r in await rounds(h)] == ["cancelled"]
    calls = await h.command(BOB, "league", "standings")
    (post,) = channel_posts(calls)
    assert "Standings of **Club**" in post.content and post.files == ["standings.png"]

    calls = await h.command(MOD, "league", "settings", world_name="off", payload=AS_MOD)
    assert private_answers(calls) == ["This server's name is hidden in the world scratch ranking (its drivers "
                                      "still rank)."]
    assert channel_posts(calls) == [] and (await h.bot.store.guilds.get(GUILD)).get("world_name") is False


async def test_league_create_posts_in_the_channel_given(h):
    calls = await h.command(MOD, "league", "create", name="Club", timezone="Europe/Paris", dice="shared",
                            special=(channel_option("channel", 31),), payload=AS_MOD)
    (post,) = channel_posts(calls)
    assert post.url.endswith("/channels/31/messages") and "dice: shared" in post.content
    (league,) = await h.bot.store.db.read(lambda tx: leagues_of_guild_tx(tx, GUILD))
    assert league.channel_id == 31 and league.dice == "shared"


async def test_a_second_run_start_racing_the_first_is_refused_and_leaves_no_thread(h):
    """While Discord makes the thread of the first `/run start`, a second one of the same driver
    gets through and starts the run: the first is then refused, and its thread deleted."""
    await league_with_open_round(h, ALICE)
    second: list = []

    async def meanwhile() -> None:
        second.extend(await h.dispatch(command_payload(ALICE, "run", "start"), deliver=False))

    h.http.before("/threads", meanwhile)
    first = await h.command(ALICE, "run", "start")
    first = [c for c in first if c not in second]
    (winner,) = thread_requests(second)
    (loser,) = thread_requests(first)
    assert private_answers(second) == [f"Your run is in <#{winner.reply['id']}>."]
    (text,) = private_answers(first)
    assert "You already have your run of this round" in text
    assert any(c.method == "DELETE" and c.url.endswith(f"/channels/{loser.reply['id']}") for c in first)
    assert list(h.http.threads) == [int(winner.reply["id"])]  # no second thread left behind
    (rnd,) = await rounds(h)
    run = await h.bot.store.db.read(lambda tx: run_of_tx(tx, rnd.id, ALICE[0]))
    assert run.thread_id == int(winner.reply["id"])

    calls = await h.command(ALICE, "run", "start")  # and later: refused before any thread is made
    assert "You already have your run" in private_answers(calls)[0] and thread_requests(calls) == []


async def test_a_bot_without_create_private_threads_says_so_and_nothing_is_started(h):
    await league_with_open_round(h, ALICE)
    (rnd,) = await rounds(h)
    cannot = discord.Permissions(EVERYTHING.value)
    cannot.create_private_threads = False
    calls = await h.command(ALICE, "run", "start", payload={"app_permissions": cannot})
    (text,) = private_answers(calls)
    assert "I am missing Create Private Threads" in text and thread_requests(calls) == []

    h.http.fail(http_error(403, code=50013), path="/threads")  # Discord refuses, whatever we believed
    calls = await h.command(ALICE, "run", "start")
    (text,) = private_answers(calls)
    assert "Create Private Threads" in text and f"<#{CHANNEL}>" in text
    assert channel_posts(calls) == [] and h.http.threads == {}
    assert await h.bot.store.db.read(lambda tx: run_of_tx(tx, rnd.id, ALICE[0])) is None

    thread_id, _ = await run_start(h, ALICE)  # once allowed, the run starts: the refusals wrote nothing
    assert list(h.http.threads) == [thread_id]


async def test_run_start_from_another_channel_opens_the_thread_in_the_league_channel(h):
    await league_with_open_round(h, ALICE)
    elsewhere = {"channel": {"id": "77", "type": 0, "guild_id": str(GUILD), "name": "general", "position": 1,
                             "permission_overwrites": [], "nsfw": False, "parent_id": None}}
    calls = await h.command(ALICE, "run", "start", payload=elsewhere)
    assert any(c.method == "GET" and c.url.endswith(f"/channels/{CHANNEL}") for c in calls)  # fetched
    (made,) = thread_requests(calls)
    assert made.url.endswith(f"/channels/{CHANNEL}/threads")


async def test_scratch_run_plays_the_official_stage_in_a_private_thread_and_ranks_the_driver(h):
    calls = await h.command(ALICE, "scratch", "run")
    (made,) = thread_requests(calls)
    thread_id = int(made.reply["id"])
    assert made.url.endswith(f"/channels/{CHANNEL}/threads") and made.body["type"] == 12
    assert made.body["name"].startswith("Run — Alice — scratch 2026-W")
    assert private_answers(calls) == [f"Your run is in <#{thread_id}>."]
    (prompt,) = channel_posts(calls)
    assert prompt.url.endswith(f"/channels/{thread_id}/messages")
    (text,) = private_answers(await h.command(ALICE, "scratch", "me"))
    assert "still driving" in text

    await drive(h, ALICE, thread_id, through_tree=2)
    calls = await h.command(BOB, "scratch", "ranking")
    (post,) = channel_posts(calls)
    assert "1. Alice" in post.content and post.files == ["scratch.png"]
    calls = await h.command(ALICE, "scratch", "run")  # one run a week: which one stands is said
    (answer,) = private_answers(calls)
    assert answer.startswith("Your run of **World scratch 2026-W") and "is your one attempt" in answer
    assert thread_requests(calls) == []


async def test_after_a_scratch_run_run_start_in_the_official_league_round_says_which_result_stands(h):
    """Through the command tree: the world scratch run first, then `/run start` in
    the league's round on the official stage: refused privately, naming the run that stands and
    its time, no thread made; the round's close lists that time with its points."""
    assert private_answers(await h.command(MOD, "league", "create", name="Club", timezone="UTC",
                                           payload=AS_MOD)) == []
    for driver in (ALICE, BOB):
        assert private_answers(await h.command(driver, "league", "join")) == []
    calls = await h.command(MOD, "league", "round add", stage="official", opens="now", closes="+1d", payload=AS_MOD)
    assert private_answers(calls) == []
    await tick(h)
    (made,) = thread_requests(await h.command(ALICE, "scratch", "run"))
    await drive(h, ALICE, int(made.reply["id"]))
    (rnd,) = await rounds(h)
    run = await h.bot.store.db.read(lambda tx: run_of_tx(tx, rnd.id, ALICE[0]))
    assert run is not None and run.round_id != rnd.id and run.status == "finished"

    calls = await h.command(ALICE, "run", "start")
    time = label_time(run.time_s)
    assert private_answers(calls) == [f"Your run of **World scratch {rnd.week}** ({time}) is your one attempt at "
                                      f"the official stage of {rnd.week}: it counts for this round too, so there is "
                                      "no second run."]
    assert thread_requests(calls) == []
    h.clock.advance(days=1, minutes=1)
    posts = channel_posts(await tick(h))
    assert any(f"1. Alice — {time}" in p.content for p in posts)


async def test_league_create_autocompletes_time_zones_from_what_is_typed(h):
    payload = command_payload(MOD, "league", "create", [option("name", "Club"), option("timezone", "paris",
                                                                                           focused=True)],
                              autocomplete=True)
    (call,) = await h.dispatch(payload)
    assert [c["value"] for c in call.body["data"]["choices"]] == ["Europe/Paris"]
    (call,) = await h.dispatch(command_payload(MOD, "league", "create", [option("timezone", "", focused=True)],
                                               autocomplete=True))
    assert len(call.body["data"]["choices"]) == 25


async def test_league_options_autocomplete_the_servers_leagues(h):
    for name in ("Club", "Sunday Cup"):
        await h.command(MOD, "league", "create", name=name, timezone="UTC", payload=AS_MOD)
    (call,) = await h.dispatch(command_payload(ALICE, "league", "join", [option("league", "cup", focused=True)],
                                               autocomplete=True))
    assert [c["value"] for c in call.body["data"]["choices"]] == ["Sunday Cup"]
    calls = await h.command(ALICE, "league", "join")  # two leagues posting here: which one?
    assert "Club" in private_answers(calls)[0] and "Sunday Cup" in private_answers(calls)[0]
    calls = await h.command(ALICE, "league", "join", league="Sunday Cup")
    assert private_answers(calls) == [] and "Alice joined **Sunday Cup**." in channel_posts(calls)[0].content


async def test_every_league_option_autocompletes_the_servers_leagues(h):
    """A round's (a subgroup's command) and `/run`'s (another cog's) league options too."""
    for name in ("Club", "Sunday Cup"):
        await h.command(MOD, "league", "create", name=name, timezone="UTC", payload=AS_MOD)
    for group, sub in (("league", "round add"), ("run", "start")):
        (call,) = await h.dispatch(command_payload(MOD, group, sub, [option("league", "cl", focused=True)],
                                                   autocomplete=True))
        assert [c["value"] for c in call.body["data"]["choices"]] == ["Club"], (group, sub)


async def test_round_add_stage_autocomplete_offers_official(h):
    payload = command_payload(MOD, "league", "round add", [option("stage", "off", focused=True)], autocomplete=True)
    (call,) = await h.dispatch(payload)
    assert [c["value"] for c in call.body["data"]["choices"]] == ["official"]


async def test_cards_too_large_for_discord_go_as_a_note_and_a_bad_attachment_name_attaches_nothing(h):
    await league_with_open_round(h)
    (rnd,) = await rounds(h)
    huge = json.dumps({"cards": ["x" * (8 * 1024 * 1024)]})
    now = h.clock()

    async def owe(tx) -> None:
        await put_cards_tx(tx, rnd.id, huge)
        for name in ("round-1-cards.json", "../../etc/passwd"):
            post = Post([f"results {name}"], channel_id=CHANNEL, attach={"kind": "cards", "round_id": rnd.id,
                                                                          "name": name})
            await post_tx(tx, post, GUILD, CHANNEL, now)

    await h.bot.store.db.write(owe)
    too_large, bad_name = channel_posts(await flush(h))
    assert too_large.files == [] and "too large to attach" in too_large.content
    assert bad_name.files == [] and bad_name.content == "results ../../etc/passwd"


async def test_verify_refuses_a_file_over_8_mib_without_downloading_it(h):
    calls = await h.command(ALICE, "verify", special=(attachment_option("file", "big.json", 9 * 1024 * 1024,
                                                                        CARDS_URL),))
    (text,) = private_answers(calls)
    assert "at most 8 MiB" in text  # h.cdn is empty: reading it would have failed differently


async def test_verify_of_a_file_that_is_not_json_says_so(h):
    (text,) = private_answers(await verify(h, ALICE, b"\xff\xfe not text"))
    assert text.startswith("❌") and "UTF-8" in text
