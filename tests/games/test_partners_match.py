"""An eşli match on the site (RULES.md "Eşli"): partners opposite, one score per team in every
frame, both partners winners, both rated as one team, and the partner named in their history."""

from __future__ import annotations

import pytest

from games import selectors, services
from games.engine.rules import RuleSet
from games.models import Match, MatchPlayer, PlayerRating
from games.stats import player_record

from .conftest import make_table
from .test_absent_players import ready_rack_for_the_starter

pytestmark = pytest.mark.django_db


def test_an_eşli_match_ends_with_both_partners_winning_and_rated_together():
    table, users = make_table(rules=RuleSet(partners=True, start_points=2))
    match = services.start_match(user=table.room.owner, table_id=table.id)
    hand = match.hands.get()
    starter = ready_rack_for_the_starter(hand)
    partner, rivals = (starter + 2) % 4, [(starter + 1) % 4, (starter + 3) % 4]
    services.play(user=users[starter], table_id=table.id, action="finish", move=hand.move, args={"tile": "Y13"})
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    players = {player.seat: player for player in MatchPlayer.objects.filter(match=match)}
    assert {seat for seat, player in players.items() if player.is_winner} == {starter, partner}
    assert players[starter].score == players[partner].score == 2
    assert [players[seat].score for seat in rivals] == [0, 0], "the opposing team lost the finish value once"
    # The frame carries the engine's standing: the teams and the better direction.
    frame = selectors.table_frame(match=match, hand=hand, seat=rivals[0])
    assert frame["match"]["standing"] == {"higher_is_better": True, "teams": [[0, 2], [1, 3]]}
    assert sorted(frame["match"]["winners"]) == sorted([starter, partner])
    # Rated as one team: partners moved the same way and by the same amount.
    ratings = {row.user_id: row for row in PlayerRating.objects.filter(salon=None)}
    winners_after = {round(ratings[users[seat].pk].ordinal, 6) for seat in (starter, partner)}
    losers_after = {round(ratings[users[seat].pk].ordinal, 6) for seat in rivals}
    assert len(winners_after) == 1 and len(losers_after) == 1 and min(winners_after) > max(losers_after)
    assert all(ratings[users[seat].pk].wins == (seat in (starter, partner)) for seat in range(4))
    # The profile names the partner of that match.
    recent = player_record(users[starter])["recent"][0]
    assert (recent["won"], recent["partner"]) == (True, users[partner].username)
    assert player_record(users[rivals[0]])["recent"][0]["partner"] == users[rivals[1]].username


def test_a_penalty_eşli_hand_charges_the_opposing_team_once():
    table, users = make_table(rules=RuleSet(scoring="penalty", partners=True, hands_per_match=3))
    match = services.start_match(user=table.room.owner, table_id=table.id)
    hand = match.hands.get()
    starter = ready_rack_for_the_starter(hand)
    services.play(user=users[starter], table_id=table.id, action="finish", move=hand.move, args={"tile": "Y13"})
    scores = dict(MatchPlayer.objects.filter(match=match).values_list("seat", "score"))
    assert scores[starter] == scores[(starter + 2) % 4] == 0
    assert scores[(starter + 1) % 4] == scores[(starter + 3) % 4] == 20
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING


def test_a_room_for_partners_at_a_table_of_two_or_for_chips_is_refused_with_a_clear_message(client):
    from salons.forms import RoomForm

    for extra, message in (({"rule_players": "2"}, "4 kişilik"), ({"rule_scoring": "chips"}, "çipli")):
        data = {"name": "Eşli oda", "turn_seconds": "20", "table_count": "1", "bot_fill_seconds": "0",
                "rule_scoring": "countdown", "rule_players": "4", "rule_start_points": "20",
                "rule_hands_per_match": "1", "rule_prize_pool": "0", "rule_stake": "10", "rule_chip_hands": "10",
                "rule_partners": "on", **extra}
        form = RoomForm(data=data)
        assert not form.is_valid()
        assert message in " ".join(form.errors.get("rule_partners", [])), form.errors
