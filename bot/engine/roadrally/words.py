"""Road Rally USA's actions as players type them (RULES C4-C6, C10, glossary D3): `label` (the
canonical English words of an action: autocomplete, buttons, menus, the console) and `parse`
(tolerant, in EN/FR/DE, from the seat's own view only, so it can never use another seat's cards).

Cards are written `g1 y3 r4` (colour code + value) or as a colour word and a value (`green 2`,
`vert 2`, `grün 2` …) and shown as `🟩1`. Every deck is the same (`Preset.deck()`), so a card id's
colour and value are known without the state. Identical cards are interchangeable: a typed card
is the lowest id of that colour and value not named yet (the choice `play._plays` and
`play.legal_actions` make); a Mechanic's order that names the looked-at cards in their present
order keeps the deck exactly as it is (the order a timeout keeps, C10.2).

`parse` refuses what it cannot read (`CannotParse`) and what the seat's own view already shows
impossible (a card not in the hand, a stage not being asked, a spectator: `NotAllowed`); every
other rule (one colour, at most 5 cards at a General Store …) is the engine's `apply`'s to refuse.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from bot.engine.core.errors import CannotParse, NotAllowed
from bot.engine.core.text import Listed, msg
from bot.engine.roadrally.actions import Action, Choose, Order, Play, Reshuffle, Retire, StageAnswer, Timeout
from bot.engine.roadrally.presets import COLOURS, preset, store_by_default
from bot.engine.roadrally.road import SpaceKind
from bot.engine.roadrally.view import Card, RRView

CARD_MARK = {"green": "🟩", "yellow": "🟨", "red": "🟥"}
CODE = {"green": "g", "yellow": "y", "red": "r"}
DECK = preset("rr-standard").deck()

#: colour words and code prefixes (accents folded, see `_fold`): EN, FR (vert, jaune, rouge),
#: DE (grün, gelb, rot)
COLOUR_WORDS = {
    "g": "green", "green": "green", "v": "green", "vert": "green", "verte": "green", "gr": "green",
    "grun": "green", "gruen": "green",
    "y": "yellow", "yellow": "yellow", "j": "yellow", "jaune": "yellow", "ge": "yellow", "gelb": "yellow",
    "r": "red", "red": "red", "rouge": "red", "ro": "red", "rot": "red",
}
#: verbs (the first word), EN / FR / DE (D3)
VERBS = {
    "play": "play", "jouer": "play", "joue": "play", "spielen": "play", "spiele": "play",
    "reshuffle": "reshuffle", "shuffle": "reshuffle", "melanger": "reshuffle", "melange": "reshuffle",
    "mischen": "reshuffle", "mische": "reshuffle",
    "skip": "skip", "garder": "skip", "garde": "skip", "behalten": "skip", "behalte": "skip",
    "order": "order", "ordre": "order", "reihenfolge": "order",
    "reveal": "reveal", "reveler": "reveal", "revele": "reveal", "aufdecken": "reveal",
    "pass": "pass", "passer": "pass", "passe": "pass", "passen": "pass",
    "points": "points", "vp": "points", "punkte": "points",
    "cards": "cards", "cartes": "cards", "karten": "cards",
    "retire": "retire", "abandon": "retire", "abandonner": "retire", "aufgeben": "retire",
    "timeout": "timeout",
    "stage": "stage", "etape": "stage", "etappe": "stage",
}
#: a play's flags (C5, AMB-R1), EN / FR / DE (D3)
FLAGS = {
    "store": "store", "magasin": "store", "laden": "store",
    "shortcut": "shortcut", "raccourci": "shortcut", "abkurzung": "shortcut", "abkuerzung": "shortcut",
    "draw": "draw", "drawfirst": "draw", "piocher": "draw", "pioche": "draw", "ziehen": "draw",
    "normal": "normal", "normale": "normal",
}
#: `stage 7 <word>`: reveal (True) or pass (False)
STAGE_ANSWERS = {**{w: True for w, verb in VERBS.items() if verb in ("reveal", "play")},
                 **{w: False for w, verb in VERBS.items() if verb in ("pass", "skip")}, "keep": False}
_GLUED = re.compile(r"^([a-z]+)(\d+)$")


def card_code(card_id: int) -> str:
    """`g1`, `y3`, `r4`: what a player types for the card."""
    colour, value = DECK[card_id]
    return f"{CODE[colour]}{value}"


def card_text(card_id: int) -> str:
    """`🟩1`: how a card is shown."""
    colour, value = DECK[card_id]
    return f"{CARD_MARK[colour]}{value}"


def cards_text(card_ids: Iterable[int]) -> str:
    """Cards shown one after the other (`🟩1 🟩2 🟨3`)."""
    return " ".join(card_text(c) for c in card_ids)


def _kind_order(card_id: int) -> tuple[int, int, int]:
    colour, value = DECK[card_id]
    return COLOURS.index(colour), value, card_id


def label(action: Action) -> str:
    """The canonical English words of `action` (what `parse` reads back)."""
    if isinstance(action, Play):
        flags = [w for w, on in (("store", action.store), ("shortcut", action.shortcut),
                                 ("draw", action.draw_first), ("normal", action.normal)) if on]
        return " ".join(["play", *(card_code(c) for c in sorted(action.cards, key=_kind_order)), *flags])
    if isinstance(action, Reshuffle):
        return "reshuffle" if action.yes else "skip"
    if isinstance(action, Order):
        return " ".join(["order", *(card_code(c) for c in action.cards)])
    if isinstance(action, StageAnswer):
        return f"reveal {action.stage}" if action.play else "pass"
    if isinstance(action, Choose):
        return "points" if action.take == "vp" else "cards"
    if isinstance(action, Retire):
        return "retire"
    return "timeout"


#: how a pick's words read in a menu (a closed table: every key exists in EN, FR and DE)
PICK_KEYS = {"play": "roadrally.pick.play", "store": "roadrally.pick.store", "normal": "roadrally.pick.normal",
             "shortcut": "roadrally.pick.shortcut",
             "draw": "roadrally.pick.draw", "reshuffle": "roadrally.pick.reshuffle", "skip": "roadrally.pick.skip",
             "order": "roadrally.pick.order", "reveal": "roadrally.pick.reveal", "pass": "roadrally.pick.pass",
             "points": "roadrally.pick.points", "cards": "roadrally.pick.cards", "retire": "roadrally.pick.retire",
             "timeout": "roadrally.pick.timeout"}


#: a label's words as the reader types them (a closed table: every key exists in EN, FR and DE);
#: `parse` reads each of them (VERBS, FLAGS, COLOUR_WORDS)
TYPED_KEYS = {"play": "roadrally.typed.play", "reshuffle": "roadrally.typed.reshuffle",
              "skip": "roadrally.typed.skip", "order": "roadrally.typed.order", "reveal": "roadrally.typed.reveal",
              "pass": "roadrally.typed.pass", "points": "roadrally.typed.points", "cards": "roadrally.typed.cards",
              "retire": "roadrally.typed.retire", "store": "roadrally.typed.store",
              "shortcut": "roadrally.typed.shortcut", "draw": "roadrally.typed.draw",
              "normal": "roadrally.typed.normal"}
TYPED_CARD_KEYS = {"g": "roadrally.typed.card_green", "y": "roadrally.typed.card_yellow",
                   "r": "roadrally.typed.card_red"}


def typed_text(text: str) -> Listed:
    """A label (`play g1 g2 shortcut`) as the reader types it: `jouer v1 v2 raccourci` in French,
    `spielen gr1 gr2 abkürzung` in German; numbers and unknown words as they are."""
    shown: list[str] = []
    for word in text.split():
        glued = _GLUED.match(word)
        if word in TYPED_KEYS:
            shown.append(msg(TYPED_KEYS[word]))
        elif glued and glued.group(1) in TYPED_CARD_KEYS:
            shown.append(msg(TYPED_CARD_KEYS[glued.group(1)], value=int(glued.group(2))))
        else:
            shown.append(word)
    return Listed(shown, "space")


def pick_text(text: str) -> str:
    """A label (`play g1 g2 shortcut`, `reveal 7`, `order y3 g1`) as a reader sees it in a select
    menu: cards as `🟩1`, the words in the reader's language (message keys), numbers as they are;
    a word of no label is shown as typed."""
    words = text.split()
    if not words:
        return text
    head, rest = words[0], words[1:]
    cards = [w for w in rest if _GLUED.match(w) and w[0] in "gyr"]
    flags = [msg(PICK_KEYS[w]) for w in rest if w in ("store", "shortcut", "draw", "normal")]
    numbers = [w for w in rest if w.isdigit()]
    if head not in PICK_KEYS:
        return text
    shown = " ".join(CARD_MARK[{"g": "green", "y": "yellow", "r": "red"}[c[0]]] + c[1:] for c in cards)
    return msg(PICK_KEYS[head], cards=shown, stage=" ".join(numbers), flags=Listed(flags, "dot"))


def _fold(text: str) -> str:
    """Lower case, accents removed (`Mélanger` → `melanger`, `grün` → `grun`), `,` and `;` as spaces,
    a leading `/` dropped."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(ch))
    return plain.replace(",", " ").replace(";", " ").strip().lstrip("/")


