"""``KartOkey``: Kart Okey behind the ``GameType`` protocol (games.engine.game_types).

Registered in ``games.engine.game_types``; the fair deal and the replay are in ``fair``, the bots in
``bots``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from ..errors import EngineError
from ..fairness import VerifyReport
from ..scoring import Scoring
from . import fair, hand, match
from .cards import Card, format_card, hand_value, sorted_cards
from .rules import GAME, RulesKart


class KartOkey:
    """Kart Okey (RULES.md "Kart Okey"): a 52-card rummy, 10 cards each, penalty points, low wins."""

    name: ClassVar[str] = GAME
    #: ``draw`` (the stock's top, a fact of its own), then ``turn`` (the rest, applied whole).
    actions: ClassVar[tuple[str, ...]] = ("draw", "turn")
    error_codes: ClassVar[tuple[str, ...]] = (
        # a player's turn
        "not_your_turn", "hand_over", "bad_seat", "bad_turn", "bad_action", "bad_card", "bad_meld",
        "must_draw", "already_drew", "discard_pile_empty", "stock_empty", "card_not_in_hand", "no_such_meld",
        "not_layable", "must_discard", "discard_taken",
        # the rules
        "unknown_option", "bad_option",
        # the site's own bookkeeping
        "match_over", "hand_not_over", "wrong_hand",
    )

    def rules(self, data: dict[str, Any]) -> RulesKart:
        return RulesKart.from_dict({key: value for key, value in data.items() if key != "game"})

    def stored_rules(self, rules: RulesKart) -> dict[str, Any]:
        return {"game": GAME, **rules.to_dict()}

    def start_match(self, rules: RulesKart, *, seed: Any = None) -> match.MatchKart:
        return match.start_match(rules, seed=seed)

    def match_from_dict(self, data: dict[str, Any]) -> match.MatchKart:
        return match.MatchKart.from_dict(data)

    def deal(self, match_state: match.MatchKart, *, seed: Any = None) -> hand.HandKart:
        return match.start_next_hand(match_state, seed=seed)

    def deal_from_deck(self, deck: Sequence[Card], rules: RulesKart, *, starting_seat: int,
                       ending_shows: Sequence[int] = ()) -> hand.HandKart:
        """``ending_shows`` is classic Okey's (a shown indicator ending a match): cards have none."""
        return hand.deal_from_deck(fair.deck_cards(deck), rules, starting_seat=starting_seat)

    def hand_from_dict(self, data: dict[str, Any]) -> hand.HandKart:
        return hand.HandKart.from_dict(data)

    def legal_actions(self, state: hand.HandKart, seat: int) -> list[str]:
        return hand.legal_actions(state, seat)

    def apply(self, state: hand.HandKart, seat: int, action: str, **args: Any) -> hand.HandKart:
        """``apply(state, seat, "draw")``; ``apply(state, seat, "turn", turn={...})`` or the turn's keys."""
        if action == "draw":
            if args.get("source", hand.STOCK) != hand.STOCK:
                raise EngineError("take the discard pile's top inside your turn (draw: \"discard\")",
                                  code="bad_turn")
            return hand.draw_from_stock(state, seat)
        if action != "turn":
            raise EngineError(f"unknown action {action!r}", code="bad_action", action=repr(action))
        turn = args["turn"] if set(args) == {"turn"} else args
        return hand.apply_turn(state, seat, turn)

    def view_for(self, state: hand.HandKart, seat: int | None) -> dict[str, Any]:
        return hand.view_for(state, seat)

    def clock_move(self, state: hand.HandKart, seat: int) -> hand.HandKart:
        """Draw from the stock and discard the highest card; never melds or lays off."""
        return hand.clock_move(state, seat)

    def bot_move(self, state: hand.HandKart, seat: int, *, level: str,
                 rng: random.Random | None = None) -> hand.HandKart:
        """A seated bot's whole turn (it may draw from the stock first), played to win."""
        from .bots import play_bot_turn

        return play_bot_turn(state, seat, level=level, rng=rng or random.Random())

    def scoring(self, rules: RulesKart) -> Scoring:
        return match.scoring_for(rules)

    def record_hand(self, match_state: match.MatchKart, state: hand.HandKart) -> match.MatchKart:
        return match.record_hand(match_state, state)

    def public_match(self, match_state: match.MatchKart) -> dict[str, Any]:
        return match_state.public()

    def live_scores(self, match_state: match.MatchKart, state: hand.HandKart) -> list[int]:
        return match.live_scores(match_state, state)

    def is_over(self, match_state: match.MatchKart) -> bool:
        return match.is_over(match_state)

    def winners(self, match_state: match.MatchKart) -> list[int]:
        return match.winners(match_state)

    def prizes(self, match_state: match.MatchKart) -> list[int] | None:
        """Rule 9's shares of the prize pool once the table is over (not a protocol member)."""
        return match.prizes(match_state)

    def hand_deltas(self, state: hand.HandKart) -> list[int]:
        return list(state.result.scores) if state.result is not None else [0] * state.players

    def end_match(self, match_state: match.MatchKart, *, reason: str) -> match.MatchKart:
        return match.end_match(match_state, reason=reason)

    def plays_for_chips(self, rules: RulesKart) -> bool:
        """A hand moves penalty points only; rule 9's prize pool is paid once, at the table's end."""
        return False

    def hand_cover(self, rules: RulesKart) -> int:
        return 0

    def verify_hand(self, deck: Any, salt: str, commitment: str, *, rules: RulesKart, starting_seat: int | None,
                    moves: Iterable[dict[str, Any]]) -> VerifyReport:
        return fair.verify_hand(deck, salt, commitment, rules=rules, starting_seat=starting_seat, moves=moves)

    def commitment(self, state: hand.HandKart, salt: str) -> str:
        return fair.commitment(state, salt)

    def public_deck(self, state: hand.HandKart) -> list[str]:
        return [format_card(card) for card in state.deck]

    def canonical_deck(self, deck: Any) -> str:
        return fair.canonical_deck(deck)

    def replay_steps(self, state: hand.HandKart, moves: Sequence[dict[str, Any]],
                     seat: int | None) -> list[dict[str, Any]]:
        """Every step of a finished hand as ``seat`` saw it, with every hand (the deck is revealed on
        the same page) sorted by suit and rank, its value, and the whole discard pile."""
        steps = []
        for step in fair.replay(state.deck, state.rules, state.starting_seat, moves):
            view = hand.view_for(step, seat)
            view["event"] = next(event for event in reversed(step.events)
                                 if event["type"] not in ("hand_end", "reshuffle"))
            view["hands"] = [[format_card(card) for card in sorted_cards(cards)] for cards in step.hands]
            view["hand_values"] = [hand_value(cards) for cards in step.hands]
            view["discards"] = [format_card(card) for card in step.discards]
            steps.append(view)
        return steps
