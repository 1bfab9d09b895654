"""A Kart Okey table on the site (RULES.md "Kart Okey"): started like any match, a stock draw then
the rest of the turn sent whole, refusals worded for cards and changing nothing, the clock playing
for the absent (it never melds, so it never goes out), rounds recorded with their sheets, the
lowest total winning, the prize pool split by rule 9, the proof and the replay."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone, translation

from games import selectors, services
from games.bot_players import bot_users
from games.engine.kart.bots import play_bot_turn
from games.engine.kart.cards import format_card
from games.engine.kart.hand import HandKart
from games.engine.kart.rules import RulesKart
from games.engine.kart.scoring import prize_split
from games.errors import GameError
from games.models import Hand, Match, MatchPlayer
from salons.models import Room, Salon, Seat, Table

from .conftest import make_user
from .test_okey101_match import keys_of

pytestmark = pytest.mark.django_db


def make_kart_table(*, people: int = 4, **options):
    rules = RulesKart(**options)
    salon, _ = Salon.objects.get_or_create(slug="genel", defaults={"name": "Genel"})
    owner = make_user()
    room = Room.objects.create(salon=salon, name="Kart odası", owner=owner,
                               rules={"game": "kart", **rules.to_dict()}, turn_seconds=20)
    table = Table.objects.create(room=room, number=1)
    users = [owner, *(make_user() for _ in range(people - 1))]
    users += list(bot_users(rules.players - people))
    for position, user in enumerate(users):
        Seat.objects.update_or_create(table=table, position=position, defaults={"user": user})
    return table, users


def current(table):
    match = Match.objects.filter(table=table).latest("pk")
    hand = match.hands.order_by("-number").first()
    return match, hand


def expire(hand):
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))


def send_turn_as_a_player(*, table, user, hand, seat, rng):
    """The engine's normal bot decides; the player sends that turn through the socket's actions:
    a stock draw first as a message of its own, then melds, lay-offs and the discard whole."""
    state = HandKart.from_dict(hand.state)
    played = play_bot_turn(state, seat, level="normal", rng=rng)
    new_events = [event for event in played.events if event["move"] > state.move]
    event = next(event for event in new_events if event["type"] == "turn")
    move = hand.move
    if any(event["type"] == "draw" for event in new_events):
        services.play(user=user, table_id=table.id, action="draw", move=move, args={"source": "stock"})
        move += 1
    actions = [{"type": "meld", "cards": action["cards"]} if action["type"] == "meld"
               else {"type": "lay_off", "meld": action["meld"], "card": action["card"]}
               for action in event["actions"]]
    args = {"actions": actions, "discard": event["discard"]}
    if event["draw"] == "discard":
        args["draw"] = "discard"
    services.play(user=user, table_id=table.id, action="turn", move=move, args=args)
    return event


def test_a_kart_table_starts_and_its_frames_are_the_card_view():
    table, users = make_kart_table(rounds=3)
    match = services.start_match(user=table.room.owner, table_id=table.id)
    assert match.rules == {"game": "kart", "players": 4, "decks": 2, "rounds": 3, "prize_pool": 0}
    hand = match.hands.get()
    seat = hand.state["turn"]
    frame = selectors.table_frame(match=match, hand=hand, seat=seat)
    assert frame["hand"]["game"] == "kart" and len(frame["hand"]["hand"]) == 10
    assert frame["hand"]["stock_count"] == 104 - 41 and frame["hand"]["discard_top"]
    assert frame["hand"]["actions"] == ["draw", "turn"] and frame["match"]["rounds"] == 3
    assert frame["match"]["standing"] == {"higher_is_better": False, "teams": None}
    watcher = selectors.table_frame(match=match, hand=hand, seat=None)
    assert watcher["hand"]["hand"] is None and watcher["hand"]["card_counts"] == [10, 10, 10, 10]


def test_a_turn_is_a_stock_draw_then_the_rest_sent_whole_and_a_bad_one_changes_nothing():
    table, users = make_kart_table(people=4)
    services.start_match(user=table.room.owner, table_id=table.id)
    match, hand = current(table)
    seat = hand.state["turn"]
    player = users[seat]
    before = hand.state
    with pytest.raises(GameError) as refused:
        services.play(user=player, table_id=table.id, action="turn", move=hand.move,
                      args={"actions": [], "discard": format_card(hand.state["hands"][seat][0])})
    assert refused.value.code == "must_draw" and "desteden" in str(refused.value.message)
    with translation.override("en"):
        with pytest.raises(GameError) as refused:
            services.play(user=player, table_id=table.id, action="turn", move=hand.move,
                          args={"actions": [], "discard": format_card(hand.state["hands"][seat][0])})
    assert "stock" in str(refused.value.message)
    # Taking the discard pile's top and throwing it back is refused, with the card named.
    top = format_card(hand.state["discards"][-1])
    with pytest.raises(GameError) as refused:
        services.play(user=player, table_id=table.id, action="turn", move=hand.move,
                      args={"draw": "discard", "actions": [], "discard": top})
    assert refused.value.code == "discard_taken" and top in str(refused.value.message)
    # A card the player does not hold.
    held = {format_card(card) for card in hand.state["hands"][seat]}
    missing = next(card for card in ("MA", "K2", "R3", "S4", "M5", "K6") if card not in held and card != top)
    with pytest.raises(GameError) as refused:
        services.play(user=player, table_id=table.id, action="turn", move=hand.move,
                      args={"draw": "discard", "actions": [], "discard": missing})
    assert refused.value.code == "card_not_in_hand" and missing in str(refused.value.message)
    match, hand = current(table)
    assert hand.state == before
    services.play(user=player, table_id=table.id, action="draw", move=hand.move, args={"source": "stock"})
    match, hand = current(table)
    frame = selectors.table_frame(match=match, hand=hand, seat=seat)
    assert frame["hand"]["drawn"] and frame["hand"]["drawn_card"] == frame["hand"]["hand"][-1]
    other = (seat + 1) % 4
    assert selectors.table_frame(match=match, hand=hand, seat=other)["hand"]["drawn_card"] is None
    with pytest.raises(GameError) as refused:
        services.play(user=player, table_id=table.id, action="draw", move=hand.move, args={"source": "stock"})
    assert refused.value.code == "already_drew" and "kart" in str(refused.value.message)
    services.play(user=player, table_id=table.id, action="turn", move=hand.move,
                  args={"actions": [], "discard": frame["hand"]["drawn_card"]})
    match, hand = current(table)
    assert hand.state["turn"] == other and format_card(hand.state["discards"][-1]) == frame["hand"]["drawn_card"]
    assert [move.action for move in hand.moves.order_by("number")][-2:] == ["draw", "turn"]


@pytest.mark.parametrize("args, field", [
    ({"actions": [{"type": "meld", "cards": 5}], "discard": "MA"}, "cards"),
    ({"actions": [{"type": "meld", "cards": ["MA"] * 20}], "discard": "MA"}, "cards"),
    ({"actions": [{"type": "meld", "cards": ["M" * 12]}], "discard": "MA"}, "cards"),
    ({"actions": [{"type": "lay_off", "meld": "1", "card": "MA"}], "discard": "MA"}, "meld"),
    ({"actions": [{"type": "lay_off", "meld": 1, "card": ["MA"]}], "discard": "MA"}, "card"),
    ({"actions": [{"type": "meld", "cards": ["MA"], "tile": "K1"}], "discard": "MA"}, "actions"),
    ({"draw": "deck", "actions": [], "discard": "MA"}, "draw"),
    ({"actions": [], "discard": None}, "discard"),
])
def test_a_malformed_kart_turn_is_refused_by_field_before_the_engine_sees_it(args, field):
    table, users = make_kart_table()
    services.start_match(user=table.room.owner, table_id=table.id)
    match, hand = current(table)
    with pytest.raises(GameError) as refused:
        services.play(user=users[hand.state["turn"]], table_id=table.id, action="turn", move=hand.move, args=args)
    assert (refused.value.code, refused.value.details.get("field")) == ("bad_argument", field)


@pytest.mark.parametrize("action", ["finish", "discard", "show_indicator"])
def test_classic_actions_are_not_kart_moves(action):
    table, users = make_kart_table()
    services.start_match(user=table.room.owner, table_id=table.id)
    match, hand = current(table)
    with pytest.raises(GameError) as refused:
        services.play(user=users[hand.state["turn"]], table_id=table.id, action=action, move=hand.move,
                      args={"tile": "MA"})
    assert refused.value.code in ("bad_action", "bad_argument")
    assert current(table)[1].state == hand.state


def play_table(table, users, *, people_seats, rng):
    """People at ``people_seats`` send the normal bot's turns themselves; the others are bots (the
    clock plays their turns as a bot's) until the table is over."""
    melds_sent = 0
    for _ in range(3 * 400):
        match, hand = current(table)
        if match.status == Match.Status.FINISHED:
            return match, melds_sent
        if hand.status != Hand.Status.PLAYING:
            services.start_next_hand(match_id=match.id)
            continue
        seat = hand.state["turn"]
        if seat in people_seats:
            event = send_turn_as_a_player(table=table, user=users[seat], hand=hand, seat=seat, rng=rng)
            melds_sent += len(event["actions"])
            continue
        expire(hand)
        assert services.resolve_timeout(hand_id=hand.id, move=hand.move)
    raise AssertionError("the table did not end")


