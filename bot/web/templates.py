"""The pages' templates (Jinja2, `bot/web/templates/*.html`), rendered in the reader's language.

Autoescape is on for every template: a driver's name, a league's name, anything that came from
Discord is text, never markup. Templates hold no words of their own: `t("web.key", …)` reads
the catalogue (`data/i18n/<lang>/web.json` and the bot's other files) in the page's language, and
`say(value)` shows a text the services made (a message, a list) in it. `rich` shows a catalogue
text's Discord markup (`**bold**`, `code`) as HTML, after escaping it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from bot.i18n import render, t

FOLDER = Path(__file__).resolve().parent / "templates"
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")


def rich(value: object, lang: str) -> Markup:
    """A text in `lang`, escaped, with Discord's bold and code marks as HTML."""
    text = str(escape(render(value, lang)))
    text = _BOLD.sub(r"<strong>\1</strong>", text)
    return Markup(_CODE.sub(r"<code>\1</code>", text))


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The one template environment (templates read once; the folder is fixed, never a request's path)."""
    return Environment(loader=FileSystemLoader(str(FOLDER)), autoescape=select_autoescape(default=True),
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def page(name: str, lang: str, **context: Any) -> str:
    """Template `name` filled with `context`, its words in `lang`."""
    template = environment().get_template(name)
    return template.render(lang=lang, t=lambda key, **params: render(t(key, lang, **params), lang),
                           say=lambda value: render(value, lang), rich=lambda value: rich(value, lang),
                           to=lambda path: keep_language(path, lang), **context)


def keep_language(path: str, lang: str) -> str:
    """A link of the site that keeps the page's language."""
    return f"{path}{'&' if '?' in path else '?'}lang={lang}"
