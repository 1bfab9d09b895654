"""Player pages: the public profile (nickname and stats only) and one's own account page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from . import selectors


def _record(user):
    from games.stats import player_record  # the game record lives with the games

    return player_record(user)


def profile(request: HttpRequest, nickname: str) -> HttpResponse:
    player = selectors.get_player(nickname=nickname)
    return render(
        request,
        "accounts/profile.html",
        {"player": selectors.public_profile(player), "is_me": request.user.pk == player.pk,
         "is_bot": player.is_bot, "record": _record(player)},
    )


@login_required
def my_account(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "accounts/my_account.html",
        {
            "player": selectors.public_profile(request.user),
            "record": _record(request.user),
            "transactions": selectors.recent_chip_transactions(user=request.user),
        },
    )


def email_verification_sent(request: HttpRequest) -> HttpResponse:
    """allauth's code page, unless the sign-up it waits for is gone (removed after 48 hours
    unverified, ``accounts.signups``): allauth would fail on it with a server error, so the visitor
    is told in words and sent to sign up again."""
    from allauth.account.internal.flows.email_verification_by_code import EMAIL_VERIFICATION_CODE_SESSION_KEY
    from allauth.account.internal.stagekit import clear_login
    from allauth.account.internal.userkit import str_to_user_id
    from allauth.account.views import email_verification_sent as allauth_view
    from django.contrib import messages
    from django.shortcuts import redirect
    from django.utils.translation import gettext as _

    from .models import User

    state = request.session.get(EMAIL_VERIFICATION_CODE_SESSION_KEY) or {}
    user_id = state.get("user_id") if isinstance(state, dict) else None
    if user_id and not User.objects.filter(pk=str_to_user_id(user_id)).exists():
        request.session.pop(EMAIL_VERIFICATION_CODE_SESSION_KEY, None)
        clear_login(request)
        messages.error(request, _("Bu kayıt 48 saat içinde doğrulanmadığı için silindi; yeniden kaydolabilirsiniz."))
        return redirect("account_signup")
    return allauth_view(request)
