"""Every console session the README (and docs/*.md) shows is played verbatim in the console, in
its section's language, and nothing is refused that the text does not show refused.

A session is a ```text block whose lines are all `name: /command` (or `name@lang: /command`); it
is played with the options of the `python -m bot console …` command written last before it (its
`--seed`, `--now`, `--admins`, `--roles`, `--lang`), and by default in the section's language
("En français" in French, "Auf Deutsch" in German). A refusal is any reply the console builds from
an error (`error_reply`): its printed lines must appear in the same file, as a README that shows a
refusal on purpose does (an organiser's command tried by a plain member)."""

from __future__ import annotations

import asyncio
import io
import re
import shlex
from pathlib import Path

import pytest

from bot.console import autopilot as console_autopilot
from bot.console import loop as console_loop
from bot.console.clock import console_service, parse_now
from bot.console.loop import run_console
from bot.console.sender import Sender
from bot.services import errors as service_errors
from bot.services.reply import Reply
from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]
SESSION_LINE = re.compile(r"^[\w.-]+(@\w+)?: /\S")
HEADINGS = {"En français": "fr", "Auf Deutsch": "de"}


def _sessions() -> list[tuple[str, int, str, str]]:
    """(file, block number, console command, the block) of every console session, in order."""
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        command = "python -m bot console"
        section_lang = "en"
        pos = 0
        for n, block in enumerate(re.finditer(r"```text\n(.*?)```", text, flags=re.S)):
            before = text[pos:block.start()]
            for level, heading in re.findall(r"^(#+) (.*)$", before, flags=re.M):
                section_lang = next((lang for key, lang in HEADINGS.items() if heading.startswith(key)),
                                    "en" if level == "##" else section_lang)
            top = list(re.finditer(r"^## ", before, flags=re.M))
            if top:  # a new section: its own console command, if any
                command, before = "python -m bot console", before[top[-1].start():]
            commands = re.findall(r"`(python -m bot console[^`]*)`", before.replace("\n", " "))
            if commands:
                command = commands[-1]
            pos = block.end()
            lines = [line for line in block.group(1).splitlines() if line.strip()]
            if lines and all(SESSION_LINE.match(line) for line in lines):
                played = command if "--lang" in command or section_lang == "en" else f"{command} --lang {section_lang}"
                found.append((path.name, n, played, block.group(1)))
    return found


SESSIONS = _sessions()


def _options(command: str) -> dict[str, str]:
    words = shlex.split(command)[3:]
    return {words[i][2:]: words[i + 1] for i in range(0, len(words) - 1) if words[i].startswith("--")}


def test_the_readme_shows_sessions_in_every_language():
    langs = {_options(command).get("lang", "en") for _, _, command, _ in SESSIONS}
    assert langs == {"en", "fr", "de"} and len(SESSIONS) >= 8


async def _play(tmp_path: Path, command: str, session: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[str]]:
    options = _options(command)
    refusals: set[int] = set()
    refused: list[str] = []

    def recording_error_reply(exc: BaseException) -> Reply:
        reply = service_errors.error_reply(exc)
        refusals.add(id(reply))
        return reply

    original_show = Sender.show
    out = io.StringIO()

    async def show(self: Sender, name: str, reply: Reply) -> None:
        start = out.tell()
        await original_show(self, name, reply)
        if id(reply) in refusals:
            refused.extend(out.getvalue()[start:].splitlines())

    monkeypatch.setattr(console_loop, "error_reply", recording_error_reply)
    monkeypatch.setattr(console_autopilot, "error_reply", recording_error_reply)
    monkeypatch.setattr(Sender, "show", show)
    store = await Store.open(str(tmp_path / "session.sqlite3"))
    try:
        service = console_service(store, seed=int(options["seed"]) if "seed" in options else None,
                                  now=parse_now(options["now"]) if "now" in options else None)
        admins = [name for name in options.get("admins", "").split(",") if name]
        await run_console(session.splitlines(), service, out, admins=admins, lang=options.get("lang", "en"))
    finally:
        await store.close()
    return out.getvalue(), refused


@pytest.mark.parametrize(("file", "block", "command", "session"), SESSIONS,
                         ids=[f"{file}-{block}" for file, block, _, _ in SESSIONS])
def test_every_readme_session_plays_without_a_refusal_it_does_not_show(tmp_path, monkeypatch, file, block,
                                                                       command, session):
    text = (ROOT / file if file == "README.md" else ROOT / "docs" / file).read_text(encoding="utf-8")
    out, refused = asyncio.run(_play(tmp_path, command, session, monkeypatch))
    assert out.strip()
    unshown = [line for line in refused if line not in text]
    assert not unshown, f"{file} block {block} ({command}) refused: {unshown}"
