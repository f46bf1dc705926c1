"""The bot process imports what it needs to answer, not what only rare commands or the web page's
own process use: its start-up time is mostly imports (`bench live`'s `startup_s`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Loaded only where used: the web page's site (its own child process, bot/web/child.py) and the
#: `/league calendar` export's iCalendar library.
NOT_AT_START = ("bot.web.app", "bot.web.site", "aiohttp.web", "jinja2", "icalendar")


def test_the_bot_process_does_not_import_the_web_page_nor_icalendar():
    code = "import sys, bot.client; print(' '.join(sorted(sys.modules)))"
    loaded = set(subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                                check=True, timeout=120).stdout.split())
    assert "bot.web.child" in loaded  # the scan sees the bot's own modules
    assert [name for name in NOT_AT_START if name in loaded] == []
