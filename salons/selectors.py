"""Read side of salons: lobby counts, room lists, room state, chat history, access checks.

Payloads built here are what pages and socket frames show; users appear only through
``accounts.selectors.public_user`` (id and nickname).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.errors import ServiceError
from accounts.models import User
from accounts.selectors import public_user
from games.engine.game_types import CLASSIC

from .models import ChatMessage, Room, RoomAccess, RoomPresence, RoomRemoval, Salon, SalonStaff, Seat, Table
from .rule_lines import GAME_LABELS, game_label, game_of
from .rules_catalog import PRESET_LABELS, UNKNOWN_GAME, describe_rules

# A room socket pings every 30 s; a presence row not seen for this long belongs to a dead socket.
PRESENCE_TTL = timedelta(seconds=75)
CHAT_HISTORY = 50


def presence_cutoff():
    return timezone.now() - PRESENCE_TTL


# --- access ---------------------------------------------------------------------------------


def can_manage_room(*, user: User, room: Room) -> bool:
    return bool(user.is_authenticated and (room.owner_id == user.pk or user.is_superuser))


def is_salon_staff(*, user: User, salon: Salon) -> bool:
    if not user.is_authenticated:
        return False
    return user.is_superuser or SalonStaff.objects.filter(salon=salon, user=user).exists()


def active_removal(*, room: Room, user: User) -> RoomRemoval | None:
    if not user.is_authenticated:
        return None
    return RoomRemoval.objects.filter(room=room, user=user, until__gt=timezone.now()).order_by("-until").first()


def has_private_access(*, room: Room, user: User) -> bool:
    if not room.is_private or can_manage_room(user=user, room=room):
        return True
    return RoomAccess.objects.filter(room=room, user=user).exists()


def room_access_error(*, room: Room, user: User) -> ServiceError | None:
    """Why ``user`` may not be in ``room`` right now, or None. Shared by pages, services, sockets."""
    if not user.is_authenticated:
        return ServiceError("login_required", _("Bu işlem için giriş yapın."))
    if not user.is_active:
        return ServiceError("inactive", _("Hesabınız etkin değil."))
    if room.status != Room.Status.OPEN:
        return ServiceError("room_closed", _("Bu oda kapandı."))
    # Staff sanctions first (site ban, salon ban, staff removal from this room): they say why.
    from moderation.selectors import access_error as sanction_error

    sanction = sanction_error(user=user, salon=room.salon_id, room=room)
    if sanction is not None:
        return sanction
    removal = active_removal(room=room, user=user)
    if removal is not None:
        until = timezone.localtime(removal.until).strftime("%H:%M")
        return ServiceError(
            "removed",
            _("Oda sahibi sizi bu odadan çıkardı. Sebep: %(reason)s. %(until)s saatine kadar giremezsiniz.")
            % {"until": until, "reason": removal.reason},
        )
    if not has_private_access(room=room, user=user):
        return ServiceError("private_room", _("Bu oda özel: şifre ya da davet bağlantısı gerekli."))
    return None


def access_notice(*, room_id: int, user: User) -> str | None:
    """Why ``user`` was just sent out of this room, in the active language (who removed them, why,
    until when), or None when nothing keeps them out any more."""
    room = Room.objects.filter(pk=room_id).first()
    if room is None:
        return None
    error = room_access_error(room=room, user=user)
    return str(error) if error is not None else None


# --- payloads -------------------------------------------------------------------------------


def seat_payload(seat: Seat) -> dict[str, Any]:
    return {"position": seat.position, "user": public_user(seat.user)}


def table_payload(table: Table) -> dict[str, Any]:
    seats = list(table.seats.all())  # prefetched where it matters
    players = len(seats)
    return {
        "id": table.pk,
        "number": table.number,
        "status": table.status,
        "status_label": str(table.get_status_display()),
        "players": players,
        "free": sum(1 for seat in seats if seat.user_id is None),
        "url": table.get_absolute_url(),
        "seats": [seat_payload(seat) for seat in seats],
    }


def tables_of(room: Room) -> QuerySet[Table]:
    return room.tables.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))
    ).order_by("number")


def get_table_payload(*, table_id: int) -> dict[str, Any]:
    table = Table.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))
    ).get(pk=table_id)
    return table_payload(table)


def room_people(*, room: Room) -> list[User]:
    """Users with a live room socket, by nickname."""
    ids = (
        RoomPresence.objects.filter(room=room, seen_at__gte=presence_cutoff()).values_list("user_id", flat=True).distinct()
    )
    return list(User.objects.filter(pk__in=list(ids)).order_by("username"))


def presence_counts(*, room: Room) -> dict[str, int]:
    """People in the room (live sockets or seated) and watchers (present but not seated)."""
    present = set(
        RoomPresence.objects.filter(room=room, seen_at__gte=presence_cutoff()).values_list("user_id", flat=True)
    )
    seated = set(
        Seat.objects.filter(table__room=room, user__isnull=False, user__is_bot=False).values_list("user_id", flat=True)
    )
    return {"people": len(present | seated), "watchers": len(present - seated)}


def room_summary(room: Room) -> dict[str, Any]:
    """One line of a salon's room list (also sent to the room page after an edit)."""
    tables = list(room.tables.all())
    seats = [seat for table in tables for seat in table.seats.all()]
    rules = room.rules
    game = game_of(rules)
    scoring = rules.get("scoring") if game == CLASSIC else None
    return {
        "id": room.pk,
        "name": room.name,
        "url": room.get_absolute_url(),
        "owner": public_user(room.owner),
        "is_private": room.is_private,
        # The game type: classic Okey's rooms keep their look (no badge of their own), others show it.
        "game": game,
        "game_label": game_label(rules) or str(UNKNOWN_GAME),
        "scoring": scoring,
        "scoring_label": str(PRESET_LABELS.get(scoring, scoring)) if scoring else "",
        "players": room.players,
        "stake": room.stake if rules.get("scoring") == "chips" else None,
        "turn_seconds": room.turn_seconds,
        "tables": len(tables),
        "playing": sum(1 for table in tables if table.status == Table.Status.PLAYING),
        "free_seats": sum(
            1 for table in tables if table.status == Table.Status.WAITING for seat in table.seats.all() if seat.user_id is None
        ),
        "seated": sum(1 for seat in seats if seat.user_id is not None),
    }


