"""The services post real images: a board when a turn changes hands, results at the end."""

from __future__ import annotations

from bot.engine.rallyman.simulate import play_stage
from bot.services import RallyService
from bot.services.images import default_renderer, draw, results_of
from tests.services.conftest import BOB, HERE, running_rally

PNG = b"\x89PNG\r\n\x1a\n"


async def _image_of(store, reply):
    (row_id,) = reply.outbox
    row = await store.outbox.get(row_id)
    return row.body["image"]


async def test_start_and_end_of_turn_post_a_board_png(store):
    service = RallyService(store, seed_source=lambda: 1)
    started = await running_rally(service)
    spec = await _image_of(store, started)  # the post owes a board, drawn when it is delivered
    assert spec["kind"] == "board" and draw(default_renderer(), spec).startswith(PNG)
    mid = await service.act(HERE, BOB, "1")
    assert await _image_of(store, mid) is None  # mid-turn: text only, the channel stays readable
    done = await service.act(HERE, BOB, "stop")
    assert draw(default_renderer(), await _image_of(store, done)).startswith(PNG)


def test_results_image_of_a_finished_special():
    state, _ = play_stage("pinewood-sprint", drivers=3, seed=4)
    image = default_renderer().results("rallyman", results_of(state))
    assert state.finished and image.startswith(PNG) and len(image) > 5000
