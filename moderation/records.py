"""Entries other apps write to the moderation log without going through moderation's services
(salons' services must not import them: ``tests/engine/test_import_graph.py``)."""

from __future__ import annotations

from typing import Any

from .models import ModerationLog


def record_password_attack(*, room: Any, guessers: list[str]) -> ModerationLog:
    """A private room's password limit was reached: the salon's staff read it in the moderation log
    (the room, its owner, the nicknames that guessed wrong; never an address). Written by
    ``salons.services.enter_room`` once per window."""
    return ModerationLog.objects.create(
        action=ModerationLog.Action.PASSWORD_ATTACK, target_id=room.owner_id, salon_id=room.salon_id,
        reason=str(room.name)[:200], details={"room": room.pk, "guessers": list(guessers)[:20]},
    )
