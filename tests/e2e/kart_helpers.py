"""Set-ups for the Kart Okey table's browser tests and screenshots (RULES.md "Kart Okey"): a public
room with kart rules made directly (as the 101 tests make theirs, not through the room form), the
person at seat 0 and bots in the other seats, the match started; a round rigged to exact hands; the
bots' turns sent through ``services.play`` as their own moves (the page is under test, not a bot)."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

from django.utils import timezone

from games import bot_players, services
from games.engine.kart.cards import full_deck, parse_cards
from games.engine.kart.game import KartOkey
from games.engine.kart.hand import HandKart, TableMeld, clock_turn, new_hand
from games.engine.kart.rules import RulesKart
from games.models import Hand
from salons.models import Room, Salon, Seat, Table
from tests.e2e.table_helpers import in_thread

# Card notation as it must never appear in text a player reads: a suit letter then a rank.
CARD_NOTATION = r"\b[MKRS](?:10|[2-9]|[AJQK])\b"


def table_kart(person, *, name: str = "Kart masası", players: int = 4, rounds: int = 3, prize_pool: int = 0,
               turn_seconds: int = 60) -> Table:
    """A public Kart Okey room's table: ``person`` at seat 0, bots in the other seats, started."""
    salon, _ = Salon.objects.get_or_create(slug="genel", defaults={"name": "Genel"})
    rules = KartOkey().stored_rules(RulesKart(players=players, rounds=rounds, prize_pool=prize_pool))
    room = Room.objects.create(salon=salon, name=name, owner=person, rules=rules, turn_seconds=turn_seconds)
    table = Table.objects.create(room=room, number=1)
    for position, user in enumerate([person, *bot_players.bot_users(players - 1, exclude={person.pk})]):
        Seat.objects.create(table=table, position=position, user=user, taken_at=timezone.now())
    in_thread(services.start_match, user=person, table_id=table.id)
    return table


def current(table) -> Hand:
    return Hand.objects.filter(match__table=table).select_related("match").order_by("-match__started_at", "-number").first()


def state_of(table) -> HandKart:
    return HandKart.from_dict(current(table).state)


def rig(table, *, hands: list[str], discard: str, stock: list[str] = (), starting_seat: int = 0,
        melds: list[tuple[int, str, str]] = (), melded: list[bool] | None = None) -> Hand:
    """The current round dealt as given: ``hands`` per seat (notation), the discard pile's top,
    the stock's first cards (the rest of the deck follows in a fixed order), ``melds`` already on
    the table as (owner, kind, cards) and ``melded`` (who put something down in an earlier turn)."""
    hand = current(table)
    state = HandKart.from_dict(hand.state)
    rules = state.rules
    dealt = [parse_cards(text) for text in hands]
    on_table = [parse_cards(cards) for _, _, cards in melds]
    top = parse_cards(discard)
    head = parse_cards(" ".join(stock))
    rest = Counter(full_deck(rules.decks))
    rest.subtract(Counter([card for cards in [*dealt, *on_table, top, head] for card in cards]))
    assert all(count >= 0 for count in rest.values()), "a card is used more often than the deck holds it"
    pile = head + sorted(rest.elements(), key=lambda card: (card * 7919) % 104)
    deck = [card for cards in dealt for card in cards] + top + pile + [card for cards in on_table for card in cards]
    new = new_hand(rules, deck, pile, dealt, top, starting_seat)
    new.melds = [TableMeld(index + 1, owner, kind, tuple(cards))
                 for index, ((owner, kind, _), cards) in enumerate(zip(melds, on_table, strict=True))]
    new.next_meld_id = len(melds) + 1
    if melded is not None:
        new.melded = list(melded)
    hand.state = new.to_dict()
    hand.move = new.move
    hand.turn_seat = new.turn
    hand.deadline = timezone.now() + timedelta(seconds=600)
    hand.save()
    match = hand.match
    match.state = {**match.state, "next_starting_seat": starting_seat}
    match.save(update_fields=["state"])
    return hand


def seat_user(table, seat: int):
    return Seat.objects.select_related("user").get(table=table, position=seat).user


def bot_turn(table, *, actions=None, discard: str | None = None) -> None:
    """The bot on turn draws from the stock and sends the rest of its turn (the clock's discard
    unless one is given)."""
    hand = current(table)
    seat = hand.turn_seat
    user = seat_user(table, seat)
    assert user.is_bot
    in_thread(services.play, user=user, table_id=table.id, action="draw", move=hand.move, args={"source": "stock"})
    hand = current(table)
    state = HandKart.from_dict(hand.state)
    card = discard or clock_turn(state, seat)["discard"]
    in_thread(services.play, user=user, table_id=table.id, action="turn", move=hand.move,
              args={"actions": actions or [], "discard": card})


def bots_until_person(table) -> Hand:
    for _ in range(4):
        hand = current(table)
        if hand.status != Hand.Status.PLAYING or hand.turn_seat == 0:
            return hand
        bot_turn(table)
    return current(table)
