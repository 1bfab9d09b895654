"""Built-in word lists: insults/swearing, politics, Turkish suffixes and the allow-list.

Words are written naturally (with Turkish letters); they are normalised at compile time with
the same code as messages. Modes (see :mod:`.words`):

* ``exact``    the whole word, nothing attached ("aq", "rte");
* ``suffix``   the root plus a chain of Turkish suffixes ("salak" -> "salaksın", "salağın");
* ``prefix``   any word starting with the root, for long roots no clean word starts with;
* ``contains`` anywhere inside a word, for a few unmistakable roots ("orospu").

``forbid`` lists original letters that make a match innocent: "sik" typed with a dotless ı is
"sık" (tight/often, "sıkıldım" = I got bored), "oç" typed with ö is "öç" (revenge), "şık" is chic.
The fold maps those letters together, so we look back at what was actually typed.

The insult list merges the dictionary shipped by the ``terlik`` package (see
:func:`terlik_entries`) with the hand-written list below; roots of terlik that hurt clean okey
chat ("sıkıldım", "kaşar peyniri", "rezil oldum", "alçak", "meme", ...) are excluded.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Lex:
    """One built-in (or staff) entry before normalisation."""

    word: str
    category: str
    mode: str = "suffix"
    severe: bool = False
    forbid: str = ""
    suffixes: tuple[str, ...] | None = None  # explicit allowed suffixes (no chaining)
    source: str = "built-in"
    action: str | None = None
    root: str | None = None  # for terlik variants: the dictionary root they belong to
    joinable: bool = False  # may match across a word gap ("geri zekalı"); phrases always may
    # an everyday word that is political only next to another political cue ("seçim" is also a choice)
    needs_context: bool = False
    # with explicit suffixes: the bare word does not match ("partisi" may be a party, "parti" is a round)
    suffix_required: bool = False
    # a bare reference to someone's family ("ananı!"): an insult only when nothing but fillers
    # ("ya", "be", "senin") follows it, or next to another insult; "ananı ara" is clean
    elliptic: bool = False


# ---------------------------------------------------------------------------------------------
# Turkish suffixes (written folded: ı->i, ü->u, ş->s, ç->c, ğ->g, ö->o). Up to three may chain.
# Kept deliberately to real inflections so "suffix" mode stays precise on short roots.
SUFFIXES: tuple[str, ...] = (
    # plural, possessive, case
    "ler", "lar", "leri", "lari", "lerin", "larin", "lere", "lara", "lerde", "larda",
    "im", "um", "in", "un", "i", "u", "e", "a", "m", "n", "si", "su", "imiz", "umuz", "iniz", "unuz",
    "ye", "ya", "yi", "yu", "yle", "yla", "le", "la", "nin", "nun", "in", "ni", "nu", "ne", "na",
    "de", "da", "te", "ta", "den", "dan", "ten", "tan", "nde", "nda", "nden", "ndan", "ine", "una",
    "ini", "unu", "inde", "unda", "inden", "undan", "ki",
    # copula / person
    "sin", "sun", "siniz", "sunuz", "sen", "san", "yim", "yum", "yiz", "yuz", "iz", "uz",
    "dir", "dur", "tir", "tur", "dirler", "durlar", "mi", "mu", "misin", "musun", "misiniz",
    "musunuz", "miyim", "muyum", "miyiz", "ydi", "ymis", "yken", "ken", "ymus", "lan",
    # derivation
    "lik", "luk", "ligi", "lugu", "ligin", "lugun", "li", "lu", "ci", "cu", "cik", "cuk", "ca", "ce",
    "cilik", "culuk", "ce", "cesine", "casina", "gil", "siz", "suz", "msi", "imsi", "umsu",
    # verbal (swear verbs: sik-er-im, sik-tir, sik-ey-im, ...)
    "er", "ar", "ir", "ur", "erim", "irim", "arim", "ecek", "acak", "ecem", "acam", "icem", "cem",
    "ecegim", "acagim", "eyim", "ayim", "elim", "alim", "ti", "tu", "di", "du", "tim", "tum",
    "dim", "dum", "tin", "din", "tik", "dik", "tigim", "digim", "tigimin", "digimin", "mis", "mus",
    "iyor", "uyor", "yor", "mek", "mak", "me", "ma", "se", "sa", "is", "us", "esi", "asi", "il",
    "ik", "uk", "en", "an", "ici", "ul", "un", "iver", "ebil", "abil", "eme", "ama", "lik", "siz", "ken",
)

# ---------------------------------------------------------------------------------------------
# Hand-written insult / swearing list. Severe entries default to "block" (two-level list).
_SEVERE = True
HAND_INSULTS: tuple[Lex, ...] = (
    # sexual swearing, family insults, slurs -> severe
    Lex("orospu", "insult", "contains", _SEVERE, joinable=True),
    Lex("orosbu", "insult", "contains", _SEVERE),
    Lex("oruspu", "insult", "contains", _SEVERE),
    Lex("orspu", "insult", "prefix", _SEVERE),
    Lex("siktir", "insult", "contains", _SEVERE, forbid="ş", joinable=True),  # "sıktır" must still match
    Lex("sik", "insult", "suffix", _SEVERE, forbid="şı"),  # not "sık", "şık", "sıkıldım"
    Lex("sikik", "insult", "prefix", _SEVERE, forbid="şı"),
    Lex("sktr", "insult", "prefix", _SEVERE),
    Lex("skerim", "insult", "prefix", _SEVERE),
    Lex("skrm", "insult", "exact", _SEVERE),
    Lex("hassiktir", "insult", "prefix", _SEVERE, joinable=True),
    Lex("amına", "insult", "prefix", _SEVERE),
    Lex("amına koy", "insult", "prefix", _SEVERE),
    Lex("amcık", "insult", "prefix", _SEVERE),
    Lex("amcuk", "insult", "prefix", _SEVERE),
    Lex("yarrak", "insult", "prefix", _SEVERE),  # collapses to "yarak"; "yarar" is another word
    Lex("dalyarak", "insult", "prefix", _SEVERE),
    Lex("piç", "insult", "suffix", _SEVERE),
    Lex("piç kurusu", "insult", "prefix", _SEVERE),
    Lex("oç", "insult", "exact", _SEVERE, forbid="ö", suffixes=("lar", "ler")),  # not "öç"
    Lex("ibne", "insult", "prefix", _SEVERE),
    Lex("pezevenk", "insult", "prefix", _SEVERE, joinable=True),
    Lex("kahpe", "insult", "prefix", _SEVERE),
    Lex("fahişe", "insult", "prefix", _SEVERE),
    Lex("kaltak", "insult", "prefix", _SEVERE),
    Lex("puşt", "insult", "suffix", _SEVERE),
    Lex("gavat", "insult", "prefix", _SEVERE),
    Lex("ananı sik", "insult", "prefix", _SEVERE),
    Lex("ananın amı", "insult", "prefix", _SEVERE),
    Lex("anan sik", "insult", "prefix", _SEVERE),
    # everyday swearing -> censor
    Lex("amk", "insult", "exact", suffixes=("lar",)),
    Lex("amkk", "insult", "exact"),
    Lex("aqq", "insult", "exact"),
    Lex("amq", "insult", "exact"),
    Lex("amg", "insult", "exact"),
    Lex("aq", "insult", "exact"),
    Lex("mk", "insult", "exact"),
    Lex("göt", "insult", "suffix"),
    Lex("götveren", "insult", "prefix"),
    Lex("bok", "insult", "suffix", forbid="ö"),  # not "Böke"
    Lex("yavşak", "insult", "prefix"),
    Lex("şerefsiz", "insult", "prefix"),
    Lex("haysiyetsiz", "insult", "prefix"),
    Lex("namussuz", "insult", "prefix"),
    Lex("salak", "insult", "prefix"),
    Lex("aptal", "insult", "prefix"),
    Lex("gerizekalı", "insult", "prefix", joinable=True),
    Lex("gerzek", "insult", "prefix"),
    Lex("dangalak", "insult", "prefix"),
    Lex("ahmak", "insult", "prefix"),
    Lex("budala", "insult", "prefix"),
    Lex("enayi", "insult", "prefix"),
    Lex("hıyar", "insult", "suffix"),
    Lex("embesil", "insult", "prefix"),
    Lex("beyinsiz", "insult", "prefix"),
    Lex("mal", "insult", "exact", suffixes=("sin", "sun", "siniz", "sunuz", "san", "misin", "misiniz", "lan")),
    Lex("ezik", "insult", "suffix"),
    Lex("öküz", "insult", "suffix"),
    Lex("it oğlu it", "insult", "prefix"),
    Lex("eşşoğlueşşek", "insult", "prefix"),
    Lex("sikimsonik", "insult", "prefix", _SEVERE),
    Lex("ananı avradını", "insult", "prefix", _SEVERE),
    Lex("anasını avradını", "insult", "prefix", _SEVERE),
    Lex("ana avrat", "insult", "prefix", _SEVERE),
    Lex("avradını", "insult", "prefix", _SEVERE),
    Lex("avradına", "insult", "prefix", _SEVERE),
    Lex("ecdadını", "insult", "prefix", _SEVERE),
    # "kodumun oğlu" is the swear word in disguise; "sıçtığımın oğlu" counts, "sıçtım" (I blew it) passes
    *(Lex(word, "insult", "prefix", _SEVERE) for word in ("şırfıntı", "godoş", "sikko", "kodumun", "sıçtığım")),
    Lex("ağzına sıç", "insult", "prefix", _SEVERE, joinable=True),  # not "ağzına sağlık" (well said)
    # written without vowels, as in chat ("şrfsz", "pzvnk")
    *(Lex(word, "insult", "exact") for word in ("şrfsz", "srfsz", "yvşk")),
    *(Lex(word, "insult", "exact", _SEVERE) for word in ("orsp", "pzv")),
    Lex("pzvnk", "insult", "prefix", _SEVERE),
    # name-calling of the "salak" kind
    Lex("angut", "insult", "suffix"),
    Lex("zibidi", "insult", "suffix"),
    Lex("lavuk", "insult", "suffix"),
    Lex("hırt", "insult", "exact", suffixes=("sın", "sin", "san", "lar", "ler", "lan")),
    Lex("keko", "insult", "exact", suffixes=("sun", "lar", "lan")),
    Lex("allahsız", "insult", "prefix"),
    Lex("imansız", "insult", "prefix"),
    # an animal called at a person ("eşek herif", "köpek oğlu"): the animal alone is just an animal
    *(Lex(f"{animal} {tail}", "insult", "prefix", joinable=True)
      for animal in ("eşek", "eşşek", "köpek", "it", "hayvan", "ayı", "kıl", "domuz")
      for tail in ("herif", "oğlu")),
    Lex("eşek kafalı", "insult", "prefix", joinable=True),
    # elliptic insults: the swear verb left out ("ananı!", "senin anan", "bacını be")
    *(Lex(form, "insult", "exact", elliptic=True) for form in (
        "ananı", "ananızı", "anana", "ananıza", "ananın", "anan", "ananız", "anasını", "anası",
        "anneni", "annene", "anneniz", "bacını", "bacına", "bacın", "sülaleni", "sülalene", "ebeni", "ebene",
        # the religious ones, as bare ("allahını!", "dinini be"); in a sentence they pass ("dinini bilmem")
        "allahını", "allahına", "dinini", "dinine", "imanını", "kitabını", "kitabına",
    )),
)

# Words that may follow an elliptic insult and leave it bare ("ananı ya", "ananı senin").
ELLIPTIC_FILLERS = frozenset({
    "ya", "yaa", "be", "bee", "lan", "ulan", "la", "len", "ha", "he", "hee", "ki", "senin", "sizin", "onun",
    "oglum", "olum", "moruk", "hadi", "git", "da", "de", "hey", "ey",
})

# Terlik roots/variants that misfire in okey chat or are not insults in this context.
TERLIK_EXCLUDED_ROOTS = frozenset({
    "am", "meme", "döl", "rezil", "alçak", "yıkık", "eşek", "maymun", "kaşar", "çüş", "sg", "glk",
    "hapiyedin", "gömerler", "manyak", "kansız", "vefasız", "kötüniyetli", "fırıldak", "fuhuş",
    "amcı", "cehenneme",
    "sik",  # replaced by the hand-written entries that know "sık"/"şık" (see Lex.forbid)
})
TERLIK_EXCLUDED_VARIANTS = frozenset({"gt", "mk", "mq", "pç", "yrk", "ananı", "ami", "amı", "gtvsn", "dol"})

# ---------------------------------------------------------------------------------------------
# Politics: parties, politicians, political vocabulary. Precision first: common words that are
# also names ("özel" = private room, "yavaş" = slow, "bahçeli" = with a garden, "gülen" =
# smiling, "parti" = one more game) only count inside a phrase, and everyday words that are
# political only in some sentences (``needs_context``: "seçim" is also a choice, "siyaset
# konuşmayın" is a reminder) count only next to a second, different political word.
POLITICS: tuple[Lex, ...] = (
    Lex("akp", "politics", "suffix"),
    Lex("ak parti", "politics", "prefix"),
    Lex("akparti", "politics", "prefix"),
    Lex("akepe", "politics", "prefix"),
    Lex("chp", "politics", "suffix"),
    Lex("cehape", "politics", "prefix"),
    Lex("mhp", "politics", "suffix"),
    Lex("mehape", "politics", "prefix"),
    Lex("hdp", "politics", "suffix"),
    Lex("hdpkk", "politics", "prefix"),
    Lex("dem parti", "politics", "prefix"),
    # "iyi parti" is also "a good round": the party's suffixes name the party ("iyi partiye oy"), the
    # bare words need political context, and "iyi partiydi", "iyi partiler" (good games) pass
    Lex("iyi parti", "politics", "exact", suffixes=("li", "liler", "lilar", "nin", "ye", "yi", "den", "yle"),
        suffix_required=True),
    Lex("iyi parti", "politics", "exact", needs_context=True),
    # "parti" is a round of the game; "partisine", "partili" (its party, party member) are politics
    # when another political word is near ("seçimde X partisine oy verin")
    Lex("parti", "politics", "exact", suffixes=("si", "sine", "sini", "sinin", "sinden", "siyle", "li", "liler",
                                                 "lilar", "lilere", "lileri"), suffix_required=True,
        needs_context=True),
    Lex("oy kullan", "politics", "prefix", needs_context=True),
    Lex("sandık", "politics", "suffix", needs_context=True),
    Lex("aday", "politics", "suffix", needs_context=True),
    Lex("başkan", "politics", "suffix", needs_context=True),
    Lex("zafer partisi", "politics", "prefix"),
    Lex("saadet partisi", "politics", "prefix"),
    Lex("deva partisi", "politics", "prefix"),
    Lex("yeniden refah", "politics", "prefix"),
    Lex("cumhur ittifakı", "politics", "prefix"),
    Lex("millet ittifakı", "politics", "prefix"),
    Lex("erdoğan", "politics", "prefix", joinable=True),
    Lex("tayyip", "politics", "prefix"),
    Lex("rte", "politics", "exact"),
    Lex("kılıçdaroğlu", "politics", "prefix", joinable=True),
    Lex("imamoğlu", "politics", "prefix", joinable=True),
    Lex("özgür özel", "politics", "prefix"),
    Lex("mansur yavaş", "politics", "prefix"),
    Lex("devlet bahçeli", "politics", "prefix"),
    Lex("akşener", "politics", "prefix"),
    Lex("davutoğlu", "politics", "prefix"),
    Lex("demirtaş", "politics", "prefix"),
    Lex("sinan oğan", "politics", "prefix"),
    Lex("ümit özdağ", "politics", "prefix"),
    Lex("öcalan", "politics", "prefix"),
    Lex("fethullah", "politics", "prefix"),
    Lex("fetullah", "politics", "prefix"),
    Lex("pkk", "politics", "suffix"),
    Lex("fetö", "politics", "suffix"),
    Lex("seçim", "politics", "suffix", needs_context=True),
    Lex("seçmen", "politics", "prefix", needs_context=True),
    Lex("oy ver", "politics", "prefix", needs_context=True),
    Lex("oy verme", "politics", "prefix", needs_context=True),
    Lex("cumhurbaşkan", "politics", "prefix", joinable=True),
    Lex("başbakan", "politics", "prefix", joinable=True),
    Lex("milletvekil", "politics", "prefix", joinable=True),
    Lex("tbmm", "politics", "suffix"),
    Lex("muhalefet", "politics", "prefix", joinable=True, needs_context=True),
    Lex("iktidar", "politics", "prefix", needs_context=True),
    Lex("darbeci", "politics", "prefix"),
    Lex("darbe girişim", "politics", "prefix"),
    Lex("siyaset", "politics", "prefix", needs_context=True),
    Lex("siyasi", "politics", "prefix", needs_context=True),
    Lex("hükümet", "politics", "prefix", needs_context=True),
    # government and opposition as people name them: political subjects (see POLITICAL_SUBJECTS)
    Lex("meclis", "politics", "suffix", needs_context=True),
    Lex("bakanl", "politics", "prefix", needs_context=True),  # bakanlar, bakanlık, bakanlığı
    Lex("bakan", "politics", "exact", suffixes=("i", "in", "imiz", "iniz", "ina", "ini", "dan", "la"),
        needs_context=True),
    Lex("vekiller", "politics", "prefix", needs_context=True),
    Lex("kayyum", "politics", "prefix"),
    Lex("referandum", "politics", "prefix"),
    Lex("kurultay", "politics", "prefix"),
    Lex("miting", "politics", "prefix", needs_context=True),
    Lex("diktatör", "politics", "prefix", needs_context=True),
    Lex("terörist", "politics", "prefix"),
    Lex("terör örgüt", "politics", "prefix"),
    Lex("ülkücü", "politics", "prefix"),
    Lex("kemalist", "politics", "prefix"),
    Lex("yandaş", "politics", "suffix", needs_context=True),
    Lex("emhape", "politics", "prefix"),
    Lex("kürdistan", "politics", "prefix"),
    Lex("şeriat", "politics", "suffix"),
    # names and words that are everyday too ("bahçeli ev" is a house with a garden,
    # "Atatürk Caddesi" a street): politics only beside another political word ("hükümet istifa")
    *(Lex(word, "politics", mode, needs_context=True) for word, mode in (
        ("istifa", "prefix"), ("apo", "exact"), ("bahçeli", "exact"), ("babacan", "exact"), ("atatürk", "prefix"),
        ("laik", "suffix"), ("suriyeli", "prefix"), ("mülteci", "prefix"), ("enflasyon", "prefix"),
    )),
)



@dataclass(frozen=True)
class Subject:
    """A word that names the government or the opposition: politics when the message states
    something about it ("hükümet memleketi batırdı"), even with no party named.

    Regular expressions over folded words (ı->i, ü->u, ş->s, ç->c, ğ->g, ö->o), each matched against a
    whole word: ``not_forms`` is the word itself being another word ("iktidarsız"), ``not_before`` /
    ``not_after`` the words next to it that make it an idiom or a simile ("muhalefet yapma",
    "iktidar bende", "meclis gibi"); with ``looker`` the word is also the participle "(the one) who
    looks", which follows a word in the dative or ablative ("masaya bakanlar", "dışarıdan bakan").
    """

    not_forms: str = ""
    not_before: str = ""
    not_after: str = ""
    looker: bool = False


# Any subject followed by "gibi" is a comparison ("hükümet gibi adam", "meclis gibi masa").
SUBJECT_NOT_AFTER = r"gibi\w*"
# Words that state nothing: a subject with only these around it is no statement ("hükümet mi?").
STATEMENT_FILLERS = ELLIPTIC_FILLERS | frozenset({"mi", "mu", "bu", "su", "o", "ne", "ve", "ile", "bi", "bir"})
_LOOKER_NOT_AFTER = r"var|yok|kim\w*|olur|olsun|kaybeder|kazanir|gorur|anlamaz|anlar"
POLITICAL_SUBJECTS: dict[str, Subject] = {
    "hükümet": Subject(not_after=r"et|ed\w*|etm\w*|ett\w*|konag\w*|konak\w*"),
    "muhalefet": Subject(not_after=r"yap\w*|et|ed\w*|etm\w*|ett\w*|serh\w*"),
    "iktidar": Subject(not_forms=r"iktidarsiz\w*", not_after=r"(?:ben|sen|on|biz|siz|onlar|kim)d[ae]"),
    "meclis": Subject(not_before=r"aile|koy|mahalle|genclik|cocuk\w*|ogrenci\w*|okul|kadin\w*|sohbet|muhabbet"
                                 r"|dedikodu|kiz\w*|erkek\w*|yasli\w*|ihtiyar\w*|kahve|cay|dost|ahbap",
                      not_after=r"kur\w*"),
    "bakanl": Subject(looker=True, not_after=_LOOKER_NOT_AFTER),
    "bakan": Subject(looker=True, not_after=_LOOKER_NOT_AFTER),
    "vekiller": Subject(),
}

# ---------------------------------------------------------------------------------------------
# Allow-list: clean words (and their suffixed forms) that contain or fold onto a bad root,
# okey vocabulary and common place names. Phrases allow a word only in that company.
ALLOW_LIST: tuple[str, ...] = (
    # Scunthorpe: contain (or fold onto) am/amk/sik/göt/bok/mal/piç roots
    "ama", "amma", "amca", "amaç", "amatör", "ambalaj", "ambulans", "ambargo", "amblem",
    "ameliyat", "amerika", "amino", "amper", "ampul", "amsterdam", "amazon",
    "sikke", "siklet", "siklamen", "götür", "gotik", "gotiğ", "gotham", "akpınar", "saksonya", "pustur", "püstül", "boks", "bokser", "boksör",
    "malzeme", "malatya", "maliye", "maliyet", "malum", "malik", "malikane", "mallorca",
    "mal varlığı", "mal mülk", "mal sahibi", "mal beyan", "pipet", "piknik", "dolar", "yarar",
    # "sıkılmak" typed on an English keyboard folds onto the "sik" root
    "sıkıl", "sıkıcı", "sıkıntı", "sıkıştı", "sıkışık", "sıkışma",
    # okey vocabulary and friendly phrases
    "okey", "gösterge", "çifte", "iyi oyunlar", "eline sağlık", "sahte okey",
    # places
    "ankara", "istanbul", "izmir", "antalya", "samsun", "sakarya", "amasya", "siirt", "bolu",
)

# Exact-only allow entries (a prefix would hide insults: "namus" vs "namussuz").
ALLOW_EXACT: tuple[str, ...] = ("amen", "amir", "amil", "amel", "malt", "malta", "ocak", "kasım", "memur")


@lru_cache(maxsize=1)
def terlik_dictionary() -> tuple[tuple[Lex, ...], tuple[str, ...], tuple[str, ...]]:
    """Entries, exact-match whitelist and suffixes from ``terlik``'s Turkish dictionary.

    terlik (PyPI) ships a curated Turkish profanity dictionary (~150 roots with variants,
    severities and a suffixable flag) plus a Scunthorpe whitelist. Its matcher is not used: it
    is ~0.6 ms per 100-character message, maps matches only to whole words, folds "sıkıldım" onto
    "sik" and misses "salağın"/"malsın". We take its data and run it through our own engine.
    Returns empty lists when terlik is unavailable, so the hand-written list still works.
    """
    try:
        from terlik.lang import get_language_config

        data = get_language_config("tr").dictionary
    except Exception:  # pragma: no cover - terlik is a pinned dependency
        return (), (), ()
    entries: list[Lex] = []
    for item in data.entries:
        if item.root in TERLIK_EXCLUDED_ROOTS:
            continue
        severe = item.severity == "high" and item.category in ("sexual", "slur", "insult")
        mode = "suffix" if item.suffixable else "exact"
        for form in (item.root, *item.variants):
            if form in TERLIK_EXCLUDED_VARIANTS:
                continue
            # terlik writes threats as one word ("boğazınıkeserim"); people type them as two
            joinable = mode == "exact" and len(form) >= 9
            entries.append(Lex(form, "insult", mode, severe, source="terlik", root=item.root, joinable=joinable))
    # its whitelist is exact-match; drop entries that would whitelist a swear word once folded
    # ("sıkerler" folds to "sikerler"); dotless "sık..." words are handled by Lex.forbid instead
    whitelist = [w for w in data.whitelist if not w.startswith(("sık", "sik", "masik")) or w.startswith("sikke")
                 or w == "siklet"]
    return tuple(entries), tuple(whitelist), tuple(data.suffixes)
