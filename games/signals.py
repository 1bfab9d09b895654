"""What the games app tells the apps built on it, without importing them (imports run one way:
tournaments use games, never the other way round). Sent inside the transaction of the change."""

from __future__ import annotations

from django.dispatch import Signal

#: A hand of a match was recorded (``games.services``, in the hand's transaction), with
#: ``match``, ``match_state``, ``not_present`` (seats that did not play the match) and
#: ``clock_played`` (seats the clock played most of this hand). A receiver that runs the match's
#: table (a tournament) returns the seats it names as the table's winners; others return None.
hand_recorded = Signal()

#: Asked with ``table_id``: does another app run this table (a tournament seats its own tables,
#: its results are final: no rematch, and a match with no person left is its to end)? A receiver
#: returns True for a table it runs.
table_is_run_elsewhere = Signal()


def named_winners(**kwargs) -> set[int] | None:
    """Send ``hand_recorded``; the winners a receiver named, or None when none did."""
    for _receiver, response in hand_recorded.send(sender=None, **kwargs):
        if response is not None:
            return set(response)
    return None


def run_elsewhere(table_id: int) -> bool:
    return any(response for _receiver, response in table_is_run_elsewhere.send(sender=None, table_id=table_id))
