"""Property tests (hypothesis) for the chat filter core, plus urlextract as an independent oracle."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderation.chatfilter import ACTION_RANK, ALLOW_LIST, FilterRules, WatchedWord, filter_message, fold

PROPS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CLEAN_WORDS = [
    "iyi", "oyunlar", "okey", "attım", "gösterge", "eline", "sağlık", "çifte", "gidiyorum", "Malatya",
    "ambulans", "selam", "millet", "sıra", "sende", "taş", "at", "hadi", "bu", "el", "çok", "uzun",
    "sürdü", "okeyi", "bana", "ver", "yandaki", "oyuncu", "oynuyor", "seçtiğin", "taşı", "oyuna",
    "devam", "ankaradan", "selamlar", "istanbul", "ama", "amma", "velakin", "dolar", "kaç", "puan",
    "oldu", "12", "13", "1", "seri", "yaptım", "kırmızı", "mavi", "sarı", "siyah", "7", "20", "sırada",
    "ben", "varım", "amca", "götür", "malzeme", "sıkıldım", "şık", "boks", "pipet", "yarar", "abi",
    "kanka", "tamam", "evet", "hayır", "bekle", "gel", "çay", "kahve", "sahte", "per", "çift", "dizi",
    "ne", "zaman", "biter", "kim", "kazandı", "tebrikler", "bravo", "helal", "günaydın", "akşamlar",
    "özel", "oda", "birliği", "yavaş", "devlet", "memuru", "@ahmet", "şans", "gelmiyor",
]
CENSORED_INSULTS = [
    "salak", "aptal", "gerizekalı", "amk", "yavşak", "şerefsiz", "dangalak", "ahmak", "enayi", "gerzek",
    "salaksın", "aptallar", "salağın", "mal",
]
SEPARATORS = [" ", "  ", ", ", "! ", "? ", " - ", "\n"]


@PROPS
@given(st.text(max_size=300))
def test_never_raises_and_result_is_consistent(text: str) -> None:
    result = filter_message(text)
    assert result.action in ACTION_RANK
    assert result.categories == sorted(set(result.categories))
    assert set(result.categories) <= {"insult", "politics", "advertising", "custom"}
    assert bool(result.categories) == (result.action != "allow")
    assert isinstance(result.text, str)
    if result.action == "censor":
        assert len(result.text) == len(text)
        assert all(a == b or b == "*" for a, b in zip(text, result.text, strict=True))
    else:
        assert result.text == text
    for match in result.matches:
        assert 0 <= match.start < match.end <= len(text)
        assert text[match.start:match.end] == match.found


@PROPS
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_fold_keeps_a_span_for_every_character(text: str) -> None:
    folded = fold(text)
    assert len(folded.text) == len(folded.starts) == len(folded.ends)
    assert all(0 <= s < e <= len(text) for s, e in zip(folded.starts, folded.ends, strict=True))
    assert folded.starts == sorted(folded.starts)


clean_sentences = st.lists(st.sampled_from(CLEAN_WORDS), min_size=1, max_size=12).map(" ".join)


@PROPS
@given(clean_sentences)
def test_sentences_of_clean_words_pass(text: str) -> None:
    result = filter_message(text)
    assert result.action == "allow", (text, result.reasons)


@st.composite
def with_insults(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.sampled_from(CLEAN_WORDS), max_size=8))
    insults = draw(st.lists(st.sampled_from(CENSORED_INSULTS), min_size=1, max_size=3))
    for insult in insults:
        words.insert(draw(st.integers(0, len(words))), insult)
    out = words[0]
    for word in words[1:]:
        out += draw(st.sampled_from(SEPARATORS)) + word
    return out


@PROPS
@given(with_insults())
def test_censored_text_contains_no_offending_word(text: str) -> None:
    result = filter_message(text)
    assert result.action == "censor", (text, result.reasons)
    assert "insult" in result.categories
    again = filter_message(result.text)
    assert "insult" not in again.categories, (result.text, again.reasons)
    masked = fold(result.text).text
    for insult in CENSORED_INSULTS:
        assert fold(insult).text not in masked.split()


# --- evasion generator: spacing, separators, case, leetspeak, look-alikes, invisible characters,
# elongation; each transformation is one a user can type, the filter must see through all of them
LEET_BACK = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"}
LOOKALIKE = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с"}  # Cyrillic


@st.composite
def evaded(draw: st.DrawFn) -> tuple[str, str]:
    word = draw(st.sampled_from(["salak", "aptal", "orospu", "siktir", "gerizekali", "serefsiz", "yavsak",
                                 "pezevenk", "kahpe", "dangalak", "erdogan", "kilicdaroglu"]))
    chars = []
    for ch in word:
        choice = draw(st.integers(0, 5))
        if choice == 1 and ch in LEET_BACK:
            ch = LEET_BACK[ch]
        elif choice == 2 and ch in LOOKALIKE:
            ch = LOOKALIKE[ch]
        elif choice == 3:
            ch = ch.upper()
        elif choice == 4 and ch in "aeiou":
            ch = ch * draw(st.integers(2, 5))
        chars.append(ch)
    sep = draw(st.sampled_from(["", "", " ", ".", "-", "_", "\u200b", " . ", "\u200d"]))
    expected = "politics" if word in ("erdogan", "kilicdaroglu") else "insult"
    return sep.join(chars), expected


@PROPS
@given(evaded())
def test_evasions_are_seen_through(case: tuple[str, str]) -> None:
    text, category = case
    result = filter_message(text)
    assert category in result.categories, (text, result.reasons)


allow_single = [a for a in ALLOW_LIST if " " not in a]


@PROPS
@given(st.sampled_from(allow_single), st.sampled_from(["", "lar", "da", "'dan", "ı", "ya", "lı", "dan", "ler"]))
def test_allow_listed_words_pass_with_suffixes(word: str, suffix: str) -> None:
    text = word + suffix
    result = filter_message(text)
    assert "insult" not in result.categories and "politics" not in result.categories, (text, result.reasons)


@PROPS
@given(st.text(alphabet="abcçdefgğhıijklmnoöprsştuüvyz", min_size=3, max_size=12))
def test_staff_allow_list_beats_staff_watched_word(word: str) -> None:
    rules = FilterRules(watched_words=[WatchedWord(word, "custom", "block")], allow_list=[word])
    result = filter_message(f"hadi {word} bakalım", rules=rules)
    assert "custom" not in result.categories, result.reasons


# --- urlextract as an oracle: whatever it recognises as a URL in these ads, we block too -------
AD_SAMPLES = [
    "gel www.bedavaokey.com", "bedavaokey.com'a bekliyorum", "https://x.io/abc", "bit.ly/abc link",
    "discord.gg/abcd", "t.me/kanal", "chat.whatsapp.com/AbC123", "site.com.tr", "okeyci.net", "wa.me/905321234567",
]


@pytest.mark.parametrize("text", AD_SAMPLES)
def test_urls_found_by_urlextract_are_blocked(text: str) -> None:
    urlextract = pytest.importorskip("urlextract")
    assert urlextract.URLExtract().find_urls(text), "sample should contain a URL"
    assert filter_message(text).action == "block"
