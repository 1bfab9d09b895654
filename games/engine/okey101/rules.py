"""The rules of a 101 Okey table (RULES.md "101 Okey", rule 14; "Eşli").

A room stores ``Rules101.to_dict()``; ``from_dict`` refuses an unknown option or a value outside
the offered ones with a stable code (``unknown_option``, ``bad_option``) and names the option, so a
form can put the error next to it. A table of 101 always has four players.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ..errors import RulesError
from ..errors import check_option as _check

GAME = "okey101"
PLAYERS = 4
HANDS = (3, 5, 7, 9, 11)
UNOPENED_PENALTIES = (101, 202, 303)
PAIRS_LAYOFF_LIMITS = (2, None)
#: Eşli: partners sit opposite each other (seats 0+2 against 1+3) for the whole match.
TEAMS: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))


@dataclass(frozen=True)
class Rules101:
    # Rule 13: a match is this many hands, all played (tournaments play 11).
    hands: int = 7
    # Rule 11: what a player who never opened writes (option 101 / 202 / 303).
    unopened_penalty: int = 202
    # Rule 9: +101 for discarding a wild okey.
    okey_discard_penalty: bool = True
    # Rule 9: +101 for discarding an işlek tile (one that could be laid off on a table meld).
    islek_penalty: bool = True
    # Rule 8: how many tiles a pairs opener may lay off a turn (a swap counts); None = no limit.
    pairs_layoff_limit: int | None = 2
    # Rule 14, yükselen açma: each opener must beat the highest opening so far (melds and pairs apart).
    rising_opening: bool = False
    # "Eşli": seats 0+2 against 1+3, a team's score is the sum of its two players'.
    partners: bool = False

    def __post_init__(self) -> None:
        _check(self.hands in HANDS and type(self.hands) is int, "hands",
               f"a match is {', '.join(map(str, HANDS))} hands")
        _check(self.unopened_penalty in UNOPENED_PENALTIES and type(self.unopened_penalty) is int,
               "unopened_penalty", "the unopened penalty is 101, 202 or 303")
        for name in ("okey_discard_penalty", "islek_penalty", "rising_opening", "partners"):
            _check(isinstance(getattr(self, name), bool), name, f"{name} is on or off (true/false)")
        _check(self.pairs_layoff_limit is None or (type(self.pairs_layoff_limit) is int
                                                   and self.pairs_layoff_limit in PAIRS_LAYOFF_LIMITS),
               "pairs_layoff_limit", "the pairs lay-off limit is 2 or none")

    @property
    def players(self) -> int:
        return PLAYERS

    @property
    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        return TEAMS if self.partners else None

    def to_dict(self) -> dict[str, Any]:
        return {field.name: getattr(self, field.name) for field in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules101:
        if not isinstance(data, dict):
            raise RulesError("a rule set is a mapping of options", code="bad_option")
        known = {field.name for field in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown 101 option(s): {', '.join(map(str, unknown))}", code="unknown_option",
                             field=str(unknown[0]))
        return cls(**data)




def partner_of(seat: int) -> int:
    return (seat + 2) % PLAYERS
