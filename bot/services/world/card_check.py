"""Verifying result cards: replay a closed round's runs with the engine alone.

A result card (`bot/services/world/cards.py`) claims that a driver, with the round's seed, on
stages of known text, took these actions and got this time. `verify_card` checks it without the
store or Discord: the card's shape (strictly: a card is hostile input,
bot/services/world/card_reading.py), that the seed hashes to the SHA-256 on the card, that every
stage exists and its text hashes to the card's `stage_sha256`, then it derives the dice streams
from (seed, driver, dice mode), starts the run as `bot/services/league/runs.py` does and applies
every action as `bot/services/play/replay.py` does. The first refused action is where the card
diverges; at the end the run must be finished with the claimed time (and power-stage time).

A card may carry `counts_for` ({"league", "round"}): the run was driven in the round the card
names (its seed, what the replay uses) and counts in another round too (the week's official run,
`bot/services/league/official_runs.py`); in a cards file such a card belongs to the round it counts for.
A version 2 linked card also names, by `driven_sha256`, the header of the round that drove it,
which its file carries (`driven`) and the round's digest binds: its labels are checked against
that header, its `counts_for` against the file's round, its name against the file's results.

What a card alone cannot prove is that its seed is the round's: whoever alters the seed can put
its hash on the card too. So a cards file's cards must agree on the round (seed, stages, dice...),
the report names the seed's SHA-256 to compare with the one published when the round opened, and
`published` (the CLI's `--seed-sha256`) rejects any other.

A card's labels (league, round, week, stages, ruleset, modules, assistance, dice, driver, name,
times) are checked against a `Reference`: the round's header and results, from the cards file
(version 2: bound by the round's digest, published with the results) or, in `/verify`, from what
the bot stored (`bot/services/world/verify.py`). The field that differs is named; the names and
labels shown are then the reference's. A version 2 card alone shows only what its replay proves
(driver id, times); a version 1 card (labels not bound) verifies its run, with a note.

`verify_text` reads one card or a cards file (at most `MAX_BYTES`) and returns a `VerifyReport`
whose lines come from the catalogue (data/i18n/en/verify.json). Nothing here raises on bad input.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bot import games
from bot.engine.core.dice import stream_keys
from bot.engine.core.game import Game, is_finished
from bot.engine.core.log import CodecError, Start, Status, to_text
from bot.engine.core.scores import format_score, format_time
from bot.engine.core.text import msg
from bot.services.league.run_outcome import run_result
from bot.services.work import State
from bot.services.world.card_reading import (
    MAX_BYTES,
    RESULT_FIELDS,
    ROUND_KEY,
    SCORE_RESULT_FIELDS,
    Card,
    Entry,
    Rejected,
    card_field,
    card_version,
    hex_field,
    kind_of,
    read_card,
    refuse,
    shown_value,
)
from bot.services.world.cards import (
    CARD_FORMAT,
    CARD_VERSION,
    FILE_FORMAT,
    HEADER_FIELDS,
    OPTIONAL_HEADER_FIELDS,
    Binding,
    header_digest,
    round_digest,
)


@dataclass(frozen=True)
class Reference:
    """What was published of a round: its header (`cards.round_header`), its results by driver id
    (name, time, power-stage time), the headers of the rounds that drove its linked runs (by
    their SHA-256, `cards.header_digest`) and the digest binding them all."""

    header: dict[str, Any]
    results: dict[str, dict[str, Any]]
    digest: str
    driven: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class CardResult:
    """One card's verdict: `ok` (genuine) with the replayed times, or why it was rejected."""

    ok: bool
    line: str  # the report line (catalogue text)
    reason: str | None = None  # why it was rejected; None when genuine
    driver: str | None = None
    name: str | None = None
    league: str | None = None
    round: int | None = None
    time_s: int | None = None  # the replay's time (only when genuine)
    power_s: int | None = None
    seed_sha256: str | None = None


@dataclass(frozen=True)
class VerifyReport:
    """The verdict on a text: `ok` only if it held at least one card and every card is genuine."""

    ok: bool
    lines: list[str]
    results: list[CardResult] = field(default_factory=list)


def _driven_header(card: Card, ref: Reference) -> dict[str, Any] | None:
    """The bound header of the round that drove a linked card's run: the one it names (version
    2), or the one whose labels a version 1 card shows."""
    if card.driven_sha256 is not None:
        return ref.driven.get(card.driven_sha256)
    shown = [name for name in HEADER_FIELDS if name != "league_id"]  # what a version 1 card has
    return next((header for header in ref.driven.values()
                 if all(getattr(card, name) == header.get(name) for name in shown)), None)


