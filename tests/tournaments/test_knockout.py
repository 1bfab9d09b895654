"""A knockout through the real services, from registration to the prize."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import ChipTransaction
from tournaments import services
from tournaments.models import Entry, Tournament, TournamentTable

from .conftest import make_players, new_tournament, play_tables, register_all, reload

pytestmark = pytest.mark.django_db


def test_a_small_knockout_plays_to_a_winner_and_pays_the_pool():
    # Registration ten minutes ago, the start time now: the test drives the clock forward from it.
    now = timezone.now() - timedelta(minutes=10)
    tournament = new_tournament(buy_in=100, added_chips=50, now=now)
    players = make_players(6)
    before = sum(p.chips for p in players)
    register_all(tournament, players, now=now)
    assert services.step(tournament_id=tournament.pk, now=now) == "not_due"
    start = tournament.starts_at
    assert services.sweep(now=start) == 1
    tournament = reload(tournament)
    assert tournament.status == Tournament.Status.RUNNING and tournament.round == 1
    assert tournament.pool == 650
    tables = list(TournamentTable.objects.filter(tournament=tournament))
    assert len(tables) == 2
    assert sum(t.players.count(None) for t in tables) == 2  # six players, two bots
    play_tables(tournament)
    assert services.sweep(now=start + timedelta(seconds=1)) == 0  # the results pause
    services.sweep(now=start + timedelta(minutes=5))
    tournament = reload(tournament)
    assert tournament.round == 2
    final = TournamentTable.objects.get(tournament=tournament, round=2)
    assert final.players.count(None) == 2  # the two winners and two bots
    play_tables(tournament)
    services.sweep(now=start + timedelta(minutes=10))
    tournament = reload(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    entries = list(Entry.objects.filter(tournament=tournament).order_by("place"))
    assert [e.place for e in entries] == [1, 2, 3, 4, 5, 6]
    assert sum(e.prize for e in entries) == 650
    assert entries[0].prize >= 650 * 75 // 100
    assert entries[0].user_id in final.players
    for player in players:
        player.refresh_from_db()
    assert sum(p.chips for p in players) == before + 50  # buy-ins back out as prizes, plus the added chips
    assert ChipTransaction.objects.filter(note__startswith=f"tournament {tournament.pk} place").count() == \
        sum(1 for e in entries if e.prize)
