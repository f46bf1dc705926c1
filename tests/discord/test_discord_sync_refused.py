"""Discord refusing the slash commands (a 400 naming the fields it does not take, a 429, a 5xx):
the bot starts all the same and answers commands, the log names each refused command, option
and field, the sync is tried again at the next start (its hash is not recorded) and not in a
loop meanwhile; `python -m bot sync` prints the same lines and exits 1. The real tree syncs
through the fake Discord (`RecordingHTTP`: the PUT of the bulk overwrite)."""

from __future__ import annotations

import logging
from argparse import Namespace

import pytest
from discord import app_commands

from bot.cli import sync as sync_cli
from bot.client import RallyBot
from bot.services.command_sync import CommandSyncState
from bot.views.discord_errors import SyncFailed
from tests.discord.fakes import APP_ID, Harness, RecordingHTTP, Sent, http_error, private_answers

BOB = (1002, "Bob")
MAX_SAFE = "int value should be less than or equal to 9007199254740991."
EXPECTED = [f"`/rally results` option `rally` field `max_value`: {MAX_SAFE}",
            f"`/replay` option `rally` field `max_value`: {MAX_SAFE}"]


def _index(items: list[dict], name: str) -> str:
    (index,) = [str(i) for i, item in enumerate(items) if item["name"] == name]
    return index


def refusal(call: Sent) -> Exception:
    """Discord's answer to a bulk overwrite whose `/rally results rally:` and `/replay rally:`
    declare a max_value above 2^53 - 1: its errors tree, indexed in the commands as sent."""
    commands = call.body
    rally, replay = _index(commands, "rally"), _index(commands, "replay")
    results = commands[int(rally)]["options"][int(_index(commands[int(rally)]["options"], "results"))]
    too_big = {"max_value": {"_errors": [{"code": "NUMBER_TYPE_MAX", "message": MAX_SAFE}]}}
    errors = {
        rally: {"options": {_index(commands[int(rally)]["options"], "results"): {
            "options": {_index(results["options"], "rally"): too_big}}}},
        replay: {"options": {_index(commands[int(replay)]["options"], "rally"): too_big}},
    }
    return http_error(400, 50035, message="Invalid Form Body", errors=errors)


def puts(h: Harness) -> list[Sent]:
    return [c for c in h.sent if c.method == "PUT" and c.url.endswith(f"/applications/{APP_ID}/commands")]


async def test_a_refused_sync_is_logged_field_by_field_and_the_bot_answers_commands(tmp_path, caplog):
    db = tmp_path / "refused.sqlite3"
    h = Harness(db, sync=True)
    h.http.fail(refusal, times=1, path="/commands")
    with caplog.at_level(logging.INFO, logger="bot.client"):
        async with h:
            assert await h.bot.sync_at_start is False  # finished, refused, and the bot is up
            errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
            assert [f"Discord refused the slash commands (global): {line}" for line in EXPECTED] == errors[:2]
            assert "the next start tries again" in errors[2] and len(errors) == 3
            assert await CommandSyncState(h.bot.store).last_hash("global") is None  # not recorded
            calls = await h.command(BOB, "help")
            assert private_answers(calls) and "/rally" in private_answers(calls)[0]
            h.clock.advance(hours=1)
            await h.bot.sender.flush()
            assert len(puts(h)) == 1 and puts(h)[0].error is not None  # tried once: no loop
            h.http.fail(refusal, times=1, path="/commands")  # what discord.py makes of the answer
            with pytest.raises(SyncFailed) as caught:
                await h.bot.sync_commands(force=True)
            assert isinstance(caught.value.__cause__, app_commands.CommandSyncFailure)
            assert caught.value.lines == EXPECTED
    again = Harness(db, sync=True)  # the next start: Discord takes them now
    async with again:
        assert await again.bot.sync_at_start is True
        assert len(puts(again)) == 1 and puts(again)[0].error is None
        assert await CommandSyncState(again.bot.store).last_hash("global") is not None


@pytest.mark.parametrize("status", [429, 500, 503])
async def test_a_sync_discord_cannot_take_now_is_survived(tmp_path, caplog, status):
    """A 429 (Retry-After 600 s) or a 5xx: the bot runs, the log says which request and why."""
    h = Harness(tmp_path / f"sync{status}.sqlite3", sync=True)
    h.http.fail(http_error(status, retry_after=600 if status == 429 else None), times=1, path="/commands")
    with caplog.at_level(logging.INFO, logger="bot.client"):
        async with h:
            assert await h.bot.sync_at_start is False
            (line, *_) = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
            assert f"PUT /applications/{APP_ID}/commands: {status} " in line
            assert ("retry after 600" in line) == (status == 429)
            assert await CommandSyncState(h.bot.store).last_hash("global") is None
            assert private_answers(await h.command(BOB, "help"))


def test_the_sync_command_prints_what_discord_refused_and_exits_1(tmp_path, monkeypatch, capsys):
    sent: list[Sent] = []
    fake = RecordingHTTP(sent)
    fake.fail(refusal, times=1, path="/commands")

    async def fake_login(self, token):  # what login() does, with Discord's HTTP faked
        await self._async_setup_hook()
        self.http.request = fake
        self._connection.application_id = APP_ID
        await self.setup_hook()

    monkeypatch.setattr(RallyBot, "login", fake_login)
    for key, value in {"DISCORD_TOKEN": "fake-token-for-sync", "RALLYBOT_DOTENV": "/nonexistent",
                       "RALLYBOT_DB": str(tmp_path / "cli.sqlite3")}.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("DEV_GUILD_ID", raising=False)
    assert sync_cli.main(Namespace(guild=None)) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"Discord refused the slash commands (global): {line}" for line in EXPECTED]
    assert len([c for c in sent if c.method == "PUT"]) == 1