def check_labels(card: Card, ref: Reference) -> None:
    """Every label of the card is the published one; `Rejected` names the first that differs. A
    linked card (`counts_for`) counts for the reference's round and shows the labels of the round
    that drove it, a header the reference binds."""
    labels = ref.header
    if card.counts_for is not None:
        for name, mine in zip(("league", "round"), card.counts_for, strict=True):
            if mine != ref.header.get(name):
                raise refuse("verify.label_differs", field=f"counts_for.{name}")
        found = _driven_header(card, ref)
        if found is None and card.driven_sha256 is not None:
            raise refuse("verify.label_differs", field="driven_sha256")
        labels = found or next(iter(ref.driven.values()), ref.header)  # a version 1 card matching none: named below
    for name in HEADER_FIELDS + OPTIONAL_HEADER_FIELDS:
        if name == "league_id" and card.version != CARD_VERSION:
            continue  # a version 1 card has none
        if getattr(card, name) != labels.get(name):
            raise refuse("verify.label_differs", field=name)
    if card.version == CARD_VERSION and card.round_sha256 != ref.digest:
        raise refuse("verify.label_differs", field="round_sha256")
    result = ref.results.get(card.driver)
    if result is None:
        raise refuse("verify.not_in_results", driver=card.driver)
    if card.name != result["name"]:  # the claimed times are the replay's to check
        raise refuse("verify.label_differs", field="name")


# --- replaying it ------------------------------------------------------------------------------

def check_seed_and_stages(card: Card, digest: Callable[[str], str] | None = None) -> None:
    """The seed hashes to the card's SHA-256, and each stage's text (of the card's game: `digest`
    by default) to its SHA-256."""
    digest = digest or card.played().library.stages.digest
    if hashlib.sha256(bytes.fromhex(card.seed)).hexdigest() != card.seed_sha256:
        raise refuse("verify.seed_mismatch")
    for i, (name, claimed) in enumerate(zip(card.specials, card.stage_sha256, strict=True)):
        try:
            actual = digest(name)
        except Exception:  # a stage that cannot be read is not the one driven
            raise refuse("verify.unknown_stage", name=shown_value(name)) from None
        if actual != claimed:
            raise refuse("verify.stage_mismatch", name=shown_value(name), number=i + 1)


def card_modules(card: Card) -> dict[str, Any]:
    """The run's rally modules, as `bot/services/league/runs.py` starts it (`cards.run_modules` plus the
    driver's streams): no SISU or shakedown, the card's Rules+ modules, the course if several."""
    modules: dict[str, Any] = {"sisu": False, "shakedown": False, **card.modules}
    if len(card.specials) > 1:
        modules["course"] = {"specials": list(card.specials), "assistance": list(card.assistance)}
    key, common = stream_keys(card.seed, card.driver, card.dice)
    modules["streams"] = {"key": key, "common": common}
    return modules


def _action_text(raw: object, entry: Entry | None, game: Game[Any, Any, Any, Any]) -> str:
    if entry is not None:
        try:
            return shown_value(game.rules.encode(entry))
        except CodecError:
            pass
    return shown_value(raw)


def _reason(exc: BaseException) -> str:
    text = str(exc).strip()
    return shown_value(text) if text else type(exc).__name__


def replay_card(card: Card) -> State:
    """The state after the card's actions; `Rejected` at the first one the engine refuses."""
    total = len(card.actions)
    game = card.played()

    def diverges(k: int, raw: object, entry: Entry | None, reason: str) -> Rejected:
        return refuse("verify.diverges", number=k, count=total, action=_action_text(raw, entry, game), reason=reason)

    first = card.actions[0]
    try:
        start = _decode(first, game)
    except CodecError as exc:
        raise diverges(1, first, None, _reason(exc)) from None
    if not isinstance(start, Start) or start.seats != (card.driver,):
        raise diverges(1, first, start, msg("verify.not_the_start", driver=card.driver))
    try:
        state, _ = game.rules.setup(0, [(card.driver, card.name)], {"stage": card.specials[0], "ruleset": card.ruleset,
                                                              "modules": card_modules(card)})
    except Exception as exc:  # whatever the engine refuses, the card is not genuine
        raise diverges(1, first, start, _reason(exc)) from None
    for k, raw in enumerate(card.actions[1:], start=2):
        entry: Entry | None = None
        try:
            entry = _decode(raw, game)
            if isinstance(entry, Start):
                raise Rejected(msg("verify.second_start"))
            if isinstance(entry, Status):
                if entry.status == "abandoned":
                    raise Rejected(msg("verify.abandoned"))
                continue  # lifecycle only: the game state does not change
            if is_finished(game.rules, state):
                raise Rejected(msg("verify.after_finish"))
            state, _ = game.rules.apply(state, card.driver, entry)  # the game tells a timeout from a move
        except Exception as exc:  # a refusal, a codec error, an engine failure: all divergence
            raise diverges(k, raw, entry, _reason(exc)) from None
    return state


