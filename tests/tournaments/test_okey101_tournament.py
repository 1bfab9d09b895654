"""A tournament of 101 Okey (RULES.md "Tournaments": a tournament may be of 101; knockout and
arena; 11 hands by default): created from the staff form, every table plays 101, the lowest total
goes on, the final table is paid, and an arena scores each finished hand by its multiplier."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine.okey101.rules import Rules101
from games.models import Match
from tournaments import logic, services
from tournaments.forms import TournamentForm
from tournaments.models import Entry, Tournament, TournamentTable

from .conftest import make_players, new_tournament, play_tables, register_all, reload

pytestmark = pytest.mark.django_db


def rules_101(**options):
    return {"game": "okey101", **Rules101(**options).to_dict()}


def test_the_staff_form_makes_a_101_tournament_of_11_hands_by_default():
    data = {"name": "101 akşamı", "format": "knockout", "game": "okey101", "hands_101": "11", "scoring": "penalty",
            "hands_per_match": "1", "players": "4", "turn_seconds": "20", "starts_at": "2030-01-01T20:00",
            "registration_minutes": "60", "min_players": "4", "max_players": "64", "buy_in": "0",
            "duration_minutes": "30", "go_on": "1"}
    form = TournamentForm(data=data)
    assert form.is_valid(), form.errors
    assert form.service_fields()["rules"] == rules_101(hands=11)
    assert TournamentForm().fields["hands_101"].initial == 11


def test_a_101_tournament_refuses_eşli():
    with pytest.raises(services.TournamentError) as refused:
        new_tournament(rules=rules_101(partners=True))
    assert "eşli" in str(refused.value.message)


def test_an_8_player_101_knockout_plays_101_at_every_table_to_a_paid_final():
    start = timezone.now()
    tournament = new_tournament(now=start - timedelta(minutes=10), buy_in=10, max_players=8,
                                rules=rules_101(hands=3))
    assert tournament.rules["game"] == "okey101"
    players = make_players(8)
    register_all(tournament, players, now=start - timedelta(minutes=5))
    clock = start
    while True:
        services.sweep(now=clock)
        tournament = reload(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            break
        play_tables(tournament)
        clock += timedelta(minutes=30)
        assert clock < start + timedelta(hours=6)
    tables = list(TournamentTable.objects.filter(tournament=tournament).order_by("round", "pk"))
    assert [table.round for table in tables] == [1, 1, 2]
    for table in tables:
        match = Match.objects.get(pk=table.match_id)
        assert match.rules["game"] == "okey101" and match.state["hands_played"] == 3
        # The lowest total placed first at each table.
        scores = match.state["scores"]
        assert scores[table.ranking[0]] == min(scores)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("place"))
    assert sum(entry.prize for entry in entries) == tournament.pool == 80
    assert entries[0].prize >= 60


def test_arena_points_of_a_101_hand_are_2_times_the_finish_multiplier():
    def entry(multiplier, finisher=1):
        sheet = [{"multiplier": multiplier} for _ in range(4)]
        return {"reason": "finished", "finisher": finisher, "sheet": sheet, "scores": [0, 0, 0, 0]}

    assert logic.arena_hand_points(entry(1), 4) == [0, 2, 0, 0]
    assert logic.arena_hand_points(entry(4), 4) == [0, 8, 0, 0]
    assert logic.arena_hand_points({"reason": "pile_out", "finisher": None, "sheet": [{"multiplier": 1}] * 4}, 4) == [0] * 4


def test_101_knockout_prizes_weigh_the_other_finalists_by_how_far_under_the_highest_total():
    payout = logic.knockout_prizes(100, [(1, -300), (2, 100), (3, 200), (4, 500)], scoring=logic.OKEY101)
    # Weights 400 and 300 (the last placed, at the highest total, gets nothing): 25 chips split
    # 14.3 / 10.7, the remainder to the larger fraction; the winner keeps 75.
    assert payout == {1: 75, 2: 14, 3: 11}
