"""Every text a user writes is stored without invisible characters (issue 10, item 13).

A right-to-left override (U+202E) makes a stored "ritkis" render as an insult, a zero-width
space splits a word for the eye; the chat filter reads through both, but what is stored is what
everyone's browser shows. So every ``CharField``/``TextField`` of this project's models (chat,
nicknames, room names, reports, reasons...) loses bidirectional controls, zero-width and other
invisible format characters on save, whatever path wrote it. Fields with fixed choices are left
alone. ``QuerySet.update`` bypasses this: services write user text through ``save``/``create``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import models

from moderation.chatfilter.normalize import strip_invisible  # plain Python, no Django import

_text_fields: dict[type, tuple[str, ...]] = {}


@cache
def is_project_app(label: str) -> bool:
    """An app of this project: its code lives in the repository (not in the virtualenv or site-packages).

    Derived, not listed: a list left out ``tournaments`` once, and its names were stored with
    right-to-left overrides. A new app of the project is covered the day it is added."""
    try:
        path = Path(apps.get_app_config(label).path).resolve()
    except LookupError:
        return False
    root = Path(settings.BASE_DIR).resolve()
    return path.is_relative_to(root) and ".venv" not in path.relative_to(root).parts and "site-packages" not in path.parts


def _fields_of(model: type[models.Model]) -> tuple[str, ...]:
    fields = _text_fields.get(model)
    if fields is None:
        fields = tuple(
            field.attname for field in model._meta.concrete_fields
            if isinstance(field, (models.CharField, models.TextField)) and not field.choices
        )
        _text_fields[model] = fields
    return fields


def strip_invisible_text(sender: type[models.Model], instance: models.Model, raw: bool = False, **_: Any) -> None:
    """``pre_save`` receiver for every model of the project's apps."""
    if raw or not is_project_app(sender._meta.app_label):
        return
    for name in _fields_of(sender):
        value = getattr(instance, name, None)
        if isinstance(value, str) and not value.isascii():
            cleaned = strip_invisible(value)
            if cleaned != value:
                setattr(instance, name, cleaned)
