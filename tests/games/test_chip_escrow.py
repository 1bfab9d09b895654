"""Chip tables hold each hand's worst case, and no match plays on for nobody (issue 18, items 2
and 4). Each test here is an attack that worked on the code before it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import ChipHold
from accounts.selectors import ledger_differences
from games import services
from games.engine.rules import RuleSet
from games.models import Match
from salons import services as salon_services
from salons.models import Room, Seat
from tests.conftest import make_salon
from tournaments import services as tournament_services

from .conftest import make_table, make_user, rig_hand
from .test_services import current_hand, start

pytestmark = pytest.mark.django_db

CHIPS_100 = RuleSet.preset("chips", stake=100)
WINNING = "K1 K2 K3 K4 M5 M6 M7 S9 S10 S11 Y2 K2 M2 S2 Y13"
OTHERS = [
    "M9 M10 M11 K5 K6 K7 S3 S4 S5 Y6 Y7 Y8 Y9 Y10",
    "M1 M3 M4 K8 K9 K10 S6 S7 S8 Y3 Y4 Y5 Y11 Y12",
    "M12 M13 K11 K12 K13 S12 S13 Y1 M8 K9 S6 Y3 Y4 M3",
]


def chips(user) -> int:
    return get_user_model().objects.values_list("chips", flat=True).get(pk=user.pk)


def starter_finishes(table, users, hand):
    others = list(OTHERS)
    starter = hand.turn_seat
    rig_hand(hand, racks=[WINNING if seat == starter else others.pop() for seat in range(4)], indicator="S7")
    services.play(user=users[starter], table_id=table.id, action="finish", move=0, args={"tile": "Y13"})
    return users[starter]


def test_moving_every_chip_into_a_refundable_buy_in_does_not_make_a_hand_free():
    """The attack: once the hand runs, put every chip into a tournament buy-in, lose the hand,
    unregister. Settlement never took more than the player held, so the hand cost nothing and the
    winner was paid short. Now the hand's worst case is held from the start."""
    table, users = make_table(rules=CHIPS_100)
    match = start(table, users)
    hand = current_hand(match)
    cheat = users[(hand.turn_seat + 1) % 4]
    staff = make_user()
    salon = make_salon("kupa")
    from salons.models import SalonStaff

    SalonStaff.objects.create(salon=salon, user=staff)
    tournament = tournament_services.create_tournament(
        actor=staff, salon=salon, name="Kaçış kupası", rules=RuleSet.preset("penalty").to_dict(),
        starts_at=timezone.now() + timedelta(hours=1), min_players=2, max_players=8, registration_minutes=120,
        buy_in=chips(cheat))
    tournament_services.register(user=cheat, tournament_id=tournament.pk)
    assert chips(cheat) == 0
    winner = starter_finishes(table, users, hand)
    tournament_services.unregister(user=cheat, tournament_id=tournament.pk)
    assert chips(cheat) == 1000 - 100, "the lost hand cost the stake, buy-in or not"
    assert chips(winner) == 1000 + 300, "the winner is paid in full by all three"
    assert ledger_differences() == []


def test_a_held_stake_cannot_be_spent_elsewhere():
    table, users = make_table(rules=CHIPS_100)
    start(table, users)
    from accounts.services import ServiceError, change_chips

    with pytest.raises(ServiceError) as error:
        change_chips(user=users[0], amount=-601)
    assert error.value.code == "not_enough_chips"
    assert ChipHold.objects.get(user=users[0]).amount == 400


def test_leaving_pays_the_stake_from_the_held_chips_and_a_bot_seat_plays_for_no_chips():
    table, users = make_table(rules=CHIPS_100)
    match = start(table, users)
    leaver = users[0]
    from accounts.services import change_chips

    change_chips(user=leaver, amount=-600, note="spent")  # nothing left but what is held
    services.leave_running_match(user=leaver, table_id=table.id)
    assert chips(leaver) == 400 - 100, "the stake was paid from the chips held for the hand"
    assert not ChipHold.objects.filter(user=leaver).exists()
    assert sum(chips(user) for user in users[1:]) == 3 * 600 + 100
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING  # three people play on
    assert ledger_differences() == []


def test_a_chip_match_with_bots_ends_when_its_last_person_leaves(django_capture_on_commit_callbacks):
    """The attack: start a chip table with bots and leave. Bots played for nobody for ever and the
    room refused to close ("game_running")."""
    owner = make_user()
    table, users = make_table(owner=owner, rules=CHIPS_100, players=[owner])
    match = services.start_match(user=owner, table_id=table.id, with_bots=True)
    assert ChipHold.objects.filter(user=owner).count() == 1
    assert not ChipHold.objects.filter(user__is_bot=True).exists(), "bots play for no chips"
    with django_capture_on_commit_callbacks(execute=True):
        services.leave_running_match(user=owner, table_id=table.id)
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
    assert not ChipHold.objects.exists() and chips(owner) == 1000
    salon_services.close_room(user=owner, room=Room.objects.get(pk=table.room_id))
    assert Room.objects.get(pk=table.room_id).status == Room.Status.CLOSED


def test_one_owner_cannot_keep_more_than_a_few_bot_matches_running():
    owner = make_user()
    started = []
    for _ in range(services.BOT_MATCHES_PER_OWNER):
        table, _users = make_table(owner=owner, players=[make_user()])
        started.append(services.start_match(user=owner, table_id=table.id, with_bots=True))
    table, _users = make_table(owner=owner, players=[make_user()])
    with pytest.raises(services.GameError) as error:
        services.start_match(user=owner, table_id=table.id, with_bots=True)
    assert error.value.code == "too_many_bot_matches" and str(error.value)
    assert services.fill_with_bots(table_id=table.id) is None
    assert not Match.objects.filter(table=table).exists()
    assert not Seat.objects.filter(table=table, user__is_bot=True).exists()


def test_an_abandoned_chip_match_gives_back_what_it_held():
    table, users = make_table(rules=CHIPS_100)
    start(table, users)
    services.abandon_match(table_id=table.id, reason="staff")
    assert not ChipHold.objects.exists()
    assert [chips(user) for user in users] == [1000] * 4
    assert ledger_differences() == []


def test_a_chip_match_ends_after_the_hands_its_room_chose():
    table, users = make_table(rules=RuleSet.preset("chips", stake=10, chip_hands=1))
    match = start(table, users)
    starter_finishes(table, users, current_hand(match))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.state["ended"] == "hands"
    assert services.start_next_hand(match_id=match.pk) is None
    assert not ChipHold.objects.exists() and ledger_differences() == []
