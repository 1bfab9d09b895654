"""Scoring of the three presets (RULES.md, "Scoring presets").

``finish_value`` is what a finish is worth under a rule set; finish search uses it to pick the best
finish for the finisher, and hand/match scoring uses it to move points and chips.
"""

from __future__ import annotations

from .finish import ORDERED_COLOR, PAIRS, UNORDERED_COLOR, Finish
from .rules import CHIPS, COUNTDOWN, PENALTY, RuleSet

# Large enough to outrank every other finish: a sıralı renk ends the countdown match at once.
ORDERED_COLOR_VALUE = 10_000


def finish_value(finish: Finish, rules: RuleSet, *, double_okey: bool = False) -> int:
    """Points each other player loses (countdown), gains as penalty (penalty) or chips each pays (chips)."""
    pairs = finish.kind == PAIRS
    if rules.scoring == COUNTDOWN:
        if rules.color_finish and finish.color == ORDERED_COLOR:
            return ORDERED_COLOR_VALUE
        base = 8 if pairs or (rules.color_finish and finish.color == UNORDERED_COLOR) else 2
        if double_okey:
            return base * 4
        return base * 2 if finish.okey_finish else base
    if rules.scoring == PENALTY:
        # 20 normal, 40 pairs, 40 okey finish, 80 both (interpretation: both doublings).
        return 20 * (2 if pairs else 1) * (2 if finish.okey_finish else 1)
    if rules.scoring == CHIPS:
        return rules.stake * (2 if pairs else 1) * (2 if finish.okey_finish else 1)
    raise ValueError(rules.scoring)