def _unknown(text: str) -> CannotParse:
    return CannotParse(msg("roadrally.cannot_parse", text=text.strip()[:40]))


def _card_words(words: list[str], text: str) -> list[tuple[str, int]]:
    """(colour, value) of each card named: `g1`, `green1` or `green 1`."""
    out: list[tuple[str, int]] = []
    k = 0
    while k < len(words):
        word = words[k]
        glued = _GLUED.match(word)
        if glued and glued.group(1) in COLOUR_WORDS:
            out.append((COLOUR_WORDS[glued.group(1)], int(glued.group(2))))
            k += 1
        elif word in COLOUR_WORDS and k + 1 < len(words) and words[k + 1].isdigit():
            out.append((COLOUR_WORDS[word], int(words[k + 1])))
            k += 2
        else:
            raise _unknown(text)
    return out


def _ids(kinds: list[tuple[str, int]], among: tuple[Card, ...], missing: str) -> tuple[int, ...]:
    """The ids of the cards named, taken from `among` (the hand, or the Mechanic's top cards): each
    the lowest id of its colour and value not named yet. A card not there is refused with the key
    `missing`, naming the card."""
    pool = sorted(among)
    out: list[int] = []
    for colour, value in kinds:
        found = next((c for c, col, val in pool if (col, val) == (colour, value) and c not in out), None)
        if found is None:
            raise NotAllowed(msg(missing, card=f"{CARD_MARK[colour]}{value}"))
        out.append(found)
    return tuple(out)


