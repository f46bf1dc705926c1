"""Road Rally USA through the real command tree: the turn message offers only the
"My hand" button; `/hand` and that button answer privately with the seat's cards and a select menu
of its moves; a pick plays it; someone else's hand, a spectator's and a bad play are refused
privately, changing nothing."""

from __future__ import annotations

from bot import games
from tests.discord.fakes import (
    CHANNEL,
    GUILD,
    Harness,
    buttons_of,
    channel_posts,
    click_payload,
    private_answers,
    user_option,
)

RR = games.get("roadrally")
ANN, BEN, CAT, EVE = (3001, "Ann"), (3002, "Ben"), (3003, "Cat"), (3009, "Eve")
PEOPLE = {str(p[0]): p for p in (ANN, BEN, CAT)}


def menus_of(calls) -> list[tuple[dict, list]]:
    """The select menus among the private answers in `calls`, each with its message's rows as sent."""
    found = []
    for call in calls:
        rows = (call.body or {}).get("components", []) or []
        for row in rows:
            found += [(c, rows) for c in row.get("components", []) if c.get("type") == 3]
    return found


def pick_payload(user, picked: tuple[dict, list], value: str) -> dict:
    """A pick in the private message that holds the menu (Discord sends the message with it)."""
    menu, rows = picked
    payload = click_payload(user, {"id": "1", "channel_id": str(CHANNEL), "components": rows, "content": "",
                                   "author": {"id": "1", "username": "bot", "discriminator": "0", "avatar": None},
                                   "attachments": [], "embeds": [], "mentions": [], "mention_roles": [],
                                   "pinned": False, "mention_everyone": False, "tts": False, "type": 0,
                                   "timestamp": "2026-11-27T10:00:00+00:00", "edited_timestamp": None,
                                   "flags": 64},
                            menu["custom_id"])
    payload["data"] = {"custom_id": menu["custom_id"], "component_type": 3, "values": [value]}
    return payload


async def test_a_road_rally_game_in_discord_hand_menu_pick_and_refusals(tmp_path):
    async with Harness(tmp_path / "rr.sqlite3") as h:
        await h.command(ANN, "rally", "create", game="roadrally", preset="rr-standard", drivers=3)
        await h.command(ANN, "rally", "join")
        await h.command(BEN, "rally", "join")
        await h.command(CAT, "rally", "join")
        started = channel_posts(await h.command(ANN, "rally", "start"))
        assert "Road Rally USA" in started[0].content
        turn = h.last_turn_message()
        (hand_button,) = buttons_of(turn)  # no card is offered in the channel: only the hand
        assert hand_button.endswith(":hand")
        assert "Your hand" not in "\n".join(p.content for p in started)

        rally = await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)
        table = h.bot.rallies.work.state_of(rally)
        (seat,) = RR.rules.to_act(table)
        player = PEOPLE[seat]
        other = next(p for s, p in PEOPLE.items() if s != seat)
        before = RR.rules.to_json(table)

        # someone else's hand, a spectator's hand: refused privately, nothing changes
        (refused,) = private_answers(await h.command(other, "hand", special=(user_option("driver", player),)))
        assert "only look at your own hand" in refused
        (nobody,) = private_answers(await h.command(EVE, "hand"))
        assert "no seat in this rally" in nobody
        (bad,) = private_answers(await h.command(player, "play", cards="g9"))
        assert "🟩9 is not in your hand" in bad
        rally = await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)
        assert RR.rules.to_json(h.bot.rallies.work.state_of(rally)) == before

        # the button opens the clicker's own hand, privately, with a menu of the legal moves
        clicked = await h.dispatch(click_payload(player, turn, hand_button))
        (shown,) = private_answers(clicked)
        assert shown.startswith("Your hand: ")
        (picked,) = menus_of(clicked)
        menu = picked[0]
        values = [o["value"] for o in menu["options"]]
        assert values == list(RR.hidden.hand(RR.rules.view(table, seat)).picks)[:25]  # the seat's legal moves
        assert all(o["label"] for o in menu["options"])
        (own,) = private_answers(await h.command(player, "hand"))
        assert own == shown

        played = channel_posts(await h.dispatch(pick_payload(player, picked, values[0])))
        assert any(" plays " in p.content for p in played)
        rally = await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)
        assert RR.rules.to_json(h.bot.rallies.work.state_of(rally)) != before
        (stale,) = private_answers(await h.dispatch(pick_payload(player, picked, values[0])))
        assert "turn is over" in stale  # the menu was drawn for a turn that moved on


async def test_play_s_cards_and_act_are_autocompleted_with_the_seat_s_own_moves(tmp_path):
    from tests.discord.fakes import command_payload, option
    async with Harness(tmp_path / "rr.sqlite3") as h:
        await h.command(ANN, "rally", "create", game="roadrally", preset="rr-standard", drivers=3)
        for person in (ANN, BEN, CAT):
            await h.command(person, "rally", "join")
        await h.command(ANN, "rally", "start")
        rally = await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)
        table = h.bot.rallies.work.state_of(rally)
        (seat,) = RR.rules.to_act(table)
        legal = [RR.commands.label(a) for a in RR.rules.legal_actions(table, seat)]
        (call,) = await h.dispatch(command_payload(PEOPLE[seat], "play", None, [option("cards", "", focused=True)],
                                                   autocomplete=True))
        offered = [c["value"] for c in call.body["data"]["choices"]]
        assert [f"play {v}" for v in offered] == legal[:25]  # the seat's own plays, `play ` left out
        (call,) = await h.dispatch(command_payload(PEOPLE[seat], "act", None, [option("action", "", focused=True)],
                                                   autocomplete=True))
        assert [c["value"] for c in call.body["data"]["choices"]] == legal[:25]  # never the hand button
