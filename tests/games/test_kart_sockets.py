"""A four-person Kart Okey table over real sockets (RULES.md "Kart Okey"): two web servers (okeysite.web) sharing
Redis and the PostgreSQL test database, neighbours on different servers; each player decides from
its own view only (its hand, the discard pile's top, the melds on the table), takes the discard or
draws from the stock with a ``draw`` frame, then sends its melds, lay-offs and discard whole. Every
round's scores are then worked out again from the round's final state by the rules (the winner's
0, the cards left, the rummy +25, the second stock out) and the pool's shares by rule 9, and
compared with what the table wrote and what every socket was told."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest
from asgiref.sync import sync_to_async

from games import services
from games.engine.kart.cards import format_card, hand_value, parse_card, sorted_cards
from games.engine.kart.hand import HandKart
from games.engine.kart.search import TableView, best_plan
from games.models import Match, MatchPlayer

from .test_kart_match import make_kart_table
from .test_okey101_sockets import Player, wait_for
from .test_scale_out import (
    FRAME_TIMEOUT,
    Servers,
    redis_url,
    require_redis,
    servers_database_url,
    session_cookie,
)

pytestmark = [pytest.mark.django_db(transaction=True)]

ROUNDS = 3
POOL = 400


def table_of(view: dict) -> list[TableView]:
    return [TableView(meld["id"], meld["kind"], tuple(parse_card(card) for card in meld["cards"]))
            for meld in view["melds"]]


def takes_the_discard(view: dict) -> bool:
    """Take the discard pile's top when the best plan with it places it and leaves fewer points."""
    if view["discard_top"] is None:
        return False
    hand = [parse_card(card) for card in view["hand"]]
    top = parse_card(view["discard_top"])
    with_top = best_plan([*hand, top], table_of(view), forbidden=top)
    without = best_plan(hand, table_of(view), discard=False)
    return (with_top is not None and top in with_top.placed
            and (with_top.goes_out or without is None or with_top.penalty < without.penalty))


def the_turn(view: dict, *, took: str | None) -> dict:
    """The best melds and lay-offs of the hand (with the taken card) and the discard."""
    hand = [parse_card(card) for card in view["hand"]]
    forbidden = parse_card(took) if took else None
    if forbidden is not None:
        hand.append(forbidden)
    plan = best_plan(hand, table_of(view), forbidden=forbidden)
    turn = {"actions": plan.actions(), "discard": format_card(plan.discard)}
    if took:
        turn["draw"] = "discard"
    return turn


def setup_table():
    table, users = make_kart_table(people=4, rounds=ROUNDS, prize_pool=POOL)
    match = services.start_match(user=table.room.owner, table_id=table.id)
    return table, users, match


def check_rounds(match_id: int) -> dict:
    """Every round's scores from its final hands by rule 8; the totals, the winners and the shares."""
    match = Match.objects.get(pk=match_id)
    totals = [0, 0, 0, 0]
    outs = rummies = 0
    for hand in match.hands.order_by("number"):
        state = HandKart.from_dict(hand.state)
        result = state.result
        assert result is not None
        if result.winner is not None:
            outs += 1
            rummies += result.rummy
            assert not state.hands[result.winner], "the winner went out: no card left"
            expected = [0 if seat == result.winner else hand_value(cards) + (25 if result.rummy else 0)
                        for seat, cards in enumerate(state.hands)]
        else:
            assert result.reason == "stock_out" and state.stock_outs == 2
            expected = [hand_value(cards) for cards in state.hands]
        assert list(result.scores) == expected
        assert [row["left"] for row in result.sheet] == [[format_card(c) for c in sorted_cards(cards)]
                                                         for cards in state.hands]
        totals = [a + b for a, b in zip(totals, expected, strict=True)]
    assert match.state["scores"] == totals
    assert dict(MatchPlayer.objects.filter(match=match).values_list("seat", "score")) == dict(enumerate(totals))
    return {"totals": totals, "outs": outs, "rummies": rummies,
            "winners": sorted(MatchPlayer.objects.filter(match=match, is_winner=True).values_list("seat", flat=True)),
            "first": match.state["first_starting_seat"], "history": match.state["history"]}


