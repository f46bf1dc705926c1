"""Result cards: a closed round's finished runs as small JSON documents anybody can verify.

A card names the round, its stages (with the SHA-256 of each stage's text), ruleset and modules,
the dice mode, the round's seed (published at close) and its hash (published at open), the
driver, the run's whole action log in the canonical versioned form (`bot.engine.rallyman.action_codec`,
never the words typed), and the claimed outcome. `python -m bot verify` replays a card with the
engine alone (`bot/services/world/card_check.py`): a card whose seed, stage, driver or any action was
altered diverges or is refused.

Version 2 binds the labels a card shows: the round's header (`round_header`: league id
and name, round number, week, stages and their digests, assistance, ruleset, modules, dice mode,
seed hash) and its results (`results_of`: each finished driver's id, name and times) hash to the
round's digest (`round_digest`), carried by every card and by the cards file, which also holds the
header and the results once, and published beside the seed in the results post. A verifier
compares each card's fields with that header and those results, naming the one that differs, and
shows the names of the results, never a card's own.

A run that answers the round (the driver's official run of the week, driven in the world round
or another league: `bot/services/league/official_runs.py`) is one of the round's results, and its card
is the card of the round D that drove it (D's seed and labels: what replays), plus `counts_for`
(the league and number of the round whose file carries it) and `driven_sha256` (the SHA-256 of
D's header). The file then also holds D's header under `driven`, and the round's digest binds
those headers too (`Binding`): nothing a linked card shows is unbound.

A round of another game than classic names it (`game`), and a provisional ruleset's round says so
(`provisional: true`); both are bound like every other field, and absent for classic's rounds, so
the cards written before still verify as they are.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from bot import games
from bot.store.clock import from_text
from bot.store.connection import Tx
from bot.store.leagues import Round, Run, league_tx, round_tx

CARD_FORMAT = "rallybot-result-card"
CARD_VERSION = 2
OLD_VERSIONS = (1,)  # still read: their replay verifies, their labels are as written (not bound)
#: The round's fields every card repeats and `round_header` holds (version 1 lacks `league_id`).
HEADER_FIELDS = ("league_id", "league", "round", "week", "specials", "assistance", "stage_sha256", "ruleset",
                 "modules", "dice", "seed_sha256")
#: The header's fields written only when they say something: `game` for a round of any
#: game but classic (omitted: classic, so every card written before still verifies) and
#: `provisional: true` for a ruleset its game calls provisional. The digest binds them like the rest.
OPTIONAL_HEADER_FIELDS = ("game", "provisional")
FILE_FORMAT = "rallybot-result-cards"


def run_modules(rnd: Round) -> dict[str, Any]:
    """The rally settings every run of the round shares (the streams are per driver)."""
    modules: dict[str, Any] = {"sisu": False, "shakedown": False, **{k: True for k, on in rnd.modules.items() if on}}
    if len(rnd.specials) > 1:
        modules["course"] = {"specials": list(rnd.specials), "assistance": list(rnd.assistance)}
    return modules


def round_header(rnd: Round, league_name: str | None, digests: dict[str, str]) -> dict[str, Any]:
    """The round as its cards show it (`digests`: stage name → SHA-256 of its text), naming its
    game (unless classic) and saying when its ruleset is provisional."""
    return {
        **({"game": rnd.game} if rnd.game != games.DEFAULT_GAME else {}),
        **({"provisional": True} if games.get(rnd.game).library.provisional(rnd.ruleset) else {}),
        "league_id": rnd.league_id,
        "league": league_name,
        "round": rnd.number,
        "week": rnd.week,
        "specials": list(rnd.specials),
        "assistance": list(rnd.assistance),
        "stage_sha256": [digests[name] for name in rnd.specials],
        "ruleset": rnd.ruleset,
        "modules": {k: True for k, on in sorted(rnd.modules.items()) if on},
        "dice": rnd.dice,
        "seed_sha256": rnd.seed_hash,
    }


def carded(rnd: Round, runs: list[Run]) -> list[Run]:
    """The runs that get a card in the round's file: the finished ones (a DNF has no time to
    verify). A run answering the round from another one counts only if it had finished by the
    round's close (else it counts here as not finished): what the file binds stays what was
    published, whenever that run ends."""
    closes = from_text(rnd.closes_at)
    return [run for run in runs if run.status == "finished" and run.rally_id is not None and
            (run.round_id == rnd.id or (run.finished_at is not None and from_text(run.finished_at) <= closes))]


def results_of(rnd: Round, runs: list[Run]) -> list[dict[str, Any]]:
    """The round's published results as the cards file holds them: driver id, name and times (a
    game scored in another unit than seconds: its `score`)."""
    return [{"driver": str(run.user_id), "name": run.display_name, **claimed_of(rnd.game, run)}
            for run in sorted(carded(rnd, runs), key=lambda run: run.user_id)]


def claimed_of(game: str, run: Run) -> dict[str, Any]:
    """A run's result as its card claims it: classic's time and power-stage time (as every card
    before), or the score of a game scored in another unit."""
    if games.get(game).rules.result.unit == "s":
        return {"time_s": run.time_s, "power_s": run.power_s}
    return {"score": run.score}


def canonical(value: object) -> bytes:
    """The one byte form a digest is taken of: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def header_digest(header: dict[str, Any]) -> str:
    """The SHA-256 of a round's header: how a linked card names the round that drove it."""
    return hashlib.sha256(canonical(header)).hexdigest()


