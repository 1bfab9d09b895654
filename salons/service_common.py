"""What the salon services share: who may act (signed in, allowed in, the room's manager), the row
locks of rooms and tables, freeing seats, and the after-commit announcements of what changed.

The use cases themselves live in ``salons.services`` (seats, chat, presence), ``salons.rooms``
(opening, editing, closing rooms) and ``salons.room_access`` (passwords, invite links, removals).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from accounts.errors import ServiceError
from accounts.models import User

from . import events, selectors
from .models import Room, Seat, Table


def _require_user(user: User) -> None:
    if not getattr(user, "is_authenticated", False):
        raise ServiceError("login_required", _("Bu işlem için giriş yapın."))
    if not user.is_active:
        raise ServiceError("inactive", _("Hesabınız etkin değil."))


def _require_access(*, room: Room, user: User) -> None:
    error = selectors.room_access_error(room=room, user=user)
    if error is not None:
        raise error


def _require_manager(*, room: Room, user: User) -> None:
    _require_user(user)
    if not selectors.can_manage_room(user=user, room=room):
        raise ServiceError("not_owner", _("Bunu yalnızca oda sahibi yapabilir."))


def _lock_room(room: Room) -> Room:
    try:
        return Room.objects.select_for_update().select_related("salon", "owner").get(pk=room.pk)
    except Room.DoesNotExist:
        raise ServiceError("no_room", _("Böyle bir oda yok.")) from None


def _lock_table(table: Table) -> Table:
    try:
        return Table.objects.select_for_update().select_related("room", "room__salon").get(pk=table.pk)
    except Table.DoesNotExist:
        raise ServiceError("no_table", _("Böyle bir masa yok.")) from None


def _announce_tables(room: Room, table_ids: list[int], event_type: str = "seat.changed") -> None:
    """After commit: the fresh state of these tables to the room group.

    Table groups (the live table page of the games app) get only "seat.changed", the one table
    event in the contract; its consumer has no handler for the room page's other event types.
    """

    def build() -> None:
        for table_id in table_ids:
            payload = selectors.get_table_payload(table_id=table_id)
            message = {"type": event_type, "room": room.pk, "table": payload}
            events.send_now(events.room_group(room.pk), message)
            if event_type == "seat.changed":
                events.send_now(events.table_group(table_id), message)

    events.after_commit(build)


def _announce_presence(room_id: int) -> None:
    def build() -> None:
        room = Room.objects.filter(pk=room_id).first()
        if room is None:
            return
        counts = selectors.presence_counts(room=room)
        present = [{"id": user.pk, "nickname": user.username} for user in selectors.room_people(room=room)]
        events.send_now(
            events.room_group(room_id), {"type": "presence.changed", "room": room_id, **counts, "present": present}
        )

    events.after_commit(build)


def _announce_salon(salon_id: int) -> None:
    """After commit: tell the salon page its list changed, and the lobby its counts."""

    def build() -> None:
        events.send_now(events.salon_group(salon_id), {"type": "salon.changed", "salon": salon_id})
        events.send_now(events.LOBBY_GROUP, {"type": "lobby.counts", "salons": selectors.lobby_counts()})

    events.after_commit(build)


def _free_seats(seats: list[Seat]) -> list[int]:
    """Empty the given seats; returns the ids of the tables that changed."""
    changed = sorted({seat.table_id for seat in seats})
    Seat.objects.filter(pk__in=[seat.pk for seat in seats]).update(user=None, taken_at=None)
    return changed