def rule_nine(totals: list[int], winners: list[int], first: int) -> list[int]:
    """Rule 9 worked out here from its words: the winner keeps at least 75 %; the others under the
    limit (80 × rounds) share 25 % by the weight (limit − points), rounded down; the rest to the
    winner(s), tied winners splitting evenly, odd chips in play order."""
    limit = 80 * ROUNDS
    order = [(first + k) % 4 for k in range(4)]
    shares = [0, 0, 0, 0]
    if winners:
        others = [seat for seat in range(4) if seat not in winners and totals[seat] < limit]
        weight = sum(limit - totals[seat] for seat in others)
        for seat in others:
            shares[seat] = POOL * (limit - totals[seat]) // (4 * weight)
        rest = POOL - sum(shares)
        tied = [seat for seat in order if seat in winners]
        for index, seat in enumerate(tied):
            shares[seat] += rest // len(tied) + (1 if index < rest % len(tied) else 0)
        return shares
    under = [seat for seat in range(4) if totals[seat] < limit]
    if not under:
        return [POOL // 4 + (1 if order.index(seat) < POOL % 4 else 0) for seat in range(4)]
    weight = sum(limit - totals[seat] for seat in under)
    for seat in under:
        shares[seat] = POOL * (limit - totals[seat]) // weight
    rest = POOL - sum(shares)
    for seat in sorted(under, key=lambda s: (totals[s], order.index(s)))[:rest]:
        shares[seat] += 1
    return shares


async def test_a_four_person_kart_table_over_two_servers_scores_and_pays_by_the_rules():
    url = redis_url()
    require_redis(url)
    table, users, match = await sync_to_async(setup_table)()
    cookies = [await sync_to_async(session_cookie)(user) for user in users]
    prefix = f"okey-test-{uuid.uuid4().hex[:12]}"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "okeysite.settings",
           "DATABASE_URL": await sync_to_async(servers_database_url)(), "REDIS_URL": url,
           "CHANNELS_PREFIX": prefix, "CACHE_PREFIX": prefix, "CELERY_BROKER_URL": "memory://",
           "PYTHONUNBUFFERED": "1"}
    servers = Servers(env)
    players: list[Player] = []
    from websockets.asyncio.client import connect

    try:
        ports = await asyncio.to_thread(servers.start, 2)
        for seat, cookie in enumerate(cookies):
            port = ports[seat % 2]  # each player's neighbours on the other server
            ws = await connect(f"ws://127.0.0.1:{port}/ws/tables/{table.id}/", origin=f"http://127.0.0.1:{port}",
                               additional_headers={"Cookie": cookie}, open_timeout=FRAME_TIMEOUT,
                               ping_interval=None, close_timeout=2)
            players.append(Player(ws, seat))
        await wait_for(players, lambda: all(p.state for p in players), "first frames")
        assert all(p.state["hand"]["seat"] == p.seat and len(p.state["hand"]["hand"]) == 10 for p in players)
        assert players[0].state["match"]["prize_pool"] == POOL
        melds = stock_draws = taken = 0
        for _ in range(ROUNDS * 300):
            frame = players[0].state
            if frame["match"].get("over"):
                break
            hand = frame["hand"]
            if hand["result"] is not None:
                hand_id = hand["id"]
                # Every socket sees every hand left, as cards, once the round is over.
                assert all(len(row["left"]) == hand["card_counts"][row["seat"]] for row in hand["result"]["sheet"])
                await sync_to_async(services.start_next_hand)(match_id=match.id)
                for player in players:
                    await player.send({"type": "state"})
                await wait_for(players, lambda: all(p.state["hand"]["id"] != hand_id for p in players)  # noqa: B023 - awaited in this iteration
                               or players[0].state["match"].get("over"), "the next round")
                continue
            mover = players[hand["turn"]]
            move = frame["move"]
            await wait_for(players, lambda: mover.state["move"] >= move, "the mover's frame")  # noqa: B023 - awaited in this iteration
            view = mover.state["hand"]
            took = None
            if takes_the_discard(view):
                took = view["discard_top"]
                taken += 1
            else:
                await mover.send({"type": "draw", "move": mover.state["move"], "source": "stock"})
                stock_draws += 1
                await wait_for(players, lambda: all(p.state["move"] > move for p in players), "the draw")  # noqa: B023 - awaited in this iteration
                view = mover.state["hand"]
                assert view["drawn"] and view["drawn_card"] == view["hand"][-1]
                assert all(p.state["hand"]["drawn_card"] is None for p in players if p is not mover)
                assert all(p.state["hand"]["card_counts"][mover.seat] == len(view["hand"]) for p in players)
                move = mover.state["move"]
            turn = the_turn(view, took=took)
            melds += len(turn["actions"])
            await mover.send({"type": "turn", "move": move, **turn})
            await wait_for(players, lambda: all(p.state["move"] > move or p.state["hand"]["id"] != hand["id"]  # noqa: B023 - awaited in this iteration
                                                for p in players), "the turn")
            # Everyone sees the same table: the melds and the discard pile's top.
            seen = [(p.state["hand"]["melds"], p.state["hand"]["discard_top"]) for p in players
                    if p.state["hand"]["id"] == hand["id"]]
            assert all(entry == seen[0] for entry in seen)
        final = players[0].state
        assert final["match"]["over"], "the table did not end"
        assert stock_draws > 0 and melds > 0, (stock_draws, melds, taken)
        checked = await sync_to_async(check_rounds)(match.id)
        assert checked["outs"] >= 1, "nobody went out in three rounds of best plays"
        await wait_for(players, lambda: all(p.state["match"].get("over") for p in players), "the end")
        totals = checked["totals"]
        expected_winners = [seat for seat in range(4) if totals[seat] == min(totals)]
        assert checked["winners"] == expected_winners
        shares = rule_nine(totals, expected_winners, checked["first"])
        assert sum(shares) == POOL and shares[expected_winners[0]] >= POOL * 3 // 4 // len(expected_winners)
        for player in players:
            assert player.state["match"]["scores"] == totals
            assert player.state["match"]["winners"] == expected_winners
            assert player.state["match"]["prizes"] == shares
            assert [entry["totals"] for entry in player.state["match"]["history"]] == [
                entry["totals"] for entry in checked["history"]]
    except BaseException:
        print(servers.output())
        raise
    finally:
        for player in players:
            player.reader.cancel()
            try:
                await asyncio.wait_for(player.ws.close(), 5)
            except Exception:  # noqa: BLE001 - closing is best effort; the servers stop anyway
                pass
        await asyncio.to_thread(servers.stop)
