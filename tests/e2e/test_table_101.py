"""The 101 Okey table in the browser (RULES.md "101 Okey"; docs/protocol.md "101 Okey tables"): a
person plays a rigged hand against three bots at a desktop, a portrait phone and a phone on its side,
in Turkish and in English. They draw from the pile, compose an opening with the live counter
("Açış: 46 / 101" … 112), open, lay off by dragging a tile onto another player's meld, are warned
before an işlek discard and discard; a bot's işlek discard costs it 101, said in words; next turn
they take that tile, give it back, take it again, lay it off with a tap on the tile and a tap on the
meld, lay down a run and finish on the discard spot; the score sheet shows every player's base,
multiplier, penalties and score, and the match's running totals.

The bots' turns are scripted here (sent through ``services.play`` as their own moves): the page is
under test, not a bot."""

from __future__ import annotations

import os
import random
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import bot_players, services
from games.engine.okey101.hand import Hand101, clock_turn, new_hand
from games.engine.okey101.rules import Rules101
from games.engine.tiles import parse_tile, parse_tiles
from games.models import Hand
from salons.models import Room, Salon, Seat, Table
from tests.e2e.table_helpers import NOTATION, VIEWPORTS, in_thread, open_table, visible_text
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The okey is red 3 (indicator red 2): none of the tiles below is one.
INDICATOR = "K2"
# Seat 1 (a bot) starts with 22 and opens: a green run 9–13, the four 8s, a blue run 5–7 (105).
SEAT1 = "Y9 Y10 Y11 Y12 Y13 S8 M8 Y8 K8 M5 M6 M7 K1 S1 M1 Y1 S2 S3 S4 M2 M3 Y6"
SEAT1_OPENING = ["Y9 Y10 Y11 Y12 Y13", "S8 M8 Y8 K8", "M5 M6 M7"]
# The person: an opening of 112 (black 10–13, the 12s, the 10s), blue 8 and 9 to lay off on the
# bot's blue run, red 4–8 and green 2–4 (+ green 5 drawn) to finish with next turn.
PERSON = "S10 S11 S12 S13 K12 M12 Y12 K10 M10 Y10 M8 M9 K1 K4 K5 K6 K7 K8 Y2 Y3 Y4"
DRAWN = "Y5"
# Seat 3 keeps blue 4 and throws it on its second turn: işlek (it fits blue 5–9), +101.
SEAT3_MUST = ["M4", "S5"]


def rig_101(hand: Hand, *, person_rack: str = PERSON, seat1_rack: str = SEAT1) -> None:
    """The hand as above: seat 1 starts; the person draws green 5 on their first turn."""
    state = Hand101.from_dict(hand.state)
    remaining = sorted(list(range(53)) * 2)
    racks = [parse_tiles(person_rack), parse_tiles(seat1_rack)]
    indicator = parse_tile(INDICATOR)
    for tile in [t for rack in racks for t in rack] + [indicator, parse_tile(DRAWN)] + parse_tiles(" ".join(SEAT3_MUST)):
        remaining.remove(tile)
    avoid = {parse_tile(t) for t in ("M4", "M9", "M10", "Y8", "Y7")}  # nothing else that fits the melds above
    rng = random.Random(101)
    rng.shuffle(remaining)
    plain = [t for t in remaining if t not in avoid]
    rest = [t for t in remaining if t in avoid]
    seat2, plain = plain[:21], plain[21:]
    seat3, plain = parse_tiles(" ".join(SEAT3_MUST)) + plain[:19], plain[19:]
    pile = plain + rest
    pile.insert(2, parse_tile(DRAWN))  # seats 2 and 3 draw first, then the person
    new = new_hand(state.rules, deck=pile, pile=pile, racks=[racks[0], racks[1], seat2, seat3],
                   indicator=indicator, starting_seat=1)
    hand.state = new.to_dict()
    hand.move = new.move
    hand.turn_seat = new.turn
    hand.deadline = timezone.now() + timezone.timedelta(seconds=600)
    hand.save()
    match = hand.match
    match.state = {**match.state, "next_starting_seat": 1}
    match.save(update_fields=["state"])


