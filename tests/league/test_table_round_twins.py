"""A league round of Road Rally USA tables and its twin (RULES C10.8: a card never revealed stays
secret, even after the game): the same league, seven entrants, round, clock and commands in two
stores (so that even the ids are the same), the twin's two tables dealt to differ ONLY in the cards
their games never showed (each seat's unplayed cards moved among their places, the unrevealed stage
cards dealt anew: the re-deal of tests/roadrally/test_rr_secrecy.py, as
tests/web/test_web_public_twins.py uses it for one rally). Played to the round's close, everything
the round publishes must be the same bytes: every outbox row and its lines as delivered (the
tables' posts, each table's end, the results post, the standings picture's data), the cards
file's and a card's addresses (a table round publishes no cards: both 404), the CSV export (EN and
FR), the `.ics` calendar, the league's and the round's web pages and each table's rally and replay
pages in EN, FR and DE, and the league's web files (standings picture, CSV, calendar), with
their ETags. Nothing public holds a table's deal key or an unrevealed card, and a table's key is
the service's own secure randomness, not a function of the round's published seed, id or table
number.

Each table has its own key, the same in both twins (only the re-deal tells them apart), so the
commitment each table's start posts is the same in both; tests/web/test_web_public_twins.py shows
that two keys differ there only.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import random
from datetime import timedelta

from aiohttp.test_utils import TestClient, TestServer

from bot import games
from bot.engine.core.secret_dice import commitment
from bot.engine.roadrally.protocol import Table
from bot.services import RallyService
from bot.services.league.export import calendar_ics, results_csv, standings_csv
from bot.services.league.table_games import table_seed
from bot.services.play.deadlines import DeadlineService
from bot.services.play.deal_keys import new_deal_key
from bot.store import Store
from bot.store.clock import from_text
from bot.store.leagues import league_tx, log_of_round_tx, results_of_league_tx, round_tx, rounds_of_league_tx
from bot.web import WebOptions, create_app
from tests.discord.fakes import FakeClock
from tests.league.conftest import START, Posts, league_service
from tests.league.league_helpers import LEAGUE_CHANNEL, ORGANISER, until
from tests.league.test_table_game_rounds import BY_ID, ENTRANTS, table_state
from tests.roadrally.test_rr_guard import private_texts
from tests.roadrally.test_rr_secrecy import twin as redealt
from tests.web.test_web_public_twins import SpecRenderer, dealt, differing, never_shown, scan
from tests.web.test_web_rally import LANGS

RR = games.get("roadrally")
KEYS = tuple(hashlib.sha256(f"table {n}".encode()).hexdigest() for n in (1, 2))  # the tables' keys, in both twins
SEATED = ENTRANTS  # seven entrants: two tables, of four and three


class SpecPictures(SpecRenderer):
    """Pictures as the data they are drawn from (the standings' table too)."""

    def table(self, view, lang="en") -> bytes:
        return repr(("table", view, lang)).encode()


def headers_of(answer) -> dict[str, str]:
    """The headers of a web answer that depend on what it shows (its ETag: the data's version)."""
    return {name: answer.headers.get(name, "") for name in ("ETag", "Content-Type", "Content-Disposition")}


@dataclasses.dataclass
class Round:
    """A round played to its close: what it published, the commands typed (table, driver, text),
    and each table's start, log and deal key, in the tables' order."""

    shown: dict[str, object]
    commands: list[tuple[int, int, str]]
    starts: list[Table]
    logs: list[list[tuple[int | None, str]]]
    keys: list[str]


async def league_round(path, commands: list[tuple[int, int, str]] | None) -> Round:
    """A Road Rally USA league (public on the web) of seven entrants and one round, in its own
    store: opened, its two tables played one after the other (`commands` None: each seat to act
    plays the AI's choice from its own view, kept as typed; else those commands), closed; then
    everything the round published."""
    store = await Store.open(path)
    try:
        clock = FakeClock(START)
        service = league_service(store, clock)
        champs = service.championships
        keys: list[str] = []
        service.work.deal_keys = lambda: (keys.append(KEYS[len(keys)]), keys[-1])[1]  # each table's, counted
        thread_ids = itertools.count(900_000)
        threads: list[int] = []

        async def maker(guild_id: int, channel_id: int, name: str, users: tuple[int, ...]) -> int:
            threads.append(next(thread_ids))
            return threads[-1]

        champs.tables.threads = maker
        deadlines, posts = DeadlineService(service.work, clock=clock), Posts()
        await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Road Cup", "UTC", game="roadrally")
        await champs.leagues.web(LEAGUE_CHANNEL, ORGANISER, "public")
        for driver in SEATED:
            await champs.leagues.join(LEAGUE_CHANNEL, driver)
        await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "standard", day="mon", hour="20", rounds=1)
        (rnd,) = await store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
        await until(clock, deadlines, service, posts, from_text(rnd.opens_at) + timedelta(minutes=1))
        assert len(threads) == 2 and keys == list(KEYS)  # each table's deal: one call to the key source, given nothing
        rallies = [await store.rallies.get_active_in_channel(LEAGUE_CHANNEL.guild_id, t) for t in threads]
        starts = [service.work.state_of(rally) for rally in rallies]
        typed: list[tuple[int, int, str]] = []
        todo = iter(commands) if commands is not None else None
        for number, thread in enumerate(threads):
            place = dataclasses.replace(LEAGUE_CHANNEL, channel_id=thread)
            while (table := await table_state(service, thread)) is not None:
                if todo is not None:
                    at, who, text = next(todo)
                    assert at == number
                else:
                    seat = min(RR.rules.to_act(table))
                    who, text = int(seat), RR.commands.label(RR.coach.choose(RR.rules.view(table, seat), seat))
                typed.append((number, who, text))
                await service.act(place, BY_ID[who], text)
                assert len(typed) < 3000
        assert commands is None or next(todo, None) is None
        await until(clock, deadlines, service, posts, from_text(rnd.closes_at) + timedelta(minutes=1))

        shown: dict[str, object] = {"outbox": [[r.channel_id, r.body] for r in await store.outbox.all()],
                                    "posts": posts.by_channel}  # the rows, and their lines as delivered
        rnd = await store.db.read(lambda tx: round_tx(tx, rnd.id))
        assert rnd.status == "closed"
        league = await store.db.read(lambda tx: league_tx(tx, 1))
        export = await champs.exports.export(LEAGUE_CHANNEL, ORGANISER)
        shown["export-en"] = list(export.files)

        async def read(tx):
            rounds = await rounds_of_league_tx(tx, league.id)
            return rounds, await results_of_league_tx(tx, league.id), {r.id: await log_of_round_tx(tx, r.id)
                                                                        for r in rounds}

        rounds, results, logs = await store.db.read(read)
        assert len(results) == len(SEATED)
        french = dataclasses.replace(league, language="fr")  # the files as a French league gets them
        shown["export-fr"] = [standings_csv(french, rounds, results), results_csv(french, rounds, results, logs)]
        shown["ics"] = [(await champs.exports.calendar(LEAGUE_CHANNEL, ORGANISER)).files,
                        calendar_ics(league, rounds, START)]
        options = WebOptions(clock=clock, burst=10**6, rate=10**6)
        async with TestClient(TestServer(create_app(store, options, renderer=SpecPictures()))) as client:
            for name, path in (("league", f"/league/{league.id}"), ("round", f"/round/{rnd.id}"),
                               *((f"rally-{r.id}", f"/rally/{r.id}") for r in rallies),
                               *((f"replay-{r.id}", f"/rally/{r.id}/replay") for r in rallies)):
                for lang in LANGS:
                    page = await client.get(f"{path}?lang={lang}")
                    assert page.status == 200, path
                    shown[f"{name}-{lang}"] = await page.text()
                    shown[f"{name}-{lang}-headers"] = headers_of(page)
            for path in ("standings.png", "standings.csv", "calendar.ics"):
                got = await client.get(f"/league/{league.id}/{path}")
                assert got.status == 200, path
                shown[path], shown[f"{path}-headers"] = await got.read(), headers_of(got)
            for path in (f"/round/{rnd.id}/cards.json", f"/round/{rnd.id}/card/{SEATED[0].user_id}.json"):
                got = await client.get(path)  # a table round publishes no cards (bot/services/league/round_close.py)
                shown[path] = [got.status, await got.text()]
        logs = []
        for number, rally in enumerate(rallies, 1):
            finished = await store.rallies.get(rally.id)
            assert finished.status == "finished" and finished.seed == table_seed(rnd.seed, number)
            logs.append([(a.actor, a.action) for a in await store.actions.list(rally.id)])
        return Round(shown, typed, starts, logs, [r.secret for r in rallies])
    finally:
        await store.close()


