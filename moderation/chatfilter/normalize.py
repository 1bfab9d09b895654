"""Turkish-aware text normalisation that remembers where every character came from.

All categories look at the same folded text so an evasion trick defeated once is defeated
everywhere. Each folded character keeps the index range of the original characters it came
from, so a censor can mask exactly the offending span of what the user typed.

Folding (per character, cached):
  * invisible characters (bidirectional controls such as U+202E, zero-width and other format
    characters, Hangul fillers, soft hyphen, ...) and combining marks are dropped (they are
    glued to the previous character's span);
  * Turkish case rules: "I" -> "ı", "İ" -> "i", then "ı" -> "i";
  * NFKD compatibility decomposition (fullwidth, ligatures, circled and math letters) and removal
    of diacritics, which also turns ş ğ ç ö ü â î û into s g c o u a i u;
  * every other non-ASCII letter goes through the Unicode confusables data (UTS #39, from the
    pinned ``disarm`` package) to its Latin look-alike: Cyrillic "а", Greek "Β", Latin small
    capitals "ꜱɪᴋᴛɪʀ", Armenian "օ", Cherokee "Ꮪ"...; a few look-alikes TR39 leaves apart
    (Cyrillic "б" "и", "ß", dot look-alikes in links) come from a short table of our own;
  * any decimal digit becomes ASCII.

:func:`strip_invisible` is the part of this that is safe for display: it is applied to every
stored user text (chat, names, reports), so a right-to-left override cannot make a stored
"ritkis" render as an insult.

Leetspeak (4 -> a, 3 -> e, 1 -> i, ...) is NOT applied here: digits matter for phone numbers and
okey tiles ("12 13 1"), so it is applied per word, only to words that also contain letters.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import disarm

# Invisible characters people slip inside words ("sa\u200blak") or use to reorder what a line shows
# (U+202E RIGHT-TO-LEFT OVERRIDE makes "ritkis" render as "siktir"). Every format character
# (category Cf) is invisible too; these are the ones of other categories.
ZERO_WIDTH = frozenset("\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e\u200f"
                       "\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064\u2066\u2067"
                       "\u2068\u2069\u206a\u206b\u206c\u206d\u206e\u206f\u3164\ufeff\uffa0")
_ZWJ = "\u200d"

# Look-alikes the Unicode confusables data maps elsewhere or not at all (lower case). TR39 reads
# Cyrillic "б" as "6"; in chat it stands for "b" ("бok"). The dots matter for links.
CONFUSABLES: dict[str, str] = {
    "б": "b", "и": "u", "ζ": "z", "ı": "i", "ß": "ss", "æ": "ae", "œ": "oe", "ð": "d",
    "。": ".", "｡": ".", "․": ".", "‧": ".", "∙": ".", "·": ".", "•": ".", "⸱": ".",
}


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch) in ("Mn", "Me")


def is_invisible(ch: str) -> bool:
    """Characters that show nothing but can hide or reorder text."""
    return ch in ZERO_WIDTH or unicodedata.category(ch) == "Cf"


def strip_invisible(text: str) -> str:
    """``text`` without bidirectional controls, zero-width and other invisible format characters.

    For display and storage (the fold drops them anyway). A zero-width joiner between two
    non-letters stays: it glues emoji sequences ("👨‍👩‍👧"), and cannot hide a word there.
    """
    if text.isascii():
        return text
    out: list[str] = []
    n = len(text)
    for i, ch in enumerate(text):
        if not is_invisible(ch):
            out.append(ch)
        elif (ch == _ZWJ and out and not out[-1].isalnum() and not is_invisible(out[-1])
              and i + 1 < n and not text[i + 1].isalnum() and not is_invisible(text[i + 1])):
            out.append(ch)
    return "".join(out)


def _latin_lookalike(c: str) -> str:
    """One mark-free character -> its lower-case Latin look-alike (lower-cased itself when it has none).

    The confusables table is asked about the character as typed and then lower-cased: it lists
    some homoglyphs under their capital (Armenian "Տ" is "S", its small "տ" is no Latin letter).
    """
    for form in (c, c.lower()):
        lowered = form.lower()
        if lowered in CONFUSABLES:
            return CONFUSABLES[lowered]
        if form.isascii():
            return lowered
        mapped = disarm.canonicalize(form)
        if mapped == form or not mapped.isascii():
            continue
        mapped = "".join(m for m in unicodedata.normalize("NFKD", mapped.lower()) if not _is_mark(m))
        if form.isalpha():  # a letter becomes letters only: Cherokee "Ꭴ" is "O'" in the table
            mapped = "".join(m for m in mapped if m.isalnum())
        if mapped:
            return mapped
    return c.lower()


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
    if is_invisible(ch):
        return ""
    cat = unicodedata.category(ch)
    if cat in ("Mn", "Me"):
        return ""
    if cat == "Nd":
        return str(unicodedata.digit(ch, 0))
    if ch == "I":  # Turkish: dotless capital -> dotless small; folded to "i" below
        return "i"
    if ch == "İ":
        return "i"
    out = []
    for base in unicodedata.normalize("NFKD", ch):
        if is_invisible(base) or _is_mark(base):
            continue
        for c in _latin_lookalike(base):
            if not _is_mark(c):
                out.append(c)
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
