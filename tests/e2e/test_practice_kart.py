"""The guided first hand of Kart Okey on a practice table (games/templates/games/_practice_bar.html,
static/js/practice.js): started from the home page's game choice, its own steps (your ten cards,
drawing or taking, runs and sets, laying off, the discard, going out, going rummy +25), each
lighting its part of the table, remembered apart from classic Okey's and 101's; a step that waits
for a moment of the player's turn moves on when the table script reports it (the "okey:tutorial"
event)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import services
from games.models import Hand, PracticeTable
from tests.conftest import make_salon
from tests.e2e.table_helpers import VIEWPORTS, in_thread
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TITLES = ["Kartlarınız", "Kart çekmek", "Seri ya da per indirmek", "İşlemek", "Kart atmak", "Çıkmak",
          "Okey yapmak", "Hazırsınız"]
TARGETS = ["#rack", "#centre", "#rack", "#melds", "#discard-pile", None, None, None]


def open_kart_practice(page):
    page.goto("/")
    page.get_by_label("Oyun", exact=True).select_option("kart")
    page.get_by_test_id("practice").click()
    expect(page.get_by_test_id("practice-bar")).to_be_attached()  # (hidden on a narrow phone: table.css)
    expect(page.locator("#okey-table")).to_have_attribute("data-game", "kart")


def lit(page) -> list[str]:
    return page.evaluate("() => [...document.querySelectorAll('.tutorial-target')].map((el) => '#' + el.id)")


def moment(page, name: str) -> None:
    page.evaluate(f"""() => document.dispatchEvent(new CustomEvent('okey:tutorial', {{ detail: {{ moment: '{name}' }} }}))""")


@pytest.mark.parametrize("viewport", ["portrait", "desktop"])
def test_the_kart_practice_table_guides_the_first_hand_step_by_step(new_page, asgi_live_server, viewport):
    make_salon("genel", name="Genel")
    person = make_user("Kartçı")
    page = new_page(person, viewport=VIEWPORTS[viewport])
    open_kart_practice(page)
    assert PracticeTable.objects.get(user=person).table.room.rules["game"] == "kart"
    tutorial = page.get_by_test_id("tutorial")
    expect(tutorial).to_be_visible()
    expect(tutorial.locator("[data-tutorial-steps]")).to_have_text(str(len(TITLES)))
    expect(tutorial.locator("#tutorial-title")).to_have_text(TITLES[0])
    expect(tutorial).to_contain_text("10 kart")
    assert lit(page) == ["#rack"]
    # The guide and its buttons stay on screen; the page never scrolls sideways.
    width = page.viewport_size["width"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    for part in (tutorial, tutorial.get_by_role("button", name="İleri"), tutorial.get_by_role("button", name="Geç")):
        box = part.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1

    next_button = tutorial.get_by_role("button", name="İleri")
    next_button.click()
    expect(tutorial.locator("#tutorial-title")).to_have_text(TITLES[1])
    assert lit(page) == ["#centre"]
    # A moment this step does not wait for changes nothing; the one it waits for moves it on.
    moment(page, "discarded")
    expect(tutorial.locator("#tutorial-title")).to_have_text(TITLES[1])
    moment(page, "drew")
    expect(tutorial.locator("#tutorial-title")).to_have_text(TITLES[2])
    expect(tutorial).to_contain_text("Seri aynı türden en az üç ardışık karttır")
    assert page.evaluate("() => window.okeyTutorial.step()") == "meld"
    assert page.evaluate("() => window.okeyTutorial.moment('melded')") is True
    expect(tutorial.locator("#tutorial-title")).to_have_text(TITLES[3])
    assert lit(page) == ["#melds"]
    moment(page, "laid_off")
    expect(tutorial.locator("#tutorial-title")).to_have_text(TITLES[4])
    assert lit(page) == ["#discard-pile"]
    next_button.click()
    expect(tutorial.locator("#tutorial-title")).to_have_text(TITLES[5])
    assert lit(page) == []
    next_button.click()
    expect(tutorial.locator("#tutorial-title")).to_have_text(TITLES[6])
    expect(tutorial).to_contain_text("+25")
    next_button.click()
    expect(tutorial.locator("#tutorial-title")).to_have_text(TITLES[7])
    tutorial.get_by_role("button", name="Başla").click()
    expect(tutorial).to_be_hidden()
    # Remembered for Kart Okey only: classic Okey's and 101's first hands are still to be shown.
    seen = page.evaluate("""() => ['okey.tutorial.seen', 'okey101.tutorial.seen', 'kart.tutorial.seen']
      .map((key) => localStorage.getItem(key))""")
    assert seen == [None, None, "1"]
    page.reload()
    expect(page.locator("#okey-table")).to_have_attribute("data-game", "kart")
    expect(tutorial).to_be_hidden()
    # "Nasıl oynanır?" opens it again at its first step.
    page.locator("[data-tutorial-open]").click()
    expect(tutorial.locator("#tutorial-title")).to_have_text(TITLES[0])


def bots_play_until_my_turn(table_id: int) -> Hand:
    for _ in range(12):
        hand = Hand.objects.filter(match__table_id=table_id).order_by("-number").first()
        if hand.turn_seat == 0 or hand.status != Hand.Status.PLAYING:
            return hand
        Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        in_thread(services.resolve_timeout, hand_id=hand.pk, move=hand.move)
    raise AssertionError("seat 0 never came to play")


def test_drawing_from_the_stock_through_the_page_moves_the_guide_on(new_page, asgi_live_server):
    make_salon("genel", name="Genel")
    person = make_user("Çekenci")
    page = new_page(person, viewport=VIEWPORTS["desktop"])
    open_kart_practice(page)
    table_id = PracticeTable.objects.get(user=person).table_id
    hand = bots_play_until_my_turn(table_id)
    page.reload()
    page.wait_for_function(f"() => window.__okeyTest && window.__okeyTest.lastFrame && "
                           f"window.__okeyTest.lastFrame.hand.move === {hand.move}")
    tutorial = page.get_by_test_id("tutorial")
    tutorial.get_by_role("button", name="İleri").click()
    expect(tutorial.locator("#tutorial-title")).to_have_text(TITLES[1])
    page.locator("#stock").click()
    # The draw went to the server and came back as the player's frame (the table's part works) ...
    page.wait_for_function("() => window.__okeyTest.sent.some((m) => m.type === 'draw') && "
                           "window.__okeyTest.lastFrame.hand.drawn === true")
    # ... and the table script reported it: the guide's drawing step is done.
    expect(tutorial.locator("#tutorial-title")).to_have_text(TITLES[2], timeout=5000)
