"""Leagues of Road Rally USA, on both backends: a round of a game without solo
runs is a set of table games among the league's entrants, grouped 3–5 by the bot at the opening
from the round's secret seed, each in its own thread; league points by the finishing position in
the table (`Game.rules.outcome`), VP as the tie-break of the standings, sorted the game's way (higher
VP first). Every seat is driven with the game's own AI choice from that seat's view, typed as
`/act <label>` (as tests/roadrally/test_rr_guard.py does); nothing of a hand reaches the league's
channel."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest

from bot import games
from bot.engine.core.ranking import shared_ranks
from bot.engine.core.secret_dice import commitment
from bot.i18n import render
from bot.services import Actor, Place
from bot.services.errors import ServiceError
from bot.services.league.points import DEFAULT_POINTS, RoundScore
from bot.services.league.round_close import standings_table
from bot.services.league.table_games import finish_tables_tx, table_seed
from bot.services.league.table_groups import group_tables, table_sizes
from bot.services.play.replay import read_log, replay_snapshot
from bot.store.clock import from_text
from bot.store.leagues import league_tx, results_of_round_tx, round_tx, rounds_of_league_tx, runs_of_rally_tx
from tests.league.conftest import deliver
from tests.league.league_helpers import LEAGUE_CHANNEL, ORGANISER, new_thread, until
from tests.roadrally.test_rr_guard import leaks_in, private_texts

RR = games.get("roadrally")
CHANNEL = LEAGUE_CHANNEL.channel_id
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")
ENTRANTS = tuple(Actor(2001 + i, name) for i, name in enumerate(NAMES))
BY_ID = {a.user_id: a for a in ENTRANTS}


@pytest.fixture
def threads(service):
    """The thread maker the bot plugs in (a private thread per table on Discord): here a new
    channel id per table, remembered with its name and its drivers."""
    made: list[tuple[int, str, tuple[int, ...]]] = []

    async def maker(guild_id: int, channel_id: int, name: str, users: tuple[int, ...]) -> int:
        assert (guild_id, channel_id) == (LEAGUE_CHANNEL.guild_id, CHANNEL)  # made in the league's channel
        thread = new_thread()
        made.append((thread, name, users))
        return thread

    service.championships.tables.threads = maker
    return made



async def road_league(service, entrants=ENTRANTS):
    """A Road Rally USA league with `entrants` and one round (opens Monday 20:00 UTC, a week)."""
    champs = service.championships
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Road Cup", "UTC", game="roadrally")
    for driver in entrants:
        await champs.leagues.join(LEAGUE_CHANNEL, driver)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "standard", day="mon", hour="20", rounds=1)
    (rnd,) = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    return rnd


async def table_state(service, thread: int):
    rally = await service.store.rallies.get_active_in_channel(LEAGUE_CHANNEL.guild_id, thread)
    # in an open window, the answers kept so far given (the rally does not change until it closes)
    return None if rally is None or rally.status != "running" else await service.turns.answered_state(rally)


async def play(service, thread: int, secrets: set | None = None, steps: int = 5000) -> int:
    """Drive a table: the seat to act (the lowest of a window's) plays the AI's choice from its own
    view, typed as `/act <label>`; `steps` actions at most. Every seat's secrets at every step
    are added to `secrets`. How many actions were played."""
    place = Place(LEAGUE_CHANNEL.guild_id, thread)
    for done in range(steps):
        table = await table_state(service, thread)
        if table is None:
            return done
        if secrets is not None:
            secrets |= {(s.id, text, whole) for s in table.state.seats for text, whole in private_texts(table, s.id)}
        seat = min(RR.rules.to_act(table))
        choice = RR.coach.choose(RR.rules.view(table, seat), seat)
        await service.act(place, BY_ID[int(seat)], RR.commands.label(choice))
    return steps


async def finished_tables(service, rnd) -> dict[int, list[dict]]:
    """rally id → its seats' runs (user, status, score), in seat order."""
    rows = await service.store.db.fetch_all(
        "SELECT r.rally_id, r.user_id, r.status, r.score, r.score_unit, d.seat FROM runs r "
        "JOIN drivers d ON d.rally_id = r.rally_id AND d.user_id = r.user_id WHERE r.round_id = ? ORDER BY d.seat",
        (rnd.id,))
    tables: dict[int, list[dict]] = {}
    for row in rows:
        tables.setdefault(row["rally_id"], []).append(dict(row))
    return tables


def test_tables_are_as_even_as_possible_within_three_to_five_seats():
    assert [table_sizes(n, 3, 5) for n in (2, 3, 5, 6, 7, 8, 10, 11, 16)] == [
        [], [3], [5], [3, 3], [4, 3], [4, 4], [5, 5], [4, 4, 3], [4, 4, 4, 4]]
    people = [(i, f"p{i}") for i in range(11)]
    tables = group_tables(people, "ab" * 32, 3, 5)
    assert sorted(p for t in tables for p in t) == people  # everybody seated once
    assert group_tables(list(reversed(people)), "ab" * 32, 3, 5) == tables  # the seed decides, not the order
    assert group_tables(people, "cd" * 32, 3, 5) != tables


async def test_seven_entrants_play_two_tables_and_the_standings_rank_by_points_then_vp(
        service, deadlines, clock, posts, threads):
    rnd = await road_league(service)
    await until(clock, deadlines, service, posts, from_text(rnd.opens_at) + timedelta(minutes=1))

    # 4 + 3 in two threads, drawn from the round's seed in the order the draw gives
    members = [(a.user_id, a.name) for a in ENTRANTS]
    drawn = group_tables(members, rnd.seed, 3, 5)
    assert [len(t) for t in drawn] == [4, 3]
    assert [users for _, _, users in threads] == [tuple(uid for uid, _ in t) for t in drawn]
    assert [name for _, name, _ in threads] == ["Road Cup · round 1 · table 1", "Road Cup · round 1 · table 2"]
    opened = posts.text(CHANNEL)
    assert "Road Cup — round 1** is open" in opened and "no `/run start`" in opened
    for number, ((thread, _, _), seated) in enumerate(zip(threads, drawn), 1):
        assert f"Table {number} in <#{thread}>: " in opened
        assert all(name in opened for _, name in seated)
        rally = await service.store.rallies.get_active_in_channel(LEAGUE_CHANNEL.guild_id, thread)
        assert rally is not None and rally.status == "running" and rally.game == "roadrally"
        seats = sorted(await service.store.drivers.list(rally.id), key=lambda d: d.seat)
        assert [d.user_id for d in seats] == [uid for uid, _ in seated]
    assert rnd.seed not in opened

    # both games are played to the end; each end tells the league's channel one line
    secrets: set = set()
    outcomes = {}
    for thread, _, _ in threads:
        assert await play(service, thread, secrets) > 20  # driven seat by seat, as typed
        await deliver(service, posts)
        (rally,) = await service.store.rallies.finished_in_channel(LEAGUE_CHANNEL.guild_id, thread, 1)
        assert rally.status == "finished"
        outcomes[rally.id] = RR.rules.outcome(service.work.state_of(rally))
    assert posts.count(CHANNEL, "table 1 is over") == 1 and posts.count(CHANNEL, "table 2 is over") == 1
    tables = await finished_tables(service, rnd)
    for rally_id, runs in tables.items():
        by_seat = {s.seat: s for s in outcomes[rally_id].seats}
        for run in runs:  # each seat's VP as the game's outcome gives it
            seat = by_seat[str(run["user_id"])]
            assert run["score_unit"] == "vp"
            assert (run["status"], run["score"]) == (("finished", seat.score) if seat.status == "finished"
                                                     else ("dnf", None))

    await until(clock, deadlines, service, posts, from_text(rnd.closes_at) + timedelta(minutes=1))
    closed = posts.text(CHANNEL)
    assert "Road Cup — round 1** is closed" in closed and rnd.seed in closed
    results = await service.store.db.read(lambda tx: results_of_round_tx(tx, rnd.id))
    assert len(results) == 7 and all(r.score_unit == "vp" for r in results)
    got = {r.user_id: (r.position, r.points, r.score) for r in results}
    for rally_id, runs in tables.items():  # points by the finishing position within the table
        ranked = sorted((r for r in runs if r["status"] == "finished"), key=lambda r: -r["score"])
        for run, rank in zip(ranked, shared_ranks([r["score"] for r in ranked])):
            assert rank == next(s.rank for s in outcomes[rally_id].seats if s.seat == str(run["user_id"]))
            assert got[run["user_id"]] == (rank, DEFAULT_POINTS[rank - 1], run["score"])
    # no result cards for a table round (no card replays one seat of a shared game): none promised
    assert "Round SHA-256" not in closed
    assert "Check any run" not in closed and "it drew the tables" in closed
    rows = [r for r in await service.store.outbox.all() if r.channel_id == CHANNEL]
    assert rows and not any(r.body.get("attach") for r in rows)
    for r in results:  # the results post shows VP, not times
        if r.position is not None:
            assert f"{r.position}. {r.display_name} — table " in closed
            assert f": {r.score} VP — {r.points} pts" in closed

    # the standings card: points, then the higher VP (both table winners have 25 points)
    assert posts.count(CHANNEL, "Standings of **Road Cup**") == 1
    league = await service.store.db.read(lambda tx: league_tx(tx, 1))
    scores = [RoundScore(r.round_id, r.user_id, r.display_name, r.position, r.score, r.points, r.bonus)
              for r in results]
    card = standings_table(league, scores, {rnd.id: rnd.number})
    assert "the higher total of victory points" in render(card.note)
    by_name = {r.display_name: r for r in results}
    shown = [(-by_name[row.cells[1]].points, -(by_name[row.cells[1]].score or 0)) for row in card.rows]
    assert shown == sorted(shown) and len(shown) == 7
    winners = [row.cells[1] for row in card.rows if by_name[row.cells[1]].points == DEFAULT_POINTS[0]]
    assert len(winners) >= 2 and by_name[winners[0]].score >= by_name[winners[1]].score
    assert [row.cells[0] for row in card.rows][:1] == ["1"]

    # nothing of a hand in any post of the league's channel, in any language it was written
    assert secrets
    assert not leaks_in(closed, secrets)


async def test_a_table_still_running_at_the_close_is_played_out_with_the_timeout_defaults(
        service, deadlines, clock, posts, threads):
    rnd = await road_league(service, ENTRANTS[:6])  # 3 + 3
    await until(clock, deadlines, service, posts, from_text(rnd.opens_at) + timedelta(minutes=1))
    assert len(threads) == 2
    first, second = threads[0][0], threads[1][0]
    await play(service, first)
    assert await play(service, second, steps=12) == 12  # the second table stops mid-game
    await until(clock, deadlines, service, posts, from_text(rnd.closes_at) + timedelta(minutes=1))
    assert await table_state(service, second) is None
    (rally,) = await service.store.rallies.finished_in_channel(LEAGUE_CHANNEL.guild_id, second, 1)
    assert rally.status == "finished"
    assert RR.rules.outcome(service.work.state_of(rally)) is not None
    assert "played to its end with each seat's default play" in posts.text(second)
    actions = await service.store.actions.list(rally.id)
    assert len(actions) > 13 and all(a.actor is None for a in actions[13:])  # the bot's timeouts
    row = {**rally.as_dict(), "drivers": [d.as_dict() for d in await service.store.drivers.list(rally.id)]}
    assert replay_snapshot(row, [a.as_dict() for a in actions]) == rally.snapshot  # the log replays (`db check`)
    results = await service.store.db.read(lambda tx: results_of_round_tx(tx, rnd.id))
    assert len(results) == 6
    assert posts.count(CHANNEL, "table 2 is over") == 1
    assert sum(1 for r in results if r.position == 1) >= 2  # one winner (or more, tied) in each table


async def test_fewer_than_three_entrants_open_a_round_that_cannot_be_played_and_closes_empty(
        service, deadlines, clock, posts, threads):
    rnd = await road_league(service, ENTRANTS[:2])
    await until(clock, deadlines, service, posts, from_text(rnd.opens_at) + timedelta(minutes=1))
    assert "Fewer than 3 entrants" in posts.text(CHANNEL)
    assert threads == []
    assert await service.store.db.fetch_all("SELECT id FROM rallies") == []
    assert await service.store.db.fetch_all("SELECT id FROM runs") == []
    await until(clock, deadlines, service, posts, from_text(rnd.closes_at) + timedelta(minutes=1))
    assert "No table could be seated in this round: no result." in posts.text(CHANNEL)
    assert await service.store.db.read(lambda tx: results_of_round_tx(tx, rnd.id)) == []
    (status,) = [r.status for r in await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))]
    assert status == "closed"


