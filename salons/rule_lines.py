"""What every game's rule catalogue is made of (classic Okey's ``rules_catalog``, 101's
``rules101_catalog``): an option's description and a rule page's line. Apart so the catalogues
import it and each other one way only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

YES = _("Evet")
NO = _("Hayır")


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
