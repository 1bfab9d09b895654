"""Signals the moderation app sends to the apps it must not import (games sits above it and
listens; ``moderation.signals`` holds what moderation itself listens to)."""

from __future__ import annotations

from django.dispatch import Signal

#: A site ban committed for ``user_id``: their running games go on with the server playing for them.
site_ban_committed = Signal()
