"""`make screenshots`, the Kart Okey table (run from screenshots.py): a rigged round played through
the page and pictured at each moment — mid-hand (three players' runs and sets on the table, the
person's hand of 11 with a meld staged, dashed, and cards picked) and the result (going out: every
player's cards left, their values, the round's scores and the totals) — at a desktop, a portrait
phone and a phone on its side, in Turkish and English (English needs the compiled catalogue)."""

from __future__ import annotations

import pathlib

import pytest
from playwright.sync_api import expect

from tests.e2e.kart_helpers import rig, table_kart
from tests.e2e.table_helpers import VIEWPORTS, open_table
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

OUT = pathlib.Path(__file__).resolve().parents[2] / "screenshots"

PERSON = "K5 K6 K7 K8 M9 R9 S9 S2 S3 S4"
OTHERS = ["M2 M3 R5 R7 S10 SJ SQ KA KQ M10", "RA R6 R8 S5 S6 MK MQ MJ K2 K3", "RJ R10 K4 K9 M8 M10 SA K10 KJ MA"]
MELDS = [(1, "run", "M4 M5 M6 M7"), (2, "set", "R10 S10 K10"), (3, "run", "RJ RQ RK")]


@pytest.mark.parametrize("language", ["tr", "en"])
def test_kart_table_screenshots(new_page, asgi_live_server, language):
    person = make_user("Ayşe" if language == "tr" else "Alice")
    table = table_kart(person, name="Kart masası" if language == "tr" else "Rummy room", prize_pool=400)
    rig(table, hands=[PERSON, *OTHERS], discard="SK", stock=["RK"], melds=MELDS,
        melded=[True, True, True, True])
    page = new_page(person, viewport=VIEWPORTS["desktop"], language="tr-TR" if language == "tr" else "en-GB")
    if language == "en":
        page.context.add_cookies([{"name": "django_language", "value": "en", "url": asgi_live_server.url}])
    open_table(page, table)
    OUT.mkdir(exist_ok=True)
    page.emulate_media(reduced_motion="reduce")

    def shots(moment: str) -> None:
        for name, viewport in VIEWPORTS.items():
            page.set_viewport_size(viewport)
            page.wait_for_timeout(200)
            page.screenshot(path=str(OUT / f"{language}-tablekart-{moment}-{name}.png"))
        page.set_viewport_size(VIEWPORTS["desktop"])
        page.wait_for_timeout(150)

    def pick(*cards: str) -> None:
        for card in cards:
            page.locator(f'#rack .kcard[data-card="{card}"]:not(.selected)').first.click()

    page.locator("#stock").click()
    expect(page.locator("#rack .kcard")).to_have_count(11)
    pick("K5", "K6", "K7", "K8")
    page.locator("#btn-meld").click()
    pick("M9", "R9")
    shots("midhand")
    pick("S9")
    page.locator("#btn-meld").click()
    pick("S2", "S3", "S4")
    page.locator("#btn-meld").click()
    pick("RK")
    page.locator("#btn-discard").click()
    expect(page.locator("#announce")).to_be_visible()
    shots("announce")
    expect(page.locator("#result-dialog")).to_be_visible(timeout=10_000)
    shots("result")