def test_a_three_round_table_of_two_people_and_two_bots_ends_with_the_lowest_total_winning():
    table, users = make_kart_table(people=2, rounds=3)
    services.start_match(user=table.room.owner, table_id=table.id)
    match, melds_sent = play_table(table, users, people_seats={0, 1}, rng=random.Random(5))
    assert melds_sent > 0
    state = match.state
    assert state["rounds_played"] == 3 and len(state["history"]) == 3
    totals = state["scores"]
    assert totals == [sum(entry["deltas"][seat] for entry in state["history"]) for seat in range(4)]
    for entry in state["history"]:
        if entry["winner"] is not None:
            # Rule 8: the winner 0; everyone else the cards left, +25 each when the winner went rummy.
            assert entry["deltas"][entry["winner"]] == 0
            for row in entry["sheet"]:
                if row["seat"] != entry["winner"]:
                    assert row["score"] == row["cards"] + (25 if entry["rummy"] else 0) and len(row["left"]) > 0
    players = {player.seat: player for player in MatchPlayer.objects.filter(match=match)}
    assert [players[seat].score for seat in range(4)] == totals
    winners = {seat for seat, player in players.items() if player.is_winner}
    if any(entry["winner"] is not None for entry in state["history"]):
        assert winners == {seat for seat, total in enumerate(totals) if total == min(totals)}
    else:
        assert winners == set()
    match, hand = current(table)
    frame = selectors.table_frame(match=match, hand=hand, seat=0)
    assert frame["match"]["over"] and frame["match"]["rounds_played"] == 3
    assert frame["match"]["history"][-1]["sheet"]


