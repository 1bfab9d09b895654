"""Advertising detection: links, obfuscated domains, e-mail, Turkish phone numbers, social handles.

Runs on the folded text (see :mod:`.normalize`: case, diacritics, look-alikes and zero-width
characters already handled) without leetspeak, so digits stay digits. A second view joins
letters typed one by one ("b e d a v a o k e y . c o m" -> "bedavaokey.com").

Domains are validated against the public-suffix snapshot bundled with ``tldextract`` (no network:
``suffix_list_urls=()`` and no cache directory). Because chat often lacks the space after a full
stop ("oyunlar.ne oldu", "iyi oyunlar.gg"), a bare ``word.tld`` only counts when the TLD is one
that spammers use (:data:`STRONG_TLDS`), it has a scheme/``www``/path, or the suffix has two levels
(``com.tr``). Obfuscated forms ("site . com", "site nokta com", "site(.)com") only accept a short
list of TLDs that are not Turkish words.

``urlextract`` is not used at run time: it costs 0.1-0.25 ms per message, finds "oyunlar.ne" as a
URL and does not see obfuscated forms; the tests use it as an independent oracle instead.

Phone numbers must look like Turkish numbers: a 0 / +90 / 0090 trunk prefix, or a mobile number
(5xx) written as one block, in 3-3-2-2 style groups, digit by digit, or in pairs with one above 13.
Okey tile talk ("4 5 6 7 8 9 10 11", "12 13 1") is made of 1-2 digit groups of 1-13 without a
leading 0 and never qualifies.

A bare ``@nick`` addresses someone at the table ("@ahmet sıra sende") and passes; it is
advertising only next to words like "takip", "abone", "insta", "telegram". Naming a platform
without a handle, link or number ("telegram") is a *weak* signal (default action "flag").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

try:  # pragma: no branch - tldextract is a pinned dependency; the fallback keeps the core usable
    import tldextract

    _EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, fallback_to_snapshot=True)
except Exception:  # pragma: no cover
    _EXTRACT = None

#: TLDs that make a bare "word.tld" an advertisement (the rest need a path, scheme or www).
STRONG_TLDS = frozenset({
    "com", "net", "org", "info", "biz", "io", "co", "me", "ly", "xyz", "site", "online", "club",
    "shop", "store", "app", "live", "bet", "casino", "vip", "top", "link", "click", "tk", "ml",
    "ga", "cf", "gq", "tv", "ws", "cc", "tr", "pw", "su", "ru", "fun", "games", "win", "icu",
})
#: TLDs accepted after any obfuscated dot ("site . com", "site. com", "site(.)com").
OBF_STRONG_TLDS = ("com.tr", "net.tr", "org.tr", "gen.tr", "web.tr", "biz.tr", "com", "org", "info", "biz",
                   "xyz", "io", "ly", "site", "online", "club", "shop", "bet", "vip", "casino")
#: TLDs that are also words ("net" = clear, "tv", "gg" = good game): only with an explicit
#: obfuscator ("(.)", "nokta", " . ").
OBF_WEAK_TLDS = ("net", "tv", "me", "co", "tr", "gg", "app", "live", "top", "cc", "ws")

_FALLBACK_SUFFIXES = STRONG_TLDS | {"gg", "de", "uk", "eu", "us", "com.tr", "net.tr", "org.tr", "gen.tr"}


def _alt(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w).replace(r"\.", r"\s*\.\s*") for w in sorted(words, key=len, reverse=True))


_HOST = r"(?:[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?\.)+[a-z0-9\-]{2,24}"
_TIGHT_RE = re.compile(
    r"(?<![\w@.\-/])(?P<scheme>(?:https?|hxxps?|ftp)\s*:\s*//\s*)?(?P<host>" + _HOST + r")(?![\w\-])"
    r"(?P<path>[/?#][^\s]*)?"
)
_SCHEME_RE = re.compile(r"(?<![a-z])(?:https?|hxxps?|ftp)\s*:\s*//\s*\S+")
_WWW_RE = re.compile(r"(?<![\w.])www\d{0,3}\s*(?:[.,]|\(\s*\.?\s*\)|\s+nokta\s+|\s+dot\s+|\s)\s*[a-z0-9\-]{2,}\S*")
_LABEL = r"(?<![a-z0-9.\-])(?P<label>[a-z0-9][a-z0-9\-]{1,62})"
_SEP_EXPLICIT = (r"\s*[(\[{<]\s*(?:\.|dot|nokta|nkt)\s*[)\]}>]\s*"
                 r"|\s+(?:nokta|dot)\s+|\s+\.\s+")
_SEP_HALF = r"\s+\.|\.\s+"
_OBF_STRONG_RE = re.compile(
    _LABEL + r"(?P<sep>" + _SEP_EXPLICIT + "|" + _SEP_HALF + r")(?P<tld>" + _alt(OBF_STRONG_TLDS) + r")(?![a-z0-9])"
)
# "bedava okey com", "bedavaokey,com": the dot left out, only before TLDs that are no word of the
# chat ("net" is "clear", "tv", "me"...: those need a dot or an explicit obfuscator).
_OBF_BARE_RE = re.compile(_LABEL + r"(?P<sep>\s*,\s*|\s+)(?P<tld>com(?:\s*[.,]?\s*tr)?|org)(?![a-z0-9])")
_OBF_WEAK_RE = re.compile(_LABEL + r"(?P<sep>" + _SEP_EXPLICIT + r")(?P<tld>" + _alt(OBF_WEAK_TLDS) + r")(?![a-z0-9])")
_EMAIL_RE = re.compile(
    r"(?<![\w.+\-])[a-z0-9][a-z0-9._%+\-]{0,63}\s*@\s*[a-z0-9\-]+(?:\.[a-z0-9\-]+)*\.[a-z]{2,24}(?![\w\-])"
)
_EMAIL_PROVIDER_RE = re.compile(
    r"(?<![\w.+\-])[a-z0-9][a-z0-9._%+\-]{0,63}\s*@\s*"
    r"(?:gmail|hotmail|yahoo|outlook|yandex|icloud|mynet|msn|windowslive|proton(?:mail)?)(?![a-z0-9])"
)
# digits separated by up to three separators; at least 7 digits before we bother validating
_PHONE_RUN_RE = re.compile(r"(?<![\d])(?:\+\s*|00\s*)?\(?\s*\d(?:[\s().\-/]{0,3}\d){6,}")
_DIGITS_RE = re.compile(r"\d+")

_PLATFORMS_HANDLE = r"instagram|insta|ig|tiktok|tik\s*tok|telegram|telgram|snapchat|snap|twitter|youtube|twitch|discord|facebook|fb"
_HANDLE_AFTER_RE = re.compile(
    r"(?<![a-z0-9])(?P<p>" + _PLATFORMS_HANDLE + r")(?P<sep>\s*[:=>\-]+\s*|\s+)(?P<at>@)?(?P<h>[a-z0-9_.]{3,30})"
)
_AT_HANDLE_RE = re.compile(r"(?<![\w@.])@(?P<h>[a-z0-9_][a-z0-9_.]{1,29})")
_HANDLE_CONTEXT_RE = re.compile(
    r"(?<![a-z0-9])(?:takip|takibe|abone|follow|dm\b|profil(?:im|ime|imi|imden)|hesab(?:im|ima|imi|imiz)|"
    r"kanal|grub|grup|link|bio\b|instagram|insta|ig\b|tiktok|telegram|twitter|youtube|twitch|discord|"
    r"snapchat|facebook|whatsapp|watsap|reklam)"
)
_GROUP_RE = re.compile(
    r"(?<![a-z0-9])(?:whatsapp|whatsap|watsapp|watsap|vatsap|wapp|wp|telegram|telgram|tg|discord|instagram|"
    r"insta|signal)\s*'?\s*(?:grub|grup|kanal|sunucu|server|numara|adres|link|hesabim|hesabimiz|profilim|nickim|id\b)\w*"
)
_SUBSCRIBE_RE = re.compile(r"(?<![a-z0-9])abone\s+ol")
_BARE_PLATFORM_RE = re.compile(
    r"(?<![a-z0-9])(?:instagram|insta|tiktok|telegram|telgram|whatsapp|whatsap|watsapp|watsap|vatsap|"
    r"discord|snapchat|onlyfans|youtube|twitch)"
)
# handle-looking token; checked further in code (letters with digits/underscore/inner dot)
_HANDLE_TOKEN_RE = re.compile(r"(?<![\w@.])@?[a-z][a-z0-9_.]{2,29}[a-z0-9_]")
_TILE_RE = re.compile(r"(?:kirmizi|siyah|mavi|sari|yesil|k|s|m|y)\d{1,2}$")
_MAYBE_LINK_RE = re.compile(r"[.@/:()\[\]{}<>]|nokta|dot|www|(?<![a-z])(?:com|org)(?![a-z])")
# Chips (or accounts) for money: the classic scam of Okey rooms. Chips are only won at tables here, so
# "çip satıyorum", "satılık chip", "1m çip 50 tl" are advertising; "çipim bitti", "10 çip aldım" are not.
_CHIP = r"(?:cip|chip|cips|chips)\w{0,5}"
_TRADE_RE = re.compile(
    r"(?<![a-z0-9])(?:"
    + _CHIP + r"\s+(?:sat(?!ir)\w*|alim\w*|al\s*sat\w*)"
    r"|(?:satilik|ucuz|uygun\s+fiyat\w*|indirimli|toptan)\s+" + _CHIP
    + r"|(?:hesap|hesabimi|hesaplar)\s+(?:sat(?!ir)\w*|satilik)"
    r"|" + _CHIP + r"[^.!?]{0,20}?\d+\s*(?:tl|lira|try|euro|dolar)(?![a-z])"
    r"|\d+\s*(?:tl|lira|try)\w{0,3}\s+(?:\w+\s+){0,3}" + _CHIP
    + r")"
)
# Lures of the chip scammers ("bedava çip", "çip hilesi", "hile programı indir"): without a link or
# a number they lead nowhere yet, so they are weak — shown, and flagged to the salon's staff.
_LURE_RE = re.compile(
    r"(?<![a-z0-9])(?:(?:bedava|ucretsiz|free|sinirsiz)\s+" + _CHIP
    + r"|(?:" + _CHIP + r"|okey)\s+hile\w*|hile\s+(?:program\w*|indir\w*|yukle\w*|link\w*|apk))"
)
_CHUNK_RE = re.compile(r"\S+")


@dataclass(frozen=True, slots=True)
class AdHit:
    """A span of the folded text (``start``/``end`` index :class:`~.normalize.Folded`)."""

    kind: str
    start: int
    end: int
    strong: bool
    detail: str


def _join_spaced_singles(t: str) -> tuple[str, list[int]] | None:
    """Remove the spaces inside runs of >= 3 one-character chunks; None when there are none."""
    chunks = [(m.start(), m.end()) for m in _CHUNK_RE.finditer(t)]
    drop: list[tuple[int, int]] = []
    i = 0
    while i < len(chunks):
        j = i
        while j < len(chunks) and chunks[j][1] - chunks[j][0] == 1:
            j += 1
        if j - i >= 3:
            for k in range(i, j - 1):
                drop.append((chunks[k][1], chunks[k + 1][0]))
        i = max(j, i + 1)
    if not drop:
        return None
    out: list[str] = []
    idx: list[int] = []
    pos = 0
    for a, b in drop:
        out.append(t[pos:a])
        idx.extend(range(pos, a))
        pos = b
    out.append(t[pos:])
    idx.extend(range(pos, len(t)))
    return "".join(out), idx


# Numbers written in words, as people dodge a phone filter ("sıfır beş yüz otuz iki, yüz yirmi üç…"):
# folded Turkish number words, composed into the groups a person reads out (532, 123, 45, 67).
_UNITS = {"bir": 1, "iki": 2, "uc": 3, "dort": 4, "bes": 5, "alti": 6, "yedi": 7, "sekiz": 8, "dokuz": 9}
_TENS = {"on": 10, "yirmi": 20, "otuz": 30, "kirk": 40, "elli": 50, "altmis": 60, "yetmis": 70, "seksen": 80,
         "doksan": 90}
_NUMBER_WORDS = {"sifir", "yuz", *_UNITS, *_TENS}
_NUMBER_TOKEN_RE = re.compile(r"[a-z]+|\d+")
_NUMBER_GAP_RE = re.compile(r"[\s,.;:/\-]*")


@lru_cache(maxsize=1024)
def _glued_number_words(token: str) -> tuple[tuple[int, int], ...] | None:
    """Split a word made only of number words ("besyuzotuziki" -> bes|yuz|otuz|iki) into their
    spans, as people glue a phone number read out; ``None`` unless the whole word splits."""
    if len(token) > 60:
        return None
    best: list[tuple[tuple[int, int], ...] | None] = [None] * (len(token) + 1)
    best[0] = ()
    for end in range(1, len(token) + 1):
        for start in range(max(0, end - 6), end):  # the longest number word has 6 letters
            if best[start] is not None and token[start:end] in _NUMBER_WORDS:
                best[end] = (*best[start], (start, end))  # type: ignore[misc]
                break
    return best[len(token)]


def _number_tokens(t: str) -> Iterator[tuple[str, int, int]]:
    """Words and digit groups of ``t``, with glued number words split apart."""
    for m in _NUMBER_TOKEN_RE.finditer(t):
        token = m.group()
        pieces = None if token.isdigit() or token in _NUMBER_WORDS else _glued_number_words(token)
        if pieces:
            for a, b in pieces:
                yield token[a:b], m.start() + a, m.start() + b
        else:
            yield token, m.start(), m.end()


def _spoken_number_runs(t: str) -> list[tuple[str, list[tuple[int, int]]]]:
    """Runs of number words (digits may mix in) as digit groups: [("0 532 123 45 67", spans)], each
    group's span in ``t``. Only runs of five words or more: a phone number read out is never shorter."""
    runs: list[tuple[str, list[tuple[int, int]]]] = []
    groups: list[tuple[str, int, int]] = []
    words = 0
    value: int | None = None
    start = end = 0
    places: set[str] = set()
    last_end = -1

    def flush() -> None:
        nonlocal value, places
        if value is not None:
            groups.append((str(value), start, end))
        value, places = None, set()

    def close_run() -> None:
        nonlocal groups, words
        flush()
        if words >= 5 and groups:
            runs.append((" ".join(g for g, _a, _b in groups), [(a, b) for _g, a, b in groups]))
        groups, words = [], 0

    for token, token_start, token_end in _number_tokens(t):
        if last_end >= 0 and not _NUMBER_GAP_RE.fullmatch(t[last_end:token_start]):
            close_run()
        if token.isdigit():
            flush()
            groups.append((token, token_start, token_end))
            words += 1
        elif token in _NUMBER_WORDS:
            words += 1
            if token == "sifir":
                flush()
                groups.append(("0", token_start, token_end))
            elif token == "yuz":
                if value is not None and value < 10 and "hundreds" not in places:
                    value, places = value * 100, {"hundreds"}
                else:
                    flush()
                    value, places, start = 100, {"hundreds"}, token_start
            elif token in _TENS:
                if value is not None and value % 100 == 0 and not places & {"tens", "units"}:
                    value += _TENS[token]
                    places.add("tens")
                else:
                    flush()
                    value, places, start = _TENS[token], {"tens"}, token_start
            else:
                if value is not None and "units" not in places:
                    value += _UNITS[token]
                    places.add("units")
                else:
                    flush()
                    value, places, start = _UNITS[token], {"units"}, token_start
            end = token_end
        else:
            close_run()
            last_end = -1
            continue
        last_end = token_end
    close_run()
    return runs


