"""Value types of the chat filter: actions, categories, staff rules and the result.

Kept free of Django on purpose: the same objects are built from database rows by the
moderation app, from literals in tests, and from a "test a sentence" staff tool.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

Action = Literal["allow", "censor", "hold", "block", "flag"]
Category = Literal["insult", "politics", "advertising", "custom"]
MatchMode = Literal["exact", "suffix", "prefix", "contains"]

#: Strictest action wins. "flag" delivers the message but tells staff, so it is weaker
#: than "censor", which changes what others see.
ACTION_RANK: Mapping[str, int] = MappingProxyType({"allow": 0, "flag": 1, "censor": 2, "hold": 3, "block": 4})
ACTIONS: tuple[str, ...] = tuple(ACTION_RANK)
RULE_ACTIONS: tuple[str, ...] = ("flag", "censor", "hold", "block")
CATEGORIES: tuple[str, ...] = ("advertising", "custom", "insult", "politics")
MATCH_MODES: tuple[str, ...] = ("exact", "suffix", "prefix", "contains")

#: Salon defaults: swearing is hidden but the rest of the sentence still goes out, politics
#: waits for a moderator (it is often harmless), advertising never reaches the table.
DEFAULT_ACTIONS: Mapping[str, str] = MappingProxyType(
    {"insult": "censor", "politics": "hold", "advertising": "block", "custom": "censor"}
)


def strictest(actions: Iterable[str]) -> str:
    """Return the strictest of ``actions`` ("allow" for none)."""
    best = "allow"
    for action in actions:
        if ACTION_RANK[action] > ACTION_RANK[best]:
            best = action
    return best


@dataclass(frozen=True)
class WatchedWord:
    """A word or phrase that staff want caught.

    ``action=None`` means "use the rules' default for this category", so a staff member can
    add a word without deciding on a punishment. ``match=None`` picks a mode from the length
    of the word: short words (<= 4 letters) only match with Turkish suffixes ("suffix"), longer
    ones match as the start of a word ("prefix"), because short roots are the ones that hide
    inside innocent words (Scunthorpe problem).
    """

    word: str
    category: Category = "custom"
    action: Action | None = None
    match: MatchMode | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.word, str) or not self.word.strip():
            raise ValueError("WatchedWord.word must be a non-empty string")
        if self.category not in CATEGORIES:
            raise ValueError(f"unknown category {self.category!r}; expected one of {CATEGORIES}")
        if self.action is not None and self.action not in RULE_ACTIONS:
            raise ValueError(f"unknown action {self.action!r}; expected one of {RULE_ACTIONS}")
        if self.match is not None and self.match not in MATCH_MODES:
            raise ValueError(f"unknown match mode {self.match!r}; expected one of {MATCH_MODES}")


def _coerce_word(item: Any) -> WatchedWord:
    """Accept WatchedWord, (word, category[, action[, match]]) tuples or dicts (e.g. DB rows)."""
    if isinstance(item, WatchedWord):
        return item
    if isinstance(item, str):
        return WatchedWord(item)
    if isinstance(item, Mapping):
        return WatchedWord(**item)
    if isinstance(item, (tuple, list)):
        return WatchedWord(*item)
    raise TypeError(f"cannot make a WatchedWord from {item!r}")


@dataclass(frozen=True, eq=False)
class FilterRules:
    """Everything that configures the filter; immutable so its compiled form can be cached on it.

    * ``watched_words``: staff words/phrases (added to the built-in lists when
      ``use_builtin_lists`` is true, which it is by default, so a staff list never silently
      disables the built-in swear words).
    * ``allow_list``: words/phrases never matched (place names, okey terms, false positives).
      A single word also allows its suffixed forms ("malatya" allows "Malatyalı"); an entry
      containing a dot ("okeye4.com") allows that domain in advertising checks.
      Allow wins over watched words.
    * ``default_actions``: action per category when a word has none; missing keys fall back to
      :data:`DEFAULT_ACTIONS`.
    * ``severe_insult_action``: used for built-in slurs marked severe (two-level insult list).
    * ``weak_advertising_action``: used when a social platform is merely named ("telegram")
      without a link, handle or number.
    """

    watched_words: tuple[WatchedWord, ...] = ()
    allow_list: tuple[str, ...] = ()
    default_actions: Mapping[str, str] = field(default_factory=lambda: DEFAULT_ACTIONS)
    severe_insult_action: Action = "block"
    weak_advertising_action: Action = "flag"
    use_builtin_lists: bool = True
    detect_advertising: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "watched_words", tuple(_coerce_word(w) for w in self.watched_words))
        allow = self.allow_list
        if isinstance(allow, str):
            allow = (allow,)
        object.__setattr__(self, "allow_list", tuple(str(a) for a in allow if str(a).strip()))
        actions = dict(DEFAULT_ACTIONS)
        for category, action in dict(self.default_actions).items():
            if category not in CATEGORIES:
                raise ValueError(f"unknown category {category!r} in default_actions")
            if action not in RULE_ACTIONS:
                raise ValueError(f"unknown action {action!r} for {category!r}")
            actions[category] = action
        object.__setattr__(self, "default_actions", MappingProxyType(actions))
        for name in ("severe_insult_action", "weak_advertising_action"):
            if getattr(self, name) not in RULE_ACTIONS:
                raise ValueError(f"{name} must be one of {RULE_ACTIONS}")

    def with_words(self, *words: WatchedWord | tuple | str, allow: Iterable[str] = ()) -> FilterRules:
        """Return a copy with more watched words / allow-list entries (rules are immutable)."""
        return FilterRules(
            watched_words=(*self.watched_words, *words),
            allow_list=(*self.allow_list, *allow),
            default_actions=self.default_actions,
            severe_insult_action=self.severe_insult_action,
            weak_advertising_action=self.weak_advertising_action,
            use_builtin_lists=self.use_builtin_lists,
            detect_advertising=self.detect_advertising,
        )


@dataclass(frozen=True)
class Match:
    """One thing the filter found; ``start``/``end`` index the ORIGINAL text."""

    category: str
    action: str
    start: int
    end: int
    found: str
    rule: str
    reason: str


@dataclass(frozen=True)
class FilterResult:
    """Outcome of :func:`filter_message`.

    ``text`` is what the other players see: the original with offending spans masked when the
    action is "censor", the untouched original otherwise (a held or blocked message is not
    shown at all, and a flagged one is shown as typed).
    """

    action: str
    categories: list[str]
    text: str
    reasons: list[str] = field(default_factory=list)
    matches: tuple[Match, ...] = ()

    @property
    def delivered(self) -> bool:
        """True when the message (possibly censored) goes out to the table right away."""
        return self.action in ("allow", "flag", "censor")

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "categories": list(self.categories), "text": self.text}
