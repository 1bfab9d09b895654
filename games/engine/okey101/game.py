"""``Okey101``: 101 Okey behind the ``GameType`` protocol (games.engine.game_types).

Registered in ``games.engine.game_types``; the fair deal and the replay are in ``fair``, the bots in
``bots``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from .. import fairness
from ..errors import EngineError
from ..fairness import VerifyReport
from ..scoring import Scoring
from ..tiles import Tile, format_tile, sort_key
from . import fair, hand, match
from .melds import tile_value
from .rules import GAME, Rules101


class Okey101:
    """101 Okey (RULES.md "101 Okey"): 21/22 tiles, melds on the table, penalty points, low wins."""

    name: ClassVar[str] = GAME
    #: ``draw`` (the pile's top, a fact of its own), then ``turn`` (the rest, applied whole).
    actions: ClassVar[tuple[str, ...]] = ("draw", "turn")
    error_codes: ClassVar[tuple[str, ...]] = (
        # a player's turn
        "not_your_turn", "hand_over", "bad_seat", "bad_turn", "bad_action", "bad_tile", "bad_meld",
        "no_draw_first_turn", "must_draw", "discard_pile_empty", "pile_empty", "tile_not_in_rack",
        "already_opened", "not_opened", "mixed_opening", "wrong_kind", "opening_too_low", "no_such_meld",
        "not_layable", "bad_swap", "layoff_limit", "discard_unused", "must_discard", "already_drew",
        # the rules
        "unknown_option", "bad_option",
        # the site's own bookkeeping
        "match_over", "hand_not_over", "wrong_hand",
    )

    def rules(self, data: dict[str, Any]) -> Rules101:
        return Rules101.from_dict({key: value for key, value in data.items() if key != "game"})

    def stored_rules(self, rules: Rules101) -> dict[str, Any]:
        return {"game": GAME, **rules.to_dict()}

    def start_match(self, rules: Rules101, *, seed: Any = None) -> match.Match101:
        return match.start_match(rules, seed=seed)

    def match_from_dict(self, data: dict[str, Any]) -> match.Match101:
        return match.Match101.from_dict(data)

    def deal(self, match_state: match.Match101, *, seed: Any = None) -> hand.Hand101:
        return match.start_next_hand(match_state, seed=seed)

    def deal_from_deck(self, tiles: Sequence[Tile], rules: Rules101, *, starting_seat: int,
                       ending_shows: Sequence[int] = ()) -> hand.Hand101:
        """``ending_shows`` is classic Okey's (a shown indicator ending a countdown match): 101 has none."""
        return hand.deal_from_deck(tiles, rules, starting_seat=starting_seat)

    def hand_from_dict(self, data: dict[str, Any]) -> hand.Hand101:
        return hand.Hand101.from_dict(data)

    def legal_actions(self, state: hand.Hand101, seat: int) -> list[str]:
        return hand.legal_actions(state, seat)

    def apply(self, state: hand.Hand101, seat: int, action: str, **args: Any) -> hand.Hand101:
        """``apply(state, seat, "draw")``; ``apply(state, seat, "turn", turn={...})`` or the turn's keys."""
        if action == "draw":
            if args.get("source", hand.PILE) != hand.PILE:
                raise EngineError("take the discard inside your turn (draw: \"discard\")", code="bad_turn")
            return hand.draw_from_pile(state, seat)
        if action != "turn":
            raise EngineError(f"unknown action {action!r}", code="bad_action", action=repr(action))
        turn = args["turn"] if set(args) == {"turn"} else args
        return hand.apply_turn(state, seat, turn)

    def view_for(self, state: hand.Hand101, seat: int | None) -> dict[str, Any]:
        return hand.view_for(state, seat)

    def clock_move(self, state: hand.Hand101, seat: int) -> hand.Hand101:
        """Draw from the pile and discard a tile that costs no penalty when there is one; never opens."""
        return hand.clock_move(state, seat)

    def bot_move(self, state: hand.Hand101, seat: int, *, level: str,
                 rng: random.Random | None = None) -> hand.Hand101:
        """A seated bot's whole turn (it may draw from the pile first), played to win."""
        from .bots import play_bot_turn

        return play_bot_turn(state, seat, level=level, rng=rng or random.Random())

    def scoring(self, rules: Rules101) -> Scoring:
        return match.scoring_for(rules)

    def record_hand(self, match_state: match.Match101, state: hand.Hand101) -> match.Match101:
        return match.record_hand(match_state, state)

    def public_match(self, match_state: match.Match101) -> dict[str, Any]:
        return match_state.public()

    def live_scores(self, match_state: match.Match101, state: hand.Hand101) -> list[int]:
        return match.live_scores(match_state, state)

    def is_over(self, match_state: match.Match101) -> bool:
        return match.is_over(match_state)

    def winners(self, match_state: match.Match101) -> list[int]:
        return match.winners(match_state)

    def hand_deltas(self, state: hand.Hand101) -> list[int]:
        return list(state.result.scores) if state.result is not None else [0] * state.players

    def end_match(self, match_state: match.Match101, *, reason: str) -> match.Match101:
        return match.end_match(match_state, reason=reason)

    def plays_for_chips(self, rules: Rules101) -> bool:
        """Rule 13's chip stake is a match stake (paid once, the pot to the winner), not a hand's: not
        offered yet, so a 101 table plays for points only."""
        return False

    def hand_cover(self, rules: Rules101) -> int:
        return 0

    def verify_hand(self, deck: Any, salt: str, commitment: str, *, rules: Rules101, starting_seat: int | None,
                    moves: Iterable[dict[str, Any]]) -> VerifyReport:
        return fair.verify_hand(deck, salt, commitment, rules=rules, starting_seat=starting_seat, moves=moves)

    def commitment(self, state: hand.Hand101, salt: str) -> str:
        return fair.commitment(state, salt)

    def public_deck(self, state: hand.Hand101) -> list[str]:
        return [format_tile(tile) for tile in state.deck]

    def canonical_deck(self, deck: Any) -> str:
        return fairness.canonical_deck(deck)

    def replay_steps(self, state: hand.Hand101, moves: Sequence[dict[str, Any]],
                     seat: int | None) -> list[dict[str, Any]]:
        """Every step of a finished hand as ``seat`` saw it, with every rack (the deck is revealed on the
        same page) sorted by colour and number, the okeys last, and every discard pile."""
        states = fair.replay(state.deck, state.rules, state.starting_seat, moves)
        okey = state.okey
        steps = []
        for step in states:
            view = hand.view_for(step, seat)
            # The move that made this step (a hand's end is written with the turn that ended it).
            view["event"] = next(event for event in reversed(step.events) if event["type"] != "hand_end")
            view["racks"] = [[format_tile(tile) for tile in sorted(rack, key=lambda t: (t == okey, sort_key(t)))]
                             for rack in step.racks]
            view["rack_values"] = [sum(tile_value(tile, okey) for tile in rack) for rack in step.racks]
            view["discards"] = [[format_tile(tile) for tile in pile] for pile in step.discards]
            steps.append(view)
        return steps
