"""Read side of moderation: who moderates what, which sanctions are in force, the filter's rules,
the staff queue and a player's history.

Scope is decided here once (``moderated_salon_ids``) and used by services, views and the admin, so
"salon staff see only their salons" has one definition.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from accounts.errors import ServiceError
from accounts.models import User
from salons.models import Room, RoomRemoval, Salon, SalonStaff

from .chatfilter import FilterResult, FilterRules, compiled, filter_message
from .chatfilter import WatchedWord as FilterWord
from .models import AllowedWord, FilteredLine, ModerationLog, Report, Sanction, WatchedWord

# --- roles and scope ---------------------------------------------------------------------------


def is_site_admin(user: Any) -> bool:
    """Site admins see and do everything; being a salon moderator never makes one a site admin."""
    return bool(getattr(user, "is_authenticated", False) and user.is_active and user.is_superuser)


def moderated_salon_ids(user: Any) -> set[int] | None:
    """The salons ``user`` moderates: None means all of them (site admin), an empty set none."""
    if is_site_admin(user):
        return None
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return set()
    return set(SalonStaff.objects.filter(user=user).values_list("salon_id", flat=True))


def is_moderator(user: Any) -> bool:
    scope = moderated_salon_ids(user)
    return scope is None or bool(scope)


def can_moderate(user: Any, salon_id: int | None) -> bool:
    """Salon-less things (profile reports, site-wide mutes) belong to site admins."""
    scope = moderated_salon_ids(user)
    if scope is None:
        return True
    return salon_id is not None and salon_id in scope


def scoped(queryset: QuerySet, user: Any, field: str = "salon") -> QuerySet:
    """Limit any queryset with a salon relation to what ``user`` moderates."""
    scope = moderated_salon_ids(user)
    if scope is None:
        return queryset
    return queryset.filter(**{f"{field}__in": scope})


# --- sanctions in force ------------------------------------------------------------------------


def until_text(sanction: Sanction) -> str:
    if sanction.expires_at is None:
        return str(_("süresiz"))
    return date_format(timezone.localtime(sanction.expires_at), "DATETIME_FORMAT")


def active_site_ban(user: Any, now: datetime | None = None) -> Sanction | None:
    if not getattr(user, "pk", None):
        return None
    return Sanction.objects.active(now).filter(user_id=user.pk, kind=Sanction.Kind.SITE_BAN).order_by("-created_at").first()


def is_site_banned(user: Any, now: datetime | None = None) -> bool:
    if not getattr(user, "pk", None):
        return False
    return Sanction.objects.active(now).filter(user_id=user.pk, kind=Sanction.Kind.SITE_BAN).exists()


def active_mute(user: Any, salon_id: int | None, now: datetime | None = None) -> Sanction | None:
    """A mute for this salon's chat, or a site-wide one (``salon`` empty)."""
    where = Q(salon__isnull=True)
    if salon_id is not None:
        where |= Q(salon_id=salon_id)
    return (
        Sanction.objects.active(now).filter(where, user_id=user.pk, kind=Sanction.Kind.MUTE).order_by("-expires_at").first()
    )


def active_salon_ban(user: Any, salon_id: int, now: datetime | None = None) -> Sanction | None:
    return Sanction.objects.active(now).filter(user_id=user.pk, kind=Sanction.Kind.SALON_BAN, salon_id=salon_id).first()


def active_room_removal(user: Any, room_id: int, now: datetime | None = None) -> Sanction | None:
    return Sanction.objects.active(now).filter(user_id=user.pk, kind=Sanction.Kind.ROOM_REMOVAL, room_id=room_id).first()


def site_ban_message(sanction: Sanction) -> str:
    return str(
        _("Hesabınız kapatıldı. Sebep: %(reason)s. Bitiş: %(until)s.")
        % {"reason": sanction.reason, "until": until_text(sanction)}
    )


def site_ban_notice(user: Any) -> str:
    """What a player banned from the site reads on the page they are on as its sockets close: why
    and until when, in the active language (their session is already gone)."""
    ban = (Sanction.objects.active().filter(user_id=user.pk, kind=Sanction.Kind.SITE_BAN)
           .order_by("-created_at").first())
    if ban is None:
        return str(_("Hesabınız kapatıldı; bağlantınız sonlandırıldı."))
    return site_ban_message(ban)


