"""Celery: the tournament sweep (beat, every ``TOURNAMENT_SWEEP_SECONDS``).

One task drives every tournament, as the turn clock drives every table: it creates the next
tournament of each schedule, removes banned players and runs each tournament's overdue step
(``Tournament.next_step_at``: start, next round, seat free arena players, finish). Every step is
idempotent and transactional, so a worker that dies half-way leaves nothing half-done, and the
next tick resumes from the database.
"""

from __future__ import annotations

from celery import shared_task

from tournaments import services


@shared_task(name="tournaments.sweep", ignore_result=True)
def sweep() -> int:
    return services.sweep()


@shared_task(name="tournaments.step", ignore_result=True)
def step(tournament_id: int) -> str:
    return services.step(tournament_id=tournament_id)