def test_the_turn_clock_never_melds_so_an_absent_table_ends_at_the_second_stock_out_without_a_winner():
    table, users = make_kart_table(people=4, players=4, rounds=1)
    services.start_match(user=table.room.owner, table_id=table.id)
    for _ in range(400):
        match, hand = current(table)
        if hand.status != Hand.Status.PLAYING:
            break
        expire(hand)
        assert services.resolve_timeout(hand_id=hand.id, move=hand.move)
    match, hand = current(table)
    result = hand.state["result"]
    assert result["reason"] == "stock_out" and result["winner"] is None and not hand.state["melds"]
    assert [move.action for move in hand.moves.all()].count("reshuffle") == 1
    assert all(move.auto for move in hand.moves.filter(action="turn"))
    away = MatchPlayer.objects.filter(match=match, away=True).count()
    assert away == 4
    assert match.status == Match.Status.FINISHED and not MatchPlayer.objects.filter(match=match, is_winner=True)


def test_a_pool_table_pays_rule_nine_shares_of_its_pool_in_the_frames():
    table, users = make_kart_table(people=1, rounds=1, prize_pool=100)
    services.start_match(user=table.room.owner, table_id=table.id)
    match, _ = play_table(table, users, people_seats={0}, rng=random.Random(11))
    public = match.state
    expected = prize_split(100, public["scores"], [p.seat for p in MatchPlayer.objects.filter(match=match, is_winner=True)],
                           limit=80, order=[(public["first_starting_seat"] + k) % 4 for k in range(4)])
    match, hand = current(table)
    frame = selectors.table_frame(match=match, hand=hand, seat=None)
    assert frame["match"]["prizes"] == expected and sum(expected) == 100
    assert frame["match"]["prize_pool"] == 100 and frame["match"]["prize_limit"] == 80


