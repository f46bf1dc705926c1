"""The services post real images: a board when a turn changes hands, results at the end."""

from __future__ import annotations

from bot.engine.simulate import play_stage
from bot.services import RallyService
from bot.services.images import default_renderer
from tests.services.conftest import BOB, HERE, running_rally

PNG = b"\x89PNG\r\n\x1a\n"


async def test_start_and_end_of_turn_post_a_board_png(store):
    service = RallyService(store, renderer=default_renderer(), seed_source=lambda: 1)
    started = await running_rally(service)
    assert started.image is None and started.has_image  # text first, the board drawn by the poster
    assert (await started.resolve_image()).startswith(PNG)
    assert started.image.startswith(PNG) and started.render is None  # drawn once, kept
    mid = await service.act(HERE, BOB, "1")
    assert not mid.has_image  # mid-turn: text only, the channel stays readable
    done = await service.act(HERE, BOB, "stop")
    assert (await done.resolve_image()).startswith(PNG)


def test_results_image_of_a_finished_special():
    state, _ = play_stage("pinewood-sprint", drivers=3, seed=4)
    image = default_renderer().results(state)
    assert state.finished and image.startswith(PNG) and len(image) > 5000
