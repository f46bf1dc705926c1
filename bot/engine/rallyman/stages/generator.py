"""Seeded generator of new stages (the weekly official stage, DESIGN §4), written as stage text.

`generate(seed, length)` returns the text of an inline stage over the shipped zones: start,
zone lines, straights, bumps (sometimes in a row), corners with a skid and often a shortcut,
one split point, finish. A corner never comes within two spaces after a bump (RULES AMB-21):
a straight is laid first when one would. The text goes through the same loader as a
hand-written stage, so it is valid by the same rules; the generator lays the road section by
section, parses after each one and, when the road would run over itself, tries another corner
(the other way, another angle, a straight first) or takes back the last sections.

Only `random.Random(seed)` is used, so a seed always gives the same text. By default it lays
the road over the zones it was released with (`GENERATOR_ZONES`, A–E), never over zones added
later: a generated stage's text is frozen (a result card names its SHA-256), so a new zone file
must not change what a seed gives.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.engine.core.errors import StageError
from bot.engine.rallyman.stages.build import JUMP_FLIGHT
from bot.engine.rallyman.stages.format import DEFAULT_ANGLE, DEFAULT_INTERIOR_SPACES, BumpNote, CornerNote, StraightNote
from bot.engine.rallyman.stages.loader import ZoneFile, load_zones, parse_stage
from bot.engine.rallyman.stages.model import Stage, Terrain

MIN_LENGTH = 12
MAX_LENGTH = 120
#: the generated stage's length is within this fraction of the asked length
TOLERANCE = 0.2
#: the zones a generated stage may use: the ones shipped when the generator was released (frozen)
GENERATOR_ZONES = ("A", "B", "C", "D", "E")
_ATTEMPTS = 10  # proposals for one section before taking back the previous one
_MAX_SETBACKS = 60  # sections taken back before laying a gentle road instead

_PLACES = ("Ash", "Black", "Cold", "Elder", "Fox", "Grey", "High", "Iron", "Kings", "Long", "Mill",
           "North", "Oak", "Raven", "Stone", "Thorn", "West", "Wolf", "Birch", "Heron")
_ENDINGS = ("brook", "combe", "dale", "fell", "ford", "gate", "holt", "hurst", "ley", "moor",
            "ridge", "stead", "wick", "wood", "cliffe", "mere")
_KINDS = ("Sprint", "Stage", "Climb", "Descent", "Run", "Pass", "Traverse")


@dataclass(frozen=True)
class _Block:
    """Lines added in one step (a section, maybe after `zone X` or `split`) and the state after them."""

    lines: tuple[str, ...]
    kind: str  # "straight", "bumps" or "corner"
    heading: float  # degrees turned in total since the start, kept within -180..180
    last_note: int | None  # interior note of the last corner, to alternate gears
    zone_index: int
    split_done: bool
    since_bump: int | None = None  # spaces of road laid since the last bump (None: a corner came after it)


def generate(seed: int, length: int = 30, zones: dict[str, ZoneFile] | None = None) -> str:
    """Stage text for `seed`, about `length` spaces long (±20 %), over `zones` (default: the shipped
    zones of `GENERATOR_ZONES`)."""
    if not MIN_LENGTH <= length <= MAX_LENGTH:
        raise ValueError(f"length {length}: a generated stage has {MIN_LENGTH} to {MAX_LENGTH} spaces")
    zones = zones if zones is not None else generator_zones(load_zones())
    if not zones:
        raise ValueError("no zones to build on: add zone files to data/rallyman/zones/")
    return _Generator(random.Random(seed), seed, length, zones).run()


def generator_zones(zones: dict[str, ZoneFile]) -> dict[str, ZoneFile]:
    """The zones among `zones` a generated stage may be laid over (`GENERATOR_ZONES`)."""
    return {letter: zone for letter, zone in zones.items() if letter in GENERATOR_ZONES}


class _Generator:
    def __init__(self, rng: random.Random, seed: int, target: int, zones: dict[str, ZoneFile]) -> None:
        self.rng = rng
        self.seed = seed
        self.target = target
        self.zones = zones
        count = max(1, min(len(zones), 4, round(target / 18)))
        self.route = rng.sample(sorted(zones), count)
        self.palettes = {z: _palette(zones[z]) for z in self.route}
        self.header = self._header()
        weather = rng.random()
        #: zones on their snow side: all of them, one of them, or none
        self.snow = set(self.route) if weather < 0.2 else {rng.choice(self.route)} if weather < 0.45 else set()
        self.slack = max(1, target // 10)
        self.upper = int(target * (1 + TOLERANCE * 0.75))

    # -- whole stage ---------------------------------------------------------------------------
    def run(self) -> str:
        blocks = self._lay(gentle=False)
        if blocks is None:
            blocks = self._lay(gentle=True)
        if blocks is None:  # pragma: no cover - a gentle road always fits; this guards the promise
            raise RuntimeError(f"stage generator: seed {self.seed} found no layout")
        return self._text(blocks)

    def _lay(self, gentle: bool) -> list[_Block] | None:
        """Add sections until the stage is long enough; None if the road keeps running over itself."""
        first = _Block((f"zone {self.route[0]}", self._straight_text(self.rng.randint(2, 4))), "straight",
                       0.0, None, 0, False, None)
        blocks = [first]
        stage = self._fits(blocks)
        setbacks = 0
        while stage is None or stage.length < self.target - self.slack:
            if stage is None:
                return None
            added = None
            for attempt in range(_ATTEMPTS):
                candidate = self._propose(blocks[-1], stage.length, attempt, gentle)
                fitted = self._fits(blocks + [candidate])
                if fitted is not None and fitted.length <= self.upper:
                    added = (candidate, fitted)
                    break
            if added:
                blocks.append(added[0])
                stage = added[1]
                continue
            setbacks += 1
            if setbacks > _MAX_SETBACKS:
                return None
            del blocks[max(1, len(blocks) - 2):]  # take back one or two sections, never the first
            stage = self._fits(blocks)
        return self._close(blocks, stage)

    def _close(self, blocks: list[_Block], stage: Stage) -> list[_Block]:
        """Make sure there is a split point, then run out to the asked length with a last straight."""
        if not blocks[-1].split_done:
            last = blocks[-1]
            i = next(i for i, line in enumerate(last.lines) if not line.startswith(("zone", "split")))
            blocks[-1] = _Block(last.lines[:i] + ("split",) + last.lines[i:], last.kind, last.heading,
                                last.last_note, last.zone_index, True, last.since_bump)
        need = self.target - stage.length
        for count in range(min(max(need, 1), 6), 0, -1):
            last = blocks[-1]
            tail = _Block((self._straight_text(count, last.zone_index),), "straight", last.heading,
                          last.last_note, last.zone_index, True, None)
            fitted = self._fits(blocks + [tail])
            if fitted is not None and fitted.length <= self.upper:
                blocks.append(tail)
                break
        return blocks

    def _fits(self, blocks: list[_Block]) -> Stage | None:
        """The stage so far (with a finish), or None when its road overlaps or crosses itself."""
        try:
            return parse_stage(self._text(blocks), f"generated seed {self.seed}", self.zones,
                               name=f"generated-{self.seed}")
        except StageError as exc:
            if "overlaps itself" in exc.reason or "crosses itself" in exc.reason:
                return None
            raise

    def _header(self) -> list[str]:
        place = self.rng.choice(_PLACES) + self.rng.choice(_ENDINGS)
        return [f"# generated by bot.engine.stage_generator: seed {self.seed}, length {self.target}",
                f"title: {place} {self.rng.choice(_KINDS)}"]

    def _text(self, blocks: list[_Block]) -> str:
        """The stage text; `snow:` names only the snowy zones the road has reached so far."""
        body = [line for b in blocks for line in b.lines]
        laid = [z for z in self.route if f"zone {z}" in body]
        snow = [f"snow: {', '.join(z for z in laid if z in self.snow)}"] if self.snow & set(laid) else []
        return "\n".join(self.header + snow + ["start"] + body + ["finish"]) + "\n"

    # -- one step ------------------------------------------------------------------------------
    def _propose(self, last: _Block, done: int, attempt: int, gentle: bool) -> _Block:
        """The next block: a zone change or split when due, then a section in the stage's rhythm."""
        prefix: list[str] = []
        zone_index = last.zone_index
        boundary = self.target * (zone_index + 1) / len(self.route)
        if zone_index + 1 < len(self.route) and done >= boundary:
            zone_index += 1
            prefix.append(f"zone {self.route[zone_index]}")
        split_done = last.split_done
        if not split_done and done >= self.target * 0.45:
            prefix.append("split")
            split_done = True
        kind = self._kind(last.kind, attempt)
        heading, last_note = last.heading, last.last_note
        since_bump: int | None = None
        if kind == "corner":
            lines = []
            if last.since_bump is not None and last.since_bump < JUMP_FLIGHT:
                # AMB-21: room to land after a bump before the corner, so no jump flies over it
                lines.append(self._straight_text(JUMP_FLIGHT - last.since_bump, zone_index))
            text, heading, last_note = self._corner(last.heading, last.last_note, zone_index, attempt, gentle)
            lines.append(text)
        elif kind == "bumps":
            lines = self._bumps(zone_index)
            since_bump = 0
        else:
            count = self._straight_count(last, attempt)
            lines = [self._straight_text(count, zone_index)]
            since_bump = None if last.since_bump is None else last.since_bump + count
        return _Block(tuple(prefix + lines), kind, heading, last_note, zone_index, split_done, since_bump)

    def _kind(self, previous: str, attempt: int) -> str:
        """Alternate: after a corner mostly road to accelerate on, after road mostly a corner."""
        if attempt >= _ATTEMPTS - 3:
            return "straight"
        r = self.rng.random()
        if previous == "corner":
            return "straight" if r < 0.6 else "bumps" if r < 0.8 else "corner"
        if previous == "bumps":
            return "corner" if r < 0.7 else "straight"
        return "corner" if r < 0.8 else "bumps"

    def _straight_count(self, last: _Block, attempt: int) -> int:
        if attempt >= _ATTEMPTS - 3:
            return 2 + attempt % 2
        fast = last.last_note is not None and last.last_note >= 4
        return self.rng.choice((1, 2, 2, 3) if fast else (2, 3, 3, 4, 5, 6))

    def _straight_text(self, count: int, zone_index: int = 0) -> str:
        rng = self.rng
        extra = ""
        r = rng.random()
        if r < 0.08:
            extra = " cap 1"
        elif r < 0.12:
            extra = " cap 3"
        if rng.random() < 0.08:
            extra += " clear"
        left, right = self._terrain(zone_index), self._terrain(zone_index)
        if count >= 3 and rng.random() < 0.2:
            right = ", ".join(self._terrain(zone_index) for _ in range(count))
        return f"straight {count}{extra} [{left}|{right}]"

    def _bumps(self, zone_index: int) -> list[str]:
        """One bump, or a row of crests a space apart (RULES A10)."""
        rng = self.rng
        count = rng.choice((1, 1, 1, 2, 3))
        lines = []
        for i in range(count):
            if i:
                lines.append(f"straight 1 {self._sides(zone_index)}")
            lines.append(f"bump {rng.choice((2, 3, 3, 4, 4, 5))} {self._sides(zone_index)}")
        return lines

    def _sides(self, zone_index: int) -> str:
        return f"[{self._terrain(zone_index)}|{self._terrain(zone_index)}]"

    def _corner(self, heading: float, last_note: int | None, zone_index: int, attempt: int,
                gentle: bool) -> tuple[str, float, int]:
        """A corner whose note contrasts with the last one, with a skid and often a risky shortcut."""
        rng = self.rng
        if gentle:
            note = rng.choice((3, 4, 5))
        elif last_note is None or last_note == 3:
            note = rng.choice((1, 2, 2, 4, 4, 5))
        elif last_note <= 2:
            note = rng.choice((3, 4, 4, 5))
        else:
            note = rng.choice((1, 2, 2, 3, 3))
        interior = rng.choice({1: (1, 2, 2), 2: (2, 2, 3), 3: (2, 2, 3), 4: (1, 2, 3), 5: (1, 2)}[note])
        skid_note = min(5, note + 1)
        skid_count = rng.choice((2, 3, 3, 4) if note <= 2 else (2, 3, 3))
        skid = f"{skid_note}x{skid_count}"
        if 2 <= note <= 4 and skid_count == 3 and rng.random() < 0.25:
            skid = f"{skid_note}-{skid_note}-{note}"  # a skid that tightens on its last space
        shortcut = ""
        if interior >= 2 and rng.random() < 0.45:
            k_note = min(5, note + rng.choice((0, 1, 1)))
            k_count = rng.randint(1, interior - 1)
            shortcut = f" K{k_note}" + (f"x{k_count}" if k_count > 1 else "")
        angle = DEFAULT_ANGLE[note] + rng.choice((-15, 0, 0, 15))
        if gentle or attempt >= 3:
            angle = min(angle, 75.0)
        angle = max(30.0, min(180.0, angle))
        direction = self._direction(heading, angle)
        heading += angle if direction == "right" else -angle
        inside = self._risky(zone_index) if shortcut and rng.random() < 0.8 else self._terrain(zone_index)
        outside = self._terrain(zone_index)
        left, right = (inside, outside) if direction == "left" else (outside, inside)
        size = f"x{interior}" if interior != DEFAULT_INTERIOR_SPACES else ""
        turn = f" turn {angle:g}" if angle != DEFAULT_ANGLE[note] else ""
        text = f"{direction} {note}{size} skid {skid}{shortcut}{turn} [{left}|{right}]"
        return text, heading, note

    def _direction(self, heading: float, angle: float) -> str:
        """Left or right, keeping the road's total turn within ±180° so it never spirals."""
        if heading == 0:
            return self.rng.choice(("left", "right"))
        back = "left" if heading > 0 else "right"
        away = "right" if back == "left" else "left"
        if abs(heading) >= 90 or abs(heading) + angle > 180:
            return back
        return back if self.rng.random() < 0.5 + abs(heading) / 360 else away

    def _terrain(self, zone_index: int) -> str:
        return self.rng.choice(self.palettes[self.route[zone_index]])

    def _risky(self, zone_index: int) -> str:
        """The terrain of this zone that costs the most dice, to lie beside a shortcut."""
        zone = self.zones[self.route[zone_index]].zone
        used = sorted(set(self.palettes[self.route[zone_index]]))
        return max(used, key=lambda t: (zone.legend_dry[Terrain(t)], t))


def _palette(zone_file: ZoneFile) -> tuple[str, ...]:
    """Terrains the zone's own road is lined with: the common ones often, every one at times."""
    seen: list[str] = []
    for note in zone_file.notes:
        if isinstance(note, (StraightNote, BumpNote, CornerNote)):
            seen.extend(t.value for t in note.sides.left + note.sides.right)
    if not seen:
        return (Terrain.GRASS.value,)
    return tuple(sorted(set(seen))) * 3 + tuple(seen)