def table_101(person, *, name: str = "101 masası", partners: bool = False, **racks):
    """A public 101 room's table: ``person`` at seat 0, three bots, the match started and rigged."""
    salon, _ = Salon.objects.get_or_create(slug="genel", defaults={"name": "Genel"})
    rules = {"game": "okey101", **Rules101(hands=3, partners=partners).to_dict()}
    room = Room.objects.create(salon=salon, name=name, owner=person, rules=rules, turn_seconds=60)
    table = Table.objects.create(room=room, number=1)
    for position, user in enumerate([person, *bot_players.bot_users(3, exclude={person.pk})]):
        Seat.objects.create(table=table, position=position, user=user, taken_at=timezone.now())
    in_thread(services.start_match, user=person, table_id=table.id)
    hand = current(table)
    rig_101(hand, **racks)
    return table


def current(table) -> Hand:
    return Hand.objects.filter(match__table=table).select_related("match").order_by("-match__started_at", "-number").first()


def bot_user(table, seat: int):
    return Seat.objects.select_related("user").get(table=table, position=seat).user


def bot_turn(table, *, actions=None, discard: str | None = None) -> None:
    """The bot on turn draws from the pile (unless it starts) and sends the rest of its turn."""
    hand = current(table)
    seat = hand.turn_seat
    user = bot_user(table, seat)
    assert user.is_bot
    state = Hand101.from_dict(hand.state)
    if not state.first_turn:
        in_thread(services.play, user=user, table_id=table.id, action="draw", move=hand.move, args={"source": "pile"})
        hand = current(table)
        state = Hand101.from_dict(hand.state)
    tile = discard or clock_turn(state, seat)["discard"]
    in_thread(services.play, user=user, table_id=table.id, action="turn", move=hand.move,
              args={"actions": actions or [], "discard": tile})


def bots_until_person(table) -> Hand:
    for _ in range(4):
        hand = current(table)
        if hand.status != Hand.Status.PLAYING or hand.turn_seat == 0:
            return hand
        bot_turn(table)
    return current(table)


def pick(page, *tiles: str) -> None:
    """Tap each tile once in the rack (a tap picks it; several are picked at once)."""
    for tile in tiles:
        page.locator(f'#rack .tile[data-tile="{tile}"]:not(.selected)').first.click()


def drag(page, source, target) -> None:
    source.hover()
    box, goal = source.bounding_box(), target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=8)
    page.mouse.up()


def meld_with(page, tile: str):
    """The table meld holding ``tile`` (a meld laid by a bot, say)."""
    return page.locator(f'#melds .meld[data-meld]:has(.tile[data-tile="{tile}"])').first


def english(page, server) -> None:
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": server.url}])


WORDS = {
    "tr": {"counter": "Açış: %s / 101", "penalty": "+101: %s işlek taş attı", "warn": "işlek", "title": "Eli bitirdiniz!",
           "opened": "açış 112", "hand": "Bu elin puanları", "match": "Maçın puanları", "unopened": "açmadı"},
    "en": {"counter": "Opening: %s / 101", "penalty": "+101: %s discarded a playable tile", "warn": "playable",
           "title": "You finished the hand!", "opened": "opened with 112", "hand": "This hand's scores",
           "match": "The match's scores", "unopened": "not opened"},
}


