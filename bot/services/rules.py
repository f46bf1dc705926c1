"""`/rules [game] [ruleset]`: a game's rules summary as the bot plays them.

The lines are the game's (`Game.library.summary(ruleset)`: message keys, shown in the reader's language);
this module picks the game (none: classic) and the ruleset (none: the game's default, its first),
refusing an unknown one by name. No database: answered at once (in as many messages as the text
takes: bot/views/outgoing.py).
"""

from __future__ import annotations

from bot import games
from bot.engine.core.text import msg
from bot.services.errors import ServiceError
from bot.services.play.provisional import provisional_lines
from bot.services.reply import Reply


def rules_reply(game: object = None, ruleset: object = None) -> Reply:
    """The rules of `game` under `ruleset`, privately; an unknown game or ruleset is refused
    naming the ones there are."""
    typed_game = str(game).strip().lower()[:40] if game is not None else ""
    played = games.get(typed_game or None)
    names = list(played.library.rulesets())
    typed_ruleset = str(ruleset).strip()[:40] if ruleset is not None else ""
    wanted = typed_ruleset or names[0]
    if wanted not in names:
        raise ServiceError("rules.unknown_ruleset", game=msg(played.library.name), ruleset=wanted,
                           rulesets=", ".join(f"`{n}`" for n in names))
    lines = list(played.library.summary(wanted))
    if played.library.provisional(wanted) and not any(str(line) == msg("game.provisional_rules") for line in lines):
        lines += provisional_lines(played.id, wanted)  # said even if the game's own lines do not
    return Reply(lines, ephemeral=True)
