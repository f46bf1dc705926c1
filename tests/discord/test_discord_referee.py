"""The referee (tests/discord/referee.py) catches each kind of request Discord would refuse, and
lets valid ones through: one planted violation per case, each of which must be reported with
the rule that caught it; and through the harness, a violation fails at the request and is kept
for the test's teardown."""

from __future__ import annotations

import copy
from typing import Any

import discord
import pytest
from discord.http import handle_message_parameters

from tests.discord import command_rules, referee
from tests.discord.fakes import (
    CHANNEL,
    Harness,
    guild_payload,
    member_payload,
    text_channel_payload,
    thread_payload,
)

MESSAGES = "/channels/{channel_id}/messages"
EDIT = "/channels/{channel_id}/messages/{message_id}"
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
FOLLOWUP = "/webhooks/{webhook_id}/{webhook_token}"
ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
COMMANDS = "/applications/{application_id}/commands"


def button(custom_id: str = "go", label: str = "Go") -> dict:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def select(count: int = 3, **extra: Any) -> dict:
    return {"type": 3, "custom_id": "pick", "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(count)],
            **extra}


def row(*items: dict) -> dict:
    return {"type": 1, "components": list(items)}


def message(**changes: Any) -> dict:
    body = {"content": "Your turn", "components": [row(button("a"), button("b"))],
            "allowed_mentions": {"parse": [], "users": ["12345"]}}
    body.update(changes)
    return body


def embed(**changes: Any) -> dict:
    return {"title": "Help", "description": "What the bot does", **changes}


def command(**changes: Any) -> dict:
    body = {"name": "rally", "description": "Run a rally", "type": 1,
            "name_localizations": {"fr": "course", "de": "rallye"},
            "description_localizations": {"fr": "Une course", "de": "Eine Rallye"},
            "options": [{"type": 4, "name": "rally", "description": "The rally's number", "required": True,
                         "min_value": 1, "max_value": 2**53 - 1},
                        {"type": 3, "name": "stage", "description": "A stage", "choices": [
                            {"name": "Monte", "value": "monte", "name_localizations": {"fr": "Monte-Carlo"}}]}]}
    body.update(changes)
    return body


def option_changed(**changes: Any) -> dict:
    body = command()
    body["options"][0].update(changes)
    return body


def choice_changed(**changes: Any) -> dict:
    body = command()
    body["options"][1]["choices"][0].update(changes)
    return body


def text(n: int) -> str:
    return "x" * n


def subcommand(name: str, options: list[dict] | None = None) -> dict:
    return {"type": 1, "name": name, "description": "A subcommand", "options": options or []}


def too_many_characters() -> dict:
    """25 options of 32 + 100 characters, in 2 subcommands: 4,000+ without breaking any other rule."""
    options = [{"type": 3, "name": f"o{i:02d}{text(28)}", "description": text(100)} for i in range(16)]
    return command(options=[subcommand("first", options), subcommand("second", copy.deepcopy(options))])


VALID = [
    ("message", "POST", MESSAGES, message(), []),
    ("message with embeds and a select", "POST", MESSAGES,
     message(embeds=[embed(fields=[{"name": "a", "value": "b"}])], components=[row(select())]), []),
    ("edit keeping an attachment and adding an upload", "PATCH", EDIT,
     {"attachments": [{"id": "1234"}, {"id": 0, "description": "The board"}]}, [("board.png", b"png")]),
    ("interaction answer", "POST", CALLBACK, {"type": 4, "data": {"content": "Done", "flags": 64}}, []),
    ("deferred answer", "POST", CALLBACK, {"type": 5, "data": {"flags": 64}}, []),
    ("autocomplete", "POST", CALLBACK, {"type": 8, "data": {"choices": [{"name": "Monte", "value": "monte"}]}}, []),
    ("followup with a picture", "POST", FOLLOWUP, {"content": "", "attachments": [{"id": 0}]}, [("b.png", b"png")]),
    ("edit of the original answer", "PATCH", ORIGINAL, {"content": "Done"}, []),
    ("delete of the original answer", "DELETE", ORIGINAL, None, []),
    ("thread", "POST", "/channels/{channel_id}/threads", {"name": "run", "type": 12, "invitable": False}, []),
    ("thread member", "PUT", "/channels/{channel_id}/thread-members/{user_id}", None, []),
    ("DM channel", "POST", "/users/@me/channels", {"recipient_id": 12345}, []),
    ("channel", "GET", "https://discord.com/api/v10/channels/20", None, []),
    ("command sync", "PUT", COMMANDS, [command(), command(name="replay", name_localizations=None,
                                                          description_localizations=None)], []),
]


