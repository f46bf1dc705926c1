"""The alt text of each picture kind (bot.services.alt_text): what the picture shows, from its own
spec, in the language asked; within Discord's 1,024 characters however large the picture's data
(200 drivers, 26 specials), cut between whole items and never in a word; a Road Rally USA board's
text the same whatever the hands hold (hidden information, RULES C10.8)."""

from __future__ import annotations

import copy
import re

import pytest

from bot import games
from bot.engine.core.game import is_finished
from bot.engine.core.text import Listed, msg, to_json
from bot.i18n import ELISION, catalogue, render
from bot.render.table import TableView
from bot.services import alt_text
from bot.services.alt_text import MAX_CHARS, cut_words, describe, fit, replay_about
from bot.services.images import board_spec, preview_spec, replay_spec, results_spec, table_spec
from bot.services.league.ghost_board import with_ghost
from bot.services.play.replay import ai_log, setup_options, turn_views

LANGS = ("en", "fr", "de")
LONG = "Ä" + "x" * 98 + "Z"  # a 100-character name (the longest a driver's shown name is)
SPECIALS = 26


def marker(key: str, lang: str) -> str:
    """A message's words before its first placeholder: how its language shows in a description
    (less a last short word the language elides before a vowel: "de {name}" reads "d'Alice")."""
    words = catalogue(lang)[key].split("{")[0].strip()
    head, _, last = words.rpartition(" ")
    return head if head and last in ELISION.get(lang, {}) else words


def in_language(text: str, key: str, lang: str) -> bool:
    """`text` opens with `key`'s words in `lang` and with no other language's."""
    return text.startswith(marker(key, lang)) and not any(
        text.startswith(marker(key, other)) for other in LANGS if other != lang and marker(key, other))


def state_after(game_id: str, stage: str, drivers: int, seed: int, moves: int | None = None):
    """The state of an AI rally of `drivers` on `stage` after `moves` logged moves (None: all, its finish)."""
    game = games.get(game_id)
    row, actions = ai_log(game_id, [stage], drivers=drivers, seed=seed)
    state, _ = game.rules.setup(seed, [(d["user_id"], d["display_name"]) for d in row["drivers"]], setup_options(row))
    for entry in actions[1:][:moves]:
        state, _ = game.rules.apply(state, entry["actor"], game.rules.decode(entry["action"]))
    return state


def played_states(game_id: str, drivers: int = 3) -> list:
    """The spectators' views of an AI rally of `game_id` after each turn (its default or first stage)."""
    game = games.get(game_id)
    stage = game.library.default_stage(game.library.rulesets()[0]) or game.library.stages.names()[0]
    row, actions = ai_log(game_id, [stage], drivers=drivers, seed=1)
    return turn_views(row, actions)


