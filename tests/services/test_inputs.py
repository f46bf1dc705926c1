"""The options of `/rally create` as users type them (`bot/services/inputs.py`).

Each test is a complaint a user could have made: "a course of five specials was accepted",
"`assistance:none` still helped me", "`order:random` kept the join order", "`deadline_hours:1.5`
became 1 hour". Through the real service; a refusal says what was wrong and what is accepted,
and leaves the channel free. Parsing happens before any read or write, so one backend (a temp
SQLite file) is enough here; the store suites cover both.

Mutation testing (a development tool, not in CI): with a scratch `setup.cfg` holding
`[mutmut]` `paths_to_mutate=bot/services/inputs.py`, `also_copy=bot data tests pyproject.toml`
and `pytest_add_cli_args_test_selection=tests/services/test_inputs.py`, `pip install mutmut` then
`python3 -m mutmut run` (mutmut 3.8: 396 of 399 mutants caught; the 3 left change nothing a
caller can reach). Its `mutants/` folder is git-ignored.
"""

from __future__ import annotations

import pytest

from bot.engine.core.errors import RallyError
from bot.i18n import render
from bot.services import Place, RallyService
from bot.services.inputs import display_name, number, rules_plus, shown, snowflake, text_option
from bot.store import Store
from tests.services.conftest import ALICE, HERE

STAGES = ["pinewood-sprint", "black-moor", "frozen-lakes", "greystone-col", "millbrook-lakes"]


@pytest.fixture
async def store(tmp_path):
    opened = await Store.open(tmp_path / "inputs.sqlite3")
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def service(store):
    return RallyService(store, seed_source=lambda: 42)


async def created(service: RallyService, store: Store, stage: str = "pinewood-sprint", place: Place = HERE,
                  **options):
    """The rally `/rally create` made with `options`."""
    await service.create(place, ALICE, stage, **options)
    return await store.rallies.get_active_in_channel(place.guild_id, place.channel_id)


async def refused(service: RallyService, store: Store, stage: str = "pinewood-sprint", **options) -> str:
    """The refusal of `/rally create` with `options`: its text; the channel stays free, nothing owed."""
    with pytest.raises(RallyError) as refusal:
        await service.create(HERE, ALICE, stage, **options)
    assert await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id) is None
    assert await store.outbox.all() == []
    return str(refusal.value)


# -- the course: 1 to 4 specials (RULES A2) ----------------------------------------------------------

@pytest.mark.parametrize("count", [1, 2, 3, 4])
async def test_a_course_has_one_to_four_specials_in_the_order_typed(service, store, count):
    rally = await created(service, store, " , ".join(STAGES[:count]))
    assert rally.stage == STAGES[0]
    if count == 1:
        assert "course" not in rally.modules  # one stage: no course stored
    else:
        assert rally.modules["course"] == {"specials": STAGES[:count], "assistance": [True] * count}


async def test_a_course_of_five_specials_is_refused_with_the_limit(service, store):
    text = await refused(service, store, ",".join(STAGES))
    assert text == "A rally has 1 to 4 specials, not 5."


async def test_an_empty_special_in_a_course_is_refused_by_name(service, store):
    assert await refused(service, store, "pinewood-sprint,,black-moor") == "`stage` is empty: give a value."
    text = await refused(service, store, "pinewood-sprint, nowhere")
    assert text.startswith("There is no stage called `nowhere`. Stages: black-moor, brackenford-winter, coastal")


async def test_a_course_text_is_bounded_by_four_names_and_their_separators(service, store):
    assert await refused(service, store, "x" * 266) == "`stage` is too long (266 characters; at most 265)."
    assert await refused(service, store, "x" * 65) == "`stage` is too long (65 characters; at most 64)."
    text = await refused(service, store, "x" * 64)
    assert text.startswith("There is no stage called `" + "x" * 64 + "`")


async def test_a_generated_stage_is_a_stage(service, store):
    rally = await created(service, store, "gen-7-24")
    assert rally.stage == "gen-7-24"


# -- assistance (A2.4) --------------------------------------------------------------------------------

@pytest.mark.parametrize(("assistance", "flags"), [
    ("all", [True, True, True]), ("ALL", [True, True, True]), ("none", [False, False, False]),
    (" None ", [False, False, False]), ("1,3", [True, False, True]), ("2", [False, True, False]),
    ("3, 1", [True, False, True]), ("1,2,3", [True, True, True]),
])
async def test_assistance_follows_all_none_or_the_numbered_specials(service, store, assistance, flags):
    rally = await created(service, store, ",".join(STAGES[:3]), assistance=assistance)
    assert rally.modules["course"]["assistance"] == flags


@pytest.mark.parametrize("assistance", ["0", "4", "1,4", "1,x", "1,,2", "-1", "some", "1.0", "²"])
async def test_other_assistance_values_are_refused_with_what_is_accepted(service, store, assistance):
    text = await refused(service, store, ",".join(STAGES[:3]), assistance=assistance)
    assert text == ("`assistance` is `all`, `none`, or the specials followed by assistance, e.g. `1,2` "
                    f"(a rally of 3 specials), not `{assistance.lower()}`.")


