"""A player's own entry: registering and withdrawing until the start (the buy-in through the chip
ledger, and back), and in a running arena pausing, returning and leaving."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.errors import ServiceError
from accounts.services import change_chips
from tournaments import events
from tournaments.models import Entry, Format, Tournament
from tournaments.service_common import TournamentError, _is_banned, _lock, can_manage


def register(*, user: Any, tournament_id: Any, now: datetime | None = None) -> Entry:
    """Sign up until the start; the buy-in is taken through the chip ledger."""
    now = now or timezone.now()
    if not getattr(user, "is_authenticated", False):
        raise TournamentError("login_required", _("Bu işlem için giriş yapın."))
    if user.is_bot:
        raise TournamentError("bots_cannot_register", _("Botlar turnuvaya kaydolamaz."))
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status != Tournament.Status.SCHEDULED or now >= tournament.starts_at:
            raise TournamentError("registration_closed", _("Bu turnuvanın kayıtları kapandı."))
        if now < tournament.registration_opens_at:
            raise TournamentError("registration_not_open", _("Kayıtlar henüz açılmadı."))
        if _is_banned(user.pk, tournament.salon_id, now):
            raise TournamentError("banned", _("Bu salonda oynamanız engellendi."))
        if (tournament.buy_in or tournament.added_chips) and not tournament.staff_may_play \
                and can_manage(user, tournament.salon_id):
            raise TournamentError("staff_cannot_play", _(
                "Salon görevlileri kendi salonlarının ödüllü turnuvalarında, bir site yöneticisi izin vermedikçe "
                "oynayamaz."))
        if Entry.objects.filter(tournament=tournament, user=user).exists():
            raise TournamentError("already_registered", _("Bu turnuvaya zaten kayıtlısınız."))
        if Entry.objects.filter(tournament=tournament).count() >= tournament.max_players:
            raise TournamentError("tournament_full", _("Turnuva dolu."))
        if tournament.buy_in:
            try:
                change_chips(user=user, amount=-tournament.buy_in, note=f"tournament {tournament.pk} buy-in")
            except ServiceError as error:
                raise TournamentError(error.code, error._message, **error.details) from None
        entry = Entry.objects.create(tournament=tournament, user=user, paid=tournament.buy_in)
        transaction.on_commit(lambda: events.tournament_changed(tournament.pk))
    return entry


def unregister(*, user: Any, tournament_id: Any, now: datetime | None = None) -> None:
    """Withdraw until the start; the buy-in comes back through the chip ledger."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        entry = Entry.objects.select_for_update().filter(tournament=tournament, user_id=user.pk).first()
        if entry is None:
            raise TournamentError("not_registered", _("Bu turnuvaya kayıtlı değilsiniz."))
        if tournament.status != Tournament.Status.SCHEDULED or now >= tournament.starts_at:
            raise TournamentError("already_started", _("Turnuva başladı; kayıt artık silinemez."))
        _refund(entry, note=f"tournament {tournament.pk} unregistered")
        entry.delete()
        transaction.on_commit(lambda: events.tournament_changed(tournament.pk))


def _refund(entry: Entry, *, note: str) -> None:
    if entry.paid:
        change_chips(user=entry.user, amount=entry.paid, note=note)
        Entry.objects.filter(pk=entry.pk).update(paid=0)
        entry.paid = 0


# -- arena: pause, return, leave -----------------------------------------------------------------------


def _running_arena_entry(user: Any, tournament_id: Any) -> tuple[Tournament, Entry]:
    tournament = _lock(tournament_id)
    if tournament.format != Format.ARENA or tournament.status != Tournament.Status.RUNNING:
        raise TournamentError("not_running_arena", _("Bu yalnızca süren bir arenada yapılabilir."))
    entry = Entry.objects.select_for_update().filter(tournament=tournament, user_id=user.pk).first()
    if entry is None or entry.state in (Entry.State.REMOVED, Entry.State.LEFT):
        raise TournamentError("not_in_tournament", _("Bu turnuvada oynamıyorsunuz."))
    return tournament, entry


def pause(*, user: Any, tournament_id: Any) -> Entry:
    """Arena: not seated again until they return (a table in play finishes first)."""
    with transaction.atomic():
        tournament, entry = _running_arena_entry(user, tournament_id)
        if entry.state == Entry.State.PLAYING:
            entry.wants_pause = True
        else:
            entry.state = Entry.State.PAUSED
        entry.save(update_fields=["state", "wants_pause"])
        transaction.on_commit(lambda: events.tournament_changed(tournament.pk))
    return entry


def resume(*, user: Any, tournament_id: Any, now: datetime | None = None) -> Entry:
    """Arena: back from a pause; seated at the next step."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament, entry = _running_arena_entry(user, tournament_id)
        if entry.state == Entry.State.PAUSED:
            entry.state, entry.free_since = Entry.State.WAITING, now
            Tournament.objects.filter(pk=tournament.pk).update(next_step_at=now)
        entry.wants_pause = False
        entry.save(update_fields=["state", "free_since", "wants_pause"])
        transaction.on_commit(lambda: events.tournament_changed(tournament.pk))
    return entry


def leave(*, user: Any, tournament_id: Any) -> Entry:
    """Arena: leave for good; the points so far stay on the standings (a table in play is played
    out by the turn clock)."""
    with transaction.atomic():
        tournament, entry = _running_arena_entry(user, tournament_id)
        entry.state = Entry.State.LEFT
        entry.wants_pause = False
        entry.save(update_fields=["state", "wants_pause"])
        transaction.on_commit(lambda: events.tournament_changed(tournament.pk))
    return entry
