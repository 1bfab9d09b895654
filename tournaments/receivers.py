"""Tournaments listen to the games app (``games.signals``): games never import tournaments."""

from __future__ import annotations

from django.dispatch import receiver

from games import signals

from . import services
from .models import TournamentTable


@receiver(signals.hand_recorded, dispatch_uid="tournaments.hand_recorded")
def score_tournament_table(sender, *, match, match_state, not_present, clock_played, **_signal) -> set[int] | None:
    return services.hand_recorded(match=match, match_state=match_state, not_present=not_present,
                                  clock_played=clock_played)


@receiver(signals.table_is_run_elsewhere, dispatch_uid="tournaments.runs_table")
def runs_table(sender, *, table_id: int, **kwargs) -> bool:
    return TournamentTable.objects.filter(table_id=table_id).exists()
