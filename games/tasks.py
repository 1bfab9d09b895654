"""Celery tasks of live play. Every task is idempotent: it names the hand (or match) and the move
it was meant for, and does nothing if the game has moved on.

Turn deadlines: ``turn_clock`` (celery beat, every ``settings.TURN_CLOCK_SECONDS``) plays every turn whose
deadline has passed. One indexed query a tick, whatever the number of tables: a task per move (the
first design) cost more CPU than the move itself at a few hundred tables, for turns that nearly
always were played in time. A turn is played at most one tick after its clock runs out. ``sweep``
(beat, every 10 s) deals hands whose task was lost and fills waiting tables with bots."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from games import scheduling, services
from games.models import Hand, Match

# A finished hand whose next deal is this much overdue lost its task: the sweep deals it.
SWEEP_GRACE_SECONDS = 2
# A tick plays this many overdue turns itself and hands the rest to other workers as turn_deadline.
CLOCK_INLINE_TURNS = 8


@shared_task(name="games.turn_clock", ignore_result=True)
def turn_clock() -> int:
    """Play every turn whose time has run out (bots' and away players' turns too: theirs are short)."""
    due = list(Hand.objects.filter(status=Hand.Status.PLAYING, deadline__lte=timezone.now())
               .order_by("deadline").values_list("id", "move"))
    played = 0
    for hand_id, move in due[:CLOCK_INLINE_TURNS]:
        played += services.resolve_timeout(hand_id=hand_id, move=move)
    for hand_id, move in due[CLOCK_INLINE_TURNS:]:
        turn_deadline.delay(hand_id, move)
    return played


@shared_task(name="games.turn_deadline", ignore_result=True)
def turn_deadline(hand_id: int, move: int) -> bool:
    """One overdue turn (from a busy clock tick); nothing if it was played meanwhile."""
    return services.resolve_timeout(hand_id=hand_id, move=move)


@shared_task(name="games.next_hand", ignore_result=True)
def next_hand(match_id: int) -> bool:
    return services.start_next_hand(match_id=match_id) is not None


@shared_task(name="games.sweep", ignore_result=True)
def sweep() -> int:
    """Deal overdue hands whose scheduled task never ran; fill waiting tables with bots."""
    now = timezone.now()
    done = 0
    pause = timedelta(seconds=scheduling.NEXT_HAND_PAUSE_SECONDS + SWEEP_GRACE_SECONDS)
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
    from salons import seating

    due = seating.tables_due_for_bots(now=now)
    return sum(services.fill_with_bots(table_id=table_id) is not None for table_id in due)
