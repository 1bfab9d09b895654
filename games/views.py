"""The table page: a shell that the table script fills from the socket's frames."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import selectors
from games.consumers import table_access


@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    from salons.models import Table

    table = Table.objects.select_related("room", "room__salon").filter(pk=table_id).first()
    if table is None:
        raise Http404
    if table_access(request.user, table_id, table=table) is not None:
        return render(request, "games/forbidden.html", {"table": table}, status=403)
    return render(request, "games/table.html", {"table": table, "room": table.room, "strings": table_strings()})


def table_strings() -> dict[str, str]:
    """Texts the table script shows, translated on the server (Turkish first, English too)."""
    return {
        "connected": _("Bağlı"),
        "connecting": _("Bağlanıyor…"),
        "disconnected": _("Bağlantı koptu, yeniden bağlanılıyor…"),
        "your_turn": _("Sıra sizde"),
        "turn_of": _("Sıra: %(name)s"),
        "waiting": _("Oyuncular bekleniyor"),
        "empty_seat": _("Boş"),
        "sit": _("Otur"),
        "leave": _("Kalk"),
        "ready": _("hazır"),
        "away": _("uzakta"),
        "hand_over": _("El bitti"),
        "match_over": _("Maç bitti"),
        "winner": _("Kazanan: %(names)s"),
        "finished_by": _("%(name)s eli bitirdi"),
        "pile_out": _("Ortadaki taşlar bitti; el yarım kaldı."),
        "pairs": _("çift"),
        "sets": _("seri"),
        "okey_finish": _("okey atarak"),
        "seconds": _("%(n)s sn"),
        "indicator_shown": _("%(name)s göstergeyi gösterdi"),
        "declared_pairs": _("%(name)s çifte gidiyor"),
        "drew_pile": _("%(name)s ortadan çekti"),
        "drew_discard": _("%(name)s yerden %(tile)s aldı"),
        "discarded": _("%(name)s %(tile)s attı"),
        "select_tile": _("Önce bir taş seçin."),
        "bots": _("(otomatik)"),
        "bot": _("bot"),
    }



def leaderboard(request: HttpRequest, salon_slug: str | None = None) -> HttpResponse:
    from salons.models import Salon

    salon = None
    if salon_slug is not None:
        salon = Salon.objects.filter(slug=salon_slug).first()
        if salon is None:
            raise Http404
    return render(request, "games/leaderboard.html", {
        "rows": selectors.leaderboard(salon=salon),
        "salon": salon,
        "salons": Salon.objects.order_by("position", "name"),
    })


def hand_history(request: HttpRequest, nickname: str) -> HttpResponse:
    from django.contrib.auth import get_user_model

    player = get_user_model().objects.filter(username__iexact=nickname).first()
    if player is None:
        raise Http404
    return render(request, "games/hand_history.html", {
        "player": player, "hands": selectors.finished_hands_of(user=player),
    })


def hand_replay(request: HttpRequest, hand_id: int) -> HttpResponse:
    from games.models import Hand

    hand = Hand.objects.select_related("match", "match__table", "match__table__room").filter(pk=hand_id).first()
    if hand is None or hand.status != Hand.Status.OVER:
        raise Http404
    data = selectors.replay_frames(hand=hand, viewer=request.user)
    return render(request, "games/replay.html", {"hand": hand, "replay": data, "strings": table_strings()})


@login_required
@require_POST
def practice(request: HttpRequest) -> HttpResponse:
    """Three bots and the player, started at once: the quickest way to a game."""
    from django.contrib import messages

    from games import services

    try:
        table = services.start_practice(user=request.user)
    except services.GameError as error:
        messages.error(request, str(error))
        return redirect("home")
    return redirect("games:table", table_id=table.id)


def hand_proof(request: HttpRequest, hand_id: int) -> HttpResponse:
    """The revealed deck, salt and moves of a finished hand as JSON, for ``python -m games.engine verify``."""
    from django.http import JsonResponse

    from games.models import Hand

    hand = Hand.objects.filter(pk=hand_id, status=Hand.Status.OVER).first()
    if hand is None:
        raise Http404
    return JsonResponse(selectors.fair_deal_proof(hand), json_dumps_params={"ensure_ascii": False})
