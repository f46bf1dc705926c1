"""`python -m bot console --web PORT` fed by a pipe that stays open: the console reads its input
off the event loop (bot/console/loop.py), so the web page answers while the pipe waits for its
writer, and the lines written meanwhile are still answered."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WAIT = 60  # seconds: a start-up on a loaded machine; a hung page fails long before the test's own limit


def _lines(stream, into: queue.Queue[str]) -> None:
    for line in stream:
        into.put(line)


def _until(out: queue.Queue[str], pattern: str) -> re.Match[str]:
    while True:
        line = out.get(timeout=WAIT)
        found = re.search(pattern, line)
        if found:
            return found


def test_the_web_page_answers_while_the_piped_input_stays_open(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "bot", "console", "--db", str(tmp_path / "c.sqlite3"),
                             "--web", "0", "--seed", "1"], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    out: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_lines, args=(proc.stdout, out), daemon=True).start()
    try:
        address = _until(out, r"web page: (http://127\.0\.0\.1:\d+/?)").group(1)
        assert proc.stdin is not None
        proc.stdin.write("alice: /rally create stage:pinewood-sprint\n")
        proc.stdin.flush()  # the pipe stays open: the console waits for the next line
        _until(out, r"alice opens a rally")  # the line written is answered meanwhile
        with urllib.request.urlopen(address, timeout=WAIT) as answer:
            assert answer.status == 200
            assert b"<html" in answer.read()
        try:
            urllib.request.urlopen(address.rstrip("/") + "/rally/999", timeout=WAIT)
        except urllib.error.HTTPError as exc:
            assert exc.code == 404  # the page answers meanwhile, and not only its home page
        else:
            raise AssertionError("no rally 999, yet it was answered")
    finally:
        if proc.stdin is not None:
            proc.stdin.close()
        proc.send_signal(signal.SIGINT)
        proc.wait(WAIT)
