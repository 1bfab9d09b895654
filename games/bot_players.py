"""Bot players on the site: who they are, and how one plays a turn through the same services as
people. The decisions themselves come from the pure engine (games.engine.bots), which sees only
the bot's own seat view."""

from __future__ import annotations

import random

from accounts.bots import bot_accounts
from games.engine import bots as engine_bots
from games.engine import hand as engine_hand
from games.engine.errors import EngineError
from games.engine.replay import replay

# A bot waits this long before it plays, as a person would.
THINK_SECONDS = (0.8, 2.2)


def think_time() -> float:
    return random.uniform(*THINK_SECONDS)


def bot_users(count: int, *, exclude: set[int] | None = None):
    """``count`` distinct bot accounts: found by ``is_bot``, never by name (see ``accounts.bots``)."""
    return bot_accounts(count, exclude=exclude)


def memory_for(state: engine_hand.HandState, seat: int) -> engine_bots.BotMemory | None:
    """What the seat has seen this hand, rebuilt from its own views of every earlier move.

    The bot's memory (who picked up which discard) lives in no table: replaying the hand from its
    deck gives the exact sequence of views the seat was shown. A hand that cannot be replayed (a
    test that set racks by hand) plays without memory.
    """
    memory = engine_bots.BotMemory()
    try:
        states = replay(state.deck, state.rules, state.starting_seat, state.events)
    except (EngineError, ValueError, KeyError):
        return None
    if states[-1].to_dict() != state.to_dict():
        return None
    for past in states:
        memory.observe(engine_hand.view_for(past, seat))
    return memory


def play_turn(state: engine_hand.HandState, seat: int, *, level: str = "normal") -> engine_hand.HandState:
    """The bot plays the seat's whole turn (it may show, declare, draw, discard or finish) at
    ``level`` (easy, normal, hard: ``games.engine.bots``)."""
    return engine_bots.play_bot_turn(state, seat, level=level, rng=random.Random(), memory=memory_for(state, seat))
