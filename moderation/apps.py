from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = _("Moderasyon")

    def ready(self) -> None:
        from accounts.validators import register_nickname_check

        from . import services, signals  # noqa: F401  (signals: sessions, salon staff)

        # Nicknames are public: the chat filter's lists apply to them at sign-up.
        register_nickname_check(services.check_nickname)
