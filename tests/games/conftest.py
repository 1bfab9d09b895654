"""A table of four ready to play, and ways to put exact racks in front of the players."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth import get_user_model

from games.engine import hand as engine_hand
from games.engine.rules import RuleSet
from games.engine.tiles import parse_tile, parse_tiles
from games.models import Hand
from salons.models import Room, Salon, Seat, Table

_counter = itertools.count()


def make_user(name: str | None = None, **fields):
    name = name or f"oyuncu{next(_counter)}"
    return get_user_model().objects.create_user(
        username=name, email=f"{name.lower()}@example.test", password="gizli-Parola-123", **fields
    )


def make_table(*, owner=None, rules: RuleSet | None = None, turn_seconds: int = 20, players: list | None = None):
    salon, _ = Salon.objects.get_or_create(slug="genel", defaults={"name": "Genel"})
    owner = owner or make_user()
    rules = rules or RuleSet()
    room = Room.objects.create(salon=salon, name="Test odası", owner=owner, rules=rules.to_dict(),
                               turn_seconds=turn_seconds)
    table = Table.objects.create(room=room, number=1)
    users = players if players is not None else [make_user() for _ in range(rules.players)]
    for position in range(rules.players):
        Seat.objects.update_or_create(
            table=table, position=position,
            defaults={"user": users[position] if position < len(users) else None},
        )
    return table, users


def rig_hand(hand: Hand, *, racks: list[str], indicator: str, starting_seat: int | None = None, pile: str | None = None) -> None:
    """Replace a dealt hand with exact racks (tests only): the rest of the tiles form the pile."""
    state = engine_hand.HandState.from_dict(hand.state)
    rack_tiles = [parse_tiles(rack) for rack in racks]
    indicator_tile = parse_tile(indicator)
    if pile is not None:
        pile_tiles = parse_tiles(pile, check_copies=False)
    else:
        remaining = sorted(list(range(53)) * 2)
        for tile in [t for rack in rack_tiles for t in rack] + [indicator_tile]:
            remaining.remove(tile)
        pile_tiles = remaining
    starting = state.starting_seat if starting_seat is None else starting_seat
    new = engine_hand.new_hand(state.rules, deck=pile_tiles, pile=pile_tiles, racks=rack_tiles,
                               indicator=indicator_tile, starting_seat=starting)
    hand.state = new.to_dict()
    hand.move = new.move
    hand.turn_seat = new.turn
    hand.save()


@pytest.fixture
def table_of_four(db):
    return make_table()


@pytest.fixture(autouse=True)
def scheduled_tasks(request, monkeypatch):
    """Tests drive the clock themselves: scheduled Celery tasks are recorded, not sent, unless a
    test asks for the real worker (``@pytest.mark.real_celery``)."""
    if request.node.get_closest_marker("real_celery"):
        yield None
        return
    from games import scheduling

    calls: list[tuple] = []
    monkeypatch.setattr(scheduling, "schedule_next_hand", lambda *args: calls.append(("next_hand", *args)))
    yield calls


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Hashing a strong password takes a quarter second; tests make dozens of users."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# -- people at the table: a player who is there plays their own turns -------------------------------


def play_turn_as(user, hand: Hand) -> Hand:
    """``user`` is at the table and plays their turn themselves: each decision (the normal bot's,
    from the seat's own view) is sent through ``services.play`` as the table page sends it, so the
    moves are the player's own, never the turn clock's. Returns the hand, read again."""
    from games import services
    from games.engine import bots as engine_bots

    if hand.state.get("game") == "okey101":
        return play_101_turn_as(user, hand)
    state = engine_hand.HandState.from_dict(hand.state)
    seat = state.turn
    while hand.status == Hand.Status.PLAYING and state.turn == seat:
        message = dict(engine_bots.bot_move(engine_hand.view_for(state, seat), level="normal"))
        action = message.pop("type")
        services.play(user=user, table_id=hand.match.table_id, action=action, move=hand.move, args=message)
        hand = Hand.objects.select_related("match").get(pk=hand.pk)
        state = engine_hand.HandState.from_dict(hand.state)
    return hand


def play_101_turn_as(user, hand: Hand) -> Hand:
    """A 101 turn sent as the table page sends it: a pile draw, then the rest of the turn (the
    clock's safe discard: the player draws and discards, opening nothing)."""
    from games import services
    from games.engine.okey101.hand import Hand101, clock_turn

    state = Hand101.from_dict(hand.state)
    table_id = hand.match.table_id
    if not state.first_turn and not state.drawn:
        services.play(user=user, table_id=table_id, action="draw", move=hand.move, args={"source": "pile"})
        hand = Hand.objects.select_related("match").get(pk=hand.pk)
        state = Hand101.from_dict(hand.state)
    turn = clock_turn(state, state.turn)
    services.play(user=user, table_id=table_id, action="turn", move=hand.move,
                  args={"actions": [], "discard": turn["discard"]})
    return Hand.objects.select_related("match").get(pk=hand.pk)


def play_hand_out(hand: Hand, *, absent=()) -> Hand:
    """Play a hand to its end: people play their own turns (``play_turn_as``), except the users in
    ``absent``, who never connected: their turns run out and the turn clock plays them, as it plays
    a seated bot's. No sleeping: an overdue deadline is set and the clock's own service runs."""
    from datetime import timedelta

    from django.utils import timezone

    from games import services
    from games.models import MatchPlayer

    absent_ids = {getattr(user, "pk", user) for user in absent}
    seats = {player.seat: player.user for player in
             MatchPlayer.objects.filter(match_id=hand.match_id).select_related("user")}
    hand = Hand.objects.select_related("match").get(pk=hand.pk)
    while hand.status == Hand.Status.PLAYING:
        user = seats[hand.turn_seat]
        if user.is_bot or user.pk in absent_ids:
            Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
            services.resolve_timeout(hand_id=hand.pk, move=hand.move)
            hand = Hand.objects.select_related("match").get(pk=hand.pk)
        else:
            hand = play_turn_as(user, hand)
    return hand
