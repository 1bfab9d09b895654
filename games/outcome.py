"""What a finished hand did to each player, explained (issue 19, item 5): the result panel shows
every score change broken into its causes, the chips each person won or paid, and at the end of a
match each person's rating before and after. All of it is the server's record — the match history,
the chip ledger, the rating history — never worked out again by the page.

Read side only; called when a frame of a recorded hand is built (once per move, not per seat)."""

from __future__ import annotations

from typing import Any

from games.engine.match import MatchState
from games.engine.rules import PENALTY
from games.engine.scoring import indicator_deltas
from games.models import Hand, Match, MatchPlayer, RatingPoint
from games.ratings import display_rating

# Why a seat's score moved; the table page names each in the player's language.
FINISH, INDICATOR, PILE_OUT = "finish", "indicator", "pile_out"
CARDS_LEFT, RUMMY = "cards_left", "rummy"


def sheet_parts(entry: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """A 101 hand's or Kart round's parts from its score sheet. 101: the base as multiplied (``why`` the sheet row's kind:
    finished, partner, opened, unopened) and the in-hand penalties, each with its reason."""
    parts = []
    for row in entry["sheet"]:
        seat_parts = []
        if "rummy_bonus" in row:
            # A Kart Okey round (RULES.md "Kart Okey" rule 8): the cards left, +25 when the winner went rummy.
            if row["cards"]:
                seat_parts.append({"why": CARDS_LEFT, "points": row["cards"], "by": None})
            if row["rummy_bonus"]:
                seat_parts.append({"why": RUMMY, "points": row["rummy_bonus"], "by": entry.get("winner")})
            parts.append(seat_parts)
            continue
        base = row["base"] * row["multiplier"]
        if base:
            seat_parts.append({"why": row["kind"], "points": base, "by": entry.get("finisher")})
        for reason in row["penalty_reasons"]:
            seat_parts.append({"why": reason, "points": row["penalties"] // max(len(row["penalty_reasons"]), 1),
                               "by": None})
        parts.append(seat_parts)
    return parts


def score_parts(entry: dict[str, Any], match_state: MatchState) -> list[list[dict[str, Any]]]:
    """Per seat, the parts of its change in the hand of history ``entry``: each
    ``{"why", "points", "by"}`` (``by``: the seat whose finish or shown indicator it was). The parts
    always add up to the recorded change (what is left after the shown indicators and a pile out
    is the finish's)."""
    if entry.get("sheet"):
        return sheet_parts(entry)
    rules, players = match_state.rules, match_state.players
    deltas = list(entry["deltas"])
    parts: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    for shown in entry.get("shown_indicators") or []:
        for seat, points in enumerate(indicator_deltas(shown, rules, players)):
            if points:
                parts[seat].append({"why": INDICATOR, "points": points, "by": shown})
    if entry.get("reason") == "pile_out" and rules.scoring == PENALTY:
        for seat in range(players):
            parts[seat].append({"why": PILE_OUT, "points": 10, "by": None})
    for seat in range(players):
        rest = deltas[seat] - sum(part["points"] for part in parts[seat])
        if rest:
            finisher = entry.get("finisher")
            # The finish first: it is what the hand was about ("bitiş −2 · gösterge −1").
            parts[seat].insert(0, {"why": FINISH if finisher is not None else PILE_OUT, "points": rest, "by": finisher})
    return parts


def chips_won(*, match_id: int, hand_number: int, players: dict[int, MatchPlayer] | None = None) -> dict[int, int]:
    """{seat: chips} the ledger moved for this hand (the notes ``services._settle_chips`` writes)."""
    from accounts.models import ChipTransaction

    seats = {player.user_id: seat for seat, player in (players or {}).items()} or dict(
        MatchPlayer.objects.filter(match_id=match_id).values_list("user_id", "seat"))
    won: dict[int, int] = {}
    rows = ChipTransaction.objects.filter(note=f"match {match_id} hand {hand_number + 1}",
                                          user_id__in=list(seats)).values_list("user_id", "amount")
    for user_id, amount in rows:
        won[seats[user_id]] = won.get(seats[user_id], 0) + amount
    return won


def rating_changes(match: Match) -> dict[int, dict[str, int]]:
    """{seat: {"before", "after"}} as players see the rating, for a rated finished match (practice,
    chip tables and people the clock played all along have none)."""
    # Bots are never ranked (their numbers move, but nobody is shown them).
    seats = dict(MatchPlayer.objects.filter(match=match, user__is_bot=False).values_list("user_id", "seat"))
    after = {point.user_id: point for point in RatingPoint.objects.filter(match=match, user_id__in=list(seats))}
    changes: dict[int, dict[str, int]] = {}
    for user_id, point in after.items():
        previous = (RatingPoint.objects.filter(user_id=user_id, created_at__lte=point.created_at)
                    .exclude(pk=point.pk).exclude(match_id=match.pk).order_by("-created_at", "-pk")
                    .values_list("ordinal", flat=True).first())
        changes[seats[user_id]] = {"before": display_rating(previous or 0.0), "after": display_rating(point.ordinal)}
    return changes


def hand_outcome(*, match: Match, hand: Hand, match_state: MatchState) -> dict[str, Any] | None:
    """The explained result of a recorded hand for the frame (``match.outcome``), or None."""
    entry = next((item for item in match_state.history if item.get("hand") == hand.number), None)
    if entry is None:
        return None
    parts = score_parts(entry, match_state)
    chips = chips_won(match_id=match.pk, hand_number=hand.number)
    last = hand.number == match_state.hands_played - 1 and match.status == Match.Status.FINISHED
    ratings = rating_changes(match) if last else {}
    return {
        "hand": hand.number,
        "seats": [{"parts": parts[seat], "chips": chips.get(seat), "rating": ratings.get(seat)}
                  for seat in range(match_state.players)],
    }
