"""Every console session the README and docs/ (every Markdown file, in every folder) show is played
verbatim in the console, in its section's language, and nothing is refused that the text does not
show refused; and every command written in the prose is one the bot has, with options it has.

A session is a ```text block whose lines are all `name: /command` (or `name@lang: /command`); it
is played with the options of the `python -m bot console …` command written last before it (its
`--seed`, `--now`, `--admins`, `--roles`, `--lang`), and by default in the section's language
("En français" in French, "Auf Deutsch" in German). A refusal is any reply the console builds from
an error (`error_reply`): its printed lines must appear in the same file, as a page that shows a
refusal on purpose does (an organiser's command tried by a plain member). A console line anywhere
else in a code block (a block mixing such lines with others, or one fenced as `sh`) would not be
played: that fails, so no session is dropped silently when the text moves.

A command in the prose is inline code starting with `/` (`/roll 3 white`, `/rally join|leave`,
`/course rejoindre` in the French guide) or `python -m bot …` (also the `python -m bot` lines of
`sh` blocks): the slash command must be one of the console's command table (the slash command
tree's options, `bot.console.options`, plus the console's own `/clock` and `/autopilot`), by its
English name or its name in the section's language, with only options it has; the `python -m bot`
command must name a subcommand its parser has, with only options it has and, where the parser
lists the values, one of them (an upper-case word such as `NAME` or `PATH` stands for any value).
Inline code whose first word holds another `/` is a path (`/tmp/demo`, `/rally/N/replay`), not a
command. A prose command that needs nothing before it (`/rally create …`, `/league create …`,
`/rules game:dirt`), written whole with its options (no `[optional]`, `a|b`, `…` or `NAME`), is also
played, in a fresh console of its section's language by a member with Manage Server, and must not
be refused."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import io
import itertools
import re
import shlex
from pathlib import Path

import pytest

from bot.__main__ import build_parser
from bot.cli.stage import PREFIX, tool_games
from bot.console import autopilot as console_autopilot
from bot.console import loop as console_loop
from bot.console.clock import console_service, parse_now
from bot.console.errors import ConsoleError
from bot.console.lines import split_command
from bot.console.loop import run_console
from bot.console.options import OPTIONS, check_options
from bot.console.sender import Sender
from bot.games import TOOLS
from bot.i18n import catalogue
from bot.services import errors as service_errors
from bot.services.reply import Reply
from bot.store import Store
from tests.docs_text import ROOT, doc_files

SESSION_LINE = re.compile(r"^[\w.-]+(@\w+)?: /\S")
HEADINGS = {"En français": "fr", "Auf Deutsch": "de"}
FENCE = re.compile(r"^[ \t]*```([\w-]*)\n(.*?)^[ \t]*```", flags=re.S | re.M)  # also in a list item
#: the console's commands: the slash command tree's (with their options) and its own
CONSOLE_OWN = ("clock", "autopilot")
#: the names of command groups (`/league round add` is in `league`)
GROUPS = frozenset(name.split()[0] for name in OPTIONS if " " in name)


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _walk(text: str):
    """(fenced block match, the section's language, the console command in force) of every code
    block of a page, in order: a `##` heading starts a section (its own console command, its own
    language, English unless its heading is French or German)."""
    command, section_lang, pos = "python -m bot console", "en", 0
    for block in FENCE.finditer(text):
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
        yield block, section_lang, command


def _scan() -> tuple[list[tuple[str, int, str, str]], list[str]]:
    """The sessions to play, (file, block number, console command, the block), and the console
    lines of any other code block (which nothing would play)."""
    found, strays = [], []
    for path in doc_files():
        text = path.read_text(encoding="utf-8")
        for n, (block, section_lang, command) in enumerate(_walk(text)):
            kind, body = block.group(1), block.group(2)
            lines = [line for line in body.splitlines() if line.strip()]
            console_lines = [line for line in lines if SESSION_LINE.match(line.strip())]
            if kind == "text" and lines and all(SESSION_LINE.match(line) for line in lines):
                played = command if "--lang" in command or section_lang == "en" else f"{command} --lang {section_lang}"
                found.append((_name(path), n, played, body))
            else:
                strays += [f"{_name(path)} block {n} (```{kind}): {line}" for line in console_lines]
    return found, strays


SESSIONS, STRAYS = _scan()


def _options(command: str) -> dict[str, str]:
    words = shlex.split(command)[3:]
    return {words[i][2:]: words[i + 1] for i in range(0, len(words) - 1) if words[i].startswith("--")}


def test_the_readme_and_docs_show_sessions_in_every_language():
    langs = {_options(command).get("lang", "en") for _, _, command, _ in SESSIONS}
    assert langs == {"en", "fr", "de"} and len(SESSIONS) >= 11
    assert {file for file, _, _, _ in SESSIONS} > {"README.md", "docs/console.md", "docs/languages.md"}


def test_no_console_line_sits_in_a_block_that_is_not_played():
    assert not STRAYS, "console lines no test plays (a ```text block of `name: /command` lines only is played):\n" \
        + "\n".join(STRAYS)


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
    text = (ROOT / file).read_text(encoding="utf-8")
    out, refused = asyncio.run(_play(tmp_path, command, session, monkeypatch))
    assert out.strip()
    unshown = [line for line in refused if line not in text]
    assert not unshown, f"{file} block {block} ({command}) refused: {unshown}"


# -- the commands written in the prose -----------------------------------------------------------

def _alternatives(token: str) -> list[str]:
    """`join|leave` → both; `[off|turns:N]` → `off`, `turns:N`; `order:joined|random` is one
    option whose values are listed, and `[end:yes]` an optional part."""
    options = token.split("|")
    if ":" in options[0] and not any(":" in other for other in options[1:]):
        options = [token]
    return [option.strip("[]") for option in options if option.strip("[]")]


def _localized(lang: str) -> dict[str, set[str]]:
    """A command, group or option name as Discord shows it in `lang` → the names it stands for."""
    names: dict[str, set[str]] = {}
    if lang != "en":
        for key, shown in catalogue(lang).items():
            if key.startswith("name.") and " " not in shown:
                names.setdefault(shown.lower(), set()).add(key[len("name."):])
    return names


def slash_problems(span: str, lang: str = "en") -> list[str]:
    """What is wrong with a slash command written in the prose (nothing: an empty list)."""
    names = _localized(lang)
    problems = []
    tokens = span.split()
    for variant in itertools.product(*(_alternatives(token) for token in tokens)):
        words = [word for word in variant if word]
        if [word for word in words if word != "…"] in ([f"/{group}"] for group in GROUPS):
            continue  # a group named as such (`/steward`, `/league …`)
        candidates = [[]]  # the words in English, for each reading of a localized name
        for i, word in enumerate(words):
            key, colon, value = word.lstrip("/").partition(":")
            head = "/" if i == 0 else ""
            readings = {key} | names.get(key.lower(), set())
            candidates = [done + [head + reading + colon + value] for done in candidates for reading in readings]
        errors = []
        for candidate in candidates[:64]:
            try:
                cmd = split_command(" ".join(candidate))
                if cmd.name not in OPTIONS and cmd.name not in CONSOLE_OWN:
                    raise ConsoleError(f"no command /{cmd.name}")
                check_options(cmd)
            except (ConsoleError, ValueError) as exc:
                errors.append(str(exc))
            else:
                break
        else:
            problems.append(f"`{' '.join(words)}`: {errors[0]}")
    return problems


def _placeholder(word: str) -> bool:
    return bool(re.fullmatch(r"[A-Z][A-Z0-9_]*|<[^>]*>|…", word))


def _parser_problems(parser: argparse.ArgumentParser, args: list[str], said: str) -> list[str]:
    options = {name: action for action in parser._actions for name in action.option_strings}
    subparsers = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    positionals = [a for a in parser._actions if not a.option_strings and a is not subparsers]
    problems, i, at = [], 0, 0
    while i < len(args):
        word = args[i]
        if word.startswith("-") and len(word) > 1:
            name = word.split("=")[0]
            if name not in options:
                problems.append(f"`{said}`: no option {name}")
            elif options[name].nargs != 0 and "=" not in word:
                i += 1  # its value
            i += 1
            continue
        if subparsers is not None:
            if word not in subparsers.choices:
                return problems + [f"`{said}`: no command {word!r} (one of {', '.join(subparsers.choices)})"]
            return problems + _parser_problems(subparsers.choices[word], args[i + 1:], said)
        if at < len(positionals):
            action = positionals[at]
            if action.choices is not None and word not in action.choices and not _placeholder(word):
                problems.append(f"`{said}`: {word!r} is not one of {', '.join(map(str, action.choices))}")
            if action.nargs not in ("+", "*", "..."):
                at += 1
        i += 1
    return problems


def cli_problems(span: str) -> list[str]:
    """What is wrong with a `python -m bot …` command written in the prose."""
    try:
        words = shlex.split(span, comments=True)
    except ValueError:
        return [f"`{span}`: unbalanced quotes"]
    while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):  # `RALLYBOT_DB=… python -m bot web`
        words = words[1:]
    if words[:3] not in (["python", "-m", "bot"], ["python3", "-m", "bot"]):
        return [f"`{span}`: not a `python -m bot` command"]
    args = words[3:]
    if args[:1] == ["stage"]:  # the game's own stage tool parses what follows (bot/cli/stage.py)
        rest = args[1:]
        game = "rallyman"
        if "--game" in rest:
            at = rest.index("--game")
            game = rest[at + 1] if at + 1 < len(rest) else ""
            rest = rest[:at] + rest[at + 2:]
        if game not in tool_games():
            return [f"`{span}`: no game {game!r} has stage tools"]
        parser = argparse.ArgumentParser(prog="python -m bot")
        importlib.import_module(TOOLS[PREFIX + game]).register(parser.add_subparsers(dest="command"))
        return _parser_problems(parser, ["stage", *rest], span) if rest else []
    return _parser_problems(build_parser(), args, span)


def _prose(text: str) -> str:
    """A page without its code blocks and HTML comments (their lines kept, blank)."""
    text = FENCE.sub(lambda block: "\n" * block.group(0).count("\n"), text)
    return re.sub(r"<!--.*?-->", "", text, flags=re.S)


def _spans(text: str) -> list[tuple[str, str]]:
    """(the section's language, inline code) of a page's prose, a code span going on over one line
    break at most (never over a blank line)."""
    found, lang = [], "en"
    for part in re.split(r"^(#+ .*)$", _prose(text), flags=re.M):
        heading = re.match(r"(#+) (.*)", part)
        if heading:
            lang = next((code for key, code in HEADINGS.items() if heading.group(2).startswith(key)),
                        "en" if heading.group(1) in ("#", "##") else lang)
            continue
        for span in re.findall(r"`([^`]+)`", part):
            if "\n\n" not in span:
                found.append((lang, " ".join(span.split())))
    return found


def prose_problems(text: str) -> tuple[int, list[str]]:
    """(how many commands the prose of a page writes, what is wrong with them)."""
    checked, problems = 0, []
    for lang, span in _spans(text):
        first = span.split()[0]
        if span.startswith("/") and "/" not in first[1:]:
            checked += 1
            problems += slash_problems(span, lang)
        elif re.match(r"([A-Z_]+=\S* )*python3? -m bot\b", span):
            checked += 1
            problems += cli_problems(span)
    for block in FENCE.finditer(text):  # the `python -m bot` lines of shell blocks
        if block.group(1) in ("sh", "bash", "shell", ""):
            for line in block.group(2).splitlines():
                command = line.strip()
                if re.match(r"python3? -m bot\b", command):
                    checked += 1
                    problems += cli_problems(command.split("&&")[0])
    return checked, problems


def test_every_command_written_in_the_prose_is_one_the_bot_has():
    counted, problems = 0, []
    for path in doc_files():
        checked, found = prose_problems(path.read_text(encoding="utf-8"))
        counted += checked
        problems += [f"{_name(path)}: {problem}" for problem in found]
    assert counted >= 200, counted  # the pages write a few hundred; fewer means the scan lost them
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("written", "lang", "wrong"), [
    ("type `/roll 3 white` on your turn", "en", None),
    ("type `/rol 3 white` on your turn", "en", "/rol"),
    ("`/rally create stage:pinewood-sprint speed:9`", "en", "speed"),
    ("`/rally join|leave|bogus`", "en", "bogus"),
    ("organisers use `/steward`, `/league …`", "en", None),
    ("organisers use `/stewards`", "en", "stewards"),
    ("`/autopilot [off|turns:N]` and `/clock +3d`", "en", None),
    ("puis `/course rejoindre` et `/lancer 3 gaz`", "fr", None),
    ("puis `/course rejoindr`", "fr", "rejoindr"),
    ("dann `/rallye beitreten`", "de", None),
    ("run `python -m bot stage list --game dirt`", "en", None),
    ("run `python -m bot bench render --game dirt` or `python -m bot bench NAME`", "en", None),
    ("run `python -m bot bench speed`", "en", "speed"),
    ("run `python -m bot db backup --to x`", "en", "--to"),
    ("run `python -m bot consol --seed 1`", "en", "consol"),
    ("run `python -m bot stage generate --tilez 3`", "en", "--tilez"),
])
def test_a_wrong_command_planted_in_the_prose_fails_and_a_right_one_passes(written, lang, wrong):
    heading = {"en": "## Playing", "fr": "## En français", "de": "## Auf Deutsch"}[lang]
    checked, problems = prose_problems(f"{heading}\n\n{written}\n")
    assert checked >= 1
    if wrong is None:
        assert problems == []
    else:
        assert len(problems) == 1 and wrong in problems[0], problems


def test_a_path_in_the_prose_is_not_taken_for_a_command():
    assert prose_problems("`/rally/N/replay?turn=K`, `/league/N/calendar.ics` and `/tmp/demo.sqlite3`") == (0, [])


#: commands that need nothing before them: a prose one written whole is played in a fresh console
#: (one that shows what is stored, such as `/ratings`, is refused on an empty database: not played)
STANDALONE = frozenset({"rally create", "league create", "rules", "help", "stage list", "stage show"})


def _standalone() -> list[tuple[str, str, str]]:
    """(file, language, command) of every whole standalone command of the prose, once each."""
    found: dict[tuple[str, str], str] = {}
    for path in doc_files():
        for lang, span in _spans(path.read_text(encoding="utf-8")):
            if not span.startswith("/") or re.search(r"[\[\]|…@<]|\b[A-Z]{2,}\b", span):
                continue
            try:
                cmd = split_command(span)
            except ConsoleError:
                continue
            if cmd.name in STANDALONE and (cmd.words or cmd.options):  # a use, not a name in a list
                found.setdefault((lang, span), _name(path))
    return [(file, lang, span) for (lang, span), file in found.items()]


STANDALONE_COMMANDS = _standalone()


def test_the_prose_writes_standalone_commands_to_play():
    assert len(STANDALONE_COMMANDS) >= 10 and {lang for _, lang, _ in STANDALONE_COMMANDS} == {"en", "fr", "de"}


@pytest.mark.parametrize(("file", "lang", "command"), STANDALONE_COMMANDS,
                         ids=[f"{file}-{lang}-{command}" for file, lang, command in STANDALONE_COMMANDS])
def test_a_whole_standalone_command_of_the_prose_plays_in_a_fresh_console(tmp_path, monkeypatch, file, lang,
                                                                          command):
    out, refused = asyncio.run(_play(tmp_path, f"python -m bot console --admins mod --lang {lang}", f"mod: {command}",
                                     monkeypatch))
    assert out.strip() and not refused, f"{file}: `{command}` refused: {refused}"
