"""The services' renderer: board, results and preview images from bot.render, or none."""

from __future__ import annotations


class PillowRenderer:
    """Adapter from the services' `Renderer` protocol to the pure functions of bot.render."""

    def board(self, stage, view) -> bytes:
        from bot.render import render_board

        return render_board(stage, view)

    def preview(self, stage) -> bytes:
        from bot.render import render_stage_preview

        return render_stage_preview(stage)

    def results(self, state) -> bytes:
        from bot.render import render_results
        from bot.engine.results import results_view

        return render_results(results_view(state))


def default_renderer() -> PillowRenderer:
    return PillowRenderer()
