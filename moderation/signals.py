"""Signals the moderation app listens to: logins (to know every session of a user, so a site ban
can end them) and new salon moderators (who need the admin to reach their queue)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from salons.models import SalonStaff

from . import services


@receiver(user_logged_in, dispatch_uid="moderation_remember_session")
def _remember_session(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    if session is not None and user is not None:
        services.remember_session(user=user, session_key=session.session_key)


@receiver(user_logged_out, dispatch_uid="moderation_forget_session")
def _forget_session(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    if session is not None:
        services.forget_session(session_key=session.session_key)


@receiver(post_save, sender=SalonStaff, dispatch_uid="moderation_salon_staff_admin_access")
def _grant_admin_access(sender: Any, instance: SalonStaff, created: bool, raw: bool = False, **kwargs: Any) -> None:
    if created and not raw:
        transaction.on_commit(lambda: services.grant_admin_access(staff=instance))
