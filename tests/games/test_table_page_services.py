"""The services behind the table page's new controls: leaving a running match and coming back, a
rematch, player cards, the chat's history, the watcher count, and moves marked as played by the
server."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import selectors, services
from games.engine.rules import RuleSet
from games.models import Hand, Match, MatchPlayer, Move, PlayerRating
from salons.models import Seat, Table

from .conftest import make_table, make_user, rig_hand

pytestmark = pytest.mark.django_db

WINNING = "K1 K2 K3 K4 M5 M6 M7 S9 S10 S11 Y2 K2 M2 S2 Y13"
OTHERS = [
    "M9 M10 M11 K5 K6 K7 S3 S4 S5 Y6 Y7 Y8 Y9 Y10",
    "M1 M3 M4 K8 K9 K10 S6 S7 S8 Y3 Y4 Y5 Y11 Y12",
    "M12 M13 K11 K12 K13 S12 S13 Y1 M8 K9 S6 Y3 Y4 M3",
]


def started(rules: RuleSet | None = None):
    table, users = make_table(rules=rules)
    match = services.start_match(user=table.room.owner, table_id=table.id)
    return table, users, match, match.hands.get()


def overdue(hand: Hand) -> None:
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))


def test_leaving_a_running_match_frees_the_seat_and_a_bot_plays_it():
    table, users, match, hand = started()
    leaver = users[hand.turn_seat]
    services.leave_running_match(user=leaver, table_id=table.id)
    player = MatchPlayer.objects.get(match=match, user=leaver)
    assert player.away
    assert not Seat.objects.filter(table=table, user=leaver).exists()
    assert selectors.match_players(match.id)[player.seat].left
    # The left player's own moves are refused; their turn is played at once by the server.
    hand.refresh_from_db()
    with pytest.raises(services.GameError) as refused:
        services.play(user=leaver, table_id=table.id, action="discard", move=hand.move,
                      args={"tile": "K1"})
    assert refused.value.code == "left_match"
    assert hand.deadline <= timezone.now() + timedelta(seconds=services.AWAY_TURN_SECONDS)
    overdue(hand)
    assert services.resolve_timeout(hand_id=hand.id, move=hand.move)
    hand.refresh_from_db()
    assert hand.turn_seat != player.seat
    # The frame everyone gets says so.
    frame = selectors.table_frame(match=match, hand=hand, seat=None)
    assert [p["left"] for p in frame["players"]] == [p.seat == player.seat for p in match.players.order_by("seat")]
    # Leaving twice is refused with a clear code.
    with pytest.raises(services.GameError) as twice:
        services.leave_running_match(user=leaver, table_id=table.id)
    assert twice.value.code == "already_left"


def test_a_player_who_left_can_sit_at_another_table_at_once():
    from salons import services as salon_services

    table, users, match, hand = started()
    leaver = users[0]
    other, _ = make_table(players=[])
    with pytest.raises(salon_services.ServiceError):
        salon_services.take_seat(user=leaver, table=other, position=0)
    services.leave_running_match(user=leaver, table_id=table.id)
    salon_services.take_seat(user=leaver, table=other, position=0)
    assert Seat.objects.get(table=other, position=0).user == leaver


def test_coming_back_before_the_match_ends_gives_the_seat_back():
    table, users, match, hand = started()
    leaver = users[1]
    services.leave_running_match(user=leaver, table_id=table.id)
    services.return_to_match(user=leaver, table_id=table.id)
    assert Seat.objects.get(table=table, position=1).user == leaver
    player = MatchPlayer.objects.get(match=match, user=leaver)
    assert not player.away and player.timeouts_in_row == 0
    assert not selectors.match_players(match.id)[1].left
    with pytest.raises(services.GameError) as again:
        services.return_to_match(user=leaver, table_id=table.id)
    assert again.value.code == "not_left"


def test_coming_back_frees_a_seat_taken_meanwhile_at_a_waiting_table():
    from salons import services as salon_services

    table, users, match, hand = started()
    leaver = users[2]
    other, _ = make_table(players=[])
    services.leave_running_match(user=leaver, table_id=table.id)
    salon_services.take_seat(user=leaver, table=other, position=3)
    services.return_to_match(user=leaver, table_id=table.id)
    assert not Seat.objects.filter(table=other, user=leaver).exists()
    assert Seat.objects.get(table=table, position=2).user == leaver


def test_a_player_who_left_loses_the_match_and_the_clock_never_finishes_for_them():
    table, users, match, hand = started(RuleSet.preset("penalty", hands_per_match=1))
    # The starting seat holds a finished rack and leaves: the clock plays the seat, and never
    # finishes (RULES.md "Absent players never win"). A short pile: the hand soon runs out.
    starter = hand.turn_seat
    racks = list(OTHERS)
    rig_hand(hand, racks=[WINNING if seat == starter else racks.pop() for seat in range(4)], indicator="S7",
             pile="K13 S1 M2 Y4")
    leaver = users[starter]
    services.leave_running_match(user=leaver, table_id=table.id)
    hand.refresh_from_db()
    while hand.status == Hand.Status.PLAYING:
        overdue(hand)
        assert services.resolve_timeout(hand_id=hand.id, move=hand.move)
        hand.refresh_from_db()
    assert not Move.objects.filter(hand=hand, action="finish").exists()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    # Leaving is the player's own act: the match counts for them, as a loss.
    leaver.refresh_from_db()
    assert leaver.games_played == 1 and leaver.games_won == 0
    assert not MatchPlayer.objects.get(match=match, user=leaver).is_winner


def test_leaving_a_chip_table_loses_the_stake_to_the_players_who_stay():
    User = get_user_model()
    table, users, match, hand = started(RuleSet.preset("chips", stake=90))
    before = {user.pk: User.objects.get(pk=user.pk).chips for user in users}
    services.leave_running_match(user=users[0], table_id=table.id)
    after = {user.pk: User.objects.get(pk=user.pk).chips for user in users}
    # The chips held for the hand (4 × 90) come back to the leaver, who pays the stake from them.
    assert after[users[0].pk] == before[users[0].pk] + 360 - 90
    assert [after[user.pk] - before[user.pk] for user in users[1:]] == [30, 30, 30]


def test_a_rematch_starts_when_every_person_accepts_and_bots_always_do():
    from games import bot_players

    owner = make_user("Sahip")
    bots = list(bot_players.bot_users(2, exclude={owner.pk}))
    friend = make_user("Arkadaş")
    table, users = make_table(owner=owner, players=[owner, friend, *bots], rules=RuleSet(start_points=2))
    match = services.start_match(user=owner, table_id=table.id)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.WAITING)
    Hand.objects.filter(match=match).update(status=Hand.Status.OVER)
    assert services.accept_rematch(user=owner, table_id=table.id) is None
    rematch = services.accept_rematch(user=friend, table_id=table.id)
    assert rematch is not None and rematch.pk != match.pk
    assert list(rematch.players.order_by("seat").values_list("user_id", flat=True)) == [u.pk for u in users]
    with pytest.raises(services.GameError) as running:
        services.accept_rematch(user=owner, table_id=table.id)
    assert running.value.code == "already_playing"


def test_no_rematch_without_a_finished_match_or_a_seat():
    table, users = make_table()
    with pytest.raises(services.GameError) as none:
        services.accept_rematch(user=users[0], table_id=table.id)
    assert none.value.code == "no_rematch"


def test_a_player_card_shows_public_figures_only():
    from datetime import UTC, datetime

    user = make_user("Kartlı")
    get_user_model().objects.filter(pk=user.pk).update(games_played=10, games_won=4)
    PlayerRating.objects.create(user=user, salon=None, ordinal=12.345, matches=10)
    get_user_model().objects.filter(pk=user.pk).update(date_joined=datetime(2025, 3, 14, 23, 59, tzinfo=UTC))
    card = selectors.player_card(nickname="kartlı")
    # The record the card shows: games, wins, the rating as the profile writes it, the month joined.
    assert card == {"nickname": "Kartlı", "games_played": 10, "games_won": 4, "win_rate": 40, "rating": 1494,
                    "since": "2025-03", "bot": False}
    assert "email" not in str(card)
    assert selectors.player_card(nickname="yok-böyle") is None
    assert selectors.player_card(nickname={"bad": 1}) is None


def test_the_table_chat_keeps_its_recent_lines_for_a_page_that_comes_back():
    from salons import services as salon_services

    table, users = make_table()
    salon_services.post_chat_message(user=users[0], room=table.room, table=table, text="İyi oyunlar")
    salon_services.post_chat_message(user=users[1], room=table.room, text="odada bir söz")  # room chat: not here
    lines = selectors.table_chat_history(user=users[2], table_id=table.id)
    assert [(line["author"]["nickname"], line["text"]) for line in lines] == [(users[0].username, "İyi oyunlar")]


def test_watchers_are_counted_while_they_ping():
    assert services.note_table_watcher(table_id=7, channel_name="a", watching=True) == 1
    assert services.note_table_watcher(table_id=7, channel_name="b", watching=True) == 2
    # A seated socket is not a watcher.
    assert services.note_table_watcher(table_id=7, channel_name="a", watching=False) == 1


def test_a_move_played_by_the_server_is_marked_in_the_public_events():
    table, users, match, hand = started()
    overdue(hand)
    services.resolve_timeout(hand_id=hand.id, move=hand.move)
    hand.refresh_from_db()
    frame = selectors.table_frame(match=match, hand=hand, seat=None, since=0)
    assert frame["events"] and all(event.get("auto") for event in frame["events"])


def test_seated_players_heard_from_recently_are_online():
    assert services.note_table_player_online(table_id=8, nickname="Ayşe") == ["Ayşe"]
    assert services.note_table_player_online(table_id=8, nickname="Ali") == ["Ali", "Ayşe"]
