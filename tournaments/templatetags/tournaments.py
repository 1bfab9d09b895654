"""Small includes other pages show: the lobby strip and the profile line."""

from __future__ import annotations

from django import template

from tournaments import selectors

register = template.Library()


@register.inclusion_tag("tournaments/_lobby_strip.html")
def tournament_strip():
    return {"tournaments": selectors.lobby_strip()}


@register.inclusion_tag("tournaments/_profile_line.html")
def tournament_profile_line(user_id):
    return {"line": selectors.profile_line(user_id)}
