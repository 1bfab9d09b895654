"""Word index: normalised roots -> entries, and the matching of candidate words against them.

Matching is a dictionary walk over the prefixes of a candidate (a word is at most a few dozen
characters), so the cost per word is a handful of hash look-ups no matter how many roots staff
add; a two-character prefix set rejects most words after one look-up. Everything runs on
squeezed text ("salaaaak" -> "salak"; see :func:`.normalize.squeeze`), keys included.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from .lexicon import SUFFIXES, terlik_dictionary
from .normalize import normalize_term, squeeze

VOWELS = frozenset("aeiou")
# our list plus terlik's (folded: its "ımız", "ünü" become "imiz", "unu")
_DEFAULT_SUFFIXES = frozenset(
    squeeze("".join(normalize_term(s))) for s in (*SUFFIXES, *terlik_dictionary()[2])
) - {""}
_MAX_SUFFIX = max(map(len, _DEFAULT_SUFFIXES))
MAX_CHAIN = 3


@lru_cache(maxsize=4096)
def suffix_chain_ok(rem: str, parts: int = MAX_CHAIN) -> bool:
    """True when ``rem`` splits into at most ``parts`` known Turkish suffixes."""
    if not rem:
        return True
    if parts == 0 or len(rem) > 6 * parts:
        return False
    for k in range(min(_MAX_SUFFIX, len(rem)), 0, -1):
        if rem[:k] in _DEFAULT_SUFFIXES and suffix_chain_ok(rem[k:], parts - 1):
            return True
    return False


@dataclass(slots=True)
class Entry:
    """A compiled root. ``key`` is normalised, collapsed and without spaces."""

    key: str
    label: str
    category: str
    action: str
    mode: str
    severe: bool
    forbid: frozenset[str]
    suffixes: frozenset[str] | None
    joinable: bool
    needs_vowel: bool
    source: str
    needs_context: bool = False
    suffix_required: bool = False
    elliptic: bool = False

    def accepts(self, rem: str) -> bool:
        """Does the rest of the word after the root keep this a match?"""
        if self.needs_vowel and (not rem or rem[0] not in VOWELS):
            return False
        if self.suffix_required and not rem:
            return False
        if self.mode in ("prefix", "contains") or not rem:
            return True
        if self.suffixes is not None:
            return rem in self.suffixes or (self.key[-1] + rem) in self.suffixes
        if self.mode == "exact":
            return False
        # collapsing may have merged the root's last letter with the suffix's first ("sik"+"ke")
        return suffix_chain_ok(rem) or suffix_chain_ok(self.key[-1] + rem)

    def extend(self, s: str, end: int) -> int:
        """In a run of spaced letters the word end is unknown: take the longest valid suffix."""
        if self.needs_vowel and (end >= len(s) or s[end] not in VOWELS):
            return -1
        if self.mode == "exact" and self.suffixes is None:
            return end
        if self.suffix_required:
            for j in range(min(len(s), end + 12), end, -1):
                if self.suffixes is not None and s[end:j] in self.suffixes:
                    return j
            return -1
        for j in range(min(len(s), end + 12), end, -1):
            rem = s[end:j]
            if self.suffixes is not None:
                if rem in self.suffixes:
                    return j
            elif suffix_chain_ok(rem):
                return j
        return end


@dataclass(frozen=True, slots=True)
class Spec:
    """Input to :class:`WordIndex` (built-in Lex or staff WatchedWord, already resolved)."""

    word: str
    category: str
    action: str
    mode: str | None
    severe: bool = False
    forbid: str = ""
    suffixes: tuple[str, ...] | None = None
    source: str = "built-in"
    joinable: bool = False
    needs_context: bool = False
    suffix_required: bool = False
    elliptic: bool = False


class WordIndex:
    """All roots of a rule set, ready for matching."""

    def __init__(self, specs: Iterable[Spec]) -> None:
        self.index: dict[str, list[Entry]] = {}
        self.entries: list[Entry] = []
        staff_keys: set[str] = set()
        compiled: list[Entry] = []
        for spec in specs:
            for entry in self._compile(spec):
                compiled.append(entry)
                if entry.source == "staff":
                    staff_keys.add(entry.key)
        for entry in compiled:
            # a staff word replaces a built-in root with the same key (lets staff soften/harden it)
            if entry.source != "staff" and entry.key in staff_keys:
                continue
            self.entries.append(entry)
            self.index.setdefault(entry.key, []).append(entry)
        self.max_key = max((len(k) for k in self.index), default=0)
        self.prefix1 = frozenset(k for k in self.index if len(k) == 1)
        self.prefix2 = frozenset(k[:2] for k in self.index if len(k) >= 2)
        # longest key per two-letter start: bounds the prefix walk (most starts have short keys)
        self.max_by_prefix2: dict[str, int] = {}
        for k in self.index:
            self.max_by_prefix2[k[:2]] = max(self.max_by_prefix2.get(k[:2], 0), len(k))
        self.joinable_prefix2 = frozenset(e.key[:2] for e in self.entries if e.joinable)
        self.joinable_prefix4 = frozenset(e.key[:4] for e in self.entries if e.joinable)
        contains = sorted({e.key for e in self.entries if e.mode == "contains"}, key=len, reverse=True)
        self.contains_re = re.compile("|".join(map(re.escape, contains))) if contains else None

    @staticmethod
    def _compile(spec: Spec) -> list[Entry]:
        words = normalize_term(spec.word)
        if not words:
            return []
        key = squeeze("".join(words))
        phrase = len(words) > 1
        mode = spec.mode
        if mode is None:  # staff words: short roots only with suffixes, long ones as prefixes
            mode = "suffix" if len(key) <= 4 else "prefix"
        suffixes = frozenset(squeeze(s) for s in spec.suffixes) if spec.suffixes is not None else None
        common = {
            "label": spec.word,
            "category": spec.category,
            "action": spec.action,
            "mode": mode,
            "severe": spec.severe,
            "forbid": frozenset(spec.forbid),
            "suffixes": suffixes,
            "joinable": phrase or spec.joinable,
            "source": spec.source,
            "needs_context": spec.needs_context,
            "suffix_required": spec.suffix_required,
            "elliptic": spec.elliptic,
        }
        entries = [Entry(key=key, needs_vowel=False, **common)]
        # Turkish consonant softening before a vowel: salak -> salağın, pezevenk -> pezevengin
        if mode in ("suffix", "prefix") and len(key) >= 4 and key.endswith("k"):
            entries.append(Entry(key=key[:-1] + "g", needs_vowel=True, **common))
        return entries

    def match_whole(self, s: str, joined: bool = False) -> list[tuple[Entry, int]]:
        """Entries matching candidate ``s`` as a whole word; returns (entry, root offset).

        ``joined`` marks a concatenation of adjacent words ("geri zekalı"): only phrases and roots
        marked joinable may match those; others find false words across the gap ("taş sağındaki"
        is not "taşak").
        """
        hits: list[tuple[Entry, int]] = []
        n = len(s)
        if n == 0:
            return hits
        index = self.index
        if joined:
            if s[:2] in self.joinable_prefix2:
                for length in range(2, min(n, self.max_by_prefix2.get(s[:2], 0)) + 1):
                    found = index.get(s[:length])
                    if found:
                        rem = s[length:]
                        hits.extend((e, 0) for e in found if e.joinable and e.accepts(rem))
            return hits
        longest = self.max_key if s[:1] in self.prefix1 else self.max_by_prefix2.get(s[:2], 0)
        if longest:
            for length in range(1, min(n, longest) + 1):
                found = index.get(s[:length])
                if found:
                    rem = s[length:]
                    hits.extend((e, 0) for e in found if e.accepts(rem))
        if self.contains_re is not None:
            for m in self.contains_re.finditer(s):
                if m.start() == 0:
                    continue  # already found by the prefix walk
                hits.extend((e, m.start()) for e in index[m.group()] if e.mode == "contains")
        return hits

    def scan_run(self, s: str) -> list[tuple[Entry, int, int]]:
        """Find roots anywhere in a run of letters typed one by one ("s a l a k")."""
        hits: list[tuple[Entry, int, int]] = []
        n = len(s)
        index = self.index
        for i in range(n - 1):
            if s[i:i + 2] not in self.prefix2 and s[i] not in self.prefix1:
                continue
            for length in range(1, min(n - i, self.max_key) + 1):
                found = index.get(s[i:i + length])
                if not found:
                    continue
                for e in found:
                    end = e.extend(s, i + length)
                    if end > i + 1:
                        hits.append((e, i, end))
        return hits
