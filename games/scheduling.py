"""Work that services hand to Celery for later, named by task.

Services must not import ``games.tasks``: the tasks call the services, and imports run one way
(tasks -> services -> scheduling). A signature by name needs neither module to import the other;
it still runs eagerly under ``CELERY_TASK_ALWAYS_EAGER`` once the task is registered. Tests
replace these functions to drive the clock themselves.
"""

from __future__ import annotations

from celery import current_app

# The finished hand stays on screen this long before the next one is dealt.
NEXT_HAND_PAUSE_SECONDS = 6


def schedule_next_hand(match_id: int) -> None:
    """Deal the match's next hand after the pause (``games.next_hand`` in ``games.tasks``)."""
    current_app.signature("games.next_hand", args=(match_id,)).apply_async(countdown=NEXT_HAND_PAUSE_SECONDS)
