"""Player-facing moderation: filing a report (table, room, profile) and closing a warning banner.

Thin views: they parse the request and call ``moderation.services``. The answer to a report
is only ever "received" — never what staff decided (reports about others stay between staff).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.errors import ServiceError
from accounts.models import User
from salons.models import Room, Table

from . import services
from .forms import ReportForm


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "") or request.headers.get("X-Requested-With") == "fetch"


def _back(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return fallback


@login_required
def report(request: HttpRequest, nickname: str | None = None) -> HttpResponse:
    """GET: the form (from a profile or room link). POST: file the report (also from the table's script)."""
    if request.method != "POST":
        player = get_object_or_404(User, username__iexact=nickname or "", is_active=True)
        initial = {"reported": player.username, "room": request.GET.get("room"), "table": request.GET.get("table")}
        form = ReportForm(initial=initial)
        referer = request.headers.get("Referer", "")
        if not url_has_allowed_host_and_scheme(referer, allowed_hosts={request.get_host()}):
            referer = ""
        back = _back(request, referer or reverse("accounts:profile", args=[player.username]))
        return render(request, "moderation/report_form.html", {"form": form, "player": player, "next": back})
    form = ReportForm(request.POST)
    fallback = _back(request, "/")
    if not form.is_valid():
        error = ServiceError("invalid", _("Şikayet formu eksik ya da hatalı."))
        return _refused(request, error, fallback)
    data = form.cleaned_data
    reported = User.objects.filter(username__iexact=data["reported"], is_active=True).first()
    room = Room.objects.filter(pk=data["room"]).first() if data.get("room") else None
    table = Table.objects.select_related("room").filter(pk=data["table"]).first() if data.get("table") else None
    try:
        if reported is None:
            raise ServiceError("no_user", _("Böyle bir oyuncu yok."))
        services.file_report(
            reporter=request.user, reported=reported, reason=data["reason"], note=data["note"], room=room, table=table
        )
    except ServiceError as error:
        return _refused(request, error, fallback)
    text = _("Şikayetiniz alındı; salon sorumluları inceleyecek. Teşekkürler.")
    if _wants_json(request):
        return JsonResponse({"ok": True, "message": text})
    messages.success(request, text)
    return redirect(fallback)


def _refused(request: HttpRequest, error: ServiceError, fallback: str) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"ok": False, "error": error.to_dict()}, status=400)
    messages.error(request, error.message)
    return redirect(fallback)


@login_required
@require_POST
def warning_seen(request: HttpRequest, sanction_id: int) -> HttpResponse:
    services.acknowledge_warning(user=request.user, sanction_id=sanction_id)
    if _wants_json(request):
        return JsonResponse({"ok": True})
    return redirect(_back(request, "/"))
