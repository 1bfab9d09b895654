"""Absent players never win a tournament (issue 24, RULES.md): a person who never connects is
played by the turn clock — a draw and a discard, never a finish — cannot go on or take a prize
place (the best-placed person who played goes on, as for bots), and scores no arena points. And
one truth at the end (issue 19, item 4): the champion reads "kazandı", never "sırada" or
"elendi"; a tournament table names the person who won, never a bot; no "Tekrar oyna" there, and
the home page no longer sends anyone back to a finished tournament's table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import selectors as game_selectors
from games import services as game_services
from games.errors import GameError
from games.models import Match, MatchPlayer, Move
from tournaments.models import Entry, Format, Tournament, TournamentTable

from . import conftest
from .conftest import make_players, new_tournament, play_tables, register_all, reload

pytestmark = pytest.mark.django_db


def run_knockout(tournament, *, absent=()):
    """From the start time to the end: each round's tables played, the pause passed."""
    clock = tournament.starts_at
    for _ in range(20):
        conftest.services.sweep(now=clock)
        tournament = reload(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            return tournament
        play_tables(tournament, absent=absent)
        clock += timedelta(minutes=15)
    raise AssertionError("the knockout did not finish")


def test_a_whole_knockout_with_a_player_who_never_connects():
    start = timezone.now()
    tournament = new_tournament(now=start - timedelta(minutes=10), buy_in=10)
    players = make_players(16)
    register_all(tournament, players, now=start - timedelta(minutes=5))
    # The strongest seed (most likely to be carried far by anyone playing for them) never connects.
    ghost = players[0]
    tournament = run_knockout(tournament, absent=[ghost])
    tables = list(TournamentTable.objects.filter(tournament=tournament))
    (first,) = [t for t in tables if ghost.pk in t.players]
    assert first.round == 1, "put out at the first table"
    assert all(ghost.pk not in (t.went_on or []) for t in tables)
    # The clock never finished for them, nor showed, nor declared; it drew and discarded.
    seat = first.players.index(ghost.pk)
    played = set(Move.objects.filter(hand__match_id=first.match_id, seat=seat).values_list("action", "auto"))
    assert played <= {("draw", True), ("discard", True), ("pile_out", True)}
    assert MatchPlayer.objects.get(match_id=first.match_id, user=ghost).absent
    # Someone who played went on from that table (the best-placed present person).
    assert len(first.went_on) == 1 and first.went_on[0] != ghost.pk
    entries = {e.user_id: e for e in Entry.objects.filter(tournament=tournament)}
    assert entries[ghost.pk].state == Entry.State.OUT and entries[ghost.pk].prize == 0
    champion = min(entries.values(), key=lambda e: e.place)
    assert champion.user_id != ghost.pk and champion.state == Entry.State.WON and champion.prize > 0
    assert sum(e.prize for e in entries.values()) == tournament.pool == 160
    # At the ghost's table, the ghost is placed after the three who played.
    people = [first.players[s] for s in first.ranking if first.players[s] is not None]
    assert people[-1] == ghost.pk
    assert entries[ghost.pk].place > max(entries[u].place for u in people[:-1])


def test_a_knockout_final_the_only_person_present_wins_whatever_the_clock_did():
    start = timezone.now()
    tournament = new_tournament(now=start - timedelta(minutes=10), buy_in=30)
    players = make_players(3)
    register_all(tournament, players, now=start - timedelta(minutes=5))
    present = players[2]
    tournament = run_knockout(tournament, absent=players[:2])
    entries = {e.user_id: e for e in Entry.objects.filter(tournament=tournament)}
    assert entries[present.pk].state == Entry.State.WON and entries[present.pk].place == 1
    assert entries[present.pk].prize == tournament.pool == 90
    assert all(entries[p.pk].prize == 0 and entries[p.pk].state == Entry.State.OUT for p in players[:2])


def test_a_whole_arena_with_a_player_who_never_connects():
    start = timezone.now()
    tournament = new_tournament(now=start - timedelta(minutes=10), format=Format.ARENA, duration_minutes=10,
                                buy_in=20)
    players = make_players(6)
    register_all(tournament, players, now=start - timedelta(minutes=5))
    ghost = players[0]
    clock = start
    while True:
        conftest.services.sweep(now=clock)
        tournament = reload(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            break
        play_tables(tournament, absent=[ghost])
        clock += timedelta(minutes=5)
        assert clock < start + timedelta(minutes=60)
    seated = [t for t in TournamentTable.objects.filter(tournament=tournament) if ghost.pk in t.players]
    assert seated, "the ghost was seated and played by the clock"
    for table in seated:
        seat = table.players.index(ghost.pk)
        assert not Move.objects.filter(hand__match_id=table.match_id, seat=seat, action="finish").exists()
    entries = sorted(Entry.objects.filter(tournament=tournament), key=lambda e: e.place)
    ghost_entry = next(e for e in entries if e.user_id == ghost.pk)
    assert ghost_entry.points == 0 and ghost_entry.hands_won == 0 and ghost_entry.prize == 0
    assert ghost_entry.place == len(entries), "placed after everyone who played"
    assert ghost_entry.state == Entry.State.COMPLETED
    assert entries[0].state == Entry.State.WON and entries[0].user_id != ghost.pk
    assert all(e.state == Entry.State.COMPLETED for e in entries[1:])
    assert [e.prize for e in entries[:3]] == [60, 36, 24] and sum(e.prize for e in entries) == tournament.pool


def test_arena_points_are_not_paid_for_a_hand_the_clock_played():
    from tournaments import services

    start = timezone.now()
    tournament = new_tournament(now=start - timedelta(minutes=10), format=Format.ARENA, duration_minutes=10)
    players = make_players(4)
    register_all(tournament, players, now=start - timedelta(minutes=5))
    services.sweep(now=start)
    (table,) = TournamentTable.objects.filter(tournament=reload(tournament))
    match = Match.objects.get(pk=table.match_id)
    # Seat 0 showed the indicator (a point) and finished — but the clock played most of its hand.
    history = {"reason": "finished", "finisher": 0, "kind": "sets", "shown_indicators": [0]}
    match_state = type("S", (), {"history": [history], "scores": [0, 0, 0, 0]})()
    named = services.hand_recorded(match=match, match_state=match_state, clock_played={0})
    entries = {e.user_id: e for e in Entry.objects.filter(tournament=tournament)}
    assert entries[table.players[0]].points == 0 and entries[table.players[0]].hands_won == 0
    assert named == set(), "nobody is the winner of a hand only the clock scored"


def test_the_finished_tournament_says_who_won_and_its_tables_name_the_person_never_a_bot():
    start = timezone.now()
    tournament = new_tournament(now=start - timedelta(minutes=10))
    players = make_players(3)  # one table: three people and a bot
    register_all(tournament, players, now=start - timedelta(minutes=5))
    tournament = run_knockout(tournament)
    (table,) = TournamentTable.objects.filter(tournament=tournament)
    entries = {e.user_id: e for e in Entry.objects.filter(tournament=tournament)}
    champion = next(e for e in entries.values() if e.place == 1)
    assert champion.state == Entry.State.WON
    assert {e.state for e in entries.values() if e.place > 1} == {Entry.State.COMPLETED}
    # The table's result names the champion, whatever the bot scored.
    match = Match.objects.get(pk=table.match_id)
    winners = list(MatchPlayer.objects.filter(match=match, is_winner=True).values_list("user_id", flat=True))
    assert winners == [champion.user_id]
    frame = game_selectors.table_frame(match=match, hand=match.hands.order_by("-number").first(), seat=None)
    assert frame["match"]["winners"] == [table.players.index(champion.user_id)]
    # The page: "kazandı" for the champion, "tamamladı" for the others; nobody "sırada" or "elendi".
    page = Client().get(tournament.get_absolute_url()).content.decode()
    assert "kazandı" in page and "tamamladı" in page
    assert "sırada" not in page and "elendi" not in page
    # No rematch at a tournament table, and the home page sends nobody back to it.
    person = next(p for p in players if p.pk == champion.user_id)
    with pytest.raises(GameError) as refused:
        game_services.accept_rematch(user=person, table_id=table.table_id)
    assert refused.value.code == "no_rematch"
    client = Client()
    client.force_login(person)
    home = client.get("/").content.decode()
    assert 'data-testid="home-my-table"' not in home and 'data-testid="my-table"' not in home


def test_a_tournament_table_page_knows_it_is_one_so_it_offers_no_rematch():
    start = timezone.now()
    tournament = new_tournament(now=start - timedelta(minutes=10))
    players = make_players(4)
    register_all(tournament, players, now=start - timedelta(minutes=5))
    conftest.services.sweep(now=start)
    (table,) = TournamentTable.objects.filter(tournament=reload(tournament))
    client = Client()
    client.force_login(players[0])
    page = client.get(f"/tables/{table.table_id}/").content.decode()
    assert f'data-tournament-url="{tournament.get_absolute_url()}"' in page
    assert 'data-testid="home-my-table"' in client.get("/").content.decode(), "a table in play is theirs"


def test_when_nobody_who_played_is_left_no_prize_goes_to_an_absent_player_and_the_buy_ins_go_back():
    start = timezone.now()
    tournament = new_tournament(now=start - timedelta(minutes=10), buy_in=25)
    players = make_players(2)  # one table: two people and two bots, and neither person connects
    chips = {p.pk: p.chips for p in players}
    register_all(tournament, players, now=start - timedelta(minutes=5))
    tournament = run_knockout(tournament, absent=players)
    entries = list(Entry.objects.filter(tournament=tournament))
    assert all(e.prize == 0 and e.state == Entry.State.OUT for e in entries), "nobody won"
    for player in players:
        player.refresh_from_db()
        assert player.chips == chips[player.pk], "the buy-in came back"
