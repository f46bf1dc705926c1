"""Slash commands localised for French and German clients: the bot installs the
catalogue's translator (bot/views/translator.py) and what it syncs carries, for every command,
group and option, a French and a German name Discord accepts and the catalogue's description,
and localised choice names; where the catalogue has no translation Discord falls back to English.
Checked through the REAL command tree and the payload `tree.sync` sends."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.cogs.tree_info import summary, sync_payload
from bot.i18n import catalogue
from bot.views import translator as translator_module
from bot.views.translator import CatalogueTranslator
from tests.discord import command_rules
from tests.discord.fakes import Harness

ROOT = Path(__file__).resolve().parents[2]
LANGS = {"fr": "fr", "de": "de"}  # Discord locale → catalogue language
DESCRIPTION_LIMIT = 100


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "translator.sqlite3") as harness:
        yield harness


@pytest.fixture
async def payload(h):
    """The global payload a sync of the real bot sends (its setup installed the translator)."""
    return await sync_payload(h.bot.tree)


def items(payload: list[dict]):
    """(full name, item, siblings) for every command, group, subcommand and option of a payload."""
    def visit(prefix: str, nodes: list[dict]):
        for node in nodes:
            full = f"{prefix} {node['name']}".strip()
            yield full, node, nodes
            yield from visit(full, node.get("options", []))

    yield from visit("", payload)


def localized(payload: list[dict], full_name: str) -> dict:
    (row,) = [r for r in summary(payload, localized=True) if r["name"] == full_name]
    return row


async def test_the_bot_syncs_french_and_german_names_descriptions_and_choices(h):
    """What `sync` sends Discord (the one network call, recorded) has the localisations."""
    sent: list[list[dict]] = []

    async def bulk_upsert_global_commands(application_id, payload):
        sent.append(payload)
        return []

    h.bot.http.bulk_upsert_global_commands = bulk_upsert_global_commands  # type: ignore[method-assign]
    assert isinstance(h.bot.tree.translator, CatalogueTranslator)
    assert await h.bot.sync_commands(force=True) is True
    (commands,) = sent
    (rally,) = [c for c in commands if c["name"] == "rally"]
    assert rally["name_localizations"] == {"fr": "course", "de": "rallye"}
    assert rally["description_localizations"]["fr"] == catalogue("fr")["discord.cmd.rally"]
    (line,) = [c for c in commands if c["name"] == "line"]
    (option,) = line["options"]
    assert [(c["value"], c["name_localizations"]) for c in option["choices"]] == [
        ("interior", {"fr": "tendue", "de": "Ideallinie"}),
        ("skid", {"fr": "dérapage", "de": "Driften"}),
        ("shortcut", {"fr": "corde", "de": "Abkürzung"}),
    ]


def _no_network():
    async def sync(*, guild=None):
        return []
    return sync


async def test_a_changed_translation_is_synced_again(h):
    """The bot syncs only when what it would send changed: a new French name is such a change."""
    h.bot.tree.sync = _no_network()
    assert await h.bot.sync_commands() is True
    assert await h.bot.sync_commands() is False

    class Renamed(CatalogueTranslator):
        async def translate(self, string, locale, context):
            if context.location is app_commands.TranslationContextLocation.command_name and string.message == "roll":
                return "jeter" if locale is discord.Locale.french else None
            return await super().translate(string, locale, context)

    await h.bot.tree.set_translator(Renamed())
    assert await h.bot.sync_commands() is True


async def test_every_command_group_and_option_has_a_french_and_german_name_discord_accepts(payload):
    problems = []
    for full, item, _ in items(payload):
        names = item.get("name_localizations") or {}
        for locale in LANGS:
            name = names.get(locale)
            if name is None:
                problems.append(f"{full}: no {locale} name")
            elif not command_rules.valid_command_name(name):  # Discord's pattern, lowercase
                problems.append(f"{full}: {locale} name {name!r} is not a valid Discord name")
    assert not problems, "\n".join(problems)


async def test_every_choice_has_a_french_and_german_name(payload):
    problems = [f"{full}: choice {choice['value']!r} has no {locale} name"
                for full, item, _ in items(payload) for choice in item.get("choices", [])
                for locale in LANGS
                if not 0 < len((choice.get("name_localizations") or {}).get(locale, "")) <= DESCRIPTION_LIMIT]
    assert not problems, "\n".join(problems)


async def test_every_description_is_the_catalogue_text_in_french_and_german_within_100_characters(payload):
    english = catalogue("en")
    keys = {text: key for key, text in english.items() if key.startswith(("discord.cmd.", "discord.opt."))}
    problems = []
    for full, item, _ in items(payload):
        texts = item.get("description_localizations") or {}
        key = keys.get(item["description"])
        for locale, lang in LANGS.items():
            text = texts.get(locale)
            if key is None or text is None:
                problems.append(f"{full}: no {locale} description (English {item['description']!r})")
            elif text != catalogue(lang)[key] or not 0 < len(text) <= DESCRIPTION_LIMIT:
                problems.append(f"{full}: {locale} description {text!r} is not the catalogue's {key}")
    assert not problems, "\n".join(problems)


async def test_sibling_names_stay_unique_in_each_language(payload):
    """Two commands of one group, or two options of one command, may not share a name, in any
    language: Discord would refuse the whole sync."""
    clashes = []
    seen: set[int] = set()
    for full, _, siblings in items(payload):
        if id(siblings) in seen:
            continue
        seen.add(id(siblings))
        for locale in LANGS:
            names = Counter((s.get("name_localizations") or {}).get(locale, s["name"]) for s in siblings)
            clashes += [f"beside {full}: {locale} {n!r} twice" for n, count in names.items() if count > 1]
    assert not clashes, "\n".join(clashes)


async def test_a_french_client_sees_course_rejoindre_and_a_german_one_rallye_beitreten(payload):
    row = localized(payload, "rally join")
    assert row["name_localizations"] == {"de": "rallye beitreten", "fr": "course rejoindre"}
    assert row["description_localizations"]["fr"] == "Rejoindre le rallye de ce salon"
    assert localized(payload, "roll")["name_localizations"] == {"de": "würfeln", "fr": "lancer"}
    assert localized(payload, "league round add")["name_localizations"] == {"de": "liga lauf hinzufügen",
                                                                            "fr": "ligue manche ajouter"}


async def test_an_option_description_is_the_french_catalogue_text(payload):
    """Options reach the translator as plain English text: found again by that text."""
    (dice, end) = localized(payload, "roll")["options"]
    assert dice["name_localizations"] == {"de": "würfel", "fr": "dés"}
    assert dice["description_localizations"]["fr"] == catalogue("fr")["discord.opt.dice"]
    assert end["description_localizations"]["de"] == catalogue("de")["discord.opt.end"]


async def test_choices_are_shown_in_the_reader_language_and_keep_their_english_value(payload):
    (dice,) = [o for o in localized(payload, "league create")["options"] if o["name"] == "dice"]
    assert dice["name"] == "dice" and dice["choices"] == ["personal", "shared"]  # what the bot receives
    assert dice["choice_localizations"] == {"personal": {"de": "eigene", "fr": "personnels"},
                                            "shared": {"de": "gemeinsame", "fr": "partagés"}}
    (day,) = [o for o in localized(payload, "league round add")["options"] if o["name"] == "day"]
    assert day["choice_localizations"]["mon"] == {"de": "Montag", "fr": "lundi"}
    (language,) = [o for o in localized(payload, "rally create")["options"] if o["name"] == "language"]
    assert language["name_localizations"] == {"de": "sprache", "fr": "langue"}
    assert language["choices"] == ["en", "fr", "de"]
    assert language["choice_localizations"]["fr"] == {"de": "Französisch", "fr": "français"}


async def test_only_french_and_german_are_localised_other_clients_read_english(payload):
    """An English, Japanese … client gets no localisation: Discord shows the default names."""
    locales = {loc for _, item, _ in items(payload)
               for field in ("name_localizations", "description_localizations") for loc in item.get(field) or {}}
    assert locales == set(LANGS)


async def test_a_text_the_catalogue_cannot_translate_falls_back_to_english(h):
    """A command whose description is not a catalogue text, or whose name has no entry, gets no
    localisation (None): Discord shows the English one instead of nothing."""
    @app_commands.command(name="teleport", description="Beam me up")
    async def teleport(interaction: discord.Interaction, target: str) -> None: ...

    h.bot.tree.add_command(teleport)
    (entry,) = [c for c in await sync_payload(h.bot.tree) if c["name"] == "teleport"]
    assert entry["name_localizations"] == {} and entry["description_localizations"] == {}
    (option,) = entry["options"]
    assert "name_localizations" not in option and "description_localizations" not in option
    translator = CatalogueTranslator()
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_name, teleport)
    assert await translator.translate(app_commands.locale_str("teleport"), discord.Locale.french, context) is None
    assert await translator.translate(app_commands.locale_str("rally"), discord.Locale.american_english,
                                      context) is None


@pytest.mark.parametrize("bad", ["Course", "ma course", "c'est", "x" * 33, ""])
async def test_a_name_discord_would_refuse_is_not_sent(monkeypatch, caplog, bad):
    """One invalid localised name makes Discord refuse the whole sync: such a name from the
    catalogue is logged and left out (English shown), the other names still go."""
    french = dict(catalogue("fr"), **{"name.rally": bad})
    monkeypatch.setattr(translator_module, "catalogue", lambda lang="en": french if lang == "fr" else catalogue(lang))
    translator = CatalogueTranslator()
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.group_name, None)
    assert await translator.translate(app_commands.locale_str("rally"), discord.Locale.french, context) is None
    assert await translator.translate(app_commands.locale_str("join"), discord.Locale.french, context) == "rejoindre"
    if bad:
        assert "not a valid Discord name for name.rally in fr" in caplog.text


def test_the_commands_cli_shows_the_localisations():
    result = subprocess.run([sys.executable, "-m", "bot", "commands", "--localized"], capture_output=True, text=True,
                            cwd=ROOT, timeout=120,
                            env={"PATH": "", "PYTHONPATH": str(ROOT), "RALLYBOT_DOTENV": "/nonexistent"})
    assert result.returncode == 0, result.stderr
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    assert rows["rally join"]["name_localizations"] == {"de": "rallye beitreten", "fr": "course rejoindre"}
    assert rows["rally join"]["description_localizations"]["de"] == catalogue("de")["discord.cmd.rally_join"]
    assert rows["tires"]["options"][0]["choice_localizations"]["snow"] == {"de": "Winterreifen", "fr": "neige"}
