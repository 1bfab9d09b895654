"""Live play through the services: every change locked, versioned, logged, and only then published."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.engine import hand as engine_hand
from games.engine.rules import RuleSet
from games.models import Hand, Match, MatchPlayer, Move
from salons.models import Seat, Table

from .conftest import make_table, make_user, rig_hand

pytestmark = pytest.mark.django_db


def start(table, users) -> Match:
    for user in users[:-1]:
        assert services.mark_ready(user=user, table_id=table.id) is None
    match = services.mark_ready(user=users[-1], table_id=table.id)
    assert match is not None
    return match


def current_hand(match) -> Hand:
    return match.hands.order_by("-number").first()


def test_the_match_starts_when_every_seated_player_is_ready():
    table, users = make_table()
    match = start(table, users)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    hand = current_hand(match)
    state = engine_hand.HandState.from_dict(hand.state)
    assert sorted(len(rack) for rack in state.racks) == [14, 14, 14, 15]
    assert len(state.pile) == 48
    assert hand.deadline is not None and hand.deadline > timezone.now()
    assert Move.objects.filter(hand=hand, action="deal").count() == 1


def test_a_player_who_is_not_seated_cannot_be_ready():
    table, users = make_table()
    from .conftest import make_user

    with pytest.raises(services.GameError) as error:
        services.mark_ready(user=make_user(), table_id=table.id)
    assert error.value.code == "not_seated"


def test_only_the_owner_starts_a_full_table_without_ready_marks():
    table, users = make_table()
    with pytest.raises(services.GameError) as error:
        services.start_match(user=users[1], table_id=table.id)
    assert error.value.code == "not_owner"
    match = services.start_match(user=table.room.owner, table_id=table.id)
    assert match.status == Match.Status.RUNNING
    with pytest.raises(services.GameError) as error:
        services.start_match(user=table.room.owner, table_id=table.id)
    assert error.value.code == "already_playing"


def test_the_owner_starts_with_bots_in_the_empty_seats_and_nobody_else_can():
    owner = make_user()
    friend = make_user()
    table, _users = make_table(owner=owner, players=[owner, friend])
    with pytest.raises(services.GameError) as error:
        services.start_match(user=owner, table_id=table.id)
    assert error.value.code == "table_not_full"  # a plain start still needs every seat
    with pytest.raises(services.GameError) as error:
        services.start_match(user=friend, table_id=table.id, with_bots=True)
    assert error.value.code == "not_owner"
    match = services.start_match(user=owner, table_id=table.id, with_bots=True)
    assert match.status == Match.Status.RUNNING
    seats = list(Seat.objects.filter(table=table).order_by("position").select_related("user"))
    assert [seat.user for seat in seats[:2]] == [owner, friend]
    bots = [seat.user for seat in seats[2:]]
    assert all(bot.is_bot for bot in bots) and len({bot.pk for bot in bots}) == 2
    assert sorted(player.seat for player in match.players.all()) == [0, 1, 2, 3]


def test_bots_never_start_a_table_where_nobody_sits():
    owner = make_user()
    table, _users = make_table(owner=owner, players=[])
    with pytest.raises(services.GameError) as error:
        services.start_match(user=owner, table_id=table.id, with_bots=True)
    assert error.value.code == "table_not_full"
    assert not Seat.objects.filter(table=table, user__isnull=False).exists()


def test_moves_are_applied_once_and_logged_in_order():
    table, users = make_table()
    match = start(table, users)
    hand = current_hand(match)
    state = engine_hand.HandState.from_dict(hand.state)
    starter = users[state.turn]
    tile = engine_hand.format_tile(state.racks[state.turn][0])

    outcome = services.play(user=starter, table_id=table.id, action="discard", move=0, args={"tile": tile})
    assert outcome.move == 1
    # The same message again (a double click, a resent frame) is stale: never applied twice.
    with pytest.raises(services.GameError) as error:
        services.play(user=starter, table_id=table.id, action="discard", move=0, args={"tile": tile})
    assert error.value.code == "stale"
    assert error.value.details["move"] == 1
    hand.refresh_from_db()
    assert hand.move == 1
    assert list(Move.objects.filter(hand=hand).values_list("number", "action")) == [(0, "deal"), (1, "discard")]


@pytest.mark.parametrize(
    "action,args,code",
    [
        ("discard", {"tile": "K99"}, "bad_tile"),
        ("discard", {}, "bad_argument"),
        ("discard", {"tile": 5}, "bad_argument"),
        ("draw", {"source": "pile"}, "already_drew"),
        ("explode", {}, "bad_action"),
        ("finish", {"tile": "x" * 50}, "bad_argument"),
    ],
)
def test_bad_actions_get_a_clear_code_and_change_nothing(action, args, code):
    table, users = make_table()
    match = start(table, users)
    hand = current_hand(match)
    before = dict(hand.state)
    state = engine_hand.HandState.from_dict(hand.state)
    with pytest.raises(services.GameError) as error:
        services.play(user=users[state.turn], table_id=table.id, action=action, move=0, args=args)
    assert error.value.code == code
    assert str(error.value)
    hand.refresh_from_db()
    assert hand.state == before and hand.move == 0


def test_a_player_out_of_turn_is_refused():
    table, users = make_table()
    match = start(table, users)
    state = engine_hand.HandState.from_dict(current_hand(match).state)
    other = users[(state.turn + 1) % 4]
    with pytest.raises(services.GameError) as error:
        services.play(user=other, table_id=table.id, action="draw", move=0, args={"source": "pile"})
    assert error.value.code == "not_your_turn"


def test_a_missing_move_number_is_refused():
    table, users = make_table()
    match = start(table, users)
    state = engine_hand.HandState.from_dict(current_hand(match).state)
    with pytest.raises(services.GameError) as error:
        services.play(user=users[state.turn], table_id=table.id, action="declare_pairs", move="0")
    assert error.value.code == "bad_move_number"


def overdue(hand: Hand) -> None:
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))


def test_time_running_out_makes_the_server_play_and_a_late_task_does_nothing():
    table, users = make_table()
    match = start(table, users)
    hand = current_hand(match)
    # Too early: the deadline is in the future.
    assert services.resolve_timeout(hand_id=hand.id, move=0) is False
    overdue(hand)
    assert services.resolve_timeout(hand_id=hand.id, move=0) is True
    hand.refresh_from_db()
    assert hand.move == 1  # the starting player only discards
    assert Move.objects.get(hand=hand, number=1).auto is True
    # The same task delivered twice: the game has moved on, nothing happens.
    assert services.resolve_timeout(hand_id=hand.id, move=0) is False
    hand.refresh_from_db()
    assert hand.move == 1


def test_the_turn_clock_plays_every_overdue_turn_and_nothing_else(monkeypatch):
    from games import tasks

    hands = []
    for _ in range(4):
        table, users = make_table()
        hands.append(current_hand(start(table, users)))
    in_time = hands.pop()
    for hand in hands:
        overdue(hand)
    # A busy tick plays a few turns itself and hands the rest to other workers.
    monkeypatch.setattr(tasks, "CLOCK_INLINE_TURNS", 1)
    handed_over = []
    monkeypatch.setattr(tasks.turn_deadline, "delay", lambda *args: handed_over.append(args))
    assert tasks.turn_clock() == 1
    assert len(handed_over) == 2
    for args in handed_over:
        assert tasks.turn_deadline(*args) is True
    for hand in hands:
        hand.refresh_from_db()
        assert hand.move == 1 and Move.objects.get(hand=hand, number=1).auto
    in_time.refresh_from_db()
    assert in_time.move == 0 and in_time.deadline > timezone.now()
    # The next tick finds nothing due: every clock was restarted for the next player.
    assert tasks.turn_clock() == 0 and len(handed_over) == 2


def test_three_timeouts_in_a_row_mark_a_player_away_until_they_act():
    table, users = make_table()
    match = start(table, users)
    hand = current_hand(match)
    starter_seat = hand.turn_seat
    for _ in range(4 * 2 + 1):  # three full rounds for the starter
        hand.refresh_from_db()
        overdue(hand)
        services.resolve_timeout(hand_id=hand.id, move=hand.move)
    player = MatchPlayer.objects.get(match=match, seat=starter_seat)
    assert player.timeouts_in_row == 3 and player.away
    hand.refresh_from_db()
    # The away player's next turn gets the short clock.
    services_state = engine_hand.HandState.from_dict(hand.state)
    assert services_state.turn == (starter_seat + 1) % 4


def test_finishing_records_the_hand_and_the_next_one_is_dealt():
    table, users = make_table()
    match = start(table, users)
    hand = current_hand(match)
    starter = hand.turn_seat
    winning = "K1 K2 K3 K4 M5 M6 M7 S9 S10 S11 Y2 K2 M2 S2 Y13"  # Y13 goes on the centre
    others = [
        "M9 M10 M11 K5 K6 K7 S3 S4 S5 Y6 Y7 Y8 Y9 Y10",
        "M1 M3 M4 K8 K9 K10 S6 S7 S8 Y3 Y4 Y5 Y11 Y12",
        "M12 M13 K11 K12 K13 S12 S13 Y1 M8 K9 S6 Y3 Y4 M3",
    ]
    racks = []
    for seat in range(4):
        racks.append(winning if seat == starter else others.pop())
    rig_hand(hand, racks=racks, indicator="S7")
    outcome = services.play(user=users[starter], table_id=table.id, action="finish", move=0, args={"tile": "Y13"})
    hand.refresh_from_db()
    match.refresh_from_db()
    assert hand.status == Hand.Status.OVER and outcome.move == 1
    scores = dict(MatchPlayer.objects.filter(match=match).values_list("seat", "score"))
    assert scores[starter] == 20
    assert all(score == 18 for seat, score in scores.items() if seat != starter)
    # The pause passes; the next hand starts one seat further on.
    nxt = services.start_next_hand(match_id=match.id)
    assert nxt is not None and nxt.number == 1
    assert engine_hand.HandState.from_dict(nxt.state).starting_seat == (starter + 1) % 4
    assert services.start_next_hand(match_id=match.id) is None  # idempotent


def test_an_invalid_finish_is_refused_with_its_reason_and_changes_nothing():
    table, users = make_table()
    match = start(table, users)
    hand = current_hand(match)
    state = engine_hand.HandState.from_dict(hand.state)
    tile = engine_hand.format_tile(state.racks[state.turn][0])
    with pytest.raises(services.GameError) as error:
        services.play(user=users[state.turn], table_id=table.id, action="finish", move=0, args={"tile": tile})
    assert error.value.code == "invalid_finish"
    hand.refresh_from_db()
    assert hand.move == 0


def test_chip_tables_settle_each_hand_in_full_from_the_chips_held_for_it():
    """Issue 18: each hand holds 4 × the stake from every person as it is dealt, so a balance that
    drops during the hand (here to 30) still pays in full, and the winner is paid in full."""
    from django.contrib.auth import get_user_model

    from accounts.models import ChipHold
    from accounts.selectors import ledger_differences

    table, users = make_table(rules=RuleSet.preset("chips", stake=100))
    User = get_user_model()
    match = start(table, users)
    hand = current_hand(match)
    assert ChipHold.objects.filter(user__in=users, amount=400).count() == 4
    starter = hand.turn_seat
    poor = users[(starter + 1) % 4]
    assert User.objects.get(pk=poor.pk).chips == 600  # 1,000 less the 400 held
    from accounts.services import change_chips

    change_chips(user=poor, amount=-570, note="spent during the hand")
    balances = {user.pk: User.objects.get(pk=user.pk).chips for user in users}
    winning = "K1 K2 K3 K4 M5 M6 M7 S9 S10 S11 Y2 K2 M2 S2 Y13"
    others = [
        "M9 M10 M11 K5 K6 K7 S3 S4 S5 Y6 Y7 Y8 Y9 Y10",
        "M1 M3 M4 K8 K9 K10 S6 S7 S8 Y3 Y4 Y5 Y11 Y12",
        "M12 M13 K11 K12 K13 S12 S13 Y1 M8 K9 S6 Y3 Y4 M3",
    ]
    rig_hand(hand, racks=[winning if seat == starter else others.pop() for seat in range(4)], indicator="S7")
    services.play(user=users[starter], table_id=table.id, action="finish", move=0, args={"tile": "Y13"})
    after = {user.pk: User.objects.get(pk=user.pk).chips for user in users}
    assert after[poor.pk] == 30 + 400 - 100, "the loser paid the full stake from what was held"
    assert after[users[starter].pk] == balances[users[starter].pk] + 400 + 300, "the winner is paid in full"
    assert sum(after.values()) == sum(balances.values()) + 4 * 400  # every hold came back, nothing made
    assert ledger_differences() == []
    # The poor player can no longer cover a hand (330 < 400): the match ends instead of dealing one.
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.state["ended"] == "chips"
    assert not ChipHold.objects.exists()


def test_an_away_player_gets_a_short_clock_and_a_banned_player_is_handed_to_autoplay():
    table, users = make_table()
    match = start(table, users)
    hand = current_hand(match)
    starter = hand.turn_seat
    next_seat = (starter + 1) % 4
    assert services.hand_over_to_autoplay(user=users[next_seat]) == 1
    player = MatchPlayer.objects.get(match=match, seat=next_seat)
    assert player.away
    state = engine_hand.HandState.from_dict(hand.state)
    tile = engine_hand.format_tile(state.racks[starter][0])
    services.play(user=users[starter], table_id=table.id, action="discard", move=0, args={"tile": tile})
    hand.refresh_from_db()
    # The away player's turn: the server will play it about a second from now, not in 20.
    assert hand.turn_seat == next_seat
    assert hand.deadline - timezone.now() < timedelta(seconds=services.AWAY_TURN_SECONDS + 1)
    # Acting again brings them back.
    services.play(user=users[next_seat], table_id=table.id, action="draw", move=1, args={"source": "pile"})
    player.refresh_from_db()
    assert not player.away and player.timeouts_in_row == 0


def test_the_embedded_site_runs_the_turn_clock_every_tick_and_the_sweep_less_often(monkeypatch, settings):
    import threading

    from games import apps, tasks

    settings.TURN_CLOCK_SECONDS = 0.001
    monkeypatch.setattr(apps, "SWEEP_SECONDS", 0.005)  # every fifth tick
    stop = threading.Event()
    sent: list[str] = []

    def clock() -> None:
        sent.append("clock")
        if sent.count("clock") == 20:
            stop.set()

    monkeypatch.setattr(tasks.turn_clock, "delay", clock)
    monkeypatch.setattr(tasks.sweep, "delay", lambda: sent.append("sweep"))
    beat = threading.Thread(target=apps.run_beat, args=(stop,))
    beat.start()
    beat.join(timeout=10)
    assert not beat.is_alive()
    assert sent.count("clock") == 20 and sent.count("sweep") == 4
    assert sent[:6] == ["clock"] * 5 + ["sweep"]


# -- the centre pile runs out (RULES.md): people, the turn clock and bots play the engine's rule -------

READY = "S1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 S11 M11 Y11 Y13"        # the starter: Y13 is its spare
WAITS_FOR_Y13 = "K3 K4 K5 K6 S6 S7 S8 M9 M10 M11 M12 Y11 Y12 S13"  # finishes with Y13, S13 on the centre
FILLERS = ["K7 K8 K9 S9 S10 M1 M2 M3 Y1 Y2 Y3 Y4 Y5 Y6", "K10 K12 K13 S12 M4 M8 M13 Y7 S5 K7 K8 K9 Y5 Y6"]


def pile_already_gone(hand: Hand) -> tuple[int, int]:
    """The hand's starter holds READY and the seat after it WAITS_FOR_Y13; the centre pile is empty."""
    starter = hand.turn_seat
    nxt = (starter + 1) % 4
    fillers = list(FILLERS)
    racks = [READY if seat == starter else WAITS_FOR_Y13 if seat == nxt else fillers.pop() for seat in range(4)]
    rig_hand(hand, racks=racks, indicator="K1", pile="")
    return starter, nxt


