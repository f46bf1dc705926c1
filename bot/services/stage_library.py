"""`/stage list` and `/stage show` (Discord and console): a game's shipped stages with their length,
zones and difficulty, and one stage's preview and facts. Read only: no database, no outbox.

A game is reached through the registry (`bot.games.get(game).stages`, the `StageLibrary` of the
`Game` protocol), so DIRT's stages list here the day DIRT is registered, with no change. The
difficulty is `StageFacts.difficulty`, one formula for every game (bot/engine/core/difficulty.py),
shown as 1 to 5 stars. A reply is one Discord message: lines that would pass 2,000 characters in
the reader's language are left off for a last "… and N more" line.
"""

from __future__ import annotations

import logging

from bot import games
from bot.engine.core.errors import RallyError
from bot.engine.core.game import StageFacts
from bot.engine.core.text import msg
from bot.services.alt_text import described
from bot.services.errors import ServiceError
from bot.services.images import Renderer, draw_async, image_name, preview_spec
from bot.services.reply import Reply
from bot.services.stage_words import LENGTH_CLASS as LENGTH_CLASS
from bot.services.stage_words import LENGTH_UNIT as LENGTH_UNIT
from bot.services.stage_words import MAX_STARS as MAX_STARS
from bot.services.stage_words import length_text, stars
from bot.services.stage_words import size_text as size_text

log = logging.getLogger(__name__)


def list_line(facts: StageFacts) -> str:
    """One stage: name, title, length, zones (when the game has zones) and stars."""
    if facts.zones:
        return msg("stages.list_line_zones", name=facts.name, title=facts.title, length=length_text(facts),
                   zones=" ".join(facts.zones), stars=stars(facts.difficulty))
    return msg("stages.list_line", name=facts.name, title=facts.title, length=length_text(facts),
               stars=stars(facts.difficulty))


def stage_list(game: str | None, lang: str) -> Reply:
    """`/stage list [game]`: every shipped stage of the game (default: the default game), privately
    (in as many messages as it takes). A stage file that cannot be read (not UTF-8, unreadable,
    invalid) is listed by its name as unreadable, its fault logged for the host; the other stages
    are listed as usual."""
    played = games.get(game)
    library = played.library.stages
    lines = [msg("stages.list_head", game=msg(played.library.name))]
    for name in library.names():
        try:
            lines.append(list_line(library.facts(name)))
        except RallyError as exc:
            log.warning("stage %s of %s cannot be listed: %s", name, played.id, exc)
            lines.append(msg("stages.list_unreadable", name=name))
    return Reply(lines, ephemeral=True)


def facts_of(game: str | None, name: str) -> tuple[str, StageFacts]:
    """(the game's id, the stage's facts); an unknown game or stage is refused naming what exists."""
    played = games.get(game)
    library = played.library.stages
    wanted = name.strip()
    if not wanted or not library.exists(wanted):
        raise ServiceError("stages.unknown", name=wanted[:40], game=msg(played.library.name),
                           stages=", ".join(library.names()))
    return played.id, library.facts(wanted)


async def stage_show(game: str | None, name: str, lang: str, renderer: Renderer | None) -> Reply:
    """`/stage show name [game]`: the stage's facts and its preview image (when there is a renderer:
    the console without `--out` has none), privately."""
    game_id, facts = facts_of(game, name)
    lines = [msg("stages.show_head", title=facts.title, name=facts.name, length=length_text(facts),
                 stars=stars(facts.difficulty), difficulty=facts.difficulty)]
    if facts.zones:
        lines.append(msg("stages.show_zones", zones=", ".join(facts.zones)))
    lines.append(msg("stages.show_counts", corners=facts.corners, tight=facts.tight, hazards=facts.hazards))
    files: tuple[tuple[str, bytes], ...] = ()
    if renderer is not None:
        spec = preview_spec(facts.name, game_id)
        files = ((image_name(spec), await draw_async(renderer, spec, lang)),)
        return Reply(lines, ephemeral=True, files=files, alt=described(files, spec, lang))
    return Reply(lines, ephemeral=True, files=files)
