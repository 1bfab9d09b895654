"""A tournament of Kart Okey (RULES.md "Tournaments" and "Kart Okey", rule 9): created from the staff
form, every table a one-hand Kart Okey table of four (two decks) unless the form says otherwise,
bots in the seats nobody fills, the lowest total goes on, and the final table is paid by source
004's prize table through the engine's ``prize_split``, to the chip; an arena scores a hand's
winner 2 points, 4 for going rummy."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import ChipTransaction
from games import services as game_services
from games.engine.kart.match import MatchKart
from games.engine.kart.rules import RulesKart
from games.engine.kart.scoring import prize_split
from games.models import Hand, Match
from salons.models import Seat
from tests.games.test_kart_match import expire, send_turn_as_a_player
from tournaments import logic, services
from tournaments.forms import TournamentForm
from tournaments.models import Entry, Tournament, TournamentTable

from .conftest import make_players, new_tournament, register_all, reload

pytestmark = pytest.mark.django_db


def kart(**options):
    return {"game": "kart", **RulesKart(**options).to_dict()}


def form_data(**overrides):
    data = {"name": "Kart akşamı", "format": "knockout", "game": "kart", "players_kart": "4", "hands_101": "11",
            "scoring": "penalty", "hands_per_match": "1", "players": "4", "turn_seconds": "20",
            "starts_at": "2030-01-01T20:00", "registration_minutes": "60", "min_players": "4", "max_players": "64",
            "buy_in": "0", "duration_minutes": "30", "go_on": "1"}
    data.update(overrides)
    return data


def play_kart_tables(tournament, *, rng) -> int:
    """Play every Kart table of the tournament until none has a hand in play: the people send the
    normal bot's turns themselves (a stock draw, then the rest whole, through ``services.play``),
    the seated bots are played by the clock's service as it plays a bot. Returns the hands played."""
    hands = 0
    for _ in range(20_000):
        match_ids = list(TournamentTable.objects.filter(tournament=tournament, status="playing")
                         .values_list("match_id", flat=True))
        for match in Match.objects.filter(pk__in=match_ids, status=Match.Status.RUNNING).exclude(
                hands__status=Hand.Status.PLAYING):
            game_services.start_next_hand(match_id=match.pk)
        playing = list(Hand.objects.filter(match_id__in=match_ids, status=Hand.Status.PLAYING).select_related("match"))
        if not playing:
            return hands
        for hand in playing:
            seats = {seat.position: seat.user for seat in Seat.objects.filter(table_id=hand.match.table_id)
                     .select_related("user")}
            while hand.status == Hand.Status.PLAYING:
                seat = hand.state["turn"]
                user = seats[seat]
                if user.is_bot:
                    expire(hand)
                    assert game_services.resolve_timeout(hand_id=hand.pk, move=hand.move)
                else:
                    send_turn_as_a_player(table=hand.match.table, user=user, hand=hand, seat=seat, rng=rng)
                hand = Hand.objects.select_related("match", "match__table").get(pk=hand.pk)
            hands += 1
    raise AssertionError("the Kart tables did not finish")