def dealt_otherwise(monkeypatch, deals: list[Table]) -> None:
    """Every Road Rally USA game set up from now on for the seats of one of `deals` (a table's
    start, each replay of its log) gets that deal's hands, decks and stage cards."""
    from bot.engine.roadrally import play

    original = play.new_game
    by_seats = {tuple(s.id for s in deal.state.seats): deal for deal in deals}

    def new_game(road, seats, *args, **kwargs):
        state, events = original(road, seats, *args, **kwargs)
        deal = by_seats[tuple(s.id for s in state.seats)]
        for seat, other in zip(state.seats, deal.state.seats, strict=True):
            seat.hand, seat.deck, seat.stage_cards = list(other.hand), list(other.deck), list(other.stage_cards)
        return state, events

    monkeypatch.setattr(play, "new_game", new_game)


async def twins(tmp_path, monkeypatch) -> tuple[Round, Round, list[Table]]:
    """The round, then its twin whose tables are dealt otherwise where their games never showed a
    card; each table's final state. This game's last hands were drawn after their decks'
    reshuffles (of played, public cards): no re-deal can change them. What stays secret to the end
    is the unscored stage cards: each table's re-deal is checked to deal them otherwise, and to
    change those some seat still holds at the end at one table at least (the other's seats
    discarded theirs unseen), and the twin to be dealt the other way."""
    first = await league_round(tmp_path / "first.sqlite3", None)
    others, ends, kept = [], [], []
    for start, log in zip(first.starts, first.logs, strict=True):
        shown, revealed, end = never_shown(start, log)
        other = redealt(start, shown, revealed, random.Random(1))
        _, _, other_end = never_shown(other, log)
        assert [s.stage_cards for s in start.state.seats] != [s.stage_cards for s in other.state.seats]
        kept.append(any(a.stage_cards != b.stage_cards and a.stage_cards
                        for a, b in zip(end.state.seats, other_end.state.seats, strict=True)))
        others.append(other)
        ends.append(end)
    assert any(kept), "no table's re-deal changes the stage cards still held at the end"
    dealt_otherwise(monkeypatch, others)
    second = await league_round(tmp_path / "second.sqlite3", first.commands)
    assert [dealt(t) for t in second.starts] == [dealt(t) for t in others]  # the twin was dealt the other way …
    assert all(dealt(a) != dealt(b) for a, b in zip(first.starts, second.starts, strict=True))  # … at each table
    assert second.logs == first.logs
    return first, second, ends


