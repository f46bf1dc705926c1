"""Every message key the code can build exists in English, French and German.

A key missing from the catalogue fails where the text is made, so a post owed by a move cannot be
written and the move is never committed (a knock-out froze rallies of several specials: it was
shown as `word.<reason>`, which did not exist). The guard reads all of `bot/`:

- every literal key (a string in a known namespace, `"rally.class_out"`, also the keys of closed
  mappings such as `OUT_REASON_WORDS`), the renderer's short words (`word("gear")` is
  `render.gear`) and the bases of counted words (`counted("word.dice", n)`, and a counted message
  `msg("ratings.events", n=3)` whose form the reader's language chooses: `.one`, `.other`);
- every key built from a value (an f-string or a `+` that makes a key): each such place must be
  listed in `BUILT` below with the values it can be given, taken from the code's declared
  constants, so a new place, or a value added to a constant, is checked as soon as it is written.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

import bot
from bot.engine.core.dice import DICE_MODES
from bot.engine.rallyman import narrate
from bot.engine.rallyman.actions import LINES
from bot.engine.rallyman.dice_rules import DIE_REFUSALS
from bot.engine.rallyman.loss_causes import LOSS_CAUSE_WORDS, LOSS_CAUSES
from bot.engine.rallyman.out_reasons import OUT_REASON_WORDS, OUT_REASONS
from bot.engine.rallyman.stages.model import Terrain
from bot.engine.rallyman.state import Pose
from bot.i18n import catalogue
from bot.services import notify
from bot.services.career import careers
from bot.services.career.achievements import keys_of, load_achievements
from bot.services.career.ratings_list import SCOPES as RATING_SCOPES
from bot.services.league import export as league_export
from bot.services.league import timing as league_time
from bot.services.league.round_close import LEAGUE_REASON_WORDS

ROOT = Path(bot.__file__).resolve().parent
LANGS = ("en", "fr", "de")
KEYS = {lang: set(catalogue(lang)) for lang in LANGS}
NAMESPACES = {key.split(".")[0] for key in KEYS["en"]}
FULL_KEY = re.compile(r"[a-z][a-z0-9_]*(\.[a-z0-9_]+)+")
KEY_HEAD = re.compile(r"[a-z][a-z0-9_]*\.[a-z0-9_.]*")
#: calls whose first argument is a message key (the renderer's `word`/`counted`: a `render.` key)
KEY_CALLS = {"msg", "t", "Msg", "ServiceError", "refuse", "_refuse", "word", "counted"}
PLURAL = ("one", "other")

#: Strings that look like keys and are not: job kinds, file names, a store error's class default.
NOT_KEYS = {
    "services/league/round_kit.py": {"league.open", "league.remind", "league.close"},  # job kinds
    "services/work.py": {"turn.remind", "turn.deadline", "turn.ai"},  # job kinds
    "services/world/rounds.py": {"scratch.open", "scratch.close"},  # job kinds
    "services/images.py": {"board.png", "career.png", "replay.webp"},
    "services/world/scratch.py": {"scratch.png"},
    "services/career/ratings_list.py": {"ratings.png"},
    "web/site.py": {"error.html", "league.html", "rally.html", "replay.html"},  # the web page's template files
    "web/static.py": {"replay.js"},  # the replay page's script file
    # class defaults: each raise names its own key
    "store/errors.py": {"store.error", "store.not_found", "store.wrong_status"},
}


def _event_kinds() -> set[str]:
    """Every engine event's kind (`narrate` shows `event.<kind>`): the literal ones, and the
    knock-outs, whose kind is their out reason (`turn._knock_out`)."""
    kinds = set(OUT_REASONS)
    for path in (ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Event" and node.args \
                    and isinstance(node.args[0], ast.Constant):
                kinds.add(node.args[0].value)
    return kinds


def _poses() -> tuple[str, ...]:
    return tuple(p for p in Pose.__args__ if p not in ("normal", "spun"))  # type: ignore[attr-defined]


def keys(template: str, values: Iterable[object]) -> set[str]:
    return {template.format(v) for v in values}


#: Each place that builds a key from a value: (file, the expression as `ast.unparse` writes it) →
#: the keys it can build. `None`: looked up with a fallback (`dict.get`), never missing.
BUILT: dict[tuple[str, str], Callable[[], set[str]] | None] = {
    ("engine/rallyman/dice_rules.py", "f'dice.{kind}'"): lambda: keys("dice.{}", DIE_REFUSALS),
    ("engine/rallyman/game.py", "f'dice.plan.{kind}'"): lambda: keys("dice.plan.{}", DIE_REFUSALS),
    ("engine/rallyman/moves/rules.py", "f'word.{name}'"): lambda: keys("word.{}", LINES),
    ("engine/rallyman/parse_plus.py", "f'parse.plus_{_kind(head)}'"):
        lambda: keys("parse.plus_{}", ("attack", "place", "order")),  # `parse_plus._kind`
    ("engine/rallyman/stages/model.py", "f'word.{space.kind.value}'"): lambda: keys("word.{}", LINES),  # corner spaces
    ("engine/rallyman/turn.py", "f'word.side_{side}'"): lambda: keys("word.side_{}", ("left", "right")),
    ("engine/rallyman/weather.py", "f'word.tires_{car.tires}'"): lambda: keys("word.tires_{}", narrate.TIRES),
    ("engine/core/text.py", "f\"{key}.{('one' if n == 1 else 'other')}\""): None,  # bases checked with `counted`
    ("engine/rallyman/words.py", "f'gear.{gear}'"): lambda: keys("gear.{}", range(7)),
    ("engine/rallyman/words.py", "f'ordinal.{n}'"): lambda: keys("ordinal.{}", range(1, 4)),
    ("i18n.py", "f'name.{words[0]}'"): None,
    ("i18n.py", "f'name.{key}'"): None,
    ("i18n.py", "f'name.{word}'"): None,
    ("i18n.py", "f'list.{how}'"): lambda: keys("list.{}", ("or", "and", "comma", "dot", "space")),
    ("render/rallyman/preview.py", "'fact_' + key"):
        lambda: {f"render.fact_{k}.{p}" for k in ("spaces", "corners", "bumps", "shortcuts", "splits") for p in PLURAL},
    ("render/rallyman/preview.py", "'terrain.' + terrain.value"):
        lambda: keys("render.terrain.{}", [t.value for t in Terrain]),
    ("render/words.py", "f'{key}.{plural_form(n, lang)}'"): None,  # bases checked with `counted`
    ("services/league/jobs.py", "f'league.dice_{rnd.dice}'"): lambda: keys("league.dice_{}", DICE_MODES),
    ("services/league/leagues.py", "f'league.dice_{mode}'"): lambda: keys("league.dice_{}", DICE_MODES),
    ("services/league/leagues.py", "'league.world_name_' + text"): lambda: keys("league.world_name_{}", ("on", "off")),
    ("services/league/rounds.py", "f'league.status_{r.status}'"): lambda: _round_statuses(),
    ("services/league/round_close.py", "f'league.status_{rnd.status}'"): lambda: _round_statuses(),
    ("services/league/rounds.py", "f'league.status_{rnd.status}'"): lambda: _round_statuses(),
    ("services/league/export.py", "f'league.status_{rnd.status}'"): lambda: _round_statuses(),
    ("services/league/export.py", "f'export.col_{key}'"): lambda: keys(
        "export.col_{}", league_export.STANDINGS_HEAD + league_export.STANDINGS_TAIL + league_export.RESULTS_COLUMNS),
    ("services/league/timing.py", "f'day.{code}'"): lambda: keys("day.{}", league_time.DAYS),
    ("services/notify.py", "f'notify.{kind}_{text}'"): lambda: {f"notify.{kind}_{value}" for kind in notify.WHAT
                                                               for value in ("on", "off")},
    ("engine/rallyman/narrate.py", "f'event.{event.kind}'"): lambda: keys("event.{}", _event_kinds()),
    ("services/league/round_close.py", "'league.results_sub.' + plural(count)"):
        lambda: keys("league.results_sub.{}", PLURAL),
    ("services/league/round_close.py", "'league.standings_sub.' + plural(count)"):
        lambda: keys("league.standings_sub.{}", PLURAL),
    ("services/league/round_close.py", "'league.rule_best.' + plural(league.best_rounds)"):
        lambda: keys("league.rule_best.{}", PLURAL),
    ("services/world/scratch.py", "'scratch.ranking_head.' + plural(count)"):
        lambda: keys("scratch.ranking_head.{}", PLURAL),
    ("services/world/scratch.py", "'scratch.subtitle.' + plural(count)"): lambda: keys("scratch.subtitle.{}", PLURAL),
    ("services/career/ratings_list.py", "f'ratings.head_{scope}.{plural(count)}'"):
        lambda: {f"ratings.head_{s}.{p}" for s in RATING_SCOPES for p in PLURAL},
    ("services/career/ratings_list.py", "f'ratings.title_{scope}'"): lambda: keys("ratings.title_{}", RATING_SCOPES),
    ("services/career/ratings_list.py", "f'ratings.subtitle.{plural(count)}'"):
        lambda: keys("ratings.subtitle.{}", PLURAL),
    ("engine/rallyman/status_text.py", "'status.black_lost.' + ('one' if car.lost_black == 1 else 'other')"):
        lambda: keys("status.black_lost.{}", PLURAL),
    ("engine/rallyman/status_text.py", "'status.flats.' + ('one' if car.flats == 1 else 'other')"):
        lambda: keys("status.flats.{}", PLURAL),
    ("engine/rallyman/status_text.py", "'status.markers.' + ('one' if car.seconds == 1 else 'other')"):
        lambda: keys("status.markers.{}", PLURAL),
    ("views/translator.py", "f'name.{english}'"): None,  # Discord's translator: a missing name is left as it is
    ("views/translator.py", "f'choice.{value}'"): None,
    ("services/career/achievements.py", "f'career.ach_{achievement_id}'"):
        lambda: {keys_of(a.id)[0] for a in load_achievements()},
    ("services/career/achievements.py", "f'career.ach_{achievement_id}_about'"):
        lambda: {keys_of(a.id)[1] for a in load_achievements()},
    ("services/career/careers.py", "f'career.head_{key}'"): lambda: keys("career.head_{}", careers.CARD_HEADS),
}


def _round_statuses() -> set[str]:
    """A round's statuses, as the schema declares them (the `CHECK` of `rounds.status`)."""
    schema = (ROOT / "store" / "league_schema.py").read_text(encoding="utf-8")
    table = schema[schema.index("CREATE TABLE rounds"):]
    declared = re.search(r"status\s+TEXT[^,]*CHECK \(status IN \(([^)]*)\)\)", table)
    assert declared is not None, "the rounds table declares its statuses"
    return keys("league.status_{}", re.findall(r"'([a-z_]+)'", declared.group(1)))


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def scan(root: Path = ROOT) -> tuple[dict[str, set[str]], set[tuple[str, str]]]:
    """(literal keys by file, places that build a key from a value) in every module of `root`."""
    literal: dict[str, set[str]] = {}
    built: set[tuple[str, str]] = set()
    for path in sorted(root.rglob("*.py")):
        relative = str(path.relative_to(root))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        first_args: dict[int, str] = {}
        in_fstring: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.args:
                first_args[id(node.args[0])] = _call_name(node)
            if isinstance(node, ast.JoinedStr):
                in_fstring |= {id(part) for part in node.values}
            if isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant) \
                    and str(node.left.value).endswith((".", "_")):
                in_fstring.add(id(node.left))  # the head of a key built with `+`
        found = literal.setdefault(relative, set())
        for node in ast.walk(tree):
            call = first_args.get(id(node), "")
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in in_fstring:
                text = node.value
                if call in ("word", "counted") and relative.startswith("render/"):
                    text = "render." + text
                if FULL_KEY.fullmatch(text) and text.split(".")[0] in NAMESPACES \
                        and text not in NOT_KEYS.get(relative, set()):
                    counted = call == "counted" or (text not in KEYS["en"] and f"{text}.one" in KEYS["en"])
                    found |= {f"{text}.{p}" for p in PLURAL} if counted else {text}  # a counted message: its forms
            elif isinstance(node, ast.JoinedStr):
                head = node.values[0] if node.values else None
                if (isinstance(head, ast.Constant) and KEY_HEAD.match(head.value)
                        and head.value.split(".")[0] in NAMESPACES) or call in KEY_CALLS:
                    built.add((relative, ast.unparse(node)))
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
                left = node.left
                if (isinstance(left, ast.Constant) and isinstance(left.value, str) and KEY_HEAD.fullmatch(left.value)
                        and left.value.endswith((".", "_")) and left.value.split(".")[0] in NAMESPACES) \
                        or call in KEY_CALLS:
                    built.add((relative, ast.unparse(node)))
    return literal, built