def test_a_discard_nobody_may_finish_with_after_the_pile_ran_out_ends_the_hand_and_scores_the_pile_out():
    table, users = make_table(rules=RuleSet.preset("penalty"))
    match = start(table, users)
    hand = current_hand(match)
    starter, _ = pile_already_gone(hand)
    services.play(user=users[starter], table_id=table.id, action="discard", move=0, args={"tile": "S1"})
    hand.refresh_from_db()
    match.refresh_from_db()
    assert hand.status == Hand.Status.OVER
    assert list(Move.objects.filter(hand=hand).order_by("number").values_list("action", flat=True)) == [
        "deal", "discard", "pile_out"]
    # Penalty preset: a pile out gives everyone 10; this one-hand match is then over.
    assert sorted(MatchPlayer.objects.filter(match=match).values_list("score", flat=True)) == [10, 10, 10, 10]
    assert match.status == Match.Status.FINISHED


def test_after_the_pile_ran_out_the_next_player_takes_the_discard_only_to_finish_and_the_clock_does_not_finish_it():
    table, users = make_table()
    match = start(table, users)
    hand = current_hand(match)
    starter, nxt = pile_already_gone(hand)
    services.play(user=users[starter], table_id=table.id, action="discard", move=0, args={"tile": "Y13"})
    services.play(user=users[nxt], table_id=table.id, action="draw", move=1, args={"source": "discard"})
    with pytest.raises(services.GameError) as error:
        services.play(user=users[nxt], table_id=table.id, action="discard", move=2, args={"tile": "S13"})
    assert error.value.code == "must_finish" and "bitirin" in str(error.value)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.PLAYING and hand.move == 2
    # Time runs out: the clock never finishes for anyone (RULES.md "Absent players never win"), so
    # it declines the taken tile and the hand ends with no finisher.
    overdue(hand)
    assert services.resolve_timeout(hand_id=hand.id, move=2) is True
    hand.refresh_from_db()
    assert hand.status == Hand.Status.OVER
    last = Move.objects.filter(hand=hand).order_by("-number").first()
    assert (last.action, last.seat, last.auto) == ("pile_out", nxt, True)
    assert not Move.objects.filter(hand=hand, action="finish").exists()
    scores = dict(MatchPlayer.objects.filter(match=match).values_list("seat", "score"))
    assert all(score == 20 for score in scores.values()), "a pile out changes no countdown score"