@pytest.mark.parametrize("game_id", ["rallyman", "dirt", "roadrally"])
@pytest.mark.parametrize("lang", LANGS)
def test_a_board_names_its_stage_round_next_driver_and_every_car(game_id, lang):
    views = played_states(game_id)
    game = games.get(game_id)
    view = views[len(views) // 2]
    spec = {"kind": "board", "game": game_id, "view": game.pictures.board(view)}
    text = describe(spec, lang)
    assert text is not None and in_language(text, "alt.board", lang)
    names = [game.narrator.seat_name(view, seat) for seat in ("9000", "9001", "9002")]
    assert all(name in text for name in names)
    assert str(spec["view"]["round"]) in text


def test_the_classic_board_gives_places_times_and_the_turn_in_words():
    views = played_states("rallyman", drivers=2)
    game = games.get("rallyman")
    data = game.pictures.board(views[3])
    text = describe({"kind": "board", "game": "rallyman", "view": data}, "en")
    mover = next(c for c in data["cars"] if c["active"])
    assert f"{mover['name']} to drive." in text
    assert text.startswith(f"Board of {data['title']}, round {data['round']}.")
    last = game.pictures.board(views[-1])
    final = describe({"kind": "board", "game": "rallyman", "view": last}, "fr")
    for car in last["cars"]:
        assert f"{car['name']} : place {car['place']}, temps " in final


def test_a_road_rally_board_says_the_same_whatever_the_hands_hold():
    """Only the spectators' data is described: two tables that differ in a seat's hand alone give
    one board spec and one text, and no card of a hand is named (RULES C10.8)."""
    game = games.get("roadrally")
    state, _ = game.rules.setup(2, [("9000", "AI 1"), ("9001", "AI 2"), ("9002", "AI 3")], {})
    other = copy.deepcopy(state)
    seat = other.state.seats[0]
    assert seat.hand and seat.deck, "the first seat holds cards and has a deck at the start"
    seat.hand[0], seat.deck[0] = seat.deck[0], seat.hand[0]  # another card in hand: hidden, C10.8
    one, two = board_spec(state, "roadrally"), board_spec(other, "roadrally")
    assert one == two
    text = describe(one, "en")
    assert text is not None and "AI 1" in text and "hand" not in text.lower()


@pytest.mark.parametrize("lang", LANGS)
def test_a_results_card_gives_its_title_podium_and_count(lang):
    views = played_states("rallyman", drivers=3)
    game = games.get("rallyman")
    data = game.pictures.results(views[-1])
    text = describe({"kind": "results", "game": "rallyman", "view": data}, lang)
    assert text is not None and in_language(text, "alt.results", lang)
    assert render(msg("alt.results_count", drivers=3, finished=3), lang) in text
    first = min((r for r in data["rows"] if r["time_s"] is not None), key=lambda r: r["time_s"])
    assert render(msg("alt.podium", place=1, name=first["name"], score=f"{first['time_s'] // 60}:"
                      f"{first['time_s'] % 60:02d}"), lang) in text


def test_a_ghost_on_the_board_is_told_with_its_label():
    game = games.get("rallyman")
    state = state_after("rallyman", "pinewood-sprint", 1, 1, moves=4)
    track = [[list(game.rules.progress(game.rules.view(state, None))), 12, 30]]  # (progress, place, time)
    board, _ = with_ghost(game, state, board_spec(state, "rallyman"), {"kind": "best", "track": track, "name": "x"})
    text = describe(board, "de")
    label = catalogue("de")["ghost.label.best"]
    if board is not None and "ghost" in board["view"]:
        assert f"{label}: auf Feld 12." in text
    else:  # no place at this turn: the board is a plain board
        assert label not in text


@pytest.mark.parametrize("lang", LANGS)
def test_a_preview_of_every_shipped_stage_gives_length_and_counts_within_the_limit(lang):
    for game in games.games():
        for name in game.library.stages.names():
            facts = game.library.stages.facts(name)
            text = describe(preview_spec(name, game.id), lang)
            assert text is not None and in_language(text, "alt.preview", lang) and len(text) <= MAX_CHARS
            assert render(facts.title, lang) in text and str(facts.length) in text and str(facts.hazards) in text


@pytest.mark.parametrize("lang", LANGS)
def test_a_replay_names_its_rally_its_stage_its_last_round_and_winner(lang):
    game = games.get("rallyman")
    state = state_after("rallyman", "pinewood-sprint", 2, 4)
    assert is_finished(game.rules, state)
    about = replay_about("rallyman", state)
    text = describe(replay_spec(12, 99, "rallyman", about), lang)
    assert text is not None and in_language(text, "alt.replay", lang)
    assert "Pinewood Sprint" in text and "12" in text and str(about["rounds"]) in text
    assert about["winners"] and all(w in text for w in about["winners"])
    old = describe(replay_spec(12, 99, "rallyman"), lang)  # owed before replays were described
    assert old == render(msg("alt.replay_plain", rally=12), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_career_card_gives_rating_and_figures(lang):
    from bot.services.career.careers import CARD_HEADS

    labels = {key: to_json(msg(f"career.head_{key}")) for key in CARD_HEADS}
    card = {"name": "Alice", "game": to_json(msg(games.get("rallyman").library.name)), "rating": 1523, "trend": [],
            "labels": labels,
            "stats": [[to_json(msg("career.stat_rallies")), "7"], [to_json(msg("career.stat_wins")), "3"],
                      [to_json(msg("career.stat_podiums")), "5"]]}
    text = describe({"kind": "career", "card": card}, lang)
    assert text is not None and in_language(text, "alt.career", lang)
    assert "Alice" in text and "1523" in text
    for key, value in (("career.stat_wins", "3"), ("career.stat_podiums", "5"), ("career.head_rating", "1523")):
        assert render(msg("alt.figure", label=msg(key), value=value), lang) in text


# -- the largest pictures stay within Discord's limit, cut between whole items -------------------------


def _big_classic_board() -> dict:
    data = games.get("rallyman").pictures.board(played_states("rallyman", drivers=2)[2])
    car = data["cars"][0]
    data["cars"] = [dict(car, name=f"{LONG[:-3]}{i:03d}", driver_id=str(i), place=i + 1 if i % 2 else None)
                    for i in range(200)]
    data.update(special=SPECIALS, specials=SPECIALS)
    return {"kind": "board", "game": "rallyman", "view": data}


def _big_dirt_board() -> dict:
    data = games.get("dirt").pictures.board(played_states("dirt", drivers=2)[2])
    car = data["cars"][0]
    data["cars"] = [dict(car, name=f"{LONG[:-3]}{i:03d}", seat=str(i)) for i in range(200)]
    data.update(stage_no=SPECIALS, stages=SPECIALS)
    return {"kind": "board", "game": "dirt", "view": data}


def _big_road_board() -> dict:
    data = games.get("roadrally").pictures.board(played_states("roadrally", drivers=3)[2])
    seat = data["seats"][0]
    data["seats"] = [dict(seat, name=f"{LONG[:-3]}{i:03d}", id=str(i), place=i + 1) for i in range(200)]
    data.update(current="0", to_act=[])
    return {"kind": "board", "game": "roadrally", "view": data}


def _big_results() -> dict:
    data = games.get("rallyman").pictures.results(played_states("rallyman", drivers=2)[-1])
    row = next(r for r in data["rows"] if r["time_s"] is not None)
    data["rows"] = [dict(row, name=f"{LONG[:-3]}{i:03d}", driver_id=str(i), time_s=100 + i,
                         times=[10] * SPECIALS) for i in range(200)]
    data["title"] = to_json(Listed([msg("render.special", n=i + 1) for i in range(SPECIALS)], "comma"))
    return {"kind": "results", "game": "rallyman", "view": data}


def _big_table() -> dict:
    """The largest table a picture draws: 60 rows (its MAX_ROWS) of 12 columns of long cells."""
    columns = [(f"Column {c}", "l", 1.0) for c in range(12)]
    rows = [[f"{LONG} {r}-{c}" for c in range(12)] for r in range(60)]
    view = TableView.model_validate({"title": "Standings " + "of a long league name " * 20, "columns": columns,
                                     "rows": rows})
    return table_spec(view, "standings.png")


def _big_career() -> dict:
    from bot.services.career.careers import CARD_HEADS

    labels = {key: to_json(msg(f"career.head_{key}")) for key in CARD_HEADS}
    return {"kind": "career", "card": {"name": LONG, "game": "Rallyman", "rating": 1999, "labels": labels,
                                       "stats": [[LONG, LONG] for _ in range(12)]}}


def _big_replay() -> dict:
    title = to_json(Listed([f"{LONG} {i}" for i in range(SPECIALS)], "comma"))
    about = {"title": title, "rounds": 999, "winners": [f"{LONG[:-3]}{i:03d}" for i in range(200)]}
    return replay_spec(2**40, 10**6, "rallyman", about)


BIG = {"classic board": _big_classic_board, "dirt board": _big_dirt_board, "road board": _big_road_board,
       "results": _big_results, "table": _big_table, "career": _big_career, "replay": _big_replay}


@pytest.mark.parametrize("kind", sorted(BIG))
@pytest.mark.parametrize("lang", LANGS)
def test_the_largest_picture_of_each_kind_is_described_within_1024_characters(kind, lang):
    spec = BIG[kind]()
    text = describe(spec, lang)
    assert text is not None and 0 < len(text) <= MAX_CHARS
    words = set(re.findall(r"\w+", " ".join(str(v) for v in _leaves(spec))))
    assert all(w in words for w in re.findall(r"\w+", text) if w.startswith(LONG[:5]))  # no name cut mid-word
    whole = " ".join(alt_text.KINDS[spec["kind"]](copy.deepcopy(spec), lang))
    if len(whole) > MAX_CHARS:  # too much for one description: the rest is counted
        more = re.escape(catalogue(lang)["alt.more"]).replace(re.escape("{count}"), r"\d+")
        assert re.search(f" {more}$", text)
    else:
        assert text == whole


def _leaves(value: object) -> list:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


@pytest.mark.parametrize("lang", LANGS)
def test_what_does_not_fit_is_counted_and_the_head_stays(lang):
    spec = _big_classic_board()
    text = describe(spec, lang)
    parts = alt_text.board(copy.deepcopy(spec), lang)
    kept = next(n for n in range(len(parts), 0, -1) if text.startswith(" ".join(parts[:n])))
    assert text == " ".join(parts[:kept]) + " " + render(msg("alt.more", count=len(parts) - kept), lang)
    assert kept >= 2 and text.startswith(parts[0] + " " + parts[1])  # the stage and who plays next


def test_fit_keeps_whole_parts_and_cuts_a_lone_head_at_a_word():
    assert fit(["One.", "Two."], "en", limit=9) == "One. Two."
    assert fit(["One.", "Two.", "Three and more words."], "en", limit=20) == "One. And 2 more."
    head = "word " * 300
    cut = fit([head, "Tail."], "en")
    assert len(cut) <= MAX_CHARS and cut.endswith("… And 1 more.") and "wor…" not in cut
    assert cut_words("alpha beta gamma", 12) == "alpha beta…"
    assert fit([], "en") == ""


def test_a_malformed_spec_has_no_description_rather_than_an_error():
    assert describe({"kind": "board", "game": "rallyman", "view": {"cars": "x"}}, "en") is None
    assert describe({"kind": "nothing"}, "en") is None and describe(None, "en") is None
    assert describe({"kind": "preview", "stage": "no-such-stage"}, "en") is None


def test_the_specs_the_services_build_are_described():
    """`board_spec` / `results_spec` (what the outbox keeps) give a text: the same data as the picture."""
    game = games.get("rallyman")
    state, _ = game.rules.setup(1, [("1", "Alice"), ("2", "Bob")], {"stage": "pinewood-sprint"})
    assert "Alice" in describe(board_spec(state, "rallyman"), "en")
    spec = results_spec(state, "rallyman")
    assert spec is None or describe(spec, "en") is not None


def test_a_board_stored_with_its_whole_state_is_described_from_its_spectators_view():
    """A spec kept before pictures held views (`"state"`) is read as `board_spec` would build it."""
    game = games.get("rallyman")
    state = state_after("rallyman", "pinewood-sprint", 2, 3, moves=6)
    old = {"kind": "board", "state": game.rules.to_json(state)}
    assert describe(old, "fr") == describe(board_spec(state, "rallyman"), "fr") is not None


def test_a_private_reply_describes_its_one_picture_by_file_name():
    spec = preview_spec("pinewood-sprint")
    assert alt_text.described((("stage.png", b"png"),), spec, "de") == {"stage.png": describe(spec, "de")}
    assert alt_text.described((), spec, "de") == {}
    assert alt_text.described((("stage.png", b"png"),), {"kind": "preview", "stage": "nowhere"}, "de") == {}
