"""Shared factories: players (with a verified e-mail, so they can log in through allauth), salons
and rooms opened through the real service. Plain functions plus thin fixtures around them."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

PASSWORD = "Okey-Parola-2024!"
_numbers = itertools.count(1)


def make_player(nickname: str | None = None, *, email: str | None = None, password: str = PASSWORD, verified: bool = True, **fields: Any):
    """A player who can sign in with nickname or e-mail and ``PASSWORD``."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    nickname = nickname or f"oyuncu{next(_numbers)}"
    email = email or f"{nickname.lower()}.{next(_numbers)}@private.example"
    user = get_user_model().objects.create_user(username=nickname, email=email, password=password, **fields)
    EmailAddress.objects.create(user=user, email=email, primary=True, verified=verified)
    return user


def make_salon(slug: str = "genel", **fields: Any):
    from salons.models import Salon

    defaults = {"name": slug.capitalize(), "description": "", "min_stake": 10, "max_stake": 1000, **fields}
    salon, _ = Salon.objects.get_or_create(slug=slug, defaults=defaults)
    return salon


def make_room(*, owner=None, salon=None, name: str = "Keyif Odası", rules: dict | None = None, **options: Any):
    """A room opened through ``salons.services.open_room`` (so tables and seats exist as in real life)."""
    from games.engine.rules import RuleSet
    from salons import services

    return services.open_room(
        user=owner or make_player(),
        salon=salon or make_salon(),
        name=name,
        rules=rules if rules is not None else RuleSet().to_dict(),
        **options,
    )


@pytest.fixture
def player_factory(db):
    return make_player


@pytest.fixture
def salon(db):
    return make_salon()


@pytest.fixture
def room_factory(db):
    return make_room


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """After the run, end the connections that server and worker threads left open, so the test
    database can be dropped cleanly on PostgreSQL."""
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
