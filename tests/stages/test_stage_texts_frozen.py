"""Shipped stage texts are frozen once released: a result card names the SHA-256 of the text its
run was driven on (bot/services/cards.py), and must verify in every later version of the bot. A
changed stage gets a new name; this test fails when a shipped file is edited in place."""

from __future__ import annotations

from bot.engine.rallyman.stages.catalogue import stage_digest
from bot.engine.rallyman.stages.loader import stage_names

FROZEN = {
    "black-moor": "cd6f77ef2cb2112781ae9c802550cd92987f3d81e2132a5f7a93c974c146b8f3",
    "frozen-lakes": "179651beb25f3ef8a2211cd7aa1e1ceb5dea0edd42a1a2dfcc90da3b83d7c485",
    "grand-marathon": "2938909e9039f08de35f17d4297cdde978ce657d2decb25e4102ac3d5afbe212",
    "greystone-col": "18f7ad0b1a1dcb476dde0aa69a62dcf4b5e00975bb467983a19e33e06c010f6a",
    "hollowell-winter": "98b8986ba627bc6e57d7338a4a4d5b574d82c8d574f120c8aaaa6f064cad1727",
    "millbrook-lakes": "c8fb6e020511bed978702b9dc880c68f526c6ff1fc1471dc8d51aa25ad7ee0ef",
    "pinewood-sprint": "7604fc72db1436e4faebd6b7191ee4b4a9d7a823067fe5921e1066886bd93ac0",
    "quarry-switchbacks": "70f7337a8dfb8edf053ec0db5af65e188c79e2a86abbfe759aca6ace04182816",
    "ridge-and-moor": "fbcd5087da7395a6c857decd9f7cf0616a361fe42db8250cc30fd950c8ec4f24",
}


def test_every_shipped_stage_text_keeps_the_digest_its_result_cards_name():
    assert sorted(stage_names()) == sorted(FROZEN), "a new stage: add its digest here once released"
    assert {name: stage_digest(name) for name in FROZEN} == FROZEN


def test_generated_stages_are_frozen_too():
    """The generator is part of the stage text: changing its output breaks old cards."""
    assert stage_digest("gen-7-30") == stage_digest("gen-7")  # the default length is 30
    assert stage_digest("gen-7") == "5af834b61ac63f0761365e88a29b1394d3581a236b02310c7ff4777005946b3e"
    # the official stage of 2026-W48
    assert stage_digest("gen-790266251-28") == "d12f11729a8d56ab61eabec584e9283fba305685b42932a4ad314824a54c787e"
