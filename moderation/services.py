"""Every moderation change, one function per use case (DESIGN.md, "Services").

Each function runs in a transaction, locks what it changes, writes the append-only
``ModerationLog`` line, and publishes its events only after commit. Views, consumers, the admin and
the Celery task call these; none of them writes a moderation row itself.

Entry points other apps use:

* chat (defined in ``moderation.chat``, which ``salons.services`` imports): ``check_can_chat``
  (mutes), ``screen_chat_text`` (the filter; returns a ``ScreenedText``), ``record_chat_verdict`` /
  ``record_blocked_chat`` (what the filter did, for staff);
* accounts: ``check_nickname`` (registered as a nickname check), ``remember_session``;
* staff: ``file_report``, ``dismiss_report``, ``act_on_report``, ``apply_sanction``,
  ``lift_sanction``, ``expire_sanctions``, ``review_line``, ``set_message_visibility``, the word
  list functions. Staff powers are decided here only (``sanction_refusal``, ``lift_refusal``);
  a refusal is logged like an action (``staff_service``).
"""

from __future__ import annotations

import contextvars
import functools
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts import services as account_services
from accounts.errors import ServiceError
from accounts.models import User
from salons import events
from salons.models import ChatMessage, Room, RoomPresence, Salon, SalonStaff, Seat, Table

from . import outgoing, selectors

# The chat screening steps live in ``moderation.chat`` (salons call it directly, so the two apps'
# services never import each other); they stay importable from here for staff code.
from .chat import (  # noqa: F401
    ChatBlocked,
    ScreenedText,
    _Reasons,
    check_can_chat,
    record_blocked_chat,
    record_chat_verdict,
    screen_chat_text,
)
from .models import (
    AllowedWord,
    FilteredLine,
    ModerationLog,
    Report,
    Sanction,
    UserSession,
    WatchedWord,
)

logger = logging.getLogger(__name__)

# Reports: a reporter files at most REPORT_BURST in REPORT_WINDOW, and one player once per
# REPORT_REPEAT_WINDOW (the next report of the same player adds nothing staff don't know).
REPORT_BURST = 5
REPORT_WINDOW = timedelta(minutes=10)
REPORT_DAILY = 30
REPORT_REPEAT_WINDOW = timedelta(minutes=30)
REPORT_NOTE_MAX = 500
# Priority counts distinct reporters of a player over this period.
PRIORITY_WINDOW = timedelta(days=30)
EVIDENCE_LINES = 20
SANCTION_REASON_MAX = 200
MAX_DURATION = timedelta(days=3650)

# The one-click actions of the staff queue: (kind, duration).
QUICK_ACTIONS: dict[str, tuple[str, timedelta | None]] = {
    "warn": (Sanction.Kind.WARNING, None),
    "mute_1h": (Sanction.Kind.MUTE, timedelta(hours=1)),
    "mute_24h": (Sanction.Kind.MUTE, timedelta(hours=24)),
    "salon_ban": (Sanction.Kind.SALON_BAN, timedelta(days=7)),
    "site_ban": (Sanction.Kind.SITE_BAN, None),
}


def user_group(user_id: int) -> str:
    """Every socket of a user (table pages and room pages) listens here for "user.banned"."""
    return account_services.user_sockets_group(user_id)


def _log(
    action: str,
    *,
    actor: Any = None,
    target: Any = None,
    salon: Salon | int | None = None,
    sanction: Sanction | None = None,
    report: Report | None = None,
    reason: str = "",
    now: datetime | None = None,
    **details: Any,
) -> ModerationLog:
    salon_id = salon if isinstance(salon, int) or salon is None else salon.pk
    return ModerationLog.objects.create(
        action=action,
        actor=actor if getattr(actor, "pk", None) else None,
        target=target,
        salon_id=salon_id,
        sanction=sanction,
        report=report,
        reason=str(reason)[:200],
        details=details,
        created_at=now or timezone.now(),
    )


# --- staff powers and refusals ------------------------------------------------------------------