@pytest.mark.parametrize(("method", "path", "body", "files"), [case[1:] for case in VALID],
                         ids=[case[0] for case in VALID])
def test_a_valid_request_passes(method, path, body, files):
    assert referee.judge(method, path, body, files) == []


#: (case, method, path, body, files, what the report must name)
VIOLATIONS = [
    # the spec itself
    ("unknown operation", "GET", "/channels/{channel_id}/pins", None, [], "not an operation"),
    ("unknown method", "DELETE", MESSAGES, None, [], "not an operation"),
    ("schema type error", "POST", MESSAGES, message(content=5), [], "content: 5 is not of type"),
    ("schema unknown callback type", "POST", CALLBACK, {"type": 99}, [], "type: 99 is not one of"),
    ("schema wrong component field", "POST", MESSAGES, message(components=[row({**button(), "style": "red"})]), [],
     "components[0].components[0].style"),
    ("files to an operation without files", "POST", "/users/@me/channels", {"recipient_id": "1"},
     [("a.png", b"x")], "takes none"),
    # messages
    ("content over 2,000", "POST", MESSAGES, message(content=text(2001)), [], "content: 2001 characters"),
    ("content over 2,000 in an interaction answer", "POST", CALLBACK,
     {"type": 4, "data": {"content": text(2001)}}, [], "content: 2001 characters"),
    ("content over 2,000 in an edit", "PATCH", ORIGINAL, {"content": text(2001)}, [], "content: 2001 characters"),
    ("empty message", "POST", MESSAGES, {"content": ""}, [], "empty message"),
    ("nonce over 25", "POST", MESSAGES, message(nonce=text(26)), [], "nonce"),
    ("11 embeds", "POST", MESSAGES, message(embeds=[embed()] * 11), [], "embeds"),
    ("embeds over 6,000 characters", "POST", MESSAGES,
     message(embeds=[embed(description=text(3000)), embed(description=text(3000))]), [], "6008 characters in all"),
    ("26 embed fields", "POST", MESSAGES, message(embeds=[embed(fields=[{"name": "a", "value": "b"}] * 26)]), [],
     "embeds[0].fields"),
    ("embed title over 256", "POST", MESSAGES, message(embeds=[embed(title=text(257))]), [], "embeds[0].title"),
    ("embed description over 4,096", "POST", MESSAGES, message(embeds=[embed(description=text(4097))]), [],
     "embeds[0].description"),
    ("field name over 256", "POST", MESSAGES, message(embeds=[embed(fields=[{"name": text(257), "value": "b"}])]),
     [], "embeds[0].fields[0].name"),
    ("field value over 1,024", "POST", MESSAGES,
     message(embeds=[embed(fields=[{"name": "a", "value": text(1025)}])]), [], "embeds[0].fields[0].value"),
    ("footer over 2,048", "POST", MESSAGES, message(embeds=[embed(footer={"text": text(2049)})]), [],
     "embeds[0].footer.text"),
    ("author over 256", "POST", MESSAGES, message(embeds=[embed(author={"name": text(257)})]), [],
     "embeds[0].author.name"),
    ("6 action rows", "POST", MESSAGES, message(components=[row(button(f"b{i}")) for i in range(6)]), [],
     "6 action rows"),
    ("6 buttons in a row", "POST", MESSAGES, message(components=[row(*(button(f"b{i}") for i in range(6)))]), [],
     "components[0].components"),
    ("a select beside a button", "POST", MESSAGES, message(components=[row(select(), button())]), [],
     "a select menu shares its row"),
    ("custom_id over 100", "POST", MESSAGES, message(components=[row(button(text(101)))]), [],
     "components[0].components[0].custom_id"),
    ("the same custom_id twice", "POST", MESSAGES, message(components=[row(button("a"), button("a"))]), [],
     "used twice"),
    ("button label over 80", "POST", MESSAGES, message(components=[row(button(label=text(81)))]), [],
     "components[0].components[0].label"),
    ("a layout component without the V2 flag", "POST", MESSAGES,
     message(components=[{"type": 10, "content": "hi"}]), [], "only action rows"),
    ("26 select options", "POST", MESSAGES, message(components=[row(select(26))]), [],
     "components[0].components[0].options"),
    ("select option label over 100", "POST", MESSAGES,
     message(components=[row(select(options=[{"label": text(101), "value": "v"}]))]), [], ".options[0].label"),
    ("select option value over 100", "POST", MESSAGES,
     message(components=[row(select(options=[{"label": "l", "value": text(101)}]))]), [], ".options[0].value"),
    ("select option description over 100", "POST", MESSAGES,
     message(components=[row(select(options=[{"label": "l", "value": "v", "description": text(101)}]))]), [],
     ".options[0].description"),
    ("placeholder over 150", "POST", MESSAGES, message(components=[row(select(placeholder=text(151)))]), [],
     ".placeholder"),
    ("attachment description over 1,024", "POST", MESSAGES,
     message(attachments=[{"id": 0, "description": text(1025)}]), [("a.png", b"x")], "attachments[0].description"),
    ("an attachment naming a missing upload", "PATCH", EDIT, {"attachments": [{"id": 1}]}, [("a.png", b"x")],
     "names upload 1"),
    ("a file over 10 MiB", "POST", MESSAGES, message(), [("huge.webp", 10 * 1024 * 1024 + 1)], "over 10485760"),
    ("11 files", "POST", MESSAGES, message(), [(f"{i}.png", 1) for i in range(11)], "files: 11, at most 10"),
    ("allowed_mentions parsing and listing users", "POST", MESSAGES,
     message(allowed_mentions={"parse": ["users"], "users": ["1"]}), [], "mutually exclusive"),
    ("allowed_mentions unknown kind", "POST", MESSAGES, message(allowed_mentions={"parse": ["user"]}), [],
     "'user' is not one of"),
    ("26 autocomplete choices", "POST", CALLBACK,
     {"type": 8, "data": {"choices": [{"name": f"c{i}", "value": f"v{i}"} for i in range(26)]}}, [], "choices"),
    ("autocomplete value over 100", "POST", CALLBACK,
     {"type": 8, "data": {"choices": [{"name": "c", "value": text(101)}]}}, [], "choices[0].value"),
    # command registration
    ("command name in capitals", "PUT", COMMANDS, [command(name="Rally")], [], "/Rally name 'Rally'"),
    ("command name with a space", "PUT", COMMANDS, [command(name="new rally")], [], "not a lowercase name"),
    ("localised name in capitals", "PUT", COMMANDS, [command(name_localizations={"de": "Rallye"})], [],
     "name [de] 'Rallye'"),
    ("localised name too long", "PUT", COMMANDS, [command(name_localizations={"fr": text(33)})], [],
     "name_localizations.fr"),
    ("localised description too long", "PUT", COMMANDS, [command(description_localizations={"fr": text(101)})],
     [], "description_localizations.fr"),
    ("localisation in a locale Discord lacks", "PUT", COMMANDS, [command(name_localizations={"fr-FR": "course"})],
     [], "'fr-FR' is not one of Discord's locales"),
    ("empty description", "PUT", COMMANDS, [command(description="")], [], "description: 0 characters"),
    ("description over 100", "PUT", COMMANDS, [command(description=text(101))], [], "[0].description"),
    ("max_value 2**53", "PUT", COMMANDS, [option_changed(max_value=2**53)], [], "9007199254740992"),
    ("min_value below -(2**53 - 1)", "PUT", COMMANDS, [option_changed(min_value=-(2**53))], [], "min_value"),
    ("max_length over 6,000", "PUT", COMMANDS, [option_changed(type=3, min_value=None, max_value=None,
                                                               max_length=6001)], [], "max_length"),
    ("26 options", "PUT", COMMANDS,
     [command(options=[{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)])], [], "options"),
    ("26 choices", "PUT", COMMANDS,
     [command(options=[{"type": 3, "name": "o", "description": "d",
                        "choices": [{"name": f"c{i}", "value": f"v{i}"} for i in range(26)]}])], [], "choices"),
    ("choice name over 100", "PUT", COMMANDS, [choice_changed(name=text(101))], [], "choices[0].name"),
    ("choice value over 100", "PUT", COMMANDS, [choice_changed(value=text(101))], [],
     "choice value 'xxxxxxxxxxxxxxxxxxxx'…: 101 characters"),
    ("choices and autocomplete", "PUT", COMMANDS,
     [command(options=[{**command()["options"][1], "autocomplete": True}])], [], "both choices and autocomplete"),
    ("a required option after an optional one", "PUT", COMMANDS,
     [command(options=list(reversed(command()["options"])))], [], "a required option after an optional one"),
    ("a group inside a group", "PUT", COMMANDS,
     [command(options=[{"type": 2, "name": "outer", "description": "d",
                        "options": [{"type": 2, "name": "inner", "description": "d",
                                     "options": [subcommand("leaf")]}]}])], [],
     "options[0].options[0].type: 2 is not one of [1]"),
    ("subcommands mixed with options", "PUT", COMMANDS,
     [command(options=[subcommand("one"), {"type": 3, "name": "o", "description": "d"}])], [], "mixed"),
    ("two options of one name", "PUT", COMMANDS,
     [command(options=[{"type": 3, "name": "o", "description": "d"}] * 2)], [], "'o' twice"),
    ("two options of one name in French", "PUT", COMMANDS,
     [command(options=[{"type": 3, "name": "a", "description": "d", "name_localizations": {"fr": "x"}},
                       {"type": 3, "name": "b", "description": "d", "name_localizations": {"fr": "x"}}])], [],
     "[fr]: 'x' twice"),
    ("over 4,000 characters", "PUT", COMMANDS, [too_many_characters()], [], "at most 4000"),
    ("101 global commands", "PUT", COMMANDS,
     [command(name=f"c{i}", name_localizations=None) for i in range(101)], [], "101 global chat-input commands"),
]


