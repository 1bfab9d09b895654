""""Hemen oyna": one click seats a player at a real table.

The fullest public table that still has a free seat and fits the player's choice (a scoring preset,
or any; at a chip table, a stake they can afford), or, when there is none, a new room in a salon that
fits. Seating goes through ``services.take_seat`` (locks, access and sanction checks, one table at
a time), so a race for the last seat just moves on to the next table.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils.translation import gettext as _

from accounts.errors import ServiceError
from accounts.models import User
from games.engine.rules import CHIPS, PRESETS, RuleSet

from . import selectors, services
from .models import Room, Salon, Seat, Table
from .practice import practice_room_q

# Tables looked at per click, fullest first (a click must stay cheap however big the site).
CANDIDATES = 40


@dataclass(frozen=True)
class QuickSeat:
    seat: Seat
    table: Table
    opened_room: bool


def _affordable(room: Room, chips: int) -> bool:
    return room.rules.get("scoring") != CHIPS or room.stake <= chips


def candidate_tables(*, user: User, scoring: str = "") -> list[Table]:
    """Waiting public tables with a free seat, fullest first, that fit ``scoring`` and the player's chips."""
    tables = (
        Table.objects.filter(status=Table.Status.WAITING, room__status=Room.Status.OPEN, room__is_private=False,
                             room__salon__is_active=True)
        .exclude(practice_room_q("room__"))
        .annotate(free=Count("seats", filter=Q(seats__user__isnull=True)),
                  seated=Count("seats", filter=Q(seats__user__isnull=False)))
        .filter(free__gt=0)
        .select_related("room", "room__salon")
        .order_by("-seated", "room__created_at", "number")
    )
    if scoring:
        tables = tables.filter(room__rules__scoring=scoring)
    return [table for table in tables[:CANDIDATES] if _affordable(table.room, user.chips)]


def _suitable_salon(*, user: User, scoring: str) -> tuple[Salon, int] | None:
    """An open salon the player may play in, with room for one more room, and the stake a new chip
    table there would use."""
    from moderation.selectors import access_error as sanction_error

    chips = user.chips
    for salon in Salon.objects.filter(is_active=True).annotate(
            open_rooms=Count("rooms", filter=Q(rooms__status=Room.Status.OPEN))).order_by("position", "pk"):
        if salon.open_rooms >= salon.max_rooms:
            continue
        sanction = sanction_error(user=user, salon=salon)
        if sanction is not None:
            if sanction.code == "site_banned":
                raise sanction
            continue
        if scoring != CHIPS:
            return salon, 0
        if salon.min_stake <= chips:
            return salon, salon.min_stake
    return None


def quick_play(*, user: User, scoring: str = "") -> QuickSeat:
    """Seat ``user`` at once (see the module doc). Refusals are ``ServiceError`` with a clear message."""
    if not getattr(user, "is_authenticated", False):
        raise ServiceError("login_required", _("Bu işlem için giriş yapın."))
    if scoring and scoring not in PRESETS:
        raise ServiceError("bad_rules", _("Böyle bir oyun türü yok."))
    # Already waiting at a real table: that is where they play.
    waiting = (Seat.objects.filter(user=user, table__status=Table.Status.WAITING, table__room__status=Room.Status.OPEN)
               .exclude(practice_room_q("table__room__")).select_related("table", "table__room").first())
    if waiting is not None:
        return QuickSeat(seat=waiting, table=waiting.table, opened_room=False)
    last_error: ServiceError | None = None
    for table in candidate_tables(user=user, scoring=scoring):
        if selectors.room_access_error(room=table.room, user=user) is not None:
            continue
        for position in Seat.objects.filter(table=table, user__isnull=True).order_by("position").values_list(
                "position", flat=True):
            try:
                seat = services.take_seat(user=user, table=table, position=position)
            except ServiceError as error:
                if error.code in ("seat_taken", "game_running"):
                    last_error = error
                    continue  # someone was quicker: the next seat or table
                raise
            return QuickSeat(seat=seat, table=table, opened_room=False)
    found = _suitable_salon(user=user, scoring=scoring or RuleSet().scoring)
    if found is None:
        if last_error is not None:
            raise last_error
        if scoring == CHIPS:
            raise ServiceError("not_enough_chips", _("Çipli bir masaya oturmak için çipiniz yetmiyor."))
        raise ServiceError("no_salon", _("Şu an yeni masa açılabilecek bir salon yok."))
    salon, stake = found
    options = {"stake": stake} if stake else {}
    room = services.open_room(user=user, salon=salon, name=_("Hızlı masa"),
                              rules=RuleSet.preset(scoring or RuleSet().scoring, **options))
    table = room.tables.order_by("number").first()
    seat = services.take_seat(user=user, table=table, position=0)
    return QuickSeat(seat=seat, table=table, opened_room=True)
