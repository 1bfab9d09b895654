"""A 101 match (RULES.md "101 Okey", rule 13; "Eşli"): a fixed number of hands, all played, the
lowest total wins and ties share first place.

Pure functions over a serialisable ``Match101``, as classic ``match``: ``start_match`` picks the
first starting seat, ``start_next_hand`` deals, ``record_hand`` folds a finished hand in. The
starting seat moves one seat in play direction after every scored hand. A cancelled hand (rule 12:
all four opened with pairs) is dealt again by the same starting seat and counts for nothing
(*interpretation*: "dealt again" is the same deal turn).

Eşli: every seat keeps its own total (what it wrote each hand); ranking uses the team's total,
the sum of both partners' (``scoring.team_totals``), through ``games.engine.scoring.Scoring`` with
the teams, so both partners share the team's rank.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field, replace
from typing import Any

from ..deck import Seed, shuffled_deck
from ..errors import EngineError
from ..match import ensure_recordable
from ..scoring import Scoring
from .hand import CANCELLED, Hand101, deal_from_deck
from .rules import PLAYERS, Rules101
from .scoring import team_totals

MATCH_VERSION = 1
PRESET = "okey101"


def scoring_for(rules: Rules101) -> Scoring:
    """Low is good; eşli ranks the two teams."""
    return Scoring(preset=PRESET, higher_is_better=False, teams=rules.teams)


@dataclass
class Match101:
    rules: Rules101
    scores: list[int]
    first_starting_seat: int
    next_starting_seat: int
    hands_played: int = 0
    seed: int | str | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    cancelled: int = 0
    ended: str | None = None             # the site ended the match between hands (``end_match``)

    @property
    def players(self) -> int:
        return PLAYERS

    def to_dict(self) -> dict[str, Any]:
        return {"version": MATCH_VERSION, "game": PRESET, "rules": self.rules.to_dict(), "scores": list(self.scores),
                "first_starting_seat": self.first_starting_seat, "next_starting_seat": self.next_starting_seat,
                "hands_played": self.hands_played, "seed": self.seed, "cancelled": self.cancelled,
                "ended": self.ended, "history": [_copy(entry) for entry in self.history]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match101:
        if data.get("version") != MATCH_VERSION or data.get("game") != PRESET:
            raise ValueError("not a 101 match state")
        return cls(rules=Rules101.from_dict(data["rules"]), scores=list(data["scores"]),
                   first_starting_seat=data["first_starting_seat"], next_starting_seat=data["next_starting_seat"],
                   hands_played=data["hands_played"], seed=data["seed"], cancelled=data["cancelled"],
                   ended=data.get("ended"), history=[_copy(entry) for entry in data["history"]])

    def public(self) -> dict[str, Any]:
        """What any seat or watcher may see of the match (no seed)."""
        scoring = scoring_for(self.rules)
        return {"game": PRESET, "rules": self.rules.to_dict(), "scores": list(self.scores),
                "standing_scores": standing_scores(self), "hands_played": self.hands_played,
                "hands": self.rules.hands, "next_starting_seat": self.next_starting_seat,
                "history": [_copy(entry) for entry in self.history], "over": is_over(self),
                "winners": winners(self),
                "standing": {"higher_is_better": scoring.higher_is_better,
                             "teams": [list(team) for team in scoring.teams] if scoring.teams else None}}


def _copy(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: list(value) if isinstance(value, list) else value for key, value in entry.items()}


def start_match(rules: Rules101, *, seed: Seed = None) -> Match101:
    stored_seed = seed.hex() if isinstance(seed, bytes) else seed
    rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(f"{stored_seed}/first-seat")
    first = rng.randrange(PLAYERS)
    return Match101(rules=rules, scores=[0] * PLAYERS, first_starting_seat=first, next_starting_seat=first,
                    seed=stored_seed)


def start_next_hand(match: Match101, *, seed: Seed = None) -> Hand101:
    if is_over(match):
        raise EngineError("the match is over", code="match_over")
    if seed is None and match.seed is not None:
        seed = f"{match.seed}/hand/{match.hands_played}/{match.cancelled}"
    return deal_from_deck(shuffled_deck(seed), match.rules, starting_seat=match.next_starting_seat)


def record_hand(match: Match101, hand: Hand101) -> Match101:
    ensure_recordable(over=is_over(match), hand=hand, rules=match.rules, next_starting_seat=match.next_starting_seat)
    result = hand.result
    if result.reason == CANCELLED:
        return replace(match, cancelled=match.cancelled + 1)
    scores = [total + delta for total, delta in zip(match.scores, result.scores, strict=True)]
    entry = {"hand": match.hands_played, "starting_seat": hand.starting_seat, **result.to_dict(),
             "deltas": list(result.scores), "totals": list(scores)}
    return replace(match, scores=scores, hands_played=match.hands_played + 1,
                   next_starting_seat=(match.next_starting_seat + 1) % PLAYERS,
                   history=[*match.history, entry])


def is_over(match: Match101) -> bool:
    return match.ended is not None or match.hands_played >= match.rules.hands


def end_match(match: Match101, *, reason: str) -> Match101:
    """End a running match between hands for a reason outside the hands; nobody wins it by score."""
    if is_over(match):
        raise EngineError("the match is over", code="match_over")
    return replace(match, ended=reason)


def standing_scores(match: Match101) -> list[int]:
    """Per seat, the total it is ranked by: its own, or in eşli its team's."""
    return team_totals(match.scores, match.rules)


def winners(match: Match101) -> list[int]:
    """The seats with the lowest total once all hands are played (several on a tie; both partners)."""
    if not is_over(match) or match.ended is not None:
        return []
    return scoring_for(match.rules).winners(standing_scores(match))


def live_scores(match: Match101, hand: Hand101) -> list[int]:
    """Totals during a hand: in-hand penalties count at once; a finished hand's scores once it ends."""
    if hand.result is not None:
        deltas = list(hand.result.scores)
    else:
        deltas = [0] * PLAYERS
        for penalty in hand.penalties:
            deltas[penalty["seat"]] += penalty["points"]
    return [total + delta for total, delta in zip(match.scores, deltas, strict=True)]
