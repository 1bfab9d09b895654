"""Practice tables live outside the salons: their rooms belong to one hidden salon that is never
active, so no lobby, salon page, count or leaderboard ever lists them, and they never use up a real
salon's room limit. The games app owns practice itself (``games.services``, "practice"); salons only needs to
know which tables are practice and to say when a player sits down at a real table."""

from __future__ import annotations

from django.db.models import Q
from django.dispatch import Signal

from .models import PRACTICE_SALON_SLUG, Salon

PRACTICE_SALON_NAME = "_pratik (gizli)"

# Sent inside ``take_seat``'s transaction once ``user`` has a seat at a real table: their practice
# table, if any, is closed then (a practice table never keeps anyone from a real game).
real_seat_taken = Signal()


def practice_salon() -> Salon:
    """The hidden salon of every practice room (made on first use, never active)."""
    salon, _created = Salon.objects.get_or_create(
        slug=PRACTICE_SALON_SLUG,
        defaults={"name": PRACTICE_SALON_NAME, "is_active": False, "max_rooms": 0,
                  "description": "Pratik masaları: hiçbir listede görünmez."},
    )
    return salon


def practice_room_q(prefix: str = "") -> Q:
    """Rows whose room (reached through ``prefix``, e.g. ``"table__room__"``) is a practice room."""
    return Q(**{f"{prefix}salon__slug": PRACTICE_SALON_SLUG})
