"""Tournaments through the real services: a salon with its staff, players with chips, and a
driver that plays every table to the end — the people their own turns, the bots and those who
never connect by the turn clock (no sleeping: deadlines are moved into the past and the clock's
own service plays them)."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services as game_services
from games.engine.rules import RuleSet
from games.models import Hand, Match
from tests.conftest import make_player, make_salon  # noqa: F401 (make_player: for tests that log in)
from tournaments import services
from tournaments.models import Tournament, TournamentTable

_names = itertools.count(1)


def make_staff(salon):
    from salons.models import SalonStaff

    user = make_player(f"sorumlu{next(_names)}")
    SalonStaff.objects.create(salon=salon, user=user)
    return user


def make_site_admin():
    return make_player(f"yonetici{next(_names)}", is_staff=True, is_superuser=True)


def make_players(count: int, prefix: str = "t"):
    """Players who never log in (no password hashing: sixty-four of them cost nothing)."""
    from django.contrib.auth import get_user_model

    User = get_user_model()
    base = next(_names)
    names = [f"{prefix}{base}x{index}" for index in range(count)]
    User.objects.bulk_create(User(username=name, email=f"{name}@private.example", password="!") for name in names)
    return list(User.objects.filter(username__in=names).order_by("pk"))


def new_tournament(*, salon=None, staff=None, starts_in=timedelta(minutes=10), now=None, **fields):
    salon = salon or make_salon()
    # Only a site admin adds chips to a prize (issue 18): such a tournament is theirs by default.
    staff = staff or (make_site_admin() if fields.get("added_chips") else make_staff(salon))
    now = now or timezone.now()
    defaults = {"name": "Akşam turnuvası", "rules": RuleSet.preset("penalty").to_dict(), "min_players": 2,
                "max_players": 256, "registration_minutes": 60}
    return services.create_tournament(actor=staff, salon=salon, starts_at=now + starts_in, now=now,
                                      **{**defaults, **fields})


def register_all(tournament, players, now=None):
    for player in players:
        services.register(user=player, tournament_id=tournament.pk, now=now)


def running_hands(tournament):
    match_ids = TournamentTable.objects.filter(tournament=tournament).values_list("match_id", flat=True)
    return Hand.objects.filter(match_id__in=match_ids, status=Hand.Status.PLAYING)


def play_tables(tournament, *, max_hands: int = 100_000, absent=()) -> int:
    """Play every table of the tournament until none has a hand in play: the people play their own
    turns (each decision the normal bot's, sent through ``games.services.play``), the seated bots
    and the users in ``absent`` (who never connect) are played by the turn clock's service.
    Matches between hands get their next hand dealt. Returns the hands played."""
    from tests.games.conftest import play_hand_out

    played = 0
    while played < max_hands:
        match_ids = list(TournamentTable.objects.filter(tournament=tournament, status="playing")
                         .values_list("match_id", flat=True))
        for match in Match.objects.filter(pk__in=match_ids, status=Match.Status.RUNNING).exclude(
                hands__status=Hand.Status.PLAYING):
            game_services.start_next_hand(match_id=match.pk)
        hands = list(running_hands(tournament).select_related("match"))
        if not hands:
            return played
        for hand in hands:
            play_hand_out(hand, absent=absent)
            played += 1
    raise AssertionError("tables did not finish")


def tournament_chips(tournament, users) -> int:
    for user in users:
        user.refresh_from_db(fields=["chips"])
    return sum(user.chips for user in users)


@pytest.fixture
def salon(db):
    return make_salon()


def reload(tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)
