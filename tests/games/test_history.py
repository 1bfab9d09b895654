"""After a match: ratings and leaderboards, hand history, and replays rebuilt from the move log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import practice, selectors, services
from games.engine import hand as engine_hand
from games.engine.rules import RuleSet
from games.models import Hand, Match, PlayerRating

from .conftest import make_table, make_user, play_hand_out

pytestmark = pytest.mark.django_db


def play_out_by_timeouts(table) -> Hand:
    """Every turn runs out of time until the hand ends: after three timeouts each player is away
    and the bot plays for them, so the hand ends with a finish or with the pile running out."""
    hand = Hand.objects.get(match__table=table, status=Hand.Status.PLAYING)
    while hand.status == Hand.Status.PLAYING:
        Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        services.resolve_timeout(hand_id=hand.id, move=hand.move)
        hand.refresh_from_db()
    return hand


@pytest.fixture
def finished_penalty_match():
    """A one-hand penalty match its four players played themselves (so it is rated and counted)."""
    table, users = make_table(rules=RuleSet.preset("penalty", hands_per_match=1))
    services.start_match(user=table.room.owner, table_id=table.id)
    hand = play_hand_out(Hand.objects.get(match__table=table, status=Hand.Status.PLAYING))
    return table, users, hand


def test_a_finished_hand_replays_move_by_move_to_its_stored_end(finished_penalty_match):
    table, users, hand = finished_penalty_match
    stored = engine_hand.HandState.from_dict(hand.state)
    data = selectors.replay_frames(hand=hand, viewer=users[0])
    assert len(data["steps"]) == hand.move + 1
    last = data["steps"][-1]
    assert last["phase"] == "over" and last["result"]["reason"] in ("pile_out", "finished")
    assert last["result"] == engine_hand.view_for(stored, 0)["result"]
    assert last["rack"] == [engine_hand.format_tile(t) for t in stored.racks[0]]
    first = data["steps"][0]
    assert first["seat"] == 0 and len(first["rack"]) in (14, 15)


def test_a_watcher_replays_without_any_rack(finished_penalty_match):
    table, users, hand = finished_penalty_match
    data = selectors.replay_frames(hand=hand, viewer=make_user())
    assert all(step["rack"] is None for step in data["steps"])


def test_a_hand_in_play_cannot_be_replayed(client):
    table, users = make_table()
    match = services.start_match(user=table.room.owner, table_id=table.id)
    hand = match.hands.get()
    with pytest.raises(ValueError):
        selectors.replay_frames(hand=hand, viewer=users[0])
    client.force_login(users[0])
    assert client.get(f"/hands/{hand.id}/").status_code == 404


def test_the_match_result_updates_ratings_stats_and_the_leaderboard(finished_penalty_match, client):
    table, users, hand = finished_penalty_match
    match = Match.objects.get(table=table)
    assert match.status == Match.Status.FINISHED
    overall = PlayerRating.objects.filter(salon=None)
    assert overall.count() == 4 and all(r.matches == 1 for r in overall)
    assert PlayerRating.objects.filter(salon=table.room.salon).count() == 4
    for user in users:
        user.refresh_from_db()
        assert user.games_played == 1
    response = client.get("/leaderboard/")
    assert response.status_code == 200
    page = response.content.decode()
    for user in users:  # one rated match is not enough to be listed
        assert f">{user.username}<" not in page
    PlayerRating.objects.update(matches=3)
    page = client.get("/leaderboard/").content.decode()
    for user in users:
        assert f">{user.username}<" in page
        assert user.email not in page
    assert client.get(f"/leaderboard/{table.room.salon.slug}/").status_code == 200
    assert client.get("/leaderboard/no-such-salon/").status_code == 404


def test_history_lists_the_hand_and_its_replay_page_shows_the_fair_deal_proof(finished_penalty_match, client):
    table, users, hand = finished_penalty_match
    client.force_login(users[1])
    history = client.get(f"/players/{users[1].username}/hands/")
    assert history.status_code == 200 and f"/hands/{hand.id}/" in history.content.decode()
    replay = client.get(f"/hands/{hand.id}/")
    assert replay.status_code == 200
    assert hand.commitment and hand.commitment in replay.content.decode()


def test_winners_rank_above_losers_in_a_rated_countdown_result():
    from games.ratings import finishing_ranks

    assert finishing_ranks(scoring="countdown", scores=[20, 0, 12, 12]) == [1, 3, 2, 2]
    assert finishing_ranks(scoring="penalty", scores=[40, 0, 20, 20]) == [3, 1, 2, 2]
    assert finishing_ranks(scoring="chips", scores=[10, -10, 0, 0]) is None


def test_the_revealed_deal_matches_its_commitment_and_the_cli_agrees(finished_penalty_match, client, tmp_path):
    import json
    import subprocess
    import sys

    table, users, hand = finished_penalty_match
    proof = client.get(f"/hands/{hand.id}/proof.json").json()
    assert proof["verification"] == {"valid": True, "problems": []}
    moves = tmp_path / "moves.json"
    moves.write_text(json.dumps(proof))  # the proof file carries its rules and moves
    command = [sys.executable, "-m", "games.engine", "verify", "--deck", " ".join(proof["deck"]),
               "--salt", proof["salt"], "--commitment", proof["commitment"], "--moves", str(moves),
               "--starting-seat", str(proof["starting_seat"])]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["valid"] is True
    # A deck swapped after the fact no longer matches what was published before the deal.
    tampered = list(proof["deck"])
    # Swap the top tile with the last tile that differs from it (each face is in the deck twice:
    # swapping two equal tiles would change nothing).
    other = max(index for index, tile in enumerate(tampered) if tile != tampered[0])
    tampered[0], tampered[other] = tampered[other], tampered[0]
    command[command.index("--deck") + 1] = " ".join(tampered)
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and json.loads(done.stdout)["valid"] is False


def test_the_deck_of_a_hand_in_play_is_never_served(client):
    table, users = make_table()
    match = services.start_match(user=table.room.owner, table_id=table.id)
    hand = match.hands.get()
    assert client.get(f"/hands/{hand.id}/proof.json").status_code == 404
    frame = selectors.table_frame(match=match, hand=hand, seat=0)
    assert frame["hand"]["commitment"] == hand.commitment and len(hand.commitment) == 64
    assert "salt" not in json_text(frame) and hand.salt not in json_text(frame)


def json_text(value) -> str:
    import json

    return json.dumps(value)


# -- who may open a finished hand (issue 10, item 12) ------------------------------------------------


@pytest.fixture
def finished_private_match():
    table, users = make_table(rules=RuleSet.preset("penalty", hands_per_match=1))
    type(table.room).objects.filter(pk=table.room_id).update(is_private=True)
    services.start_match(user=table.room.owner, table_id=table.id)
    hand = play_out_by_timeouts(table)
    return table, users, hand


def hand_pages(client, hand, player) -> dict[str, object]:
    replay = client.get(f"/hands/{hand.id}/")
    proof = client.get(f"/hands/{hand.id}/proof.json")
    history = client.get(f"/players/{player.username}/hands/")
    assert history.status_code == 200
    return {"replay": replay.status_code, "proof": proof.status_code,
            "listed": f"/hands/{hand.id}/" in history.content.decode()}


HIDDEN = {"replay": 404, "proof": 404, "listed": False}
OPEN = {"replay": 200, "proof": 200, "listed": True}


def test_hands_of_a_private_room_are_hidden_from_outsiders(finished_private_match, client):
    from salons.models import Salon, SalonStaff

    table, users, hand = finished_private_match
    assert hand_pages(client, hand, users[0]) == HIDDEN  # anonymous
    client.force_login(make_user())
    assert hand_pages(client, hand, users[0]) == HIDDEN  # a stranger
    other_salon = Salon.objects.create(slug="baska", name="Başka")
    other_staff = make_user()
    SalonStaff.objects.create(salon=other_salon, user=other_staff)
    client.force_login(other_staff)
    assert hand_pages(client, hand, users[0]) == HIDDEN  # staff of another salon


def test_hands_of_a_private_room_stay_open_to_its_players_owner_guests_and_staff(finished_private_match, client):
    from salons.models import RoomAccess, SalonStaff

    table, users, hand = finished_private_match
    staff, admin, guest = make_user(), make_user(is_superuser=True), make_user()
    SalonStaff.objects.create(salon=table.room.salon, user=staff)
    RoomAccess.objects.create(room=table.room, user=guest)
    for viewer in (users[1], table.room.owner, guest, staff, admin):
        client.force_login(viewer)
        assert hand_pages(client, hand, users[1]) == OPEN, viewer
    client.force_login(users[1])
    proof = client.get(f"/hands/{hand.id}/proof.json").json()
    assert proof["verification"]["valid"] is True  # the fair-deal proof stays with the hand's players


def test_practice_hands_belong_to_their_player(client):
    from tests.conftest import make_salon

    make_salon()
    player = make_user()
    table = practice.start_practice(user=player)
    hand = play_out_by_timeouts(table)
    assert hand_pages(client, hand, player) == HIDDEN
    client.force_login(make_user())
    assert hand_pages(client, hand, player) == HIDDEN
    client.force_login(player)
    assert hand_pages(client, hand, player) == OPEN


def test_hands_of_a_public_room_stay_public(finished_penalty_match, client):
    table, users, hand = finished_penalty_match
    assert hand_pages(client, hand, users[0]) == OPEN  # anonymous visitors included
