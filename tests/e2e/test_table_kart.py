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
from tests.e2e.table_helpers import VIEWPORTS, open_table, visible_text
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


# A turn with everything in it: seat 2 has a run of spades 4-6 on the table; the person takes the
# spade 9 from the discard pile, melds clubs 7-9 with it and diamonds 2-4, lays the spade 7 off on
# seat 2's run and discards the king of clubs by dropping it on the discard pile.
TURN_HAND = "S7 S8 R2 R3 R4 K10 KJ M7 RQ SK"
TURN_OTHERS = ["M2 M3 R5 R7 S10 SJ SQ KA KQ KK", "RA R6 R8 S5 S6 MK MQ MJ K2 K3", "RJ R10 K4 K9 M8 M10 SA S3 K7 MA"]


def test_take_the_discard_meld_lay_off_and_discard_in_one_turn(new_page, asgi_live_server):
    person = make_user("Ayşe")
    table = table_kart(person)
    rig(table, hands=[TURN_HAND, *TURN_OTHERS], discard="S9", stock=["K8"], melds=[(2, "run", "M4 M5 M6")],
        melded=[False, False, True, False])
    page = new_page(person, viewport=VIEWPORTS["desktop"])
    open_table(page, table)
    expect(page.locator("#melds .meld[data-meld]")).to_have_count(1)
    expect(page.locator("#discard-pile")).to_have_class(re.compile(r"\bavailable\b"))
    # The turn clock (shared with the 101 table) says it is the player's turn, with its seconds.
    expect(page.locator("#clock")).to_have_class(re.compile(r"\bmine\b"))
    expect(page.locator("#clock")).to_contain_text(re.compile(r"\d"))
    move = frame(page)["move"]
    # Take the discard: it comes into the hand (staged), the stock can no longer be drawn.
    page.locator("#discard-pile").click()
    expect(page.locator('#rack .kcard.staged[data-card="S9"]')).to_have_count(1)
    expect(page.locator("#rack .kcard")).to_have_count(11)
    expect(page.locator("#stock")).to_be_disabled()
    # Two melds: the picked cards go onto the table, dashed, under "Siz".
    pick(page, "S7", "S8", "S9")
    page.locator("#btn-meld").click()
    pick(page, "R4", "R2", "R3")
    page.locator("#btn-meld").click()
    mine = page.locator('#melds .mgroup.mine .meld.staged')
    expect(mine).to_have_count(2)
    expect(mine.nth(1).locator(".kcard")).to_have_count(3)
    assert mine.nth(1).locator(".kcard").evaluate_all("(cs) => cs.map((c) => c.dataset.card)") == ["R2", "R3", "R4"]
    # A card that fits nowhere is refused on the page, before anything is sent.
    pick(page, "KJ")
    page.locator('#melds .meld[data-meld="1"]').click()
    expect(page.locator("#messages")).to_have_attribute("data-kind", "error")
    page.locator('#rack .kcard.selected[data-card="KJ"]').click()
    # The lay-off: pick the spade 7, tap seat 2's run.
    pick(page, "M7")
    page.locator('#melds .meld[data-meld="1"]').click()
    expect(page.locator('#melds .meld[data-meld="1"] .kcard')).to_have_count(4)
    expect(page.locator('#melds .meld[data-meld="1"] .kcard.staged[data-card="M7"]')).to_have_count(1)
    expect(page.locator("#rack .kcard")).to_have_count(4)
    assert page.evaluate("() => window.__okeyTest.sent.length") == 0, "nothing is sent before the discard"
    # The discard: dropped on the discard pile; the whole turn goes as one message.
    drag(page, page.locator('#rack .kcard[data-card="SK"]'), page.locator("#discard-pile"))
    wait_move_after(page, move)
    sent = page.evaluate("() => window.__okeyTest.sent")
    assert sent == [{"type": "turn", "draw": "discard", "discard": "SK", "actions": [
        {"type": "meld", "cards": ["S7", "S8", "S9"]}, {"type": "meld", "cards": ["R2", "R3", "R4"]},
        {"type": "lay_off", "meld": 1, "card": "M7"}]}]
    state = state_of(table)
    assert sorted(state.hands[0]) == sorted(parse_cards("K10 KJ RQ"))
    expect(page.locator("#melds .meld[data-meld]:not(.staged)")).to_have_count(3)
    expect(page.locator("#melds .meld.staged")).to_have_count(0)
    expect(page.locator("#rack .kcard")).to_have_count(3)
    expect(page.locator('#discard-top .kcard[data-card="SK"]')).to_be_visible()
    feed = page.locator("#feed")
    expect(feed).to_contain_text("Yerden aldınız")
    expect(feed).to_contain_text("Seri açtınız")
    expect(feed).to_contain_text("İşlediniz")
    expect(feed).to_contain_text("Attınız")
    # Seat 0's seat box says it put something down; its card count is 3.
    expect(page.locator('.pbox[data-rel="0"] .count')).to_contain_text("3")
    assert not NOTATION.search(visible_text(page))


