"""Human descriptions of Kart Okey's rules (RULES.md "Kart Okey (source 004: a 52-card rummy)",
rules 1–10), keyed by ``RulesKart`` field name, as ``rules101_catalog.RULE101_OPTIONS`` is for 101.

The room form's Kart Okey options, the rules pages' Kart Okey section, a Kart room's rule lines,
badges and preview are built from ``dataclasses.fields(RulesKart)`` plus this catalogue; every
number players read (the deal, the card values, the +25, the hand examples and rule 9's prize
example) comes from the engine's constants, ``scoring.hand_scores`` and ``scoring.prize_split``,
so the page cannot drift from the table. A test fails when the engine grows a field that has no
entry here.

Words (docs/glossary.md): "seri" a run, "per" a set, "seri ve per açmak" melding, "kart işlemek" a
lay-off, "dışarı çıkmak" going out, "okey yapmak" going rummy, "deste" the stock, "yer" the
discard pile.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engine.errors import RulesError
from games.engine.game_types import UnknownGameType
from games.engine.kart.cards import CARDS_PER_DECK, parse_cards
from games.engine.kart.hand import HAND_SIZE
from games.engine.kart.rules import DECKS, GAME, PLAYERS, ROUNDS, RulesKart
from games.engine.kart.scoring import PRIZE_LIMIT, RUMMY_BONUS, hand_scores, prize_split

from .rule_lines import GAME_LABELS, NO, YES, RuleLine, RuleOption

#: The most a room's prize pool may be (as classic Okey's, play money only).
PRIZE_POOL_MAX = 1_000_000


def _format(text: Any, **values: Any) -> str:
    return str(text) % values


# A label with numbers in it, translated when shown (the catalogue is built once, at import).
_lazy_format = lazy(_format, str)


def _join(values: Any) -> str:
    """"2, 3 ya da 4" in the reader's language."""
    values = [str(value) for value in values]
    return _("%(first)s ya da %(last)s") % {"first": ", ".join(values[:-1]), "last": values[-1]}


_lazy_join = lazy(_join, str)

DESCRIPTION = _lazy_format(
    _("Kart Okey, 52 kartlık iskambil destesiyle (4 kişide iki desteyle) %(players)s kişiyle oynanan bir kart "
      "oyunudur (rummy). Herkese "
      "%(cards)d kart dağıtılır; oyuncular seri ve per açar, masadaki serilere ve perlere kart işler ve son "
      "kartını atan dışarı çıkar. Elde kalan kartlar ceza puanıdır: masanın sonunda toplamı en düşük olan "
      "kazanır."), players=_lazy_join(PLAYERS), cards=HAND_SIZE)

_ROUND_LABELS = {1: _("1 el"), 2: _("2 el"), 3: _("3 el")}
_DECK_WORDS = {1: _("tek deste"), 2: _("iki deste")}

RULEKART_OPTIONS: dict[str, RuleOption] = {
    "players": RuleOption(
        label=_("Oyuncu sayısı"),
        description=_lazy_format(_("Kart Okey %(players)s kişiyle oynanır; masadaki koltuk sayısı budur."),
                                 players=_lazy_join(PLAYERS)),
        choices=tuple((players, _lazy_format(_("%(n)d kişi"), n=players)) for players in PLAYERS),
    ),
    "decks": RuleOption(
        label=_("Deste"),
        description=_lazy_format(
            _("2 ya da 3 kişilik masa tek desteyle (%(one)d kart) oynar. 4 kişilik masa iki desteyle (%(two)d kart) "
              "oynar; oda isterse tek desteyle de. İki destede her kartın iki eşi vardır; bir per aynı kartın iki "
              "eşini almaz."), one=CARDS_PER_DECK, two=2 * CARDS_PER_DECK),
        choices=(
            (None, _("Oyuncu sayısına göre (4 kişide iki deste)")),
            (1, _lazy_format(_("Tek deste (%(n)d kart)"), n=CARDS_PER_DECK)),
            (2, _lazy_format(_("İki deste (%(n)d kart)"), n=2 * CARDS_PER_DECK)),
        ),
        interpretation=True,
    ),
    "rounds": RuleOption(
        label=_("Masadaki el sayısı"),
        description=_("Masa bu kadar el sürer; her elin ceza puanları toplanır ve toplamı en düşük olan kazanır "
                      "(eşitler birinciliği paylaşır)."),
        choices=tuple((rounds, _ROUND_LABELS[rounds]) for rounds in ROUNDS),
    ),
    "prize_pool": RuleOption(
        label=_("Ödül havuzu (çip)"),
        description=_lazy_format(
            _("Masanın sonunda dağıtılan çip havuzu (0 = yok). Kazanan en az dörtte üçünü alır; kalan dörtte biri, "
              "ceza puanı sınırın (el sayısı çarpı %(limit)d) altında kalan diğer oyunculara, sınıra uzaklıkları "
              "oranında aşağı yuvarlanarak bölünür; artan çipler kazananındır. Yalnızca oyun parası."),
            limit=PRIZE_LIMIT),
        minimum=0,
        maximum=PRIZE_POOL_MAX,
        interpretation=True,
    ),
}