def _phone_spans(run: str) -> list[tuple[int, int, str]]:
    """Find plausible Turkish (or +international) phone numbers inside a run of digit groups."""
    groups = [(m.start(), m.end(), m.group()) for m in _DIGITS_RE.finditer(run)]
    plus = run.lstrip().startswith("+")
    found: list[tuple[int, int, str]] = []
    i = 0
    while i < len(groups):
        digits = ""
        lengths: list[int] = []
        for j in range(i, min(len(groups), i + 14)):
            digits += groups[j][2]
            lengths.append(len(groups[j][2]))
            if len(digits) > 14:
                break
            if len(digits) >= 10 and _valid_phone(digits, lengths, plus and i == 0):
                start = 0 if (plus and i == 0) else groups[i][0]
                found.append((start, groups[j][1], digits))
                i = j
                break
        i += 1
    return found


def _valid_phone(digits: str, lengths: list[int], plus: bool) -> bool:
    d = digits
    trunk = False
    if d.startswith("00"):
        d, trunk = d[2:], True
        plus = True
    if plus:
        if d.startswith("90"):
            d, trunk = d[2:], True
        else:  # a foreign number written in international form is still contact info
            return 10 <= len(d) <= 13
    if len(d) == 12 and d.startswith("90"):
        d, trunk = d[2:], True
    if len(d) == 11 and d.startswith("0"):
        d, trunk = d[1:], True
    if len(d) != 10 or d[0] not in "23458":
        return False
    if trunk:
        return True
    # no trunk prefix: only a mobile number written as one block or as 3-3-2-2 / 3-3-4 / 3-7, or
    # spelled digit by digit, or in pairs one of which no tile has ("53 21 23 45 67"): tile talk in
    # one- and two-digit groups is made of 1-13, and ten single digits from a 5 are never a run.
    if d[0] != "5":
        return False
    if len(lengths) == 1 or (lengths[0] == 3 and all(n >= 2 for n in lengths)):
        return True
    if len(digits) != 10 or any(n > 2 for n in lengths):
        return False
    groups, at = [], 0
    for n in lengths:
        groups.append(int(digits[at:at + n]))
        at += n
    if all(n == 1 for n in lengths):
        return list(digits) != sorted(digits)  # "5 5 5 6 6 6 7 7 7 8" lists tiles
    return any(group > 13 for group in groups)