def _decode(raw: object, game: Game[Any, Any, Any, Any]) -> Entry:
    """A card's logged entry (a JSON value read from the card), strictly: the game reads its
    canonical text (`CodecError` naming the field for anything else)."""
    return game.rules.decode(to_text(raw))


def check_outcome(card: Card, state: State) -> tuple[int, int | None]:
    """The replayed (time, power-stage time), when they are the claimed ones (a game scored in
    another unit: its score, and no power stage)."""
    game = card.played()
    if not is_finished(game.rules, state):
        raise refuse("verify.not_finished")
    outcome = run_result(game, state)
    if not outcome.finished or outcome.time_s is None:  # the replay's own reason, in words
        raise refuse("verify.out", reason=game.narrator.out_reason(outcome.reason or "retired"))
    if outcome.time_s != card.time_s:
        raise refuse("verify.claims_time", claimed=format_score(game.rules.result, card.time_s),
                      actual=format_score(game.rules.result, outcome.time_s))
    if game.rules.result.unit != "s":
        return outcome.time_s, None
    if card.power_s is not None and outcome.power_s != card.power_s:
        actual = format_time(outcome.power_s) if outcome.power_s is not None else "—"
        raise refuse("verify.claims_power", claimed=format_time(card.power_s), actual=actual)
    return outcome.time_s, outcome.power_s


# --- verdicts and lines ------------------------------------------------------------------------

def _place(league: object, number: object, week: object) -> str:
    """A round in words: of a league, the official stage of a week, or its number alone."""
    if league is not None:
        return msg("verify.where_league", round=shown_value(number), league=shown_value(league))
    if week is not None:
        return msg("verify.where_week", week=shown_value(week))
    return msg("verify.where_round", round=shown_value(number))


def _where(card: Card, ref: Reference | None) -> str:
    """The round a card is of: the reference's labels (what was published; for a linked card also
    the bound round that drove it), else a version 1 card's as written; a version 2 card alone
    names none."""
    if ref is not None:
        here = _place(*(ref.header.get(name) for name in ("league", "round", "week")))
        driven = _driven_header(card, ref) if card.counts_for is not None else None
        if driven is None:
            return here
        return msg("verify.where_counted", where=here,
                   driven=_place(*(driven.get(name) for name in ("league", "round", "week"))))
    if card.version == CARD_VERSION:
        return msg("verify.where_alone")
    driven_in = _place(card.league, card.round, card.week)
    if card.counts_for is None:
        return driven_in
    here = _place(card.counts_for[0], card.counts_for[1], card.week)  # counted here, driven in another round
    return msg("verify.where_counted", where=here, driven=driven_in)


def _who(card: Card, ref: Reference | None) -> str:
    """The driver's name as published (the reference's), else the card's driver id for a version
    2 card alone, else a version 1 card's name as written."""
    if ref is not None and card.driver in ref.results:
        return shown_value(ref.results[card.driver]["name"])
    if card.version == CARD_VERSION:
        return msg("verify.driver_id", driver=card.driver)
    return shown_value(card.name)


def _rejected(card: Card, reason: str, ref: Reference | None = None) -> CardResult:
    return CardResult(False, msg("verify.rejected", name=_who(card, ref), where=_where(card, ref), reason=reason),
                      reason, card.driver, card.name, card.league, card.round, seed_sha256=card.seed_sha256)


def _unreadable(number: int, reason: str) -> CardResult:
    return CardResult(False, msg("verify.rejected_card", number=number, reason=reason), reason)


def _genuine(card: Card, time_s: int, power_s: int | None, ref: Reference | None) -> CardResult:
    name, where = _who(card, ref), _where(card, ref)
    if len(card.specials) > 1 and power_s is not None:
        line = msg("verify.genuine_power", name=name, time=format_time(time_s), power=format_time(power_s),
                   where=where)
    else:
        line = msg("verify.genuine", name=name, time=format_score(card.played().rules.result, time_s), where=where)
    if card.provisional:  # its game and "provisional rules" said with every result of such a ruleset
        line = msg("verify.of_game_provisional", line=line, game=msg(card.played().library.name),
                   rules=msg("game.provisional_rules"))
    elif card.game is not None:  # another game than classic: named
        line = msg("verify.of_game", line=line, game=msg(card.played().library.name))
    return CardResult(True, line, None, card.driver, card.name, card.league, card.round, time_s, power_s,
                      card.seed_sha256)


