"""Numbers as players read them: a real minus sign (U+2212), never a hyphen (issue 19, item 5)."""

from __future__ import annotations

from django import template

register = template.Library()

MINUS = "\u2212"


@register.filter
def signed(value) -> str:
    """+2, −2 or 0."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return ""
    return f"+{number}" if number > 0 else f"{MINUS}{-number}" if number < 0 else "0"
