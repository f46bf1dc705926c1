"""Images for spectators, pure Pillow: a view and options in, PNG bytes out. Shared here: the league
tables (`render_table(table_view)`: round results, season standings, world ranking), and what
every game's pictures draw with (drawing, fonts, palette, header, encoding, caches). Each game's
own pictures are in `bot/render/<game>/`, drawn through its painter (`bot.render.painter`: the typed
seam, the shared board frame and encoding; the registry, bot.games `painter`, hands each game's).

Every word an image prints is in `RenderOptions.lang` (the catalogue's `render.` keys,
see bot.render.words); a league table's texts may be messages (`Msg`), shown in that language too.

No discord and no database here: the bot draws in worker processes (bot.services.images).
"""

from __future__ import annotations

from bot.render.encode import to_png
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.table import TableView, table_image

__all__ = ["RenderOptions", "TableView", "render_table"]


def render_table(view: TableView, options: RenderOptions | None = None) -> bytes:
    """PNG of a league table (see bot.render.table)."""
    options = options or DEFAULT_OPTIONS
    return to_png(table_image(view, options), options.compress_level, options.palette)
