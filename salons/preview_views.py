"""The room form's rules preview: the form's current choices in plain words, as an HTML fragment
the page fetches whenever a field changes (one text, written on the server, in the user's language)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.engine.rules import RuleSet, RuleSetError

from .forms import RoomForm
from .rules_catalog import plain_rules


def rules_preview(request: HttpRequest) -> HttpResponse:
    form = RoomForm(request.GET or None)
    form.is_valid()  # the preview uses whatever parts of the form are valid
    data = getattr(form, "cleaned_data", {})
    try:
        rules = RuleSet.from_dict(form.rules_data()) if data else RuleSet()
    except (RuleSetError, TypeError, ValueError):
        rules = RuleSet()
    lines = plain_rules(rules, turn_seconds=data.get("turn_seconds"))
    return render(request, "salons/_rules_preview.html", {"lines": lines})
