""""Hemen oyna" (salons.quickplay): a POST from the lobby's button, then the table page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.errors import ServiceError

from .quickplay import quick_play


@login_required
@require_POST
def quick_play_view(request: HttpRequest) -> HttpResponse:
    try:
        found = quick_play(user=request.user, scoring=str(request.POST.get("scoring") or "")[:16])
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("home")
    table = found.table
    messages.success(request, _("%(room)s odasında, %(number)d numaralı masada oturuyorsunuz. Masa dolunca maç başlar; "
                                "kalkmak için “Kalk” düğmesine basın.") % {"room": table.room.name, "number": table.number})
    return redirect(table.get_absolute_url())
