"""A player's record for their profile and hand history: hands and matches played and won,
finishes by kind, the rating in one number with its history, recent matches. Practice never
counts (it is outside the salons and unrated); bots are people's opponents, never ranked."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.db.models import F, Q

from games.engine import game_types
from games.engine.rules import partner_of
from games.models import Hand, Match, MatchPlayer, Move, PlayerRating, RatingPoint
from games.ratings import display_rating

# A rating needs this many rated matches before the player is listed on a leaderboard.
MIN_RATED_MATCHES = 3
RECENT_MATCHES = 10
CHART_POINTS = 30
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 90, 6

NOT_PRACTICE = Q(match__table__practice__isnull=True)




@dataclass(frozen=True)
class Finishes:
    sets: int = 0
    pairs: int = 0
    okey: int = 0
    color: int = 0

    @property
    def total(self) -> int:
        return self.sets + self.pairs


def finishes_of(user) -> Finishes:
    """Hands this player finished (their own move or the bot's while they were away), by kind."""
    rows = Move.objects.filter(
        action="finish", hand__match__players__user=user, hand__match__players__seat=F("seat"),
        hand__match__table__practice__isnull=True,
    ).values_list("args", flat=True)
    kinds: Counter[str] = Counter()
    for args in rows:
        kinds["pairs" if args.get("kind") == "pairs" else "sets"] += 1
        kinds["okey"] += bool(args.get("okey_finish"))
        kinds["color"] += bool(args.get("color"))
    return Finishes(sets=kinds["sets"], pairs=kinds["pairs"], okey=kinds["okey"], color=kinds["color"])


def rating_chart(points: list[float]) -> dict[str, Any] | None:
    """A small line chart of the rating after each match, as SVG coordinates (drawn by the template).

    Coordinates are strings written here with a dot: the template would localise a float, and
    Turkish writes "314,0", which is no SVG number."""
    if len(points) < 2:
        return None
    values = [display_rating(point) for point in points[-CHART_POINTS:]]
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (CHART_WIDTH - 2 * CHART_PAD) / (len(values) - 1)
    coords = [(CHART_PAD + index * step, CHART_HEIGHT - CHART_PAD - (value - low) / span * (CHART_HEIGHT - 2 * CHART_PAD))
              for index, value in enumerate(values)]
    last_x, last_y = coords[-1]
    return {"width": CHART_WIDTH, "height": CHART_HEIGHT, "low": low, "high": high, "count": len(values),
            "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in coords), "last": (f"{last_x:.1f}", f"{last_y:.1f}")}


# A seat the turn clock played all match long (RULES.md "Absent players never win"): not a match
# the person played, so it counts nowhere in their record.
ABSENT = Q(own_moves=0, clock_moves__gt=0)


def player_record(user) -> dict[str, Any]:
    seats = MatchPlayer.objects.filter(user=user).filter(NOT_PRACTICE).exclude(ABSENT)
    finished = seats.filter(match__status=Match.Status.FINISHED)
    hands = Hand.objects.filter(status=Hand.Status.OVER, match__in=seats.values("match_id"))
    finishes = finishes_of(user)
    rating = PlayerRating.objects.filter(user=user, salon=None).first()
    points = list(RatingPoint.objects.filter(user=user).order_by("created_at", "pk").values_list("ordinal", flat=True))
    recent = (finished.select_related("match", "match__table__room").prefetch_related("match__players__user")
              .order_by("-match__finished_at", "-pk")[:RECENT_MATCHES])
    return {
        "hands_played": hands.count(),
        "hands_won": finishes.total,
        "matches_played": finished.count(),
        "matches_won": finished.filter(is_winner=True).count(),
        "finishes": finishes,
        "rating": display_rating(rating.ordinal) if rating else None,
        "rated_matches": rating.matches if rating else 0,
        "chart": rating_chart(points),
        "recent": [{"finished_at": seat.match.finished_at, "room": seat.match.table.room.name,
                    "won": seat.is_winner, "score": seat.score, "scoring": seat.match.rules.get("scoring"),
                    "played_by_clock": seat.played_by_clock, "partner": partner_nickname(seat)}
                   for seat in recent],
    }


def partner_nickname(seat: MatchPlayer) -> str | None:
    """Eşli: the nickname of the player's partner in that match (they shared its result)."""
    if not seat.match.rules.get("partners"):
        return None
    partner = partner_of(seat.seat)
    return next((player.user.username for player in seat.match.players.all() if player.seat == partner), None)


def how_finished(result: Any) -> tuple[int | None, str | None, bool]:
    """(who ended the hand by finishing, how, with an okey) from any game's result: classic Okey's
    ``finish`` (sets or pairs), 101's finisher (pairs or melds), Kart Okey's winner (out or rummy).
    Nobody finished (a pile or stock out): (None, None, False)."""
    finish = getattr(result, "finish", None)
    if finish is not None:
        return result.finisher, finish.kind, finish.okey_finish
    if getattr(result, "finisher", None) is not None:
        return result.finisher, "pairs" if result.pairs_finish else "melds", result.okey_finish
    if getattr(result, "winner", None) is not None:
        return result.winner, "rummy" if result.rummy else "out", False
    return None, None, False


def hand_rows(*, user, viewer, limit: int = 50) -> list[dict[str, Any]]:
    """The player's finished hands that ``viewer`` may open (``selectors.visible_hands``), newest
    first, each with its result: who finished and how, and the points it brought this player
    (countdown points, penalty points or chips). A practice hand is private: only its player sees it."""
    from games.selectors import visible_hands

    hands = Hand.objects.filter(match__players__user=user, status=Hand.Status.OVER)
    hands = list(
        visible_hands(hands, viewer)
        .select_related("match", "match__table", "match__table__room")
        .prefetch_related("match__players__user")
        .order_by("-finished_at", "-pk")[:limit]
    )
    rows = []
    for hand in hands:
        players = {player.seat: player for player in hand.match.players.all()}
        mine = next((seat for seat, player in players.items() if player.user_id == user.pk), None)
        row: dict[str, Any] = {"hand": hand, "finisher": None, "kind": None, "okey": False, "points": None,
                               "abandoned": False}
        try:
            game = game_types.game_type_of(hand.match.rules)
            state = game.hand_from_dict(hand.state)
            result = state.result
        except (KeyError, TypeError, ValueError, game_types.UnknownGameType):
            result = None
        if result is None:
            row["abandoned"] = True  # a match dropped by staff or a ban: no result to show
        else:
            seat, row["kind"], row["okey"] = how_finished(result)
            if seat is not None:
                finisher = players.get(seat)
                row["finisher"] = finisher.user if finisher else None
            if mine is not None:
                row["points"] = game.hand_deltas(state)[mine]
        rows.append(row)
    return rows


def leaderboard(*, salon=None, limit: int = 100) -> list[dict[str, Any]]:
    """People only, best first, once they have played ``MIN_RATED_MATCHES`` rated matches."""
    rows = (
        PlayerRating.objects.filter(salon=salon, user__is_bot=False, matches__gte=MIN_RATED_MATCHES)
        .select_related("user").order_by("-ordinal", "-wins", "user__username")[:limit]
    )
    return [{"rank": index, "nickname": row.user.username, "rating": display_rating(row.ordinal),
             "matches": row.matches, "wins": row.wins}
            for index, row in enumerate(rows, start=1)]