def play_the_hand(page, table, words, *, shots=None) -> None:
    """The whole scenario of the module docstring, through the page."""
    shoot = shots or (lambda name: None)
    # Seat 1 opens, seats 2 and 3 draw and discard: the person's turn.
    bot_turn(table, actions=[{"type": "open", "melds": SEAT1_OPENING}], discard="S4")
    bot_turn(table)
    bot_turn(table, discard="S5")
    expect(page.locator("#clock")).to_have_class(re.compile(r"\bmine\b"))
    expect(page.locator("#melds .meld[data-meld]")).to_have_count(3)
    # Draw from the pile: green 5 comes in, marked as just drawn.
    expect(page.locator("#pile")).to_be_enabled()
    page.locator("#pile").click()
    expect(page.locator('#rack .tile.drawn[data-tile="Y5"]')).to_have_count(1)
    expect(page.locator("#rack .tile")).to_have_count(22)
    # Compose the opening: the counter counts each meld in.
    pick(page, "S10", "S11", "S12", "S13")
    expect(page.locator("#counter101")).to_contain_text(words["counter"] % "46")
    page.locator('[data-action="meld"]').click()
    pick(page, "K12", "M12", "Y12")
    page.locator('[data-action="meld"]').click()
    expect(page.locator("#counter101")).to_have_text(words["counter"] % "82")
    shoot("composer")
    pick(page, "K10", "M10", "Y10")
    page.locator('[data-action="meld"]').click()
    expect(page.locator("#counter101")).to_have_text(words["counter"] % "112")
    expect(page.locator("#counter101")).to_have_class(re.compile(r"\benough\b"))
    expect(page.locator("#melds .meld.draft.staged")).to_have_count(3)
    page.locator('[data-action="open"]').click()
    expect(page.locator("#melds .meld.staged[data-meld]")).to_have_count(3)
    expect(page.locator('#melds .mgroup.mine')).to_contain_text(words["opened"])
    # Lay off blue 8 onto the bot's blue run, by dragging it there.
    drag(page, page.locator('#rack .tile[data-tile="M8"]'), meld_with(page, "M6"))
    expect(meld_with(page, "M6").locator('.tile.staged[data-tile="M8"]')).to_have_count(1)
    # Nothing was sent yet: the staged turn stays on the page.
    assert page.evaluate("() => window.__okeyTest.sent.filter((m) => m.type === 'turn').length") == 0
    # Blue 9 is işlek now: the first try warns and keeps it.
    pick(page, "M9")
    page.locator('[data-action="discard"]').click()
    expect(page.locator("#messages")).to_contain_text(words["warn"])
    expect(page.locator('#rack .tile[data-tile="M9"]')).to_have_count(1)
    page.locator('#rack .tile.selected[data-tile="M9"]').click()  # a second tap puts it back
    shoot("staged")
    # The discard sends the whole turn.
    drag(page, page.locator('#rack .tile[data-tile="K1"]'), page.locator("#give-discard"))
    expect(page.locator("#rack .tile")).to_have_count(10)
    expect(page.locator("#melds .meld.staged")).to_have_count(0)
    sent = page.evaluate("() => window.__okeyTest.sent.filter((m) => m.type === 'turn')")
    assert sent == [{"type": "turn", "draw": None, "discard": "K1", "actions": [
        {"type": "open", "melds": ["run: S10 S11 S12 S13", "group: K12 M12 Y12", "group: K10 M10 Y10"]},
        {"type": "lay_off", "meld": 3, "tile": "M8"}]}]
    state = Hand101.from_dict(current(table).state)
    assert state.opened[0] == "melds" and state.opening_totals[0] == 112
    # Seats 1 and 2 play; seat 3 throws blue 4, which fits blue 5–8: +101, said in words.
    bot_turn(table)
    bot_turn(table)
    bot_turn(table, discard="M4")
    seat3 = bot_user(table, 3).username
    expect(page.locator("#feed")).to_contain_text(words["penalty"] % seat3)
    expect(page.locator("#ticker")).to_contain_text(words["penalty"] % seat3)
    expect(page.locator('.pbox[data-seat="3"] .tag--penalty')).to_have_count(1)
    expect(page.locator("#clock")).to_have_class(re.compile(r"\bmine\b"))
    shoot("penalty")
    # Take blue 4, give it back ("Geri bırak"), take it again.
    page.locator('[data-action="take"]').click()
    expect(page.locator('#rack .tile.staged[data-tile="M4"]')).to_have_count(1)
    expect(page.locator("#pile")).to_be_disabled()
    page.locator('[data-action="give_back"]').click()
    expect(page.locator('#rack .tile[data-tile="M4"]')).to_have_count(0)
    expect(page.locator("#pile")).to_be_enabled()
    page.locator("#take-discard").click()
    expect(page.locator('#rack .tile.staged[data-tile="M4"]')).to_have_count(1)
    # Tap-tap: blue 4 then the blue run; blue 9 by the keys (Enter on the tile, Enter on the meld).
    pick(page, "M4")
    meld_with(page, "M6").click()
    expect(meld_with(page, "M6").locator(".tile")).to_have_count(5)
    page.locator('#rack .tile[data-tile="M9"]').focus()
    page.keyboard.press("Enter")
    meld_with(page, "M6").focus()
    page.keyboard.press("Enter")
    expect(meld_with(page, "M6").locator(".tile")).to_have_count(6)
    # Lay down red 4–8 and green 2–4 (opened already: straight onto the table), finish with green 5.
    pick(page, "K4", "K5", "K6", "K7", "K8")
    page.locator('[data-action="meld"]').click()
    pick(page, "Y2", "Y3", "Y4")
    page.locator('[data-action="meld"]').click()
    expect(page.locator("#rack .tile")).to_have_count(1)
    expect(page.locator('[data-action="discard"]')).to_have_text(re.compile(r"Bitir|Finish"))
    drag(page, page.locator('#rack .tile[data-tile="Y5"]'), page.locator("#give-discard"))
    # The score sheet: the hand's rows and the match's totals.
    dialog = page.locator("#result-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#result-title")).to_have_text(words["title"])
    expect(dialog.locator(".sheet101--hand")).to_contain_text(words["hand"])
    expect(dialog.locator(".sheet101--hand tr[data-seat]")).to_have_count(4)
    expect(dialog.locator('.sheet101--hand tr[data-seat="0"] td.score')).to_have_text("\u2212101")
    expect(dialog.locator('.sheet101--hand tr[data-seat="3"]')).to_contain_text(words["unopened"])
    expect(dialog.locator('.sheet101--hand tr[data-seat="3"] td.penalty')).to_contain_text("+101")
    expect(dialog.locator(".sheet101--match")).to_contain_text(words["match"])
    result = Hand101.from_dict(current(table).state).result
    assert result.finisher == 0 and result.scores[0] == -101 and result.scores[3] == 202 + 101
    shoot("sheet")


