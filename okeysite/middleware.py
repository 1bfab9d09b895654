"""Request guards that belong before any view."""

from __future__ import annotations

from urllib.parse import unquote

from django.http import HttpResponseBadRequest
from django.utils.translation import gettext as _


class RejectNulBytesMiddleware:
    """A NUL character in the path or the query string is refused with a 400.

    PostgreSQL cannot store or compare strings holding NUL, so ``/players/%00/`` or ``?q=%00``
    reached the database as a ValueError and a 500. No address of this site has one legitimately.
    (Form fields are guarded by Django's own ``ProhibitNullCharactersValidator``.)
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or "\x00" in request.path_info or "\x00" in unquote(query):
            response = HttpResponseBadRequest(_("Adreste geçersiz bir karakter var."), content_type="text/plain; charset=utf-8")
            return response
        return self.get_response(request)
