"""`python -m bot verify FILE.json`: replay result cards with the engine alone.

    python -m bot verify round-3-cards.json [--seed-sha256 HASH] [--round-sha256 HASH]

FILE is one result card or a round's cards file (attached to the results post). Prints one line
per card, the genuine time or exactly where the card diverges, then the seed's SHA-256 to compare
with the one published when the round opened (or give it with `--seed-sha256`: a card with
another seed is then rejected), and the round's SHA-256 to compare with the one published with
the results (or `--round-sha256`): it binds the labels and names the cards show. Exit status: 0
every card genuine, 1 a card rejected (or the file is not cards), 2 the file cannot be read.
Needs neither the database nor Discord.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from bot.cli import Subparsers


def register(subparsers: Subparsers) -> None:
    from bot.i18n import t

    p = subparsers.add_parser("verify", help=t("verify.cli_help"), description=t("verify.cli_help"))
    p.add_argument("file", metavar="FILE.json", help=t("verify.cli_file_help"))
    p.add_argument("--seed-sha256", default=None, metavar="HASH", help=t("verify.cli_hash_help"))
    p.add_argument("--round-sha256", default=None, metavar="HASH", help=t("verify.cli_round_help"))
    p.set_defaults(func=main)


def _say(text: str, stream: TextIO) -> None:
    """One line, even on a console whose encoding has no ✅ (it is replaced, never a crash)."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    stream.write(text.encode(encoding, "replace").decode(encoding) + "\n")


def main(args: argparse.Namespace) -> int:
    from bot.i18n import t
    from bot.services.world.card_check import MAX_BYTES, verify_bytes

    try:
        with open(args.file, "rb") as f:
            data = f.read(MAX_BYTES + 1)  # one byte more than allowed tells a file too large
    except OSError as exc:
        _say(t("verify.cannot_read", path=args.file, reason=exc.strerror or type(exc).__name__), sys.stderr)
        return 2
    report = verify_bytes(data, args.seed_sha256, round_published=args.round_sha256)
    for line in report.lines:
        _say(line, sys.stdout)
    return 0 if report.ok else 1