def test_after_the_pile_ran_out_the_clock_declines_the_discard_for_a_player_who_did_not_take_it():
    table, users = make_table()
    match = start(table, users)
    hand = current_hand(match)
    starter, nxt = pile_already_gone(hand)
    services.play(user=users[starter], table_id=table.id, action="discard", move=0, args={"tile": "Y13"})
    hand.refresh_from_db()
    overdue(hand)
    assert services.resolve_timeout(hand_id=hand.id, move=1) is True
    hand.refresh_from_db()
    match.refresh_from_db()
    assert hand.status == Hand.Status.OVER
    assert engine_hand.HandState.from_dict(hand.state).result.reason == "pile_out"
    assert match.status == Match.Status.RUNNING  # countdown: a pile out changes nothing, play goes on
    assert set(MatchPlayer.objects.filter(match=match).values_list("score", flat=True)) == {20}


def test_after_the_pile_ran_out_a_bot_takes_the_discard_and_finishes():
    from games import bot_players

    table, users = make_table()
    bots = bot_players.bot_users(4)
    match = start(table, users)
    hand = current_hand(match)
    starter, nxt = pile_already_gone(hand)
    MatchPlayer.objects.filter(match=match, seat=nxt).update(user=bots[0])
    services.play(user=users[starter], table_id=table.id, action="discard", move=0, args={"tile": "Y13"})
    hand.refresh_from_db()
    overdue(hand)
    assert services.resolve_timeout(hand_id=hand.id, move=1) is True
    hand.refresh_from_db()
    result = engine_hand.HandState.from_dict(hand.state).result
    assert result.reason == "finished" and result.finisher == nxt