def test_a_refused_turn_says_why_and_gives_every_card_back(new_page, asgi_live_server):
    person = make_user("Ayşe")
    table = table_kart(person)
    rig(table, hands=[TURN_HAND, *TURN_OTHERS], discard="S9", stock=["K8"], melds=[(2, "run", "M4 M5 M6")],
        melded=[False, False, True, False])
    page = new_page(person, viewport=VIEWPORTS["desktop"])
    open_table(page, table)
    page.locator("#stock").click()
    expect(page.locator('#rack .kcard.drawn[data-card="K8"]')).to_have_count(1)
    before = hand_order(page)
    pick(page, "R2", "R3", "R4")
    page.locator("#btn-meld").click()
    pick(page, "M7")
    page.locator('#melds .meld[data-meld="1"]').click()
    expect(page.locator("#rack .kcard")).to_have_count(7)
    # Meanwhile the run on the table is not what the page saw (as after a frame it missed): the
    # server holds a set of sixes there, so the spade 7 does not fit and the turn is refused whole.
    hand = current(table)
    state = HandKart.from_dict(hand.state)
    sixes = parse_cards("R6 S6 K6")
    for card in sixes:
        state.stock.remove(card)
    state.stock.extend(state.melds[0].cards)
    state.melds[0] = type(state.melds[0])(1, 2, "set", tuple(sixes))
    hand.state = state.to_dict()
    hand.save(update_fields=["state"])
    move = frame(page)["move"]
    pick(page, "SK")
    page.locator("#btn-discard").click()
    expect(page.locator("#messages")).to_have_text("Bu kart o pere işlenemez.")
    expect(page.locator("#messages")).to_have_attribute("data-kind", "error")
    # Nothing lost: every card back in the hand, in the player's order; nothing staged on the table.
    expect(page.locator("#rack .kcard")).to_have_count(11)
    assert hand_order(page) == before
    expect(page.locator("#melds .meld.staged")).to_have_count(0)
    expect(page.locator("#rack .kcard.staged")).to_have_count(0)
    assert frame(page)["move"] == move and state_of(table).hands[0] == state.hands[0]
    # The turn can be played again at once.
    pick(page, "SK")
    page.locator("#btn-discard").click()
    wait_move_after(page, move)
    expect(page.locator("#rack .kcard")).to_have_count(10)


# Going rummy: the whole hand down in one turn (hearts 5-8, three nines, clubs 2-4), the drawn
# king of diamonds discarded. Going out (not rummy) when the person had melded in an earlier turn.
OUT_HAND = "K5 K6 K7 K8 M9 R9 S9 S2 S3 S4"
OUT_OTHERS = ["M2 M3 M4 R5 R7 S10 SJ SQ KA KQ", "RA R6 R8 S5 S6 MK MQ MJ K2 K3", "RJ R10 K4 K9 M8 M10 SA K10 KJ MA"]
WORDS = {
    "tr": {"rummy": "Okey yaptınız! Herkese +25", "out": "Dışarı çıktınız!",
           "round": "Bu elin puanları", "table": "Masanın puanları", "round_of": "El 1/3",
           "dealt": "El 1 dağıtıldı"},
    "en": {"rummy": "You went rummy! +25 to everyone else", "out": "You went out!",
           "round": "This round's scores", "table": "The table's scores", "round_of": "Round 1/3",
           "dealt": "Round 1 dealt"},
}


