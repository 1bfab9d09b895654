"""Away players and "Buradayım" (issue 19, item 6): after three turns in a row ran out, the clock
plays a person's turns after one second, and a legal move inside that second was the only way
back. "Buradayım" (``services.i_am_back``) brings them back without one; a practice table whose
one person is away waits for them (no deadline, so the turn clock passes it by) and plays on when
they are back."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import practice, services, tasks
from games.errors import GameError
from games.models import Hand, MatchPlayer
from salons.models import Salon

from .conftest import make_table, make_user

pytestmark = pytest.mark.django_db


def overdue(hand: Hand) -> None:
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))


def time_out_until_away(hand: Hand, seat: int) -> Hand:
    """Run the clock (everyone's turns time out) until ``seat`` is away and it is their turn. A bot
    may finish the hand meanwhile: then the next hand is dealt and the clock runs on in it."""
    for _ in range(80):
        hand.refresh_from_db()
        if hand.status != Hand.Status.PLAYING:
            hand = services.start_next_hand(match_id=hand.match_id)
            assert hand is not None, "the match went on to its next hand"
        player = MatchPlayer.objects.get(match_id=hand.match_id, seat=seat)
        if player.away and hand.turn_seat == seat:
            return hand
        overdue(hand)
        assert services.resolve_timeout(hand_id=hand.pk, move=hand.move)
    raise AssertionError("the seat never went away")


def test_buradayim_brings_an_away_player_back_with_the_full_turn_time():
    table, users = make_table(turn_seconds=20)
    match = services.start_match(user=table.room.owner, table_id=table.id)
    hand = match.hands.get()
    seat = hand.turn_seat
    hand = time_out_until_away(hand, seat)
    # Away: the clock gives the turn one second.
    assert hand.deadline - timezone.now() <= timedelta(seconds=1.5)
    services.i_am_back(user=users[seat], table_id=table.id)
    hand.refresh_from_db()
    player = MatchPlayer.objects.get(match=match, seat=seat)
    assert (player.away, player.timeouts_in_row) == (False, 0)
    assert hand.deadline - timezone.now() > timedelta(seconds=15), "the turn has the room's time again"
    # And a second press says so instead of doing anything.
    with pytest.raises(GameError) as refused:
        services.i_am_back(user=users[seat], table_id=table.id)
    assert refused.value.code == "not_away"


def test_buradayim_on_another_players_turn_leaves_their_clock_alone():
    table, users = make_table(turn_seconds=20)
    match = services.start_match(user=table.room.owner, table_id=table.id)
    hand = match.hands.get()
    seat = hand.turn_seat
    hand = time_out_until_away(hand, seat)
    overdue(hand)
    services.resolve_timeout(hand_id=hand.pk, move=hand.move)  # the away seat's turn, played at once
    hand.refresh_from_db()
    assert hand.turn_seat != seat
    before = hand.deadline
    services.i_am_back(user=users[seat], table_id=table.id)
    hand.refresh_from_db()
    assert hand.deadline == before
    assert not MatchPlayer.objects.get(match=match, seat=seat).away


def test_only_a_player_of_the_match_and_not_one_who_left():
    table, users = make_table()
    services.start_match(user=table.room.owner, table_id=table.id)
    with pytest.raises(GameError) as stranger:
        services.i_am_back(user=make_user(), table_id=table.id)
    assert stranger.value.code == "not_a_player"
    services.leave_running_match(user=users[1], table_id=table.id)
    with pytest.raises(GameError) as left:
        services.i_am_back(user=users[1], table_id=table.id)
    assert left.value.code == "left_match", "one who left comes back by taking the seat again"


def test_a_practice_table_waits_while_its_person_is_away_and_plays_on_when_they_are_back():
    Salon.objects.get_or_create(slug="genel", defaults={"name": "Genel"})
    person = make_user("Pratikçi")
    table = practice.start_practice(user=person)
    hand = Hand.objects.get(match__table=table)
    hand = time_out_until_away(hand, 0)
    # Away at a practice table: nothing has a deadline, so the clock plays nothing, tick after tick.
    assert hand.deadline is None
    move = hand.move
    for _ in range(3):
        tasks.turn_clock()
    hand.refresh_from_db()
    assert (hand.move, hand.deadline) == (move, None)
    services.i_am_back(user=person, table_id=table.id)
    hand.refresh_from_db()
    assert hand.deadline is not None and hand.deadline - timezone.now() > timedelta(seconds=10)


def test_a_practice_table_paused_on_a_bots_turn_resumes_with_the_bot():
    Salon.objects.get_or_create(slug="genel", defaults={"name": "Genel"})
    person = make_user("Pratikçi2")
    table = practice.start_practice(user=person)
    hand = Hand.objects.get(match__table=table)
    hand = time_out_until_away(hand, 0)
    overdue(hand)  # the away person's turn (set overdue by hand): played, then the table waits
    services.resolve_timeout(hand_id=hand.pk, move=hand.move)
    hand.refresh_from_db()
    assert hand.turn_seat != 0 and hand.deadline is None, "the bots wait for the person too"
    tasks.turn_clock()
    services.i_am_back(user=person, table_id=table.id)
    hand.refresh_from_db()
    assert hand.deadline is not None, "the bot's turn has its clock again"


def test_a_move_brings_the_practice_person_back_and_the_table_plays_on():
    Salon.objects.get_or_create(slug="genel", defaults={"name": "Genel"})
    person = make_user("Pratikçi3")
    table = practice.start_practice(user=person)
    hand = Hand.objects.get(match__table=table)
    hand = time_out_until_away(hand, 0)
    assert hand.deadline is None
    services.play(user=person, table_id=table.id, action="draw", move=hand.move, args={"source": "pile"})
    hand.refresh_from_db()
    from games.engine import hand as engine_hand

    tile = engine_hand.view_for(engine_hand.HandState.from_dict(hand.state), 0)["rack"][0]
    services.play(user=person, table_id=table.id, action="discard", move=hand.move, args={"tile": tile})
    hand.refresh_from_db()
    assert not MatchPlayer.objects.get(match=hand.match, seat=0).away
    assert hand.turn_seat != 0 and hand.deadline is not None
