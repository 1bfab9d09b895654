"""A match: hands in a row, scores carried between them, until the preset says it is over.

Pure functions over a serialisable ``MatchState``, like the hand: ``start_match`` picks the first
starting seat, ``start_next_hand`` deals the next hand, ``record_hand`` folds a finished hand into
the scores and returns a new match state. The match never stores the hand it is playing; the
services layer keeps both and hands the finished hand back, so each can be locked and versioned on
its own.

End of a match, per preset (RULES.md):

* countdown: someone is at 0 or below, or a sıralı renk finish (option); highest score wins;
* penalty: after ``hands_per_match`` hands; lowest penalty wins; the prize pool is split by
  ``scoring.split_prize_pool``;
* chips: after ``chip_hands`` hands (each hand settles at once); ``winners`` is empty.

An indicator shown during a hand counts at once on the live scoreboard (``live_scores``). When it
brings a countdown score to 0 or below the match ends at once (RULES.md "Reaching zero"): each
hand is dealt knowing which seats' show would do that (``ending_shows``), and such a show ends the
hand there; ``record_hand`` then ends the match.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field, replace
from typing import Any

from .deck import Seed, deal
from .errors import EngineError
from .hand import HandState
from .rules import CHIPS, COUNTDOWN, PENALTY, RuleSet
from .scoring import ends_match_at_once, hand_score_deltas, indicator_deltas, scoring_for, split_prize_pool

MATCH_VERSION = 1


@dataclass
class MatchState:
    """Scores and whose deal it is. Server-side (it may hold the seed); clients see scores only."""

    rules: RuleSet
    scores: list[int]
    first_starting_seat: int
    next_starting_seat: int
    hands_played: int = 0
    seed: int | str | None = None        # set only for deterministic (test/replay) matches
    history: list[dict[str, Any]] = field(default_factory=list)
    ended: str | None = None             # why the match ended: "zero", "ordered_color" or "hands"

    @property
    def players(self) -> int:
        return len(self.scores)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": MATCH_VERSION,
            "rules": self.rules.to_dict(),
            "scores": list(self.scores),
            "first_starting_seat": self.first_starting_seat,
            "next_starting_seat": self.next_starting_seat,
            "hands_played": self.hands_played,
            "seed": self.seed,
            "history": [_copy_entry(entry) for entry in self.history],
            "ended": self.ended,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchState:
        if data.get("version") != MATCH_VERSION:
            raise ValueError(f"unknown match state version {data.get('version')!r}")
        return cls(
            rules=RuleSet.from_stored(data["rules"]),
            scores=list(data["scores"]),
            first_starting_seat=data["first_starting_seat"],
            next_starting_seat=data["next_starting_seat"],
            hands_played=data["hands_played"],
            seed=data["seed"],
            history=[_copy_entry(entry) for entry in data["history"]],
            ended=data["ended"],
        )

    def public(self) -> dict[str, Any]:
        """What any seat or spectator may see of the match (no seed)."""
        return {
            "rules": self.rules.to_dict(),
            "scores": list(self.scores),
            "hands_played": self.hands_played,
            "next_starting_seat": self.next_starting_seat,
            "history": [_copy_entry(entry) for entry in self.history],
            "over": is_over(self),
            "winners": winners(self),
            "prizes": prizes(self),
            # Which way scores go and who plays together: the engine's word, so no page works it out.
            "standing": standing(self.rules),
        }


def _copy_entry(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: list(value) if isinstance(value, list) else value for key, value in entry.items()}


def starting_scores(rules: RuleSet) -> list[int]:
    """Countdown starts everyone at N; penalty at 0 penalty points; chips at 0 net chips won."""
    start = rules.start_points if rules.scoring == COUNTDOWN else 0
    return [start] * rules.players


def start_match(rules: RuleSet, seed: Seed = None) -> MatchState:
    """A new match. The first starting seat is random: from the OS CSPRNG, or from ``seed`` for replays."""
    stored_seed = seed.hex() if isinstance(seed, bytes) else seed  # JSON-safe, and used for every hand
    rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(f"{stored_seed}/first-seat")
    first = rng.randrange(rules.players)
    return MatchState(
        rules=rules,
        scores=starting_scores(rules),
        first_starting_seat=first,
        next_starting_seat=first,
        seed=stored_seed,
    )


def hand_seed(match: MatchState) -> str | None:
    """Deterministic per-hand seed for a seeded match; None (secure shuffle) otherwise."""
    return None if match.seed is None else f"{match.seed}/hand/{match.hands_played}"


def start_next_hand(match: MatchState, *, seed: Seed = None) -> HandState:
    """Deal the next hand, started by ``match.next_starting_seat``."""
    if is_over(match):
        raise EngineError("the match is over", code="match_over")
    return deal(match.rules, seed=seed if seed is not None else hand_seed(match),
                starting_seat=match.next_starting_seat, ending_shows=ending_shows(match))


def ending_shows(match: MatchState) -> list[int]:
    """Seats whose showing the indicator in the next hand would end the match: in countdown, when
    it brings some score to 0 or below (the other presets never end on a score)."""
    if match.rules.scoring != COUNTDOWN:
        return []
    return [seat for seat in range(match.players)
            if min(score + delta for score, delta in
                   zip(match.scores, indicator_deltas(seat, match.rules, match.players), strict=True)) <= 0]


def ensure_recordable(*, over: bool, hand: Any, rules: Any, next_starting_seat: int) -> None:
    """A finished hand of this match, dealt by its next starting seat, may be recorded (every game
    type's matches check the same before folding a hand in)."""
    if over:
        raise EngineError("the match is over", code="match_over")
    if hand.result is None:
        raise EngineError("the hand is still being played", code="hand_not_over")
    if hand.rules != rules or hand.starting_seat != next_starting_seat:
        raise EngineError("this hand does not belong to this match", code="wrong_hand")


def record_hand(match: MatchState, hand: HandState) -> MatchState:
    """Fold a finished hand into the scores; the starting seat moves one seat in play direction."""
    ensure_recordable(over=is_over(match), hand=hand, rules=match.rules, next_starting_seat=match.next_starting_seat)
    result = hand.result
    deltas = hand_score_deltas(result, match.rules, scores=match.scores)
    scores = [score + delta for score, delta in zip(match.scores, deltas, strict=True)]
    ended = None
    if ends_match_at_once(result, match.rules):
        ended = "ordered_color"
    elif match.rules.scoring == COUNTDOWN and min(scores) <= 0:
        ended = "zero"
    elif match.rules.scoring == PENALTY and match.hands_played + 1 >= match.rules.hands_per_match:
        ended = "hands"
    elif match.rules.scoring == CHIPS and match.hands_played + 1 >= match.rules.chip_hands:
        ended = "hands"
    entry = {
        "hand": match.hands_played,
        "starting_seat": hand.starting_seat,
        "reason": result.reason,
        "finisher": result.finisher,
        "kind": result.finish.kind if result.finish else None,
        "okey_finish": result.finish.okey_finish if result.finish else False,
        "double_okey": result.double_okey,
        "color": result.finish.color if result.finish else None,
        "shown_indicators": list(result.shown_indicators),
        "deltas": deltas,
        "scores": list(scores),
    }
    return replace(
        match,
        scores=scores,
        hands_played=match.hands_played + 1,
        next_starting_seat=(match.next_starting_seat + 1) % match.players,
        history=[*match.history, entry],
        ended=ended,
    )


def live_scores(match: MatchState, hand: HandState) -> list[int]:
    """The scoreboard during a hand: recorded scores plus what the hand already moved (indicators)."""
    if hand.result is not None:
        deltas = hand_score_deltas(hand.result, match.rules, scores=match.scores)
    else:
        deltas = hand_score_deltas(hand, match.rules)
    return [score + delta for score, delta in zip(match.scores, deltas, strict=True)]


def is_over(match: MatchState) -> bool:
    return match.ended is not None


def winners(match: MatchState) -> list[int]:
    """Seats that won (several on a tie); empty while the match runs and always for chips."""
    if not is_over(match):
        return []
    return scoring_for(match.rules).winners(match.scores)


def prizes(match: MatchState) -> list[int] | None:
    """The prize pool split (penalty preset with a pool, once over); None when there is nothing to split."""
    if match.rules.scoring != PENALTY or match.rules.prize_pool == 0 or not is_over(match):
        return None
    return split_prize_pool(match.rules.prize_pool, match.scores, match.rules.hands_per_match)


def standing(rules: RuleSet) -> dict[str, Any]:
    """What a page needs to order scores: the better direction and the teams (eşli), if any."""
    scoring = scoring_for(rules)
    return {"higher_is_better": scoring.higher_is_better,
            "teams": [list(team) for team in scoring.teams] if scoring.teams else None}


def end_match(match: MatchState, *, reason: str) -> MatchState:
    """End a running match between hands for a reason outside the hands themselves ("chips": a
    player at a chip table can no longer cover a hand). Nobody wins it by score alone."""
    if is_over(match):
        raise EngineError("the match is over", code="match_over")
    return replace(match, ended=reason)
