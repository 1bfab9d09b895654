"""The replay of a Kart Okey hand (RULES.md "Kart Okey", rule 10: replay as at a tile table): every
hand open as cards (rank and suit symbol, ♥ ♦ red, ♠ ♣ black), the stock, the discard pile and the
melds on the table, each step told in words, at a phone and a desktop. The hands are played through
the services: the person's turns sent as a player sends them (the normal bot's choice), the bots'
and the absent players' turns by the turn clock; the rummy hand's deal is a chosen deck, committed
as any deck is (the proof still holds)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import bot_players, selectors, services
from games.engine.kart.bots import play_bot_turn
from games.engine.kart.cards import full_deck, parse_card, parse_cards
from games.engine.kart.hand import HandKart, deal_from_deck
from games.engine.kart.rules import RulesKart
from games.models import Hand, Move
from salons.models import Room, Salon, Seat, Table
from tests.e2e.table_helpers import VIEWPORTS, in_thread
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SYMBOLS = {"M": "♠", "K": "♥", "R": "♦", "S": "♣"}


def kart_table(person, *, people=(), players: int = 4, name: str = "Kart masası"):
    """A public Kart Okey room's table (one round): ``person`` at seat 0, then ``people``, bots after."""
    rules = RulesKart(players=players)
    salon, _ = Salon.objects.get_or_create(slug="genel", defaults={"name": "Genel"})
    room = Room.objects.create(salon=salon, name=name, owner=person, rules={"game": "kart", **rules.to_dict()},
                               turn_seconds=60)
    table = Table.objects.create(room=room, number=1)
    bots = bot_players.bot_users(players - 1 - len(people), exclude={person.pk})
    for position, user in enumerate([person, *people, *bots]):
        Seat.objects.create(table=table, position=position, user=user, taken_at=timezone.now())
    return table


def start(table, person):
    in_thread(services.start_match, user=person, table_id=table.id)


def hand_of(table) -> Hand:
    return Hand.objects.filter(match__table=table).select_related("match").order_by("-number").first()


def clock_plays(hand: Hand) -> None:
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert in_thread(services.resolve_timeout, hand_id=hand.pk, move=hand.move)


def person_plays(table, user, hand: Hand, seat: int, rng) -> None:
    """The person's turn as the table page sends it: a stock draw of its own, then the rest whole."""
    state = HandKart.from_dict(hand.state)
    played = play_bot_turn(state, seat, level="normal", rng=rng)
    event = next(event for event in played.events if event["type"] == "turn" and event["move"] > state.move)
    move = hand.move
    drew = any(e["type"] == "draw" and e["move"] > state.move for e in played.events)
    if (drew or event["draw"] == "stock") and not state.drawn:
        in_thread(services.play, user=user, table_id=table.id, action="draw", move=move, args={"source": "stock"})
        move += 1
    args = {"actions": [dict((k, v) for k, v in action.items() if k in ("type", "cards", "meld", "card"))
                        for action in event["actions"]], "discard": event["discard"]}
    for action in args["actions"]:
        if action["type"] == "meld":
            action.pop("meld", None)
    if event["draw"] == "discard":
        args["draw"] = "discard"
    in_thread(services.play, user=user, table_id=table.id, action="turn", move=move, args=args)


def play_out(table, people: dict, rng) -> Hand:
    """Play the hand to its end: ``people`` (seat → user) send their own turns, the clock the rest."""
    for _ in range(600):
        hand = hand_of(table)
        if hand.status != Hand.Status.PLAYING:
            return hand
        seat = hand.state["turn"]
        if seat in people:
            person_plays(table, people[seat], hand, seat, rng)
        else:
            clock_plays(hand)
    raise AssertionError("the hand did not end")