#: Classic options a Kart Okey rule set does not have, and why (an ``unknown_option`` refusal in words).
NO_CHIP_HANDS = _("Kart Okey'de elde çip ödenmez: ceza puanıyla oynanır; çip yalnızca masanın sonunda ödül "
                  "havuzundan dağıtılır.")
NO_PARTNERS = _("Kart Okey eşli oynanmaz: herkes kendi adına oynar.")
_CLASSIC_ONLY = {"scoring": NO_CHIP_HANDS, "stake": NO_CHIP_HANDS, "chip_hands": NO_CHIP_HANDS,
                 "partners": NO_PARTNERS}

#: Why a value of an option is refused (the form's own check and the engine's agree on these words).
BAD_VALUE: dict[str, Promise] = {
    "players": _lazy_format(_("Kart Okey %(players)s kişiyle oynanır."), players=_lazy_join(PLAYERS)),
    "decks": _lazy_format(_("Deste sayısı %(decks)s olur; iki deste yalnızca 4 kişilik masada oynanır."),
                          decks=_lazy_join(DECKS)),
    "rounds": _lazy_format(_("Kart Okey masası %(rounds)s el sürer."), rounds=_lazy_join(ROUNDS)),
    "prize_pool": _lazy_format(_("Ödül havuzu 0 ile %(max)d çip arasında bir tam sayı olmalı."), max=PRIZE_POOL_MAX),
}


def rulekart_field_names() -> list[str]:
    return [field.name for field in fields(RulesKart)]


def undescribed_fields() -> list[str]:
    """RulesKart fields with no description here (a test keeps this empty)."""
    return [name for name in rulekart_field_names() if name not in RULEKART_OPTIONS]


def is_kart(rules: Any) -> bool:
    return isinstance(rules, RulesKart) or (isinstance(rules, dict) and rules.get("game") == GAME)


def bad_value_message(name: str) -> str:
    if name in BAD_VALUE:
        return str(BAD_VALUE[name])
    return str(_("Bu kural seçimi geçersiz."))


def rule_error_message(error: RulesError | UnknownGameType) -> str:
    """The engine's refusal of a Kart Okey rule set in the user's language (the engine's text is English)."""
    if isinstance(error, UnknownGameType):
        return str(_("Bu oyun türü bu sitede oynanmıyor."))
    field = getattr(error, "field", None) or ""
    if error.code == "unknown_option":
        if field in _CLASSIC_ONLY:
            return str(_CLASSIC_ONLY[field])
        return _("Kart Okey'de “%(option)s” diye bir seçenek yok.") % {"option": field}
    return bad_value_message(field)


def format_value(name: str, value: Any) -> str:
    option = RULEKART_OPTIONS.get(name)
    if option and option.choices:
        for choice, label in option.choices:
            if choice == value:
                return str(label)
    if name == "prize_pool":
        return _("%(chips)d çip") % {"chips": value} if value else str(_("Havuz yok"))
    if isinstance(value, bool):
        return str(YES if value else NO)
    return str(value)


def describe_rules(rules: RulesKart) -> list[RuleLine]:
    """A Kart Okey room's rule lines, in the engine's field order: the game first."""
    data = rules.to_dict()
    lines = [RuleLine(name="game", label=str(_("Oyun")), value=str(GAME_LABELS[GAME]), description="",
                      interpretation=False)]
    for name in rulekart_field_names():
        option = RULEKART_OPTIONS.get(name)
        lines.append(RuleLine(name=name, label=str(option.label) if option else name,
                              value=format_value(name, data[name]),
                              description=str(option.description) if option else "",
                              interpretation=bool(option and option.interpretation)))
    return lines


def option_badges(rules: RulesKart) -> list[str]:
    """Short labels for what a Kart room changed from Kart Okey's defaults at its table size (the
    room list's badges; the table size has a badge of its own)."""
    default = RulesKart(players=rules.players).to_dict()
    data = rules.to_dict()
    badges = []
    for name in rulekart_field_names():
        if name == "players" or data[name] == default[name]:
            continue
        if name == "prize_pool":
            badges.append(_("Ödül havuzu %(chips)d çip") % {"chips": data[name]})
        else:
            badges.append(f"{RULEKART_OPTIONS[name].label}: {format_value(name, data[name])}")
    return badges


