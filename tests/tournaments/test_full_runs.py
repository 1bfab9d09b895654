"""The proof of issue 14: a 64-player knockout and a 30-minute arena, every seat played by the
turn clock's bot, through the real services to the end (clock driven, never slept). Runs on
SQLite and on PostgreSQL (CI)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Match
from tournaments import logic, services
from tournaments.models import Entry, Format, Tournament, TournamentTable

from .conftest import make_players, new_tournament, play_tables, register_all, reload

pytestmark = pytest.mark.django_db


def test_a_64_player_knockout_to_one_final_table():
    start = timezone.now()
    tournament = new_tournament(now=start - timedelta(minutes=10), buy_in=10, max_players=64)
    players = make_players(64)
    chips_before = sum(p.chips for p in players)
    register_all(tournament, players, now=start - timedelta(minutes=5))
    clock = start
    rounds_seen = []
    while True:
        services.sweep(now=clock)
        tournament = reload(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            break
        tables = TournamentTable.objects.filter(tournament=tournament, round=tournament.round)
        rounds_seen.append((tournament.round, tables.count()))
        # Everyone still in sits at exactly one table of the round; 64 players → no bots.
        seated = [u for t in tables for u in t.players if u is not None]
        assert len(seated) == len(set(seated))
        play_tables(tournament)
        clock += timedelta(minutes=15)
    assert rounds_seen == [(1, 16), (2, 4), (3, 1)]
    assert logic.knockout_rounds(64, 1) == 3
    entries = list(Entry.objects.filter(tournament=tournament).order_by("place"))
    assert sorted(e.place for e in entries) == list(range(1, 65))
    # The four finalists take places 1-4, the other round-2 players 5-16.
    final = TournamentTable.objects.get(tournament=tournament, round=3)
    assert {e.user_id for e in entries[:4]} == set(final.players)
    round_two = {u for t in TournamentTable.objects.filter(tournament=tournament, round=2) for u in t.players}
    assert {e.user_id for e in entries[:16]} == round_two
    # Every winner of round 1 went on, nobody else did.
    went_on = [u for t in TournamentTable.objects.filter(tournament=tournament, round=1) for u in t.went_on]
    assert sorted(went_on) == sorted(round_two)
    assert sum(e.prize for e in entries) == tournament.pool == 640
    assert entries[0].prize >= 480
    assert all(e.prize == 0 for e in entries[4:])
    for player in players:
        player.refresh_from_db(fields=["chips"])
    assert sum(p.chips for p in players) == chips_before
    assert not Match.objects.filter(table__room=tournament.room, status=Match.Status.RUNNING).exists()


def test_a_30_minute_arena_with_bots_in_every_seat():
    start = timezone.now()
    tournament = new_tournament(now=start - timedelta(minutes=10), format=Format.ARENA, duration_minutes=30,
                                buy_in=20, added_chips=100)
    players = make_players(10)
    register_all(tournament, players, now=start - timedelta(minutes=5))
    clock = start
    seatings = 0
    while True:
        services.sweep(now=clock)
        tournament = reload(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            break
        playing = TournamentTable.objects.filter(tournament=tournament, status="playing")
        seatings += playing.count()
        # Ten players: two full tables and two with bots, or fewer free players waiting a moment.
        seated = [u for t in playing for u in t.players if u is not None]
        assert len(seated) == len(set(seated))
        play_tables(tournament)
        clock += timedelta(minutes=5)  # a hand takes about this long at 20 s a turn
        assert clock < start + timedelta(minutes=60), "the arena must end at its end time"
    assert tournament.finished_at >= tournament.ends_at == start + timedelta(minutes=30)
    # Seated again and again: six five-minute waves of three tables each.
    assert seatings >= 12
    entries = list(Entry.objects.filter(tournament=tournament).order_by("place"))
    assert [e.place for e in entries] == list(range(1, 11))
    points = [e.points for e in entries]
    assert points == sorted(points, reverse=True) and points[0] > 0
    # Points are what the tables' hands were worth: recomputed from the matches' own history.
    expected: dict[int, int] = {}
    for table in TournamentTable.objects.filter(tournament=tournament):
        match = Match.objects.get(pk=table.match_id)
        for entry in match.state["history"]:
            for seat, value in enumerate(logic.arena_hand_points(entry, len(table.players))):
                if table.players[seat] is not None:
                    expected[table.players[seat]] = expected.get(table.players[seat], 0) + value
    assert {e.user_id: e.points for e in entries} == {u: expected.get(u, 0) for u in (e.user_id for e in entries)}
    assert tournament.pool == 300
    assert [e.prize for e in entries[:3]] == [150, 90, 60]
    assert sum(e.prize for e in entries) == 300
