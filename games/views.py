"""The table page: a shell that the table script fills from the socket's frames."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.consumers import table_access


@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    from salons.models import Table

    table = Table.objects.select_related("room", "room__salon").filter(pk=table_id).first()
    if table is None:
        raise Http404
    if table_access(request.user, table_id) is not None:
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
    }

