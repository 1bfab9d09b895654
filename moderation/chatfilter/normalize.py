"""Turkish-aware text normalisation that remembers where every character came from.

All categories look at the same folded text so an evasion trick defeated once is defeated
everywhere. Each folded character keeps the index range of the original characters it came
from, so a censor can mask exactly the offending span of what the user typed.

Folding (per character, cached):
  * zero-width / format characters (U+200B..U+200F, U+2060, U+FEFF, soft hyphen, ...) and
    combining marks are dropped (they are glued to the previous character's span);
  * Turkish case rules: "I" -> "ı", "İ" -> "i", then "ı" -> "i";
  * NFKD compatibility decomposition (fullwidth, ligatures, circled letters) and removal of
    diacritics, which also turns ş ğ ç ö ü â î û into s g c o u a i u;
  * Cyrillic / Greek look-alikes mapped to Latin; any decimal digit mapped to ASCII.

Leetspeak (4 -> a, 3 -> e, 1 -> i, ...) is NOT applied here: digits matter for phone numbers and
okey tiles ("12 13 1"), so it is applied per word, only to words that also contain letters.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Invisible characters people slip inside words ("sa\u200blak").
ZERO_WIDTH = frozenset("\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e\u200f"
                       "\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064\u206a\u206b"
                       "\u206c\u206d\u206e\u206f\u3164\ufeff\uffa0")

# Look-alikes (lower case; upper case is lowered first). Cyrillic and Greek letters that render
# like Latin ones are the classic way to slip "bеdavaokey.com" past a filter.
CONFUSABLES: dict[str, str] = {
    # Cyrillic
    "а": "a", "б": "b", "в": "b", "г": "r", "е": "e", "ё": "e", "з": "3", "и": "u", "к": "k",
    "м": "m", "н": "h", "о": "o", "п": "n", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x",
    "ь": "b", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "һ": "h", "ԁ": "d", "ɡ": "g", "ӏ": "l",
    "ԛ": "q", "ԝ": "w", "ү": "y", "ө": "o", "ҫ": "c", "ә": "e",
    # Greek
    "α": "a", "β": "b", "γ": "y", "δ": "d", "ε": "e", "ζ": "z", "η": "n", "ι": "i", "κ": "k",
    "μ": "u", "ν": "v", "ο": "o", "ρ": "p", "σ": "o", "ς": "c", "τ": "t", "υ": "u", "χ": "x",
    "ω": "w", "ϲ": "c", "ϳ": "j",
    # Latin letters without a decomposition
    "ı": "i", "ø": "o", "đ": "d", "ł": "l", "ħ": "h", "ŧ": "t", "ɨ": "i", "ƀ": "b", "ß": "ss",
    "æ": "ae", "œ": "oe", "ð": "d", "þ": "p", "ɑ": "a", "ɩ": "i", "ʏ": "y", "ɪ": "i",
    # punctuation look-alikes that matter for links
    "。": ".", "｡": ".", "․": ".", "‧": ".", "∙": ".", "·": ".", "•": ".", "⸱": ".",
}

LEET: dict[str, str] = {
    "@": "a", "4": "a", "3": "e", "1": "i", "!": "i", "0": "o", "$": "s", "5": "s", "7": "t",
    "8": "b", "€": "e",
}
LEET_TABLE = str.maketrans(LEET)
LEET_SYMBOLS = "@$!€"

_FOLD_CACHE: dict[str, str] = {}
_FOLD_CACHE_LIMIT = 1 << 16


def fold_char(ch: str) -> str:
    """Fold one character to zero or more lower-case base characters (see module doc)."""
    cached = _FOLD_CACHE.get(ch)
    if cached is not None:
        return cached
    result = _fold_char_uncached(ch)
    if len(_FOLD_CACHE) < _FOLD_CACHE_LIMIT:  # bounded: arbitrary unicode must not grow memory
        _FOLD_CACHE[ch] = result
    return result


def _fold_char_uncached(ch: str) -> str:
    if ch in ZERO_WIDTH:
        return ""
    cat = unicodedata.category(ch)
    if cat in ("Mn", "Me", "Cf"):
        return ""
    if cat == "Nd":
        return str(unicodedata.digit(ch, 0))
    if ch == "I":  # Turkish: dotless capital -> dotless small; folded to "i" below
        return "i"
    if ch == "İ":
        return "i"
    out = []
    for base in unicodedata.normalize("NFKD", ch):
        if base in ZERO_WIDTH or unicodedata.category(base) in ("Mn", "Me", "Cf"):
            continue
        for c in base.lower():
            if unicodedata.category(c) not in ("Mn", "Me"):
                out.append(CONFUSABLES.get(c, c))
    return "".join(out)


def tr_lower(ch: str) -> str:
    """Lower-case one character with Turkish rules but keep diacritics ("I" -> "ı", "Ş" -> "ş")."""
    if ch == "I":
        return "ı"
    if ch == "İ":
        return "i"
    return ch.lower()


@dataclass(slots=True)
class Folded:
    """Folded text plus, per folded character, the original [start, end) it came from."""

    text: str
    starts: list[int]
    ends: list[int]


def _one_to_one_table() -> tuple[dict[int, str], re.Pattern[str]]:
    """Characters of the common scripts that fold to exactly one character.

    Text made only of those (nearly every chat message, Turkish letters included) is folded
    with one ``str.translate`` call instead of a Python loop.
    """
    table: dict[int, str] = {}
    for code in (*range(0x20, 0x250), *range(0x370, 0x530), *range(0xFF01, 0xFF5F)):
        ch = chr(code)
        folded = fold_char(ch)
        if len(folded) == 1:
            table[code] = folded
    ranges = []
    codes = sorted(table)
    start = prev = codes[0]
    for code in codes[1:]:
        if code != prev + 1:
            ranges.append((start, prev))
            start = code
        prev = code
    ranges.append((start, prev))
    cls = "".join(f"\\u{a:04x}-\\u{b:04x}" if a != b else f"\\u{a:04x}" for a, b in ranges)
    return table, re.compile(f"[^{cls}\\n\\t]")


_ONE_TO_ONE, _IRREGULAR_RE = _one_to_one_table()
_ONE_TO_ONE.update({ord("\n"): "\n", ord("\t"): "\t"})


def fold(text: str) -> Folded:
    """Fold ``text`` (see module doc) keeping the original span of every output character."""
    if not _IRREGULAR_RE.search(text):  # fast path: every character folds to exactly one
        n = len(text)
        return Folded(text.translate(_ONE_TO_ONE), list(range(n)), list(range(1, n + 1)))
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for j, ch in enumerate(text):
        f = _FOLD_CACHE.get(ch)
        if f is None:
            f = fold_char(ch)
        if len(f) == 1:
            out.append(f)
            starts.append(j)
            ends.append(j + 1)
        elif not f:
            if ends:  # dropped marks / zero-width belong to the preceding character's span
                ends[-1] = j + 1
        else:
            for c in f:
                out.append(c)
                starts.append(j)
                ends.append(j + 1)
    return Folded("".join(out), starts, ends)


_TRIPLE = re.compile(r"(.)\1\1+")
_VOWEL_DOUBLE = re.compile(r"([aeiou])\1")
VOWELS = frozenset("aeiou")


_DOUBLE = re.compile(r"(.)\1")


def has_repeat(s: str) -> bool:
    """Cheap pre-check: most words have no doubled letter and need no squeezing."""
    return _DOUBLE.search(s) is not None


def squeeze(s: str) -> str:
    """Undo letter elongation without merging real Turkish double consonants.

    Runs of three or more of any letter become one ("salaaaak", "amkkk"), a doubled vowel becomes
    one ("salaak": Turkish words almost never double a vowel), but a doubled consonant stays:
    "kalleş" must not become "kaleş"-like "kalesi" (castle), "sürttük" is not "sürtük".
    """
    return _VOWEL_DOUBLE.sub(r"\1", _TRIPLE.sub(r"\1", s))


def collapse_light(s: str) -> str:
    """Collapse runs of three or more to two, keeping real double letters ("sikke", "amma")."""
    return _TRIPLE.sub(r"\1\1", s)


def squeeze_with_positions(s: str) -> tuple[str, list[int], list[int]]:
    """:func:`squeeze`, also returning per output char the first and last input index it covers."""
    out: list[str] = []
    first: list[int] = []
    last: list[int] = []
    i = 0
    n = len(s)
    while i < n:
        ch = s[i]
        j = i + 1
        while j < n and s[j] == ch:
            j += 1
        run = j - i
        if run == 2 and ch not in VOWELS:
            out.extend((ch, ch))
            first.extend((i, i + 1))
            last.extend((i, i + 1))
        else:
            out.append(ch)
            first.append(i)
            last.append(j - 1)
        i = j
    return "".join(out), first, last


def leet(s: str) -> str:
    """Decode leetspeak ("s@l@k", "g3r1z3k4l1"); one character in, one out, so positions hold."""
    return s.translate(LEET_TABLE)


def normalize_term(term: str, *, apply_leet: bool = False) -> list[str]:
    """Normalise a rule word/phrase the way message words are normalised; one item per word.

    Used for built-in lists, staff words and allow-list entries, so "Kılıçdaroğlu",
    "kilicdaroglu" and "KILIÇDAROĞLU" all become the same key.
    """
    folded = "".join(fold_char(c) for c in term)
    words = []
    for raw in re.split(r"[^\w@$€!]+|_", folded):
        if not raw:
            continue
        if apply_leet and not raw.isdigit():
            raw = leet(raw)
        raw = re.sub(r"[^\w]|_", "", raw)
        if raw:
            words.append(raw)
    return words