# -- reaching zero (RULES.md): a shown indicator that brings a score to 0 ends the match at once ---------


def test_a_shown_indicator_that_brings_a_score_to_zero_ends_the_match_without_playing_the_hand_on():
    from dataclasses import replace

    from games.engine import match as engine_match

    table, users = make_table()
    match = start(table, users)
    hand = current_hand(match)
    starter = hand.turn_seat
    victim = (starter + 2) % 4
    # Earlier hands left one player on a single point.
    match_state = engine_match.MatchState.from_dict(match.state)
    scores = [1 if seat == victim else 20 for seat in range(4)]
    match_state = replace(match_state, scores=scores)
    Match.objects.filter(pk=match.pk).update(state=match_state.to_dict())
    MatchPlayer.objects.filter(match=match, seat=victim).update(score=1)
    # The starter was dealt the indicator's twin (K1); the match told the hand whose show ends it.
    fillers = list(FILLERS)
    racks = [READY.replace("Y11", "K1") if seat == starter else fillers.pop() if seat in ((starter + 1) % 4, (starter + 3) % 4)
             else WAITS_FOR_Y13 for seat in range(4)]
    rig_hand(hand, racks=racks, indicator="K1")
    state = engine_hand.HandState.from_dict(hand.state)
    state.ending_shows = engine_match.ending_shows(match_state)
    Hand.objects.filter(pk=hand.pk).update(state=state.to_dict())

    services.play(user=users[starter], table_id=table.id, action="show_indicator", move=0)
    hand.refresh_from_db()
    match.refresh_from_db()
    assert hand.status == Hand.Status.OVER
    assert engine_hand.HandState.from_dict(hand.state).result.reason == "match_over"
    assert match.status == Match.Status.FINISHED
    players = {player.seat: player for player in MatchPlayer.objects.filter(match=match)}
    assert players[victim].score == 0
    assert [seat for seat, player in players.items() if player.is_winner] == [starter]
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING
    with pytest.raises(services.GameError) as error:
        services.play(user=users[(starter + 1) % 4], table_id=table.id, action="draw", move=hand.move,
                      args={"source": "pile"})
    assert error.value.code == "no_game"


