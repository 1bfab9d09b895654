"""Game types: the one protocol every game the site plays implements, and their registry.

As scalachess's ``Variant`` or python-chess's variants: the site never knows a game by name. It
looks up the room's ``rules["game"]`` here (classic Okey when the key is absent, as every rule set
stored before game types were) and calls what the game type provides: its rules, the deal from a
committed deck, the legal actions per seat, applying one, the view for a seat and for a watcher,
the turn clock's move for an absent player, a bot's move, hand and match scoring (``Scoring``),
serialisation and the fair-deal check, and the action and error codes it can raise.

A new game is a package of its own that calls ``register`` once (docs/game-types.md). Classic
Okey (everything in this package before this module) is the first game type; it delegates to the
modules it always had, so nothing it plays changed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Protocol

from . import arrange, autoplay, bots, deck, fairness, hand, match, replay, scoring, tiles
from .errors import EngineError
from .rules import CHIPS, RuleSet

#: The game of a rule set that names none (every rule set stored before game types existed).
CLASSIC = "okey"


class GameType(Protocol):
    """What the site may ask of a game. States are the game's own serialisable objects."""

    name: ClassVar[str]
    #: Actions a seated player may send (the socket's and the protocol's list for this game).
    actions: ClassVar[tuple[str, ...]]
    #: Every ``EngineError.code`` the game can raise: each needs a translated message on the site.
    error_codes: ClassVar[tuple[str, ...]]

    def rules(self, data: dict[str, Any]) -> Any: ...
    def start_match(self, rules: Any, *, seed: Any = None) -> Any: ...
    def match_from_dict(self, data: dict[str, Any]) -> Any: ...
    def deal(self, match_state: Any, *, seed: Any = None) -> Any: ...
    def deal_from_deck(self, deck: Sequence[Any], rules: Any, *, starting_seat: int,
                       ending_shows: Sequence[int] = ()) -> Any: ...
    def hand_from_dict(self, data: dict[str, Any]) -> Any: ...
    def legal_actions(self, state: Any, seat: int) -> list[str]: ...
    def apply(self, state: Any, seat: int, action: str, **args: Any) -> Any: ...
    def view_for(self, state: Any, seat: int | None) -> dict[str, Any]: ...
    def clock_move(self, state: Any, seat: int) -> Any: ...
    def bot_move(self, state: Any, seat: int, *, level: str, rng: random.Random | None = None) -> Any: ...
    def scoring(self, rules: Any) -> scoring.Scoring: ...
    def record_hand(self, match_state: Any, state: Any) -> Any: ...
    def verify_hand(self, deck: Any, salt: str, commitment: str, *, rules: Any, starting_seat: int | None,
                    moves: Iterable[dict[str, Any]]) -> fairness.VerifyReport: ...
    # -- the match, as the site reads it
    def stored_rules(self, rules: Any) -> dict[str, Any]: ...
    def public_match(self, match_state: Any) -> dict[str, Any]: ...
    def live_scores(self, match_state: Any, state: Any) -> list[int]: ...
    def is_over(self, match_state: Any) -> bool: ...
    def winners(self, match_state: Any) -> list[int]: ...
    def end_match(self, match_state: Any, *, reason: str) -> Any: ...
    # -- chips: what a chip table holds from each person as a hand is dealt (0: no chips per hand)
    def plays_for_chips(self, rules: Any) -> bool: ...
    def hand_cover(self, rules: Any) -> int: ...
    def hand_deltas(self, state: Any) -> list[int]: ...
    # -- the fair deal and the replay page
    def commitment(self, state: Any, salt: str) -> str: ...
    def public_deck(self, state: Any) -> list[str]: ...
    def canonical_deck(self, deck: Any) -> str: ...
    def replay_steps(self, state: Any, moves: Sequence[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]: ...


class ClassicOkey:
    """Classic Okey (RULES.md up to "Game types"): 106 tiles, 14/15, an indicator, three presets."""

    name: ClassVar[str] = CLASSIC
    actions: ClassVar[tuple[str, ...]] = (
        "draw", "discard", "finish", "show_indicator", "declare_pairs", "take_indicator", "lay_first_okey")
    error_codes: ClassVar[tuple[str, ...]] = (
        # a player's action
        "not_your_turn", "must_draw_first", "already_drew", "tile_not_in_rack", "discard_pile_empty",
        "invalid_finish", "hand_over", "not_first_turn", "no_indicator_tile", "already_shown",
        "already_declared", "option_off", "bad_source", "bad_tile", "bad_action", "bad_seat", "not_shown",
        "not_declared", "indicator_taken", "too_early", "already_laid", "need_both_okeys", "must_finish",
        "pile_empty",
        # the site's own bookkeeping (dealing, recording, replays)
        "match_over", "hand_not_over", "wrong_hand", "bad_event",
    )

    def rules(self, data: dict[str, Any]) -> RuleSet:
        return RuleSet.from_stored({key: value for key, value in data.items() if key != "game"})

    def start_match(self, rules: RuleSet, *, seed: Any = None) -> match.MatchState:
        return match.start_match(rules, seed=seed)

    def match_from_dict(self, data: dict[str, Any]) -> match.MatchState:
        return match.MatchState.from_dict(data)

    def deal(self, match_state: match.MatchState, *, seed: Any = None) -> hand.HandState:
        return match.start_next_hand(match_state, seed=seed)

    def deal_from_deck(self, tiles: Sequence[int], rules: RuleSet, *, starting_seat: int,
                       ending_shows: Sequence[int] = ()) -> hand.HandState:
        return deck.deal_from_deck(tiles, rules, starting_seat=starting_seat, ending_shows=ending_shows)

    def hand_from_dict(self, data: dict[str, Any]) -> hand.HandState:
        return hand.HandState.from_dict(data)

    def legal_actions(self, state: hand.HandState, seat: int) -> list[str]:
        return hand.legal_actions(state, seat)

    def apply(self, state: hand.HandState, seat: int, action: str, **args: Any) -> hand.HandState:
        return hand.apply(state, seat, action, **args)

    def view_for(self, state: hand.HandState, seat: int | None) -> dict[str, Any]:
        return hand.view_for(state, seat)

    def clock_move(self, state: hand.HandState, seat: int) -> hand.HandState:
        """RULES.md "Absent players never win": draw from the pile and discard, nothing else."""
        new_state, _events = autoplay.auto_move(state, seat)
        return new_state

    def bot_move(self, state: hand.HandState, seat: int, *, level: str,
                 rng: random.Random | None = None) -> hand.HandState:
        """A seated bot plays its whole turn to win, remembering what its seat saw this hand."""
        return bots.play_bot_turn(state, seat, level=level, rng=rng or random.Random(),
                                  memory=bot_memory(state, seat))

    def scoring(self, rules: RuleSet) -> scoring.Scoring:
        return scoring.scoring_for(rules)

    def record_hand(self, match_state: match.MatchState, state: hand.HandState) -> match.MatchState:
        return match.record_hand(match_state, state)

    def verify_hand(self, tiles: Any, salt: str, commitment: str, *, rules: RuleSet, starting_seat: int | None,
                    moves: Iterable[dict[str, Any]]) -> fairness.VerifyReport:
        return fairness.verify_hand(tiles, salt, commitment, rules=rules, starting_seat=starting_seat, moves=moves)

    def stored_rules(self, rules: RuleSet) -> dict[str, Any]:
        """What a match stores: classic Okey's rule sets name no game (as every one stored before)."""
        return rules.to_dict()

    def public_match(self, match_state: match.MatchState) -> dict[str, Any]:
        """What every seat and watcher may see of the match (scores, history, the standing; no seed)."""
        return match_state.public()

    def live_scores(self, match_state: match.MatchState, state: hand.HandState) -> list[int]:
        return match.live_scores(match_state, state)

    def is_over(self, match_state: match.MatchState) -> bool:
        return match.is_over(match_state)

    def winners(self, match_state: match.MatchState) -> list[int]:
        return match.winners(match_state)

    def end_match(self, match_state: match.MatchState, *, reason: str) -> match.MatchState:
        return match.end_match(match_state, reason=reason)

    def plays_for_chips(self, rules: RuleSet) -> bool:
        return rules.scoring == CHIPS

    def hand_cover(self, rules: RuleSet) -> int:
        return scoring.most_a_hand_costs(rules)

    def hand_deltas(self, state: hand.HandState) -> list[int]:
        """What a finished hand moved, per seat (points, penalty points or chips)."""
        return scoring.hand_score_deltas(state.result, state.rules) if state.result else [0] * state.players

    def commitment(self, state: hand.HandState, salt: str) -> str:
        return fairness.commitment(state.deck, salt)

    def public_deck(self, state: hand.HandState) -> list[str]:
        return [tiles.format_tile(tile) for tile in state.deck]

    def canonical_deck(self, deck: Any) -> str:
        """A revealed deck as the commitment hashes it (``FairnessError`` when it cannot be read)."""
        return fairness.canonical_deck(deck)

    def replay_steps(self, state: hand.HandState, moves: Sequence[dict[str, Any]],
                     seat: int | None) -> list[dict[str, Any]]:
        """Every step of a finished hand as ``seat`` saw it (the public: None), with every rack sorted
        by colour and number and every discard pile (the deck is revealed on the same page), and at
        the last step the racks grouped into sets."""
        states = replay.replay(state.deck, state.rules, state.starting_seat, moves)
        steps = []
        for index, step in enumerate(states):
            view = hand.view_for(step, seat)
            # Step k shows move k (a move the engine made with the one before shares its state).
            view["event"] = step.events[index]
            order = _rack_order(step.okey)
            view["racks"] = [[tiles.format_tile(t) for t in sorted(rack, key=order)] for rack in step.racks]
            view["discards"] = [[tiles.format_tile(t) for t in pile] for pile in step.discards]
            steps.append(view)
        if states:
            last = states[-1]
            steps[-1]["groups"] = [
                [[tiles.format_tile(t) for t in group] for group in (*found.groups, found.loose) if group]
                for found in (arrange.arrange_by_sets(rack, last.okey, last.rules) for rack in last.racks)
            ]
        return steps


def _rack_order(okey: int):
    """Colour, then number; the okeys last, as a player sorts a rack by hand."""
    return lambda tile: (tile == okey, tiles.sort_key(tile))


def bot_memory(state: hand.HandState, seat: int) -> bots.BotMemory | None:
    """What the seat has seen this hand, rebuilt from its own views of every earlier move.

    A bot's memory (who picked up which discard) lives in no table: replaying the hand from its
    deck gives the exact sequence of views the seat was shown. A hand that cannot be replayed (a
    test that set racks by hand) plays without memory.
    """
    memory = bots.BotMemory()
    try:
        states = replay.replay(state.deck, state.rules, state.starting_seat, state.events)
    except (EngineError, ValueError, KeyError):
        return None
    if states[-1].to_dict() != state.to_dict():
        return None
    for past in states:
        memory.observe(hand.view_for(past, seat))
    return memory


_REGISTRY: dict[str, GameType] = {}


class UnknownGameType(EngineError):
    """A stored rule set names a game this site does not play: a clear error, never a crash."""

    def __init__(self, name: object):
        super().__init__(f"unknown game type {name!r}; known: {', '.join(sorted(_REGISTRY))}", code="unknown_game")
        self.game = name


def register(game_type: GameType) -> GameType:
    """Make a game type known by its ``name`` (one registration per game package)."""
    existing = _REGISTRY.get(game_type.name)
    if existing is not None and type(existing) is not type(game_type):
        raise ValueError(f"game type {game_type.name!r} is registered already")
    _REGISTRY[game_type.name] = game_type
    return game_type


def game_type(name: str) -> GameType:
    found = _REGISTRY.get(name) if isinstance(name, str) else None
    if found is None:
        raise UnknownGameType(name)
    return found


def game_type_of(rules: dict[str, Any] | RuleSet) -> GameType:
    """The game type a stored rule set plays (``rules["game"]``; classic Okey when absent)."""
    if isinstance(rules, RuleSet):
        return game_type(CLASSIC)
    return game_type(rules.get("game", CLASSIC) if isinstance(rules, dict) else None)


def names() -> list[str]:
    return sorted(_REGISTRY)


register(ClassicOkey())

# Games of their own packages, which know nothing of this registry (the import points one way).
from .okey101 import Okey101  # noqa: E402

register(Okey101())

from .kart import KartOkey  # noqa: E402

register(KartOkey())