def rig_deal(table, hands: list[str], *, face_up: str, stock_top: list[str]) -> Hand:
    """Deal the current hand again from a chosen deck (seat 0 starts): ``hands`` per seat, then the
    face-up card, then ``stock_top``, the rest of the deck after. Committed as the server commits
    any deck, so the replay page's proof holds."""
    hand = hand_of(table)
    state = HandKart.from_dict(hand.state)
    rules = state.rules
    chosen = [parse_cards(text) for text in hands]
    order = [chosen[index % rules.players][index // rules.players] for index in range(10 * rules.players)]
    order += [parse_card(face_up), *parse_cards(" ".join(stock_top))]
    rest = full_deck(rules.decks)
    for card in order:
        rest.remove(card)
    deck = order + rest
    new = deal_from_deck(deck, rules, starting_seat=0)
    assert [sorted(cards) for cards in new.hands] == [sorted(cards) for cards in chosen]
    game = selectors.game_of(hand.match)
    hand.state = new.to_dict()
    hand.move = new.move
    hand.turn_seat = new.turn
    hand.commitment = game.commitment(new, hand.salt)
    hand.save()
    match = hand.match
    match.state = {**match.state, "first_starting_seat": 0, "next_starting_seat": 0}
    match.save(update_fields=["state"])
    dealt = new.events[0]
    Move.objects.filter(hand=hand, number=0).update(
        args={key: value for key, value in dealt.items() if key not in ("move", "type", "seat")})
    return hand


# -- the words each step must show (Turkish, the site's default: no catalogue needed) ---------------


def shown(card: str) -> str:
    return card[1:] + SYMBOLS[card[0]]


def expected_line(step, previous, name) -> str:
    event = step["event"]
    who = name(event.get("seat"))
    parts = []
    if event["type"] == "deal":
        parts.append(f"Kartlar dağıtıldı: {name(event['starting_seat'])} başlıyor, yerde {shown(step['discard_top'])} açık")
    elif event["type"] == "draw":
        parts.append(f"{who} desteden çekti")
    elif event["type"] == "turn":
        if event.get("draw") == "stock":
            parts.append(f"{who} desteden çekti")
        if event.get("took"):
            parts.append(f"{who} yerden {shown(event['took'])} aldı")
        for action in event["actions"]:
            if action["type"] == "meld":
                kind = "per" if action["kind"] == "set" else "seri"
                parts.append(f"{who} {kind} indirdi: {' '.join(shown(card) for card in action['cards'])}")
            else:
                parts.append(f"{who} {shown(action['card'])} işledi")
        parts.append(f"{who} {shown(event['discard'])} attı")
    result = step["result"]
    if result and result["reason"] == "finished":
        winner = name(result["winner"])
        parts.append(f"{winner} okey yaptı: diğer herkese +25" if result["rummy"] else f"{winner} son kartını atıp çıktı")
    elif result and result["reason"] == "stock_out":
        parts.append("Deste ikinci kez bitti: kazanan yok, herkes elindekini yazar")
    elif previous and step["stock_outs"] > previous["stock_outs"]:
        parts.append("Deste bitti: yerdeki kartlar karıştırılıp yeni deste yapıldı")
    return " · ".join(parts)


def expected_lines(hand: Hand, viewer) -> list[str]:
    data = selectors.replay_frames(hand=hand, viewer=viewer)
    names = {player["seat"]: player["nickname"] for player in data["players"]}
    name = lambda seat: names.get(seat, "?")  # noqa: E731
    steps = data["steps"]
    return [expected_line(step, steps[index - 1] if index else None, name) for index, step in enumerate(steps)]


PAGE_LINES = """() => { const lines = [];
  for (let i = 0; i < window.__okeyReplay.steps; i++) {
    window.__okeyReplay.go(i); lines.push(document.getElementById('replay-event').textContent); }
  return lines; }"""


def no_overflow(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    spills = page.evaluate("""() => [...document.querySelectorAll('.rseat:not([hidden]) .rcard')].filter((c) => {
      const seat = c.closest('.rseat').getBoundingClientRect(); const r = c.getBoundingClientRect();
      return r.left < seat.left - 1 || r.right > seat.right + 1; }).length""")
    assert spills == 0


def seat_cards(page, seat: int) -> list[str]:
    return page.evaluate(f"""() => [...document.querySelectorAll('.rseat[data-seat="{seat}"] .rhand .rcard')]
      .map((c) => c.dataset.card)""")


@pytest.mark.parametrize("viewport", ["portrait", "desktop"])
def test_a_played_kart_hand_replays_as_cards_with_every_step_in_words(new_page, asgi_live_server, viewport):
    person = make_user("Ayşe")
    table = kart_table(person)
    start(table, person)
    hand = play_out(table, {0: person}, random.Random(7))
    assert hand.status == Hand.Status.OVER
    moves = list(hand.moves.values_list("action", flat=True))
    assert "turn" in moves and "hand_end" in moves
    lines = expected_lines(hand, person)

    page = new_page(person, viewport=VIEWPORTS[viewport])
    page.goto(f"/hands/{hand.pk}/")
    root = page.locator("#replay")
    expect(root).to_have_attribute("data-step", "0")
    expect(page.locator(".replay-table--kart .rseat:not([hidden])")).to_have_count(4)
    # The deal: ten cards in every hand, sorted by suit then rank, drawn as rank + suit symbol.
    data = selectors.replay_frames(hand=hand, viewer=person)
    for seat in range(4):
        assert seat_cards(page, seat) == data["steps"][0]["hands"][seat]
        expect(page.locator(f'.rseat[data-seat="{seat}"] .rseat__head .count')).to_have_text("10 kart")
    first = page.locator('.rseat[data-seat="0"] .rhand .rcard').first
    notation = first.get_attribute("data-card")
    expect(first).to_have_text(shown(notation))
    expect(first).to_have_class(__import__("re").compile(r"\b(red|black)\b"))
    colour = page.evaluate("""() => [...document.querySelectorAll('.rhand .rcard')].map((c) =>
      [c.dataset.card[0], c.classList.contains('red'), getComputedStyle(c).color])""")
    assert all(red == (suit in "KR") for suit, red, _ in colour)
    assert {css for suit, _, css in colour if suit in "KR"} != {css for suit, _, css in colour if suit in "MS"}
    # A card is named in words for screen readers, never in notation.
    label = first.get_attribute("aria-label")
    assert label and notation not in label.split()
    expect(page.locator("#replay-discard-top .rcard")).to_have_attribute("data-card", data["steps"][0]["discard_top"])
    expect(page.locator("#replay-stock")).to_have_text(str(data["steps"][0]["stock_count"]))
    expect(page.locator("#replay-melds")).to_contain_text("Masada henüz seri ya da per yok.")
    no_overflow(page)

    # Every step's line, in words with its cards.
    assert page.evaluate(PAGE_LINES) == lines

    # The next step by the button: its line, its hands.
    page.evaluate("() => window.__okeyReplay.go(0)")
    page.locator("#replay-next").click()
    expect(root).to_have_attribute("data-step", "1")
    expect(page.locator("#replay-event")).to_have_text(lines[1])
    step1 = data["steps"][1]
    seat = step1["event"]["seat"]
    assert seat_cards(page, seat) == step1["hands"][seat]

    # The end: the winner marked, every seat's score written, the melds on the table by owner.
    page.locator("#replay-last").click()
    expect(root).to_have_attribute("data-phase", "over")
    end = data["steps"][-1]
    expect(page.locator("#replay-event")).to_have_text(lines[-1])
    for seat, score in enumerate(end["result"]["scores"]):
        expect(page.locator(f'.rseat[data-seat="{seat}"] [data-badge="score"]')).to_have_attribute("data-score", str(score))
    if end["result"]["winner"] is not None:
        expect(page.locator(".rseat.winner")).to_have_count(1)
    melds = page.locator("#replay-melds .rmeld")
    expect(melds).to_have_count(len(end["melds"]))
    for meld in end["melds"]:
        cards = page.evaluate(f"""() => [...document.querySelectorAll('#replay-melds .rmeld[data-meld="{meld['id']}"] .rcard')]
          .map((c) => c.dataset.card)""")
        assert cards == meld["cards"]
    assert page.locator("#replay-discard-pile .rcard").count() == len(end["discards"])
    no_overflow(page)
    # The fair-deal proof holds for cards, and says "cards", not tiles.
    expect(page.locator('[data-testid="fair-deal"] .verdict')).to_have_attribute("data-valid", "true")
    expect(page.locator('[data-testid="fair-deal"]')).to_contain_text("kartların sırasını")


def rummy_hand(person) -> Hand:
    """A table of two, one round: ``person`` starts, draws RK and melds all ten cards at once."""
    table = kart_table(person, players=2, name="Okey yapılan masa")
    start(table, person)
    rig_deal(table, ["MA M2 M3 M4 K5 R5 S5 K9 K10 KJ", "SA S2 S3 R7 R9 RJ K2 K4 M9 MK"],
             face_up="S8", stock_top=["RK"])
    hand = hand_of(table)
    in_thread(services.play, user=person, table_id=table.id, action="draw", move=hand.move, args={"source": "stock"})
    hand = hand_of(table)
    in_thread(services.play, user=person, table_id=table.id, action="turn", move=hand.move, args={
        "actions": [{"type": "meld", "cards": ["MA", "M2", "M3", "M4"]}, {"type": "meld", "cards": ["K5", "R5", "S5"]},
                    {"type": "meld", "cards": ["K9", "K10", "KJ"]}], "discard": "RK"})
    hand = hand_of(table)
    assert hand.status == Hand.Status.OVER and hand.state["result"]["rummy"]
    return hand


def test_going_rummy_is_told_with_its_plus_25(new_page, asgi_live_server):
    person = make_user("Zeynep")
    hand = rummy_hand(person)
    lines = expected_lines(hand, person)
    assert lines[-1] == ("Zeynep seri indirdi: A♠ 2♠ 3♠ 4♠ · Zeynep per indirdi: 5♥ 5♦ 5♣ · "
                         "Zeynep seri indirdi: 9♥ 10♥ J♥ · Zeynep K♦ attı · Zeynep okey yaptı: diğer herkese +25")

    page = new_page(person, viewport=VIEWPORTS["portrait"])
    page.goto(f"/hands/{hand.pk}/")
    assert page.evaluate(PAGE_LINES) == lines
    expect(page.locator("#replay-event")).to_have_text(lines[-1])
    expect(page.locator('.rseat[data-seat="0"] [data-badge="rummy"]')).to_have_count(1)
    other = hand.state["result"]["scores"][1]
    assert other == 11 + 2 + 3 + 7 + 9 + 10 + 2 + 4 + 9 + 10 + 25
    expect(page.locator('.rseat[data-seat="1"] [data-badge="score"]')).to_have_attribute("data-score", str(other))
    expect(page.locator("#replay-melds .rmeld")).to_have_count(3)
    expect(page.locator('#replay-melds .rmeld[data-kind="set"] .rcard')).to_have_count(3)
    expect(page.locator('[data-testid="fair-deal"] .verdict')).to_have_attribute("data-valid", "true")
    no_overflow(page)


def test_the_stock_rebuilt_and_running_out_a_second_time_are_told(new_page, asgi_live_server):
    """Two absent players: the clock never melds, so the stock runs out twice and nobody wins."""
    person = make_user("Deniz")
    table = kart_table(person, people=(make_user("Kemal"),), players=2, name="Deste masası")
    start(table, person)
    hand = play_out(table, {}, random.Random(1))
    assert hand.state["result"]["reason"] == "stock_out" and hand.state["stock_outs"] == 2
    lines = expected_lines(hand, person)
    rebuilt = [line for line in lines if line.endswith("Deste bitti: yerdeki kartlar karıştırılıp yeni deste yapıldı")]
    assert len(rebuilt) == 1
    assert lines[-1].endswith("Deste ikinci kez bitti: kazanan yok, herkes elindekini yazar")

    page = new_page(person, viewport=VIEWPORTS["desktop"])
    page.goto(f"/hands/{hand.pk}/")
    assert page.evaluate(PAGE_LINES) == lines
    page.locator("#replay-last").click()
    expect(page.locator(".rseat.winner")).to_have_count(0)
    expect(page.locator('[data-testid="fair-deal"] .verdict')).to_have_attribute("data-valid", "true")
    no_overflow(page)


def test_the_replay_of_a_kart_hand_in_english(new_page, asgi_live_server):
    """The English of the replay (locale/en): the lines, a card's name, the scores, the fair deal."""
    person = make_user("Zeynep")
    hand = rummy_hand(person)
    page = new_page(person, viewport=VIEWPORTS["desktop"], language="en-US")
    page.goto(f"/hands/{hand.pk}/")
    expect(page.locator("#replay-event")).to_have_text("The cards are dealt: Zeynep starts, 8♣ is face up")
    page.locator("#replay-next").click()
    expect(page.locator("#replay-event")).to_have_text("Zeynep drew from the stock")
    page.locator("#replay-last").click()
    expect(page.locator("#replay-event")).to_have_text(
        "Zeynep laid down a run: A♠ 2♠ 3♠ 4♠ · Zeynep laid down a set: 5♥ 5♦ 5♣ · Zeynep laid down a run: 9♥ 10♥ J♥ · "
        "Zeynep discarded K♦ · Zeynep went rummy: +25 to everyone else")
    expect(page.locator('#replay-melds .rmeld .rcard[data-card="MA"]')).to_have_attribute("aria-label", "ace of spades")
    expect(page.locator('.rseat[data-seat="1"] [data-badge="score"]')).to_have_text("This hand: 92")
    expect(page.locator(".rstock figcaption")).to_have_text("Stock")
    expect(page.locator('[data-testid="fair-deal"]')).to_contain_text("the order of the cards")
    expect(page.locator('[data-testid="fair-deal"] dt').nth(2)).to_have_text("Card order")
