"""Seats and tables while a match is played: the one place the games app changes them.

The salons app owns ``Table``, ``Seat`` and ``Room`` rows (issue 20: games wrote them itself from
23 places). The games app asks here — a table playing or waiting again, bots in the empty seats,
a player leaving or taking a seat back, the hidden table of a practice game — and reads seats
through ``seats_at``/``seated_user_ids``/``seats_elsewhere``. Every function runs in the caller's
transaction; the caller holds the table's lock (``lock_table``) where it says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import timedelta
from typing import Any

from django.db.models import Min
from django.utils import timezone

from .models import Room, Seat, Table
from .practice import practice_room_q

# -- reading ----------------------------------------------------------------------------------------


def lock_table(table_id: Any) -> Table | None:
    """The table with its room, locked for the caller's transaction (None: no such table)."""
    return Table.objects.select_for_update().select_related("room").filter(pk=table_id).first()


def seats_at(table_id: int, *, lock: bool = False, with_users: bool = False) -> list[Seat]:
    """The table's seats in position order (``lock``: for update, under the table's lock)."""
    seats = Seat.objects.filter(table_id=table_id).order_by("position")
    if lock:
        seats = seats.select_for_update()
    if with_users:
        seats = seats.select_related("user")
    return list(seats)


def seated_user_ids(table_id: int, *, people_only: bool = False) -> set[int]:
    seats = Seat.objects.filter(table_id=table_id, user__isnull=False)
    if people_only:
        seats = seats.filter(user__is_bot=False)
    return set(seats.values_list("user_id", flat=True))


def seat_rows(table_id: int) -> list[dict[str, Any]]:
    """Who sits where: position, user id, nickname and bot flag (no other field of the user)."""
    return list(Seat.objects.filter(table_id=table_id).order_by("position")
                .values("position", "user_id", "user__username", "user__is_bot", "taken_at"))


def tables_due_for_bots(*, now) -> list[int]:
    """Waiting tables of open rooms that fill their empty seats with bots, whose first person has
    waited the room's ``bot_fill_seconds``."""
    candidates = (
        Table.objects.filter(status=Table.Status.WAITING, room__status="open", room__bot_fill_seconds__gt=0,
                             seats__user__isnull=False, seats__user__is_bot=False)
        .annotate(first_seated=Min("seats__taken_at"))
        .values_list("id", "first_seated", "room__bot_fill_seconds")
    )
    return [table_id for table_id, first, wait in candidates
            if first is not None and first <= now - timedelta(seconds=wait)]


def is_seated(*, table_id: int, user) -> bool:
    return Seat.objects.filter(table_id=table_id, user=user).exists()


def seats_elsewhere(*, user, table_id: int | None = None, real_only: bool = False, lock: bool = False) -> list[Seat]:
    """The seats ``user`` holds at other tables (``real_only``: not at practice tables), with their tables."""
    seats = Seat.objects.filter(user=user).select_related("table")
    if table_id is not None:
        seats = seats.exclude(table_id=table_id)
    if real_only:
        seats = seats.exclude(practice_room_q("table__room__"))
    if lock:
        seats = seats.select_for_update(of=("self",))
    return list(seats)


# -- changing -----------------------------------------------------------------------------------------


def set_table_playing(*, table_id: int, playing: bool) -> None:
    """A match started at the table (``playing``) or ended there: it waits for the next one."""
    Table.objects.filter(pk=table_id).update(status=Table.Status.PLAYING if playing else Table.Status.WAITING)


def seat_bots(*, seats: Sequence[Seat], bots: Iterable) -> None:
    """Bots in the empty ones of these (locked) seats, in order."""
    now = timezone.now()
    for seat, bot in zip([seat for seat in seats if seat.user_id is None], bots, strict=True):
        seat.user = bot
        seat.taken_at = now
        seat.save(update_fields=["user", "taken_at"])


def vacate_seat(*, table_id: int, user) -> None:
    """``user`` stands up from the table (leaving a running match: the clock plays their seat)."""
    Seat.objects.filter(table_id=table_id, user=user).update(user=None, taken_at=None)


def move_to_seat(*, user, table_id: int, position: int, giving_up: Sequence[Seat] = ()) -> bool:
    """``user`` gives up ``giving_up`` (their seats elsewhere) and takes the free seat at
    ``position``; False, with nothing taken, when someone sits there already (the caller raises)."""
    Seat.objects.filter(pk__in=[seat.pk for seat in giving_up]).update(user=None, taken_at=None)
    taken = Seat.objects.filter(table_id=table_id, position=position, user__isnull=True).update(
        user=user, taken_at=timezone.now())
    return taken == 1


def open_private_table(*, salon, owner, name: str, rules: dict[str, Any], people: Sequence) -> tuple[Table, list[Seat]]:
    """A new private room with no password (nobody finds it; a practice room) and its one table,
    ``people`` in seats 0, 1, … in order."""
    room = Room(salon=salon, owner=owner, name=name, rules=rules, is_private=True)
    room.set_password("")
    room.save()
    table = Table.objects.create(room=room, number=1)
    now = timezone.now()
    seats = [Seat.objects.create(table=table, position=position, user=person, taken_at=now)
             for position, person in enumerate(people)]
    return table, seats


def close_table_and_room(*, table_id: int) -> None:
    """Everyone stands up and the table's room closes (a practice table when its game ends)."""
    now = timezone.now()
    Seat.objects.filter(table_id=table_id).update(user=None, taken_at=None)
    Room.objects.filter(tables__pk=table_id).update(status=Room.Status.CLOSED, closed_at=now)