async def test_run_start_is_refused_for_a_table_game_and_changes_nothing(service, deadlines, clock, posts, threads):
    rnd = await road_league(service, ENTRANTS[:3])
    await until(clock, deadlines, service, posts, from_text(rnd.opens_at) + timedelta(minutes=1))
    before = [tuple(r) for r in await service.store.db.fetch_all("SELECT id, rally_id, status FROM runs")]
    rallies = [tuple(r) for r in await service.store.db.fetch_all("SELECT id, status, version FROM rallies")]
    assert len(before) == 3
    for driver in (ENTRANTS[0], ENTRANTS[5]):  # seated or not: no run of one's own
        with pytest.raises(ServiceError, match="Rounds of Road Rally USA are table games"):
            await service.championships.check_run(LEAGUE_CHANNEL, driver)
        with pytest.raises(ServiceError, match="are table games"):
            await service.championships.start_run(LEAGUE_CHANNEL, driver, rnd, None, new_thread())
    assert [tuple(r) for r in await service.store.db.fetch_all("SELECT id, rally_id, status FROM runs")] == before
    assert [tuple(r) for r in await service.store.db.fetch_all("SELECT id, status, version FROM rallies")] == rallies


async def test_in_the_console_a_table_gets_its_own_channel_and_the_close_plays_it_out(store):
    """The console plugs its channels in as the tables' threads: the round opens with one table of
    three in `#road-cup-round-1-table-1`, `/run start` is refused, and nobody plays: the close
    plays the game out with the timeout defaults and ranks the table by VP."""
    from datetime import UTC, datetime

    from bot.console import run_console
    from bot.console.clock import console_service

    service = console_service(store, seed=7, now=datetime(2026, 11, 23, 8, 0, tzinfo=UTC))
    lines = ['mod: /league create name:"Road Cup" timezone:UTC game:roadrally',
             "mod: /league round add stage:standard day:mon hour:20 rounds:1",
             "ann: /league join", "ben: /league join", "cat: /league join",
             "mod: /clock +13h", "ann: /run start", "mod: /clock +7d"]
    out = io.StringIO()
    await run_console(iter(lines), service, out, admins=["mod"])
    text = out.getvalue()
    assert "is open" in text and "Table 1 in #road-cup-round-1-table-1: " in text
    assert "[only ann] Rounds of Road Rally USA are table games" in text
    assert "[#road-cup-round-1-table-1]" in text
    assert "played to its end with each seat's default play" in text
    assert "Road Cup — round 1 is closed. Results:" in text
    assert text.count(" — table 1: ") == 3  # each seat's VP in the results
    # the channel hears of the opening before the table's first prompt
    assert text.index("Road Cup — round 1 is open") < text.index("[#road-cup-round-1-table-1]")
    assert "Driver  R1  Points  VP  Wins" in text  # the standings show the VP the ties are broken by


