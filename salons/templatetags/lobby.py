"""What the banner and the home page show a signed-in player: their table (real or practice) and
the choices of "Hemen oyna" and practice."""

from __future__ import annotations

from typing import Any

from django import template

from salons.models import Seat
from salons.rule_lines import game_label, game_of
from salons.rules_catalog import PRESET_LABELS

register = template.Library()


@register.filter
def game_of_rules(rules: Any) -> str:
    """The name of a game of its own ("101 Okey", "Kart Okey") for a list's badge; "" for classic
    Okey, whose lists keep their look."""
    if not isinstance(rules, dict) or game_of(rules) == "okey":
        return ""
    return str(game_label(rules))


def _practice_of(table):
    from django.core.exceptions import ObjectDoesNotExist

    try:
        return table.practice
    except ObjectDoesNotExist:
        return None


@register.simple_tag(takes_context=True)
def my_play(context: dict[str, Any]) -> dict[str, Any]:
    """The player's real table (a seat at a waiting or playing table) and open practice table."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    cached = getattr(request, "_my_play", None)
    if cached is not None:
        return cached
    from games.models import PracticeTable
    from salons.models import Table
    from tournaments.models import Tournament

    # One query: the player's seats with their tables (a practice table's seat is held only while
    # it is open, so its row says whether there is one). A tournament table whose match is over is
    # nobody's table any more (the tournament seats its players anew): it is left out.
    tournament_rooms = Tournament.objects.filter(room__isnull=False).values("room_id")
    seats = list(Seat.objects.filter(user=user)
                 .exclude(table__status=Table.Status.WAITING, table__room__in=tournament_rooms)
                 .select_related("table", "table__room", "table__practice")
                 .order_by("table__status"))  # playing first
    practice = next((seat.table.practice for seat in seats if _practice_of(seat.table)), None)
    real = next((seat for seat in seats if _practice_of(seat.table) is None), None)
    found = {
        "table": real.table if real else None,
        "practice": practice,
        "presets": list(PRESET_LABELS.items()),
        "levels": PracticeTable.Level.choices,
    }
    request._my_play = found
    return found


@register.simple_tag
def rules_preview_of(form: Any) -> list[str]:
    """The room form's rules in plain words, as the form stands (its posted data or the room's),
    for the game the form chose (classic Okey, 101 Okey or Kart Okey)."""
    from games.engine.errors import EngineError
    from games.engine.rules import RuleSet, RuleSetError
    from salons.preview_views import preview_rules
    from salons.rules_catalog import plain_rules

    data = getattr(form, "cleaned_data", None)
    try:
        if data:
            return plain_rules(preview_rules(form), turn_seconds=data.get("turn_seconds"))
        room = getattr(form, "room", None)
        if room is not None:
            return plain_rules(room.rules, turn_seconds=room.turn_seconds)
    except (RuleSetError, EngineError, TypeError, ValueError, KeyError):
        pass
    return plain_rules(RuleSet(), turn_seconds=form.fields["turn_seconds"].initial)


@register.simple_tag(takes_context=True)
def salon_refusal(context: dict[str, Any], salon_id: int) -> str:
    """Why the signed-in player may not enter this salon (a salon or site ban), in words, or ""."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    from moderation.selectors import access_error, request_sanctions

    refusal = access_error(user=user, salon=salon_id, sanctions=request_sanctions(request))
    return refusal.message if refusal is not None else ""