def room_state(*, room: Room) -> dict[str, Any]:
    """Everything a room page needs to draw itself; sent as the socket's first frame too."""
    return {
        "room": room_summary_for(room),
        "tables": [table_payload(table) for table in tables_of(room)],
        **presence_counts(room=room),
        "present": [public_user(user) for user in room_people(room=room)],
    }


def room_summary_for(room: Room) -> dict[str, Any]:
    room = (
        Room.objects.select_related("owner")
        .prefetch_related(Prefetch("tables", queryset=Table.objects.prefetch_related("seats")))
        .get(pk=room.pk)
    )
    return room_summary(room)


def chat_payload(message: ChatMessage) -> dict[str, Any]:
    return {
        "id": message.pk,
        "room": message.room_id,
        "table": message.table_id,
        "author": public_user(message.author),
        "text": message.text,
        "created_at": message.created_at.isoformat(),
    }


def recent_chat(*, room: Room, table: Table | None = None, limit: int = CHAT_HISTORY) -> list[ChatMessage]:
    """Visible messages, oldest first (hidden ones stay stored for moderators only)."""
    messages = ChatMessage.objects.filter(room=room, table=table, visible=True).select_related("author")
    return list(reversed(messages.order_by("-created_at", "-id")[:limit]))


# --- lobby and salon lists ------------------------------------------------------------------


def people_by_salon(salon_ids: list[int]) -> dict[int, int]:
    """Distinct people in each salon's open rooms: seated somewhere or with a live room socket.
    Bots are not people: they are never counted."""
    people: dict[int, set[int]] = defaultdict(set)
    open_rooms = Q(status=Room.Status.OPEN)
    seated = Seat.objects.filter(
        user__isnull=False, user__is_bot=False, table__room__salon_id__in=salon_ids,
        table__room__status=Room.Status.OPEN,
    ).values_list("table__room__salon_id", "user_id")
    present = RoomPresence.objects.filter(
        room__salon_id__in=salon_ids, room__in=Room.objects.filter(open_rooms), seen_at__gte=presence_cutoff()
    ).values_list("room__salon_id", "user_id")
    for salon_id, user_id in [*seated, *present]:
        people[salon_id].add(user_id)
    return {salon_id: len(people.get(salon_id, ())) for salon_id in salon_ids}


def lobby_salons() -> list[dict[str, Any]]:
    salons = list(
        Salon.objects.filter(is_active=True).annotate(
            open_rooms=Count("rooms", filter=Q(rooms__status=Room.Status.OPEN))
        )
    )
    people = people_by_salon([salon.pk for salon in salons])
    tables = tables_by_salon([salon.pk for salon in salons])
    return [
        {
            "id": salon.pk,
            "name": salon.name,
            "slug": salon.slug,
            "description": salon.shown_description,
            "url": salon.get_absolute_url(),
            "rooms": salon.open_rooms,
            "people": people.get(salon.pk, 0),
            "tables": tables.get(salon.pk, {}).get("tables", 0),
            "free_seats": tables.get(salon.pk, {}).get("free_seats", 0),
        }
        for salon in salons
    ]