# -- rule 8's hand example and rule 9's prize example -------------------------------------------------

# Seat 0 goes out; the others are left with these cards (values 17, 23 and 2).
_EXAMPLE_HANDS = ([], parse_cards("K7 MQ"), parse_cards("SA R3 R9"), parse_cards("M2"))
EXAMPLE_SEATS: tuple[Promise, ...] = (
    _("Dışarı çıkan"),
    _("Elinde kupa 7 ve maça kızı kaldı"),
    _("Elinde sinek ası, karo 3 ve karo 9 kaldı"),
    _("Elinde maça 2 kaldı"),
)

#: Rule 9's example (source 004): pool 100 at a one-round table, the losers at 10, 30 and 95 points.
EXAMPLE_POOL = 100
EXAMPLE_POINTS = (0, 10, 30, 95)


@dataclass(frozen=True)
class ScoreExample:
    label: str
    scores: tuple[int, ...]


def score_examples() -> list[ScoreExample]:
    """What each seat writes when seat 0 goes out normally and when it goes rummy, by the engine."""
    cases = ((pgettext_lazy("kart", "Dışarı çıkma"), False), (pgettext_lazy("kart", "Okey yaparak çıkma"), True))
    return [ScoreExample(label=str(label), scores=tuple(hand_scores(_EXAMPLE_HANDS, winner=0, rummy=rummy)))
            for label, rummy in cases]


def example_rows() -> list[dict[str, Any]]:
    examples = score_examples()
    return [{"seat": str(EXAMPLE_SEATS[seat]), "scores": [example.scores[seat] for example in examples]}
            for seat in range(len(EXAMPLE_SEATS))]


def prize_example(rules: RulesKart | None = None) -> dict[str, Any]:
    """Rule 9's worked example by ``scoring.prize_split``: the room's own pool and limit when it has
    a pool, source 004's pool of 100 at a one-round table otherwise (76 / 14 / 10 / 0)."""
    rules = rules if rules is not None and rules.prize_pool else RulesKart(players=4, prize_pool=EXAMPLE_POOL)
    points = list(EXAMPLE_POINTS)
    limit = rules.prize_limit
    shares = prize_split(rules.prize_pool, points, [0], limit=limit)
    rows = []
    for seat, (score, share) in enumerate(zip(points, shares, strict=True)):
        if seat == 0:
            who, weight = _("Kazanan"), "—"
        elif score < limit:
            who, weight = _("Diğer oyuncu"), str(limit - score)
        else:
            who, weight = _("Diğer oyuncu (sınırın üstünde)"), "—"
        rows.append({"seat": str(who), "points": score, "weight": weight, "share": share})
    return {"pool": rules.prize_pool, "limit": limit, "rounds": rules.rounds, "rows": rows,
            "caption": _("%(pool)d çiplik havuz, sınır %(limit)d ceza puanı")
            % {"pool": rules.prize_pool, "limit": limit}}


def basics(rules: RulesKart) -> list[str]:
    """Rules 1–8 in a few sentences, with the engine's numbers."""
    return [
        _("Kartlar: 2 ya da 3 kişilik masada %(one)d kartlık tek deste (joker yok), 4 kişilik masada iki deste "
          "(%(two)d kart; oda tek deste de seçebilir). Kart türleri maça ♠, kupa ♥, karo ♦ ve sinek ♣.")
        % {"one": CARDS_PER_DECK, "two": 2 * CARDS_PER_DECK},
        _("Dağıtım: herkese %(cards)d kart; bir kart açık konup yeri başlatır, kalanlar destedir.")
        % {"cards": HAND_SIZE},
        _("Kartların değeri: 2'den 10'a kadar sayısı kadar; vale (J), kız (Q) ve papaz (K) 10; as 11."),
        _("Seri: aynı türden en az 3 ardışık kart (kupa 4-5-6). As başta (A-2-3) ya da sonda (Q-K-A) olur, ikisi "
          "birden olmaz; K-A-2 seri değildir. Per: aynı sayıdan ya da resimden 3 ya da 4 kart, hepsi farklı türden "
          "(maça 7, kupa 7, sinek 7)."),
        _("Sıra: desteden en üstteki kartı ya da yerdeki en üst kartı alın; sonra istediğiniz kadar seri ve per "
          "açın ve masadaki herhangi bir seriye ya da pere, kimin olursa olsun, kart işleyin. Açmak için bir alt "
          "sınır yoktur. Tur bir kart atarak biter; yerden aldığınız kartı aynı turda atamazsınız."),
        _("Dışarı çıkmak: elindeki son kartı atan oyuncu eli bitirir (son bir kart atmak şarttır). Okey yapmak: o "
          "elde daha önce hiç seri ya da per açmamış, kart işlememişken bütün elini tek turda indirip dışarı "
          "çıkmak; o zaman diğer herkesin puanına +%(bonus)d eklenir.") % {"bonus": RUMMY_BONUS},
        _("Deste biterse yerdeki kartlar, en üstteki hariç, karılıp yeni deste olur; en üstteki kart yeni yeri "
          "başlatır. Yeni destenin sırası adil dağıtım kodundan çıkar: kimse seçemez, el bitince doğrulanabilir. "
          "Deste ikinci kez biterse el kazanansız biter: herkes elinde kalan kartların değerini yazar, "
          "+%(bonus)d yoktur.") % {"bonus": RUMMY_BONUS},
        _("Elin puanı (düşük puan iyidir): dışarı çıkan 0, diğer herkes elinde kalan kartların değerini yazar "
          "(okey yapıldıysa +%(bonus)d ile).") % {"bonus": RUMMY_BONUS},
        _("Masa %(rounds)s sürer (oda 1, 2 ya da 3 el seçer); ceza puanları toplanır, toplamı en düşük olan "
          "kazanır ve eşitler birinciliği paylaşır. Her elde başlayan oyuncu bir koltuk kayar.")
        % {"rounds": format_value("rounds", rules.rounds)},
    ]


