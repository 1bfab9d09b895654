"""Rooms: open, edit, close, add a table (``salons.services`` re-exports each).

Each runs in a transaction, locks the rows it changes and publishes its events after commit;
refusals are ``ServiceError(code, message)``.
"""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.errors import ServiceError
from accounts.models import User
from games.engine.errors import RulesError
from games.engine.game_types import CLASSIC, UnknownGameType, game_type, game_type_of
from games.engine.kart.rules import GAME as GAME_KART
from games.engine.kart.rules import RulesKart
from games.engine.okey101.rules import GAME as GAME101
from games.engine.okey101.rules import Rules101
from games.engine.rules import CHIPS, RuleSet, RuleSetError

from . import events, rules101_catalog, rules_kart_catalog, selectors
from .models import TURN_SECONDS_MAX, TURN_SECONDS_MIN, Room, RoomAccess, RoomPresence, Salon, Seat, Table
from .room_access import _clean_password, _revoke_access
from .rules_catalog import rule_error_message
from .service_common import _announce_salon, _announce_tables, _lock_room, _require_manager, _require_user

ROOM_NAME_MIN = 3
ROOM_NAME_MAX = 40
MAX_OPEN_ROOMS_PER_USER = 3
MAX_TABLES_PER_ROOM = 8


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


#: A rule set already read, and its game type's name.
_GAME_OF_RULES = ((RuleSet, CLASSIC), (Rules101, GAME101), (RulesKart, GAME_KART))


def _rules_error_message(game: str, error: RulesError) -> str:
    """A game of its own's refusal of its rule set, in words (each catalogue words its own options)."""
    if game == GAME_KART:
        return rules_kart_catalog.rule_error_message(error)
    return rules101_catalog.rule_error_message(error)


def _clean_rules(rules: Any, salon: Salon) -> dict[str, Any]:
    """Validate through the room's game type (the engine is the only authority on rules: classic
    Okey's ``RuleSet``, 101's ``Rules101``, Kart Okey's ``RulesKart``) plus the salon's limits, which
    are about classic chip stakes only (101 and Kart Okey play for points; a Kart table's prize pool
    is play money paid at its end, as classic's penalty pool). Returns what the room stores: the game
    type's ``stored_rules`` (classic names no game, as every classic rule set stored before)."""
    read = next((name for kind, name in _GAME_OF_RULES if isinstance(rules, kind)), None)
    if read is not None:
        game, parsed = game_type(read), rules
    else:
        if not isinstance(rules, dict):
            raise ServiceError("bad_rules", _("Kurallar okunamadı."))
        try:
            game = game_type_of(rules)
            parsed = game.rules(rules) if game.name != CLASSIC else RuleSet.from_dict(
                {key: value for key, value in rules.items() if key != "game"})
        except UnknownGameType:
            raise ServiceError("unknown_game", _("Böyle bir oyun türü yok.")) from None
        except RulesError as error:
            raise ServiceError("bad_rules", _rules_error_message(game.name, error), field=error.field) from None
        except RuleSetError as error:
            raise ServiceError("bad_rules", rule_error_message(error), field=error.field) from None
        except (TypeError, ValueError) as error:
            raise ServiceError("bad_rules", _("Geçersiz kural seçimi: %(error)s") % {"error": error}) from None
    if isinstance(parsed, RuleSet) and parsed.scoring == CHIPS and not salon.min_stake <= parsed.stake <= salon.max_stake:
        raise ServiceError(
            "bad_stake",
            _("Bu salonda bahis %(min)d ile %(max)d çip arasında olmalı.")
            % {"min": salon.min_stake, "max": salon.max_stake},
        )
    return game.stored_rules(parsed)


def _players_of(rules: dict[str, Any]) -> int:
    """Seats per table of a stored rule set, as its game type reads it (101: always 4; Kart Okey:
    its ``players``, 2 to 4)."""
    return game_type_of(rules).rules(rules).players


def _create_tables(room: Room, count: int, start: int = 1) -> list[Table]:
    tables = []
    for number in range(start, start + count):
        table = Table.objects.create(room=room, number=number)
        Seat.objects.bulk_create(Seat(table=table, position=position) for position in range(room.players))
        tables.append(table)
    return tables


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
    players = _players_of(clean_rules)
    if players != room.players:
        for table in tables:
            table.seats.all().delete()
            Seat.objects.bulk_create(Seat(table=table, position=p) for p in range(players))
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
        game = game_type_of(room.rules)
        if game.name == CLASSIC:
            return RuleSet.from_dict({key: value for key, value in room.rules.items() if key != "game"}).to_dict()
        return game.stored_rules(game.rules(room.rules))
    except (RuleSetError, RulesError, UnknownGameType, TypeError, ValueError, AttributeError):
        return dict(room.rules or {})


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
