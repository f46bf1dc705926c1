"""Rallies already diverged in a host's database: DIRT rallies played before the damage bag was drawn
in a fixed order (RULES B13.8), whose stored state was drawn from a reloaded bag and so no longer
follows from their log. `db check` names each with the first action known to replay differently;
the stored state stands (the rally goes on from it); careers, the rally page and its replay answer
from it instead of failing.

The database is built as such a host's was: through the store, each action written with the state
the bot then held, which was read back from its snapshot after every action and drew its tokens in
the snapshot's (sorted) key order, the way the engine drew before the fix."""

from __future__ import annotations

import logging

import pytest

import bot.engine.dirt.damage as damage
from bot.engine.core.game import is_finished
from bot.engine.core.log import Start
from bot.engine.dirt.protocol import GAME as DIRT
from bot.engine.dirt.state import DirtState
from bot.services import Actor, Place
from bot.services.career.careers import career_rows
from bot.services.play.replay import log_problem, replay_snapshot
from bot.store.web import set_channel_web_tx
from tests.web.test_web_rally import page_text

SEATS = [("1001", "Alice"), ("1002", "Bob")]
GUILD = 10
OPTIONS = {"stage": "dusty-pines", "ruleset": "provisional", "modules": {}}
#: seeds whose old-style play diverges: the replay refuses action 9 / every action replays but ends elsewhere
REFUSED_SEED, LATE_SEED, STRAIGHT_SEED = 12, 2, 6


def old_draw(state: DirtState) -> str | None:
    """The bag's draw before the fix: over the dict's own key order (sorted, once read back)."""
    weights = {kind: n for kind, n in state.bag.items() if n > 0}
    if not weights:
        return None
    kind = state.dice.pick("dirt:bag", weights)
    state.bag[kind] -= 1
    return kind


async def played_before_the_fix(store, monkeypatch, channel: int, seed: int, actions: int | None = None) -> int:
    """A DIRT rally written through the store as an unfixed bot played it (every action, then a
    restart), `actions` actions long (None: to its end, finished). Its id."""
    rally = await store.rallies.create(guild_id=GUILD, channel_id=channel, host_id=1001, stage=OPTIONS["stage"],
                                       ruleset=OPTIONS["ruleset"], seed=seed, max_drivers=2, game="dirt")
    for user, name in SEATS:
        await store.drivers.join(rally.id, int(user), name)
    state, _ = DIRT.rules.setup(seed, SEATS, OPTIONS)
    version = await store.append_action(rally.id, 0, 1001, DIRT.rules.encode(Start(tuple(s for s, _ in SEATS))),
                                        DIRT.rules.to_json(state), status="running")
    with monkeypatch.context() as patch:
        patch.setattr(damage, "draw", old_draw)
        played = 0
        while not is_finished(DIRT.rules, state) and (actions is None or played < actions):
            (seat,) = DIRT.rules.to_act(state)
            action = DIRT.coach.choose(DIRT.rules.view(state, seat), seat, 0.9)
            state, _ = DIRT.rules.apply(state, seat, action)
            played += 1
            version = await store.append_action(rally.id, version, int(seat), DIRT.rules.encode(action),
                                                DIRT.rules.to_json(state),
                                                status="finished" if is_finished(DIRT.rules, state) else None)
            state = DIRT.rules.from_json(DIRT.rules.to_json(state))  # the bot restarts ...
            state.bag = dict(sorted(state.bag.items()))  # ... and its bag keeps the snapshot's order
    return rally.id


async def test_db_check_names_each_diverged_rally_and_the_first_action_known_to_differ(store, monkeypatch):
    refused = await played_before_the_fix(store, monkeypatch, 1, REFUSED_SEED)
    late = await played_before_the_fix(store, monkeypatch, 2, LATE_SEED)
    fine = await played_before_the_fix(store, monkeypatch, 3, STRAIGHT_SEED)  # no draw landed elsewhere
    snapshots = {r.id: r.snapshot for r in [await store.rallies.get(i) for i in (refused, late, fine)]}
    report = await store.check(replay_snapshot, log_problem)
    found = {m.rally_id: m.detail for m in report.mismatches}
    assert set(found) == {refused, late}
    assert found[refused].startswith("diverged from action 9: replay failed: action 9 (")
    last = (await store.rallies.get(late)).version
    assert found[late].startswith("$.") and f"; diverged by action {last} at the latest" in found[late]
    assert "the stored snapshot stands" in found[refused] and "the stored snapshot stands" in found[late]
    assert {i: (await store.rallies.get(i)).snapshot for i in snapshots} == snapshots  # nothing rewritten


async def test_careers_of_a_diverged_rally_are_its_stored_results(store, monkeypatch, caplog):
    for channel, seed in ((1, REFUSED_SEED), (2, LATE_SEED)):
        rally = await store.rallies.get(await played_before_the_fix(store, monkeypatch, channel, seed))
        drivers = [d.as_dict() for d in await store.drivers.list(rally.id)]
        actions = [a.as_dict() for a in await store.actions.list(rally.id)]
        with caplog.at_level(logging.WARNING, logger="bot.services.career.careers"):
            rows = career_rows(rally, drivers, actions)
        outcome = DIRT.rules.outcome(DIRT.rules.from_json(rally.snapshot))
        assert outcome is not None
        stored = {int(r.seat): (r.rank, r.score) for r in outcome.seats}
        assert {row.user_id: (row.place, row.score) for row in rows} == stored  # what the drivers saw
        assert sum(row.counters.get("turns", 0) for row in rows) > 0  # the replay's, up to the drift
        assert f"rally {rally.id} diverged" in caplog.text


async def test_a_diverged_rally_goes_on_from_its_stored_state(store, monkeypatch, service):
    rally_id = await played_before_the_fix(store, monkeypatch, 5, REFUSED_SEED, actions=20)  # diverged at 9
    rally = await store.rallies.get(rally_id)
    stored = DIRT.rules.from_json(rally.snapshot)
    (seat,) = DIRT.rules.to_act(stored)
    action = DIRT.coach.choose(DIRT.rules.view(stored, seat), seat)
    expected, _ = DIRT.rules.apply(stored, seat, action)
    await service.act(Place(GUILD, 5), Actor(int(seat), dict(SEATS)[seat]), DIRT.commands.label(action))
    after = await store.rallies.get(rally_id)
    assert after.version == rally.version + 1
    assert after.snapshot == DIRT.rules.to_json(expected)


@pytest.mark.parametrize("seed", [REFUSED_SEED, LATE_SEED])
async def test_the_rally_page_and_its_replay_answer_from_the_stored_state(store, monkeypatch, client, seed):
    rally_id = await played_before_the_fix(store, monkeypatch, 7, seed)
    await store.db.write(lambda tx: set_channel_web_tx(tx, GUILD, 7, True, 1001, "2026-11-28T00:00:00Z"))
    page = await client.get(f"/rally/{rally_id}?lang=en")
    assert page.status == 200
    shown = page_text(await page.text())
    seq = 9 if seed == REFUSED_SEED else (await store.rallies.get(rally_id)).version
    assert f"From action {seq} on, this rally's log no longer replays as it was played" in shown
    stored = DIRT.rules.from_json((await store.rallies.get(rally_id)).snapshot)
    winner = next(r for r in DIRT.rules.outcome(stored).seats if r.rank == 1)
    assert f"{dict(SEATS)[winner.seat]}" in shown.split("Results", 1)[1].split("Turn log", 1)[0]
    replay = await client.get(f"/rally/{rally_id}/replay?lang=en")
    assert replay.status == 200
    assert "Turn 1 of" in page_text(await replay.text())
