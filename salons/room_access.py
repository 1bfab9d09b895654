"""Who may be in a room: private rooms' passwords (guesses counted before they are checked) and
invite links, the accesses a new password or link ends, and the owner's removals
(``salons.services`` re-exports the public names).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.errors import ServiceError
from accounts.models import User
from accounts.services import user_sockets_group

from . import events, selectors
from .models import Room, RoomAccess, RoomRemoval, SalonStaff, Seat, Table, new_invite_token
from .service_common import (
    _announce_presence,
    _announce_salon,
    _announce_tables,
    _free_seats,
    _lock_room,
    _require_manager,
    _require_user,
)

# Room passwords: a minimum length, and guesses counted before they are checked, in windows of
# PASSWORD_WINDOW seconds: per player and room, per address and room (more accounts bring no more
# guesses), per player and per address over all rooms (no sweeping every private room), per room
# from everyone (the room locks, the owner is told) and per room and day (no endless attack from
# fresh accounts on fresh addresses). A correct password is not counted. docs/security.md.
PASSWORD_MIN_LENGTH = 4
PASSWORD_MAX_LENGTH = 64
PASSWORD_ATTEMPTS = 10
ACCOUNT_PASSWORD_ATTEMPTS = 30
ADDRESS_PASSWORD_ATTEMPTS = 30
ROOM_PASSWORD_ATTEMPTS = 30
ROOM_PASSWORD_ATTEMPTS_PER_DAY = 100
PASSWORD_WINDOW = 300
PASSWORD_DAY = 24 * 3600
REMOVAL_REASON_MIN = 3
REMOVAL_REASON_MAX = 200
REMOVAL_MINUTES_DEFAULT = 30
REMOVAL_MINUTES_MAX = 24 * 60


def _clean_password(password: Any) -> str:
    """A room password: empty (invite link only) or PASSWORD_MIN_LENGTH–PASSWORD_MAX_LENGTH characters."""
    password = str(password or "")
    if password and not PASSWORD_MIN_LENGTH <= len(password) <= PASSWORD_MAX_LENGTH:
        raise ServiceError(
            "bad_password",
            _("Oda şifresi %(min)d–%(max)d karakter olmalı.") % {"min": PASSWORD_MIN_LENGTH, "max": PASSWORD_MAX_LENGTH},
        )
    return password


# --- access that ends, invite links -----------------------------------------------------------


def _revoke_access(room: Room, accesses: Any) -> list[int]:
    """End the given accesses and make a new invite link (the room is locked by the caller).

    Whoever can no longer be in the room is stood up from its waiting tables and their room and
    table sockets are told to leave. Returns the ids of the tables whose seats changed.
    """
    revoked = set(accesses.values_list("user_id", flat=True))
    accesses.delete()
    room.invite_token = new_invite_token()
    room.save(update_fields=["invite_token", "updated_at"])
    seats = list(
        Seat.objects.select_for_update()
        .filter(table__room=room, user__isnull=False, table__status=Table.Status.WAITING)
        .select_related("user")
    )
    outside = [seat for seat in seats if not selectors.has_private_access(room=room, user=seat.user)]
    revoked |= {seat.user_id for seat in outside}
    freed = _free_seats(outside)
    if revoked:
        users = sorted(revoked)
        events.publish(events.room_group(room.pk), "access.revoked", room=room.pk, users=users)
        table_ids = list(Table.objects.filter(room=room).values_list("pk", flat=True))
        for user_id in users:
            for table_id in table_ids:
                events.publish(events.table_group(table_id), "user.kicked", room=room.pk, user_id=user_id)
        _announce_presence(room.pk)
    return freed


@transaction.atomic
def new_invite_link(*, user: User, room: Room) -> Room:
    """The owner replaces the invite link (it leaked, say): the old one stops working, and those
    who came in through it are out again; password entries stay."""
    room = _lock_room(room)
    _require_manager(room=room, user=user)
    if not room.is_open:
        raise ServiceError("room_closed", _("Bu oda kapandı."))
    if not room.is_private:
        raise ServiceError("not_private", _("Davet bağlantısı yalnızca özel odalarda vardır."))
    freed = _revoke_access(room, RoomAccess.objects.filter(room=room, via=RoomAccess.Via.INVITE))
    _announce_tables(room, freed)
    _announce_salon(room.salon_id)
    return room


# --- passwords --------------------------------------------------------------------------------


def _spend_attempt(key: str, window: int) -> int:
    """Count one attempt atomically (``incr`` in the cache, shared by every server process) and
    return the count, this attempt included: the count comes before the check, so N parallel
    guesses can never all pass a "fewer than the limit so far" test."""
    cache.add(key, 0, window)
    try:
        return cache.incr(key)
    except ValueError:  # the key expired between add and incr
        cache.set(key, 1, window)
        return 1


def _refund_attempt(key: str) -> None:
    try:
        cache.decr(key)
    except ValueError:
        pass


# The clock of the password windows (tests drive it instead of sleeping).
_password_clock = time.time


def _window_key(base: str, window: int) -> str:
    return f"{base}:{int(_password_clock() // window)}"


def _address_key(address: str) -> str:
    # The address never appears in a key as such (nor anywhere staff can read).
    return hashlib.sha256(address.encode()).hexdigest()[:24]


def _password_counters(*, room: Room, user: User, address: str | None) -> list[tuple[str, int, int, str]]:
    """(cache key, window, limit, refusal code), narrowest first."""
    base = "salons:room-password"
    counters = [(_window_key(f"{base}:{room.pk}:user:{user.pk}", PASSWORD_WINDOW), PASSWORD_WINDOW,
                 PASSWORD_ATTEMPTS, "too_many_attempts")]
    if address:
        counters.append((_window_key(f"{base}:{room.pk}:address:{_address_key(address)}", PASSWORD_WINDOW),
                         PASSWORD_WINDOW, PASSWORD_ATTEMPTS, "too_many_attempts"))
    counters.append((_window_key(f"{base}:user:{user.pk}", PASSWORD_WINDOW), PASSWORD_WINDOW,
                     ACCOUNT_PASSWORD_ATTEMPTS, "too_many_attempts"))
    if address:
        counters.append((_window_key(f"{base}:address:{_address_key(address)}", PASSWORD_WINDOW), PASSWORD_WINDOW,
                         ADDRESS_PASSWORD_ATTEMPTS, "too_many_attempts"))
    counters.append((_window_key(f"{base}:{room.pk}:all", PASSWORD_WINDOW), PASSWORD_WINDOW,
                     ROOM_PASSWORD_ATTEMPTS, "room_locked"))
    counters.append((_window_key(f"{base}:{room.pk}:day", PASSWORD_DAY), PASSWORD_DAY,
                     ROOM_PASSWORD_ATTEMPTS_PER_DAY, "room_locked"))
    return counters


def _spend_password_attempt(*, room: Room, user: User, address: str | None) -> list[str]:
    """Count the attempt on every counter before the password is checked; returns the keys spent
    (to refund when the password is right). Past a limit the attempt is refused unchecked and
    refunded to the narrower counters (it was no guess of theirs); the owner is told, once per
    window, when the room's own limit is reached."""
    spent: list[str] = []
    for key, window, limit, code in _password_counters(room=room, user=user, address=address):
        count = _spend_attempt(key, window)
        if count <= limit:
            spent.append(key)
            continue
        for earlier in spent:
            _refund_attempt(earlier)
        if code == "room_locked":
            if count == limit + 1:
                _tell_owner_of_password_attack(room, guessers=_guessers(room))
            raise ServiceError(
                "room_locked",
                _("Bu odaya çok fazla yanlış şifre denendi; oda sahibine haber verildi. "
                  "Birkaç dakika sonra yeniden deneyin ya da davet bağlantısıyla girin."),
            )
        raise ServiceError("too_many_attempts", _("Çok fazla yanlış deneme; birkaç dakika sonra yeniden deneyin."))
    return spent


