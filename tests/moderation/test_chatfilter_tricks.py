"""Unicode tricks against the chat filter (issue 10, item 13).

Each row is a way to make an insult or an advertisement look like something else: letters of
other scripts that render like Latin ones (Unicode's confusables data, UTS #39), invisible
characters, and bidirectional controls that reorder what a stored line shows.
"""

from __future__ import annotations

import pytest

from moderation.chatfilter import filter_message
from moderation.chatfilter.normalize import fold, strip_invisible

RLO, LRO, RLE, PDF, RLI, PDI, RLM = "\u202e", "\u202d", "\u202b", "\u202c", "\u2067", "\u2069", "\u200f"

# (trick, text): every one must be caught as the insult it renders as
INSULT_TRICKS = [
    ("Latin small capitals", "ꜱɪᴋᴛɪʀ"),
    ("small capitals in a sentence", "ꜱᴀʟᴀᴋ mısın"),
    ("Armenian capitals", "ՏALAK"),
    ("Armenian small o", "օrospu"),
    ("Cherokee capitals", "ᏚᎪᏞᎪK"),
    ("Cherokee S", "Ꮪalak"),
    ("Cyrillic dze and a", "ѕаlаk"),
    ("Cyrillic a in a Latin word", "sаlak"),
    ("Greek capitals", "ΑΡΤΑL"),
    ("fullwidth", "Ｓａｌａｋ"),
    ("mathematical bold", "𝐬𝐚𝐥𝐚𝐤"),
    ("circled letters", "ⓢⓐⓛⓐⓚ"),
    ("Lisu capital S", "ꓢalak"),
    ("combining marks on every letter", "s̈ä̈l̈ä̈k̈"),
    ("zero-width space inside", "sa\u200blak"),
    ("word joiner inside", "sa\u2060lak"),
    ("soft hyphen inside", "sa\u00adlak"),
    ("Hangul filler inside", "sa\u3164lak"),
    ("right-to-left mark inside", f"sa{RLM}lak"),
    ("tag characters inside", "sa\U000e0041lak"),
    ("left-to-right override around", f"{LRO}salak{PDF}"),
    ("mixed scripts and leet", "ѕ@ʟ4ᴋ"),
]


@pytest.mark.parametrize(("trick", "text"), INSULT_TRICKS, ids=[t for t, _ in INSULT_TRICKS])
def test_look_alike_and_invisible_tricks_are_caught(trick: str, text: str) -> None:
    result = filter_message(text)
    assert result.action in ("censor", "block"), (trick, result.reasons)
    assert "insult" in result.categories


AD_TRICKS = [
    ("Cyrillic letters in a domain", "bеdаvаokey.com"),
    ("fullwidth dot", "bedavaokey。com"),
    ("zero-width inside a domain", "bedava\u200bokey.com"),
    ("small capitals domain", "ʙᴇᴅᴀᴠᴀᴏᴋᴇʏ.com"),
]


@pytest.mark.parametrize(("trick", "text"), AD_TRICKS, ids=[t for t, _ in AD_TRICKS])
def test_look_alike_domains_are_advertising(trick: str, text: str) -> None:
    result = filter_message(text)
    assert result.action == "block", (trick, result.reasons)
    assert result.categories == ["advertising"]


# Bidirectional controls: what is stored must show what the filter read.
BIDI_TRICKS = [
    ("right-to-left override", f"{RLO}ritkis"),
    ("right-to-left override in a sentence", f"selam {RLO}ritkis{PDF} herkese"),
    ("right-to-left embedding", f"{RLE}ritkis{PDF}"),
    ("right-to-left isolate", f"{RLI}ritkis{PDI}"),
    ("arabic letter mark", "\u061critkis"),
]


@pytest.mark.parametrize(("trick", "text"), BIDI_TRICKS, ids=[t for t, _ in BIDI_TRICKS])
def test_bidirectional_controls_are_stripped_from_what_is_shown(trick: str, text: str) -> None:
    shown = strip_invisible(text)
    assert not any(ch in shown for ch in (RLO, LRO, RLE, PDF, RLI, PDI, RLM, "\u061c")), trick
    assert "ritkis" in shown  # it now renders as typed: left to right
    assert filter_message(shown).action == "allow"  # and "ritkis" is no word


CLEAN_NON_LATIN = [
    "iyi oyunlar 👍",
    "👨\u200d👩\u200d👧 ailece oynuyoruz",  # emoji joined by zero-width joiners keep their joiners
    "ÇAĞRI ŞÜKRÜ İĞDIR ÖZGÜR",
    "Привет всем",  # Russian "hello everyone": no insult, no Latin look-alike word
    "Γειά σας",
    "Բարեւ",
]


@pytest.mark.parametrize("text", CLEAN_NON_LATIN)
def test_clean_text_in_other_scripts_passes(text: str) -> None:
    assert filter_message(text).action == "allow"
    assert strip_invisible(text) == text


def test_fold_maps_look_alikes_to_latin_keeping_spans() -> None:
    text = "ꜱɪᴋ ՏALAK"
    folded = fold(text)
    assert folded.text == "sik salak"
    assert len(folded.starts) == len(folded.text)


def test_strip_invisible_keeps_ascii_and_turkish_as_is() -> None:
    for text in ("salak", "Şeker gibi oynadın", "12 13 1", ""):
        assert strip_invisible(text) == text
    assert strip_invisible("a\u200db") == "ab"  # a joiner between letters hides nothing worth keeping
