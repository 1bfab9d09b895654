"""Every change to a tournament, one function per use case (DESIGN.md, layer 2).

Each runs in a transaction and locks the tournament row first; the ones Celery calls (``step`` and
what it dispatches to) are idempotent: they look at what the database says is due and do nothing
when it was done already, so a task that runs twice, or dies half-way (its transaction rolls back),
changes nothing twice. Tables and matches are made through the live-play services; pushes go out
after commit (``tournaments.events``).

The live-play side calls ``hand_recorded`` from inside the transaction that records a finished
hand, so a table's result and the tournament's standings are written together with the hand.

The use cases live by concern, and every name stays importable from here: creating tournaments
and schedules (``tournaments.creation``), a player's entry (``tournaments.entries``), the rounds
the sweep seats (``tournaments.rounds``), a table's result (``tournaments.results``), removals
(``tournaments.removals``), finishing and cancelling (``tournaments.finishing``); what they share
is in ``tournaments.service_common``. Here is the sweep the beat runs.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.utils import timezone

from accounts.errors import ServiceError
from tournaments.creation import (
    MAX_PLAYERS_LIMIT,
    SCHEDULE_FIELDS,
    TURN_SECONDS_RANGE,
    allow_staff_to_play,
    create_recurring,
    create_schedule,
    create_scheduled,
    create_tournament,
    stop_schedule,
)
from tournaments.entries import leave, pause, register, resume, unregister
from tournaments.finishing import arena_players_who_played, cancel, finish, standings
from tournaments.models import Tournament
from tournaments.removals import disqualify, remove_banned
from tournaments.results import ROUND_PAUSE_SECONDS, hand_recorded
from tournaments.rounds import (
    ARENA_END_RECHECK_SECONDS,
    ARENA_MAX_WAIT_SECONDS,
    ARENA_RECHECK_SECONDS,
    seat_arena,
    seat_next_round,
    start,
    step,
)
from tournaments.service_common import REASON_MAX, TournamentError, can_manage, is_site_admin

__all__ = [
    "ServiceError",
    "TournamentError",
    "is_site_admin",
    "can_manage",
    "allow_staff_to_play",
    "create_tournament",
    "create_schedule",
    "create_recurring",
    "stop_schedule",
    "create_scheduled",
    "register",
    "unregister",
    "pause",
    "resume",
    "leave",
    "step",
    "start",
    "seat_next_round",
    "seat_arena",
    "hand_recorded",
    "disqualify",
    "remove_banned",
    "standings",
    "arena_players_who_played",
    "finish",
    "cancel",
    "sweep",
    "ROUND_PAUSE_SECONDS",
    "ARENA_MAX_WAIT_SECONDS",
    "ARENA_RECHECK_SECONDS",
    "ARENA_END_RECHECK_SECONDS",
    "TURN_SECONDS_RANGE",
    "MAX_PLAYERS_LIMIT",
    "REASON_MAX",
    "SCHEDULE_FIELDS",
]

log = logging.getLogger(__name__)


def sweep(*, now: datetime | None = None) -> int:
    """What the beat runs: schedules' next tournaments, banned players out, every due step.
    Whatever died half-way is picked up here, from the database."""
    now = now or timezone.now()
    done = create_scheduled(now=now)
    done += remove_banned(now=now)
    due = list(Tournament.objects.filter(status__in=[Tournament.Status.SCHEDULED, Tournament.Status.RUNNING],
                                         next_step_at__lte=now).order_by("next_step_at").values_list("pk", flat=True))
    for tournament_id in due:
        try:
            done += step(tournament_id=tournament_id, now=now) not in ("nothing", "not_due")
        except Exception:  # one broken tournament must not stop the others; the next tick retries it
            log.exception("tournament %s: step failed", tournament_id)
    return done