def tables_by_salon(salon_ids: list[int]) -> dict[int, dict[str, int]]:
    """Per salon, in one query: tables in its open rooms, and the empty seats at those not playing."""
    rows = (
        Table.objects.filter(room__salon_id__in=salon_ids, room__status=Room.Status.OPEN)
        .values("room__salon_id")
        .annotate(tables=Count("id", distinct=True),
                  free_seats=Count("seats", filter=Q(seats__user__isnull=True, status=Table.Status.WAITING)))
    )
    return {row["room__salon_id"]: {"tables": row["tables"], "free_seats": row["free_seats"]} for row in rows}


def lobby_counts() -> list[dict[str, int]]:
    return [{key: s[key] for key in ("id", "rooms", "people", "tables", "free_seats")} for s in lobby_salons()]


@dataclass(frozen=True)
class RoomFilter:
    text: str = ""
    players: int | None = None
    scoring: str = ""
    free_only: bool = False
    public_only: bool = False
    #: A game type ("okey", "okey101", "kart"); "" = every game.
    game: str = ""


def game_q(game: str, prefix: str = "") -> Q:
    """Rooms that play ``game``: classic Okey's rule sets name no game (or "okey")."""
    field = f"{prefix}rules__game"
    if game == CLASSIC:
        return ~Q(**{f"{prefix}rules__has_key": "game"}) | Q(**{field: CLASSIC})
    return Q(**{field: game})


def salon_rooms(*, salon: Salon, room_filter: RoomFilter | None = None) -> list[dict[str, Any]]:
    room_filter = room_filter or RoomFilter()
    seats = Seat.objects.select_related("user").order_by("position")
    rooms = (
        Room.objects.filter(salon=salon, status=Room.Status.OPEN)
        .select_related("owner")
        .prefetch_related(Prefetch("tables", queryset=Table.objects.prefetch_related(
            Prefetch("seats", queryset=seats)).order_by("number")))
        .order_by("-created_at")
    )
    if room_filter.text:
        rooms = rooms.filter(Q(name__icontains=room_filter.text) | Q(owner__username__icontains=room_filter.text))
    if room_filter.public_only:
        rooms = rooms.filter(is_private=False)
    if room_filter.game in GAME_LABELS:
        rooms = rooms.filter(game_q(room_filter.game))
    if room_filter.players:
        # A 101 room stores no table size: it always seats four (Kart Okey stores its own, 2 to 4).
        seats = Q(rules__players=room_filter.players)
        if room_filter.players == 4:
            seats |= ~Q(rules__has_key="players") & ~game_q(CLASSIC)
        rooms = rooms.filter(seats)
    if room_filter.scoring:
        rooms = rooms.filter(rules__scoring=room_filter.scoring)
    summaries = []
    for room in rooms:
        summary = room_summary(room)
        # The room list shows every table: who sits, free seats, watch or sit (seats prefetched).
        summary["table_list"] = [{**table_payload(table), "game": summary["game"]} for table in room.tables.all()]
        summary["rule_badges"] = rule_badges(room.rules)
        summaries.append(summary)
    people = room_people_counts([summary["id"] for summary in summaries])
    for summary in summaries:
        summary["people"] = people.get(summary["id"], 0)
    if room_filter.free_only:
        summaries = [summary for summary in summaries if summary["free_seats"] > 0]
    return summaries


def rule_badges(rules: dict[str, Any]) -> list[str]:
    """Short labels of the options a room turned on, beyond its preset (for the room list)."""
    from .rules_catalog import option_badges

    return option_badges(rules)


def room_people_counts(room_ids: list[int]) -> dict[int, int]:
    people: dict[int, set[int]] = defaultdict(set)
    seated = Seat.objects.filter(user__isnull=False, user__is_bot=False, table__room_id__in=room_ids).values_list("table__room_id", "user_id")
    present = RoomPresence.objects.filter(room_id__in=room_ids, seen_at__gte=presence_cutoff()).values_list(
        "room_id", "user_id"
    )
    for room_id, user_id in [*seated, *present]:
        people[room_id].add(user_id)
    return {room_id: len(users) for room_id, users in people.items()}


def room_rule_lines(room: Room) -> list:
    return describe_rules(room.rules)


def removals_of(*, room: Room, limit: int = 20) -> list[RoomRemoval]:
    return list(room.removals.select_related("user", "removed_by")[:limit])