LITERAL, FOUND = scan()


def _missing(wanted: dict[str, set[str]]) -> list[str]:
    return [f"{where}: {key} not in data/i18n/{lang}/" for where, keys_ in sorted(wanted.items())
            for key in sorted(keys_) for lang in LANGS if key not in KEYS[lang]]


def test_every_literal_key_in_the_code_exists_in_every_language():
    assert _missing(LITERAL) == []


def test_every_place_that_builds_a_key_is_listed_with_its_values():
    assert sorted(FOUND - set(BUILT)) == []  # list a new place in BUILT, with the constant its values come from
    assert sorted(set(BUILT) - FOUND) == []  # a place listed here is gone from the code


def test_every_key_a_listed_place_can_build_exists_in_every_language():
    built = {f"{file}: {expr}": values() for (file, expr), values in BUILT.items() if values is not None}
    assert all(built.values())
    assert _missing(built) == []


def test_each_out_reason_and_loss_cause_has_its_own_words():
    """The closed mappings cover the engine's declared sets exactly, one key each."""
    assert set(OUT_REASON_WORDS) == set(OUT_REASONS)
    assert set(LOSS_CAUSE_WORDS) == set(LOSS_CAUSES)
    assert len(set(OUT_REASON_WORDS.values())) == len(OUT_REASONS)
    assert len(set(LOSS_CAUSE_WORDS.values())) == len(LOSS_CAUSES)
    assert set(LEAGUE_REASON_WORDS.values()) <= KEYS["en"]


