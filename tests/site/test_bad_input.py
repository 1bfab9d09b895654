"""Addresses no page has: ids past the database's integer range and NUL bytes get a clean 4xx,
never a 500 (on PostgreSQL a NUL reached the database as a ValueError)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.conftest import make_player, make_room

pytestmark = pytest.mark.django_db

HUGE = "999999999999999999999999999"
JUST_PAST_BIGINT = str(2**63)


@pytest.fixture
def signed_in(db):
    user = make_player()
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client, user


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", f"/rooms/{HUGE}/tables/1/leave/"),
        ("post", f"/rooms/1/tables/{HUGE}/leave/"),
        ("post", f"/rooms/1/tables/1/sit/{HUGE}/"),
        ("get", f"/rooms/{HUGE}/"),
        ("get", f"/rooms/{JUST_PAST_BIGINT}/"),
        ("get", f"/rooms/{HUGE}/rules/"),
        ("post", f"/rooms/{HUGE}/chat/"),
        ("get", f"/tables/{HUGE}/"),
        ("get", f"/tables/{JUST_PAST_BIGINT}/"),
        ("get", f"/hands/{HUGE}/"),
        ("get", f"/hands/{HUGE}/proof.json"),
        ("post", f"/moderation/warnings/{HUGE}/seen/"),
    ],
)
def test_ids_past_the_integer_range_are_not_found(signed_in, method, path):
    client, _user = signed_in
    response = getattr(client, method)(path)
    assert response.status_code == 404, (path, response.status_code)


def test_the_largest_id_is_still_routed(signed_in):
    client, _user = signed_in
    assert client.get(f"/rooms/{2**63 - 1}/").status_code == 404  # routed to the view: no such room


@pytest.mark.parametrize(
    "path",
    ["/players/%00/", "/players/a%00b/", "/players/x/hands/?page=%00", "/?q=%00", "/salons/%00/",
     "/rooms/1/?password=%00"],
)
def test_nul_bytes_in_paths_and_query_strings_are_a_bad_request(signed_in, path):
    client, _user = signed_in
    response = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "invalid character" in response.content.decode()


def test_a_room_chat_post_with_a_nul_byte_is_refused_cleanly(signed_in):
    client, user = signed_in
    room = make_room(owner=user)
    response = client.post(f"/rooms/{room.pk}/chat/", {"text": "selam\x00"})
    assert response.status_code < 500