class StaffRefused(ServiceError):
    """A staff member tried something outside their powers. Nothing changes, but the attempt is
    logged (``ModerationLog.Action.REFUSED``) as an action would be, so site admins see it."""

    def __init__(
        self, code: str, message: Any, *, actor: Any, attempted: str, target: Any = None, salon: Any = None,
        sanction: Sanction | None = None, report: Report | None = None, reason: str = "", **details: Any,
    ) -> None:
        super().__init__(code, message)
        self.log_line = {
            "actor": actor, "target": target, "salon": salon, "sanction": sanction, "report": report,
            "reason": reason, "attempted": attempted, "code": code, **details,
        }


# How many staff services are running in this call stack: only the outermost logs a refusal,
# after every transaction of ours has rolled back (an inner one's line would go with them).
_service_depth: contextvars.ContextVar[int] = contextvars.ContextVar("moderation_service_depth", default=0)


def staff_service(func: Callable[..., Any]) -> Callable[..., Any]:
    """``transaction.atomic`` for staff use cases, plus: a ``StaffRefused`` raised inside is
    written to the moderation log once the service's transaction has rolled back."""
    atomic_func = transaction.atomic(func)

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        token = _service_depth.set(_service_depth.get() + 1)
        try:
            return atomic_func(*args, **kwargs)
        except StaffRefused as refusal:
            if _service_depth.get() == 1:
                line = dict(refusal.log_line)
                _log(
                    ModerationLog.Action.REFUSED,
                    actor=line.pop("actor"), target=line.pop("target"), salon=line.pop("salon"),
                    sanction=line.pop("sanction"), report=line.pop("report"), reason=line.pop("reason"), **line,
                )
            raise
        finally:
            _service_depth.reset(token)

    return wrapper


def is_protected_staff(user: User) -> bool:
    """Staff of any salon, anyone with admin access and site admins: out of salon staff's reach."""
    return bool(user.is_superuser or user.is_staff or SalonStaff.objects.filter(user=user).exists())


def sanction_refusal(
    *, actor: Any, user: User, kind: str, salon_id: int | None, attempted: str = "apply_sanction", **context: Any
) -> StaffRefused | None:
    """Why ``actor`` may not give ``user`` a sanction of ``kind`` in ``salon_id`` (None: allowed).

    The one definition of staff powers: site bans belong to site admins; salon staff act only in
    the salons they moderate and never on staff (of any salon) or site admins; nobody sanctions
    themselves or a site admin.
    """
    where = {"actor": actor, "target": user, "salon": salon_id, "attempted": attempted, "kind": kind, **context}
    site_admin = selectors.is_site_admin(actor)
    if kind == Sanction.Kind.SITE_BAN and not site_admin:
        return StaffRefused("site_admin_only", _("Site yasağını yalnızca site yöneticileri verir ya da kaldırır."), **where)
    if not selectors.can_moderate(actor, salon_id):
        return StaffRefused("not_allowed", _("Bu salonda yetkiniz yok."), **where)
    if getattr(actor, "pk", None) == user.pk:
        return StaffRefused("sanction_self", _("Kendinize yaptırım uygulayamazsınız."), **where)
    if user.is_superuser:
        return StaffRefused("sanction_staff", _("Site yöneticilerine yaptırım uygulanamaz."), **where)
    if not site_admin and is_protected_staff(user):
        return StaffRefused(
            "sanction_staff", _("Salon sorumlularına yalnızca site yöneticileri yaptırım uygulayabilir."), **where
        )
    return None


def lift_refusal(*, actor: Any, sanction: Sanction, reason: str = "") -> StaffRefused | None:
    """Why ``actor`` may not lift ``sanction`` (None: allowed): site bans are lifted by site
    admins only, other sanctions by the staff of their salon."""
    where = {"actor": actor, "target": sanction.user, "salon": sanction.salon_id, "sanction": sanction,
             "attempted": "lift_sanction", "kind": sanction.kind, "reason": reason}
    if sanction.kind == Sanction.Kind.SITE_BAN and not selectors.is_site_admin(actor):
        return StaffRefused("site_admin_only", _("Site yasağını yalnızca site yöneticileri verir ya da kaldırır."), **where)
    if not selectors.can_moderate(actor, sanction.salon_id):
        return StaffRefused("not_allowed", _("Bu salonda yetkiniz yok."), **where)
    return None


def sanction_kinds_for(actor: Any) -> list[str]:
    """The kinds ``actor`` may give at all (forms offer only these; the services still decide)."""
    if selectors.is_site_admin(actor):
        return list(Sanction.Kind.values)
    return [kind for kind in Sanction.Kind.values if kind != Sanction.Kind.SITE_BAN]