async def test_C10_8_a_table_round_publishes_the_same_bytes_as_its_twin_dealt_otherwise_where_nothing_is_revealed(
        tmp_path, monkeypatch):
    first, second, ends = await twins(tmp_path, monkeypatch)
    assert differing(first.shown, second.shown) == []
    # what was compared holds what a round publishes: the results, the standings' data, both files
    outbox = json.dumps(first.shown["outbox"], ensure_ascii=False)
    told = "\n".join(line for rows in first.shown["posts"].values() for lines, *_ in rows for line in lines)
    assert "is closed" in told and "Standings of **Road Cup**" in told and "table 1 is over" in told
    assert '"kind": "table"' in outbox and '"kind": "results"' in outbox  # the standings' and the table's pictures
    assert first.shown["round-en-headers"]["ETag"] and first.shown["standings.csv-headers"]["ETag"]  # compared too
    assert first.shown["standings.png"].startswith(b"('table', TableView(")  # the standings picture's data
    assert b",vp\r\n" in first.shown["standings.csv"] and b"BEGIN:VCALENDAR" in first.shown["calendar.ics"]
    results, results_fr = first.shown["export-en"][1][1], first.shown["export-fr"][1]
    assert b";" in results_fr.splitlines()[0] and b"," in results.splitlines()[0]  # EN and FR files, both compared
    assert [shown[0] for name, shown in first.shown.items() if name.startswith("/round/")] == [404, 404]
    # the scan: neither the key (the commitment's preimage) nor an unrevealed card in anything
    # public; the commitment is (in the table's start post), the same in both twins
    public = json.dumps(first.shown, ensure_ascii=False, default=lambda b: b.decode("utf-8", "replace"))
    for key, end in zip(first.keys, ends, strict=True):
        secrets = {text for seat in end.state.seats for text, _ in private_texts(end, seat.id)}
        assert secrets  # the unscored stage cards, at least
        assert scan(public, key, secrets) == [] and commitment(key) in public


async def test_the_deal_key_of_a_table_is_the_service_s_secure_randomness_not_the_round_s_seed(tmp_path):
    """The bot on Discord makes its service without a seed source (bot/client.py): a table's deal
    key is then `new_deal_key`, 256 bits of `secrets.token_hex`, drawn with no argument (the round
    test above counts the one call the opening makes), so nothing the round publishes (its seed,
    its id, a table's number or seed) goes into it. Only a reproducible session (the console's
    `--seed`, tests) numbers its keys."""
    import inspect

    store = await Store.open(tmp_path / "keys.sqlite3")
    try:
        assert RallyService(store).work.deal_keys is new_deal_key
        assert RallyService(store, seed_source=lambda: 42).work.deal_keys is not new_deal_key
    finally:
        await store.close()
    assert "secrets.token_hex(KEY_BYTES)" in inspect.getsource(new_deal_key)
    keys = {new_deal_key() for _ in range(3)}
    assert len(keys) == 3 and all(len(k) == 64 and int(k, 16) >= 0 for k in keys)
