"""What every game's rule catalogue is made of (classic Okey's ``rules_catalog``, 101's
``rules101_catalog``, Kart Okey's ``rules_kart_catalog``): an option's description, a rule page's
line and the games' names as players read them. Apart so the catalogues import it and each other
one way only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.engine.game_types import CLASSIC
from games.engine.kart.rules import GAME as GAME_KART
from games.engine.kart.rules import RulesKart
from games.engine.okey101.rules import GAME as GAME101
from games.engine.okey101.rules import Rules101

YES = _("Evet")
NO = _("Hayır")

#: The game types a room may choose, as players name them (the room form's first choice, in order).
GAME_LABELS: dict[str, Promise] = {
    CLASSIC: _("Okey"),
    GAME101: _("101 Okey"),
    GAME_KART: _("Kart Okey"),
}


def game_of(rules: Any) -> str:
    """The game a stored (or read) rule set names (classic Okey when none), never an error."""
    if isinstance(rules, Rules101):
        return GAME101
    if isinstance(rules, RulesKart):
        return GAME_KART
    if isinstance(rules, dict):
        game = rules.get("game", CLASSIC)
        return game if isinstance(game, str) else ""
    return CLASSIC


def game_label(rules: Any) -> str:
    """The game's name for players ("" for a game this site does not play)."""
    label = GAME_LABELS.get(game_of(rules))
    return str(label) if label is not None else ""


@dataclass(frozen=True)
class RuleOption:
    label: Promise
    description: Promise
    # The scoring presets the option matters for; None = every preset.
    presets: frozenset[str] | None = None
    # (value, label) pairs for options with a fixed set of values.
    choices: tuple[tuple[Any, Promise], ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    # RULES.md marks it as our reading where the sources are silent: the page says so.
    interpretation: bool = False
    # Set by the preset itself (e.g. chips always plays with at most one okey per set).
    fixed_by_preset: frozenset[str] = frozenset()
    # The table sizes the option is played at; None = both (eşli needs four).
    table_sizes: frozenset[int] | None = None


@dataclass(frozen=True)
class RuleLine:
    name: str
    label: str
    value: str
    description: str
    interpretation: bool
