"""Rule sets: a scoring preset plus the options of RULES.md.

A room stores ``RuleSet.to_dict()``; the engine, the rules page and the room form all read the
same object, so the rules shown to players can never drift from the rules played.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

COUNTDOWN = "countdown"
PENALTY = "penalty"
CHIPS = "chips"
PRESETS = (COUNTDOWN, PENALTY, CHIPS)


#: How many hands a chip match may last (a room option).
CHIP_HANDS = (1, 5, 10, 20)

#: Options of source 000 that belong to the countdown preset alone (RULES.md): a rule set that turns
#: one on under another preset is refused, never silently played differently.
COUNTDOWN_ONLY = ("color_finish", "indicator_binds_pair", "double_okey")


class RuleSetError(ValueError):
    """A rule set the engine will not play. ``code`` is stable; ``field`` names the option at fault
    (None when it is not one option), so a form can put the error next to it."""

    code = "bad_rules"

    def __init__(self, message: str, *, code: str | None = None, field: str | None = None):
        super().__init__(message)
        if code is not None:
            self.code = code
        self.field = field


@dataclass(frozen=True)
class RuleSet:
    # Scoring preset: countdown (source 000, default), penalty (001) or chips (002).
    scoring: str = COUNTDOWN
    # 4 players, or 2 (a room option from source 001).
    players: int = 4
    # None = any number of wild okeys in a set (000/003); 1 = at most one, never an all-joker set (002).
    max_jokers_per_set: int | None = None
    # Countdown: every player starts at this many points.
    start_points: int = 20
    # Penalty: the match lasts 1 or 3 hands.
    hands_per_match: int = 1
    # Penalty: a prize pool split at the end of the match (0 = none). Play money only.
    prize_pool: int = 0
    # Chips: what each other player pays the finisher for a normal finish.
    stake: int = 10
    # Chips: the match lasts this many hands (each hand settles at once; a match still has an end).
    chip_hands: int = 10
    # Interpretation (common online): a wild okey may complete a pair.
    okey_completes_pair: bool = True
    # Renkten bitme (000): one-colour finishes score extra (countdown only).
    color_finish: bool = False
    # Göstergeyi çifte bağlama (000): a shown indicator counts as a pair for its owner.
    indicator_binds_pair: bool = False
    # Çift okey atma (000): finish with one okey, play on, finish with the second for x4.
    double_okey: bool = False
    # Eşli (RULES.md "Eşli"): partners sit opposite (seats 0+2 against 1+3) and keep one score per
    # team. Four players; points presets only ("No chip stakes with eşli").
    partners: bool = False

    def __post_init__(self) -> None:
        if self.scoring not in PRESETS:
            raise RuleSetError(f"unknown scoring preset '{self.scoring}'; use one of {', '.join(PRESETS)}")
        if self.players not in (2, 4):
            raise RuleSetError("a table has 4 or 2 players", field="players")
        if self.max_jokers_per_set not in (None, 1):
            raise RuleSetError("max_jokers_per_set is 1 or unlimited (None)", field="max_jokers_per_set")
        if not 1 <= self.start_points <= 1000:
            raise RuleSetError("start_points must be between 1 and 1000", field="start_points")
        if self.hands_per_match not in (1, 3):
            raise RuleSetError("a penalty match lasts 1 or 3 hands", field="hands_per_match")
        if self.prize_pool < 0:
            raise RuleSetError("the prize pool cannot be negative", field="prize_pool")
        if self.stake < 0:
            raise RuleSetError("the stake cannot be negative", field="stake")
        if self.chip_hands not in CHIP_HANDS:
            raise RuleSetError(f"a chip match lasts {', '.join(map(str, CHIP_HANDS))} hands", field="chip_hands")
        if self.scoring != COUNTDOWN:
            for name in COUNTDOWN_ONLY:
                if getattr(self, name):
                    raise RuleSetError(f"{name} is an option of the countdown preset only, not of {self.scoring}",
                                       code="option_outside_preset", field=name)
        if self.partners and self.players != 4:
            raise RuleSetError("partners (eşli) play at a table of 4", code="partners_need_four", field="partners")
        if self.partners and self.scoring == CHIPS:
            raise RuleSetError("partners (eşli) play for points, never for chips", code="partners_no_chips",
                               field="partners")
        if self.scoring == CHIPS and self.max_jokers_per_set != 1:
            # Source 002 plays its chip preset with at most one joker per set, always.
            object.__setattr__(self, "max_jokers_per_set", 1)

    @classmethod
    def preset(cls, name: str = COUNTDOWN, **options: Any) -> RuleSet:
        defaults: dict[str, Any] = {"scoring": name}
        if name == CHIPS:
            defaults["max_jokers_per_set"] = 1
        return cls(**{**defaults, **options})

    def with_options(self, **options: Any) -> RuleSet:
        return replace(self, **options)

    def to_dict(self) -> dict[str, Any]:
        # Every field is a plain immutable value: no deep copy (asdict's) needed. Frames call this often.
        return {field.name: getattr(self, field.name) for field in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise RuleSetError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return cls(**data)

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> RuleSet:
        """A rule set saved before countdown-only options were refused elsewhere: such an option is
        turned off (color_finish was never played outside countdown), so old rooms, matches and
        hands still load. New rule sets go through ``from_dict``, which refuses them."""
        if data.get("scoring", COUNTDOWN) != COUNTDOWN:
            data = {**data, **{name: False for name in COUNTDOWN_ONLY if name in data}}
        return cls.from_dict(data)

    @property
    def tiles_per_player(self) -> int:
        return 14

    @property
    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        """Seats that share one score (eşli: partners opposite each other); None when all play alone."""
        return PARTNER_TEAMS if self.partners else None


#: Eşli: partners sit opposite each other (RULES.md), for the whole match.
PARTNER_TEAMS: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))


def partner_of(seat: int) -> int:
    """The seat opposite (a partner in eşli)."""
    return (seat + 2) % 4
