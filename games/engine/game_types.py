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

from . import autoplay, bots, deck, fairness, hand, match, replay, scoring
from .errors import EngineError
from .rules import RuleSet

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