def check_fits(page) -> None:
    """No sideways scroll, nothing of the felt, the rack or the buttons cut off the screen."""
    problems = page.evaluate("""() => {
      const out = [];
      const doc = document.documentElement;
      if (doc.scrollWidth > doc.clientWidth + 1) out.push(`page scrolls sideways: ${doc.scrollWidth} > ${doc.clientWidth}`);
      const melds = document.getElementById('melds');
      if (melds.scrollWidth > melds.clientWidth + 1) out.push('melds scroll sideways');
      const inside = (el) => { const r = el.getBoundingClientRect(); return r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1; };
      for (const el of document.querySelectorAll('#rack .tile, #controls .tbtn:not([hidden]), .pbox, #pile, #give-discard, #take-discard')) {
        if (!inside(el)) out.push(`off screen: ${el.id || el.className} ${el.dataset.tile || ''}`);
      }
      return out;
    }""")
    assert not problems, problems


def rack_tile_size(page) -> tuple[float, float]:
    box = page.locator("#rack .tile").first.bounding_box()
    return box["width"], box["height"]


@pytest.mark.parametrize("viewport", ["desktop", "portrait", "landscape"])
def test_a_person_plays_a_101_hand_against_three_bots(new_page, asgi_live_server, viewport):
    person = make_user("Ayşe")
    table = table_101(person)
    page = new_page(person, viewport=VIEWPORTS[viewport])
    open_table(page, table)
    expect(page.locator("#rack .tile")).to_have_count(21)
    expect(page.locator("#melds")).to_contain_text("101")
    # The rack's tiles are the classic table's size here.
    from tests.e2e.table_helpers import MIN_TILE

    width, height = rack_tile_size(page)
    assert width >= MIN_TILE[viewport][0] - 0.5 and height >= MIN_TILE[viewport][1] - 0.5, (width, height)
    check_fits(page)

    def shots(name):
        check_fits(page)
        if os.environ.get("SHOTS_101"):
            page.emulate_media(reduced_motion="reduce")
            page.screenshot(path=f"{os.environ['SHOTS_101']}/{viewport}-{name}.png")

    play_the_hand(page, table, WORDS["tr"], shots=shots)
    assert not NOTATION.search(visible_text(page))


