"""A visitor's practice hand: no account, nothing in the database.

The state of the hand is the pure engine's (``games.engine``) and lives only in the cache, under
an unguessable token the visitor's browser keeps in a cookie; it expires an hour after the last
move. Three bots (the engine's easy level) play their turns at once in the visitor's request, so
there is no socket, no Celery task, no ``Match`` or ``Hand`` row and no session row. New hands and
moves are rate-limited per client address (``GUEST_PRACTICE_PER_HOUR``,
``GUEST_PRACTICE_MOVES_PER_MINUTE``), counted in the cache like the site's other limits. The hand
is the only state: the service locks nothing because only its own browser can reach it, and a
stale ``move`` is refused with the fresh view, as at a real table.

Why server-side and not in the browser: the rules, the finish search and the bots exist once, in
Python; a second copy in JavaScript would drift (as the replay's tile drawing did)."""

from __future__ import annotations

import random
import secrets
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from games.engine import bots as engine_bots
from games.engine import deck as engine_deck
from games.engine import hand as engine_hand
from games.engine.errors import EngineError
from games.engine.rules import RuleSet
from games.errors import GameError

COOKIE = "okey_guest_practice"
STATE_SECONDS = 3600
ME = 0                       # the visitor's seat
BOT_LEVEL = "easy"           # a first hand should be winnable
ACTIONS = {"draw", "discard", "finish"}


def _per_hour() -> int:
    return int(getattr(settings, "GUEST_PRACTICE_PER_HOUR", 20))


def _moves_per_minute() -> int:
    return int(getattr(settings, "GUEST_PRACTICE_MOVES_PER_MINUTE", 120))


def _key(token: str) -> str:
    return f"guest-practice:{token}"


def _count(key: str, seconds: int) -> int:
    """One more in a cache counter that expires ``seconds`` after its first count."""
    cache.add(key, 0, seconds)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, seconds)
        return 1


def valid_token(token: Any) -> bool:
    return isinstance(token, str) and 20 <= len(token) <= 64 and token.replace("-", "").replace("_", "").isalnum()


def bot_names() -> list[str]:
    return [_("Sen"), _("Bot Ayla"), _("Bot Cem"), _("Bot Deniz")]


def _bots_play(state: engine_hand.HandState) -> engine_hand.HandState:
    rng = random.Random()
    for _turn in range(4 * 60):  # every seat but the visitor's, until it is the visitor's turn
        if state.is_over or state.turn == ME:
            return state
        state = engine_bots.play_bot_turn(state, state.turn, level=BOT_LEVEL, rng=rng)
    return state


def view(state: engine_hand.HandState, *, since: int = 0) -> dict[str, Any]:
    """What the visitor's page draws: the seat view (only their own rack), the moves after
    ``since`` and, once the hand is over, every rack (the hand is theirs alone)."""
    data = engine_hand.view_for(state, ME)
    data["events"] = [event for event in state.events if event.get("move", 0) > since]
    data["names"] = bot_names()
    if state.is_over:
        data["racks"] = [[engine_hand.format_tile(t) for t in rack] for rack in state.racks]
    return data


def start(*, address: str) -> tuple[str, dict[str, Any]]:
    """A new hand against three bots; the token to keep in the visitor's cookie, and the view."""
    if _count(f"guest-practice-starts:{address}", 3600) > _per_hour():
        raise GameError("guest_practice_limit", _("Bu adresten bir saatte çok fazla deneme eli açıldı. "
                                                   "Biraz sonra yeniden deneyin ya da üye olun."))
    token = secrets.token_urlsafe(24)
    state = engine_deck.deal(RuleSet(), starting_seat=random.randrange(4))
    state = _bots_play(state)
    cache.set(_key(token), state.to_dict(), STATE_SECONDS)
    return token, view(state)


def current(token: Any) -> dict[str, Any] | None:
    if not valid_token(token):
        return None
    data = cache.get(_key(token))
    return view(engine_hand.HandState.from_dict(data)) if data else None


def play(*, token: Any, address: str, action: Any, move: Any, tile: Any = None, source: Any = None) -> dict[str, Any]:
    """The visitor's move, then the bots' turns up to the visitor's next one."""
    if _count(f"guest-practice-moves:{address}", 60) > _moves_per_minute():
        raise GameError("rate_limited", _("Çok hızlı oynuyorsunuz; biraz bekleyin."))
    data = cache.get(_key(token)) if valid_token(token) else None
    if not data:
        raise GameError("guest_practice_gone", _("Bu deneme eli bitti ya da süresi doldu; yeni bir el açın."))
    state = engine_hand.HandState.from_dict(data)
    if action not in ACTIONS:
        raise GameError("bad_action", _("Bu hamle yapılamaz."))
    if move != state.move:
        raise GameError("stale", _("Masa sizden önce değişti; güncel hali gösteriliyor."), state=view(state))
    args: dict[str, Any] = {}
    if action == "draw":
        args["source"] = "discard" if source == "discard" else "pile"
    else:
        args["tile"] = tile if isinstance(tile, str) and len(tile) <= 3 else ""
    try:
        state = engine_hand.apply(state, ME, action, **args)
    except EngineError as error:
        raise GameError(error.code, _("Bu hamle şu an yapılamaz."), state=view(state, since=state.move)) from None
    since = state.move - 1
    state = _bots_play(state)
    cache.set(_key(token), state.to_dict(), STATE_SECONDS)
    return view(state, since=since)