def _guessers_key(room: Room) -> str:
    return _window_key(f"salons:room-password:{room.pk}:guessers", PASSWORD_WINDOW)


def _note_guesser(room: Room, user: User, keep: int = 20) -> None:
    """The nicknames that guessed wrong at this room in the window, for the moderation log (not
    atomic: it informs staff, it limits nothing)."""
    key = _guessers_key(room)
    names = cache.get(key) or []
    if user.username not in names and len(names) < keep:
        cache.set(key, [*names, user.username], PASSWORD_WINDOW * 2)


def _guessers(room: Room) -> list[str]:
    return list(cache.get(_guessers_key(room)) or [])


def _tell_owner_of_password_attack(room: Room, *, guessers: list[str]) -> None:
    """The owner hears it on every open socket (lobby, salons, rooms, tables, tournaments) and on the
    room's page until the password changes; the salon's staff find it in the moderation log."""
    from moderation.records import record_password_attack  # not moderation.services: one direction only

    now = timezone.now()
    Room.objects.filter(pk=room.pk).update(password_attack_at=now)
    record_password_attack(room=room, guessers=guessers)
    events.send_now(
        user_sockets_group(room.owner_id),
        {"type": "room.password_attack", "room": room.pk, "room_name": room.name, "owner": room.owner_id,
         "at": now.isoformat()},
    )