def test_the_101_table_in_english(new_page, asgi_live_server):
    person = make_user("Alice")
    table = table_101(person, name="101 room")
    page = new_page(person, viewport=VIEWPORTS["portrait"], language="en-GB")
    english(page, asgi_live_server)
    open_table(page, table)
    play_the_hand(page, table, WORDS["en"])
    assert not NOTATION.search(visible_text(page))


def test_a_refused_turn_keeps_its_stage(new_page, asgi_live_server):
    """What the page refuses is said at once; what the server refuses is said in its words and the
    staged turn stays to be fixed ("Geri al" then takes it apart step by step)."""
    person = make_user("Ayşe")
    table = table_101(person)
    page = new_page(person, viewport=VIEWPORTS["desktop"])
    open_table(page, table)
    bot_turn(table, actions=[{"type": "open", "melds": SEAT1_OPENING}], discard="S4")
    bot_turn(table)
    bot_turn(table, discard="S5")
    page.locator("#pile").click()
    expect(page.locator("#rack .tile")).to_have_count(22)
    # Not a meld: said in words, nothing staged.
    pick(page, "K1", "K4", "Y2")
    page.locator('[data-action="meld"]').click()
    expect(page.locator("#messages")).not_to_be_empty()
    expect(page.locator("#melds .meld.draft")).to_have_count(0)
    page.locator("#rack .tile.selected").first.click()
    for tile in ("K4", "Y2"):
        page.locator(f'#rack .tile.selected[data-tile="{tile}"]').click()
    # An opening below 101 is refused on the page already.
    pick(page, "K4", "K5", "K6", "K7", "K8")
    page.locator('[data-action="meld"]').click()
    page.locator('[data-action="open"]').click()
    expect(page.locator("#messages")).to_contain_text("101")
    expect(page.locator("#melds .meld.draft")).to_have_count(1)
    # The page is made to believe 25 opens (as if it had read the table wrong): the server refuses
    # the turn in words, changes nothing, and the page keeps the staged turn.
    page.evaluate("() => { window.__okeyTest.lastFrame.hand.opening_needed.melds = 25; }")
    page.locator('[data-action="open"]').click()
    expect(page.locator("#melds .meld.staged[data-meld]")).to_have_count(1)
    pick(page, "K1")
    page.locator('[data-action="discard"]').click()
    expect(page.locator("#messages")).to_have_attribute("data-kind", "error")
    expect(page.locator("#messages")).to_contain_text("101")
    expect(page.locator("#melds .meld.staged[data-meld]")).to_have_count(1)
    expect(page.locator("#rack .tile")).to_have_count(17)
    state = Hand101.from_dict(current(table).state)
    assert state.opened[0] is None and len(state.racks[0]) == 22
    # "Geri al": the opening goes back to being composed, then back into the rack.
    page.locator('[data-action="undo"]').click()
    expect(page.locator("#melds .meld.draft")).to_have_count(1)
    page.locator('[data-action="undo"]').click()
    expect(page.locator("#melds .meld.draft")).to_have_count(0)
    expect(page.locator("#rack .tile")).to_have_count(22)
    expect(page.locator('[data-action="undo"]')).to_be_hidden()


