"""Regenerate the phone pictures of docs/phone/: the web pages as a phone shows them and one board
of each game at the width Discord shows it on a phone.

    python tools/phone_shots.py            # writes docs/phone/*.png (needs Chromium and Playwright)
    python tools/phone_shots.py --boards   # only the three boards (Pillow alone)

The pages are the browser tests' own screenshots (tests/web/test_web_browser.py: the real web app
on loopback over a store filled through the real services, Chromium 412 px wide), kept by running
those tests with `RALLYBOT_ARTIFACTS` pointing at a scratch folder. The boards are drawn by the
bot's painters (a mid-stage classic board, a DIRT board, a Road Rally game played by the AI) at
their normal 1080 px and scaled to 380 px, as Discord's phone client shows them. Every picture is
reduced to 256 colours and cut to at most MAX_HEIGHT pixels so it stays small (< 300 KB).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "phone"
PHONE_BOARD = 380  # px: how wide a phone's Discord shows a picture
MAX_HEIGHT = 2400  # px: a page's screenshot is cut there (the top is what a reader sees first)
#: screenshot of the browser tests → file in docs/phone
PAGES = {"rally-after": "live-rally-en", "league-fr": "league-fr", "replay-en": "replay-en"}
TESTS = ("test_the_league_page_shows_its_standings_and_switches_to_french or "
         "test_a_running_rally_changes_its_board_and_log_without_a_reload or "
         "test_a_finished_rally_steps_through_its_replay")


def small(image: Image.Image, path: Path) -> None:
    """`image` as a 256-colour PNG at `path`, cut to MAX_HEIGHT."""
    image = image.convert("RGB")
    if image.height > MAX_HEIGHT:
        image = image.crop((0, 0, image.width, MAX_HEIGHT))
    image.quantize(256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def boards() -> dict[str, Image.Image]:
    """One board of each game as the bot draws it (1080 px wide)."""
    sys.path.insert(0, str(ROOT))
    from bot import games
    from bot.engine.dirt.stages.catalogue import load_stage as dirt_stage
    from bot.engine.rallyman.stages.loader import load_stage
    from bot.engine.roadrally.view import view
    from bot.render.dirt.sample import sample_view as dirt_sample
    from bot.render.options import RenderOptions
    from bot.render.rallyman.sample import sample_view
    from bot.render.roadrally.sample import NAMES, ai_game

    en = RenderOptions()
    classic, dirt = load_stage("black-moor"), dirt_stage("birch-ridge")
    road = ai_game("std-7", 5, 60)
    return {
        "board-classic": games.painter("rallyman").board((classic, sample_view(classic)), en),
        "board-dirt": games.painter("dirt").board((dirt, dirt_sample(dirt)), en),
        "board-roadrally": games.painter("roadrally").board((road.road, view(road, None), NAMES), en),
    }


def pages(folder: Path) -> None:
    """Run the browser tests keeping their screenshots in `folder`."""
    env = dict(os.environ, RALLYBOT_ARTIFACTS=str(folder))
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly",
                    "tests/web/test_web_browser.py", "-k", TESTS], cwd=ROOT, env=env, check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", action="store_true", help="only the boards (no browser)")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for name, image in boards().items():
        small(image.resize((PHONE_BOARD, round(image.height * PHONE_BOARD / image.width)), Image.LANCZOS),
              OUT / f"{name}.png")
    if not args.boards:
        with tempfile.TemporaryDirectory() as scratch:
            pages(Path(scratch))
            for shot, name in PAGES.items():
                with Image.open(Path(scratch) / f"{shot}.png") as image:
                    small(image, OUT / f"{name}.png")
    for path in sorted(OUT.glob("*.png")):
        print(f"{path.relative_to(ROOT)}  {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