def prize_lines(rules: RulesKart) -> list[str]:
    """Rule 9 in words (the pool, the limit, a table with no winner)."""
    lines = []
    if rules.prize_pool:
        lines.append(_("Bu masanın ödül havuzu %(pool)d çip.") % {"pool": rules.prize_pool})
    lines += [
        _("Kazanan havuzun en az dörtte üçünü alır. Kalan dörtte biri, ceza puanı sınırın altında kalan diğer "
          "oyunculara bölünür: her birinin payı (sınır − puanı) ağırlığıyla, aşağı yuvarlanarak; artan çipler "
          "kazananındır. Sınır tek elli masada %(limit)d, daha uzun masada el sayısı çarpı %(limit)d ceza "
          "puanıdır.") % {"limit": PRIZE_LIMIT},
        _("Toplamı eşit birinciler kazananın payını bölüşür. Kazanansız biten masada (her eli deste ikinci kez "
          "bitince sona erdiyse) havuzun tamamı aynı ağırlıklarla sınırın altındakilere bölünür; sınırın altında "
          "kimse yoksa herkes havuzun eşit payını geri alır. Site bir masayı erken bitirirse ödül dağıtılmaz."),
    ]
    return lines


def section(rules: RulesKart | None = None) -> dict[str, Any]:
    """Everything a rules page shows of Kart Okey under ``rules`` (the defaults for the site's page)."""
    rules = rules or RulesKart()
    examples = score_examples()
    return {
        "label": str(GAME_LABELS[GAME]),
        "description": str(DESCRIPTION),
        "basics": basics(rules),
        "example_labels": [example.label for example in examples],
        "example_rows": example_rows(),
        "prize": prize_example(rules),
        "prize_lines": prize_lines(rules),
        "lines": describe_rules(rules),
    }


def plain_rules(rules: RulesKart, *, turn_seconds: int | None = None) -> list[str]:
    """A Kart Okey room's rules as a few sentences for players (the room form's preview)."""
    lines = [
        str(_("Kart Okey, %(players)d kişilik masa, %(deck)s (%(all)d kart): herkese %(cards)d kart.")
            % {"players": rules.players, "deck": _DECK_WORDS[rules.decks], "all": rules.cards, "cards": HAND_SIZE}),
        str(_("Seri ve perler serbestçe açılır, masadaki her seriye ve pere kart işlenir; son kartını atan dışarı "
              "çıkar.")),
        str(_("Dışarı çıkan 0 yazar, diğerleri elinde kalan kartların değerini; okey yapan çıkarsa herkese "
              "+%(bonus)d.") % {"bonus": RUMMY_BONUS}),
        str(_("Masa %(rounds)s sürer; toplamı en düşük olan kazanır.") % {"rounds": format_value("rounds", rules.rounds)}),
    ]
    if rules.prize_pool:
        lines.append(str(_("Ödül havuzu %(pool)d çip: kazanan en az dörtte üçünü alır; kalanı %(limit)d ceza "
                           "puanının altında kalanlara bölünür.")
                         % {"pool": rules.prize_pool, "limit": rules.prize_limit}))
    if turn_seconds:
        lines.append(str(_("Her oyuncunun hamle için %(seconds)d saniyesi var; süre dolunca desteden kart çekilip "
                           "en yüksek kart onun yerine atılır.") % {"seconds": turn_seconds}))
    return lines
