"""What the tournament services share: their error, who may manage a salon's tournaments, who is
banned, the tournament row's lock (taken first, before tables and matches), the checks of a staff
action on a live tournament, and the public-text check of names and reasons."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.errors import ServiceError
from tournaments.models import Tournament

REASON_MAX = 200


class TournamentError(ServiceError):
    pass


def is_site_admin(user: Any) -> bool:
    from moderation.selectors import is_site_admin as site_admin

    return site_admin(user)


def can_manage(user: Any, salon_id: int) -> bool:
    """Site admins, and the staff of that salon (RULES: "site admins and salon staff")."""
    from moderation.selectors import can_moderate

    return bool(getattr(user, "is_authenticated", False)) and can_moderate(user, salon_id)


def _is_banned(user_id: int, salon_id: int, now: datetime | None = None) -> bool:
    from moderation.models import Sanction

    return Sanction.objects.active(now).filter(
        Q(kind=Sanction.Kind.SITE_BAN) | Q(kind=Sanction.Kind.SALON_BAN, salon_id=salon_id), user_id=user_id
    ).exists()


def _banned_among(user_ids: list[int], salon_id: int, now: datetime | None = None) -> set[int]:
    from moderation.models import Sanction

    return set(Sanction.objects.active(now).filter(
        Q(kind=Sanction.Kind.SITE_BAN) | Q(kind=Sanction.Kind.SALON_BAN, salon_id=salon_id), user_id__in=user_ids
    ).values_list("user_id", flat=True))


def _lock(tournament_id: Any) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentError("no_tournament", _("Böyle bir turnuva yok."))
    return tournament


def _lock_for_staff(*, actor: Any, tournament_id: Any, reason: str) -> Tournament:
    """The checks every staff action on a live tournament shares: who, why, and not over yet."""
    tournament = _lock(tournament_id)
    if not can_manage(actor, tournament.salon_id):
        raise TournamentError("not_allowed", _("Bu salonda turnuva yönetme yetkiniz yok."))
    if not 3 <= len(reason) <= REASON_MAX:
        raise TournamentError("reason_required", _("Sebep 3–%(max)d karakter olmalı.") % {"max": REASON_MAX})
    if tournament.status not in (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING):
        raise TournamentError("tournament_over", _("Turnuva bitti."))
    return tournament


def _public_text(text: Any, *, code: str) -> str:
    """Tournament names and cancel reasons are shown to everyone on /tournaments/: they pass the
    public-text check that room names pass (moderation.public_text), as a tournament error."""
    from moderation.public_text import check_public_text

    try:
        return check_public_text(str(text), code=code)
    except ServiceError as error:
        raise TournamentError(error.code, error.message) from None