def test_points_go_by_the_position_in_each_table_with_shared_ranks_penalties_dnf_and_dsq():
    from bot.engine.core.game import POINTS
    from bot.services.league.points import Entry, classify_tables

    entries = [Entry(1, "a", "finished", 12, table=1), Entry(2, "b", "finished", 15, table=1),
               Entry(3, "c", "finished", 12, table=1), Entry(4, "d", "dnf", None, reason="retired", table=1),
               Entry(5, "e", "finished", 9, table=2), Entry(6, "f", "finished", 20, table=2),
               Entry(7, "g", "finished", 30, table=2)]
    out = classify_tables(entries, {6: 12}, {7: "rammed"}, [10, 6, 4], POINTS)
    got = {c.name: (c.status, c.position, c.score, c.points, c.table) for c in out}
    assert got == {"b": ("classified", 1, 15, 10, 1), "a": ("classified", 2, 12, 6, 1),
                   "c": ("classified", 2, 12, 6, 1),  # equal VP share the place and its points
                   "e": ("classified", 1, 9, 10, 2), "f": ("classified", 2, 8, 6, 2),  # 20 VP less 12 penalty
                   "d": ("dnf", None, None, 0, 1), "g": ("dsq", None, None, 0, 2)}
    assert [c.name for c in out] == ["b", "e", "a", "c", "f", "d", "g"]  # places, then VP, then name


