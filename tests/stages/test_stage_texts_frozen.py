"""Shipped stage texts are frozen once released: a result card names the SHA-256 of the text its
run was driven on (bot/services/world/cards.py), and must verify in every later version of the bot. A
changed stage gets a new name; this test fails when a shipped file is edited in place."""

from __future__ import annotations

from bot.engine.rallyman.stages.catalogue import stage_digest
from bot.engine.rallyman.stages.loader import stage_names

FROZEN = {
    "black-moor": "cd6f77ef2cb2112781ae9c802550cd92987f3d81e2132a5f7a93c974c146b8f3",
    "brackenford-winter": "03afddc93df4dc4407146237c5941b471ddc0126f830c5d738c4b24474b0ed13",
    "coastal-classic": "cfb5ae64b62f2e3faf5f87ae5b859e4db4f4e4ddc90e6936bfa4b7081164c253",
    "elkhorn-snow": "aeaca9b6737e97e48df56ffb03170b64033dfa11f00cb42d673d4e7f75a2790e",
    "fjord-run": "8c14223b1b06306402f626d45349fdbe05c72babce80c60fb9593c7d23582d97",
    "forest-and-pass": "23a7553ec6721ddb0c1c4327e003a9eb85cdf2f7bf814588633c58963d8ddd26",
    "frozen-lakes": "179651beb25f3ef8a2211cd7aa1e1ceb5dea0edd42a1a2dfcc90da3b83d7c485",
    "grand-marathon": "2938909e9039f08de35f17d4297cdde978ce657d2decb25e4102ac3d5afbe212",
    "greystone-col": "18f7ad0b1a1dcb476dde0aa69a62dcf4b5e00975bb467983a19e33e06c010f6a",
    "hartwood-gravel": "bdb802042677903d3ef29ab67131e1fb28db17587542911fbac5777303da8c1a",
    "hollowell-winter": "98b8986ba627bc6e57d7338a4a4d5b574d82c8d574f120c8aaaa6f064cad1727",
    "iron-sprint": "6bd7a390251d79a0c097c2e906d0621a10a9f044a8b7eccc75f269e647adb730",
    "ironside-climb": "7f1c7bd455d62cb84d6191567b5c8c54f75b159a8bc2cdcbd2806ca19dd589d6",
    "kestrel-lanes": "a3e6103580cb0c24c683fb79e38ccb21e5f4339e12bb49d254844279c83b09e8",
    "marsh-dash": "43a5d32e8f19d2aa9a5a79ae46f1e554a46054c1abf9a35c6e2a213810a62dc9",
    "millbrook-lakes": "c8fb6e020511bed978702b9dc880c68f526c6ff1fc1471dc8d51aa25ad7ee0ef",
    "northern-marathon": "fec55717204277fcb7be171bfdcf6b5f5673699b05c952bf8e4566124943560b",
    "pinewood-sprint": "7604fc72db1436e4faebd6b7191ee4b4a9d7a823067fe5921e1066886bd93ac0",
    "quarry-switchbacks": "70f7337a8dfb8edf053ec0db5af65e188c79e2a86abbfe759aca6ace04182816",
    "ridge-and-moor": "fbcd5087da7395a6c857decd9f7cf0616a361fe42db8250cc30fd950c8ec4f24",
    "saltmarsh-causeway": "61dadcf4fc77a8e2a213062cd9d7d75e86bd33079e8c2395ac84160b3f83dcf6",
    "village-tour": "1ccad148b561ee420b4cb6c72d758d22eff06999c35822b5eb5894f56f34fa2c",
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