def request_sanctions(request: Any) -> list[Sanction]:
    """The signed-in user's sanctions in force, read once per HTTP request (the salon check and
    the banner share it), so moderation costs a page one query."""
    user = getattr(request, "user", None)
    if not getattr(user, "is_authenticated", False):
        return []
    if not hasattr(request, "_moderation_sanctions"):
        request._moderation_sanctions = list(
            Sanction.objects.active().filter(user_id=user.pk).select_related("salon").order_by("created_at")
        )
    return request._moderation_sanctions


def access_error(
    *,
    user: Any,
    salon: Salon | int,
    room: Room | None = None,
    now: datetime | None = None,
    sanctions: list[Sanction] | None = None,
) -> ServiceError | None:
    """Why a sanction keeps ``user`` out of this salon (or room), or None.

    ``sanctions``: the user's active sanctions when already read (``request_sanctions``);
    otherwise one query reads the three kinds that matter here.
    """
    if not getattr(user, "is_authenticated", False):
        return None
    salon_id = salon if isinstance(salon, int) else salon.pk
    room_id = room.pk if room is not None else None
    if sanctions is None:
        # One query for the three kinds: every page, seat and chat line of the salon passes here.
        where = Q(kind=Sanction.Kind.SITE_BAN) | Q(kind=Sanction.Kind.SALON_BAN, salon_id=salon_id)
        if room is not None:
            where |= Q(kind=Sanction.Kind.ROOM_REMOVAL, room_id=room.pk)
        sanctions = list(Sanction.objects.active(now).filter(where, user_id=user.pk).order_by("created_at"))
    found = {
        s.kind: s
        for s in sanctions
        if s.is_active(now)
        and (
            s.kind == Sanction.Kind.SITE_BAN
            or (s.kind == Sanction.Kind.SALON_BAN and s.salon_id == salon_id)
            or (s.kind == Sanction.Kind.ROOM_REMOVAL and room_id is not None and s.room_id == room_id)
        )
    }
    ban = found.get(Sanction.Kind.SITE_BAN)
    if ban is not None:
        return ServiceError("site_banned", site_ban_message(ban))
    ban = found.get(Sanction.Kind.SALON_BAN)
    if ban is not None:
        return ServiceError(
            "salon_banned",
            _("Bu salona girmeniz yasaklandı. Sebep: %(reason)s. Bitiş: %(until)s.")
            % {"reason": ban.reason, "until": until_text(ban)},
        )
    removal = found.get(Sanction.Kind.ROOM_REMOVAL)
    if removal is not None:
        return ServiceError(
            "room_banned",
            _("Salon sorumlusu sizi bu odadan uzaklaştırdı. Sebep: %(reason)s. Bitiş: %(until)s.")
            % {"reason": removal.reason, "until": until_text(removal)},
        )
    return None


def notices_for(user: Any, now: datetime | None = None, sanctions: list[Sanction] | None = None) -> list[Sanction]:
    """What the banner shows: unseen warnings and mutes in force (the player should know why)."""
    if not getattr(user, "is_authenticated", False):
        return []
    now = now or timezone.now()
    if sanctions is not None:
        return [
            s for s in sanctions
            if s.is_active(now)
            and (s.kind == Sanction.Kind.MUTE or (s.kind == Sanction.Kind.WARNING and s.seen_at is None))
        ][:5]
    warnings = Q(kind=Sanction.Kind.WARNING, seen_at__isnull=True)
    mutes = Q(kind=Sanction.Kind.MUTE)
    return list(
        Sanction.objects.active(now).filter(warnings | mutes, user_id=user.pk).select_related("salon").order_by("created_at")[:5]
    )


# --- the chat filter's rules -------------------------------------------------------------------

_RULES_KEY = "moderation:filter-rules-signature"
_compiled: tuple[str, FilterRules] | None = None


def _signature_from_db() -> str:
    words = WatchedWord.objects.aggregate(n=Count("id"), at=Max("updated_at"))
    allowed = AllowedWord.objects.aggregate(n=Count("id"), at=Max("updated_at"))
    return f"{words['n']}:{words['at']}:{allowed['n']}:{allowed['at']}"


