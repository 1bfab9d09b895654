"""Celery tasks of moderation (scheduled by beat: ``CELERY_BEAT_SCHEDULE["moderation-expire"]``)."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="moderation.expire_sanctions", ignore_result=True)
def expire_sanctions() -> int:
    """Idempotent: marks what is past its end, nothing else; running it twice changes nothing."""
    return services.expire_sanctions()