def quick_actions_for(actor: Any) -> list[str]:
    """The queue's one-click actions ``actor`` may use."""
    kinds = sanction_kinds_for(actor)
    return ["dismiss", *(key for key, (kind, _duration) in QUICK_ACTIONS.items() if kind in kinds)]


# --- the chat filter ---------------------------------------------------------------------------


def _publish_chat(message: ChatMessage) -> None:
    from salons import selectors as salon_selectors

    payload = salon_selectors.chat_payload(message)
    group = events.table_group(message.table_id) if message.table_id else events.room_group(message.room_id)
    events.publish(group, "chat.message", message=payload)


@staff_service
def review_line(*, actor: User, line: FilteredLine, approve: bool, now: datetime | None = None) -> FilteredLine:
    """Staff decide on a held or flagged line.

    Held: approving shows it to everyone now (published as if just sent); rejecting keeps it
    hidden. Flagged (already shown): approving closes the flag; rejecting hides the line.
    """
    now = now or timezone.now()
    line = FilteredLine.objects.select_for_update().get(pk=line.pk)
    if not selectors.can_moderate(actor, line.salon_id):
        raise StaffRefused("not_allowed", _("Bu salonda yetkiniz yok."), actor=actor, target=line.author,
                           salon=line.salon_id, attempted="review_line", line=line.pk)
    if line.review != FilteredLine.Review.PENDING:
        raise ServiceError("already_reviewed", _("Bu mesaj zaten incelendi."))
    message = ChatMessage.objects.select_for_update().filter(pk=line.message_id).first() if line.message_id else None
    line.review = FilteredLine.Review.APPROVED if approve else FilteredLine.Review.REJECTED
    line.reviewed_by = actor
    line.reviewed_at = now
    line.save(update_fields=["review", "reviewed_by", "reviewed_at"])
    if message is not None:
        if approve and not message.visible and message.hidden_by_id is None:
            message.visible = True
            message.save(update_fields=["visible"])
            message.author = line.author
            _publish_chat(message)
        elif not approve:
            message.visible = False
            message.hidden_by = actor
            message.hidden_at = now
            message.save(update_fields=["visible", "hidden_by", "hidden_at"])
    _log(
        ModerationLog.Action.CHAT_APPROVED if approve else ModerationLog.Action.CHAT_REJECTED,
        actor=actor, target=line.author, salon=line.salon_id, now=now,
        line=line.pk, message=line.message_id, text=line.original, filter_action=line.action,
    )
    return line


@staff_service
def set_message_visibility(*, actor: User, message: ChatMessage, visible: bool, now: datetime | None = None) -> ChatMessage:
    """Hide a line from everyone (it stays stored as evidence) or show it again."""
    now = now or timezone.now()
    message = ChatMessage.objects.select_for_update().select_related("room", "author").get(pk=message.pk)
    if not selectors.can_moderate(actor, message.room.salon_id):
        raise StaffRefused("not_allowed", _("Bu salonda yetkiniz yok."), actor=actor, target=message.author,
                           salon=message.room.salon_id, attempted="set_message_visibility", chat_message=message.pk)
    if message.visible == visible:
        return message
    message.visible = visible
    message.hidden_by = None if visible else actor
    message.hidden_at = None if visible else now
    message.save(update_fields=["visible", "hidden_by", "hidden_at"])
    FilteredLine.objects.filter(message=message, review=FilteredLine.Review.PENDING).update(
        review=FilteredLine.Review.APPROVED if visible else FilteredLine.Review.REJECTED, reviewed_by=actor, reviewed_at=now
    )
    _log(
        ModerationLog.Action.CHAT_SHOWN if visible else ModerationLog.Action.CHAT_HIDDEN,
        actor=actor, target=message.author, salon=message.room.salon_id, now=now, message=message.pk, text=message.text,
    )
    return message


