"""`make screenshots`, the 101 Okey table (run from screenshots.py): the rigged hand of
test_table_101.py played through the page, pictured at each moment — the opening being composed
with its live counter, the staged turn (dashed), mid-hand with every player's melds and a bot's
+101 in words, and the score sheet — at a desktop, a portrait phone and a phone on its side, in
Turkish and English."""

from __future__ import annotations

import pathlib

import pytest

from tests.e2e.table_helpers import VIEWPORTS, open_table
from tests.e2e.test_table_101 import WORDS, english, play_the_hand, table_101
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

OUT = pathlib.Path(__file__).resolve().parents[2] / "screenshots"


@pytest.mark.parametrize("language", ["tr", "en"])
def test_101_table_screenshots(new_page, asgi_live_server, language):
    person = make_user("Ayşe" if language == "tr" else "Alice")
    table = table_101(person, name="101 masası" if language == "tr" else "101 room")
    page = new_page(person, viewport=VIEWPORTS["desktop"], language="tr-TR" if language == "tr" else "en-GB")
    if language == "en":
        english(page, asgi_live_server)
    open_table(page, table)
    OUT.mkdir(exist_ok=True)
    page.emulate_media(reduced_motion="reduce")

    def shots(moment: str) -> None:
        for name, viewport in VIEWPORTS.items():
            page.set_viewport_size(viewport)
            page.wait_for_timeout(150)  # the rack's rows follow the new width
            page.screenshot(path=str(OUT / f"{language}-table101-{moment}-{name}.png"))
        page.set_viewport_size(VIEWPORTS["desktop"])
        page.wait_for_timeout(150)

    play_the_hand(page, table, WORDS[language], shots=shots)