@pytest.mark.parametrize(("method", "path", "body", "files", "expected"), [case[1:] for case in VIOLATIONS],
                         ids=[case[0] for case in VIOLATIONS])
def test_a_planted_violation_is_caught(method, path, body, files, expected):
    problems = referee.judge(method, path, body, files)
    assert problems, "the referee let it through"
    assert any(expected in p for p in problems), problems


def test_every_limit_of_the_brief_has_a_case():
    """Cases are cheap to lose in a long list: the kinds this file must plant, by name."""
    names = {case[0] for case in VIOLATIONS}
    assert len(names) == len(VIOLATIONS)
    for kind in ("content over 2,000", "11 embeds", "embeds over 6,000 characters", "6 action rows",
                 "6 buttons in a row", "custom_id over 100", "button label over 80", "26 select options",
                 "placeholder over 150", "attachment description over 1,024", "a file over 10 MiB", "11 files",
                 "nonce over 25", "schema type error", "unknown operation", "command name in capitals",
                 "max_value 2**53", "localised name too long", "over 4,000 characters"):
        assert kind in names


def test_the_nesting_rules_hold_beside_the_schema():
    """The schema already refuses a group in a group; the documented rule says it on its own too."""
    nested = command(options=[{"type": 2, "name": "outer", "description": "d",
                               "options": [{"type": 2, "name": "inner", "description": "d",
                                            "options": [subcommand("leaf")]}]}])
    problems = referee.command_problems([nested])
    assert "/rally outer inner: a group nested 2 deep" in problems
    assert "/rally outer: a subcommand group holds something else than subcommands" in problems
    assert referee.command_problems([command()]) == []


