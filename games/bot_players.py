"""Bot players on the site: who they are, and how one plays a turn through the same services as
people. The decisions themselves come from the pure engine (games.engine.bots), which sees only
the bot's own seat view."""

from __future__ import annotations

import random

from accounts.bots import bot_accounts
from games.engine import bots as engine_bots
from games.engine import game_types
from games.engine import hand as engine_hand

# A bot waits this long before it plays, as a person would.
THINK_SECONDS = (0.8, 2.2)


def think_time() -> float:
    return random.uniform(*THINK_SECONDS)


def bot_users(count: int, *, exclude: set[int] | None = None):
    """``count`` distinct bot accounts: found by ``is_bot``, never by name (see ``accounts.bots``)."""
    return bot_accounts(count, exclude=exclude)


def memory_for(state: engine_hand.HandState, seat: int) -> engine_bots.BotMemory | None:
    """What the seat has seen this hand (the game type rebuilds it from the hand's own moves)."""
    return game_types.bot_memory(state, seat)


def play_turn(state: engine_hand.HandState, seat: int, *, level: str = "normal") -> engine_hand.HandState:
    """The bot plays the seat's whole turn (it may show, declare, draw, discard or finish) at
    ``level`` (easy, normal, hard: ``games.engine.bots``)."""
    return game_types.game_type_of(state.rules).bot_move(state, seat, level=level, rng=random.Random())
