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