def check_nickname(value: str) -> None:
    """Registered with ``accounts.validators.register_nickname_check``: nicknames are public, so
    anything the chat filter would not let through as typed is refused ("_" and "." split words)."""
    result = selectors.try_sentence(value.replace("_", " ").replace("-", " "))
    dotted = selectors.try_sentence(value)
    for verdict in (result, dotted):
        if verdict.action != "allow":
            raise ValidationError(
                _("Bu rumuz uygun değil (%(why)s); başka bir rumuz seçin.") % {"why": _Reasons(verdict.categories)},
                code="nickname_offensive",
            )


# --- the word lists ----------------------------------------------------------------------------


def _words_changed(actor: User | None, what: str, word: str, **details: Any) -> None:
    _log(ModerationLog.Action.WORD_CHANGED, actor=actor, reason=f"{what}: {word}", change=what, word=word, **details)
    transaction.on_commit(selectors.forget_rules)


def _require_site_admin(actor: Any) -> None:
    if not selectors.is_site_admin(actor):
        raise ServiceError("not_allowed", _("Bunu yalnızca site yöneticileri yapabilir."))


def _save_word(*, actor: User, word: WatchedWord | AllowedWord) -> bool:
    """Normalise and save a staff word or allow-list entry; True when it is new."""
    _require_site_admin(actor)
    word.word = " ".join(str(word.word).split())
    if not word.word:
        raise ServiceError("empty_word", _("Kelime boş olamaz."))
    created = word.pk is None
    if created:
        word.created_by = actor
    word.save()
    return created


@transaction.atomic
def save_watched_word(*, actor: User, word: WatchedWord) -> WatchedWord:
    """Add or change a staff word; every process picks up the new lists at its next message."""
    created = _save_word(actor=actor, word=word)
    _words_changed(actor, "watched_added" if created else "watched_changed", word.word, category=word.category, word_action=word.action)
    return word


@transaction.atomic
def delete_watched_word(*, actor: User, word: WatchedWord) -> None:
    _require_site_admin(actor)
    text = word.word
    word.delete()
    _words_changed(actor, "watched_deleted", text)


@transaction.atomic
def save_allowed_word(*, actor: User, word: AllowedWord) -> AllowedWord:
    created = _save_word(actor=actor, word=word)
    _words_changed(actor, "allowed_added" if created else "allowed_changed", word.word)
    return word


@transaction.atomic
def delete_allowed_word(*, actor: User, word: AllowedWord) -> None:
    _require_site_admin(actor)
    text = word.word
    word.delete()
    _words_changed(actor, "allowed_deleted", text)


# --- reports -----------------------------------------------------------------------------------


def _evidence(*, reported: User, room: Room | None, table: Table | None) -> list[dict[str, Any]]:
    """The chat around the report, frozen now: the table's (or room's) last lines and the reported
    player's own last lines there, hidden ones included, with what the filter saw."""
    if room is not None:
        around = ChatMessage.objects.filter(room=room, table=table)
        own = ChatMessage.objects.filter(room=room, author=reported)
        messages = {m.pk: m for m in around.select_related("author", "table").order_by("-created_at", "-id")[:EVIDENCE_LINES]}
        for message in own.select_related("author", "table").order_by("-created_at", "-id")[:10]:
            messages.setdefault(message.pk, message)
    else:
        own = ChatMessage.objects.filter(author=reported)
        messages = {m.pk: m for m in own.select_related("author", "table", "room").order_by("-created_at", "-id")[:EVIDENCE_LINES]}
    filtered = {f.message_id: f for f in FilteredLine.objects.filter(message_id__in=list(messages))}
    lines = []
    for message in sorted(messages.values(), key=lambda m: (m.created_at, m.pk)):
        line = {
            "id": message.pk,
            "at": message.created_at.isoformat(),
            "author_id": message.author_id,
            "author": message.author.username,
            "text": message.text,
            "visible": message.visible,
            "room": message.room_id,
            "table": message.table_id,
        }
        seen = filtered.get(message.pk)
        if seen is not None:
            line["original"] = seen.original
            line["filter"] = seen.action
        lines.append(line)
    blocked_since = timezone.now() - timedelta(hours=1)
    blocked = FilteredLine.objects.filter(author=reported, message__isnull=True, created_at__gte=blocked_since)
    if room is not None:
        blocked = blocked.filter(room=room)
    for line in blocked.order_by("-created_at")[:5]:
        lines.append(
            {"id": None, "at": line.created_at.isoformat(), "author_id": reported.pk, "author": reported.username,
             "text": "", "original": line.original, "filter": "block", "visible": False, "room": line.room_id,
             "table": line.table_id}
        )
    return lines


