"""Every state change of salons, one function per use case.

Each runs in a transaction, locks the rows it changes (``select_for_update``; on SQLite the
database lock serialises writers instead) and publishes its events with ``transaction.on_commit``,
so a listener never hears of a change that was rolled back. Refusals are ``ServiceError(code,
message)`` with a stable code and a translated message; nothing is half-written.

Entry points the other apps rely on: ``take_seat``, ``leave_seat``, ``set_table_status``,
``post_chat_message`` (with its ``screen_chat_text`` step for the moderation app),
``remove_from_room``.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.errors import ServiceError
from accounts.models import User
from accounts.services import user_sockets_group
from games.engine.rules import CHIPS, RuleSet, RuleSetError
from moderation import chat as moderation_chat

from . import events, practice, selectors
from .models import (
    TURN_SECONDS_MAX,
    TURN_SECONDS_MIN,
    ChatMessage,
    Room,
    RoomAccess,
    RoomPresence,
    RoomRemoval,
    Salon,
    SalonStaff,
    Seat,
    Table,
    new_invite_token,
)
from .practice import practice_room_q
from .rules_catalog import rule_error_message

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

ROOM_NAME_MIN = 3
ROOM_NAME_MAX = 40
MAX_OPEN_ROOMS_PER_USER = 3
MAX_TABLES_PER_ROOM = 8
CHAT_MAX_LENGTH = 300
# Chat flood guard: at most CHAT_BURST messages per CHAT_WINDOW seconds per user.
CHAT_BURST = 5
CHAT_WINDOW = 10
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


# --- helpers ------------------------------------------------------------------------------------


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


def _clean_room_name(name: Any) -> str:
    from moderation.public_text import check_public_text  # issue 10: public names pass the chat filter

    name = re.sub(r"\s+", " ", check_public_text(str(name or ""), code="bad_name")).strip()
    if not ROOM_NAME_MIN <= len(name) <= ROOM_NAME_MAX:
        raise ServiceError(
            "bad_name",
            _("Oda adı %(min)d–%(max)d karakter olmalı.") % {"min": ROOM_NAME_MIN, "max": ROOM_NAME_MAX},
        )
    return name


def _clean_turn_seconds(value: Any) -> int:
    try:
        seconds = int(value)
    except (TypeError, ValueError):
        seconds = -1
    if not TURN_SECONDS_MIN <= seconds <= TURN_SECONDS_MAX:
        raise ServiceError(
            "bad_turn_seconds",
            _("Hamle süresi %(min)d–%(max)d saniye olmalı.") % {"min": TURN_SECONDS_MIN, "max": TURN_SECONDS_MAX},
        )
    return seconds


BOT_FILL_CHOICES = (0, 15, 30, 60)


def _clean_bot_fill(value: Any) -> int:
    try:
        seconds = int(value or 0)
    except (TypeError, ValueError):
        seconds = -1
    if seconds not in BOT_FILL_CHOICES:
        raise ServiceError("bad_bot_fill", _("Bot bekleme süresi 0, 15, 30 ya da 60 saniye olmalı."))
    return seconds


def _clean_password(password: Any) -> str:
    """A room password: empty (invite link only) or PASSWORD_MIN_LENGTH–PASSWORD_MAX_LENGTH characters."""
    password = str(password or "")
    if password and not PASSWORD_MIN_LENGTH <= len(password) <= PASSWORD_MAX_LENGTH:
        raise ServiceError(
            "bad_password",
            _("Oda şifresi %(min)d–%(max)d karakter olmalı.") % {"min": PASSWORD_MIN_LENGTH, "max": PASSWORD_MAX_LENGTH},
        )
    return password


def _clean_rules(rules: Any, salon: Salon) -> dict[str, Any]:
    """Validate through the engine's RuleSet (the only authority on rules) plus the salon's limits."""
    if isinstance(rules, RuleSet):
        rule_set = rules
    else:
        if not isinstance(rules, dict):
            raise ServiceError("bad_rules", _("Kurallar okunamadı."))
        try:
            rule_set = RuleSet.from_dict(rules)
        except RuleSetError as error:
            raise ServiceError("bad_rules", rule_error_message(error), field=error.field) from None
        except (TypeError, ValueError) as error:
            raise ServiceError("bad_rules", _("Geçersiz kural seçimi: %(error)s") % {"error": error}) from None
    if rule_set.scoring == CHIPS and not salon.min_stake <= rule_set.stake <= salon.max_stake:
        raise ServiceError(
            "bad_stake",
            _("Bu salonda bahis %(min)d ile %(max)d çip arasında olmalı.")
            % {"min": salon.min_stake, "max": salon.max_stake},
        )
    return rule_set.to_dict()


def _create_tables(room: Room, count: int, start: int = 1) -> list[Table]:
    tables = []
    for number in range(start, start + count):
        table = Table.objects.create(room=room, number=number)
        Seat.objects.bulk_create(Seat(table=table, position=position) for position in range(room.players))
        tables.append(table)
    return tables


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


# --- rooms --------------------------------------------------------------------------------------


@transaction.atomic
def open_room(
    *,
    user: User,
    salon: Salon,
    name: str,
    rules: dict[str, Any] | RuleSet | None = None,
    turn_seconds: int = 20,
    is_private: bool = False,
    password: str = "",
    table_count: int = 1,
    bot_fill_seconds: int = 0,
) -> Room:
    """Any signed-in player opens a room for free (a salon rule); its tables start empty."""
    _require_user(user)
    # The player's row first: the salon's lock orders openings within one salon, only this one keeps
    # two openings in two salons at the same instant under the player's limit.
    User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True).get()
    salon = Salon.objects.select_for_update().get(pk=salon.pk)
    if not salon.is_active:
        raise ServiceError("salon_closed", _("Bu salon şu an kapalı."))
    name = _clean_room_name(name)
    clean_rules = _clean_rules(rules if rules is not None else RuleSet(), salon)
    seconds = _clean_turn_seconds(turn_seconds)
    try:
        table_count = int(table_count)
    except (TypeError, ValueError):
        table_count = 0
    if not 1 <= table_count <= MAX_TABLES_PER_ROOM:
        raise ServiceError("bad_table_count", _("Masa sayısı 1–%(max)d olmalı.") % {"max": MAX_TABLES_PER_ROOM})
    if Room.objects.filter(owner=user, status=Room.Status.OPEN).count() >= MAX_OPEN_ROOMS_PER_USER:
        raise ServiceError(
            "too_many_rooms",
            _("Aynı anda en çok %(max)d açık odanız olabilir; önce birini kapatın.") % {"max": MAX_OPEN_ROOMS_PER_USER},
        )
    if salon.rooms.filter(status=Room.Status.OPEN).count() >= salon.max_rooms:
        raise ServiceError("salon_full", _("Bu salon dolu; başka bir salonda oda açın."))
    room = Room(salon=salon, owner=user, name=name, rules=clean_rules, turn_seconds=seconds, is_private=bool(is_private),
                bot_fill_seconds=_clean_bot_fill(bot_fill_seconds))
    room.set_password(_clean_password(password) if is_private else "")
    room.save()
    _create_tables(room, table_count)
    _announce_salon(salon.pk)
    return room


@transaction.atomic
def update_room(
    *,
    user: User,
    room: Room,
    name: str,
    rules: dict[str, Any] | RuleSet,
    turn_seconds: int,
    is_private: bool,
    password: str | None = None,
    bot_fill_seconds: int | None = None,
) -> Room:
    """The owner edits the room while no game runs. ``password=None`` keeps the current one.

    The rules (and the turn clock) change only while every seat is empty: a player sat down to the
    stake and rules they saw. A new password or privacy revokes every access and the invite link.
    """
    room = _lock_room(room)
    _require_manager(room=room, user=user)
    if not room.is_open:
        raise ServiceError("room_closed", _("Bu oda kapandı."))
    tables = list(Table.objects.select_for_update().filter(room=room).order_by("number"))
    if any(table.is_playing for table in tables):
        raise ServiceError("game_running", _("Masada oyun sürerken oda değiştirilemez."))
    name = _clean_room_name(name)
    clean_rules = _clean_rules(rules, room.salon)
    seconds = _clean_turn_seconds(turn_seconds)
    is_private = bool(is_private)
    new_password = _clean_password(password) if is_private and password is not None else None
    current_rules = _normalised_rules(room)
    rules_change = clean_rules != current_rules or seconds != room.turn_seconds
    # Locked: a seat taken meanwhile waits for this edit, and then sees the new rules.
    seated = Seat.objects.select_for_update().filter(table__room=room, user__isnull=False)
    if rules_change and seated.exists():
        raise ServiceError(
            "seats_taken", _("Masalarda oturan varken kurallar değiştirilemez; önce herkes masadan kalkmalı.")
        )
    changed_tables: list[int] = []
    if clean_rules["players"] != room.players:
        for table in tables:
            table.seats.all().delete()
            Seat.objects.bulk_create(Seat(table=table, position=p) for p in range(clean_rules["players"]))
            changed_tables.append(table.pk)
    secret_change = is_private != room.is_private or new_password is not None
    room.name = name
    room.rules = clean_rules
    room.turn_seconds = seconds
    if bot_fill_seconds is not None:
        room.bot_fill_seconds = _clean_bot_fill(bot_fill_seconds)
    room.is_private = is_private
    if not room.is_private:
        room.password = ""
    elif new_password is not None:
        room.set_password(new_password)
    if secret_change:
        room.password_attack_at = None
    room.save()
    if secret_change:
        changed_tables += _revoke_access(room, RoomAccess.objects.filter(room=room))
    _announce_tables(room, sorted(set(changed_tables)))

    def build() -> None:
        summary = selectors.room_summary_for(room)
        events.send_now(events.room_group(room.pk), {"type": "room.updated", "room": summary})

    events.after_commit(build)
    _announce_salon(room.salon_id)
    return room


def _normalised_rules(room: Room) -> dict[str, Any]:
    """The stored rules as the engine writes them, to compare with an edit (stored rules that no
    longer parse compare unequal, so they too change only at empty tables)."""
    try:
        return RuleSet.from_dict(room.rules).to_dict()
    except (RuleSetError, TypeError, ValueError):
        return dict(room.rules or {})


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


@transaction.atomic
def close_room(*, user: User, room: Room) -> Room:
    """The owner closes the room when no game runs; everyone in it is told and sent to the salon."""
    room = _lock_room(room)
    _require_manager(room=room, user=user)
    if not room.is_open:
        raise ServiceError("room_closed", _("Bu oda zaten kapalı."))
    if Table.objects.select_for_update().filter(room=room, status=Table.Status.PLAYING).exists():
        raise ServiceError("game_running", _("Masada oyun sürerken oda kapatılamaz."))
    Seat.objects.filter(table__room=room).update(user=None, taken_at=None)
    room.status = Room.Status.CLOSED
    room.closed_at = timezone.now()
    room.save(update_fields=["status", "closed_at", "updated_at"])
    RoomPresence.objects.filter(room=room).delete()
    events.publish(events.room_group(room.pk), "room.closed", room=room.pk, salon_url=room.salon.get_absolute_url())
    _announce_salon(room.salon_id)
    return room


@transaction.atomic
def add_table(*, user: User, room: Room) -> Table:
    room = _lock_room(room)
    _require_manager(room=room, user=user)
    if not room.is_open:
        raise ServiceError("room_closed", _("Bu oda kapandı."))
    count = room.tables.count()
    if count >= MAX_TABLES_PER_ROOM:
        raise ServiceError("too_many_tables", _("Bir odada en çok %(max)d masa olabilir.") % {"max": MAX_TABLES_PER_ROOM})
    last = room.tables.order_by("-number").values_list("number", flat=True).first() or 0
    (table,) = _create_tables(room, 1, start=last + 1)
    _announce_tables(room, [table.pk], event_type="table.added")
    _announce_salon(room.salon_id)
    return table


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


# --- removals -----------------------------------------------------------------------------------


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
