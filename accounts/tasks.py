"""Celery tasks of accounts (scheduled by beat: ``CELERY_BEAT_SCHEDULE["accounts-chip-ledger"]``)."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="accounts.check_chip_ledger", ignore_result=True)
def check_chip_ledger() -> int:
    """Read-only: compares every balance with its ledger and logs an alert per difference."""
    return len(services.report_ledger_differences())


@shared_task(name="accounts.remove_stale_signups", ignore_result=True)
def remove_stale_signups() -> int:
    """Idempotent: deletes sign-ups that never verified within 48 hours and left no trace, which
    frees their nicknames and addresses (``accounts.signups``); running it twice changes nothing."""
    from . import signups

    return signups.remove_stale_unverified()
