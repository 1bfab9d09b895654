"""The 101 rule set, RULES.md "101 Okey" rule 14 (options) and rule 13 (hands per match), "Eşli"."""

from __future__ import annotations

import json

import pytest

from games.engine.errors import EngineError
from games.engine.okey101.rules import Rules101, RulesError


def test_rule14_the_defaults_are_seven_hands_202_both_penalties_and_a_limit_of_two():
    rules = Rules101()
    assert (rules.hands, rules.unopened_penalty, rules.okey_discard_penalty, rules.islek_penalty,
            rules.pairs_layoff_limit, rules.rising_opening, rules.partners) == (7, 202, True, True, 2, False, False)
    assert rules.players == 4 and rules.teams is None


@pytest.mark.parametrize("hands", [3, 5, 7, 9, 11])
def test_rule13_a_match_is_3_5_7_9_or_11_hands(hands):
    assert Rules101(hands=hands).hands == hands


@pytest.mark.parametrize(("field", "value"), [
    ("hands", 4), ("hands", True), ("unopened_penalty", 100), ("pairs_layoff_limit", 3),
    ("okey_discard_penalty", "yes"), ("partners", 1),
])
def test_rule14_a_value_outside_the_offered_ones_is_refused_naming_the_option(field, value):
    with pytest.raises(RulesError) as info:
        Rules101.from_dict({field: value})
    assert (info.value.code, info.value.field) == ("bad_option", field)
    assert isinstance(info.value, EngineError)


def test_rule14_an_unknown_option_is_refused_with_its_code():
    with pytest.raises(RulesError) as info:
        Rules101.from_dict({"scoring": "countdown"})
    assert (info.value.code, info.value.field) == ("unknown_option", "scoring")


def test_rule14_every_option_round_trips_through_json():
    rules = Rules101(hands=11, unopened_penalty=303, okey_discard_penalty=False, islek_penalty=False,
                     pairs_layoff_limit=None, rising_opening=True, partners=True)
    assert Rules101.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    assert Rules101.from_dict({}) == Rules101()


def test_esli_partners_sit_opposite_at_a_table_that_is_always_four():
    assert Rules101(partners=True).teams == ((0, 2), (1, 3))
    assert Rules101(partners=True).players == 4