async def test_assistance_none_on_one_stage_is_accepted(service, store):
    rally = await created(service, store, "pinewood-sprint", assistance="none")
    assert "course" not in rally.modules


# -- start order (A3) and language --------------------------------------------------------------------

@pytest.mark.parametrize(("order", "random"), [("joined", False), ("random", True), ("RANDOM", True),
                                               (" Joined ", False)])
async def test_the_start_order_is_joined_or_random(service, store, order, random):
    rally = await created(service, store, order=order)
    assert rally.modules.get("random_order", False) is random


@pytest.mark.parametrize("order", ["shuffle", "rand", "joined,random"])
async def test_another_start_order_is_refused_with_both_choices(service, store, order):
    text = await refused(service, store, order=order)
    assert text == f"`order` is `joined` (the order drivers joined) or `random`, not `{order}`."


@pytest.mark.parametrize(("language", "server", "stored"), [
    (None, "en", None), ("", "fr", "fr"), ("  ", "de", "de"), (None, "xx", None), ("fr", "en", "fr"),
    ("DE", "fr", "de"), ("en", "fr", None),
])
async def test_a_rally_is_written_in_the_language_chosen_else_the_servers(service, store, language, server,
                                                                          stored):
    place = Place(HERE.guild_id, HERE.channel_id, server)
    rally = await created(service, store, place=place, language=language)
    assert rally.modules.get("language") == stored


@pytest.mark.parametrize("language", ["es", "english", "f r"])
async def test_another_language_is_refused_with_the_list(service, store, language):
    text = await refused(service, store, language=language)
    assert text == f"language must be one of en, fr, de, not '{language}'."
    assert "en, fr, de" in render(text, "fr")


# -- modules (Rules+) ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("modules", "on"), [
    ("", []), ("none", []), (" NONE ", []), (None, []), ("weather", ["weather"]),
    ("splits, attack ,weather", ["attack", "weather", "splits"]), ("seconds,seconds", ["seconds"]),
    ("attack,", ["attack"]),
])
async def test_rules_plus_modules_are_switched_on_by_name(service, store, modules, on):
    rally = await created(service, store, modules=modules)
    assert sorted(k for k in ("attack", "seconds", "weather", "splits") if rally.modules.get(k)) == sorted(on)


async def test_an_unknown_module_is_refused_with_the_available_ones(service, store):
    text = await refused(service, store, modules="weather, turbo, sisu")
    assert text == "Unknown or unavailable module(s): turbo, sisu. Rules+ modules available: attack, seconds, " \
                   "weather, splits."


# -- numbers: drivers and deadline hours ---------------------------------------------------------------

@pytest.mark.parametrize(("hours", "seconds"), [("1.5", 5400), (1.5, 5400), ("2.", 7200), (" 24 ", 86400),
                                                ("1.000000000000000000", 3600),  # 20 characters: the longest
                                                ("0.25e1", None), (168, 604800), ("+1", 3600), ("167.75", 603900)])
async def test_deadline_hours_may_be_fractional(service, store, hours, seconds):
    if seconds is None:  # an exponent is not a plain number
        assert await refused(service, store, deadline_hours=hours) == \
            "`deadline_hours` must be a plain number, not `0.25e1`."
        return
    rally = await created(service, store, deadline_hours=hours)
    assert rally.turn_deadline_s == seconds


@pytest.mark.parametrize(("hours", "text"), [
    ("0.5", "`deadline_hours` must be a number from 1 to 168, not `0.5`."),
    ("168.01", "`deadline_hours` must be a number from 1 to 168, not `168.01`."),
    (0, "`deadline_hours` must be a number from 1 to 168, not `0`."),
    (True, "`deadline_hours` must be a plain number, not `True`."),
    ("", "`deadline_hours` must be a plain number, not ``."),
    (".", "`deadline_hours` must be a plain number, not `.`."),
    ("1" * 21, "`deadline_hours` must be a plain number, not `" + "1" * 20 + "`."),
    (10**30, "`deadline_hours` must be a number from 1 to 168, not `" + str(10**30)[:20] + "`."),
    (float("inf"), "`deadline_hours` must be a number from 1 to 168, not `inf`."),
    ("2\u200b4", "`deadline_hours` holds an invisible or control character (U+200B, character 2): write plain "
                  "printable text on one line (no line breaks, zero-width or text-direction characters)."),
])
async def test_bad_deadline_hours_are_refused_with_the_range(service, store, hours, text):
    assert await refused(service, store, deadline_hours=hours) == text


@pytest.mark.parametrize(("drivers", "text"), [
    ("2.5", "`drivers` must be a whole number, not `2.5`."),
    (5, "`drivers` must be a number from 1 to 4, not `5`."),
    ("0", "`drivers` must be a number from 1 to 4, not `0`."),
])
async def test_drivers_are_a_whole_number_from_one_to_four(service, store, drivers, text):
    assert await refused(service, store, drivers=drivers) == text


