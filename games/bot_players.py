"""Bot players on the site: who they are, and how one plays a turn through the same services as
people. The decisions themselves come from the pure engine (games.engine.bots), which sees only
the bot's own seat view."""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model

from games.engine import bots as engine_bots
from games.engine import hand as engine_hand
from games.engine.errors import EngineError
from games.engine.replay import replay

BOT_NAMES = ["BotAyla", "BotCem", "BotDeniz", "BotEce", "BotFatih", "BotGizem", "BotHakan", "BotIpek",
             "BotKerem", "BotLale", "BotMert", "BotNil"]
# A bot waits this long before it plays, as a person would.
THINK_SECONDS = (0.8, 2.2)


def think_time() -> float:
    return random.uniform(*THINK_SECONDS)


def bot_users(count: int, *, exclude: set[int] | None = None):
    """``count`` distinct bot accounts (created on first use; they can never log in)."""
    User = get_user_model()
    exclude = exclude or set()
    chosen = []
    for name in BOT_NAMES:
        bot, created = User.objects.get_or_create(username=name, defaults={"is_bot": True, "email": ""})
        if created:
            bot.set_unusable_password()
            bot.save(update_fields=["password"])
        if bot.pk not in exclude:
            chosen.append(bot)
        if len(chosen) == count:
            return chosen
    raise RuntimeError("not enough bot accounts")


def memory_for(state: engine_hand.HandState, seat: int) -> engine_bots.BotMemory | None:
    """What the seat has seen this hand, rebuilt from its own views of every earlier move.

    The bot's memory (who picked up which discard) lives in no table: replaying the hand from its
    deck gives the exact sequence of views the seat was shown. A hand that cannot be replayed (a
    test that set racks by hand) plays without memory.
    """
    memory = engine_bots.BotMemory()
    try:
        states = replay(state.deck, state.rules, state.starting_seat, state.events[1:])
    except (EngineError, ValueError, KeyError):
        return None
    if states[-1].to_dict() != state.to_dict():
        return None
    for past in states:
        memory.observe(engine_hand.view_for(past, seat))
    return memory


def play_turn(state: engine_hand.HandState, seat: int) -> engine_hand.HandState:
    """The bot plays the seat's whole turn (it may show, declare, draw, discard or finish)."""
    return engine_bots.play_bot_turn(state, seat, memory=memory_for(state, seat))