def test_the_name_rule_takes_every_script_discord_lists():
    assert command_rules.valid_command_name("rallye-ü_1'")
    assert command_rules.valid_command_name("रैली")  # Devanagari: its vowel signs are marks, allowed by script
    assert command_rules.valid_command_name("แรลลี่")  # Thai, tone marks included
    assert not command_rules.valid_command_name("rally!")
    assert not command_rules.valid_command_name(text(33))
    assert not command_rules.valid_command_name("")


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "referee.sqlite3") as harness:
        yield harness


async def test_a_channel_post_discord_would_refuse_fails_at_the_request_and_is_kept_for_teardown(h):
    before = referee.LEDGER.requests
    with pytest.raises(referee.RefereeViolation, match="content: 2001 characters"):
        await h.bot.http.send_message(CHANNEL, params=handle_message_parameters(content=text(2001)))
    assert isinstance(h.sent[-1].error, referee.RefereeViolation)
    assert referee.LEDGER.requests == before + 1
    kept = referee.forgive()  # planted on purpose: this test's teardown must not fail
    assert len(kept) == 1 and "content: 2001 characters" in kept[0]


async def test_a_followup_discord_would_refuse_fails_at_the_request_and_is_kept_for_teardown(h):
    webhook = discord.Webhook.partial(77, "token", session=object(), client=h.bot)  # the harness's adapter sends
    with pytest.raises(referee.RefereeViolation, match="6 action rows"):
        await webhook.send("hi", view=_six_rows())
    kept = referee.forgive()
    assert len(kept) == 1 and "/webhooks/{webhook_id}/{webhook_token}" in kept[0]