def _stage(rest: list[str], view: RRView, text: str) -> int:
    """The stage number named (or the one asked when none is), which must be the one asked now."""
    numbers = [int(w) for w in rest if w.isdigit()]
    if len(numbers) > 1 or len(numbers) != len(rest):
        raise _unknown(text)
    if numbers and numbers[0] != view.window:
        raise NotAllowed(msg("roadrally.stage_not_reached", stage=numbers[0]))
    if view.window is None:
        raise NotAllowed(msg("roadrally.no_stage_window"))
    return view.window


def _at_store_by_default(view: RRView, chosen: Iterable[int]) -> bool:
    """C10.5: a play typed without `store` or `normal` from a General Store is the turn that
    draws more (`presets.store_by_default`); the action logged says which it is."""
    me = view.me
    assert me is not None
    pos = next(s.pos for s in view.seats if s.id == view.seat)
    if view.road.spaces[pos].kind is not SpaceKind.STORE:
        return False
    ids = set(chosen)
    return store_by_default(preset(view.preset), {col for c, col, _ in me.hand if c in ids}, len(ids))


def parse(text: str, view: RRView) -> Action:
    """The action `text` means for the seat of `view` (see the module's docstring)."""
    me = view.me
    if me is None or view.seat is None:
        raise NotAllowed(msg("roadrally.not_a_player"))
    words = _fold(text).split()
    if not words:
        raise _unknown(text)
    head = VERBS.get(words[0])
    rest = words[1:] if head is not None else words  # a bare list of cards means play
    if head is None or head == "play":
        flags = {FLAGS[w] for w in rest if w in FLAGS}
        if not rest or not [w for w in rest if w not in FLAGS]:
            raise _unknown(text)
        chosen = _ids(_card_words([w for w in rest if w not in FLAGS], text), me.hand, "roadrally.card_not_in_hand")
        store = "store" in flags or ("normal" not in flags and _at_store_by_default(view, chosen))
        return Play(tuple(sorted(chosen)), store, "shortcut" in flags, "draw" in flags, "normal" in flags)
    if head == "order":
        if not me.mechanic_top:
            raise NotAllowed(msg("roadrally.no_mechanic_now"))
        kinds = _card_words(rest, text)
        if kinds == [(col, val) for _, col, val in me.mechanic_top]:  # the present order, kept as it is
            return Order(tuple(c for c, _, _ in me.mechanic_top))
        return Order(_ids(kinds, me.mechanic_top, "roadrally.card_not_looked_at"))
    if head == "stage":  # `stage 7 reveal` / `stage 7 pass` (and the older `stage 7 play` / `keep`)
        if len(rest) != 2 or rest[1] not in STAGE_ANSWERS:
            raise _unknown(text)
        return StageAnswer(_stage(rest[:1], view, text), STAGE_ANSWERS[rest[1]])
    if head == "reveal":
        return StageAnswer(_stage(rest, view, text), True)
    if head == "pass":
        return StageAnswer(_stage(rest, view, text), False)
    if rest:
        raise _unknown(text)
    if head in ("reshuffle", "skip"):
        return Reshuffle(head == "reshuffle")
    if head in ("points", "cards"):
        return Choose("vp" if head == "points" else "cards")
    if head == "retire":
        return Retire(view.seat)
    return Timeout()