def enter_room(*, user: User, room: Room, password: str = "", token: str = "", address: str | None = None) -> None:
    """Unlock a room for ``user``: public rooms need nothing, private ones a password or the invite token.

    ``address`` is the client's (``request.META["REMOTE_ADDR"]``, behind the trusted proxies): password
    guesses count per address too. While the room is locked no password is checked for anyone, right
    or not (a lock that let new accounts try would be no lock): the invite link still works.
    The password hash is checked outside any transaction (it is slow on purpose); the access is then
    written under the room's lock, only if the password and link are still the ones checked.
    """
    _require_user(user)
    room = Room.objects.select_related("salon").filter(pk=room.pk).first()
    if room is None:
        raise ServiceError("no_room", _("Böyle bir oda yok."))
    error = selectors.room_access_error(room=room, user=user)
    if error is None:
        return
    if error.code != "private_room":
        raise error
    if token:
        if not hmac.compare_digest(str(token), room.invite_token):
            raise ServiceError("bad_invite", _("Davet bağlantısı geçersiz ya da eskimiş."))
        via = RoomAccess.Via.INVITE
    else:
        spent = _spend_password_attempt(room=room, user=user, address=address)
        if not room.check_password(str(password or "")):
            _note_guesser(room, user)
            raise ServiceError("wrong_password", _("Şifre yanlış."))
        # A right password is not a guess to hold against the player, the address or the room.
        for key in spent:
            _refund_attempt(key)
        via = RoomAccess.Via.PASSWORD
    with transaction.atomic():
        locked = _lock_room(room)
        if not locked.is_private:
            return
        if (locked.password, locked.invite_token) != (room.password, room.invite_token):
            # Changed while we checked: what was checked no longer opens the room.
            raise ServiceError("bad_invite" if token else "wrong_password",
                               _("Davet bağlantısı geçersiz ya da eskimiş.") if token else _("Şifre yanlış."))
        RoomAccess.objects.get_or_create(room=locked, user=user, defaults={"via": via})


# --- removals ---------------------------------------------------------------------------------


@transaction.atomic
def remove_from_room(
    *, owner: User, room: Room, user: User, reason: str, minutes: int = REMOVAL_MINUTES_DEFAULT
) -> RoomRemoval:
    """The room owner removes someone, with a reason, for a while.

    Their seats at tables not in play are freed and their sockets told to leave. Every removal is
    logged — a salon rule forbids unfair removals, and staff read this log to find them.
    """
    room = _lock_room(room)
    _require_manager(room=room, user=owner)
    if not room.is_open:
        raise ServiceError("room_closed", _("Bu oda kapandı."))
    if user.pk == owner.pk or user.pk == room.owner_id:
        raise ServiceError("cannot_remove_self", _("Oda sahibi kendini çıkaramaz."))
    if user.is_staff or user.is_superuser or SalonStaff.objects.filter(salon=room.salon, user=user).exists():
        raise ServiceError("cannot_remove_staff", _("Salon görevlileri odadan çıkarılamaz."))
    from moderation.public_text import check_public_text  # the removed player and the room's log read it

    reason = re.sub(r"\s+", " ", check_public_text(str(reason or ""), code="bad_reason")).strip()
    if not REMOVAL_REASON_MIN <= len(reason) <= REMOVAL_REASON_MAX:
        raise ServiceError(
            "reason_required",
            _("Çıkarma sebebi %(min)d–%(max)d karakter olmalı.") % {"min": REMOVAL_REASON_MIN, "max": REMOVAL_REASON_MAX},
        )
    try:
        minutes = int(minutes)
    except (TypeError, ValueError):
        minutes = 0
    if not 1 <= minutes <= REMOVAL_MINUTES_MAX:
        raise ServiceError("bad_duration", _("Süre 1–%(max)d dakika olmalı.") % {"max": REMOVAL_MINUTES_MAX})
    seats = list(
        Seat.objects.select_for_update().filter(table__room=room, user=user, table__status=Table.Status.WAITING)
    )
    freed = _free_seats(seats)
    RoomAccess.objects.filter(room=room, user=user).delete()
    removal = RoomRemoval.objects.create(
        room=room, removed_by=owner, user=user, reason=reason, until=timezone.now() + timedelta(minutes=minutes)
    )
    events.publish(events.room_group(room.pk), "user.removed", room=room.pk, user=user.pk, until=removal.until.isoformat())
    # The live table pages of the room close the removed user's socket ("user.kicked", games app).
    for table_id in Table.objects.filter(room=room).values_list("pk", flat=True):
        events.publish(events.table_group(table_id), "user.kicked", room=room.pk, user_id=user.pk)
    _announce_tables(room, freed)
    _announce_presence(room.pk)
    _announce_salon(room.salon_id)
    return removal
