"""Every new account, however it is created (sign-up, admin, shell, tests), opens its chip ledger."""

from __future__ import annotations

from django.db.models.signals import post_save
from django.dispatch import receiver

from .models import User
from .services import password_changed, record_welcome_chips


@receiver(post_save, sender=User, dispatch_uid="accounts_welcome_chips")
def open_chip_ledger(sender: type[User], instance: User, created: bool, raw: bool = False, **kwargs: object) -> None:
    if created and not raw:
        record_welcome_chips(user=instance)


@receiver(post_save, sender=User, dispatch_uid="accounts_password_changed")
def end_other_sessions_on_new_password(sender: type[User], instance: User, created: bool, raw: bool = False,
                                       **kwargs: object) -> None:
    # ``set_password`` keeps the raw password in ``_password`` until ``AbstractBaseUser.save`` has
    # sent this signal: every path that changes a password (allauth's change, set and reset forms,
    # the admin, ``manage.py changepassword``) passes here.
    if not created and not raw and getattr(instance, "_password", None) is not None:
        password_changed(user=instance)
