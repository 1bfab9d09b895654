"""Celery tasks of live play. Every task is idempotent: it names the hand (or match) and the move
it was scheduled for, and does nothing if the game has moved on. ``sweep`` (celery beat) catches
whatever a lost task left behind."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from games import services
from games.models import Hand, Match

# A deadline this far in the past with no move means its task was lost.
SWEEP_GRACE_SECONDS = 2


@shared_task(name="games.turn_deadline", ignore_result=True)
def turn_deadline(hand_id: int, move: int) -> bool:
    # Nearly every deadline finds its turn already played: one indexed read says so, rather than a
    # locked transaction that loads the whole hand.
    if not Hand.objects.filter(pk=hand_id, move=move, status=Hand.Status.PLAYING).exists():
        return False
    return services.resolve_timeout(hand_id=hand_id, move=move)


@shared_task(name="games.next_hand", ignore_result=True)
def next_hand(match_id: int) -> bool:
    return services.start_next_hand(match_id=match_id) is not None


@shared_task(name="games.sweep", ignore_result=True)
def sweep() -> int:
    """Play overdue turns and deal overdue hands whose scheduled task never ran."""
    now = timezone.now()
    done = 0
    overdue = Hand.objects.filter(
        status=Hand.Status.PLAYING, deadline__lt=now - timedelta(seconds=SWEEP_GRACE_SECONDS)
    ).values_list("id", "move")
    for hand_id, move in overdue:
        done += services.resolve_timeout(hand_id=hand_id, move=move)
    pause = timedelta(seconds=services.NEXT_HAND_PAUSE_SECONDS + SWEEP_GRACE_SECONDS)
    waiting = Match.objects.filter(status=Match.Status.RUNNING).exclude(hands__status=Hand.Status.PLAYING)
    for match in waiting:
        last = match.hands.order_by("-number").first()
        if last is None or (last.finished_at and last.finished_at < now - pause):
            done += services.start_next_hand(match_id=match.id) is not None
    done += fill_waiting_tables(now)
    return done


def fill_waiting_tables(now) -> int:
    """Rooms with the "fill with bots" option: a waiting table whose first player sat down long
    enough ago gets bots in its empty seats and starts."""
    from django.db.models import Min

    from salons.models import Table

    candidates = (
        Table.objects.filter(status=Table.Status.WAITING, room__status="open", room__bot_fill_seconds__gt=0,
                             seats__user__isnull=False, seats__user__is_bot=False)
        .annotate(first_seated=Min("seats__taken_at"))
        .values_list("id", "first_seated", "room__bot_fill_seconds")
    )
    due = [table_id for table_id, first, wait in candidates
           if first is not None and first <= now - timedelta(seconds=wait)]
    return sum(services.fill_with_bots(table_id=table_id) is not None for table_id in due)


def schedule_deadline(hand_id: int, move: int, deadline) -> None:
    turn_deadline.apply_async((hand_id, move), eta=deadline)


def schedule_next_hand(match_id: int) -> None:
    next_hand.apply_async((match_id,), countdown=services.NEXT_HAND_PAUSE_SECONDS)
