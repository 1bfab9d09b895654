"""The rules of a Kart Okey table (RULES.md "Kart Okey", rules 1, 8 and 9).

A room stores ``RulesKart.to_dict()``; ``from_dict`` refuses an unknown option or a value outside
the offered ones with a stable code (``unknown_option``, ``bad_option``) and names the option.

* ``players``: 2, 3 or 4.
* ``decks``: 1 or 2. One 52-card deck for 2-3 players; a table of four plays two decks (104 cards)
  unless the room chooses one (rule 1's option). Left out (None) it is chosen by ``players``; two
  decks at a table of 2 or 3 are refused (rule 1 gives them one deck).
* ``rounds``: a table is 1, 2 or 3 rounds (hands); the lowest total wins (rule 8).
* ``prize_pool``: what the table pays out at its end (rule 9), an int >= 0 (0: no prize).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ..errors import RulesError
from ..errors import check_option as _check

GAME = "kart"
PLAYERS = (2, 3, 4)
DECKS = (1, 2)
ROUNDS = (1, 2, 3)


@dataclass(frozen=True)
class RulesKart:
    # Rule 1: 2-4 players.
    players: int = 4
    # Rule 1: one deck for 2-3 players; two for four (option: one). None: chosen by ``players``.
    decks: int | None = None
    # Rule 8: a table is 1, 2 or 3 rounds.
    rounds: int = 1
    # Rule 9: the prize pool paid out at the table's end.
    prize_pool: int = 0

    def __post_init__(self) -> None:
        _check(type(self.players) is int and self.players in PLAYERS, "players", "Kart Okey is 2, 3 or 4 players")
        if self.decks is None:
            object.__setattr__(self, "decks", 2 if self.players == 4 else 1)
        _check(type(self.decks) is int and self.decks in DECKS, "decks", "one deck or two")
        _check(self.decks == 1 or self.players == 4, "decks", "two decks are for a table of four")
        _check(type(self.rounds) is int and self.rounds in ROUNDS, "rounds", "a table is 1, 2 or 3 rounds")
        _check(type(self.prize_pool) is int and self.prize_pool >= 0, "prize_pool",
               "the prize pool is a whole number, 0 or more")

    @property
    def cards(self) -> int:
        return 52 * self.decks

    @property
    def prize_limit(self) -> int:
        """Rule 9: players under this many penalty points share the 25 % (80 × rounds)."""
        return 80 * self.rounds

    def to_dict(self) -> dict[str, Any]:
        return {field.name: getattr(self, field.name) for field in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RulesKart:
        if not isinstance(data, dict):
            raise RulesError("a rule set is a mapping of options", code="bad_option")
        known = {field.name for field in fields(cls)}
        unknown = sorted(set(data) - known, key=str)
        if unknown:
            raise RulesError(f"unknown Kart Okey option(s): {', '.join(map(str, unknown))}", code="unknown_option",
                             field=str(unknown[0]))
        return cls(**data)


