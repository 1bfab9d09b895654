"""A visitor's practice hand (``games.guest_practice``): the page and its two JSON calls.

Thin like every view: read the cookie and the client address, call the service, answer JSON. No
session is touched (an anonymous session would be a database row)."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import guest_practice
from games.errors import GameError
from games.views import table_strings


def _address(request: HttpRequest) -> str:
    # okeysite.proxy has already put the client's address (behind trusted proxies) here.
    return request.META.get("REMOTE_ADDR") or "unknown"


def _error(error: GameError) -> JsonResponse:
    status = 429 if error.code in ("guest_practice_limit", "rate_limited") else 400
    if error.code == "guest_practice_gone":
        status = 410
    return JsonResponse({"ok": False, "error": error.to_dict()}, status=status)


def guest_strings() -> dict[str, str]:
    return {
        **table_strings(),
        "your_turn_draw": _("Sıra sizde: ortadan ya da soldaki oyuncunun attığından bir taş çekin."),
        "your_turn_discard": _("Bir taş seçip atın (ya da elinizi bitirin)."),
        "bots_playing": _("Botlar oynuyor…"),
        "you_won": _("Kazandınız! Eli bitirdiniz."),
        "bot_won": _("%(name)s eli bitirdi."),
        "pile_ran_out": _("Ortadaki taşlar bitti; el berabere."),
    }


def page(request: HttpRequest) -> HttpResponse:
    token = request.COOKIES.get(guest_practice.COOKIE)
    return render(request, "games/guest_practice.html", {
        "strings": guest_strings(), "state": guest_practice.current(token),
    })


def _set_cookie(response: HttpResponse, token: str) -> None:
    from django.conf import settings

    response.set_cookie(guest_practice.COOKIE, token, max_age=guest_practice.STATE_SECONDS, httponly=True,
                        samesite="Lax", secure=bool(settings.SESSION_COOKIE_SECURE))


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    try:
        token, state = guest_practice.start(address=_address(request))
    except GameError as error:
        return _error(error)
    response = JsonResponse({"ok": True, "state": state})
    _set_cookie(response, token)
    return response


@require_POST
def move(request: HttpRequest) -> HttpResponse:
    try:
        body = json.loads(request.body[:2048] or b"{}")
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    try:
        state = guest_practice.play(token=request.COOKIES.get(guest_practice.COOKIE), address=_address(request),
                                    action=body.get("type"), move=body.get("move"), tile=body.get("tile"),
                                    source=body.get("source"))
    except GameError as error:
        return _error(error)
    return JsonResponse({"ok": True, "state": state})
