"""Bots at real tables: practice games, filling empty seats, playing for away players."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import practice, services, tasks
from games.models import Hand, Match, MatchPlayer, Move
from salons.models import Seat

from .conftest import make_table, make_user

pytestmark = pytest.mark.django_db


def run_out_the_clock(hand: Hand) -> None:
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    services.resolve_timeout(hand_id=hand.id, move=hand.move)
    hand.refresh_from_db()


@pytest.fixture(autouse=True)
def a_salon():
    from salons.models import Salon

    return Salon.objects.get_or_create(slug="caylaklar", defaults={"name": "Çaylaklar"})[0]


def test_a_practice_table_seats_three_bots_and_starts_at_once():
    player = make_user("Pratikçi")
    table = practice.start_practice(user=player)
    match = Match.objects.get(table=table)
    seats = list(MatchPlayer.objects.filter(match=match).select_related("user").order_by("seat"))
    assert [s.user.is_bot for s in seats] == [False, True, True, True]
    assert len({s.user_id for s in seats}) == 4
    from games import selectors

    frame = selectors.table_frame(match=match, hand=match.hands.get(), seat=0)
    assert [p["bot"] for p in frame["players"]] == [False, True, True, True]


def test_bots_play_their_turns_through_the_services_after_a_short_pause():
    player = make_user("Pratikçi")
    table = practice.start_practice(user=player)
    hand = Hand.objects.get(match__table=table)
    turns = 0
    while hand.status == Hand.Status.PLAYING and turns < 200:
        seat_user = MatchPlayer.objects.select_related("user").get(match=hand.match, seat=hand.turn_seat).user
        if seat_user.is_bot:
            assert hand.deadline - timezone.now() < timedelta(seconds=3)  # a human-like pause, not 20 s
        run_out_the_clock(hand)
        if not seat_user.is_bot and MatchPlayer.objects.get(match=hand.match, user=player).away:
            # Practice waits for its only person once they are away; they say "Buradayım".
            services.i_am_back(user=player, table_id=table.id)
            hand.refresh_from_db()
        turns += 1
    assert hand.status == Hand.Status.OVER
    bot_moves = Move.objects.filter(hand=hand, user__is_bot=True)
    assert bot_moves.exists() and not bot_moves.filter(auto=True).exists()
    # The person's own timed-out turns are marked as played for them.
    assert Move.objects.filter(hand=hand, user=None, auto=True).exists()


def test_a_room_fills_empty_seats_with_bots_after_its_wait():
    table, users = make_table(players=[])
    room = table.room
    room.bot_fill_seconds = 15
    room.save()
    human = make_user("Bekleyen")
    Seat.objects.filter(table=table, position=0).update(user=human, taken_at=timezone.now() - timedelta(seconds=5))
    tasks.sweep()
    assert not Match.objects.filter(table=table).exists()  # not yet
    Seat.objects.filter(table=table, position=0).update(taken_at=timezone.now() - timedelta(seconds=16))
    tasks.sweep()
    match = Match.objects.get(table=table)
    assert sorted(p.user.is_bot for p in match.players.select_related("user")) == [False, True, True, True]


def test_an_empty_table_is_never_filled_with_bots_alone():
    table, users = make_table(players=[])
    table.room.bot_fill_seconds = 15
    table.room.save()
    assert services.fill_with_bots(table_id=table.id) is None
    assert not Match.objects.filter(table=table).exists()


def test_an_away_player_is_played_by_the_turn_clock():
    table, users = make_table()
    match = services.start_match(user=table.room.owner, table_id=table.id)
    hand = match.hands.get()
    seat = hand.turn_seat
    MatchPlayer.objects.filter(match=match, seat=seat).update(away=True)
    run_out_the_clock(hand)
    assert hand.move >= 1
    move = Move.objects.filter(hand=hand, number=1).get()
    assert move.auto and move.user is None


def test_a_bot_remembers_the_hand_from_its_own_views():
    from games import bot_players
    from games.engine import autoplay, deck
    from games.engine.rules import RuleSet

    state = deck.deal(RuleSet(), seed=5)
    for _ in range(30):
        state, _ = autoplay.auto_move(state, state.turn)
    memory = bot_players.memory_for(state, state.turn)
    assert memory is not None and memory.last_move == state.move
    # A hand whose racks were set by hand cannot be replayed: the bot plays without memory.
    state.racks[0], state.racks[1] = state.racks[1], state.racks[0]
    assert bot_players.memory_for(state, state.turn) is None
