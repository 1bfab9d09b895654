"""A 101 Okey match on the site (RULES.md "101 Okey"): started like any match, a pile draw then the
rest of the turn sent whole, refusals worded and changing nothing, penalties in the frames, the
clock playing for the absent, the hands recorded with their score sheets, the lowest total winning."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import selectors, services
from games.engine.okey101.rules import Rules101
from games.engine.tiles import format_tile
from games.errors import GameError
from games.models import Hand, Match, MatchPlayer
from salons.models import Room, Salon, Seat, Table

from .conftest import make_user

pytestmark = pytest.mark.django_db


def make_101_table(**options):
    salon, _ = Salon.objects.get_or_create(slug="genel", defaults={"name": "Genel"})
    owner = make_user()
    room = Room.objects.create(salon=salon, name="101 odası", owner=owner,
                               rules={"game": "okey101", **Rules101(**options).to_dict()}, turn_seconds=20)
    table = Table.objects.create(room=room, number=1)
    users = [owner, *(make_user() for _ in range(3))]
    for position, user in enumerate(users):
        Seat.objects.update_or_create(table=table, position=position, defaults={"user": user})
    return table, users


def current(table):
    match = Match.objects.filter(table=table).latest("pk")
    hand = match.hands.order_by("-number").first()
    return match, hand


def test_a_101_match_starts_and_its_frames_are_the_101_view():
    table, users = make_101_table(hands=3)
    match = services.start_match(user=table.room.owner, table_id=table.id)
    assert match.rules["game"] == "okey101"
    hand = match.hands.get()
    seat = hand.state["turn"]
    frame = selectors.table_frame(match=match, hand=hand, seat=seat)
    assert frame["hand"]["game"] == "okey101" and len(frame["hand"]["rack"]) == 22
    assert frame["hand"]["actions"] == ["turn"] and frame["match"]["hands"] == 3
    assert frame["match"]["standing"] == {"higher_is_better": False, "teams": None}
    watcher = selectors.table_frame(match=match, hand=hand, seat=None)
    assert watcher["hand"]["rack"] is None


def test_a_turn_is_a_pile_draw_then_the_rest_sent_whole_and_a_bad_one_changes_nothing():
    table, users = make_101_table(hands=3)
    match = services.start_match(user=table.room.owner, table_id=table.id)
    match, hand = current(table)
    starter = hand.state["turn"]
    rack = selectors.table_frame(match=match, hand=hand, seat=starter)["hand"]["rack"]
    services.play(user=users[starter], table_id=table.id, action="turn", move=hand.move,
                  args={"draw": None, "actions": [], "discard": rack[0]})
    match, hand = current(table)
    nxt = hand.state["turn"]
    assert nxt == (starter + 1) % 4
    before = hand.state
    with pytest.raises(GameError) as refused:
        services.play(user=users[nxt], table_id=table.id, action="turn", move=hand.move,
                      args={"actions": [{"type": "open", "melds": ["K1 K2 K3"]}], "discard": "K4"})
    assert refused.value.code == "must_draw" and "çekin" in str(refused.value.message)
    match, hand = current(table)
    assert hand.state == before
    services.play(user=users[nxt], table_id=table.id, action="draw", move=hand.move, args={"source": "pile"})
    match, hand = current(table)
    frame = selectors.table_frame(match=match, hand=hand, seat=nxt)
    assert frame["hand"]["drawn"] and frame["hand"]["drawn_tile"] == frame["hand"]["rack"][-1]
    assert selectors.table_frame(match=match, hand=hand, seat=starter)["hand"]["drawn_tile"] is None
    services.play(user=users[nxt], table_id=table.id, action="turn", move=hand.move,
                  args={"actions": [], "discard": frame["hand"]["drawn_tile"]})
    match, hand = current(table)
    assert hand.state["turn"] == (nxt + 1) % 4
    assert [move.action for move in hand.moves.order_by("number")][-3:] == ["turn", "draw", "turn"]


@pytest.mark.parametrize("args, field", [
    ({"actions": "open", "discard": "K1"}, "actions"),
    ({"actions": [{"type": "open", "melds": "K1 K2 K3"}], "discard": "K1"}, "melds"),
    ({"actions": [{"type": "lay_off", "meld": "1", "tile": "K1"}], "discard": "K1"}, "meld"),
    ({"actions": [{"type": "lay_off", "meld": 1, "tile": "K1", "x": 1}], "discard": "K1"}, "actions"),
    ({"actions": [], "discard": "K1" * 10}, "discard"),
    ({"draw": "table", "actions": [], "discard": "K1"}, "draw"),
    ({"actions": [{"type": "open", "melds": ["K1 " * 40]}], "discard": "K1"}, "melds"),
])
def test_a_malformed_turn_is_refused_by_field_before_the_engine_sees_it(args, field):
    table, users = make_101_table()
    services.start_match(user=table.room.owner, table_id=table.id)
    match, hand = current(table)
    with pytest.raises(GameError) as refused:
        services.play(user=users[hand.state["turn"]], table_id=table.id, action="turn", move=hand.move, args=args)
    assert (refused.value.code, refused.value.details.get("field")) == ("bad_argument", field)


def test_every_hand_is_played_to_its_end_recorded_with_its_sheet_and_the_lowest_total_wins():
    """Seat 0 plays its own turns (a pile draw, then the clock's choice of discard); the clock plays
    the others, who time out, are away and so never win (RULES.md "Absent players never win")."""
    from games.engine.okey101.hand import Hand101, clock_turn

    table, users = make_101_table(hands=3)
    services.start_match(user=table.room.owner, table_id=table.id)
    for _ in range(3 * 200):
        match, hand = current(table)
        if match.status == Match.Status.FINISHED:
            break
        if hand.status != Hand.Status.PLAYING:
            services.start_next_hand(match_id=match.id)
            continue
        if hand.state["turn"] == 0:
            state = Hand101.from_dict(hand.state)
            if not state.first_turn and not state.drawn:
                services.play(user=users[0], table_id=table.id, action="draw", move=hand.move, args={"source": "pile"})
                continue
            turn = clock_turn(state, 0)
            services.play(user=users[0], table_id=table.id, action="turn", move=hand.move,
                          args={"actions": [], "discard": turn["discard"]})
            continue
        Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        assert services.resolve_timeout(hand_id=hand.id, move=hand.move)
    match, hand = current(table)
    assert match.status == Match.Status.FINISHED
    state = match.state
    assert state["hands_played"] == 3 and all(entry["sheet"] for entry in state["history"])
    totals = state["scores"]
    assert totals == [sum(entry["scores"][seat] for entry in state["history"]) for seat in range(4)]
    players = {player.seat: player for player in MatchPlayer.objects.filter(match=match)}
    assert [players[seat].score for seat in range(4)] == totals
    winners = {seat for seat, player in players.items() if player.is_winner}
    assert 0 in winners and winners <= {seat for seat, total in enumerate(totals) if total == min(totals)}
    frame = selectors.table_frame(match=match, hand=hand, seat=0)
    assert frame["match"]["over"] and frame["match"]["history"][-1]["sheet"][0]["kind"] in (
        "unopened", "opened", "finished")
    assert frame["match"]["outcome"]["seats"][0]["parts"]


def play_out_by_the_clock(table):
    """Every turn timed out: the clock plays the match to its end."""
    for _ in range(11 * 200):
        match, hand = current(table)
        if match.status == Match.Status.FINISHED:
            return match
        if hand.status != Hand.Status.PLAYING:
            services.start_next_hand(match_id=match.id)
            continue
        Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        assert services.resolve_timeout(hand_id=hand.id, move=hand.move)
    raise AssertionError("the match did not end")


def test_leaving_a_running_101_match_hands_the_seat_to_a_bot_and_coming_back_takes_it_again():
    table, users = make_101_table(hands=3)
    services.start_match(user=table.room.owner, table_id=table.id)
    leaver = users[1]
    services.leave_running_match(user=leaver, table_id=table.id)
    match, hand = current(table)
    left = services._left_seats(match)
    assert left == {1}
    with pytest.raises(GameError) as refused:
        services.play(user=leaver, table_id=table.id, action="draw", move=hand.move, args={"source": "pile"})
    assert refused.value.code == "left_match"
    services.return_to_match(user=leaver, table_id=table.id)
    assert services._left_seats(match) == set()


def test_a_finished_101_match_offers_a_rematch_of_101_with_the_same_rules():
    table, users = make_101_table(hands=3, unopened_penalty=303)
    services.start_match(user=table.room.owner, table_id=table.id)
    finished = play_out_by_the_clock(table)
    again = None
    for user in users:
        again = services.accept_rematch(user=user, table_id=table.id) or again
    assert again is not None and again.pk != finished.pk
    assert again.rules == finished.rules and again.rules["game"] == "okey101" and again.rules["unopened_penalty"] == 303
    hand = again.hands.get()
    assert hand.state["game"] == "okey101"


def keys_of(value, found=None):
    found = set() if found is None else found
    if isinstance(value, dict):
        for key, item in value.items():
            found.add(key)
            keys_of(item, found)
    elif isinstance(value, list):
        for item in value:
            keys_of(item, found)
    return found


def test_no_frame_of_a_101_hand_shows_another_rack_the_pile_the_deck_or_the_seed():
    from games.engine.okey101.hand import Hand101

    table, users = make_101_table(hands=3)
    services.start_match(user=table.room.owner, table_id=table.id)
    for _ in range(120):
        match, hand = current(table)
        if hand.status != Hand.Status.PLAYING:
            break
        state = Hand101.from_dict(hand.state)
        for seat in (0, 1, 2, 3, None):
            frame = selectors.table_frame(match=match, hand=hand, seat=seat, with_feed=True)
            assert not keys_of(frame) & {"racks", "pile", "deck", "seed", "salt", "email"}
            if seat is None:
                assert frame["hand"]["rack"] is None
            else:
                assert frame["hand"]["rack"] == [format_tile(t) for t in state.racks[seat]]
                if seat != state.turn:
                    assert frame["hand"]["drawn_tile"] is None
            drawn = [event for event in frame.get("feed", []) if event["type"] == "draw"]
            assert all(set(event) == {"move", "type", "seat", "source"} for event in drawn)
        if state.turn == 2 and not state.drawn and not state.first_turn:
            services.play(user=users[2], table_id=table.id, action="draw", move=hand.move, args={"source": "pile"})
            continue
        Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        assert services.resolve_timeout(hand_id=hand.id, move=hand.move)


def test_a_finished_101_hand_has_a_proof_the_printed_verify_command_accepts_and_a_replay(tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path

    table, users = make_101_table(hands=3)
    services.start_match(user=table.room.owner, table_id=table.id)
    for _ in range(400):
        match, hand = current(table)
        if hand.status != Hand.Status.PLAYING:
            break
        Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        assert services.resolve_timeout(hand_id=hand.id, move=hand.move)
    match, hand = current(table)
    proof = selectors.fair_deal_proof(hand)
    assert proof["verification"] == {"valid": True, "problems": []}
    assert proof["rules"]["game"] == "okey101"
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(proof))
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "verify", "--deck", " ".join(proof["deck"]), "--salt", proof["salt"],
         "--commitment", proof["commitment"], "--moves", str(path)],
        cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=60)
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["valid"] and report["result"]["scores"] == hand.state["result"]["scores"]
    # A changed record is found: the scores the table wrote at the hand's end.
    assert proof["moves"][-1]["type"] == "hand_end"
    proof["moves"][-1]["scores"] = [score + 1 for score in proof["moves"][-1]["scores"]]
    path.write_text(json.dumps(proof))
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "verify", "--deck", " ".join(proof["deck"]), "--salt", proof["salt"],
         "--commitment", proof["commitment"], "--moves", str(path)],
        cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and not json.loads(done.stdout)["valid"]
    # The replay page's data shows every step with every rack and the melds.
    data = selectors.replay_frames(hand=hand, viewer=users[0])
    assert len(data["steps"]) == 1 + sum(1 for move in proof["moves"] if move["type"] in ("draw", "turn"))
    assert all("melds" in step and len(step["racks"]) == 4 for step in data["steps"])


def test_the_replay_page_of_a_101_hand_opens_with_its_melds_area_and_its_words(client):
    table, users = make_101_table(hands=3)
    services.start_match(user=table.room.owner, table_id=table.id)
    for _ in range(400):
        match, hand = current(table)
        if hand.status != Hand.Status.PLAYING:
            break
        Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        services.resolve_timeout(hand_id=hand.id, move=hand.move)
    client.force_login(users[0])
    page = client.get(f"/hands/{hand.id}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'id="replay-melds"' in text
    assert "r101_penalty_islek" in text
