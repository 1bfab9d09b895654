"""A Kart Okey table (RULES.md "Kart Okey", rules 8 and 9): 1, 2 or 3 rounds, all played; penalty
points add up; the lowest total wins and ties share first place; the prize pool is paid out by
``scoring.prize_split`` when the last round is recorded.

Pure functions over a serialisable ``MatchKart``, as 101's ``match``: ``start_match`` picks the
first starting seat, ``start_next_hand`` deals, ``record_hand`` folds a finished hand in. The
starting seat moves one seat in play direction after every round (*interpretation*: the source's
online room re-draws seats each round; "as at a tile table", rule 10, moves the start instead).

*Interpretation*: a table has no winner only when none of its rounds had one (every round ended
at the second stock out); then ``winners`` is empty and the pool is shared as rule 9 says for a
table with no winner. A table the site ends early (``end_match``) has no winner and no prizes.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import EngineError
from ..scoring import Scoring
from .cards import Card, full_deck
from .hand import HandKart, deal_from_deck
from .rules import GAME, RulesKart
from .scoring import prize_split

MATCH_VERSION = 1

Seed = int | str | bytes | None


def scoring_for(rules: RulesKart) -> Scoring:
    """Low is good; everyone plays alone."""
    return Scoring(preset=GAME, higher_is_better=False)


def shuffled_deck(rules: RulesKart, seed: Seed = None) -> list[Card]:
    """The table's cards shuffled, top first: the OS's CSPRNG, or ``random.Random(seed)`` for tests
    and replays (as the tile games' ``deck.shuffled_deck``)."""
    rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)
    deck = full_deck(rules.decks)
    rng.shuffle(deck)
    return deck


@dataclass
class MatchKart:
    rules: RulesKart
    scores: list[int]
    first_starting_seat: int
    next_starting_seat: int
    rounds_played: int = 0
    seed: int | str | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    ended: str | None = None             # the site ended the table between rounds (``end_match``)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def hands_played(self) -> int:
        """The site's name for the rounds played (a round is one hand)."""
        return self.rounds_played

    @property
    def play_order(self) -> list[int]:
        """The seats in play order from the table's first starting seat (remainders go this way)."""
        return [(self.first_starting_seat + offset) % self.players for offset in range(self.players)]

    def to_dict(self) -> dict[str, Any]:
        return {"version": MATCH_VERSION, "game": GAME, "rules": self.rules.to_dict(), "scores": list(self.scores),
                "first_starting_seat": self.first_starting_seat, "next_starting_seat": self.next_starting_seat,
                "rounds_played": self.rounds_played, "seed": self.seed, "ended": self.ended,
                "history": [_copy(entry) for entry in self.history]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchKart:
        if data.get("version") != MATCH_VERSION or data.get("game") != GAME:
            raise ValueError("not a Kart Okey table state")
        return cls(rules=RulesKart.from_dict(data["rules"]), scores=list(data["scores"]),
                   first_starting_seat=data["first_starting_seat"], next_starting_seat=data["next_starting_seat"],
                   rounds_played=data["rounds_played"], seed=data["seed"], ended=data.get("ended"),
                   history=[_copy(entry) for entry in data["history"]])

    def public(self) -> dict[str, Any]:
        """What any seat or watcher may see of the table (no seed)."""
        scoring = scoring_for(self.rules)
        return {"game": GAME, "rules": self.rules.to_dict(), "scores": list(self.scores),
                "rounds_played": self.rounds_played, "rounds": self.rules.rounds,
                "next_starting_seat": self.next_starting_seat, "history": [_copy(entry) for entry in self.history],
                "over": is_over(self), "winners": winners(self), "prize_pool": self.rules.prize_pool,
                "prize_limit": self.rules.prize_limit, "prizes": prizes(self),
                "standing": {"higher_is_better": scoring.higher_is_better, "teams": None}}


def _copy(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: list(value) if isinstance(value, list) else value for key, value in entry.items()}


def start_match(rules: RulesKart, *, seed: Seed = None) -> MatchKart:
    stored_seed = seed.hex() if isinstance(seed, bytes) else seed
    rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(f"{stored_seed}/first-seat")
    first = rng.randrange(rules.players)
    return MatchKart(rules=rules, scores=[0] * rules.players, first_starting_seat=first, next_starting_seat=first,
                     seed=stored_seed)


def start_next_hand(match: MatchKart, *, seed: Seed = None) -> HandKart:
    if is_over(match):
        raise EngineError("the table is over", code="match_over")
    if seed is None and match.seed is not None:
        seed = f"{match.seed}/hand/{match.rounds_played}"
    return deal_from_deck(shuffled_deck(match.rules, seed), match.rules, starting_seat=match.next_starting_seat)


def record_hand(match: MatchKart, hand: HandKart) -> MatchKart:
    if is_over(match):
        raise EngineError("the table is over", code="match_over")
    if hand.result is None:
        raise EngineError("the hand is still being played", code="hand_not_over")
    if hand.rules != match.rules or hand.starting_seat != match.next_starting_seat:
        raise EngineError("this hand does not belong to this table", code="wrong_hand")
    result = hand.result
    scores = [total + delta for total, delta in zip(match.scores, result.scores, strict=True)]
    # ``hand``: the site's index of the hand (as every game's history names it); ``round`` the same.
    entry = {"hand": match.rounds_played, "round": match.rounds_played, "starting_seat": hand.starting_seat, **result.to_dict(),
             "deltas": list(result.scores), "totals": list(scores)}
    return replace(match, scores=scores, rounds_played=match.rounds_played + 1,
                   next_starting_seat=(match.next_starting_seat + 1) % match.players,
                   history=[*match.history, entry])


def is_over(match: MatchKart) -> bool:
    return match.ended is not None or match.rounds_played >= match.rules.rounds


def end_match(match: MatchKart, *, reason: str) -> MatchKart:
    """End a running table between rounds for a reason outside the play; nobody wins it by score."""
    if is_over(match):
        raise EngineError("the table is over", code="match_over")
    return replace(match, ended=reason)


def winners(match: MatchKart) -> list[int]:
    """The seats with the lowest total once every round is played (several on a tie); none when no
    round had a winner (see the module doc) or the site ended the table."""
    if not is_over(match) or match.ended is not None:
        return []
    if all(entry.get("winner") is None for entry in match.history):
        return []
    return scoring_for(match.rules).winners(match.scores)


def prizes(match: MatchKart) -> list[int] | None:
    """Rule 9: each seat's share of the prize pool once the table is over (None before, and for a
    table the site ended)."""
    if not is_over(match) or match.ended is not None:
        return None
    return prize_split(match.rules.prize_pool, match.scores, winners(match), limit=match.rules.prize_limit,
                       order=match.play_order)


def live_scores(match: MatchKart, hand: HandKart) -> list[int]:
    """Totals during a round: a finished round's scores once it ends."""
    deltas = list(hand.result.scores) if hand.result is not None else [0] * match.players
    return [total + delta for total, delta in zip(match.scores, deltas, strict=True)]
