"""A waiting table tells who sat, who is ready and, in a room that fills empty seats with bots, how
long until they come (``table.bots_in`` of the state frame)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.consumers import state_frame_for
from salons.models import Seat

from .conftest import make_table, make_user

pytestmark = pytest.mark.django_db


def waiting_table(*, bot_fill_seconds: int, seated_ago: float | None):
    person = make_user()
    table, _ = make_table(owner=person, players=[person] if seated_ago is not None else [])
    table.room.bot_fill_seconds = bot_fill_seconds
    table.room.save(update_fields=["bot_fill_seconds"])
    if seated_ago is not None:
        Seat.objects.filter(table=table, user=person).update(taken_at=timezone.now() - timedelta(seconds=seated_ago))
    return table, person


def test_bots_come_that_long_after_the_first_person_sat():
    table, person = waiting_table(bot_fill_seconds=30, seated_ago=10)
    frame, _seated = state_frame_for(person, table.id)
    assert 19 <= frame["table"]["bots_in"] <= 20


def test_no_countdown_without_the_room_option_or_anyone_seated_or_once_overdue_it_says_zero():
    table, person = waiting_table(bot_fill_seconds=0, seated_ago=10)
    assert state_frame_for(person, table.id)[0]["table"]["bots_in"] is None
    table, person = waiting_table(bot_fill_seconds=30, seated_ago=None)
    assert state_frame_for(make_user(), table.id)[0]["table"]["bots_in"] is None
    table, person = waiting_table(bot_fill_seconds=15, seated_ago=40)
    assert state_frame_for(person, table.id)[0]["table"]["bots_in"] == 0
