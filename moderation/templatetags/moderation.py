"""``{% moderation_notices %}``: the warning and mute banner on every page (templates/base.html).

A template tag rather than a context processor: one query, only on pages that show the banner.
"""

from __future__ import annotations

from typing import Any

from django import template

from .. import selectors

register = template.Library()


@register.inclusion_tag("moderation/_notices.html", takes_context=True)
def moderation_notices(context: dict[str, Any]) -> dict[str, Any]:
    request = context.get("request")
    if request is None:
        return {"notices": [], "request": None}
    user = getattr(request, "user", None)
    return {"notices": selectors.notices_for(user, sanctions=selectors.request_sanctions(request)), "request": request}


@register.simple_tag
def report_reasons() -> list[tuple[str, Any]]:
    """The reasons a player may pick when reporting (the table page's report dialog)."""
    from ..models import Report

    return list(Report.Reason.choices)