def rules_from_db() -> FilterRules:
    words = [
        FilterWord(w.word, w.category, w.action or None, w.match or None)
        for w in WatchedWord.objects.order_by("pk")
    ]
    return FilterRules(watched_words=words, allow_list=list(AllowedWord.objects.values_list("word", flat=True)))


def current_rules() -> FilterRules:
    """The built-in lists plus staff words, compiled once per change of the staff lists.

    Every process keeps its compiled copy and checks a signature of the two tables (kept in the
    shared cache, recomputed from the database when the cache lost it), so an edit made in one
    process reaches all of them without compiling the rules for every message.
    """
    global _compiled
    signature = cache.get(_RULES_KEY)
    if signature is None:
        signature = _signature_from_db()
        cache.set(_RULES_KEY, signature, 300)
    if _compiled is None or _compiled[0] != signature:
        rules = rules_from_db()
        compiled(rules)
        _compiled = (signature, rules)
    return _compiled[1]


def forget_rules() -> None:
    """After a word list changed (called on commit)."""
    cache.delete(_RULES_KEY)


def try_sentence(text: str) -> FilterResult:
    """What the filter would do to ``text`` with today's lists (the admin's test tool, the command)."""
    return filter_message(text, rules=current_rules())


# --- the queue and a player's history ----------------------------------------------------------


def report_queue(user: Any) -> QuerySet[Report]:
    return scoped(Report.objects.filter(status=Report.Status.OPEN), user).select_related(
        "reporter", "reported", "salon", "room", "table"
    ).order_by("-priority", "-created_at")


def pending_lines(user: Any) -> QuerySet[FilteredLine]:
    return scoped(FilteredLine.objects.filter(review=FilteredLine.Review.PENDING), user).select_related("author", "room")


def player_history(*, player: User, viewer: Any) -> dict[str, Any]:
    """Past reports, sanctions and removals of ``player`` that ``viewer`` may see.

    Salon staff see the site bans of a player whatever salon they came from (they must know the
    player was banned), but other salons' reports and mutes stay with those salons' staff.
    """
    reports = scoped(Report.objects.filter(reported=player), viewer).select_related("reporter", "salon")
    sanctions = Sanction.objects.filter(user=player).select_related("salon", "room", "created_by")
    scope = moderated_salon_ids(viewer)
    if scope is not None:
        sanctions = sanctions.filter(Q(salon__in=scope) | Q(kind=Sanction.Kind.SITE_BAN))
    removals = RoomRemoval.objects.filter(user=player).select_related("room", "removed_by")
    removals_made = RoomRemoval.objects.filter(removed_by=player)
    lines = FilteredLine.objects.filter(author=player)
    if scope is not None:
        removals = removals.filter(room__salon__in=scope)
        removals_made = removals_made.filter(room__salon__in=scope)
        lines = lines.filter(salon__in=scope)
    return {
        "reports": list(reports.order_by("-created_at")[:20]),
        "report_count": reports.count(),
        "open_reports": reports.filter(status=Report.Status.OPEN).count(),
        "sanctions": list(sanctions.order_by("-created_at")[:20]),
        "removals": list(removals.order_by("-created_at")[:20]),
        "removals_made": removals_made.count(),
        "filtered_lines": lines.count(),
    }


def removal_counts(viewer: Any) -> QuerySet[User]:
    """Room owners by the number of removals they made in the viewer's salons."""
    scope = moderated_salon_ids(viewer)
    where = Q(removals_made__isnull=False)
    if scope is not None:
        where &= Q(removals_made__room__salon__in=scope)
    return (
        User.objects.filter(where)
        .annotate(
            removal_count=Count("removals_made", filter=where, distinct=True),
            removed_people=Count("removals_made__user", filter=where, distinct=True),
        )
        .order_by("-removal_count", "username")
    )


def recent_log(viewer: Any, limit: int = 50) -> list[ModerationLog]:
    return list(scoped(ModerationLog.objects.all(), viewer).select_related("actor", "target", "salon")[:limit])