def test_eşli_101_the_sheet_adds_up_each_team_and_a_watcher_sees_the_table(new_page, asgi_live_server):
    """Partners (seats 0+2 against 1+3): the header keeps the two team scores, the finisher's partner
    writes 0, the match's totals add up each team; a watcher sees every meld and no rack."""
    person = make_user("Ayşe")
    table = table_101(person, partners=True)
    page = new_page(person, viewport=VIEWPORTS["portrait"])
    open_table(page, table)
    expect(page.locator("#hand-info")).to_have_attribute("data-teams", "")
    watcher = new_page(make_user("Izleyici"), viewport=VIEWPORTS["portrait"])
    open_table(watcher, table)
    play_the_hand(page, table, WORDS["tr"])
    dialog = page.locator("#result-dialog")
    expect(dialog.locator('.sheet101--hand tr[data-seat="2"]')).to_contain_text("eşi bitirdi")
    expect(dialog.locator('.sheet101--hand tr[data-seat="2"] td.score')).to_have_text("0")
    teams = dialog.locator(".sheet101--match tr.team")
    expect(teams).to_have_count(2)
    result = Hand101.from_dict(current(table).state).result
    expect(teams.nth(0).locator("td.total")).to_have_text(str(result.scores[0] + result.scores[2]).replace("-", "\u2212"))
    expect(teams.nth(1).locator("td.total")).to_have_text(str(result.scores[1] + result.scores[3]))
    # The watcher: every meld on the table with its owner, no rack, no turn buttons.
    expect(watcher.locator("#melds .meld[data-meld]")).to_have_count(page.locator("#melds .meld[data-meld]").count())
    expect(watcher.locator("#rack")).to_be_hidden()
    expect(watcher.locator("#controls .tbtn:visible")).to_have_count(0)


def swap_token(rack: str, old: str, new: str) -> str:
    return " ".join(new if token == old else token for token in rack.split())


def test_the_okey_swap(new_page, asgi_live_server):
    """Seat 1's blue run holds the okey (red 3) for blue 7; the person, opened this turn, picks the
    meld, then blue 7, and "Okeyi al": blue 7 goes in, the okey comes to the rack (staged), and the
    server plays the swap with the turn."""
    person = make_user("Ayşe")
    table = table_101(person, person_rack=swap_token(PERSON, "K1", "M7"), seat1_rack=swap_token(SEAT1, "M7", "K3"))
    page = new_page(person, viewport=VIEWPORTS["portrait"])
    open_table(page, table)
    bot_turn(table, actions=[{"type": "open", "melds": [*SEAT1_OPENING[:2], "M5 M6 K3"]}], discard="S4")
    bot_turn(table)
    bot_turn(table, discard="S5")
    page.locator("#pile").click()
    expect(page.locator("#rack .tile")).to_have_count(22)
    for tiles in (("S10", "S11", "S12", "S13"), ("K12", "M12", "Y12"), ("K10", "M10", "Y10")):
        pick(page, *tiles)
        page.locator('[data-action="meld"]').click()
    page.locator('[data-action="open"]').click()
    meld = meld_with(page, "M6")
    meld.click()  # the meld is the target
    expect(meld).to_have_class(re.compile(r"\btarget\b"))
    pick(page, "M7")
    expect(page.locator('[data-action="swap"]')).to_be_visible()
    page.locator('[data-action="swap"]').click()
    expect(meld.locator('.tile.staged[data-tile="M7"]')).to_have_count(1)
    expect(meld.locator('.tile[data-tile="K3"]')).to_have_count(0)
    expect(page.locator('#rack .tile.okey.staged[data-tile="K3"]')).to_have_count(1)
    pick(page, "K4")
    page.locator('[data-action="discard"]').click()
    expect(page.locator("#rack .tile")).to_have_count(11)
    state = Hand101.from_dict(current(table).state)
    blue = next(m for m in state.melds if m.owner == 1 and parse_tile("M6") in m.tiles)
    assert parse_tile("M7") in blue.tiles and parse_tile("K3") not in blue.tiles
    assert parse_tile("K3") in state.racks[0]
