"""Absent players never win (issue 24, RULES.md): the turn clock keeps a table moving, it does not
play for a win. A person out of time, away or gone gets a draw and a discard and nothing else; a
bot the room seated plays to win; a person the clock played all match long is not a winner, not
counted and not rated; every screen names the winners the server recorded (issue 19, item 4)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import bot_players, selectors, services, stats
from games.engine.rules import RuleSet
from games.models import Hand, Match, MatchPlayer, Move, PlayerRating

from .conftest import make_table, play_hand_out, rig_hand

pytestmark = pytest.mark.django_db

# The starter's rack finishes at once by putting Y13 on the centre (indicator S7).
READY = "K1 K2 K3 K4 M5 M6 M7 S9 S10 S11 Y2 K2 M2 S2 Y13"
OTHERS = [
    "M9 M10 M11 K5 K6 K7 S3 S4 S5 Y6 Y7 Y8 Y9 Y10",
    "M1 M3 M4 K8 K9 K10 S6 S7 S8 Y3 Y4 Y5 Y11 Y12",
    "M12 M13 K11 K12 K13 S12 S13 Y1 M8 K9 S6 Y3 Y4 M3",
]


def started(rules: RuleSet | None = None, users=None):
    table, users = make_table(rules=rules, players=users)
    match = services.start_match(user=table.room.owner, table_id=table.id)
    return table, users, match, match.hands.get()


def ready_rack_for_the_starter(hand: Hand) -> int:
    others = list(OTHERS)
    racks = [READY if seat == hand.turn_seat else others.pop() for seat in range(4)]
    rig_hand(hand, racks=racks, indicator="S7")
    return hand.turn_seat


def run_out(hand: Hand) -> None:
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.resolve_timeout(hand_id=hand.pk, move=Hand.objects.get(pk=hand.pk).move)


@pytest.mark.parametrize("why", ["timed_out", "away", "left"])
def test_the_clock_never_finishes_for_a_person_holding_a_finished_rack(why):
    table, users, match, hand = started()
    seat = ready_rack_for_the_starter(hand)
    if why == "away":
        MatchPlayer.objects.filter(match=match, seat=seat).update(away=True, timeouts_in_row=3)
    elif why == "left":
        services.leave_running_match(user=users[seat], table_id=table.id)
    run_out(hand)
    hand.refresh_from_db()
    moves = list(Move.objects.filter(hand=hand, number__gt=0).values_list("action", "seat", "auto"))
    assert moves == [("discard", seat, True)], "the clock discards; it never finishes, shows or declares"
    assert hand.status == Hand.Status.PLAYING


def test_a_bot_the_room_seated_plays_to_win_with_the_same_rack():
    table, users, match, hand = started()
    seat = ready_rack_for_the_starter(hand)
    (bot,) = bot_players.bot_users(1, exclude={user.pk for user in users})
    MatchPlayer.objects.filter(match=match, seat=seat).update(user=bot)
    run_out(hand)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.OVER
    assert Move.objects.filter(hand=hand, action="finish", seat=seat, auto=False, user=bot).exists()


def test_a_whole_match_with_a_seat_that_never_connects():
    # Countdown to 0: the three who are there play their own turns; seat 0 never connects.
    table, users, match, hand = started(RuleSet(start_points=4))
    absent = users[0]
    hands = 0
    while True:
        hand = play_hand_out(hand, absent=[absent])
        hands += 1
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        hand = services.start_next_hand(match_id=match.pk)
        assert hands < 60, "a countdown match played by three people ends"
    seat = MatchPlayer.objects.get(match=match, user=absent)
    assert seat.own_moves == 0 and seat.clock_moves > 0 and seat.absent
    # Never finished, never showed the indicator, never declared pairs, never won.
    assert not Move.objects.filter(hand__match=match, seat=seat.seat).exclude(
        action__in=["draw", "discard", "pile_out"]).exists()
    assert not seat.is_winner
    winners = list(MatchPlayer.objects.filter(match=match, is_winner=True).values_list("user_id", flat=True))
    assert winners and absent.pk not in winners
    # Not counted, not rated: the match is not one they played. The others are.
    absent.refresh_from_db()
    assert absent.games_played == 0 and absent.games_won == 0
    assert not PlayerRating.objects.filter(user=absent).exists()
    assert stats.player_record(absent)["matches_played"] == 0
    for user in users[1:]:
        user.refresh_from_db()
        assert user.games_played == 1
        assert PlayerRating.objects.get(user=user, salon=None).matches == 1


def test_a_player_who_left_is_never_named_winner_on_the_result_panel():
    # One-hand penalty match: seat 0 leaves at once; the others are there (each declares pairs, a
    # move of their own) and then let the clock play: nobody finishes, the pile runs out and
    # everyone gets +10 — a four-way tie on the scores.
    table, users, match, hand = started(RuleSet.preset("penalty", hands_per_match=1))
    services.leave_running_match(user=users[0], table_id=table.id)
    for seat in (1, 2, 3):
        hand.refresh_from_db()
        services.play(user=users[seat], table_id=table.id, action="declare_pairs", move=hand.move)
    hand.refresh_from_db()
    while hand.status == Hand.Status.PLAYING:
        run_out(hand)
        hand.refresh_from_db()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.state["scores"] == [10, 10, 10, 10]
    recorded = set(MatchPlayer.objects.filter(match=match, is_winner=True).values_list("seat", flat=True))
    assert recorded == {1, 2, 3}
    frame = selectors.table_frame(match=match, hand=hand, seat=1)
    assert frame["match"]["over"] is True
    assert frame["match"]["winners"] == [1, 2, 3], "the panel names who the server says won"
    assert [player["winner"] for player in frame["players"]] == [False, True, True, True]


def test_the_profile_says_played_for_you_where_the_clock_played_most_of_a_match():
    table, users, match, hand = started(RuleSet.preset("penalty", hands_per_match=1))
    mostly_clock = users[1]
    # Seat 1 makes one move of its own (it goes for pairs), then never again: the clock plays it.
    services.play(user=mostly_clock, table_id=table.id, action="declare_pairs", move=hand.move)
    play_hand_out(hand, absent=[mostly_clock])
    player = MatchPlayer.objects.get(match=match, user=mostly_clock)
    assert 0 < player.own_moves < player.clock_moves and player.played_by_clock and not player.absent
    record = stats.player_record(mostly_clock)
    assert record["matches_played"] == 1 and record["recent"][0]["played_by_clock"]
    page = Client().get(f"/players/{mostly_clock.username}/").content.decode()
    assert 'data-testid="played-for-you"' in page and "Yerine oynandı" in page
    own = Client()
    own.force_login(mostly_clock)
    assert "Sizin yerinize oynandı" in own.get(f"/players/{mostly_clock.username}/").content.decode()
    other = Client().get(f"/players/{users[0].username}/").content.decode()
    assert 'data-testid="played-for-you"' not in other


@pytest.mark.parametrize("language, words", [
    ("tr", ["yalnızca taş çekip atar", "eli asla bitirmez", "üst tura çıkamaz", "yerine oynandı"]),
    ("en", ["only draws and discards", "never finishes", "cannot go on", "played for you"]),
])
def test_the_rules_page_says_what_the_clock_does_for_an_absent_player(language, words):
    client = Client()
    client.cookies["django_language"] = language
    page = client.get("/rules/").content.decode()
    assert 'data-testid="turn-clock-rules"' in page
    for word in words:
        assert word in page
