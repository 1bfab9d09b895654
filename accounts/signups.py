"""Sign-ups that never verify their e-mail address stop holding their nickname (issue 18, item 6).

A sign-up with a made-up address is never verified, yet it used to block its nickname and every
look-alike of it for good (and twenty such sign-ups a minute per address are allowed). Here a
sign-up holds its nickname only while its code can still arrive: ``UNVERIFIED_SIGNUP_HOURS``
(48). After that an account that

* has e-mail addresses, none of them verified (accounts made in the shell or the admin, and the
  bots, have none: they are never touched),
* never signed in, is not a bot, not staff, not a site admin,
* and is *empty*: deleting it would remove nothing but its addresses (with their pending codes)
  and its welcome chips — no seat, room, match, report, log line, ledger line or anything a new
  model may add (checked through Django's own deletion collector, so a new relation counts too)

no longer holds its nickname. The next sign-up with that nickname or a look-alike deletes it in
its own transaction (``free_nickname``, from the sign-up form), and the beat task
``accounts.remove_stale_signups`` deletes the rest every hour, which frees their addresses as well.
An unverified account that is not empty keeps its nickname: staff decide about it.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.db import router, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.db.models.deletion import Collector, ProtectedError, RestrictedError
from django.utils import timezone

from .models import ChipTransaction, User
from .nicknames import nickname_key

log = logging.getLogger(__name__)

UNVERIFIED_SIGNUP_HOURS = 48
BATCH = 500


def hold_hours() -> float:
    return float(getattr(settings, "UNVERIFIED_SIGNUP_HOURS", UNVERIFIED_SIGNUP_HOURS))


def stale_unverified(now: datetime | None = None) -> QuerySet[User]:
    """Accounts past the hold that never verified an address and never signed in."""
    cutoff = (now or timezone.now()) - timedelta(hours=hold_hours())
    addresses = EmailAddress.objects.filter(user=OuterRef("pk"))
    return (User.objects.filter(date_joined__lt=cutoff, last_login__isnull=True, is_bot=False, is_staff=False,
                                is_superuser=False)
            .filter(Exists(addresses)).exclude(Exists(addresses.filter(verified=True))))


def is_empty(user: User) -> bool:
    """Would deleting ``user`` remove nothing but their e-mail addresses and welcome chips?

    Asks Django's deletion collector, which knows every relation to the user (cascades, SET_NULL,
    PROTECT), so a relation added later is a trace without anyone listing it here."""
    collector = Collector(using=router.db_for_write(User), origin=user)
    try:
        collector.collect([user])
    except (ProtectedError, RestrictedError):
        return False
    for model, instances in collector.data.items():
        if model is User:
            if {instance.pk for instance in instances} != {user.pk}:
                return False
        elif not _only_sign_up_rows(model, instances):
            return False
    for rows in collector.fast_deletes:
        if not _only_sign_up_rows(rows.model, rows):
            return False
    for objs_list in collector.field_updates.values():
        for objs in objs_list:
            if isinstance(objs, QuerySet) and objs.exists() or not isinstance(objs, QuerySet) and len(objs):
                return False
    return True


def _only_sign_up_rows(model: type, rows) -> bool:
    if model._meta.app_label == "account":  # allauth's addresses and their pending confirmations
        return True
    if model is ChipTransaction:
        if isinstance(rows, QuerySet):
            return not rows.exclude(kind=ChipTransaction.Kind.WELCOME).exists()
        return all(row.kind == ChipTransaction.Kind.WELCOME for row in rows)
    if isinstance(rows, QuerySet):
        return not rows.exists()
    return not rows


def holds_nickname(user: User, now: datetime | None = None) -> bool:
    """Does this account keep its nickname (and its look-alikes) from others?"""
    return not (stale_unverified(now).filter(pk=user.pk).exists() and is_empty(user))


def nickname_holder(username: str, now: datetime | None = None) -> User | None:
    """The account that keeps ``username`` (or a look-alike) from a new sign-up, if any."""
    for holder in User.objects.filter(Q(nickname_key=nickname_key(username)) | Q(username__iexact=username)):
        if holds_nickname(holder, now):
            return holder
    return None


def _holders_of_address(email: str) -> QuerySet[User]:
    addresses = EmailAddress.objects.filter(email__iexact=email).values("user_id")
    return User.objects.filter(Q(email__iexact=email) | Q(pk__in=addresses))


def address_is_free(email: str, now: datetime | None = None) -> bool:
    """Is ``email`` held by nobody but stale, empty, unverified sign-ups (or by nobody at all)?"""
    return not any(holds_nickname(holder, now) for holder in _holders_of_address(email))


def _remove_if_stale(user_id: int, now: datetime | None) -> bool:
    """Inside a transaction: lock the account and its addresses, check again, delete."""
    locked = stale_unverified(now).select_for_update().filter(pk=user_id).first()
    if locked is None:
        return False
    # Locked with the account: a verification committing now is seen here, and waits for us otherwise.
    if any(address.verified for address in EmailAddress.objects.select_for_update().filter(user=locked)):
        return False
    if not is_empty(locked):
        return False
    log.info("removing unverified sign-up %s (joined %s)", locked.pk, locked.date_joined.isoformat())
    locked.delete()
    return True


def free_nickname(username: str, email: str = "", now: datetime | None = None) -> int:
    """For a sign-up, in its transaction: delete stale, empty, unverified holders of ``username`` and
    its look-alikes (and of ``email``), so the new account can take them. Returns how many went."""
    holders = User.objects.filter(Q(nickname_key=nickname_key(username)) | Q(username__iexact=username))
    if email:
        holders = holders | _holders_of_address(email)
    removed = 0
    with transaction.atomic():
        for user_id in sorted(set(holders.values_list("pk", flat=True))):
            removed += _remove_if_stale(user_id, now)
    return removed


def remove_stale_unverified(now: datetime | None = None) -> int:
    """The periodic clean-up: every stale, empty, unverified account, one transaction each
    (idempotent; a second run finds nothing). Returns how many were removed."""
    removed = 0
    for user_id in list(stale_unverified(now).order_by("pk").values_list("pk", flat=True)[:BATCH]):
        with transaction.atomic():
            removed += _remove_if_stale(user_id, now)
    if removed:
        log.info("removed %d unverified sign-ups older than %s hours", removed, hold_hours())
    return removed