def _verdict(card: Card, published: str | None, digest: Callable[[str], str],
             ref: Reference | None = None) -> CardResult:
    try:
        if published is not None and card.seed_sha256 != published:
            raise refuse("verify.not_published", card=card.seed_sha256, published=shown_value(published))
        if ref is not None:
            check_labels(card, ref)
        check_seed_and_stages(card, digest)
        time_s, power_s = check_outcome(card, replay_card(card))
    except Rejected as exc:
        return _rejected(card, str(exc), ref)
    return _genuine(card, time_s, power_s, ref)


def verify_card(card: object, published: str | None = None, ref: Reference | None = None) -> CardResult:
    """Replay one card (a parsed JSON value) with the engine alone. `published`: the seed's
    SHA-256 published when the round opened; a card with another one is rejected. `ref`: what
    was published of its round, which its labels must be."""
    try:
        checked = read_card(card)
    except Rejected as exc:
        return _unreadable(1, str(exc))
    return _verdict(checked, _published(published), checked.played().library.stages.digest, ref)


def _published(value: str | None) -> str | None:
    return value.strip().lower() if value is not None else None


def _cards_of(document: object) -> tuple[list[object], Reference | None]:
    """The cards of a parsed document: a single card, or a cards file's list (with, from version
    2 on, its round's header and results, and the headers of the rounds that drove its linked
    runs, checked against the file's digest)."""
    if not isinstance(document, dict):
        raise refuse("verify.not_a_card", got=kind_of(document))
    if document.get("format") == CARD_FORMAT:
        return [document], None
    if document.get("format") != FILE_FORMAT:
        raise refuse("verify.not_a_card", got=shown_value(document.get("format")))
    version = card_version(document.get("version"))
    later = ("round", "results", "driven", "round_sha256")
    known = ("format", "version", "cards") + (later if version == CARD_VERSION else ())
    extra = sorted(str(k) for k in document if k not in known)
    if extra:
        raise refuse("verify.field_unknown", field=shown_value(extra[0]))
    cards = document.get("cards")
    if not isinstance(cards, list):
        raise refuse("verify.field_type", field="cards", expected=msg("verify.a_list"), got=kind_of(cards))
    if not cards:
        raise refuse("verify.no_cards")
    return cards, (_file_reference(document) if version == CARD_VERSION else None)


def _file_reference(document: dict[str, Any]) -> Reference:
    """A version 2 file's header, results and driving rounds' headers (`driven`, when some of its
    runs were driven in other rounds), which must hash to its `round_sha256`."""
    header = card_field(document, "round")
    if not _is_header(header):
        raise refuse("verify.bad_header", fields=", ".join(HEADER_FIELDS))
    results = card_field(document, "results")
    if not isinstance(results, list) or not all(
            isinstance(r, dict) and sorted(r) in (sorted(RESULT_FIELDS), sorted(SCORE_RESULT_FIELDS))
            and isinstance(r["driver"], str) for r in results):
        raise refuse("verify.bad_results", fields=", ".join(RESULT_FIELDS))
    driven = document.get("driven", [])
    if not isinstance(driven, list) or not all(_is_header(h) for h in driven):
        raise refuse("verify.bad_driven", fields=", ".join(HEADER_FIELDS))
    digest = hex_field(card_field(document, "round_sha256"), "round_sha256")
    if round_digest(header, results, driven) != digest:
        raise refuse("verify.file_digest")
    return Reference(header, {r["driver"]: r for r in results}, digest, {header_digest(h): h for h in driven})


def _is_header(value: object) -> bool:
    """Every field of a header, and of its optional ones (`game`, `provisional`) only those."""
    return isinstance(value, dict) and set(HEADER_FIELDS) <= set(value) <= {*HEADER_FIELDS, *OPTIONAL_HEADER_FIELDS}


def reference_of(binding: Binding) -> Reference:
    """The reference of a round from its binding as stored (`cards.binding_tx`)."""
    return Reference(binding.header, {r["driver"]: r for r in binding.results}, binding.digest,
                     {header_digest(h): h for h in binding.driven()})


