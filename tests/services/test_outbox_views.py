"""What is shown comes from a view: an outbox row keeps what its post needs, built
from the game's spectator view, never the state (DESIGN §9: the guard Road Rally USA relies on).

The guard is written against the `Game` protocol only, for every game of the registry: each row's
payload, parsed (a text holding JSON is read as JSON too), may hold only the keys of what the post
shows — the row's own envelope, messages, and the keys of the pictures the game's spectator view
gives (`board(view(state, None))`, `results(...)`) — and a picture only as that view gives it for
one of the states the rally went through; and no text of the state that no picture shows.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from typing import Any

import pytest

from bot import games
from bot.console import PLACE, Console
from bot.engine.core.game import Game
from bot.services import RallyService
from bot.services.play.replay import replay_states
from bot.store import Store

#: the keys of an outbox row's own envelope (bot.services.work.Post.body), of a message's JSON
#: (bot.engine.core.text.to_json), of a turn prompt and of an image spec: what every post may hold;
#: a replay's `about` is what its description tells (bot.services.alt_text.replay_about: the
#: rally's title, its last round, its winners, from the spectators' view; its texts checked below)
ENVELOPE = frozenset({"lines", "ping", "turn", "deadline", "image", "close_turn", "attach", "rally_id", "version",
                      "driver_id", "options", "certain_loss", "kind", "game", "view", "name", "stage", "round_id",
                      "about", "title", "rounds", "winners"})
MESSAGE = frozenset({"key", "params", "list", "how"})


def _parsed(value: Any) -> Any:
    """A payload with every text that holds a JSON object or list read as that JSON (an old spec
    kept the snapshot as a text)."""
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return _parsed(json.loads(value))
        except ValueError:
            return value
    if isinstance(value, dict):
        return {k: _parsed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_parsed(v) for v in value]
    return value


def keys_of(value: Any) -> set[str]:
    """Every key of a JSON value; a message's params are named by the message, not by a state."""
    found: set[str] = set()
    if isinstance(value, dict):
        found |= set(value)
        for k, v in value.items():
            if k == "params" and isinstance(v, dict):
                for param in v.values():
                    found |= keys_of(param)
            else:
                found |= keys_of(v)
    elif isinstance(value, list):
        for v in value:
            found |= keys_of(v)
    return found


def texts_of(value: Any) -> set[str]:
    """Every text leaf of a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(texts_of(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(texts_of(v) for v in value)) if value else set()
    return set()


def pictures(game: Game[Any, Any, Any, Any], states: Iterable[Any]) -> dict[str, list[Any]]:
    """The pictures the spectators' view of each state gives, by kind."""
    shown: dict[str, list[Any]] = {"board": [], "results": []}
    for state in states:
        view = game.rules.view(state, None)
        shown["board"].append(game.pictures.board(view))
        shown["results"].append(game.pictures.results(view))
    return shown


def hidden(game: Game[Any, Any, Any, Any], states: list[Any], shown: dict[str, list[Any]]) -> set[str]:
    """The texts of the states that no picture shows (a card of a hand, a stream's key …), as words
    long enough not to be any message's word by chance."""
    state_texts = set().union(*(texts_of(json.loads(game.rules.to_json(s))) for s in states))
    return {t for t in state_texts - texts_of(shown) if len(t) >= 8}


def problems(body: Any, game: Game[Any, Any, Any, Any], shown: dict[str, list[Any]], secret: set[str]) -> list[str]:
    """What an outbox row's payload holds beyond what the spectators' view shows (empty: nothing)."""
    payload = _parsed(body)
    out: list[str] = []
    allowed = ENVELOPE | MESSAGE | keys_of(shown)
    extra = keys_of(payload) - allowed
    if extra:
        out.append(f"keys no view shows: {sorted(extra)}")
    leaked = texts_of(payload) & secret
    if leaked:
        out.append(f"texts of the state no view shows: {sorted(leaked)[:5]}")
    image = payload.get("image") if isinstance(payload, dict) else None
    if isinstance(image, dict) and image.get("kind") in shown:
        if image.get("game") != game.id or image.get("view") not in shown[image["kind"]]:
            out.append(f"a {image.get('kind')} picture no spectator view of the rally gives")
    return out


async def _rally_histories(store: Store) -> list[tuple[Game[Any, Any, Any, Any], Any, list[Any]]]:
    """Each rally of the store: its game, its id and the states its action log went through."""
    out = []
    for rally in await store.rallies.list_by_status(("running", "finished", "abandoned")):
        actions = [a.as_dict() for a in await store.actions.list(rally.id)]
        row = rally.as_dict()
        row["drivers"] = [d.as_dict() for d in await store.drivers.list(rally.id)]
        out.append((games.get(row.get("game")), rally.id, replay_states(row, actions)))
    return out


async def assert_rows_show_only_views(store: Store) -> int:
    """Every outbox row of every rally holds only what its game's spectator view shows; the rows checked."""
    rows = await store.outbox.all()
    checked = 0
    for game, rally_id, states in await _rally_histories(store):
        shown = pictures(game, states)
        secret = hidden(game, states, shown)  # none for classic; a hand's cards for Road Rally
        for row in (r for r in rows if r.rally_id == rally_id):
            assert problems(row.body, game, shown, secret) == [], (row.id, str(row.body)[:300])
            checked += 1
    return checked


@pytest.mark.parametrize("modules", ["", "attack,seconds,weather,splits"])
async def test_no_outbox_row_of_a_rally_with_ai_seats_holds_state_the_spectators_view_does_not_show(store, modules):
    """A rally of two specials, a driver on autopilot and two AI seats, played to its end through
    the real services (the console), with no module and with every Rules+ module."""
    service = RallyService(store, seed_source=lambda: 5)
    console = Console(service, out=io.StringIO())
    for line in (f"alice: /rally create stage:pinewood-sprint,black-moor drivers:3 modules:{modules}",
                 "alice: /rally join", "alice: /rally add-ai count:2 style:bold", "alice: /rally start",
                 "alice: /autopilot"):
        await console.run_line(line)
    assert await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id) is None  # played out
    rows = await store.outbox.all()
    kinds = [r.body["image"]["kind"] for r in rows if isinstance(r.body, dict) and r.body.get("image")]
    assert kinds.count("board") > 10 and kinds.count("results") >= 2  # each special's card, the rally's
    assert await assert_rows_show_only_views(store) == len([r for r in rows if r.rally_id is not None])


def test_the_guard_sees_a_row_that_holds_the_whole_state():
    """The check is not blind: the spec a post carried before (the whole snapshot as a text) is
    caught, by its keys (dice, deck …) and its picture."""
    from bot.engine.rallyman.simulate import play_stage  # a test may build a classic state directly

    game = games.get(None)
    state, _ = play_stage("pinewood-sprint", drivers=2, seed=4)
    shown = pictures(game, [state])
    secret = hidden(game, [state], shown)
    old = {"lines": [], "image": {"kind": "board", "state": game.rules.to_json(state)}}
    found = problems(old, game, shown, secret)
    assert any("keys no view shows" in p and "'dice'" in p for p in found), found
    assert any("no spectator view" in p for p in found), found
    view_spec = {"lines": [], "image": {"kind": "board", "game": game.id, "view": shown["board"][0]}}
    assert problems(view_spec, game, shown, secret) == []
