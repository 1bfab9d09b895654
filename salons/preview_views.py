"""The room form's rules preview: the form's current choices in plain words, as an HTML fragment
the page fetches whenever a field changes (one text, written on the server, in the user's language)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.engine.errors import EngineError
from games.engine.game_types import game_type, game_type_of
from games.engine.rules import RuleSetError

from .forms import RoomForm
from .rules_catalog import plain_rules


def preview_rules(form: RoomForm) -> Any:
    """The rules the form stands for, read by the chosen game's engine; that game's defaults where
    the choices do not make a rule set (the preview uses whatever parts of the form are valid)."""
    game = game_type(form.chosen_game())
    if not getattr(form, "cleaned_data", None):
        return game.rules({})
    try:
        data = form.rules_data()
        return game_type_of(data).rules(data)
    except (RuleSetError, EngineError, TypeError, ValueError, KeyError):
        return game.rules({})


def rules_preview(request: HttpRequest) -> HttpResponse:
    form = RoomForm(request.GET or None)
    form.is_valid()
    data = getattr(form, "cleaned_data", {})
    lines = plain_rules(preview_rules(form), turn_seconds=data.get("turn_seconds"))
    return render(request, "salons/_rules_preview.html", {"lines": lines})