def test_the_standings_of_a_table_game_break_a_tie_on_points_by_vp_before_wins():
    from bot.engine.core.game import POINTS
    from bot.services.league.points import standings

    rows = [RoundScore(1, 1, "a", 1, 10, 25, 0), RoundScore(2, 1, "a", 3, 4, 15, 0),  # 40 pts, 1 win, 14 VP
            RoundScore(1, 2, "b", 2, 13, 18, 0), RoundScore(2, 2, "b", 2, 12, 18, 0),  # 36 pts
            RoundScore(1, 3, "c", 2, 9, 20, 0), RoundScore(2, 3, "c", 2, 20, 20, 0)]  # 40 pts, no win, 29 VP
    assert [s.name for s in standings(rows, None, POINTS, score_first=True)] == ["c", "a", "b"]
    assert [s.name for s in standings(rows, None, POINTS)][:2] == ["a", "c"]  # classic's rule: the wins first


async def test_a_cancelled_round_ends_its_tables_with_every_seat_cancelled(service, deadlines, clock, posts, threads):
    rnd = await road_league(service, ENTRANTS[:4])
    await until(clock, deadlines, service, posts, from_text(rnd.opens_at) + timedelta(minutes=1))
    (thread, _, _), = threads
    assert await play(service, thread, steps=5) == 5
    await service.championships.rounds.round_cancel(LEAGUE_CHANNEL, ORGANISER, 1, "flooded")
    await deliver(service, posts)
    runs = [tuple(r) for r in await service.store.db.fetch_all("SELECT status, reason FROM runs")]
    assert runs == [("dnf", "cancelled")] * 4
    assert [r["status"] for r in await service.store.db.fetch_all("SELECT status FROM rallies")] == ["abandoned"]
    assert "is over" not in posts.text(CHANNEL)  # a cancelled table has no result to tell
    assert await table_state(service, thread) is None