# -- fair deals: proof.json and the command the hand page prints (every starting seat) ------------------


def verify_command(proof: dict, path, **changes) -> int:
    import json
    import subprocess
    import sys
    from pathlib import Path

    path.write_text(json.dumps({**proof, **changes}))
    done = subprocess.run([sys.executable, "-m", "games.engine", "verify", "--deck", " ".join(proof["deck"]),
                           "--salt", proof["salt"], "--commitment", proof["commitment"], "--moves", str(path)],
                          cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=60)
    return done.returncode


def test_every_hand_of_a_match_verifies_through_proof_json_and_the_printed_command(client, tmp_path):
    table, users = make_table(rules=RuleSet(start_points=1000))
    match = start(table, users)
    seats = set()
    for number in range(4):
        hand = current_hand(match)
        assert hand.number == number
        while hand.status == Hand.Status.PLAYING:
            overdue(hand)
            assert services.resolve_timeout(hand_id=hand.id, move=hand.move)
            hand.refresh_from_db()
        state = engine_hand.HandState.from_dict(hand.state)
        seats.add(state.starting_seat)
        client.force_login(users[0])
        proof = client.get(f"/hands/{hand.id}/proof.json").json()
        assert proof["starting_seat"] == state.starting_seat and proof["verification"]["valid"]
        assert proof["moves"][0]["type"] == "deal" and proof["moves"][0]["starting_seat"] == state.starting_seat
        path = tmp_path / f"proof{number}.json"
        assert verify_command(proof, path) == 0, f"genuine hand with starting seat {state.starting_seat}"
        assert verify_command(proof, path, starting_seat=(state.starting_seat + 1) % 4) == 1
        services.start_next_hand(match_id=match.id)
    assert seats == {0, 1, 2, 3}
