"""Tournament pages: thin, every change through ``tournaments.services``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from salons.models import Salon
from tournaments import selectors, services
from tournaments.forms import ReasonForm, TournamentForm
from tournaments.models import Format, Tournament


def tournament_list(request: HttpRequest) -> HttpResponse:
    context = selectors.tournament_lists()
    context["manageable"] = [salon for salon in Salon.objects.filter(is_active=True)
                             if services.can_manage(request.user, salon.pk)]
    return render(request, "tournaments/list.html", context)


def _detail_context(request: HttpRequest, tournament: Tournament) -> dict:
    entry = selectors.entry_of(tournament, request.user)
    return {
        "tournament": tournament,
        "entry": entry,
        "standings": selectors.standings_rows(tournament),
        "rounds": selectors.rounds(tournament),
        "can_manage": services.can_manage(request.user, tournament.salon_id),
        "is_arena": tournament.format == Format.ARENA,
        "pool": selectors.prize_pool(tournament),
        "now": timezone.now(),
    }


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("salon"), pk=tournament_id)
    return render(request, "tournaments/detail.html", _detail_context(request, tournament))


def standings_fragment(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """What the page re-reads when the socket says the standings changed."""
    tournament = get_object_or_404(Tournament.objects.select_related("salon"), pk=tournament_id)
    return render(request, "tournaments/_live.html", _detail_context(request, tournament))


ACTIONS = {
    "register": lambda request, tid: services.register(user=request.user, tournament_id=tid),
    "unregister": lambda request, tid: services.unregister(user=request.user, tournament_id=tid),
    "pause": lambda request, tid: services.pause(user=request.user, tournament_id=tid),
    "resume": lambda request, tid: services.resume(user=request.user, tournament_id=tid),
    "leave": lambda request, tid: services.leave(user=request.user, tournament_id=tid),
}
DONE = {
    "register": lambda: _("Turnuvaya kaydoldunuz."),
    "unregister": lambda: _("Kaydınız silindi; giriş ücreti iade edildi."),
    "pause": lambda: _("Ara verdiniz; döndüğünüzde yeniden masaya oturtulursunuz."),
    "resume": lambda: _("Tekrar hoş geldiniz; birazdan masanız hazır."),
    "leave": lambda: _("Turnuvadan ayrıldınız; puanlarınız sıralamada kalır."),
    "disqualify": lambda: _("Oyuncu turnuvadan çıkarıldı."),
    "cancel": lambda: _("Turnuva iptal edildi; giriş ücretleri iade edildi."),
    "stop_schedule": lambda: _("Tekrar durduruldu; yeni turnuva açılmayacak. Açılmış olanlar sürüyor."),
}


@login_required
@require_POST
def tournament_action(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    back = tournament.get_absolute_url()
    try:
        if action in ACTIONS:
            ACTIONS[action](request, tournament.pk)
        elif action == "stop_schedule":
            if tournament.schedule_id is None:
                raise Http404
            services.stop_schedule(actor=request.user, schedule_id=tournament.schedule_id)
        elif action in ("disqualify", "cancel"):
            form = ReasonForm(request.POST)
            if not form.is_valid():
                messages.error(request, _("Sebep 3–200 karakter olmalı."))
                return redirect(back)
            if action == "cancel":
                services.cancel(actor=request.user, tournament_id=tournament.pk, reason=form.cleaned_data["reason"])
            else:
                player = get_user_model().objects.filter(username__iexact=form.cleaned_data["nickname"]).first()
                if player is None:
                    messages.error(request, _("Böyle bir oyuncu yok."))
                    return redirect(back)
                services.disqualify(actor=request.user, tournament_id=tournament.pk, user=player,
                                    reason=form.cleaned_data["reason"])
        else:
            raise Http404
    except services.TournamentError as error:
        messages.error(request, error.message)
    except services.ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, DONE[action]())
    return redirect(back)


@login_required
def tournament_create(request: HttpRequest, salon_slug: str) -> HttpResponse:
    salon = get_object_or_404(Salon, slug=salon_slug, is_active=True)
    if not services.can_manage(request.user, salon.pk):
        return render(request, "tournaments/forbidden.html", status=403)
    form = TournamentForm(request.POST or None, site_admin=services.is_site_admin(request.user))
    if request.method == "POST" and form.is_valid():
        try:
            if form.weekdays():
                tournament = services.create_recurring(actor=request.user, salon=salon, weekdays=form.weekdays(),
                                                       starts_at=form.cleaned_data["starts_at"], **form.service_fields())
            else:
                tournament = services.create_tournament(actor=request.user, salon=salon,
                                                        starts_at=form.cleaned_data["starts_at"], **form.service_fields())
        except services.TournamentError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Turnuva açıldı."))
            return redirect(tournament.get_absolute_url())
    return render(request, "tournaments/form.html", {"form": form, "salon": salon})


def notice(request: HttpRequest) -> JsonResponse:
    """For the site notice script of every page: the player's tournaments starting soon or running."""
    return JsonResponse({**selectors.notice_for(request.user), "strings": {
        "starts_in": _("Kayıtlı olduğunuz %(name)s %(minutes)s dakika içinde başlıyor."),
        "starting": _("Kayıtlı olduğunuz %(name)s başlıyor."),
        "running": _("Kayıtlı olduğunuz %(name)s sürüyor."),
        "to_table": _("Masanıza gidin"),
        "open": _("Turnuva sayfası"),
        "table_ready": _("Turnuva masanız hazır; masaya götürülüyorsunuz."),
    }})
