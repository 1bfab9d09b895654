"""A visitor's practice hand (games/guest_practice.py): played without an account, kept only in
the cache (nothing written to the database, not even a session), rate-limited per address, and
ending with a sign-up offer."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import guest_practice
from games.engine import hand as engine_hand
from games.errors import GameError

pytestmark = pytest.mark.django_db

WRITES = ("INSERT", "UPDATE", "DELETE")


@pytest.fixture(autouse=True)
def fresh_cache():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def writes(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]


def post_json(client, url, body=None, **extra):
    return client.post(url, json.dumps(body or {}), content_type="application/json", HTTP_ACCEPT="application/json", **extra)


def my_move(state: dict) -> dict:
    """A simple player: draw from the centre, then throw the clock's choice (never finishing)."""
    if "draw_pile" in state["actions"]:
        return {"type": "draw", "source": "pile", "move": state["move"]}
    return {"type": "discard", "tile": state["rack"][0], "move": state["move"]}


def test_a_visitor_plays_a_whole_hand_and_nothing_reaches_the_database(client):
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/practice/try/")
        assert page.status_code == 200
        started = post_json(client, "/practice/try/start/")
        assert started.status_code == 200
        state = started.json()["state"]
        assert state["turn"] == 0 and state["seat"] == 0 and len(state["rack"]) in (14, 15)
        # Only the visitor's own rack: the bots' racks are not in the view while the hand is played.
        assert "racks" not in state and "deck" not in state and "pile" not in state
        for _ in range(200):
            if state["phase"] == "over":
                break
            response = post_json(client, "/practice/try/move/", my_move(state))
            assert response.status_code == 200, response.content
            state = response.json()["state"]
        assert state["phase"] == "over"
        # The end: every rack open, and the page offers to sign up.
        assert len(state["racks"]) == 4
        again = client.get("/practice/try/")
    assert writes(queries.captured_queries) == []
    assert "sessionid" not in client.cookies
    assert guest_practice.COOKIE in client.cookies and client.cookies[guest_practice.COOKIE]["httponly"]
    assert "/accounts/signup/" in again.content.decode()


def test_the_bots_answer_in_the_same_request_and_a_stale_move_is_refused(client):
    state = post_json(client, "/practice/try/start/").json()["state"]
    first = post_json(client, "/practice/try/move/", my_move(state)).json()["state"]
    stale = post_json(client, "/practice/try/move/", my_move(state))
    assert stale.status_code == 400 and stale.json()["error"]["code"] == "stale"
    assert stale.json()["error"]["state"]["move"] == first["move"]
    if "discard" in first["actions"]:
        thrown = post_json(client, "/practice/try/move/", my_move(first)).json()["state"]
        # After the throw the three bots played: it is the visitor's turn again (or the hand ended).
        assert thrown["turn"] == 0 or thrown["phase"] == "over"
        assert [e["seat"] for e in thrown["events"]][0] == 0


def test_a_move_that_breaks_the_rules_changes_nothing(client):
    state = post_json(client, "/practice/try/start/").json()["state"]
    wrong = post_json(client, "/practice/try/move/", {"type": "finish", "tile": "K99", "move": state["move"]})
    assert wrong.status_code == 400
    again = post_json(client, "/practice/try/move/", my_move(state))
    assert again.status_code == 200


def test_new_hands_are_rate_limited_per_address(client, settings):
    settings.GUEST_PRACTICE_PER_HOUR = 2
    assert post_json(client, "/practice/try/start/").status_code == 200
    assert post_json(client, "/practice/try/start/").status_code == 200
    refused = post_json(client, "/practice/try/start/")
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "guest_practice_limit"
    # Another address still may.
    assert post_json(client, "/practice/try/start/", REMOTE_ADDR="10.1.2.3").status_code == 200


def test_moves_are_rate_limited_per_address(client, settings):
    settings.GUEST_PRACTICE_MOVES_PER_MINUTE = 3
    state = post_json(client, "/practice/try/start/").json()["state"]
    codes = []
    for _ in range(5):
        response = post_json(client, "/practice/try/move/", my_move(state))
        codes.append(response.status_code)
        if response.status_code == 200:
            state = response.json()["state"]
    assert codes[:3] == [200, 200, 200] and codes[3:] == [429, 429]


def test_without_a_hand_or_with_a_forged_token_nothing_is_played(client):
    assert post_json(client, "/practice/try/move/", {"type": "draw", "move": 1}).status_code == 410
    client.cookies[guest_practice.COOKIE] = "x" * 30
    assert post_json(client, "/practice/try/move/", {"type": "draw", "move": 1}).status_code == 410
    with pytest.raises(GameError):
        guest_practice.play(token="../../etc", address="1.1.1.1", action="draw", move=1)


def test_the_service_keeps_the_engine_state_and_only_the_visitors_view_leaves_it():
    token, state = guest_practice.start(address="192.0.2.1")
    from django.core.cache import cache

    stored = engine_hand.HandState.from_dict(cache.get(f"guest-practice:{token}"))
    assert [engine_hand.format_tile(t) for t in stored.racks[0]] == state["rack"]
    # Nothing of the bots' racks is in the view but what everyone sees (discards, indicator).
    hidden = {engine_hand.format_tile(t) for seat in (1, 2, 3) for t in stored.racks[seat]} - set(state["rack"])
    visible = json.dumps({k: v for k, v in state.items() if k not in ("events",)})
    assert not any(f'"{tile}"' in visible for tile in hidden - {state["indicator"], state["okey"], *filter(None, state["discard_tops"])})
