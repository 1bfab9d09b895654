from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Hesaplar")

    def ready(self) -> None:
        from django.db.models.signals import pre_save

        from . import signals  # noqa: F401  (connects the welcome-chips ledger entry)
        from .usertext import strip_invisible_text

        # Stored user text never carries bidirectional controls or invisible characters.
        pre_save.connect(strip_invisible_text, dispatch_uid="accounts.usertext.strip_invisible_text")