@pytest.mark.parametrize(("drivers", "seats"), [(1, 1), ("4", 4), ("2.0", 2), (3.0, 3)])
async def test_drivers_accepted(service, store, drivers, seats):
    assert (await created(service, store, drivers=drivers)).max_drivers == seats


def test_an_integer_beyond_float_precision_is_out_of_range_not_rounded():
    assert number("n", 2**53 - 1, 0, 2**60) == 2**53 - 1
    with pytest.raises(RallyError, match=r"from 0 to 1\.15292e"):
        number("n", 2**53, 0, 2**60)


# -- rulesets ------------------------------------------------------------------------------------------

async def test_an_unknown_ruleset_is_refused_with_the_list(service, store):
    text = await refused(service, store, ruleset="/etc/passwd")
    assert text == "There is no ruleset called `/etc/passwd`. Rulesets: classic, classic-consecutive, classic-sisu."
    assert (await created(service, store, ruleset=" classic-sisu ")).ruleset == "classic-sisu"


# -- free text, names from Discord, ids -----------------------------------------------------------------

def test_a_text_option_must_be_text():
    with pytest.raises(RallyError, match=r"^`stage` must be text\.$"):
        text_option("stage", 5, 10)


@pytest.mark.parametrize(("value", "cleaned"), [
    ("abc", "abc"), ("  abc\t", "abc"), ("a" * 10, "a" * 10), ("\u00a0ab\u2003c\u202f", "ab c"),
    ("a\u3000 b", "a  b"), ("\u00a0\u00a0x", "x"),
])
def test_the_free_text_validator_trims_and_makes_every_space_a_plain_one(value, cleaned):
    assert text_option("x", value, 10) == cleaned


@pytest.mark.parametrize(("value", "text"), [
    ("a\u202eb", "`x` holds an invisible or control character (U+202E, character 2)"),
    ("\x00", "`x` holds an invisible or control character (U+0000, character 1)"),
    (" ab\tc", "`x` holds an invisible or control character (U+0009, character 3)"),
    ("a" * 11, "`x` is too long (11 characters; at most 10)."),
    ("\u00a0\u2003", "`x` is empty: give a value."),
])
def test_the_free_text_validator_refuses(value, text):
    with pytest.raises(RallyError) as refusal:
        text_option("x", value, 10)
    assert str(refusal.value).startswith(text)


@pytest.mark.parametrize(("options", "text"), [
    ({"assistance": " "}, "`assistance` is empty: give a value."),
    ({"modules": "weather,\u200battack"}, "`modules` holds an invisible or control character (U+200B, character 9)"),
    ({"order": ""}, "`order` is empty: give a value."),
    ({"language": "x" * 65}, "`language` is too long (65 characters; at most 64)."),
    ({"ruleset": ""}, "`ruleset` is empty: give a value."),
    ({"drivers": "\u200b2"}, "`drivers` holds an invisible or control character (U+200B, character 1)"),
])
async def test_each_option_is_named_in_its_refusal(service, store, options, text):
    assert (await refused(service, store, ",".join(STAGES[:2]), **options)).startswith(text)


def test_rules_plus_modules_are_listed_in_the_rulebooks_order():
    assert rules_plus("splits,weather,seconds,attack,weather") == ["attack", "seconds", "weather", "splits"]


def test_shown_and_display_names_drop_hidden_characters_and_neutralise_mentions():
    assert shown("\u202e@everyone\x00 <@12>", 30) == "＠everyone <＠12>"
    assert shown("@HERE", 3) == "＠HE"
    assert display_name("\u200b\u202e") == "?" and display_name("", empty="") == ""
    assert display_name("A" * 70) == "A" * 64 and display_name("Ann", 2) == "An"
    assert display_name("mail@example.org") == "mail@example.org"  # an @ alone pings nobody


@pytest.mark.parametrize("value", [2**22, "4194304", 2**63 - 1, " 1180000000000000777 "])
def test_a_snowflake_is_a_discord_id(value):
    assert snowflake("role", value) == int(str(value).strip())


@pytest.mark.parametrize("value", [2**22 - 1, 2**63, 0, -5, "１２３４５６７８", "12 34", None, 1.5, False, True,
                                   "9" * 20, 4194304.0])
def test_anything_else_is_not_a_snowflake(value):
    with pytest.raises(RallyError) as refusal:
        snowflake("role", value)
    assert str(refusal.value) == ("`role` must be a Discord id (a whole number from 4194304 to 9223372036854775807, "
                                  f"as Discord gives it), not `{str(value)[:24]}`.")


def test_a_refused_id_is_quoted_cleaned_and_at_most_24_characters():
    with pytest.raises(RallyError) as refusal:
        snowflake("role", "<@&12>\u202e" + "9" * 40)
    assert str(refusal.value).endswith("not `<＠&12>" + "9" * 18 + "`.")