def round_digest(header: dict[str, Any], results: list[dict[str, Any]],
                 driven: list[dict[str, Any]] | None = None) -> str:
    """The SHA-256 binding a round's header, results and (when some of its runs were driven in
    other rounds) those rounds' headers, published with the results."""
    bound: dict[str, Any] = {"round": header, "results": results}
    if driven:
        bound["driven"] = driven
    return hashlib.sha256(canonical(bound)).hexdigest()


@dataclass(frozen=True)
class Binding:
    """What a round's cards file binds: its header, its results, the header of each round that
    drove a run answering it (`drove`: that round's id → the round and its header), and the
    digest of them all."""

    header: dict[str, Any]
    results: list[dict[str, Any]]
    drove: dict[int, tuple[Round, dict[str, Any]]]
    digest: str

    def driven(self) -> list[dict[str, Any]]:
        """The driving rounds' headers in one order (by their SHA-256), as the file lists them."""
        return sorted((header for _, header in self.drove.values()), key=header_digest)


def round_binding(rnd: Round, league_name: str | None, runs: list[Run],
                  driven: dict[int, tuple[Round, str | None]] | None = None) -> Binding:
    """The round's binding (stage texts hashed once per round); `driven`: the rounds that drove
    the runs answering it, with their leagues' names (`driven_rounds_tx`)."""
    digests: dict[str, str] = {}

    def header_of(r: Round, name: str | None) -> dict[str, Any]:
        for stage in r.specials:
            digests.setdefault(stage, games.get(r.game).library.stages.digest(stage))
        return round_header(r, name, digests)

    header = header_of(rnd, league_name)
    cards = carded(rnd, runs)
    drove = {round_id: (other, header_of(other, name)) for round_id, (other, name) in (driven or {}).items()
             if any(run.round_id == round_id for run in cards)}
    results = results_of(rnd, runs)
    headers = sorted((h for _, h in drove.values()), key=header_digest)
    return Binding(header, results, drove, round_digest(header, results, headers))


async def driven_rounds_tx(tx: Tx, rnd: Round, runs: list[Run]) -> dict[int, tuple[Round, str | None]]:
    """The rounds that drove the runs answering `rnd`: their id → the round and its league's name."""
    driven: dict[int, tuple[Round, str | None]] = {}
    for run in runs:
        if run.round_id != rnd.id and run.round_id not in driven:
            other = await round_tx(tx, run.round_id)
            if other is not None:
                league = await league_tx(tx, other.league_id) if other.league_id is not None else None
                driven[run.round_id] = (other, league.name if league else None)
    return driven


async def binding_tx(tx: Tx, rnd: Round, league_name: str | None, runs: list[Run]) -> Binding:
    """The round's binding as stored (`runs`: those counting in it, `counted_runs_tx`)."""
    return round_binding(rnd, league_name, runs, await driven_rounds_tx(tx, rnd, runs))


def card_head(header: dict[str, Any], digest: str, rnd: Round, run: Run,
              counts_for: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything of a run's card but its actions: `rnd` and `header` are the round that drove the
    run; `counts_for` ({"league", "round"}) the round whose file carries the card, when that is
    another (then the card also names the header it shows by its SHA-256)."""
    head: dict[str, Any] = {
        "format": CARD_FORMAT,
        "version": CARD_VERSION,
        **header,
        "round_sha256": digest,
    }
    if counts_for is not None:
        head["counts_for"] = counts_for
        head["driven_sha256"] = header_digest(header)
    return {
        **head,
        "seed": rnd.seed,
        "driver": str(run.user_id),
        "name": run.display_name,
        "claimed": claimed_of(rnd.game, run),
    }


def card_json(head: dict[str, Any], log: list[str]) -> str:
    """The card as JSON: the head, then `actions`, the logged canonical texts written as they are
    (each is a JSON object already: a round of 1,000 runs is not parsed and written again)."""
    text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))
    return text[:-1] + ',"actions":[' + ",".join(log) + "]}"


def cards_file(rnd: Round, league_name: str | None, runs: list[Run], logs: dict[int, list[str]],
               binding: Binding) -> str:
    """All the finished runs' cards of a round, as the JSON file attached to the results: the
    header, the results, the driving rounds' headers and their digest once, then the cards. A run
    driven in another round gets that round's card, with `counts_for` naming this one."""
    here = {"league": league_name, "round": rnd.number}
    cards = []
    for run in carded(rnd, runs):
        if run.round_id in binding.drove:
            other, header = binding.drove[run.round_id]
            head = card_head(header, binding.digest, other, run, here)
        else:
            head = card_head(binding.header, binding.digest, rnd, run)
        cards.append(card_json(head, logs.get(run.rally_id or 0, [])))
    driven = binding.driven()
    top = {"format": FILE_FORMAT, "version": CARD_VERSION, "round": binding.header, "results": binding.results,
           **({"driven": driven} if driven else {}), "round_sha256": binding.digest}
    text = json.dumps(top, ensure_ascii=False, separators=(",", ":"))
    return text[:-1] + ',"cards":[' + ",".join(cards) + "]}"
