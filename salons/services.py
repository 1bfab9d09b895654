"""Every state change of salons, one function per use case.

Each runs in a transaction, locks the rows it changes (``select_for_update``; on SQLite the
database lock serialises writers instead) and publishes its events with ``transaction.on_commit``,
so a listener never hears of a change that was rolled back. Refusals are ``ServiceError(code,
message)`` with a stable code and a translated message; nothing is half-written.

Entry points the other apps rely on: ``take_seat``, ``leave_seat``, ``set_table_status``,
``post_chat_message`` (with its ``screen_chat_text`` step for the moderation app),
``remove_from_room``.

Seats, chat and presence are here; rooms (open, edit, close, add a table) are in ``salons.rooms``,
passwords, invite links and removals in ``salons.room_access``, the checks, locks and announcements
they share in ``salons.service_common``. Their names stay importable from here.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.errors import ServiceError
from accounts.models import User
from games.engine.rules import CHIPS
from moderation import chat as moderation_chat

from . import events, practice, selectors
from .models import ChatMessage, Room, RoomPresence, Salon, Seat, Table
from .practice import practice_room_q
from .room_access import (
    ACCOUNT_PASSWORD_ATTEMPTS,
    ADDRESS_PASSWORD_ATTEMPTS,
    PASSWORD_ATTEMPTS,
    PASSWORD_DAY,
    PASSWORD_MAX_LENGTH,
    PASSWORD_MIN_LENGTH,
    PASSWORD_WINDOW,
    REMOVAL_MINUTES_DEFAULT,
    REMOVAL_MINUTES_MAX,
    REMOVAL_REASON_MAX,
    REMOVAL_REASON_MIN,
    ROOM_PASSWORD_ATTEMPTS,
    ROOM_PASSWORD_ATTEMPTS_PER_DAY,
    enter_room,
    new_invite_link,
    remove_from_room,
)
from .rooms import (
    BOT_FILL_CHOICES,
    MAX_OPEN_ROOMS_PER_USER,
    MAX_TABLES_PER_ROOM,
    ROOM_NAME_MAX,
    ROOM_NAME_MIN,
    add_table,
    close_room,
    open_room,
    update_room,
)
from .service_common import (
    _announce_presence,
    _announce_salon,
    _announce_tables,
    _free_seats,
    _lock_table,
    _require_access,
    _require_user,
)

__all__ = [
    "ServiceError",
    "open_room",
    "update_room",
    "new_invite_link",
    "close_room",
    "add_table",
    "enter_room",
    "take_seat",
    "leave_seat",
    "set_table_status",
    "screen_chat_text",
    "post_chat_message",
    "remove_from_room",
    "release_seats",
    "unseat_players_short_of_stake",
    "join_presence",
    "touch_presence",
    "leave_presence",
]

# The limits of the moved use cases, importable from here as before.
__all__ += [
    "ROOM_NAME_MIN",
    "ROOM_NAME_MAX",
    "MAX_OPEN_ROOMS_PER_USER",
    "MAX_TABLES_PER_ROOM",
    "BOT_FILL_CHOICES",
    "PASSWORD_MIN_LENGTH",
    "PASSWORD_MAX_LENGTH",
    "PASSWORD_ATTEMPTS",
    "ACCOUNT_PASSWORD_ATTEMPTS",
    "ADDRESS_PASSWORD_ATTEMPTS",
    "ROOM_PASSWORD_ATTEMPTS",
    "ROOM_PASSWORD_ATTEMPTS_PER_DAY",
    "PASSWORD_WINDOW",
    "PASSWORD_DAY",
    "REMOVAL_REASON_MIN",
    "REMOVAL_REASON_MAX",
    "REMOVAL_MINUTES_DEFAULT",
    "REMOVAL_MINUTES_MAX",
]

CHAT_MAX_LENGTH = 300
# Chat flood guard: at most CHAT_BURST messages per CHAT_WINDOW seconds per user.
CHAT_BURST = 5
CHAT_WINDOW = 10


# --- seats and tables ---------------------------------------------------------------------------


@transaction.atomic
def take_seat(*, user: User, table: Table, position: int) -> Seat:
    """Sit on an empty seat of a waiting table.

    Sitting elsewhere at the same table moves you; a seat at another waiting table is given up
    (one table at a time); a seat at a table in play keeps you from sitting anywhere else.
    """
    _require_user(user)
    table = _lock_table(table)
    room = table.room
    _require_access(room=room, user=user)
    if table.is_playing:
        raise ServiceError("game_running", _("Bu masada oyun sürüyor; bitince oturabilirsiniz."))
    # The player's own row next: two sit requests of one player for two tables queue here, so the
    # second sees the first one's seat (read below) and moves it. Taken after the table's lock and
    # only for a waiting table, so it never waits on a match's settlement (players, then table).
    balance = User.objects.select_for_update().filter(pk=user.pk).values_list("chips", flat=True).get()
    try:
        position = int(position)
    except (TypeError, ValueError):
        position = -1
    seats = {seat.position: seat for seat in Seat.objects.select_for_update().filter(table=table)}
    if position not in seats:
        raise ServiceError("bad_seat", _("Böyle bir koltuk yok."))
    seat = seats[position]
    if seat.user_id == user.pk:
        return seat
    if seat.user_id is not None:
        raise ServiceError("seat_taken", _("Bu koltuk dolu."))
    elsewhere = list(Seat.objects.select_for_update().filter(user=user).exclude(pk=seat.pk)
                     .exclude(practice_room_q("table__room__")).select_related("table", "table__room"))
    if any(other.table.is_playing for other in elsewhere):
        raise ServiceError("already_playing", _("Başka bir masada oyununuz sürüyor."))
    if room.rules.get("scoring") == CHIPS:
        if balance < room.chip_cover:
            raise ServiceError(
                "not_enough_chips",
                _("Bu masaya oturmak için en az %(cover)d çip gerekli: her elin başında bir elde ödenebilecek "
                  "en çok çip (bahsin 4 katı) ayrılır.") % {"cover": room.chip_cover},
            )
    _free_seats(elsewhere)
    # A conditional update, so two players clicking the same seat can never both get it.
    try:
        with transaction.atomic():
            taken = Seat.objects.filter(pk=seat.pk, user__isnull=True).update(user=user, taken_at=timezone.now())
    except IntegrityError:
        taken = 0
    if taken != 1:
        raise ServiceError("seat_taken", _("Bu koltuk dolu."))
    seat.refresh_from_db()
    # A practice table never keeps anyone from a real one: it closes now.
    practice.real_seat_taken.send(sender=Seat, user=user)
    changed: dict[int, tuple[Room, set[int]]] = {room.pk: (room, {table.pk})}
    for other in elsewhere:
        changed.setdefault(other.table.room_id, (other.table.room, set()))[1].add(other.table_id)
    for changed_room, table_ids in changed.values():
        _announce_tables(changed_room, sorted(table_ids))
        _announce_presence(changed_room.pk)
    for salon_id in {changed_room.salon_id for changed_room, _ids in changed.values()}:
        _announce_salon(salon_id)
    return seat


def unseat_players_short_of_stake(*, table: Table, seats: list[Seat]) -> list[User]:
    """For the live-play services, as a match starts (the caller holds the table's lock): at a chip
    table, stand up every player whose balance no longer covers the stake and return them, in seat
    order (``seats`` is updated too).

    "Covers" means the most one hand can cost (``Room.chip_cover``): that much is held from each
    player as each hand is dealt. Balances are read here, not locked; the hold itself is the atomic
    check (a balance that drops after this read makes the hold fail, and the start is refused).
    Bots play for no chips.
    """
    room = Room.objects.get(pk=table.room_id)
    if room.rules.get("scoring") != CHIPS:
        return []
    by_user = {seat.user_id: seat for seat in seats if seat.user_id}
    players = User.objects.filter(pk__in=list(by_user), is_bot=False).order_by("pk")
    short = sorted((player for player in players if player.chips < room.chip_cover),
                   key=lambda player: by_user[player.pk].position)
    if short:
        freed = _free_seats([by_user[player.pk] for player in short])
        for player in short:
            by_user[player.pk].user = None
        _announce_tables(room, freed)
        _announce_presence(room.pk)
        _announce_salon(room.salon_id)
    return short


@transaction.atomic
def leave_seat(*, user: User, table: Table) -> None:
    """Stand up before a game starts; refused while the table plays (the game decides then)."""
    _require_user(user)
    table = _lock_table(table)
    if table.is_playing:
        raise ServiceError("game_running", _("Oyun sürerken masadan kalkamazsınız."))
    seats = list(Seat.objects.select_for_update().filter(table=table, user=user))
    if not seats:
        raise ServiceError("not_seated", _("Bu masada oturmuyorsunuz."))
    _free_seats(seats)
    _announce_tables(table.room, [table.pk])
    _announce_presence(table.room_id)
    _announce_salon(table.room.salon_id)


@transaction.atomic
def set_table_status(*, table: Table, status: str) -> Table:
    """For the live-play services: "playing" when a game starts, "waiting" when it ends."""
    if status not in Table.Status.values:
        raise ServiceError("bad_status", _("Geçersiz masa durumu."))
    table = _lock_table(table)
    if table.status != status:
        table.status = status
        table.save(update_fields=["status"])
        _announce_tables(table.room, [table.pk], event_type="table.status")
        _announce_salon(table.room.salon_id)
    return table


@transaction.atomic
def release_seats(*, user: User, salon: Salon | None = None, room: Room | None = None) -> list[int]:
    """Moderation: stand ``user`` up from every waiting table (in one room, one salon, or anywhere).

    Seats at tables in play stay: the game decides there (a banned player's turns go to
    auto-play). Tables are locked before their seats, in id order, as ``take_seat`` does.
    """
    candidates = Seat.objects.filter(user=user, table__status=Table.Status.WAITING)
    if room is not None:
        candidates = candidates.filter(table__room=room)
    elif salon is not None:
        candidates = candidates.filter(table__room__salon=salon)
    table_ids = sorted(set(candidates.values_list("table_id", flat=True)))
    changed: dict[int, tuple[Room, list[int]]] = {}
    for table in Table.objects.select_for_update().select_related("room").filter(pk__in=table_ids).order_by("pk"):
        if table.is_playing:
            continue
        freed = _free_seats(list(Seat.objects.select_for_update().filter(table=table, user=user)))
        changed.setdefault(table.room_id, (table.room, []))[1].extend(freed)
    for changed_room, freed_tables in changed.values():
        _announce_tables(changed_room, freed_tables)
        _announce_presence(changed_room.pk)
    for salon_id in {changed_room.salon_id for changed_room, _ids in changed.values()}:
        _announce_salon(salon_id)
    return sorted(t for _room, ids in changed.values() for t in ids)


# --- chat ---------------------------------------------------------------------------------------


def screen_chat_text(*, user: User, text: Any) -> str:
    """The chat filter step: trim, refuse empty or over-long text, then the moderation filter.

    Returns the text to store (censored when the filter censored it; a ``ScreenedText`` that
    also carries the verdict, so held lines can be kept hidden) or raises ``ServiceError``
    (blocked lines: ``moderation.services.ChatBlocked``, saying why).
    """
    if not isinstance(text, str):
        raise ServiceError("empty_message", _("Boş mesaj gönderilemez."))
    from moderation.chatfilter.normalize import strip_invisible  # issue 10: no bidi/invisible characters

    cleaned = re.sub(r"[\u0000-\u0008\u000b-\u001f\u007f]", "", strip_invisible(text)).strip()
    cleaned = re.sub(r"\s+", " ", cleaned)
    if not cleaned:
        raise ServiceError("empty_message", _("Boş mesaj gönderilemez."))
    if len(cleaned) > CHAT_MAX_LENGTH:
        raise ServiceError(
            "message_too_long", _("Mesaj en çok %(max)d karakter olabilir.") % {"max": CHAT_MAX_LENGTH}
        )
    return moderation_chat.screen_chat_text(user=user, text=cleaned)


def _check_chat_rate(user: User) -> None:
    key = f"salons:chat-rate:{user.pk}"
    cache.add(key, 0, CHAT_WINDOW)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, CHAT_WINDOW)
        count = 1
    if count > CHAT_BURST:
        raise ServiceError("too_fast", _("Çok hızlı yazıyorsunuz; biraz bekleyin."))


def post_chat_message(*, user: User, room: Room, table: Table | None = None, text: str) -> ChatMessage:
    """The single way into room and table chat.

    A line the filter blocks is refused, and recorded for staff once the refused transaction
    has rolled back. A held line is stored hidden (``visible=False``) and published only when a
    moderator approves it; check ``message.visible`` to tell the sender it waits.
    """
    try:
        return _post_chat_message(user=user, room=room, table=table, text=text)
    except moderation_chat.ChatBlocked as blocked:
        moderation_chat.record_blocked_chat(error=blocked, user=user, room=room, table=table)
        raise


@transaction.atomic
def _post_chat_message(*, user: User, room: Room, table: Table | None, text: str) -> ChatMessage:
    _require_user(user)
    room = Room.objects.select_related("salon").get(pk=room.pk)
    _require_access(room=room, user=user)
    if table is not None and table.room_id != room.pk:
        raise ServiceError("bad_table", _("Bu masa bu odada değil."))
    moderation_chat.check_can_chat(user=user, room=room)
    cleaned = screen_chat_text(user=user, text=text)
    _check_chat_rate(user)
    visible = getattr(cleaned, "visible", True)
    message = ChatMessage.objects.create(room=room, table=table, author=user, text=str(cleaned), visible=visible)
    message.author = user
    moderation_chat.record_chat_verdict(message=message, screened=cleaned)
    if visible:
        payload = selectors.chat_payload(message)
        group = events.table_group(table.pk) if table is not None else events.room_group(room.pk)
        events.publish(group, "chat.message", message=payload)
    return message


# --- presence (room sockets) --------------------------------------------------------------------


@transaction.atomic
def join_presence(*, user: User, room: Room, channel_name: str) -> None:
    RoomPresence.objects.update_or_create(
        channel_name=channel_name, defaults={"room": room, "user": user, "seen_at": timezone.now()}
    )
    # Clean rows of sockets that died without a goodbye (server restarts); cheap and bounded.
    RoomPresence.objects.filter(seen_at__lt=timezone.now() - timedelta(hours=1)).delete()
    _announce_presence(room.pk)
    _announce_salon(room.salon_id)


def touch_presence(*, channel_name: str) -> None:
    RoomPresence.objects.filter(channel_name=channel_name).update(seen_at=timezone.now())


@transaction.atomic
def leave_presence(*, channel_name: str) -> None:
    presence = RoomPresence.objects.select_related("room").filter(channel_name=channel_name).first()
    if presence is None:
        return
    presence.delete()
    _announce_presence(presence.room_id)
    _announce_salon(presence.room.salon_id)