def test_leaving_and_coming_back_and_the_rematch_keep_the_kart_rules():
    table, users = make_kart_table(people=4, rounds=1, decks=1)
    services.start_match(user=table.room.owner, table_id=table.id)
    services.leave_running_match(user=users[1], table_id=table.id)
    match, hand = current(table)
    assert services._left_seats(match) == {1}
    with pytest.raises(GameError) as refused:
        services.play(user=users[1], table_id=table.id, action="draw", move=hand.move, args={"source": "stock"})
    assert refused.value.code == "left_match"
    services.return_to_match(user=users[1], table_id=table.id)
    assert services._left_seats(match) == set()
    for _ in range(400):
        match, hand = current(table)
        if match.status == Match.Status.FINISHED:
            break
        expire(hand)
        assert services.resolve_timeout(hand_id=hand.id, move=hand.move)
    again = None
    for user in users:
        again = services.accept_rematch(user=user, table_id=table.id) or again
    assert again is not None and again.pk != match.pk
    assert again.rules == {"game": "kart", "players": 4, "decks": 1, "rounds": 1, "prize_pool": 0}
    assert again.hands.get().state["game"] == "kart"


def test_no_frame_of_a_kart_hand_shows_another_hand_the_stock_the_deck_or_the_seed():
    table, users = make_kart_table(people=4)
    services.start_match(user=table.room.owner, table_id=table.id)
    rng = random.Random(3)
    for _ in range(60):
        match, hand = current(table)
        if hand.status != Hand.Status.PLAYING:
            break
        state = HandKart.from_dict(hand.state)
        for seat in (0, 1, 2, 3, None):
            frame = selectors.table_frame(match=match, hand=hand, seat=seat, with_feed=True)
            assert not keys_of(frame) & {"hands", "stock", "deck", "seed", "salt", "email", "discards"}
            if seat is None:
                assert frame["hand"]["hand"] is None
            else:
                assert frame["hand"]["hand"] == [format_card(card) for card in state.hands[seat]]
            drawn = [event for event in frame.get("feed", []) if event["type"] == "draw"]
            assert all(set(event) == {"move", "type", "seat", "source"} for event in drawn)
        send_turn_as_a_player(table=table, user=users[state.turn], hand=hand, seat=state.turn, rng=rng)