def run_to_the_end(tournament, *, start, rng):
    clock = start
    while True:
        services.sweep(now=clock)
        tournament = reload(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            return tournament
        play_kart_tables(tournament, rng=rng)
        clock += timedelta(minutes=30)
        assert clock < start + timedelta(hours=6), "the tournament did not finish"


# -- the form and the service -------------------------------------------------------------------------


def test_the_staff_form_makes_kart_tournaments_of_one_hand_tables_of_four_with_two_decks_by_default():
    form = TournamentForm(data=form_data())
    assert form.is_valid(), form.errors
    assert form.service_fields()["rules"] == {"game": "kart", "players": 4, "decks": 2, "rounds": 1, "prize_pool": 0}
    assert TournamentForm().fields["players_kart"].initial == 4
    three = TournamentForm(data=form_data(players_kart="3", format="arena"))
    assert three.is_valid(), three.errors
    assert three.service_fields()["rules"] == kart(players=3)
    # Left out (an older page), it is four.
    older = TournamentForm(data={key: value for key, value in form_data().items() if key != "players_kart"})
    assert older.is_valid() and older.service_fields()["rules"]["players"] == 4


def test_the_form_refuses_a_table_size_kart_does_not_play():
    form = TournamentForm(data=form_data(players_kart="5"))
    assert not form.is_valid() and "players_kart" in form.errors


@pytest.mark.parametrize(("rules", "words"), [
    ({"game": "kart", "players": 5}, "Kart Okey 2, 3 ya da 4 kişiyle oynanır."),
    ({"game": "kart", "players": 3, "decks": 2}, "iki deste yalnızca 4 kişilik masada oynanır"),
    ({"game": "kart", "partners": True}, "Kart Okey eşli oynanmaz"),
    ({"game": "kart", "prize_pool": 50}, "Turnuva masalarının kendi ödül havuzu olmaz"),
])
def test_the_service_refuses_kart_rules_it_will_not_play_in_words(rules, words):
    with pytest.raises(services.TournamentError) as refused:
        new_tournament(rules=rules)
    assert refused.value.code == "bad_rules"
    assert words in str(refused.value.message)
    assert not Tournament.objects.exists()


def test_the_tournament_page_names_the_game():
    tournament = new_tournament(rules=kart())
    html = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-testid="game-badge">Kart Okey</span>' in html
    classic = new_tournament()
    assert "game-badge" not in Client().get(f"/tournaments/{classic.pk}/").content.decode()
    # The list names it too, next to the tournament; a classic one has no badge.
    listing = Client().get("/tournaments/").content.decode()
    kart_item = listing.split(f'data-tournament-id="{tournament.pk}"', 1)[1].split("</li>", 1)[0]
    classic_item = listing.split(f'data-tournament-id="{classic.pk}"', 1)[1].split("</li>", 1)[0]
    assert 'data-testid="game-badge">Kart Okey</span>' in kart_item and "game-badge" not in classic_item


# -- a whole knockout ---------------------------------------------------------------------------------


def test_a_7_player_kart_knockout_with_a_bot_plays_kart_tables_to_a_final_paid_by_rule_9():
    start = timezone.now()
    tournament = new_tournament(now=start - timedelta(minutes=10), buy_in=30, max_players=8, go_on=2,
                                rules=kart())
    assert tournament.rules == {"game": "kart", "players": 4, "decks": 2, "rounds": 1, "prize_pool": 0}
    players = make_players(7)
    chips_before = {player.pk: player.chips for player in players}
    register_all(tournament, players, now=start - timedelta(minutes=5))
    tournament = run_to_the_end(tournament, start=start, rng=random.Random(2024))
    assert tournament.pool == 7 * 30
    tables = list(TournamentTable.objects.filter(tournament=tournament).order_by("round", "pk"))
    # Seven players: two tables of four (one seat a bot's), the top two of each to a final of four.
    assert [table.round for table in tables] == [1, 1, 2]
    assert sorted(sum(1 for seat in table.players if seat is logic.BOT) for table in tables[:2]) == [0, 1]
    for table in tables:
        match = Match.objects.get(pk=table.match_id)
        assert match.rules == tournament.rules and match.state["game"] == "kart"
        assert match.state["rounds_played"] == 1 and len(match.state["history"]) == 1
        seats = Seat.objects.filter(table_id=match.table_id)
        assert seats.count() == 4
        bots = {seat.position for seat in seats if seat.user.is_bot}
        assert bots == {seat for seat, player in enumerate(table.players) if player is logic.BOT}
        # The lowest total placed first; the engine's hand scores are the table's totals.
        scores = match.state["scores"]
        assert table.scores == scores == match.state["history"][0]["deltas"]
        assert scores[table.ranking[0]] == min(scores)
        people = [table.players[seat] for seat in table.ranking if table.players[seat] is not logic.BOT]
        if table.round == 1:
            assert table.went_on == people[:2]
    final = tables[-1]
    assert all(player is not logic.BOT for player in final.players)
    assert set(final.players) == {player for table in tables[:2] for player in table.went_on}
    # Rule 9 by the engine, worked out again here from the final match's own state.
    state = MatchKart.from_dict(Match.objects.get(pk=final.match_id).state)
    winners = [seat for seat, total in enumerate(state.scores) if total == min(state.scores)]
    if all(entry["winner"] is None for entry in state.history):
        winners = []
    expected_shares = prize_split(210, state.scores, winners, limit=80, order=state.play_order)
    expected = {final.players[seat]: share for seat, share in enumerate(expected_shares) if share}
    entries = {entry.user_id: entry for entry in Entry.objects.filter(tournament=tournament)}
    assert {user_id: entry.prize for user_id, entry in entries.items() if entry.prize} == expected
    assert sum(entry.prize for entry in entries.values()) == 210
    # Every prize went through the chip ledger: each player is down the buy-in and up the prize.
    for player in players:
        player.refresh_from_db(fields=["chips"])
        assert player.chips == chips_before[player.pk] - 30 + entries[player.pk].prize
        if entries[player.pk].prize:
            assert ChipTransaction.objects.filter(user=player, amount=entries[player.pk].prize,
                                             note__startswith=f"tournament {tournament.pk} place").exists()
    # The champion is the final's lowest total, and nobody with a higher total took more.
    champion = next(entry for entry in entries.values() if entry.state == Entry.State.WON)
    best = state.scores[final.players.index(champion.user_id)]
    assert best == min(state.scores) and champion.place == 1
    assert all(entries[player].prize <= champion.prize for seat, player in enumerate(final.players)
               if state.scores[seat] > best)


def test_a_knockout_of_three_seat_kart_tables():
    start = timezone.now()
    tournament = new_tournament(now=start - timedelta(minutes=10), max_players=8, rules=kart(players=3))
    register_all(tournament, make_players(5), now=start - timedelta(minutes=5))
    tournament = run_to_the_end(tournament, start=start, rng=random.Random(7))
    tables = list(TournamentTable.objects.filter(tournament=tournament).order_by("round", "pk"))
    # Five players at tables of three: 3 + 2 and a bot, then a final of the two winners and a bot.
    assert [table.round for table in tables] == [1, 1, 2]
    for table in tables:
        assert len(table.players) == 3
        match = Match.objects.get(pk=table.match_id)
        assert match.rules == kart(players=3) and match.state["rules"]["decks"] == 1
    assert sum(1 for seat in tables[-1].players if seat is logic.BOT) == 1
    assert Entry.objects.filter(tournament=tournament, state=Entry.State.WON).count() == 1


# -- the final's prizes and the arena's points, as rules -----------------------------------------------


def test_kart_final_prizes_are_source_004s_table():
    # Pool 100, losers at 10 / 30 / 95 → 14 / 10 / 0, the winner 76 (RULES.md "Kart Okey" rule 9).
    final = [(11, 10), (12, 0), (13, 95), (14, 30)]
    assert logic.kart_knockout_prizes(100, final, had_winner=True, limit=80) == {12: 76, 11: 14, 14: 10}
    # A three-hand table's limit is 240: everyone is under it.
    three = logic.kart_knockout_prizes(100, final, had_winner=True, limit=240)
    assert three == dict(zip((11, 12, 13, 14), prize_split(100, [10, 0, 95, 30], [1], limit=240), strict=True))
    assert sum(three.values()) == 100


def test_a_bot_or_an_absent_finalist_takes_no_prize_and_the_best_person_wins_instead():
    # The bot had the lowest total: the split is among the people, the lowest of them the winner.
    final = [(logic.BOT, 0), (21, 10), (22, 30), (23, 95)]
    # 21 wins (75); 22 is 50 under the limit, the only weight: 25; 23 is over it.
    assert logic.kart_knockout_prizes(100, final, had_winner=True, limit=80) == {21: 75, 22: 25}
    # 21 did not play the final (absent, or removed): 22 is the best person left, 23 over the limit.
    assert logic.kart_knockout_prizes(100, final, had_winner=True, limit=80, out={21}) == {22: 100}
    # Tied lowest totals share the winner's part.
    tie = logic.kart_knockout_prizes(101, [(31, 5), (32, 5), (33, 90), (34, 90)], had_winner=True, limit=80)
    assert tie == {31: 51, 32: 50}


def test_a_kart_final_without_a_winner_shares_the_pool_by_the_weights():
    # The hand ended at the second stock out (rule 7): the whole pool by limit − points among those
    # under the limit; the remainder one chip each, fewest points first.
    final = [(41, 20), (42, 50), (43, 100), (44, 70)]
    payout = logic.kart_knockout_prizes(100, final, had_winner=False, limit=80)
    assert payout == {41: 60, 42: 30, 44: 10}
    assert [payout.get(player, 0) for player, _ in final] == prize_split(100, [20, 50, 100, 70], [], limit=80)
    # What does not divide goes one chip each, fewest points first.
    assert logic.kart_knockout_prizes(101, final, had_winner=False, limit=80) == {41: 61, 42: 30, 44: 10}
    # Nobody under the limit: everyone their even share back (the remainder in play order).
    assert logic.kart_knockout_prizes(10, [(51, 90), (52, 99), (53, 85)], had_winner=False, limit=80,
                                      order=[1, 2, 0]) == {52: 4, 53: 3, 51: 3}


def test_arena_points_of_a_kart_hand_are_2_for_going_out_and_4_for_going_rummy():
    def entry(winner, rummy=False, reason="finished"):
        return {"reason": reason, "winner": winner, "rummy": rummy, "scores": [0, 0, 0, 0], "sheet": []}

    assert logic.arena_hand_points(entry(2), 4, game="kart") == [0, 0, 2, 0]
    assert logic.arena_hand_points(entry(1, rummy=True), 4, game="kart") == [0, 4, 0, 0]
    assert logic.arena_hand_points(entry(None, reason="stock_out"), 4, game="kart") == [0, 0, 0, 0]
    assert logic.arena_hand_points(entry(0), 3, game="kart") == [2, 0, 0]
    assert logic.hand_winner(entry(3)) == 3 and logic.hand_winner(entry(None, reason="stock_out")) is None
    # Classic and 101 entries are read as before.
    assert logic.hand_winner({"reason": "finished", "finisher": 1}) == 1


def test_a_kart_arena_scores_each_hands_winner():
    start = timezone.now()
    tournament = new_tournament(now=start - timedelta(minutes=10), format="arena", duration_minutes=5,
                                max_players=8, rules=kart())
    players = make_players(4)
    register_all(tournament, players, now=start - timedelta(minutes=5))
    services.sweep(now=start)
    tournament = reload(tournament)
    assert tournament.status == Tournament.Status.RUNNING
    play_kart_tables(tournament, rng=random.Random(3))
    table = TournamentTable.objects.get(tournament=tournament)
    match = Match.objects.get(pk=table.match_id)
    entry = match.state["history"][0]
    points = {e.user_id: e.points for e in Entry.objects.filter(tournament=tournament)}
    expected = {user_id: 0 for user_id in table.players}
    if entry["winner"] is not None:
        expected[table.players[entry["winner"]]] = 4 if entry["rummy"] else 2
    assert points == expected
    hands_won = {e.user_id: e.hands_won for e in Entry.objects.filter(tournament=tournament)}
    assert sum(hands_won.values()) == (1 if entry["winner"] is not None else 0)
