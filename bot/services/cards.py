"""Result cards: a closed round's finished runs as small JSON documents anybody can verify.

A card names the round, its stages (with the SHA-256 of each stage's text), ruleset and modules,
the dice mode, the round's seed (published at close) and its hash (published at open), the
driver, the run's whole action log in the canonical versioned form (`bot.engine.action_codec`,
never the words typed), and the claimed outcome. `python -m bot verify` replays a card with the
engine alone (`bot/services/verify.py`): a card whose seed, stage, driver or any action was
altered diverges or is refused.

Version 2 binds the labels a card shows (issue 21): the round's header (`round_header`: league id
and name, round number, week, stages and their digests, assistance, ruleset, modules, dice mode,
seed hash) and its results (`results_of`: each finished driver's id, name and times) hash to the
round's digest (`round_digest`), carried by every card and by the cards file, which also holds the
header and the results once, and published beside the seed in the results post. A verifier
compares each card's fields with that header and those results, naming the one that differs, and
shows the names of the results, never a card's own.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from bot.engine.stage_catalogue import stage_digest
from bot.store.connection import Tx
from bot.store.leagues import Round, Run

CARD_FORMAT = "rallybot-result-card"
CARD_VERSION = 2
OLD_VERSIONS = (1,)  # still read: their replay verifies, their labels are as written (not bound)
#: The round's fields every card repeats and `round_header` holds (version 1 lacks `league_id`).
HEADER_FIELDS = ("league_id", "league", "round", "week", "specials", "assistance", "stage_sha256", "ruleset",
                 "modules", "dice", "seed_sha256")
FILE_FORMAT = "rallybot-result-cards"


def run_modules(rnd: Round) -> dict[str, Any]:
    """The rally settings every run of the round shares (the streams are per driver)."""
    modules: dict[str, Any] = {"sisu": False, "shakedown": False, **{k: True for k, on in rnd.modules.items() if on}}
    if len(rnd.specials) > 1:
        modules["course"] = {"specials": list(rnd.specials), "assistance": list(rnd.assistance)}
    return modules


def round_header(rnd: Round, league_name: str | None, digests: dict[str, str]) -> dict[str, Any]:
    """The round as its cards show it (`digests`: stage name → SHA-256 of its text)."""
    return {
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


def carded(runs: list[Run]) -> list[Run]:
    """The runs that get a card: the finished ones (a DNF has no time to verify)."""
    return [run for run in runs if run.status == "finished" and run.rally_id is not None]


def results_of(runs: list[Run]) -> list[dict[str, Any]]:
    """The round's published results as the cards file holds them: driver id, name and times."""
    return [{"driver": str(run.user_id), "name": run.display_name, "time_s": run.time_s, "power_s": run.power_s}
            for run in sorted(carded(runs), key=lambda run: run.user_id)]


def canonical(value: object) -> bytes:
    """The one byte form a digest is taken of: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def round_digest(header: dict[str, Any], results: list[dict[str, Any]]) -> str:
    """The SHA-256 binding a round's header and results, published with the results."""
    return hashlib.sha256(canonical({"round": header, "results": results})).hexdigest()


def card_head(header: dict[str, Any], digest: str, rnd: Round, run: Run) -> dict[str, Any]:
    """Everything of a run's card but its actions."""
    return {
        "format": CARD_FORMAT,
        "version": CARD_VERSION,
        **header,
        "round_sha256": digest,
        "seed": rnd.seed,
        "driver": str(run.user_id),
        "name": run.display_name,
        "claimed": {"time_s": run.time_s, "power_s": run.power_s},
    }


def card_json(head: dict[str, Any], log: list[str]) -> str:
    """The card as JSON: the head, then `actions`, the logged canonical texts written as they are
    (each is a JSON object already: a round of 1,000 runs is not parsed and written again)."""
    text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))
    return text[:-1] + ',"actions":[' + ",".join(log) + "]}"


async def logs_of_round_tx(tx: Tx, round_id: int) -> dict[int, list[str]]:
    """Every run's action log of the round in one indexed query: rally id → canonical texts."""
    rows = await tx.fetch_all(
        "SELECT a.rally_id, a.action FROM actions a JOIN runs r ON r.rally_id = a.rally_id "
        "WHERE r.round_id = ? ORDER BY a.rally_id, a.seq", (round_id,))
    logs: dict[int, list[str]] = {}
    for row in rows:
        logs.setdefault(int(row[0]), []).append(str(row[1]))
    return logs


def round_binding(rnd: Round, league_name: str | None, runs: list[Run]) -> tuple[dict[str, Any],
                                                                                list[dict[str, Any]], str]:
    """The round's header, results and their digest (stage texts hashed once per round)."""
    header = round_header(rnd, league_name, {name: stage_digest(name) for name in rnd.specials})
    results = results_of(runs)
    return header, results, round_digest(header, results)


def cards_file(rnd: Round, league_name: str | None, runs: list[Run], logs: dict[int, list[str]]) -> str:
    """All the finished runs' cards of a round, as the JSON file attached to the results: the
    header, the results and their digest once, then the cards."""
    header, results, digest = round_binding(rnd, league_name, runs)
    cards = [card_json(card_head(header, digest, rnd, run), logs.get(run.rally_id or 0, [])) for run in carded(runs)]
    head = json.dumps({"format": FILE_FORMAT, "version": CARD_VERSION, "round": header, "results": results,
                       "round_sha256": digest}, ensure_ascii=False, separators=(",", ":"))
    return head[:-1] + ',"cards":[' + ",".join(cards) + "]}"