def test_a_finished_kart_hand_has_a_proof_the_printed_verify_command_accepts_and_a_replay(tmp_path):
    table, users = make_kart_table(people=1, rounds=1)
    services.start_match(user=table.room.owner, table_id=table.id)
    match, _ = play_table(table, users, people_seats={0}, rng=random.Random(8))
    match, hand = current(table)
    proof = selectors.fair_deal_proof(hand)
    assert proof["verification"] == {"valid": True, "problems": []}
    assert proof["rules"]["game"] == "kart" and len(proof["deck"]) == 104
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(proof))
    command = [sys.executable, "-m", "games.engine", "verify", "--deck", " ".join(proof["deck"]), "--salt",
               proof["salt"], "--commitment", proof["commitment"], "--moves", str(path)]
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=60)
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["valid"], done.stdout + done.stderr
    assert report["result"]["scores"] == hand.state["result"]["scores"]
    # A changed record is found: the scores the table wrote at the hand's end.
    assert proof["moves"][-1]["type"] == "hand_end"
    proof["moves"][-1]["scores"] = [score + 1 for score in proof["moves"][-1]["scores"]]
    path.write_text(json.dumps(proof))
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and not json.loads(done.stdout)["valid"]
    data = selectors.replay_frames(hand=hand, viewer=users[0])
    assert len(data["steps"]) == 1 + sum(1 for move in proof["moves"] if move["type"] in ("draw", "turn"))
    assert all(len(step["hands"]) == 4 and "discards" in step for step in data["steps"])


def test_an_away_kart_player_comes_back_and_the_table_chats_and_reports_as_any_other():
    from moderation.models import Report
    from moderation.services import file_report
    from salons.services import post_chat_message

    table, users = make_kart_table(people=4)
    services.start_match(user=table.room.owner, table_id=table.id)
    for _ in range(12):  # three rounds of the table: each seat times out three times and is away
        match, hand = current(table)
        expire(hand)
        assert services.resolve_timeout(hand_id=hand.id, move=hand.move)
    match, hand = current(table)
    away = MatchPlayer.objects.get(match=match, seat=hand.state["turn"])
    assert away.away
    assert selectors.table_frame(match=match, hand=hand, seat=None)["players"][away.seat]["away"]
    services.i_am_back(user=away.user, table_id=table.id)
    away.refresh_from_db()
    assert not away.away and away.timeouts_in_row == 0
    # Back at the table, the player plays their own turn again.
    send_turn_as_a_player(table=table, user=away.user, hand=current(table)[1], seat=away.seat, rng=random.Random(2))
    assert current(table)[1].moves.filter(auto=False).exists()
    line = post_chat_message(user=users[0], room=table.room, table=table, text="İyi oyunlar")
    assert line.visible
    report = file_report(reporter=users[0], reported=users[1], reason=Report.Reason.values[0], room=table.room,
                         table=table)
    assert report.room_id == table.room_id and report.reported_id == users[1].pk


def test_the_hand_history_of_a_kart_player_and_a_101_player_opens_and_says_how_each_hand_ended(client):
    from .test_okey101_match import make_101_table, play_out_by_the_clock

    table, users = make_kart_table(people=1, rounds=2)
    services.start_match(user=table.room.owner, table_id=table.id)
    match, _ = play_table(table, users, people_seats={0}, rng=random.Random(4))
    client.force_login(users[0])
    page = client.get(f"/players/{users[0].username}/hands/")
    assert page.status_code == 200
    text = page.content.decode()
    ended_by_going_out = [entry for entry in match.state["history"] if entry["winner"] is not None]
    assert ended_by_going_out
    # Each way a round ended is named: going out by the last card, or going rummy.
    assert ("son kartını atarak" in text) == any(not entry["rummy"] for entry in ended_by_going_out)
    assert ("okey yaparak (+25)" in text) == any(entry["rummy"] for entry in ended_by_going_out)
    assert all(f"/hands/{hand.id}/" in text for hand in match.hands.all())
    table101, users101 = make_101_table(hands=3)
    services.start_match(user=table101.room.owner, table_id=table101.id)
    play_out_by_the_clock(table101)
    client.force_login(users101[0])
    assert client.get(f"/players/{users101[0].username}/hands/").status_code == 200