def _six_rows() -> discord.ui.View:
    """A view of 6 rows: discord.py itself refuses a 6th row, so it is planted behind its back."""
    view = discord.ui.View()
    for i in range(5):
        view.add_item(discord.ui.Button(label=f"b{i}", custom_id=f"b{i}", row=i))
    extra = discord.ui.Button(label="b5", custom_id="b5")
    original = view.to_components

    def to_components() -> list[dict]:
        return [*original(), {"type": 1, "components": [extra.to_component_dict()]}]

    view.to_components = to_components  # type: ignore[method-assign]
    return view


def test_the_fakes_answers_to_the_reads_are_judged_by_the_spec():
    """What the bot reads of a server, a member, a channel (it keeps no cache of them) is what
    Discord's answer can be: the fakes' answers pass, a planted gap is named, other operations'
    answers are not judged (the spec subset keeps no answer schema for them)."""
    assert referee.judge_answer("GET", "/guilds/10", guild_payload({55})) == []
    assert referee.judge_answer("GET", "/guilds/10/members/7", member_payload(7, (55,))) == []
    assert referee.judge_answer("GET", f"/channels/{CHANNEL}", text_channel_payload(CHANNEL)) == []
    assert referee.judge_answer("GET", "/channels/31", thread_payload(31)) == []
    no_roles = {k: v for k, v in guild_payload().items() if k != "roles"}
    (problem,) = referee.judge_answer("GET", "/guilds/10", no_roles)
    assert "get_guild" in problem and "'roles' is a required property" in problem
    (problem,) = referee.judge_answer("GET", "/guilds/10/members/7", {**member_payload(7), "roles": [{"id": "5"}]})
    assert "get_guild_member" in problem
    assert referee.judge_answer("POST", f"/channels/{CHANNEL}/messages", {"anything": 1}) == []