async def test_a_table_seat_that_does_not_play_is_reminded_then_the_ai_plays_its_turn(
        service, deadlines, clock, posts, threads):
    rnd = await road_league(service, ENTRANTS[:3])
    await until(clock, deadlines, service, posts, from_text(rnd.opens_at) + timedelta(minutes=1))
    ((thread, _, _),) = threads
    before = await table_state(service, thread)
    (seat,) = RR.rules.to_act(before)
    await until(clock, deadlines, service, posts, clock.now + timedelta(hours=25))
    text = posts.text(thread)
    name = BY_ID[int(seat)].name
    assert f"{name}, half of your time for this turn is gone" in text
    assert f"Time is up for {name}: the AI drives this turn for them." in text
    after = await table_state(service, thread)
    assert after is not None and RR.rules.to_act(after) != RR.rules.to_act(before)  # the table moved on


async def test_a_table_round_whose_threads_are_refused_stays_scheduled_says_why_and_opens_once_fixed(
        service, deadlines, clock, posts):
    """A league channel where the bot may not make private threads: the round does not open (no
    table, no run), the channel is told which permission to give and when the bot tries again, the
    waits grow (15 min, then the time lost), and once the permission is given the round opens at
    the next try with its tables; nothing is left half-made in between."""
    refused: list[str] = []
    made: list[int] = []

    async def maker(guild_id: int, channel_id: int, name: str, users: tuple[int, ...]) -> int:
        if len(refused) < 3:
            refused.append(name)
            raise ServiceError("discord.thread_forbidden", channel=f"<#{channel_id}>")
        made.append(new_thread())
        return made[-1]

    service.championships.tables.threads = maker
    rnd = await road_league(service, ENTRANTS[:4])
    opens = from_text(rnd.opens_at)
    await until(clock, deadlines, service, posts, opens + timedelta(minutes=1))
    text = posts.text(CHANNEL)
    assert "Road Cup — round 1** could not open: Discord refused to let me open the tables' private threads" in text
    assert "Create Private Threads" in text and "I will try again" in text
    (now,) = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    assert now.status == "scheduled" and made == []
    runs = await service.store.db.fetch_all("SELECT id FROM runs WHERE round_id = ?", (rnd.id,))
    assert runs == []
    due = sorted(from_text(j.due_at) for j in await service.store.jobs.pending() if j.kind == "league.open")
    assert due == [opens + timedelta(minutes=15)]

    await until(clock, deadlines, service, posts, opens + timedelta(minutes=16))  # the second refusal
    due = sorted(from_text(j.due_at) for j in await service.store.jobs.pending() if j.kind == "league.open")
    assert due == [opens + timedelta(minutes=30)]  # waited as long as was lost: 15 min more
    await until(clock, deadlines, service, posts, opens + timedelta(minutes=31))  # the third
    due = sorted(from_text(j.due_at) for j in await service.store.jobs.pending() if j.kind == "league.open")
    assert due == [opens + timedelta(hours=1)]
    assert posts.count(CHANNEL, "could not open") == 3

    await until(clock, deadlines, service, posts, opens + timedelta(hours=1, minutes=1))  # permission given
    (now,) = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    assert now.status == "open" and len(made) == 1
    assert "Road Cup — round 1** is open" in posts.text(CHANNEL)
    assert [j for j in await service.store.jobs.pending() if j.kind == "league.open"] == []