def _refresh_priority(reported: User, now: datetime) -> int:
    """Priority = distinct people who reported this player lately; all their open reports share it."""
    since = now - PRIORITY_WINDOW
    reporters = Report.objects.filter(reported=reported, created_at__gte=since).values("reporter").distinct().count()
    priority = max(reporters, 1)
    Report.objects.filter(reported=reported, status=Report.Status.OPEN).update(priority=priority)
    return priority


@transaction.atomic
def file_report(
    *,
    reporter: User,
    reported: User,
    reason: str,
    note: str = "",
    room: Room | None = None,
    table: Table | None = None,
    now: datetime | None = None,
) -> Report:
    """A player reports another from a table, a room or a profile.

    It goes to the staff of the salon where it happened (profile reports: site admins) with the
    chat around it. The reporter only ever learns that it was received.
    """
    now = now or timezone.now()
    if not getattr(reporter, "is_authenticated", False) or not reporter.is_active:
        raise ServiceError("login_required", _("Bu işlem için giriş yapın."))
    if reported is None or not reported.is_active:
        raise ServiceError("no_user", _("Böyle bir oyuncu yok."))
    if reporter.pk == reported.pk:
        raise ServiceError("report_self", _("Kendinizi şikayet edemezsiniz."))
    if reported.is_bot:
        raise ServiceError("report_bot", _("Botlar şikayet edilemez: bir botun oyunu bir kişiye ait değildir."))
    if reason not in Report.Reason.values:
        raise ServiceError("bad_reason", _("Bir şikayet sebebi seçin."))
    note = " ".join(str(note or "").split())
    if len(note) > REPORT_NOTE_MAX:
        raise ServiceError("note_too_long", _("Not en çok %(max)d karakter olabilir.") % {"max": REPORT_NOTE_MAX})
    if table is not None:
        table = Table.objects.select_related("room").get(pk=table.pk)
        room = table.room
    if room is not None:
        from salons.selectors import room_access_error

        refusal = room_access_error(room=room, user=reporter)
        # A player the owner removed may still report from that room (e.g. an unfair removal).
        if refusal is not None and refusal.code != "removed":
            raise ServiceError("no_access", _("Bu odada değilsiniz; oyuncunun profilinden şikayet edin."))
    # Serialise one reporter's reports, so the flood checks below can't be raced past.
    User.objects.select_for_update().filter(pk=reporter.pk).first()
    mine = Report.objects.filter(reporter=reporter)
    if mine.filter(created_at__gte=now - REPORT_WINDOW).count() >= REPORT_BURST or (
        mine.filter(created_at__gte=now - timedelta(days=1)).count() >= REPORT_DAILY
    ):
        raise ServiceError("too_many_reports", _("Çok fazla şikayet gönderdiniz; biraz sonra yeniden deneyin."))
    if mine.filter(reported=reported, created_at__gte=now - REPORT_REPEAT_WINDOW).exists():
        raise ServiceError(
            "already_reported", _("Bu oyuncuyu az önce şikayet ettiniz; şikayetiniz salon sorumlularına ulaştı.")
        )
    source = Report.Source.TABLE if table is not None else Report.Source.ROOM if room is not None else Report.Source.PROFILE
    report = Report.objects.create(
        reporter=reporter,
        reported=reported,
        salon_id=room.salon_id if room is not None else None,
        room=room,
        table=table,
        source=source,
        reason=reason,
        note=note,
        evidence=_evidence(reported=reported, room=room, table=table),
        created_at=now,
    )
    report.priority = _refresh_priority(reported, now)
    _log(ModerationLog.Action.REPORT_FILED, actor=reporter, target=reported, salon=report.salon_id, report=report,
         reason=report.get_reason_display(), now=now, source=source)
    return report


