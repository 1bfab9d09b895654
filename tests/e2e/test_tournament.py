"""Two people register for an arena in their browsers; it starts; both pages are taken to their
table, they play, and a tournament page open beside them shows the standings change live.

The start and the turns nobody plays are the beat's and the turn clock's: the test calls their
services with the deadline moved into the past instead of waiting for them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import services as game_services
from games.models import Hand, MatchPlayer
from tests.conftest import make_player, make_salon
from tests.e2e.conftest import wait_until
from tests.e2e.table_helpers import throw_a_tile
from tests.tournaments.conftest import make_staff
from tournaments import services
from tournaments.models import Entry, Format, TournamentTable

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def play_for_bots_until_a_person_is_on_turn(hand: Hand, people: set[int]) -> Hand:
    while True:
        hand.refresh_from_db()
        players = {p.seat: p.user_id for p in MatchPlayer.objects.filter(match_id=hand.match_id)}
        if hand.status != Hand.Status.PLAYING or players[hand.turn_seat] in people:
            return hand
        Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        game_services.resolve_timeout(hand_id=hand.pk, move=hand.move)


def test_two_people_register_are_taken_to_their_table_play_and_see_the_standings(new_page, asgi_live_server):
    salon = make_salon("genel", name="Genel")
    staff = make_staff(salon)
    now = timezone.now()
    tournament = services.create_tournament(actor=staff, salon=salon, starts_at=now + timedelta(minutes=30),
                                            name="Akşam arenası", format=Format.ARENA, duration_minutes=30,
                                            min_players=2, turn_seconds=60, buy_in=50)
    people = [make_player("Ayse"), make_player("Mehmet")]
    pages = []
    for person in people:
        page = new_page(person)
        page.goto(f"/tournaments/{tournament.pk}/")
        page.get_by_test_id("register").click()
        expect(page.get_by_text("Turnuvaya kaydoldunuz.")).to_be_visible()
        expect(page.locator("[data-my-chips]")).to_have_text("950")
        pages.append(page)
    watcher = new_page(staff)
    watcher.goto(f"/tournaments/{tournament.pk}/")
    for person in people:
        expect(watcher.locator(f'tr[data-player="{person.username}"]')).to_be_visible()
    pages[1].goto("/")  # one waits in the lobby: the reminder shows there
    expect(pages[1].get_by_test_id("tournament-strip")).to_contain_text("Akşam arenası")

    # Start time: the beat's sweep starts the arena and seats the two with two bots.
    services.sweep(now=tournament.starts_at)
    table = TournamentTable.objects.get(tournament=tournament)
    for page in pages:
        expect(page).to_have_url(f"{asgi_live_server.url}/tables/{table.table_id}/")
        expect(page.locator("#conn-status")).to_have_attribute("data-state", "ok")
        expect(page.locator("#rack .tile")).not_to_have_count(0)
    expect(watcher.locator(f'li[data-table="{table.table_id}"]')).to_contain_text("izle")

    # Each person plays a turn through the page; the bots play theirs between.
    hand = Hand.objects.get(match_id=table.match_id)
    ids = {person.pk: page for person, page in zip(people, pages, strict=True)}
    played = set()
    while len(played) < 2:
        hand = play_for_bots_until_a_person_is_on_turn(hand, set(ids) - played)
        assert hand.status == Hand.Status.PLAYING, "a bot finished before both people played"
        user_id = MatchPlayer.objects.get(match_id=hand.match_id, seat=hand.turn_seat).user_id
        page = ids[user_id]
        expect(page.locator("#clock")).to_contain_text("Sıra sizde")
        count = page.locator("#rack .tile").count()
        if count == 14:
            page.locator("#pile").click()
            expect(page.locator("#rack .tile")).to_have_count(15)
        throw_a_tile(page, last=True)
        wait_until(lambda hand=hand: Hand.objects.get(pk=hand.pk).move > hand.move, message="the move")
        played.add(user_id)

    # Then they step away: the turn clock's bot plays the rest of the hand for everyone.
    MatchPlayer.objects.filter(match_id=hand.match_id).update(away=True, timeouts_in_row=3)
    while True:
        hand.refresh_from_db()
        if hand.status != Hand.Status.PLAYING:
            break
        Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        game_services.resolve_timeout(hand_id=hand.pk, move=hand.move)
    for page in pages:
        expect(page.locator("#result-dialog")).to_be_visible()

    # The hand scored; the tournament page open beside them shows it without a reload.
    expect(watcher.locator(f'li[data-table="{table.table_id}"]')).to_contain_text("bitti")
    for person in people:
        points = Entry.objects.get(tournament=tournament, user=person).points
        expect(watcher.locator(f'tr[data-player="{person.username}"] [data-points]')).to_have_text(str(points))
    # Free again: the next sweep seats them at a new table, and their pages follow.
    services.sweep(now=tournament.starts_at + timedelta(minutes=5))
    second = TournamentTable.objects.filter(tournament=tournament, status="playing").get()
    assert second.table_id != table.table_id
    for page in pages:
        expect(page).to_have_url(f"{asgi_live_server.url}/tables/{second.table_id}/")
    expect(watcher.locator(f'li[data-table="{second.table_id}"]')).to_contain_text("izle")