async def test_a_table_round_refused_until_its_close_gives_up_and_closes_with_no_result(
        service, deadlines, clock, posts):
    async def maker(guild_id: int, channel_id: int, name: str, users: tuple[int, ...]) -> int:
        raise ServiceError("discord.thread_channel_gone", channel=f"<#{channel_id}>")

    service.championships.tables.threads = maker
    rnd = await road_league(service, ENTRANTS[:3])
    await until(clock, deadlines, service, posts, from_text(rnd.closes_at) + timedelta(minutes=1))
    text = posts.text(CHANNEL)
    assert "is gone; an organiser can move the league" in text
    assert 10 <= posts.count(CHANNEL, "could not open") <= 16  # waits doubling to a day: a week is ~14 notices
    assert "too late to try again" in text
    (now,) = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    assert now.status == "closed"
    assert await service.store.db.read(lambda tx: results_of_round_tx(tx, rnd.id)) == []


async def test_the_round_s_published_seed_reveals_no_card_of_any_table(service, deadlines, clock, posts, threads):
    """RULES C10.8: the round's seed is published at the close and draws the tables, each table's
    course and line-up; the cards come from each table's own secret key, so the seed alone deals
    another game than the one played, and the key (kept, never shown) deals the one played."""
    rnd = await road_league(service)
    await until(clock, deadlines, service, posts, from_text(rnd.opens_at) + timedelta(minutes=1))
    rnd = await service.store.db.read(lambda tx: round_tx(tx, rnd.id))
    for number, (thread, _, _) in enumerate(threads, 1):
        rally = await service.store.rallies.get_active_in_channel(LEAGUE_CHANNEL.guild_id, thread)
        played = service.work.state_of(rally)
        assert rally.seed == table_seed(rnd.seed, number)  # the public part follows from the seed …
        seats = [(str(d.user_id), d.display_name) for d in sorted(await service.store.drivers.list(rally.id),
                                                                   key=lambda d: d.seat)]
        options = {"stage": rally.stage, "ruleset": rally.ruleset, "modules": rally.modules}
        guessed, _ = RR.rules.setup(rally.seed, seats, options)  # … what anyone can compute after the close
        assert guessed.state.road.name == played.state.road.name
        hands = [[sorted(s.hand), sorted(s.stage_cards)] for s in played.state.seats]
        assert [[sorted(s.hand), sorted(s.stage_cards)] for s in guessed.state.seats] != hands
        dealt, _ = RR.rules.setup(rally.seed, seats, {**options, "secret": rally.secret})  # the key deals it
        assert [[sorted(s.hand), sorted(s.stage_cards)] for s in dealt.state.seats] == hands
        assert dealt.state.order == played.state.order
        assert rally.secret not in posts.text(CHANNEL) + posts.text(thread)
        assert commitment(rally.secret) == rally.deal_sha256 and rally.deal_sha256 in posts.text(thread)


