"""Players taken out of a tournament: disqualified by staff, or removed by the sweep while banned.
The turn clock plays their seats on; they win nothing (a buy-in comes back before the start)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import events
from tournaments.entries import _refund
from tournaments.models import Entry, Tournament, TournamentLog
from tournaments.service_common import REASON_MAX, TournamentError, _is_banned, _lock, _lock_for_staff


def disqualify(*, actor: Any, tournament_id: Any, user: Any, reason: str) -> Entry:
    """Staff remove a player with a reason (logged): the turn clock plays their seat, no prize."""
    reason = " ".join(str(reason or "").split())
    with transaction.atomic():
        tournament = _lock_for_staff(actor=actor, tournament_id=tournament_id, reason=reason)
        entry = Entry.objects.select_for_update().select_related("user").filter(
            tournament=tournament, user_id=user.pk).first()
        if entry is None or entry.state == Entry.State.REMOVED:
            raise TournamentError("not_in_tournament", _("Bu oyuncu turnuvada değil."))
        _remove(tournament, entry, reason=reason, actor=actor, action="disqualify")
    return entry


def remove_banned(*, now: datetime | None = None) -> int:
    """The sweep: players banned (site, or the tournament's salon) are removed from the
    tournaments they are in; the turn clock plays their seats on, they win nothing."""
    from moderation.models import Sanction

    now = now or timezone.now()
    live = Entry.objects.filter(tournament__status__in=[Tournament.Status.SCHEDULED, Tournament.Status.RUNNING]).exclude(
        state=Entry.State.REMOVED)
    active = Sanction.objects.active(now).filter(user_id=OuterRef("user_id"))
    banned = list(live.filter(
        Exists(active.filter(kind=Sanction.Kind.SITE_BAN))
        | Exists(active.filter(kind=Sanction.Kind.SALON_BAN, salon_id=OuterRef("tournament__salon_id")))
    ).values_list("tournament_id", "user_id"))
    removed = 0
    for tournament_id, user_id in banned:
        with transaction.atomic():
            tournament = _lock(tournament_id)
            entry = Entry.objects.select_for_update().select_related("user").filter(
                tournament=tournament, user_id=user_id).first()
            if entry is None or entry.state == Entry.State.REMOVED:
                continue
            if not _is_banned(user_id, tournament.salon_id, now):
                continue
            _remove(tournament, entry, reason="ban", actor=None)
            removed += 1
    return removed


def _remove(tournament: Tournament, entry: Entry, *, reason: str, actor: Any, action: str = "ban") -> None:
    was_playing = entry.state == Entry.State.PLAYING
    if tournament.status == Tournament.Status.SCHEDULED:
        # Before the start nothing was played: the buy-in comes back.
        _refund(entry, note=f"tournament {tournament.pk} removed")
    entry.state = Entry.State.REMOVED
    entry.removed_reason = reason[:REASON_MAX]
    entry.save(update_fields=["state", "removed_reason"])
    TournamentLog.objects.create(tournament=tournament, actor=actor, user=entry.user, action=action,
                                 reason=reason[:REASON_MAX])
    user = entry.user
    tournament_id = tournament.pk

    def after() -> None:
        if was_playing:
            from games.services import hand_over_to_autoplay

            hand_over_to_autoplay(user=user)
        events.tournament_changed(tournament_id)

    transaction.on_commit(after)
