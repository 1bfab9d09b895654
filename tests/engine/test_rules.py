"""Rule sets: options of source 000 belong to the countdown preset; any other preset refuses them
with a stable code naming the option (RULES.md, "Options from source 000")."""

from __future__ import annotations

import pytest

from games.engine.hand import HandState
from games.engine.match import MatchState, start_match
from games.engine.rules import CHIPS, COUNTDOWN, COUNTDOWN_ONLY, PENALTY, RuleSet, RuleSetError


@pytest.mark.parametrize("preset", [PENALTY, CHIPS])
@pytest.mark.parametrize("option", COUNTDOWN_ONLY)
def test_a_countdown_option_under_another_preset_is_refused_with_its_name(preset, option):
    with pytest.raises(RuleSetError) as error:
        RuleSet(scoring=preset, **{option: True})
    assert error.value.code == "option_outside_preset"
    assert error.value.field == option
    with pytest.raises(RuleSetError):
        RuleSet.from_dict({**RuleSet.preset(preset).to_dict(), option: True})


def test_the_issue_examples_are_refused():
    with pytest.raises(RuleSetError, match="double_okey"):
        RuleSet(scoring="penalty", double_okey=True)
    with pytest.raises(RuleSetError, match="color_finish"):
        RuleSet.preset(CHIPS, color_finish=True)


@pytest.mark.parametrize("option", COUNTDOWN_ONLY)
def test_countdown_plays_every_one_of_its_options(option):
    assert getattr(RuleSet(scoring=COUNTDOWN, **{option: True}), option) is True


def test_other_bad_values_name_their_field():
    with pytest.raises(RuleSetError) as error:
        RuleSet(players=3)
    assert (error.value.code, error.value.field) == ("bad_rules", "players")


def test_rules_stored_before_the_refusal_still_load_with_the_option_off():
    stored = {**RuleSet.preset(PENALTY).to_dict(), "double_okey": True, "color_finish": True}
    rules = RuleSet.from_stored(stored)
    assert rules == RuleSet.preset(PENALTY)
    match = start_match(RuleSet.preset(PENALTY), seed=1)
    data = match.to_dict()
    data["rules"] = stored
    assert MatchState.from_dict(data).rules == RuleSet.preset(PENALTY)
    from games.engine.match import start_next_hand

    hand = start_next_hand(match).to_dict()
    hand["rules"] = stored
    assert HandState.from_dict(hand).rules == RuleSet.preset(PENALTY)
