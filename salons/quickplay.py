""""Hemen oyna": one click puts a player in a game within seconds, at a real table.

Only two kinds of table are ever offered, both fitting the player's choice (a scoring preset, or
any; at a chip table, a stake they can afford):

1. a running match with a seat that a bot plays for a person who left it: the player takes it over
   at once (``games.services.take_over_seat``) and plays on from that seat's rack;
2. a table waiting for its first match, fullest first (``services.take_seat``).

A table whose match has ended is never offered, even with a free seat: its page shows that match's
result to the players still there, waiting for their rematch. When nothing fits, a new "Hızlı masa"
room opens in a salon that fits, whose empty seats bots take after ``QUICK_ROOM_BOT_FILL_SECONDS``.
Seating goes through the services (locks, access and sanction checks, one table at a time), so a
race for the last seat just moves on to the next table.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Q
from django.utils.translation import gettext as _

from accounts.errors import ServiceError
from accounts.models import User
from games.engine.game_types import CLASSIC
from games.engine.rules import CHIPS, PRESETS, RuleSet
from games.engine.scoring import most_a_hand_costs

from . import selectors, services
from .models import Room, Salon, Seat, Table
from .practice import practice_room_q

# Tables looked at per click, fullest first (a click must stay cheap however big the site).
CANDIDATES = 40
# A room opened by quick play fills its empty seats with bots this soon (the shortest room option).
QUICK_ROOM_BOT_FILL_SECONDS = 15


@dataclass(frozen=True)
class QuickSeat:
    seat: Seat
    table: Table
    opened_room: bool


def _affordable(room: Room, chips: int) -> bool:
    return room.rules.get("scoring") != CHIPS or room.chip_cover <= chips


def _public_tables(*, status: str, scoring: str):
    from games.models import Match
    from tournaments.models import Tournament

    tables = (
        Table.objects.filter(status=status, room__status=Room.Status.OPEN, room__is_private=False,
                             room__salon__is_active=True)
        .exclude(practice_room_q("room__"))
        # A tournament seats its own players.
        .exclude(room__in=Tournament.objects.filter(room__isnull=False).values("room"))
        .annotate(free=Count("seats", filter=Q(seats__user__isnull=True)),
                  seated=Count("seats", filter=Q(seats__user__isnull=False)),
                  has_match=Exists(Match.objects.filter(table=OuterRef("pk"))))
        .filter(free__gt=0)
        .select_related("room", "room__salon")
        .order_by("-seated", "room__created_at", "number")
    )
    if scoring:
        tables = tables.filter(room__rules__scoring=scoring)
    # Quick play offers classic Okey's presets: a 101 table is never where "Hemen oyna" sits anyone.
    return tables.filter(selectors.game_q(CLASSIC, "room__"))


def candidate_tables(*, user: User, scoring: str = "") -> list[Table]:
    """Public tables waiting for their first match with a free seat, fullest first, that fit
    ``scoring`` and the player's chips. A table whose match has ended is not one of them."""
    tables = _public_tables(status=Table.Status.WAITING, scoring=scoring).filter(has_match=False)
    return [table for table in tables[:CANDIDATES] if _affordable(table.room, user.chips)]


def running_tables(*, user: User, scoring: str = "") -> list[Table]:
    """Public running matches with a seat a bot plays for a person who left it (the only seats free
    at a table in play), fullest first, that fit ``scoring`` and the player's chips."""
    tables = _public_tables(status=Table.Status.PLAYING, scoring=scoring)
    return [table for table in tables[:CANDIDATES] if _affordable(table.room, user.chips)]


def _take_over(*, user: User, table: Table) -> Seat | None:
    """The first seat of this running match that a bot holds for a person, now the player's."""
    from games import services as game_services
    from games.errors import GameError

    for position in Seat.objects.filter(table=table, user__isnull=True).order_by("position").values_list(
            "position", flat=True):
        try:
            game_services.take_over_seat(user=user, table_id=table.pk, position=position)
        except GameError as error:
            if error.code in ("seat_taken", "no_game", "already_a_player"):
                continue  # someone was quicker, or the match just ended: the next seat or table
            raise ServiceError(error.code, str(error)) from None
        return Seat.objects.get(table=table, position=position)
    return None


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
        if most_a_hand_costs(RuleSet.preset(CHIPS, stake=salon.min_stake)) <= chips:
            return salon, salon.min_stake
    return None


def quick_play(*, user: User, scoring: str = "") -> QuickSeat:
    """Seat ``user`` at once (see the module doc). Refusals are ``ServiceError`` with a clear message."""
    if not getattr(user, "is_authenticated", False):
        raise ServiceError("login_required", _("Bu işlem için giriş yapın."))
    if scoring and scoring not in PRESETS:
        raise ServiceError("bad_rules", _("Böyle bir oyun türü yok."))
    # Already waiting at a real table for its first match: that is where they play.
    waiting = (Seat.objects.filter(user=user, table__status=Table.Status.WAITING, table__room__status=Room.Status.OPEN,
                                   table__matches__isnull=True)
               .exclude(practice_room_q("table__room__")).select_related("table", "table__room").first())
    if waiting is not None:
        return QuickSeat(seat=waiting, table=waiting.table, opened_room=False)
    last_error: ServiceError | None = None
    for table in running_tables(user=user, scoring=scoring):
        if selectors.room_access_error(room=table.room, user=user) is not None:
            continue
        seat = _take_over(user=user, table=table)
        if seat is not None:
            return QuickSeat(seat=seat, table=table, opened_room=False)
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
                              rules=RuleSet.preset(scoring or RuleSet().scoring, **options),
                              bot_fill_seconds=QUICK_ROOM_BOT_FILL_SECONDS)
    table = room.tables.order_by("number").first()
    seat = services.take_seat(user=user, table=table, position=0)
    return QuickSeat(seat=seat, table=table, opened_room=True)
