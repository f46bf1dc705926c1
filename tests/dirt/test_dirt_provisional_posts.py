"""Every message of a DIRT rally says "provisional rules", once (RULES B13): its opening, each
turn an AI drives, each stage's and the rally's results, through the console as a channel sees it."""

from __future__ import annotations

import io

from bot.console import PLACE, Console, user_id
from bot.engine.core.text import from_json
from bot.services import RallyService
from bot.services.play.provisional import marks_in
from tests.dirt.test_dirt_end_to_end import drive_to_the_end


async def test_every_post_of_a_dirt_rally_the_ai_drives_says_provisional_rules_once(store):
    service = RallyService(store, seed_source=lambda: 3)
    out = io.StringIO()
    console = Console(service, out=out)
    await console.run_line("ann: /rally create game:dirt stage:dusty-pines")
    await console.run_line("ann: /rally add-ai count:2")
    await console.run_line("ann: /rally join")
    await console.run_line("ann: /rally start")
    await drive_to_the_end(console, service, store, {str(user_id("ann")): "ann"})  # ann plays as the AI would
    (rally,) = await store.rallies.finished_in_channel(PLACE.guild_id, PLACE.channel_id, 5)
    assert (rally.game, rally.ruleset, rally.status) == ("dirt", "provisional", "finished")
    rows = [r for r in await store.outbox.all() if r.rally_id == rally.id]
    assert len(rows) > 10 and any(r.kind == "turn" for r in rows)  # the opening, the AI's turns, the results
    assert [marks_in(from_json(r.body["lines"])) for r in rows] == [1] * len(rows)


async def test_a_classic_rally_s_posts_say_nothing_of_provisional_rules(store):
    service = RallyService(store, seed_source=lambda: 3)
    console = Console(service, out=io.StringIO())
    await console.run_line("ann: /rally create stage:black-moor drivers:2")
    await console.run_line("ann: /rally add-ai count:1")
    rows = await store.outbox.all()
    assert rows and [marks_in(from_json(r.body["lines"])) for r in rows] == [0] * len(rows)
