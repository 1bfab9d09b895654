"""Player pages: the public profile (nickname and stats only) and one's own account page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from . import selectors


def profile(request: HttpRequest, nickname: str) -> HttpResponse:
    player = selectors.get_player(nickname=nickname)
    return render(
        request,
        "accounts/profile.html",
        {"player": selectors.public_profile(player), "is_me": request.user.pk == player.pk},
    )


@login_required
def my_account(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "accounts/my_account.html",
        {
            "player": selectors.public_profile(request.user),
            "transactions": selectors.recent_chip_transactions(user=request.user),
        },
    )