def _round_of(cards: Iterable[Card]) -> tuple[str, ...] | None:
    """The round named by more cards of the file than any other; None on a tie (two cards of
    different seeds: which one was altered cannot be told)."""
    counts = Counter(card.round_key() for card in cards)
    top = counts.most_common(2)
    if not top or (len(top) > 1 and top[0][1] == top[1][1]):
        return None
    return top[0][0]


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d: dict[str, Any] = {}
    for key, value in pairs:
        if key in d:
            raise ValueError(msg("verify.key_twice", name=shown_value(key)))
        d[key] = value
    return d


def _no_constant(name: str) -> Any:
    raise ValueError(msg("verify.not_a_number", value=name))


def _failed(reason: str) -> VerifyReport:
    return VerifyReport(False, [msg("verify.unreadable", reason=reason)])


def verify_bytes(data: bytes, published: str | None = None, ref: Reference | None = None,
                 round_published: str | None = None) -> VerifyReport:
    """`verify_text` of a file's bytes (UTF-8; an attachment, a file on disk)."""
    if len(data) > MAX_BYTES:
        return _failed(msg("verify.too_large", limit=MAX_BYTES // (1024 * 1024)))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return _failed(msg("verify.not_utf8"))
    return verify_text(text, published, ref, round_published)


def verify_text(text: str, published: str | None = None, ref: Reference | None = None,
                round_published: str | None = None) -> VerifyReport:
    """Verify a single card or a cards file. The cards are checked against `ref` (what the bot
    published, in `/verify`) or else a version 2 file's own header and results (whose digest
    must be `round_published` when given); a version 1 file's cards must be of one round (the one
    more of them name than any other). The cards must be of different drivers; each is then
    replayed."""
    if not isinstance(text, str):
        return _failed(msg("verify.not_json", detail=kind_of(text)))
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        return _failed(msg("verify.too_large", limit=MAX_BYTES // (1024 * 1024)))
    try:
        document = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        return _failed(msg("verify.not_json", detail=f"{exc.msg} (line {exc.lineno}, column {exc.colno})"))
    except (ValueError, RecursionError) as exc:  # a number of 5,000 digits, nesting 100,000 deep
        return _failed(msg("verify.not_json", detail=_reason(exc)))
    try:
        raw_cards, own = _cards_of(document)
    except Rejected as exc:
        return _failed(str(exc))
    round_published = _published(round_published)
    if ref is None and own is not None and round_published is not None and own.digest != round_published:
        return _failed(msg("verify.round_not_published", digest=own.digest, published=shown_value(round_published)))
    ref = ref if ref is not None else own
    published = _published(published)
    results: list[CardResult | None] = [None] * len(raw_cards)
    readable: list[tuple[int, Card]] = []
    for i, raw in enumerate(raw_cards):
        try:
            readable.append((i, read_card(raw)))
        except Rejected as exc:
            results[i] = _unreadable(i + 1, str(exc))
    usual = _round_of(card for _, card in readable) if ref is None else None
    drivers = Counter(card.driver for _, card in readable)
    digests: dict[tuple[str | None, str], str] = {}

    def digest_of(game: str | None) -> Callable[[str], str]:
        def digest(name: str) -> str:  # each stage's text hashed once per file, not once per card
            if (game, name) not in digests:
                digests[game, name] = games.get(game).library.stages.digest(name)
            return digests[game, name]
        return digest

    for i, card in readable:
        odd = [name for name, mine, theirs in zip(ROUND_KEY, card.round_key(), usual, strict=True)
               if mine != theirs] if usual is not None else []
        if usual is None and ref is None:
            results[i] = _rejected(card, msg("verify.not_one_round"))
        elif odd:
            results[i] = _rejected(card, msg("verify.odd_card", field=odd[0]))
        elif drivers[card.driver] > 1:  # which one is the run? neither can be told genuine
            results[i] = _rejected(card, msg("verify.driver_twice", driver=card.driver), ref)
        else:
            results[i] = _verdict(card, published, digest_of(card.game), ref)
    done = [r for r in results if r is not None]
    genuine = sum(r.ok for r in done)
    lines = [r.line for r in done]
    if len(done) > 1:
        lines.append(msg("verify.summary", genuine=genuine, count=len(done)))
    hashes = sorted({r.seed_sha256 for r in done if r.seed_sha256 is not None and r.ok})
    if hashes and published is None:
        lines.append(msg("verify.seed_note", hash=hashes[0]))
    if own is not None and ref is own and round_published is None and genuine:
        lines.append(msg("verify.round_note", digest=own.digest))
    old = {i for i, card in readable if card.version != CARD_VERSION}
    if ref is None and any(r.ok for i, r in enumerate(results) if i in old and r is not None):
        lines.append(msg("verify.old_version_note"))
    return VerifyReport(bool(done) and genuine == len(done), lines, done)
