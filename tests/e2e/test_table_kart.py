"""The Kart Okey table in the browser (RULES.md "Kart Okey (source 004: a 52-card rummy)";
docs/protocol.md "Kart Okey tables"): cards drawn as cards, their rank and suit legible and inside
the screen at a desktop, a portrait phone and a phone on its side, a hand of 11 in one row with no
scrolling, sorted by suit and by rank, reordered by dragging; the stock drawn from, the discard pile
taken inside the turn, melds and a lay-off staged and sent whole with the discard; a turn the
server refuses said in its words with every card back in the hand; going out and going rummy
announced, and the result with every player's cards left (as cards), their values, the +25, the
round's scores and the totals.

The bots' turns are scripted (sent through ``services.play`` as their own moves)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engine.kart.cards import hand_value, parse_cards
from games.engine.kart.hand import HandKart
from tests.e2e.kart_helpers import CARD_NOTATION, current, rig, state_of, table_kart
from tests.e2e.table_helpers import VIEWPORTS, in_thread, open_table, visible_text
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NOTATION = re.compile(CARD_NOTATION)
# The person starts: ten cards, a run of hearts 5-7, three nines, clubs 2-4 and the king of
# diamonds; the discard pile's top is the spade 9; the stock's top the heart 8.
PERSON = "K5 K6 K7 M9 R9 S9 S2 S3 S4 RK"
OTHERS = ["M2 M3 M4 M5 R6 R7 S8 SJ SQ KA", "KQ KK RA R2 R3 S5 S6 MK MQ MJ", "RJ RQ S10 K10 K2 K3 M6 M7 M8 SK"]


def pick(page, *cards: str) -> None:
    """Tap each card once in the hand (a tap picks it; several are picked at once)."""
    for card in cards:
        page.locator(f'#rack .kcard[data-card="{card}"]:not(.selected)').first.click()


def drag(page, source, target, *, x_share: float = .5) -> None:
    box, goal = source.bounding_box(), target.bounding_box()
    page.mouse.move(box["x"] + min(box["width"] / 2, 12), box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(goal["x"] + goal["width"] * x_share, goal["y"] + goal["height"] / 2, steps=10)
    page.mouse.up()


def hand_order(page) -> list[str]:
    return page.locator("#rack .kcard").evaluate_all("(cards) => cards.map((c) => c.dataset.card)")


def frame(page) -> dict:
    return page.evaluate("() => window.__okeyTest.lastFrame")


def wait_move_after(page, move: int) -> None:
    page.wait_for_function("(m) => window.__okeyTest.lastFrame.move > m", arg=move, timeout=15_000)


@pytest.mark.parametrize("viewport", ["desktop", "portrait", "landscape"])
def test_cards_are_legible_and_a_hand_of_eleven_fits_sorts_and_reorders(new_page, asgi_live_server, viewport):
    person = make_user("Ayşe")
    table = table_kart(person)
    rig(table, hands=[PERSON, *OTHERS], discard="M10", stock=["K8"])
    page = new_page(person, viewport=VIEWPORTS[viewport])
    open_table(page, table)
    expect(page.locator("#rack .kcard")).to_have_count(10)
    expect(page.locator("#stock-count")).to_have_text(str(len(state_of(table).stock)))
    expect(page.locator('#discard-top .kcard[data-card="M10"]')).to_be_visible()
    # Draw from the stock: the heart 8 comes in, marked as just drawn; eleven cards in one row.
    page.locator("#stock").click()
    expect(page.locator('#rack .kcard.drawn[data-card="K8"]')).to_have_count(1)
    expect(page.locator("#rack .kcard")).to_have_count(11)
    width = VIEWPORTS[viewport]["width"]
    height = VIEWPORTS[viewport]["height"]
    boxes = page.locator("#rack .kcard").evaluate_all("""(cards) => cards.map((c) => {
        const box = c.getBoundingClientRect();
        const rank = c.querySelector('.kcard__rank'), suit = c.querySelector('.kcard__suit');
        const r = rank.getBoundingClientRect(), s = suit.getBoundingClientRect();
        return {card: c.dataset.card, left: box.left, right: box.right, top: box.top, bottom: box.bottom,
                rank: rank.textContent, suit: suit.textContent, rankRight: r.right, rankPx: parseFloat(getComputedStyle(rank).fontSize),
                suitRight: s.right, suitBottom: s.bottom, color: getComputedStyle(c).color, background: getComputedStyle(c).backgroundImage};
    })""")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert page.evaluate("() => { const r = document.getElementById('rack'); return r.scrollWidth <= r.clientWidth + 1 }")
    minimum = {"desktop": 20, "portrait": 15, "landscape": 14}[viewport]
    for index, box in enumerate(boxes):
        assert 0 <= box["left"] and box["right"] <= width and 0 <= box["top"] and box["bottom"] <= height, box
        assert box["rankPx"] >= minimum, box
        assert box["suit"] in "♠♥♦♣" and box["rank"] == box["card"][1:]
        # The corner (rank over suit) is never covered by the next card.
        if index + 1 < len(boxes):
            assert boxes[index + 1]["left"] >= max(box["rankRight"], box["suitRight"]) - 1, (box, boxes[index + 1])
        red = box["card"][0] in "KR"
        r, g, b = (int(v) for v in re.findall(r"\d+", box["color"])[:3])
        assert (r > 150 and g < 90) if red else (r < 60 and g < 60 and b < 60), box
        # The second cue: a red card has a tinted face, a black one a plain white face.
        assert ("gradient" in box["background"]) == red, box
    # Sort by suit (♠ ♥ ♣ ♦, each low to high), then by rank.
    page.locator("#btn-sort-suit").click()
    assert hand_order(page) == ["M9", "K5", "K6", "K7", "K8", "S2", "S3", "S4", "S9", "R9", "RK"]
    page.locator("#btn-sort-rank").click()
    assert hand_order(page) == ["S2", "S3", "S4", "K5", "K6", "K7", "K8", "M9", "S9", "R9", "RK"]
    # Drag the king of diamonds to the front of the row.
    cards = page.locator("#rack .kcard")
    drag(page, page.locator('#rack .kcard[data-card="RK"]'), cards.first, x_share=.1)
    assert hand_order(page)[0] == "RK"
    assert hand_order(page)[1:] == ["S2", "S3", "S4", "K5", "K6", "K7", "K8", "M9", "S9", "R9"]
    # The order stays after the next frame (the player's own layout).
    page.reload()
    page.wait_for_function("() => window.__okeyTest && window.__okeyTest.frames > 0")
    assert hand_order(page)[0] == "RK"
    assert not NOTATION.search(visible_text(page))