def _lock_open_report(report: Report, actor: User, action: str) -> Report:
    report = Report.objects.select_for_update().get(pk=report.pk)
    where = {"actor": actor, "target": report.reported, "salon": report.salon_id, "report": report,
             "attempted": "act_on_report", "queue_action": action}
    if not selectors.can_moderate(actor, report.salon_id):
        raise StaffRefused("not_allowed", _("Bu salonda yetkiniz yok."), **where)
    if not selectors.is_site_admin(actor) and is_protected_staff(report.reported):
        # A complaint about staff is for site admins, not for the staff's colleagues to bury.
        raise StaffRefused("sanction_staff", _("Sorumlular hakkındaki şikayetlere yalnızca site yöneticileri bakar."),
                           **where)
    if report.status != Report.Status.OPEN:
        raise ServiceError("report_closed", _("Bu şikayet zaten sonuçlandı."))
    return report


@staff_service
def dismiss_report(*, actor: User, report: Report, note: str = "", now: datetime | None = None) -> Report:
    now = now or timezone.now()
    report = _lock_open_report(report, actor, "dismiss")
    report.status = Report.Status.DISMISSED
    report.handled_by = actor
    report.handled_at = now
    report.resolution = str(note or _("İşlem gerekmedi."))[:200]
    report.save(update_fields=["status", "handled_by", "handled_at", "resolution"])
    _log(ModerationLog.Action.REPORT_DISMISSED, actor=actor, target=report.reported, salon=report.salon_id, report=report,
         reason=report.resolution, now=now)
    return report


@staff_service
def act_on_report(*, actor: User, report: Report, action: str, reason: str = "", now: datetime | None = None) -> Report:
    """The queue's one-click actions: dismiss, warn, mute 1 h / 24 h, salon ban, site ban."""
    if action == "dismiss":
        return dismiss_report(actor=actor, report=report, note=reason, now=now)
    if action not in QUICK_ACTIONS:
        raise ServiceError("bad_action", _("Bilinmeyen işlem."))
    report = _lock_open_report(report, actor, action)
    kind, duration = QUICK_ACTIONS[action]
    if kind == Sanction.Kind.SALON_BAN and report.salon_id is None:
        raise ServiceError("no_salon", _("Profil şikayetinde salon yasağı verilemez."))
    apply_sanction(
        actor=actor,
        user=report.reported,
        kind=kind,
        reason=reason or str(report.get_reason_display()),
        duration=duration,
        salon=report.salon,
        report=report,
        now=now,
    )
    report.refresh_from_db()
    return report


# --- sanctions ---------------------------------------------------------------------------------


def _kick_from(user: User, *, rooms: list[int], tables: list[int]) -> None:
    """After commit: close the user's room and table sockets in these rooms and tables."""
    for room_id in rooms:
        events.publish(events.room_group(room_id), "user.removed", room=room_id, user=user.pk, by_staff=True)
    for table_id in tables:
        events.publish(events.table_group(table_id), "user.kicked", user_id=user.pk)


def _sockets_in(user: User, rooms_qs: Any) -> tuple[list[int], list[int]]:
    """Rooms where the user has a live room socket and tables where they sit, within ``rooms_qs``."""
    room_ids = sorted(set(RoomPresence.objects.filter(user=user, room__in=rooms_qs).values_list("room_id", flat=True)))
    table_ids = sorted(set(Seat.objects.filter(user=user, table__room__in=rooms_qs).values_list("table_id", flat=True)))
    return room_ids, table_ids


