"""Practice tables: outside the salons, one per player, leave at any time, never rated, and no
flood (issue 10, item 6: ten posts made ten rooms and ten matches, filled a salon, and worked for
a banned session)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import practice, services
from games.engine import match as engine_match
from games.models import Hand, Match, MatchPlayer, PlayerRating, PracticeTable
from moderation.models import Sanction
from salons import selectors as salon_selectors
from salons import services as salon_services
from salons.models import Room, Salon, Seat, Table

from .conftest import make_table, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def a_salon():
    return Salon.objects.get_or_create(slug="genel", defaults={"name": "Genel", "max_rooms": 3})[0]


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_practice_flood_is_refused(a_salon):
    """The attack: ten posts to /practice/. One table, one running match, nothing in the salon."""
    player = make_user("Selcan")
    client = signed_in(player)
    for _ in range(10):
        response = client.post("/practice/", {"level": "normal"})
        assert response.status_code == 302
    assert PracticeTable.objects.filter(user=player).count() == 1
    running = Match.objects.filter(players__user=player, status=Match.Status.RUNNING)
    assert running.count() == 1
    assert Room.objects.filter(owner=player, status=Room.Status.OPEN).count() == 1
    # The salon's room limit is untouched: other players can still open rooms there.
    assert not a_salon.rooms.exists()
    assert salon_selectors.salon_rooms(salon=a_salon) == []
    for name in ("Oda bir", "Oda iki", "Oda üç"):
        salon_services.open_room(user=make_user(), salon=a_salon, name=name)


def test_leaving_and_starting_again_is_limited_per_hour():
    player = make_user("Tekrarcı")
    for _ in range(practice.PRACTICE_PER_HOUR):
        practice.start_practice(user=player)
        assert services.leave_practice(user=player)
    with pytest.raises(services.GameError) as refused:
        practice.start_practice(user=player)
    assert refused.value.code == "too_many_practice_tables"
    PracticeTable.objects.filter(user=player).update(created_at=timezone.now() - timedelta(hours=2))
    practice.start_practice(user=player)


def test_a_banned_session_cannot_start_practice():
    player = make_user("Yasaklı")
    Sanction.objects.create(user=player, kind=Sanction.Kind.SITE_BAN, reason="hakaret",
                            expires_at=timezone.now() + timedelta(days=1))
    response = signed_in(player).post("/practice/", follow=True)
    assert not PracticeTable.objects.filter(user=player).exists()
    assert "hakaret" in response.content.decode()


def test_no_practice_while_a_real_match_runs():
    table, users = make_table()
    from games.services import start_seated_match

    start_seated_match(table=table, seats=list(Seat.objects.filter(table=table).order_by("position")))
    with pytest.raises(services.GameError) as refused:
        practice.start_practice(user=users[0])
    assert refused.value.code == "already_playing"


def test_a_second_click_resumes_the_same_table_and_level():
    player = make_user("Dönen")
    first = practice.start_practice(user=player, level="hard")
    again = practice.start_practice(user=player, level="easy")
    assert again.pk == first.pk
    assert services.bot_level_for(first.pk) == "hard"


def test_a_bad_level_is_a_clear_error():
    with pytest.raises(services.GameError) as refused:
        practice.start_practice(user=make_user(), level="grandmaster")
    assert refused.value.code == "bad_level"


def test_practice_is_outside_the_salons_and_never_counted(a_salon):
    player = make_user("Gizli")
    table = practice.start_practice(user=player)
    assert table.room.salon.slug != a_salon.slug
    assert not table.room.salon.is_active
    assert [salon["slug"] for salon in salon_selectors.lobby_salons()] == ["genel"]
    assert salon_selectors.lobby_salons()[0]["people"] == 0
    assert Client().get(f"/salons/{table.room.salon.slug}/").status_code == 404


def test_leaving_closes_the_table_and_drops_the_match():
    player = make_user("Kaçan")
    table = practice.start_practice(user=player)
    assert services.leave_practice(user=player)
    assert Match.objects.get(table=table).status == Match.Status.ABANDONED
    table.room.refresh_from_db()
    assert table.room.status == Room.Status.CLOSED
    assert not Seat.objects.filter(table=table, user__isnull=False).exists()
    assert practice.open_practice_of(player) is None
    assert not services.leave_practice(user=player)


def test_the_leave_button_posts_and_goes_home():
    player = make_user("Düğme")
    practice.start_practice(user=player)
    response = signed_in(player).post("/practice/leave/")
    assert response.status_code == 302
    assert practice.open_practice_of(player) is None


def test_sitting_at_a_real_table_leaves_practice():
    player = make_user("Gerçekçi")
    practice_table = practice.start_practice(user=player)
    table, _users = make_table(players=[])
    seat = salon_services.take_seat(user=player, table=table, position=0)
    assert seat.user_id == player.pk
    assert Match.objects.get(table=practice_table).status == Match.Status.ABANDONED
    assert practice.open_practice_of(player) is None


def test_starting_practice_gives_up_a_waiting_seat():
    player = make_user("Bekleyen")
    table, _users = make_table(players=[player])
    practice.start_practice(user=player)
    assert not Seat.objects.filter(table=table, user=player).exists()


def play_out_the_hand(table: Table) -> None:
    """Every seat's clock runs out until the hand is over (the bot plays the away person too)."""
    hand = Hand.objects.filter(match__table=table).order_by("-id").first()
    MatchPlayer.objects.filter(match=hand.match).update(away=True)
    for _ in range(400):
        if hand.status == Hand.Status.OVER:
            return
        Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        services.resolve_timeout(hand_id=hand.id, move=hand.move)
        hand.refresh_from_db()
    raise AssertionError("the hand did not end")


def test_a_finished_practice_match_is_unrated_and_closes_itself():
    player = make_user("Sonuncu")
    table = practice.start_practice(user=player)
    match = Match.objects.get(table=table)
    # One point each: the first finished hand ends the match.
    state = engine_match.MatchState.from_dict(match.state)
    state.scores[:] = [1] * len(state.scores)
    Match.objects.filter(pk=match.pk).update(state=state.to_dict())
    for _ in range(20):
        play_out_the_hand(table)
        match.refresh_from_db()
        if match.status != Match.Status.RUNNING:
            break
        services.start_next_hand(match_id=match.id)
    assert match.status == Match.Status.FINISHED
    assert not PlayerRating.objects.filter(user=player).exists()
    player.refresh_from_db()
    assert practice.open_practice_of(player) is None
    table.room.refresh_from_db()
    assert table.room.status == Room.Status.CLOSED