class AdDetector:
    """Compiled advertising checks; ``allowed_domains`` are registered domains never reported."""

    def __init__(self, allowed_domains: frozenset[str] = frozenset()) -> None:
        self.allowed_domains = allowed_domains
        if _EXTRACT is not None:
            _EXTRACT("warm.up.com")  # load the bundled public-suffix snapshot now, not on a message

    @staticmethod
    def _split_host(host: str) -> tuple[str, str]:
        """Return (registered domain label, public suffix); suffix "" when it is not a domain."""
        if _EXTRACT is not None:
            ext = _EXTRACT(host)
            return ext.domain, ext.suffix
        labels = host.split(".")
        if len(labels) >= 3 and ".".join(labels[-2:]) in _FALLBACK_SUFFIXES:
            return labels[-3], ".".join(labels[-2:])
        if len(labels) >= 2 and labels[-1] in _FALLBACK_SUFFIXES:
            return labels[-2], labels[-1]
        return "", ""

    def _allowed(self, domain: str, suffix: str, host: str) -> bool:
        if not self.allowed_domains:
            return False
        registered = f"{domain}.{suffix}"
        return registered in self.allowed_domains or host in self.allowed_domains

    def scan(self, t: str) -> list[AdHit]:
        """Return advertising hits in folded text ``t`` (spans index ``t``)."""
        hits: list[AdHit] = []
        if _MAYBE_LINK_RE.search(t):
            joined = _join_spaced_singles(t)
            self._scan_links(t, None, hits)
            if joined is not None:
                self._scan_links(joined[0], joined[1], hits)
        self._scan_phones(t, hits)
        self._scan_social(t, hits)
        for m in _TRADE_RE.finditer(t):
            hits.append(AdHit("chip trade", m.start(), m.end(), True, m.group()))
        for m in _LURE_RE.finditer(t):
            hits.append(AdHit("free-chip or cheat lure", m.start(), m.end(), False, m.group()))
        strong = [(h.start, h.end) for h in hits if h.strong]
        # "discord" inside "discord.gg/x" is part of the link, not a separate mention
        return [h for h in hits if h.strong or not any(a < h.end and h.start < b for a, b in strong)]

    # -- links -------------------------------------------------------------------------------
    def _scan_links(self, d: str, idx: list[int] | None, hits: list[AdHit]) -> None:
        def add(kind: str, a: int, b: int, detail: str, strong: bool = True) -> None:
            if idx is not None:
                a, b = idx[a], idx[b - 1] + 1
            hits.append(AdHit(kind, a, b, strong, detail))

        for m in _EMAIL_RE.finditer(d):
            add("e-mail address", m.start(), m.end(), m.group())
        for m in _EMAIL_PROVIDER_RE.finditer(d):
            add("e-mail address", m.start(), m.end(), m.group())
        for m in _SCHEME_RE.finditer(d):
            add("link", m.start(), m.end(), m.group())
        for m in _WWW_RE.finditer(d):
            add("link", m.start(), m.end(), m.group())
        for m in _TIGHT_RE.finditer(d):
            host = m["host"]
            if not re.search(r"[a-z]", host.rsplit(".", 1)[0]):
                continue  # "12.13", "1.5"
            domain, suffix = self._split_host(host)
            if not suffix or not domain:
                continue
            if self._allowed(domain, suffix, host):
                continue
            path = m["path"] or ""
            if (m["scheme"] or host.startswith("www.") or path[:1] in ("/", "?") or suffix in STRONG_TLDS
                    or "." in suffix):
                add("domain", m.start(), m.end(), f"{domain}.{suffix}")
        for rx in (_OBF_STRONG_RE, _OBF_WEAK_RE, _OBF_BARE_RE):
            for m in rx.finditer(d):
                label = m["label"]
                if not re.search(r"[a-z]", label) or label in ("nokta", "dot", "www"):
                    continue
                tld = re.sub(r"\s+", "", m["tld"])
                if self._allowed(label, tld, f"{label}.{tld}"):
                    continue
                add("obfuscated domain", m.start(), m.end(), f"{label}.{tld}")

    # -- phones ------------------------------------------------------------------------------
    def _scan_phones(self, t: str, hits: list[AdHit]) -> None:
        for m in _PHONE_RUN_RE.finditer(t):
            for a, b, digits in _phone_spans(m.group()):
                hits.append(AdHit("phone number", m.start() + a, m.start() + b, True, digits))
        for digits_text, spans in _spoken_number_runs(t):
            # Group i of the run starts at offset sum(len(group) + 1) in ``digits_text``.
            offsets, at = [], 0
            for group in digits_text.split(" "):
                offsets.append((at, at + len(group)))
                at += len(group) + 1
            for a, b, digits in _phone_spans(digits_text):
                first = next(i for i, (x, y) in enumerate(offsets) if x <= a < y + 1)
                last = next(i for i, (x, y) in enumerate(offsets) if x < b <= y)
                hits.append(AdHit("phone number", spans[first][0], spans[last][1], True, f"{digits} (in words)"))

    # -- social ------------------------------------------------------------------------------
    def _scan_social(self, t: str, hits: list[AdHit]) -> None:
        strong_spans: list[tuple[int, int]] = []
        for m in _HANDLE_AFTER_RE.finditer(t):
            handle = m["h"]
            if m["at"] or m["sep"].strip() or re.search(r"[0-9_.]", handle):
                hits.append(AdHit("social handle", m.start(), m.end(), True, f"{m['p']} {handle}"))
                strong_spans.append((m.start(), m.end()))
        if "@" in t and _HANDLE_CONTEXT_RE.search(t):
            for m in _AT_HANDLE_RE.finditer(t):
                if any(a <= m.start() < b for a, b in strong_spans):
                    continue
                hits.append(AdHit("social handle", m.start(), m.end(), True, "@" + m["h"]))
                strong_spans.append((m.start(), m.end()))
        for rx, kind in ((_GROUP_RE, "group/channel invitation"), (_SUBSCRIBE_RE, "subscribe request")):
            for m in rx.finditer(t):
                hits.append(AdHit(kind, m.start(), m.end(), True, m.group()))
                strong_spans.append((m.start(), m.end()))
        platforms = list(_BARE_PLATFORM_RE.finditer(t))
        if platforms and not strong_spans:
            # "instagram hesabım okeyci_34": a platform named next to a handle-looking token
            for m in _HANDLE_TOKEN_RE.finditer(t):
                token = m.group().lstrip("@")
                if (not re.search(r"[0-9_]|[a-z]\.[a-z]", token) or _BARE_PLATFORM_RE.match(token)
                        or _TILE_RE.match(token)):
                    continue
                hits.append(AdHit("social handle", m.start(), m.end(), True, f"{platforms[0].group()} {token}"))
                strong_spans.append((m.start(), m.end()))
        for m in platforms:
            if any(a < m.end() and m.start() < b for a, b in strong_spans):
                continue
            hits.append(AdHit("platform mention", m.start(), m.end(), False, m.group()))
