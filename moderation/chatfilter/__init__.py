"""Chat filter core for the okey salons (plain Python, no Django).

Salon rules forbid insults, humiliation, swearing, arguing, politics and advertising in chat.
This package decides, for one message, whether it goes out as typed ("allow"), goes out and is
reported to staff ("flag"), goes out with the offending words masked ("censor"), waits for a
moderator ("hold") or is dropped ("block")::

    >>> from moderation.chatfilter import filter_message
    >>> filter_message("salak mısın").to_dict()
    {'action': 'censor', 'categories': ['insult'], 'text': '***** mısın'}

Staff words and allow-list entries come in through :class:`FilterRules`; compile cost is paid
once per rules object (cached on it), so callers should keep the object while the lists do not
change.
"""

from .engine import CompiledRules, compiled, default_rules, filter_message
from .lexicon import ALLOW_EXACT, ALLOW_LIST, HAND_INSULTS, POLITICS, terlik_dictionary
from .normalize import fold, normalize_term, strip_invisible
from .values import (
    ACTION_RANK,
    CATEGORIES,
    DEFAULT_ACTIONS,
    Action,
    Category,
    FilterResult,
    FilterRules,
    Match,
    MatchMode,
    WatchedWord,
    strictest,
)

__all__ = [
    "compiled",
    "ACTION_RANK",
    "ALLOW_EXACT",
    "ALLOW_LIST",
    "CATEGORIES",
    "DEFAULT_ACTIONS",
    "HAND_INSULTS",
    "POLITICS",
    "Action",
    "Category",
    "CompiledRules",
    "FilterResult",
    "FilterRules",
    "Match",
    "MatchMode",
    "WatchedWord",
    "default_rules",
    "filter_message",
    "fold",
    "normalize_term",
    "strictest",
    "strip_invisible",
    "terlik_dictionary",
]