@staff_service
def apply_sanction(
    *,
    actor: User,
    user: User,
    kind: str,
    reason: str,
    duration: timedelta | None = None,
    salon: Salon | None = None,
    room: Room | None = None,
    report: Report | None = None,
    now: datetime | None = None,
) -> Sanction:
    """The one way to sanction a player; logs it and makes it bite at once.

    * warning: a banner on every page until the player closes it;
    * mute: chat refused (in ``salon``, or everywhere when no salon);
    * room removal / salon ban: seats at waiting tables there freed, sockets there closed, entry
      refused until it ends;
    * site ban: sessions ended, every socket closed ("user.banned"), waiting seats freed, running
      games handed to auto-play, login refused.

    ``duration=None`` is permanent. Who may do what is ``sanction_refusal``: site bans and
    anything on staff belong to site admins, salon staff act within their salons (a refusal is
    logged). A site ban may name the salon where it happened, so that salon's staff see it.
    """
    now = now or timezone.now()
    if kind not in Sanction.Kind.values:
        raise ServiceError("bad_kind", _("Bilinmeyen yaptırım türü."))
    reason = " ".join(str(reason or "").split())
    if room is not None:
        room = Room.objects.select_related("salon").get(pk=room.pk)
        salon = room.salon
    if report is not None and salon is None:
        salon = report.salon
    if kind == Sanction.Kind.ROOM_REMOVAL and room is None:
        raise ServiceError("room_required", _("Odadan uzaklaştırmak için bir oda seçin."))
    if kind == Sanction.Kind.SALON_BAN and salon is None:
        raise ServiceError("salon_required", _("Salon yasağı için bir salon seçin."))
    salon_id = salon.pk if salon is not None else None
    user = User.objects.get(pk=user.pk)
    refusal = sanction_refusal(actor=actor, user=user, kind=kind, salon_id=salon_id, report=report, reason=reason,
                               room=room.pk if room else None)
    if refusal is not None:
        raise refusal
    if not 3 <= len(reason) <= SANCTION_REASON_MAX:
        raise ServiceError("reason_required", _("Sebep 3–%(max)d karakter olmalı.") % {"max": SANCTION_REASON_MAX})
    if duration is not None:
        if duration <= timedelta(0) or duration > MAX_DURATION:
            raise ServiceError("bad_duration", _("Geçersiz süre."))
    if kind == Sanction.Kind.WARNING:
        duration = None
    sanction = Sanction.objects.create(
        user=user,
        kind=kind,
        salon=salon,
        room=room,
        reason=reason,
        starts_at=now,
        expires_at=now + duration if duration is not None else None,
        report=report,
        created_by=actor,
        created_at=now,
    )
    _log(
        ModerationLog.Action.SANCTION_APPLIED, actor=actor, target=user, salon=salon_id, sanction=sanction, report=report,
        reason=reason, now=now, kind=kind, room=room.pk if room else None,
        expires_at=sanction.expires_at.isoformat() if sanction.expires_at else None,
    )
    if report is not None:
        _close_reports(report=report, actor=actor, sanction=sanction, now=now)
    _enforce(sanction)
    return sanction


def _close_reports(*, report: Report, actor: User, sanction: Sanction, now: datetime) -> None:
    """The sanction answers this report and the other open reports of the player in that salon."""
    resolution = f"{sanction.get_kind_display()} (#{sanction.pk})"
    Report.objects.filter(reported=sanction.user, salon_id=report.salon_id, status=Report.Status.OPEN).update(
        status=Report.Status.ACTIONED, handled_by=actor, handled_at=now, resolution=resolution[:200]
    )


def _enforce(sanction: Sanction) -> None:
    from salons import services as salon_services

    user = sanction.user
    if sanction.kind == Sanction.Kind.SITE_BAN:
        # Every session, including those whose key changed since login (a password change), and
        # every socket connect from now on; the sockets already open close on "user.banned".
        account_services.end_every_session(user=user)
        end_sessions(user=user)
        salon_services.release_seats(user=user)
        # Each socket says why and until when in its own reader's language (site_ban_notice).
        events.publish(user_group(user.pk), "user.banned", user_id=user.pk)
        transaction.on_commit(lambda: _hand_over_games(user.pk))
    elif sanction.kind == Sanction.Kind.SALON_BAN:
        rooms = Room.objects.filter(salon_id=sanction.salon_id)
        room_ids, _seated_tables = _sockets_in(user, rooms)
        # Every table of the salon, not only where they sit: a watcher's table socket closes too.
        table_ids = list(Table.objects.filter(room__in=rooms, room__status=Room.Status.OPEN).values_list("pk", flat=True))
        salon_services.release_seats(user=user, salon=sanction.salon)
        _kick_from(user, rooms=room_ids, tables=table_ids)
    elif sanction.kind == Sanction.Kind.ROOM_REMOVAL:
        table_ids = list(Table.objects.filter(room_id=sanction.room_id).values_list("pk", flat=True))
        salon_services.release_seats(user=user, room=sanction.room)
        _kick_from(user, rooms=[sanction.room_id], tables=table_ids)


def _hand_over_games(user_id: int) -> None:
    """After the ban commits: the banned player's running games go on with the server playing for
    them (the games app listens: ``outgoing.site_ban_committed``)."""
    # The ban stands even if a game could not be handed over; the sweep retries turns.
    for _receiver, response in outgoing.site_ban_committed.send_robust(sender=Sanction, user_id=user_id):
        if isinstance(response, Exception):
            logger.error("could not hand the games of user %s to auto-play", user_id, exc_info=response)


