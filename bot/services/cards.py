"""Result cards: a closed round's finished runs as small JSON documents anybody can verify.

A card names the round, its stages (with the SHA-256 of each stage's text), ruleset and modules,
the dice mode, the round's seed (published at close) and its hash (published at open), the
driver, the run's whole action log in the canonical versioned form (`bot.engine.action_codec`,
never the words typed), and the claimed outcome. `python -m bot verify` replays a card with the
engine alone (`bot/services/verify.py`): a card whose seed, stage, driver or any action was
altered diverges or is refused.

A run that answers the round (the driver's official run of the week, driven in the world round
or another league: `bot/services/official_runs.py`) gets the card of the round that drove it
(its seed, its league and number: what verifies), plus `counts_for`, the league and number of
the round whose file carries it.
"""

from __future__ import annotations

import json
from typing import Any

from bot.engine.stage_catalogue import stage_digest
from bot.store.connection import Tx
from bot.store.leagues import Round, Run

CARD_FORMAT = "rallybot-result-card"
CARD_VERSION = 1
FILE_FORMAT = "rallybot-result-cards"


def run_modules(rnd: Round) -> dict[str, Any]:
    """The rally settings every run of the round shares (the streams are per driver)."""
    modules: dict[str, Any] = {"sisu": False, "shakedown": False, **{k: True for k, on in rnd.modules.items() if on}}
    if len(rnd.specials) > 1:
        modules["course"] = {"specials": list(rnd.specials), "assistance": list(rnd.assistance)}
    return modules


def card_head(rnd: Round, league_name: str | None, run: Run, digests: dict[str, str],
              counts_for: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything of a run's card but its actions (`digests`: stage name → SHA-256 of its text).
    `rnd` is the round that drove the run; `counts_for` ({"league", "round"}) the round whose
    file carries the card, when that is another."""
    head: dict[str, Any] = {
        "format": CARD_FORMAT,
        "version": CARD_VERSION,
        "league": league_name,
        "round": rnd.number,
        "week": rnd.week,
        "specials": list(rnd.specials),
        "assistance": list(rnd.assistance),
        "stage_sha256": [digests[name] for name in rnd.specials],
        "ruleset": rnd.ruleset,
        "modules": {k: True for k, on in sorted(rnd.modules.items()) if on},
        "dice": rnd.dice,
        "seed": rnd.seed,
        "seed_sha256": rnd.seed_hash,
        "driver": str(run.user_id),
        "name": run.display_name,
        "claimed": {"time_s": run.time_s, "power_s": run.power_s},
    }
    if counts_for is not None:
        head["counts_for"] = counts_for
    return head


def card_json(head: dict[str, Any], log: list[str]) -> str:
    """The card as JSON: the head, then `actions`, the logged canonical texts written as they are
    (each is a JSON object already: a round of 1,000 runs is not parsed and written again)."""
    text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))
    return text[:-1] + ',"actions":[' + ",".join(log) + "]}"


def card_of(rnd: Round, league_name: str | None, run: Run, log: list[str]) -> dict[str, Any]:
    """The card of one finished run as a dict; `log` is its action log (canonical texts, in order)."""
    digests = {name: stage_digest(name) for name in rnd.specials}
    return json.loads(card_json(card_head(rnd, league_name, run, digests), log))


async def logs_of_round_tx(tx: Tx, round_id: int) -> dict[int, list[str]]:
    """The action log of every run counting in the round (driven in it or answering it) in one
    indexed query: rally id → canonical texts."""
    rows = await tx.fetch_all(
        "SELECT a.rally_id, a.action FROM actions a JOIN runs r ON r.rally_id = a.rally_id "
        "WHERE r.round_id = ? OR r.id IN (SELECT run_id FROM run_answers WHERE round_id = ?) "
        "ORDER BY a.rally_id, a.seq", (round_id, round_id))
    logs: dict[int, list[str]] = {}
    for row in rows:
        logs.setdefault(int(row[0]), []).append(str(row[1]))
    return logs


def cards_file(rnd: Round, league_name: str | None, runs: list[Run], logs: dict[int, list[str]],
               driven: dict[int, tuple[Round, str | None]] | None = None) -> str:
    """All the finished runs' cards of a round, as the JSON file attached to the results. A run
    driven in another round (`driven`: its id → that round and its league's name) gets that
    round's card, with `counts_for` naming this one."""
    digests = {name: stage_digest(name) for name in rnd.specials}  # once per round, not per card
    driven = driven or {}
    cards = []
    for run in runs:
        if run.status != "finished" or run.rally_id is None:
            continue
        if run.round_id in driven:
            other, other_league = driven[run.round_id]
            other_digests = {name: digests.get(name) or stage_digest(name) for name in other.specials}
            head = card_head(other, other_league, run, other_digests, {"league": league_name, "round": rnd.number})
        else:
            head = card_head(rnd, league_name, run, digests)
        cards.append(card_json(head, logs.get(run.rally_id, [])))
    top = json.dumps({"format": FILE_FORMAT, "version": CARD_VERSION}, separators=(",", ":"))
    return top[:-1] + ',"cards":[' + ",".join(cards) + "]}"
