"""Moderation fixtures: two salons with a room each, a moderator per salon, a site admin, players.

Nothing here is autouse: the chat filter's property tests (hypothesis) must not get
function-scoped fixtures. Django tests of this package opt in with ``usefixtures("fresh_cache")``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tests.conftest import make_player, make_room, make_salon


@pytest.fixture
def fresh_cache(settings: Any) -> Any:
    """Rate limits and the filter rules' signature live in the cache: each test starts from zero."""
    from django.core.cache import cache

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    yield
    cache.clear()


@dataclass
class World:
    salon: Any
    other_salon: Any
    room: Any
    other_room: Any
    table: Any
    moderator: Any
    other_moderator: Any
    admin: Any
    troll: Any
    reporter: Any


def make_moderator(nickname: str, salon: Any) -> Any:
    """A salon moderator: a ``SalonStaff`` row and the admin access the role brings."""
    from salons.models import SalonStaff

    user = make_player(nickname, is_staff=True)
    SalonStaff.objects.create(salon=salon, user=user)
    return user


def build_world() -> World:
    salon = make_salon("genel", name="Genel")
    other_salon = make_salon("ikinci", name="İkinci")
    owner = make_player("OdaSahibi")
    room = make_room(owner=owner, salon=salon, name="Keyif Odası")
    other_room = make_room(owner=make_player("BaskaSahip"), salon=other_salon, name="Öteki Oda")
    return World(
        salon=salon,
        other_salon=other_salon,
        room=room,
        other_room=other_room,
        table=room.tables.get(),
        moderator=make_moderator("Sorumlu1", salon),
        other_moderator=make_moderator("Sorumlu2", other_salon),
        admin=make_player("Patron", is_staff=True, is_superuser=True),
        troll=make_player("Trol"),
        reporter=make_player("Sikayetci"),
    )


@pytest.fixture
def world(db: None, fresh_cache: None) -> World:
    return build_world()
