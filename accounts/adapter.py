"""allauth hooks for nicknames, and the refusal of site-banned players at sign-in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


@dataclass(frozen=True)
class SiteName:
    """What e-mails call the site: its name, never the host and port a request came in on."""

    name: str
    domain: str

    def __str__(self) -> str:
        return self.name


def site_name() -> SiteName:
    name = getattr(settings, "SITE_NAME", "Okey Salonu")
    return SiteName(name=name, domain=name)


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        # allauth greets "from <host:port>" without the sites framework: name the site instead.
        super().send_mail(template_prefix, email, {**context, "current_site": site_name()})

    def set_password(self, user: Any, password: str) -> None:
        # Only the password column: a full save would write back every column as loaded before the
        # (slow) hashing, and game columns are never written by a save anyway (``User.save``).
        user.set_password(password)
        user.save(update_fields=["password"])

    def clean_username(self, username: str, shallow: bool = False) -> str:
        # Surrounding spaces are a typing slip, not part of the nickname.
        return super().clean_username(username.strip(), shallow=shallow)

    def pre_login(self, request: HttpRequest, user: Any, **kwargs: Any) -> HttpResponse | None:
        """A site-banned player is told why and until when, instead of being signed in.

        The moderation backends refuse the password itself; allauth keeps the user aside as it
        does for inactive accounts, so this hook runs and can say why (every login path of
        allauth passes here: password, e-mail confirmation, sign-up).
        """
        from moderation import selectors as moderation_selectors

        ban = moderation_selectors.active_site_ban(user)
        if ban is not None:
            from allauth.account.internal.stagekit import clear_login

            clear_login(request)
            return render(
                request,
                "moderation/login_refused.html",
                {"message": moderation_selectors.site_ban_message(ban)},
                status=403,
            )
        return super().pre_login(request, user, **kwargs)
