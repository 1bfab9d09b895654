"""The filter pipeline: fold -> split into words -> build candidates -> match -> decide -> censor.

Candidates built from the folded text (each carries its span in the folded text, which maps
back to the original characters):

* every word ("salaksın", "akp"), with leetspeak decoded when the word also has letters;
* every space-free chunk with its punctuation removed ("ap.tal", "a.m.k", "akp'ye", "o.ç");
* runs of letters typed one by one ("s a l a k", "e r d o ğ a n", "s . a . l . a . k"), searched
  at every offset because the run may carry extra letters;
* two or three adjacent words glued together ("geri zekalı", "oy verin", "dem parti"), which only
  phrases and a few long, unmistakable roots may match: other roots find false words across word
  gaps ("taş sağındaki" is not "taşak").

Advertising checks run separately on the folded text (:mod:`.ads`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from .ads import AdDetector, AdHit
from .lexicon import (
    ALLOW_EXACT,
    ALLOW_LIST,
    ELLIPTIC_FILLERS,
    HAND_INSULTS,
    POLITICAL_SUBJECTS,
    POLITICS,
    STATEMENT_FILLERS,
    SUBJECT_NOT_AFTER,
    Lex,
    Subject,
    terlik_dictionary,
)
from .normalize import (
    LEET_TABLE,
    Folded,
    collapse_light,
    fold,
    has_repeat,
    leet,
    normalize_term,
    squeeze,
    squeeze_with_positions,
    tr_lower,
)
from .values import ACTION_RANK, FilterResult, FilterRules, Match, strictest
from .words import Entry, Spec, WordIndex, suffix_chain_ok

_PIECE_RE = re.compile(r"(?:[^\W_]|[@$!€])+")
_WORD_RE = re.compile(r"[^\W_]+")
_DATIVE_OR_ABLATIVE_RE = re.compile(r"\w*(?:[ae]|[dt][ae]n)")
_HAS_ALPHA_RE = re.compile(r"[^\W\d_]")
_HAS_DIGIT_RE = re.compile(r"\d")
_SPACE_RE = re.compile(r"\s")
_MASK_CHAR = "*"
# A letter hidden behind a symbol, as people write swear words in chat ("s*ktir", "or*spu", "s.keyim",
# "a*k", "s***ir"): a word whose inner letters stand behind symbols is tried with each letter there.
# Three symbols in a row hide letters only when they are not an ellipsis ("ya...sabır").
_MASK = r"(?:[*#_+\-]{3}|[*#_+.\-]{1,2})"
_MASKED_TOKEN_RE = re.compile(rf"(?<![a-z0-9*#_+.\-])[a-z]+(?:{_MASK}[a-z]+)+(?![a-z0-9*#_+.\-])")
_MASK_GROUP_RE = re.compile(_MASK)
_MASK_LETTERS = "abcdefghijklmnoprstuvyz"  # the folded Turkish alphabet (no q, w, x)
_MAX_MASKED_LETTERS = 3
# Three hidden letters leave too little to read unless as many stay visible ("s***ir", not "a***k").
_MIN_VISIBLE_FOR_THREE = 3
_MAX_RUN = 48  # letters-one-by-one runs are scanned in windows of this size (quadratic scan)


@dataclass(slots=True)
class _Piece:
    start: int  # span in the folded text
    end: int
    raw: str
    leeted: str
    norm: str
    light: str
    numeric: bool
    chunk: int
    brk: bool  # a mask character ("*") separates it from the previous piece
    single: bool = False  # one letter, maybe repeated ("s", "aa"): part of a spaced-out word
    allowed_by: str | None = None


@dataclass(frozen=True)
class _SubjectGuard:
    """A :class:`.lexicon.Subject` with its expressions compiled (whole-word matches)."""

    not_forms: re.Pattern[str] | None
    not_before: re.Pattern[str] | None
    not_after: re.Pattern[str]
    looker: bool

    @classmethod
    def of(cls, subject: Subject) -> _SubjectGuard:
        def compiled(expression: str) -> re.Pattern[str] | None:
            return re.compile(f"(?:{expression})") if expression else None

        after = "|".join(e for e in (subject.not_after, SUBJECT_NOT_AFTER) if e)
        return cls(compiled(subject.not_forms), compiled(subject.not_before), re.compile(f"(?:{after})"),
                   subject.looker)


@dataclass(slots=True)
class _Hit:
    category: str
    action: str
    f_start: int
    f_end: int
    rule: str
    reason_fmt: str
    needs_context: bool = False
    elliptic: bool = False


def _lex_spec(lex: Lex, rules: FilterRules) -> Spec:
    if lex.action is not None:
        action = lex.action
    elif lex.severe and lex.category == "insult":
        action = rules.severe_insult_action
    else:
        action = rules.default_actions[lex.category]
    return Spec(lex.word, lex.category, action, lex.mode, lex.severe, lex.forbid, lex.suffixes, lex.source,
                lex.joinable, lex.needs_context, lex.suffix_required, lex.elliptic)


def _term_key(word: str) -> str:
    return squeeze("".join(normalize_term(word)))


def _allow_form(word: str) -> list[str]:
    return [collapse_light(w) for w in normalize_term(word)]


class CompiledRules:
    """A :class:`FilterRules` turned into lookup tables; build once, reuse for every message."""

    def __init__(self, rules: FilterRules) -> None:
        self.rules = rules
        specs: list[Spec] = []
        allow_prefix: list[str] = []
        allow_exact: list[str] = []
        allow_phrases: list[tuple[str, ...]] = []
        allowed_domains: set[str] = set()
        if rules.use_builtin_lists:
            hand = [*HAND_INSULTS, *POLITICS]
            terlik_entries, terlik_whitelist, _ = terlik_dictionary()
            by_key = {_term_key(lex.word): lex for lex in hand}
            specs.extend(_lex_spec(lex, rules) for lex in hand)
            for lex in terlik_entries:
                if _term_key(lex.word) in by_key:
                    continue  # our entry for the same word wins
                ours = by_key.get(_term_key(lex.root or lex.word))
                if ours is not None:  # a variant of a root we grade ourselves: same level, same guards
                    lex = replace(lex, severe=ours.severe, forbid=ours.forbid)
                specs.append(_lex_spec(lex, rules))
            allow_prefix_src = list(ALLOW_LIST)
            allow_exact_src = [*ALLOW_EXACT, *terlik_whitelist]
        else:
            allow_prefix_src, allow_exact_src = [], []
        for word in rules.watched_words:
            action = word.action or rules.default_actions[word.category]
            specs.append(Spec(word.word, word.category, action, word.match, source="staff"))
        for entry in (*allow_prefix_src, *rules.allow_list):
            if "." in entry.strip(".") and " " not in entry.strip():
                allowed_domains.add(fold(entry.strip()).text.removeprefix("www."))
                continue
            words = _allow_form(entry)
            if len(words) > 1:
                allow_phrases.append(tuple(words))
            elif words:
                allow_prefix.append(words[0])
        for entry in allow_exact_src:
            words = _allow_form(entry)
            if len(words) == 1:
                allow_exact.append(words[0])
        self.words = WordIndex(specs)
        # Political subjects ("hükümet", "muhalefet"...): keyed by the rule name of their hits.
        self.subjects = ({f"built-in:{word}": _SubjectGuard.of(subject) for word, subject in POLITICAL_SUBJECTS.items()}
                         if rules.use_builtin_lists else {})
        self.allow_prefix = tuple(sorted(set(allow_prefix)))
        self.allow_exact = frozenset(allow_exact)
        self.allow_phrases: dict[str, list[tuple[str, ...]]] = {}
        for phrase in allow_phrases:
            self.allow_phrases.setdefault(phrase[0], []).append(phrase)
        self.ads = AdDetector(frozenset(allowed_domains)) if rules.detect_advertising else None
        self.strong_ad_action = rules.default_actions["advertising"]
        self.weak_ad_action = rules.weak_advertising_action

    # -- tokenising --------------------------------------------------------------------------
    def _allow_entry(self, *forms: str) -> str | None:
        """The allow-list entry covering a word: the entry itself or the entry + Turkish suffixes.

        Suffixes only, not any continuation: "okey" allows "okeyi", "okeyde" but not a
        staff-watched "okeyhane", and "ama" must not hide "amaq"-style compounds.
        """
        exact, prefixes = self.allow_exact, self.allow_prefix
        for form in forms:
            if form in exact:
                return form
            if prefixes and form.startswith(prefixes):
                for entry in prefixes:
                    if form.startswith(entry):
                        rem = form[len(entry):]
                        if not rem or suffix_chain_ok(squeeze(rem), 4):
                            return entry
        return None

    def _pieces(self, t: str) -> list[_Piece]:
        pieces: list[_Piece] = []
        chunk = 0
        prev_end = 0
        check_allow = bool(self.allow_prefix or self.allow_exact)
        for m in _PIECE_RE.finditer(t):
            start, end = m.span()
            raw = m.group()
            if "!" in raw:  # "!" is leet for i only inside a word ("s!kt!r"), not "salak!"
                stripped = raw.strip("!")
                if not stripped:
                    continue
                start += len(raw) - len(raw.lstrip("!"))
                end = start + len(stripped)
                raw = stripped
            if pieces:
                gap = t[prev_end:start]
                if gap == " " or (gap and _SPACE_RE.search(gap)):
                    chunk += 1
                brk = _MASK_CHAR in gap
            else:
                brk = False
            prev_end = end
            single = len(raw) == 1 or raw == raw[0] * len(raw)
            if raw.isdigit():
                pieces.append(_Piece(start, end, raw, raw, raw, raw, True, chunk, brk, single))
                continue
            if _HAS_ALPHA_RE.search(raw):
                leeted = raw.translate(LEET_TABLE)
            elif _HAS_DIGIT_RE.search(raw):
                leeted = raw  # digits with symbols ("2$"): nothing to decode
            else:
                continue  # only symbols ("$$", "@")
            if has_repeat(leeted):
                piece = _Piece(start, end, raw, leeted, squeeze(leeted), collapse_light(leeted), False, chunk, brk,
                               single)
            else:
                piece = _Piece(start, end, raw, leeted, leeted, leeted, False, chunk, brk, single)
            if check_allow:
                piece.allowed_by = (self._allow_entry(piece.light) if raw == leeted
                                    else self._allow_entry(piece.light, collapse_light(raw)))
            pieces.append(piece)
        if self.allow_phrases:
            self._mark_allowed_phrases(pieces)
        return pieces

    def _mark_allowed_phrases(self, pieces: list[_Piece]) -> None:
        for i, piece in enumerate(pieces):
            for phrase in self.allow_phrases.get(piece.light, ()):
                k = len(phrase)
                group = pieces[i:i + k]
                if len(group) < k:
                    continue
                last = group[-1].light
                if (all(group[j].light == phrase[j] for j in range(k - 1)) and last.startswith(phrase[-1])
                        and suffix_chain_ok(squeeze(last[len(phrase[-1]):]), 4)):
                    for p in group:
                        p.allowed_by = p.allowed_by or " ".join(phrase)

    # -- matching ----------------------------------------------------------------------------
    @staticmethod
    def _forbidden(entry: Entry, leeted: str, positions: list[int], offset: int, text: str, folded: Folded) -> bool:
        """Was the root typed with a letter that makes it innocent ("sık", "öç", "şık")?"""
        _, first, last = squeeze_with_positions(leeted)
        for k in range(offset, min(len(first), offset + len(entry.key))):
            for q in range(first[k], last[k] + 1):
                if tr_lower(text[folded.starts[positions[q]]]) in entry.forbid:
                    return True
        return False

    def _word_hit(self, entry: Entry, f_start: int, f_end: int, kind: str) -> _Hit:
        fmt = f"{entry.category}: {{found!r}} matched {entry.source} word {entry.label!r} ({entry.mode}{kind}) -> {entry.action}"
        return _Hit(entry.category, entry.action, f_start, f_end, f"{entry.source}:{entry.label}", fmt,
                    entry.needs_context, entry.elliptic)

    def _match_masked(self, t: str, hits: list[_Hit]) -> None:
        """Insults with letters behind symbols ("s*ktir", "s**tir", "s***ir", "or*spu", "s.keyim"): the
        hidden letters (at most three) are filled with every letter that keeps the word on the way to a
        known root, and each filling is looked up like a plain word; only insults count, and only
        words the plain scan did not already catch. A root's exceptions ("sık" is not "sik") rest on
        the very letter that is hidden, so they do not apply: nobody hides a letter of "sıkıldım"."""
        if not _MASK_GROUP_RE.search(t):
            return
        prefixes = self._root_prefixes
        for m in _MASKED_TOKEN_RE.finditer(t):
            token = m.group()
            if len(token) > 20 or any(h.f_start <= m.start() and m.end() <= h.f_end for h in hits):
                continue
            parts = _MASK_GROUP_RE.split(token)
            gaps = [len(g) for g in _MASK_GROUP_RE.findall(token)]
            hidden = sum(gaps)
            if hidden > _MAX_MASKED_LETTERS or (hidden == _MAX_MASKED_LETTERS
                                                and sum(map(len, parts)) < _MIN_VISIBLE_FOR_THREE):
                continue
            # Build the fillings left to right, keeping only those still a prefix of some root.
            candidates = [parts[0]]
            for gap, part in zip(gaps, parts[1:], strict=True):
                for _ in range(gap):
                    candidates = [c + letter for c in candidates for letter in _MASK_LETTERS if c + letter in prefixes]
                candidates = [c + part for c in candidates]
            for candidate in candidates:
                found = [entry for entry, _off in self.words.match_whole(candidate)
                         if entry.category == "insult" and not entry.elliptic and not entry.needs_context]
                if found:
                    hits.append(self._word_hit(found[0], m.start(), m.end(), f", letters hidden: {candidate!r}"))
                    break

    @cached_property
    def _root_prefixes(self) -> frozenset[str]:
        """Every prefix of every root in the index (built on the first masked word, once per rule set)."""
        return frozenset(key[:i] for key in self.words.index for i in range(1, len(key) + 1))

    def _match_words(self, text: str, folded: Folded, pieces: list[_Piece], hits: list[_Hit], notes: list[str]) -> None:
        words = self.words
        # 1. single words
        for p in pieces:
            if p.numeric:
                continue
            found = words.match_whole(p.norm)
            if not found:
                continue
            for entry, off in found:
                if entry.forbid and self._forbidden(entry, p.leeted, list(range(p.start, p.end)), off, text, folded):
                    continue
                if p.allowed_by is not None:
                    notes.append(
                        f"ignored {text[folded.starts[p.start]:folded.ends[p.end - 1]]!r}: allow-list entry "
                        f"{p.allowed_by!r} (would match {entry.category} word {entry.label!r})"
                    )
                    continue
                hits.append(self._word_hit(entry, p.start, p.end, ""))
        n = len(pieces)
        # 2. space-free chunks without their punctuation ("ap.tal", "a.m.k", "akp'ye")
        i = 0
        while i < n:
            j = i + 1
            while j < n and pieces[j].chunk == pieces[i].chunk and not pieces[j].brk:
                j += 1
            if j - i >= 2:
                group = pieces[i:j]
                # "Malatya'da", "Akpınar'la": an allowed word keeps its apostrophe suffix
                if not group[0].allowed_by and not all(p.numeric or p.allowed_by for p in group):
                    self._match_joined(group, text, folded, hits, joined=False, kind=", punctuation removed")
            i = j
        # 3. letters typed one by one ("s a l a k", "o r o s p u")
        i = 0
        while i < n:
            j = i
            while j < n and pieces[j].single and (j == i or not pieces[j].brk):
                j += 1
            if j - i >= 2:
                for w in range(i, j, _MAX_RUN // 2):
                    self._match_run(pieces[w:min(j, w + _MAX_RUN)], text, folded, hits)
            i = max(j, i + 1)
        # 4. adjacent words glued ("geri zekalı", "oy verin", "dem parti")
        jp4 = words.joinable_prefix4
        for i in range(n - 1):
            p0, p1 = pieces[i], pieces[i + 1]
            if p0.numeric or p0.allowed_by or p1.numeric or p1.allowed_by or p1.brk:
                continue
            two = p0.norm + p1.norm
            if p1.norm[:1] == p0.norm[-1:]:  # "ana avrat": keys are squeezed across the gap too
                two = squeeze(two)
            if len(two) >= 4 and two[:4] not in jp4:
                continue  # cheap reject: no phrase / long root starts like this (nor with a 3rd word)
            singles = p0.single and p1.single  # spaced letters are handled by step 3
            if not singles and two[:4] in jp4:
                self._match_joined([p0, p1], text, folded, hits, joined=True, kind=", words joined")
            if i + 2 < n:
                p2 = pieces[i + 2]
                if p2.numeric or p2.allowed_by or p2.brk or (singles and p2.single):
                    continue
                if (two + p2.norm)[:4] in jp4:
                    self._match_joined([p0, p1, p2], text, folded, hits, joined=True, kind=", words joined")

    def _match_joined(self, group: list[_Piece], text: str, folded: Folded, hits: list[_Hit], *, joined: bool,
                      kind: str) -> None:
        raw = "".join(p.leeted if joined else p.raw for p in group)
        leeted = leet(raw) if _HAS_ALPHA_RE.search(raw) else raw
        if not _HAS_ALPHA_RE.search(leeted):
            return
        found = self.words.match_whole(squeeze(leeted), joined=joined)
        if not found:
            return
        positions = [f for p in group for f in range(p.start, p.end)]
        if joined:
            alone = {id(e) for e, _ in self.words.match_whole(group[0].norm)}
            head = len(squeeze("".join(p.leeted for p in group[:-1])))
        for entry, off in found:
            if joined and (id(entry) in alone or len(entry.key) <= head):
                # "siyaset konuşmayın": the first word alone is the match, not the pair;
                # "geri zekalı herif": the root must reach into the last word of the group
                continue
            if entry.forbid and self._forbidden(entry, leeted, positions, off, text, folded):
                continue
            hits.append(self._word_hit(entry, group[0].start, group[-1].end, kind))

    def _match_run(self, group: list[_Piece], text: str, folded: Folded, hits: list[_Hit]) -> None:
        raw = "".join(p.raw for p in group)
        if not _HAS_ALPHA_RE.search(raw):
            return
        leeted = leet(raw)
        positions = [f for p in group for f in range(p.start, p.end)]
        s, first, last = squeeze_with_positions(leeted)
        for entry, a, b in self.words.scan_run(s):
            if entry.forbid:
                sub = leeted[first[a]:last[b - 1] + 1]
                if self._forbidden(entry, sub, positions[first[a]:last[b - 1] + 1], 0, text, folded):
                    continue
            f_start = positions[first[a]]
            f_end = positions[last[b - 1]] + 1
            hits.append(self._word_hit(entry, f_start, f_end, ", letters spaced out"))

    def _ad_hits(self, t: str, hits: list[_Hit]) -> None:
        assert self.ads is not None
        for ad in self.ads.scan(t):
            hits.append(self._ad_hit(ad))

    def _ad_hit(self, ad: AdHit) -> _Hit:
        action = self.strong_ad_action if ad.strong else self.weak_ad_action
        fmt = f"advertising: {ad.kind} {ad.detail!r} in {{found!r}} -> {action}"
        return _Hit("advertising", action, ad.start, ad.end, f"ad:{ad.kind}", fmt)

    # -- context -----------------------------------------------------------------------------
    @staticmethod
    def _contained(hit: _Hit, others: list[_Hit]) -> bool:
        return any(o is not hit and o.f_start <= hit.f_start and hit.f_end <= o.f_end
                   and (o.f_end - o.f_start) > (hit.f_end - hit.f_start) for o in others)

    def _needs_context(self, hits: list[_Hit], text: str, folded: Folded, notes: list[str]) -> list[_Hit]:
        """Keep everyday political words only in political company.

        "iyi seçim", "seçimini yap", "siyaset konuşmayın" pass: one such word alone (however often)
        is table talk. A second, different one ("seçimde ... partisine oy verin") or any plainly
        political word (a party, a politician) makes the whole message politics.
        """
        weak = [h for h in hits if h.needs_context]
        if not weak:
            return hits
        strong = any(h.category == "politics" and not h.needs_context for h in hits)
        subjects = [h for h in weak if h.rule in self.subjects] if self.subjects and not strong else []
        if subjects:
            words = [(m.start(), m.end(), m.group()) for m in _WORD_RE.finditer(folded.text)]
            others = set()
            for h in subjects:
                verdict = self._subject_verdict(h, words)
                found = text[folded.starts[h.f_start]:folded.ends[h.f_end - 1]]
                if verdict == "stated":
                    notes.append(f"politics: {found!r} ({h.rule}) is the subject of a statement")
                    return hits
                if verdict == "other":  # an idiom, a simile, another word: not a political word at all
                    notes.append(f"ignored {found!r}: {h.rule} is not the government or the opposition here")
                    others.add(id(h))
            weak = [h for h in weak if id(h) not in others]
        counted = sorted((h for h in weak if not self._contained(h, weak)), key=lambda h: h.f_start)
        places = 0  # separate places in the message: "oy vermeyin" matches two rules in one place
        end = -1
        for h in counted:
            if h.f_start >= end:
                places += 1
            end = max(end, h.f_end)
        if strong or (len({h.rule for h in counted}) >= 2 and places >= 2):
            return hits
        for h in weak:
            found = text[folded.starts[h.f_start]:folded.ends[h.f_end - 1]]
            notes.append(f"ignored {found!r}: {h.rule} is politics only next to another political word")
        return [h for h in hits if not h.needs_context]

    def _subject_verdict(self, hit: _Hit, words: list[tuple[int, int, str]]) -> str:
        """"stated" when the message says something about the government or opposition word of
        ``hit`` ("hükümet memleketi batırdı", "kahrolsun hükümet"); "other" when the word is an
        idiom, a simile or another word here ("muhalefet yapma", "iktidar bende", "meclis gibi",
        "masaya bakanlar", "iktidarsız"); "alone" when nothing else is said ("hükümet mi?")."""
        guard = self.subjects[hit.rule]
        inside = [w for w in words if w[0] < hit.f_end and w[1] > hit.f_start]
        if not inside:
            return "alone"
        form = "".join(w[2] for w in inside)
        before = [w[2] for w in words if w[1] <= inside[0][0]]
        after = [w[2] for w in words if w[0] >= inside[-1][1]]
        previous, following = (before[-1] if before else ""), (after[0] if after else "")
        if guard.not_forms is not None and guard.not_forms.fullmatch(form):
            return "other"
        if previous and guard.not_before is not None and guard.not_before.fullmatch(previous):
            return "other"
        if previous and guard.looker and _DATIVE_OR_ABLATIVE_RE.fullmatch(previous):
            return "other"
        if following and guard.not_after.fullmatch(following):
            return "other"
        said = [w for w in before + after if len(w) >= 2 and w not in STATEMENT_FILLERS]
        return "stated" if said else "alone"

    @staticmethod
    def _after_is_filler(t: str, f_end: int) -> bool:
        words = []
        for m in _PIECE_RE.finditer(t, f_end):
            word = m.group().strip("!")  # "ananı!": an exclamation, not a leet "i"
            if not word:
                continue
            words.append(squeeze(leet(word)) if _HAS_ALPHA_RE.search(word) else word)
        if words and all(len(w) == 1 for w in words):  # "ananı y a": letters typed one by one
            words = [squeeze("".join(words))]
        return all(w in ELLIPTIC_FILLERS for w in words)

    def _elliptic(self, hits: list[_Hit], t: str, text: str, folded: Folded, notes: list[str]) -> list[_Hit]:
        """A bare reference to someone's family is an insult; the same word in a sentence is not.

        "ananı!", "senin anan", "ananı ya" are insults with the swear word left out; "ananı ara",
        "annene selam söyle" are not. Next to another insult the reference is part of it.
        """
        if not any(h.elliptic for h in hits):
            return hits
        insulted = any(h.category == "insult" and not h.elliptic for h in hits)
        kept = []
        for h in hits:
            if h.elliptic and not insulted and not self._after_is_filler(t, h.f_end):
                found = text[folded.starts[h.f_start]:folded.ends[h.f_end - 1]]
                notes.append(f"ignored {found!r}: {h.rule} is an insult only when left bare")
                continue
            kept.append(h)
        return kept

    # -- decision ----------------------------------------------------------------------------
    def run(self, text: str) -> FilterResult:
        if not isinstance(text, str):
            raise TypeError("filter_message expects a str")
        folded = fold(text)
        hits: list[_Hit] = []
        notes: list[str] = []
        if folded.text:
            pieces = self._pieces(folded.text)
            if pieces:
                self._match_words(text, folded, pieces, hits, notes)
                self._match_masked(folded.text, hits)
                hits = self._needs_context(hits, text, folded, notes)
                hits = self._elliptic(hits, folded.text, text, folded, notes)
            if self.ads is not None:
                self._ad_hits(folded.text, hits)
        if not hits:
            return FilterResult("allow", [], text, notes, ())
        matches = self._to_matches(text, folded, hits)
        action = strictest(m.action for m in matches)
        categories = sorted({m.category for m in matches})
        shown = self._censor(text, matches) if action == "censor" else text
        return FilterResult(action, categories, shown, [m.reason for m in matches] + notes, tuple(matches))

    @staticmethod
    def _to_matches(text: str, folded: Folded, hits: list[_Hit]) -> list[Match]:
        spans: dict[tuple[str, str], list[tuple[int, int, _Hit]]] = {}
        for h in hits:
            start, end = folded.starts[h.f_start], folded.ends[h.f_end - 1]
            spans.setdefault((h.category, h.rule), []).append((start, end, h))
        matches: list[Match] = []
        for group in spans.values():
            group.sort(key=lambda x: (x[0], -x[1]))
            kept: list[tuple[int, int, _Hit]] = []
            for start, end, h in group:
                if kept and kept[-1][0] <= start and end <= kept[-1][1]:
                    continue  # same rule inside a wider span ("akp" inside "akp'ye")
                kept.append((start, end, h))
            for start, end, h in kept:
                found = text[start:end]
                matches.append(Match(h.category, h.action, start, end, found, h.rule, h.reason_fmt.format(found=found)))
        # a narrower match of the same category inside a wider one adds nothing ("m.k" in "a.m.k");
        # one sweep per category keeps this linear for pathological messages with many matches
        matches.sort(key=lambda m: (m.category, m.start, -m.end))
        kept_matches: list[Match] = []
        cover: Match | None = None
        for m in matches:
            if cover is not None and cover.category == m.category and m.end <= cover.end:
                if (cover.end - cover.start) > (m.end - m.start) and ACTION_RANK[cover.action] >= ACTION_RANK[m.action]:
                    continue
            if cover is None or cover.category != m.category or m.end > cover.end:
                cover = m
            kept_matches.append(m)
        kept_matches.sort(key=lambda m: (m.start, -ACTION_RANK[m.action]))
        return kept_matches

    @staticmethod
    def _censor(text: str, matches: list[Match]) -> str:
        spans = sorted((m.start, m.end) for m in matches if m.action == "censor")
        merged: list[list[int]] = []
        for start, end in spans:
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        out: list[str] = []
        pos = 0
        for start, end in merged:
            out.append(text[pos:start])
            out.append(_MASK_CHAR * (end - start))
            pos = end
        out.append(text[pos:])
        return "".join(out)


def compiled(rules: FilterRules) -> CompiledRules:
    """The lookup tables of a rules object, built once per object (the expensive part) and kept on
    it: rules are immutable, so their tables never go stale."""
    tables = rules.__dict__.get("_compiled")
    if tables is None:
        tables = CompiledRules(rules)
        object.__setattr__(rules, "_compiled", tables)
    return tables


@lru_cache(maxsize=1)
def default_rules() -> FilterRules:
    """The built-in lists with the salon's default actions (one shared, pre-compiled instance)."""
    rules = FilterRules()
    compiled(rules)
    return rules


def filter_message(text: str, *, rules: FilterRules | None = None) -> FilterResult:
    """Decide what happens to one chat message. Never raises on any ``str`` input."""
    return compiled(rules or default_rules()).run(text)
