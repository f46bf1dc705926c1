"""The token never shows: `python -m bot` started for real (its own process, the log as
configured by `run`, at DEBUG) with a login that fails without the network, Discord's answer
quoting the token (and discord.py logging it), prints the token nowhere: not in the log, not
on stdout or stderr, not in a traceback. And `.env`, where the README puts it, is ignored by git."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTAxMjM0NTY3ODkw.GfakeX.secret-part-of-the-fake-token_0123456789abcdef"

#: the bot's real entry, with discord.py's HTTP login replaced: it logs the token as a careless
#: library could, then fails the way Discord answers (a 401 becomes LoginFailure, a 5xx stays)
ENTRY = """
import logging, sys
import discord, discord.http

class Answer:
    status, reason, headers = {status}, "Refused", {{}}

async def login(self, token):
    logging.getLogger("discord.http").debug("logging in with %s", token)
    logging.getLogger("discord.http").warning("Authorization: Bot " + token)
    error = discord.HTTPException(Answer(), {{"code": 0, "message": "bad token " + token}})
    if {status} == 401:
        raise discord.LoginFailure("Improper token has been passed: " + token) from error
    raise error

discord.http.HTTPClient.static_login = login
from bot.__main__ import main
sys.exit(main({argv}))
"""


@pytest.mark.parametrize("status, argv", [(401, []), (503, ["run"]), (401, ["sync"]), (503, ["sync"])],
                         ids=["login-failure", "server-error", "sync-login-failure", "sync-server-error"])
def test_the_token_is_never_printed_or_logged(tmp_path, status, argv):
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DEV_GUILD_ID")}
    env.update(DISCORD_TOKEN=TOKEN, LOG_LEVEL="DEBUG", RALLYBOT_DOTENV="/nonexistent",
               RALLYBOT_DB=str(tmp_path / "token.sqlite3"))
    result = subprocess.run([sys.executable, "-c", ENTRY.format(status=status, argv=argv)], capture_output=True,
                            text=True, cwd=ROOT, timeout=120, env=env)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "logging in with [token]" in output and "Authorization: Bot [token]" in output  # the log was written
    assert ("bad token [token]" in output) == (status == 503)  # the stopping failure is told, hidden
    assert TOKEN not in output and TOKEN.split(".")[2] not in output


def test_git_ignores_the_dotenv_file_but_not_an_example():
    ignored = subprocess.run(["git", "check-ignore", "--no-index", ".env", ".env.production", ".env.example"],
                             capture_output=True, text=True, cwd=ROOT)
    assert ignored.stdout.split() == [".env", ".env.production"]


def test_the_settings_never_show_the_token():
    from bot.config import Settings

    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN})
    assert settings.token == TOKEN and TOKEN not in repr(settings) and TOKEN not in str(settings)