def english(page, server) -> None:
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": server.url}])


@pytest.mark.parametrize(("language", "rummy"), [("tr", True), ("en", False)])
def test_going_out_is_announced_and_the_result_shows_the_cards_left(new_page, asgi_live_server, language, rummy):
    """The English run needs the compiled catalogue with /tmp/kart_table_en.json merged."""
    words = WORDS[language]
    person = make_user("Ayşe" if language == "tr" else "Alice")
    table = table_kart(person)
    rig(table, hands=[OUT_HAND, *OUT_OTHERS], discard="M10", stock=["RK"],
        melded=None if rummy else [True, False, False, False])
    page = new_page(person, viewport=VIEWPORTS["desktop"], language="tr-TR" if language == "tr" else "en-GB")
    if language == "en":
        english(page, asgi_live_server)
    open_table(page, table)
    expect(page.locator("#round-info")).to_have_text(words["round_of"])
    page.locator("#stock").click()
    expect(page.locator('#rack .kcard[data-card="RK"]')).to_have_count(1)
    for meld in ("K5 K6 K7 K8", "M9 R9 S9", "S2 S3 S4"):
        pick(page, *meld.split())
        page.locator("#btn-meld").click()
    expect(page.locator("#rack .kcard")).to_have_count(1)
    # The last card: the button says "Çık" (go out); the turn goes.
    pick(page, "RK")
    expect(page.locator("#btn-discard")).to_be_enabled()
    page.locator("#btn-discard").click()
    banner = page.locator("#announce")
    expect(banner).to_be_visible()
    expect(banner).to_have_text(words["rummy" if rummy else "out"])
    expect(banner).to_have_attribute("data-kind", "rummy" if rummy else "out")
    dialog = page.locator("#result-dialog")
    expect(dialog).to_be_visible(timeout=10_000)
    expect(dialog.locator("#result-title")).to_have_text(words["rummy" if rummy else "out"])
    result = state_of(table).result
    assert result.winner == 0 and result.rummy is rummy
    sheet = dialog.locator(".sheetk--hand")
    expect(sheet).to_contain_text(words["round"])
    for seat, cards in enumerate([OUT_HAND, *OUT_OTHERS]):
        row = sheet.locator(f'tr[data-seat="{seat}"]')
        if seat == 0:
            expect(row).to_have_class(re.compile(r"\bfinisher\b"))
            expect(row.locator("td.score")).to_have_text("0")
            continue
        left = parse_cards(cards)
        shown = row.locator(".left-cards .kcard").evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
        assert sorted(parse_cards(shown)) == sorted(left)
        expect(row.locator("td.value")).to_have_text(str(hand_value(left)))
        if rummy:
            expect(row.locator("td.bonus")).to_have_text("+25")
        else:
            expect(row.locator("td.bonus")).to_have_count(0)  # no +25 column when nobody went rummy
        expect(row.locator("td.score")).to_have_text(str(hand_value(left) + (25 if rummy else 0)))
        assert result.scores[seat] == hand_value(left) + (25 if rummy else 0)
    match = dialog.locator(".sheetk--match")
    expect(match).to_contain_text(words["table"])
    for seat in range(4):
        expect(match.locator(f'tr[data-seat="{seat}"] td.total')).to_have_text(str(result.scores[seat]))
    # The feed says it in the second person too: it was the player's own going out.
    expect(page.locator("#feed")).to_contain_text(words["rummy"] if rummy else words["out"])
    expect(page.locator("#feed")).to_contain_text(words["dealt"])
    assert not NOTATION.search(visible_text(page))
