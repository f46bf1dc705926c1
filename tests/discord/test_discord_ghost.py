"""`/run start ghost:` through the simulated Discord: a ghost that cannot be had is a
private answer before any thread is made, and nothing is written; the option's choices are
`best`, `leader`, `off`, localised; a ghost that can be had races the run in its thread."""

from __future__ import annotations

from bot.store.leagues import run_of_tx
from tests.discord.fakes import channel_posts, private_answers
from tests.discord.test_discord_league import (
    ALICE,
    AS_MOD,
    BOB,
    MOD,
    drive,
    flush,
    h,  # noqa: F401 - the harness fixture
    league_with_open_round,
    rounds,
    run_start,
    thread_requests,
    tick,
)


async def test_a_ghost_refused_is_a_private_answer_before_any_thread_and_nothing_is_written(h):  # noqa: F811
    await league_with_open_round(h, ALICE, BOB)
    (rnd,) = await rounds(h)
    calls = await h.command(ALICE, "run", "start", ghost="best")
    (text,) = private_answers(calls)
    assert text.startswith("No personal best on Pinewood Sprint yet") and thread_requests(calls) == []
    thread_id, _ = await run_start(h, BOB)
    await drive(h, BOB, thread_id)
    calls = await h.command(ALICE, "run", "start", ghost="leader")  # Bob's run: in a round still open
    (text,) = private_answers(calls)
    assert "its runs stay hidden until it closes" in text and thread_requests(calls) == []
    assert await h.bot.store.db.read(lambda tx: run_of_tx(tx, rnd.id, ALICE[0])) is None


async def test_a_personal_best_ghost_races_the_next_round_on_the_stage(h):  # noqa: F811
    await league_with_open_round(h, ALICE)
    thread_id, _ = await run_start(h, ALICE)
    await drive(h, ALICE, thread_id)
    await h.command(MOD, "league", "round add", stage="pinewood-sprint", opens="now", closes="+2d", payload=AS_MOD)
    await tick(h)
    second = next(r for r in await rounds(h) if r.number == 2)
    thread_id, calls = await run_start(h, ALICE, ghost="best", round=2)
    posted = "\n".join(p.content for p in channel_posts(calls + await flush(h)))
    assert "👻 You race the ghost of your personal best (" in posted and "±0 s on your best." in posted
    run = await h.bot.store.db.read(lambda tx: run_of_tx(tx, second.id, ALICE[0]))
    rally = await h.bot.store.rallies.get(run.rally_id)
    assert rally.modules["ghost"]["kind"] == "best" and rally.channel_id == thread_id


def test_the_ghost_option_offers_best_leader_off_in_every_language():
    from bot.i18n import catalogue
    for lang in ("en", "fr", "de"):
        words = catalogue(lang)
        assert all(words.get(f"choice.{value}") for value in ("best", "leader", "off"))
        assert words.get("name.ghost") and words.get("discord.opt.ghost")