@staff_service
def lift_sanction(*, actor: User, sanction: Sanction, reason: str, now: datetime | None = None) -> Sanction:
    """End a sanction early (a mistake, an appeal); logged like everything else. Site bans are
    lifted by site admins only (``lift_refusal``)."""
    now = now or timezone.now()
    sanction = Sanction.objects.select_for_update().get(pk=sanction.pk)
    refusal = lift_refusal(actor=actor, sanction=sanction, reason=str(reason or ""))
    if refusal is not None:
        raise refusal
    if not sanction.is_active(now):
        raise ServiceError("not_active", _("Bu yaptırım zaten sona ermiş."))
    reason = " ".join(str(reason or "").split())
    if not 3 <= len(reason) <= SANCTION_REASON_MAX:
        raise ServiceError("reason_required", _("Sebep 3–%(max)d karakter olmalı.") % {"max": SANCTION_REASON_MAX})
    sanction.status = Sanction.Status.LIFTED
    sanction.ended_at = now
    sanction.lifted_by = actor
    sanction.lift_reason = reason
    sanction.save(update_fields=["status", "ended_at", "lifted_by", "lift_reason"])
    _log(ModerationLog.Action.SANCTION_LIFTED, actor=actor, target=sanction.user, salon=sanction.salon_id,
         sanction=sanction, reason=reason, now=now, kind=sanction.kind)
    return sanction


def expire_sanctions(*, now: datetime | None = None) -> int:
    """Celery beat: mark sanctions past their end as expired, one log line each. Idempotent.

    Access checks already ignore a sanction past its end; this makes the records and the log say so.
    """
    now = now or timezone.now()
    done = 0
    due = list(
        Sanction.objects.filter(status=Sanction.Status.ACTIVE, expires_at__lte=now).values_list("pk", flat=True)[:500]
    )
    for pk in due:
        with transaction.atomic():
            sanction = Sanction.objects.select_for_update().select_related("user").filter(pk=pk).first()
            if sanction is None or sanction.status != Sanction.Status.ACTIVE or sanction.expires_at is None or sanction.expires_at > now:
                continue
            sanction.status = Sanction.Status.EXPIRED
            sanction.ended_at = now
            sanction.save(update_fields=["status", "ended_at"])
            _log(ModerationLog.Action.SANCTION_EXPIRED, target=sanction.user, salon=sanction.salon_id, sanction=sanction,
                 reason=sanction.reason, now=now, kind=sanction.kind)
            done += 1
    return done


@transaction.atomic
def acknowledge_warning(*, user: User, sanction_id: int, now: datetime | None = None) -> None:
    """The player closed a warning banner (their own warnings only)."""
    Sanction.objects.filter(
        pk=sanction_id, user=user, kind=Sanction.Kind.WARNING, seen_at__isnull=True
    ).update(seen_at=now or timezone.now())


# --- sessions ----------------------------------------------------------------------------------


def remember_session(*, user: User, session_key: str | None) -> None:
    if session_key:
        UserSession.objects.update_or_create(session_key=session_key, defaults={"user": user})


def forget_session(*, session_key: str | None) -> None:
    if session_key:
        UserSession.objects.filter(session_key=session_key).delete()


def end_sessions(*, user: User) -> int:
    """Delete every recorded session of ``user`` through the configured session engine."""
    engine = import_module(settings.SESSION_ENGINE)
    keys = list(UserSession.objects.filter(user=user).values_list("session_key", flat=True))
    for key in keys:
        engine.SessionStore(session_key=key).delete()
    UserSession.objects.filter(user=user).delete()
    return len(keys)


# --- staff roles -------------------------------------------------------------------------------


@transaction.atomic
def grant_admin_access(*, staff: SalonStaff) -> None:
    """A new salon moderator needs the admin (``is_staff``) to reach the queue; grant it, logged."""
    user = User.objects.select_for_update().get(pk=staff.user_id)
    if user.is_staff:
        return
    User.objects.filter(pk=user.pk).update(is_staff=True)
    _log(ModerationLog.Action.STAFF_GRANTED, target=user, salon=staff.salon_id, reason=str(staff.salon))
