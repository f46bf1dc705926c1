"""What organisers type, as users found it, through the real services.

League names are one name whatever their case (6); every free text refuses invisible, control and
bidi characters without echoing them, and what is posted never pings (7); time zones are
Area/Location names or UTC, days are named exactly or numbered, role ids are real snowflakes (8).
Every refusal names what was wrong and what is accepted, and changes nothing.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.engine.core.errors import RallyError
from bot.i18n import render
from bot.services import Actor
from bot.store.clock import from_text
from bot.store.leagues import leagues_of_guild_tx, rounds_of_league_tx
from tests.league.conftest import deliver
from tests.league.league_helpers import ALICE, GUILD, LEAGUE_CHANNEL, ORGANISER
from tests.league.test_league_refusals import everything

STEWARDS = 1_180_000_000_000_000_777  # a role's id, as Discord gives it

# Characters that hide or reorder what a post says, or break it: (name, character)
HIDDEN = [
    ("zero-width space", "\u200b"), ("zero-width joiner", "\u200d"), ("right-to-left override", "\u202e"),
    ("left-to-right embedding", "\u202a"), ("first strong isolate", "\u2068"), ("byte order mark", "\ufeff"),
    ("soft hyphen", "\u00ad"), ("null", "\x00"), ("bell", "\x07"), ("line feed", "\n"),
    ("line separator", "\u2028"), ("escape", "\x1b"), ("private use", "\ue000"),
]


@pytest.fixture
async def champs(service):
    champs = service.championships
    leagues = champs.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "Europe/Paris")
    await leagues.join(LEAGUE_CHANNEL, ALICE)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+2d")
    return champs


async def refusal(store, call) -> str:
    """The refusal of `call` (it must be one), checked to have changed nothing."""
    before = await everything(store)
    with pytest.raises(RallyError) as refused:
        await call()
    assert await everything(store) == before
    return str(refused.value)


# -- 6. league names -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["sunday cup", "SUNDAY CUP", "Ｓｕｎｄａｙ Ｃｕｐ", "  Sunday Cup  "])
async def test_a_league_name_differing_only_by_case_or_form_is_taken(service, store, champs, name):
    text = await refusal(store, lambda: champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, name, "UTC"))
    assert "already has a league named" in text


@pytest.mark.parametrize("typed", ["sunday cup", "SUNDAY CUP", "Ｓｕｎｄａｙ Ｃｕｐ"])
async def test_a_league_is_found_whatever_the_case_it_is_typed_in(service, store, champs, typed):
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Club", "UTC")  # two leagues here: the name decides
    bob = Actor(1002, "Bob")
    reply = await champs.leagues.join(LEAGUE_CHANNEL, bob, typed)
    assert "Bob joined **Sunday Cup**." in "\n".join(reply.lines)


# -- 7. free text ------------------------------------------------------------------------------------

FREE_TEXT_CALLS = {
    "name": lambda c, t: c.leagues.create(LEAGUE_CHANNEL, ORGANISER, f"Win{t}ter", "UTC"),
    "timezone": lambda c, t: c.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Winter", f"Europe/{t}Paris"),
    "points": lambda c, t: c.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Winter", "UTC", points=f"10-{t}5"),
    "league": lambda c, t: c.leagues.join(LEAGUE_CHANNEL, Actor(1002, "Bob"), f"Sunday{t} Cup"),
    "reason (cancel)": lambda c, t: c.rounds.round_cancel(LEAGUE_CHANNEL, ORGANISER, 1, f"ra{t}in"),
    "reason (penalty)": lambda c, t: c.stewarding.penalty(LEAGUE_CHANNEL, ORGANISER, ALICE.user_id, "Alice", 10,
                                                          f"c{t}ut"),
    "reason (disqualify)": lambda c, t: c.stewarding.disqualify(LEAGUE_CHANNEL, ORGANISER, ALICE.user_id, "Alice", 1,
                                                                f"jump{t} start"),
    "stage": lambda c, t: c.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, f"pinewood{t}-sprint", opens="+1d",
                                             closes="+2d"),
    "opens": lambda c, t: c.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens=f"+1{t}d",
                                             closes="+2d"),
    "assistance": lambda c, t: c.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint, black-moor", opens="+1d",
                                                  closes="+2d", assistance=f"1,{t}2"),
    "day": lambda c, t: c.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", day=f"mo{t}n", hour=20),
    "hour": lambda c, t: c.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", day="mon", hour=f"2{t}0"),
}


@pytest.mark.parametrize("option", list(FREE_TEXT_CALLS))
@pytest.mark.parametrize(("kind", "char"), HIDDEN, ids=[k for k, _ in HIDDEN])
async def test_every_free_text_option_refuses_hidden_characters_by_code_point_without_echoing_them(
        service, store, champs, option, kind, char):
    text = await refusal(store, lambda: FREE_TEXT_CALLS[option](champs, char))
    assert "invisible or control character" in text and f"U+{ord(char):04X}" in text, text
    assert char not in text
    for lang in ("fr", "de"):
        assert f"U+{ord(char):04X}" in render(text, lang) and char not in render(text, lang)


async def test_a_hidden_character_at_the_end_is_not_trimmed_away_but_refused(service, store, champs):
    """Trimming removes spaces only: a zero-width space at the end of a reason is still refused."""
    text = await refusal(store, lambda: champs.rounds.round_cancel(LEAGUE_CHANNEL, ORGANISER, 1, "rain\u200b"))
    assert "U+200B, character 5" in text


async def test_other_spaces_are_plain_spaces_and_the_text_is_trimmed(service, store, champs, posts):
    await champs.rounds.round_cancel(LEAGUE_CHANNEL, ORGANISER, 1, "\u00a0 pluie\u202fdiluvienne \u3000")
    await deliver(service, posts)
    assert posts.text(LEAGUE_CHANNEL.channel_id).endswith(": pluie diluvienne")
    (row,) = await store.db.fetch_all("SELECT reason FROM league_log WHERE action = 'cancel'")
    assert row[0] == "pluie diluvienne"


async def test_a_free_text_longer_than_its_limit_says_both_lengths(service, store, champs):
    text = await refusal(store, lambda: champs.rounds.round_cancel(LEAGUE_CHANNEL, ORGANISER, 1, "r" * 201))
    assert text == "`reason` is too long (201 characters; at most 200)."


async def test_mentions_in_a_reason_or_a_league_name_never_ping_when_posted(service, store, champs, posts):
    await champs.rounds.round_cancel(LEAGUE_CHANNEL, ORGANISER, 1, "@everyone @here <@1001> <@!1002> <@&5550> mail@x")
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "@here Cup", "UTC")
    await deliver(service, posts)
    said = posts.text(LEAGUE_CHANNEL.channel_id)
    assert "＠everyone ＠here <＠1001> <＠!1002> <＠&5550> mail@x" in said
    assert "＠here Cup" in said
    for ping in ("@everyone", "@here", "<@1001>", "<@!1002>", "<@&5550>"):
        assert ping not in said
    bob = Actor(1002, "Bob")  # the name is found as it is typed
    assert "**＠here Cup**" in "\n".join((await champs.leagues.join(LEAGUE_CHANNEL, bob, "@here cup")).lines)


async def test_a_display_name_from_discord_is_cleaned_not_refused(service, store, champs, posts):
    sneaky = Actor(1002, "B\u202eob\u200b @everyone\n")
    await champs.leagues.join(LEAGUE_CHANNEL, sneaky)
    await deliver(service, posts)
    assert "Bob ＠everyone joined **Sunday Cup**." in posts.text(LEAGUE_CHANNEL.channel_id)
    rows = await store.db.fetch_all("SELECT display_name FROM league_members WHERE user_id = 1002")
    assert [r[0] for r in rows] == ["Bob ＠everyone"]


# -- 8. time zones, days, roles ----------------------------------------------------------------------

@pytest.mark.parametrize(("typed", "stored"), [
    ("Europe/Paris", "Europe/Paris"), ("europe/paris", "Europe/Paris"), ("UTC", "UTC"), ("utc", "UTC"),
    ("America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"), ("Pacific/Auckland", "Pacific/Auckland"),
])
async def test_a_league_time_zone_is_an_area_location_name_or_utc(service, store, typed, stored):
    await service.championships.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Winter", typed)
    (found,) = await store.db.read(lambda tx: leagues_of_guild_tx(tx, GUILD))
    assert found.timezone == stored


@pytest.mark.parametrize("typed", ["localtime", "Factory", "EST5EDT", "EST", "CET", "GMT", "Zulu", "US/Eastern",
                                   "Etc/GMT+5", "posix/Europe/Paris", "Europe", "Europe/Atlantis", "Paris", "UTC+1",
                                   "../../etc/localtime"])
async def test_other_time_zone_names_are_refused_with_examples(service, store, champs, typed):
    text = await refusal(store, lambda: champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Winter", typed))
    assert text.startswith(f"'{typed}' is not a time zone a league can have")
    assert "Europe/Paris" in text and "UTC" in text and "Area/Location" in text


def _local_weekday(rnd, tz: str) -> tuple[int, int]:
    opened: datetime = from_text(rnd.opens_at).astimezone(ZoneInfo(tz))
    return opened.weekday(), opened.hour


@pytest.mark.parametrize(("day", "index"), [
    ("mon", 0), ("Monday", 0), ("monday", 0), ("lundi", 0), ("Montag", 0), ("1", 0), ("wed", 2), ("Mittwoch", 2),
    ("mercredi", 2), ("3", 2), ("SUNDAY", 6), ("dimanche", 6), ("Sonntag", 6), ("7", 6), ("sun", 6),
])
async def test_weekly_rounds_open_on_the_day_named_exactly_or_numbered(service, store, champs, day, index):
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "black-moor", day=day, hour=20, rounds=2)
    rounds = await store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    assert [_local_weekday(r, "Europe/Paris") for r in rounds[1:]] == [(index, 20), (index, 20)]


@pytest.mark.parametrize("day", ["monkey", "mo", "Mondays", "mon.", "lun", "Mon day", "0", "8", "-1", "1.0",
                                 "tuesday!", "someday"])
async def test_any_other_day_is_refused_with_the_days_in_the_readers_language(service, store, champs, day):
    text = await refusal(store, lambda: champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "black-moor", day=day,
                                                                hour=20))
    assert text == (f"day must be a day of the week, by its name (Monday, Tuesday, Wednesday, Thursday, Friday, "
                    f"Saturday, Sunday) or its number (1 = Monday to 7 = Sunday), not '{day}'.")
    assert "(lundi, mardi, mercredi, jeudi, vendredi, samedi, dimanche)" in render(text, "fr")
    assert "(Montag, Dienstag, Mittwoch, Donnerstag, Freitag, Samstag, Sonntag)" in render(text, "de")


@pytest.mark.parametrize("role", [0, 1, 555, 2**22 - 1, 2**63, -STEWARDS, True, "12abc", "４１９４３０４",
                                  " ", 1.5e17, "1e18"])
async def test_an_organisers_role_must_be_a_real_snowflake(service, store, champs, role):
    text = await refusal(store, lambda: champs.leagues.organisers(LEAGUE_CHANNEL, ORGANISER, role))
    assert text.startswith("`role` must be a Discord id (a whole number from 4194304 to 9223372036854775807")


@pytest.mark.parametrize("role", [2**22, 2**63 - 1, STEWARDS, str(STEWARDS)])
async def test_a_real_snowflake_sets_the_organisers_role(service, store, champs, role):
    await champs.leagues.organisers(LEAGUE_CHANNEL, ORGANISER, role)
    (found,) = await store.db.read(lambda tx: leagues_of_guild_tx(tx, GUILD))
    assert found.organiser_role == int(role)


@pytest.mark.parametrize("points", ["25-18-²", "25-¹⁸", "25-18-①"])
async def test_points_written_with_superscript_or_circled_digits_are_refused_not_a_crash(service, store, champs,
                                                                                         points):
    text = await refusal(store, lambda: champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Winter", "UTC",
                                                              points=points))
    assert "whole numbers" in text