async def test_a_table_played_out_in_an_open_window_counts_the_answers_kept_in_it(
        service, deadlines, clock, posts, threads):
    """An answer kept in an open window (RULES C10.8) is not lost when the round's close plays
    the table out: the holder who played the card scores it."""
    rnd = await road_league(service)
    await until(clock, deadlines, service, posts, from_text(rnd.opens_at) + timedelta(minutes=1))
    thread = threads[0][0]
    place = Place(LEAGUE_CHANNEL.guild_id, thread)
    holder = None
    for _ in range(3000):
        table = await table_state(service, thread)
        state = table.state
        if state.phase == "stage":
            holder = next((s.id for s in state.seats if not s.retired and state.pending[0] in s.stage_cards), None)
            if holder is not None:
                break
        seat = min(RR.rules.to_act(table))
        await service.act(place, BY_ID[int(seat)], RR.commands.label(RR.coach.choose(RR.rules.view(table, seat), seat)))
    assert holder is not None
    stage = state.pending[0]
    await service.act(place, BY_ID[int(holder)], f"stage {stage} play")  # kept: the rally does not move
    rally = await service.store.rallies.get_active_in_channel(LEAGUE_CHANNEL.guild_id, thread)
    assert stage not in {s for s, _ in service.work.state_of(rally).state.revealed}
    runs = await service.store.db.read(lambda tx: runs_of_rally_tx(tx, rally.id))
    await service.store.db.write(lambda tx: finish_tables_tx(tx, service.work, runs))  # the round's close
    (done,) = await service.store.rallies.finished_in_channel(LEAGUE_CHANNEL.guild_id, thread, 1)
    final = service.work.state_of(done).state
    assert (stage, final.index(holder)) in final.revealed
    row, log = await read_log(service.store, done.id)
    assert replay_snapshot(row, log) == done.snapshot  # the log, kept answers included, replays to it
