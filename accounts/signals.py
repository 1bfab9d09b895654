"""Every new account, however it is created (sign-up, admin, shell, tests), opens its chip ledger."""

from __future__ import annotations

from django.db.models.signals import post_save
from django.dispatch import receiver

from .models import User
from .services import record_welcome_chips


@receiver(post_save, sender=User, dispatch_uid="accounts_welcome_chips")
def open_chip_ledger(sender: type[User], instance: User, created: bool, raw: bool = False, **kwargs: object) -> None:
    if created and not raw:
        record_welcome_chips(user=instance)
