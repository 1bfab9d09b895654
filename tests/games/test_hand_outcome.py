"""The result panel's facts (issue 19, item 5): every score change explained per player (finish,
shown indicator, pile out), the chips the ledger moved for the hand, and each person's rating
before and after a rated match — all read from the server's record, in the frames."""

from __future__ import annotations

import pytest

from games import outcome, selectors, services
from games.engine.match import MatchState
from games.engine.rules import RuleSet
from games.models import Match, MatchPlayer

from .conftest import make_table, rig_hand

pytestmark = pytest.mark.django_db

# The starter holds the indicator's twin (S9: the okey is black 10, standing in its own run) and a
# finished rack with Y13 to put on the centre.
SHOWS_AND_FINISHES = "K1 K2 K3 K4 M5 M6 M7 S9 S10 S11 Y2 K2 M2 S2 Y13"
OTHERS = [
    "M9 M10 M11 K5 K6 K7 S3 S4 S5 Y6 Y7 Y8 Y9 Y10",
    "M1 M3 M4 K8 K9 K10 S6 S7 S8 Y3 Y4 Y5 Y11 Y12",
    "M12 M13 K11 K12 K13 S12 S13 Y1 M8 K9 S6 Y3 Y4 M3",
]


def show_and_finish(rules: RuleSet | None = None, *, scores: list[int] | None = None):
    table, users = make_table(rules=rules)
    match = services.start_match(user=table.room.owner, table_id=table.id)
    if scores is not None:
        state = MatchState.from_dict(match.state)
        state.scores[:] = scores
        Match.objects.filter(pk=match.pk).update(state=state.to_dict())
    hand = match.hands.get()
    starter = hand.turn_seat
    others = list(OTHERS)
    rig_hand(hand, racks=[SHOWS_AND_FINISHES if seat == starter else others.pop() for seat in range(4)],
             indicator="S9")
    services.play(user=users[starter], table_id=table.id, action="show_indicator", move=0)
    hand.refresh_from_db()
    services.play(user=users[starter], table_id=table.id, action="finish", move=hand.move, args={"tile": "Y13"})
    match.refresh_from_db()
    hand.refresh_from_db()
    return table, users, match, hand, starter


def frame_outcome(match, hand, seat=None):
    return selectors.table_frame(match=match, hand=hand, seat=seat)["match"]["outcome"]


def test_a_minus_three_is_the_finish_and_the_shown_indicator():
    table, users, match, hand, starter = show_and_finish()
    seats = frame_outcome(match, hand)["seats"]
    other = (starter + 1) % 4
    assert sorted((part["why"], part["points"], part["by"]) for part in seats[other]["parts"]) == [
        ("finish", -2, starter), ("indicator", -1, starter)]
    assert seats[starter]["parts"] == []
    entry = MatchState.from_dict(match.state).history[0]
    for seat in range(4):
        assert sum(part["points"] for part in seats[seat]["parts"]) == entry["deltas"][seat]
    assert all(seat["chips"] is None and seat["rating"] is None for seat in seats)


def test_a_pile_out_at_a_penalty_table_is_named():
    state = MatchState.from_dict(make_state(RuleSet.preset("penalty")))
    entry = {"hand": 0, "reason": "pile_out", "finisher": None, "shown_indicators": [], "deltas": [10, 10, 10, 10]}
    parts = outcome.score_parts(entry, state)
    assert parts[0] == [{"why": "pile_out", "points": 10, "by": None}]


def make_state(rules: RuleSet) -> dict:
    from games.engine import match as engine_match

    return engine_match.start_match(rules, seed="x").to_dict()


def test_chips_won_come_from_the_ledger():
    table, users, match, hand, starter = show_and_finish(RuleSet.preset("chips", stake=100))
    seats = frame_outcome(match, hand, seat=starter)["seats"]
    assert seats[starter]["chips"] == 300
    assert [seats[seat]["chips"] for seat in range(4) if seat != starter] == [-100, -100, -100]


def test_the_end_of_a_rated_match_carries_each_rating_before_and_after_and_the_recorded_winners():
    table, users, match, hand, starter = show_and_finish(scores=[3, 3, 3, 3])
    assert match.status == Match.Status.FINISHED
    frame = selectors.table_frame(match=match, hand=hand, seat=None)
    seats = frame["match"]["outcome"]["seats"]
    assert seats[starter]["rating"]["after"] > seats[starter]["rating"]["before"] == 1000
    assert all(seats[seat]["rating"]["after"] < 1000 for seat in range(4) if seat != starter)
    assert frame["match"]["winners"] == [starter]
    assert list(MatchPlayer.objects.filter(match=match, is_winner=True).values_list("seat", flat=True)) == [starter]
