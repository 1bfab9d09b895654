"""Tournaments through the real services: a salon with its staff, players with chips, and a
driver that plays every table to the end with the turn clock (no sleeping: deadlines are moved
into the past and the clock's own service plays them)."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services as game_services
from games.engine.rules import RuleSet
from games.models import Hand, Match, MatchPlayer
from tests.conftest import make_player, make_salon  # noqa: F401 (make_player: for tests that log in)
from tournaments import services
from tournaments.models import Tournament, TournamentTable

_names = itertools.count(1)


def make_staff(salon):
    from salons.models import SalonStaff

    user = make_player(f"sorumlu{next(_names)}")
    SalonStaff.objects.create(salon=salon, user=user)
    return user


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
    staff = staff or make_staff(salon)
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


def play_tables(tournament, *, max_moves: int = 100_000, everyone_away: bool = True) -> int:
    """Play every table of the tournament until none has a hand in play: each overdue turn is
    played by the turn clock's service (three time-outs and the bot takes over, as for anyone
    away). Matches between hands get their next hand dealt. Returns the moves played."""
    played = 0
    past = timezone.now() - timedelta(seconds=1)
    while played < max_moves:
        match_ids = list(TournamentTable.objects.filter(tournament=tournament, status="playing")
                         .values_list("match_id", flat=True))
        for match in Match.objects.filter(pk__in=match_ids, status=Match.Status.RUNNING).exclude(
                hands__status=Hand.Status.PLAYING):
            game_services.start_next_hand(match_id=match.pk)
        hands = list(running_hands(tournament).values_list("pk", "move", "match_id"))
        if not hands:
            return played
        if everyone_away:
            # Nobody is connected: the bot plays every seat at once (what three time-outs lead to).
            MatchPlayer.objects.filter(match_id__in={match for _, _, match in hands}, away=False).update(
                away=True, timeouts_in_row=3)
        hands = [(pk, move) for pk, move, _ in hands]
        Hand.objects.filter(pk__in=[pk for pk, _ in hands]).update(deadline=past)
        for hand_id, move in hands:
            played += game_services.resolve_timeout(hand_id=hand_id, move=move)
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