@pytest.mark.parametrize("source, expected", [
    ('msg("word.no_such_word")', ("literal", "word.no_such_word")),
    ('msg(f"word.{reason}")', ("built", "f'word.{reason}'")),
    ('msg("status.flats." + form)', ("built", "'status.flats.' + form")),
    ('counted("word.no_such_count", 2)', ("literal", "word.no_such_count.one")),
])
def test_the_scan_finds_literal_and_built_keys(tmp_path, source, expected):
    """The guard is not vacuous: a key typed in code and a key built from a value are both seen."""
    (tmp_path / "services").mkdir()
    (tmp_path / "services" / "bad.py").write_text(f"def f(reason, form):\n    return {source}\n", encoding="utf-8")
    literal, built = scan(tmp_path)
    kind, what = expected
    if kind == "literal":
        assert what in literal["services/bad.py"] and _missing(literal)
    else:
        assert built == {("services/bad.py", what)}


def test_the_closed_word_tables_of_the_texts_cover_every_value_the_engine_declares():
    """A car's pose and tires, and the terrains of its excursions, are read through closed tables
    (code → key) rather than keys built from the value: each table covers its declared values."""
    from bot.engine.rallyman.stages.model import Terrain
    from bot.engine.rallyman.status_text import POSE_WORDS, TIRE_WORDS

    assert set(POSE_WORDS) == set(_poses()) | {"spun"}
    assert set(TIRE_WORDS) == set(narrate.TIRES) == {"snow", "asphalt"}
    assert set(narrate.TERRAINS) <= {t.value for t in Terrain}
    for lang in ("en", "fr", "de"):
        words = catalogue(lang)
        for table in (POSE_WORDS, TIRE_WORDS, narrate.TERRAINS, narrate.WORDS, narrate.TIRES):
            assert all(key in words for key in table.values()), (lang, table)


def test_the_closed_tables_of_the_turn_buttons_and_lines_cover_every_line():
    """Buttons and the `/line` choices name each line the engine knows (RULES A8) through closed
    tables; every choice of a game's command is named by a key of the catalogue."""
    from bot import games
    from bot.engine.rallyman.buttons import LINE_WORDS
    from bot.engine.rallyman.commands import LINE_CHOICES

    assert {value for value, _ in LINE_CHOICES} == set(LINE_WORDS) == set(LINES)
    for lang in LANGS:
        assert all(key in KEYS[lang] for key in LINE_WORDS.values())
        assert all(key in KEYS[lang] for verb in games.verbs() for option in verb.options for _, key in option.choices)
