"""Human descriptions of 101 Okey's rules (RULES.md "101 Okey (Yüzbir)", rules 1–15, and "Eşli"),
keyed by ``Rules101`` field name, as ``rules_catalog.RULE_OPTIONS`` is for classic Okey.

The room form's 101 options, the rules pages' 101 section, a 101 room's rule lines, badges and
preview are built from ``dataclasses.fields(Rules101)`` plus this catalogue; every number players
read (the deal, the opening, the penalties, the worked score examples of rule 11) comes from the
engine's own constants and ``scoring.hand_scores``, so the page cannot drift from the table. A test
fails when the engine grows a field that has no entry here.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engine.game_types import UnknownGameType
from games.engine.okey101.hand import OPENING_PAIRS, OPENING_VALUE, RACK_SIZE
from games.engine.okey101.melds import OKEY_IN_RACK
from games.engine.okey101.rules import (
    GAME,
    HANDS,
    PAIRS_LAYOFF_LIMITS,
    PLAYERS,
    UNOPENED_PENALTIES,
    Rules101,
    RulesError,
)
from games.engine.okey101.scoring import FINISH_BASE, MELDS, PAIRS, PENALTY_POINTS, hand_scores, team_totals
from games.engine.tiles import parse_tile, parse_tiles

from .rule_lines import GAME_LABELS, NO, YES, RuleLine, RuleOption


def _format(text: Any, **values: Any) -> str:
    return str(text) % values


# A label with numbers in it, translated when shown (the catalogue is built once, at import).
_lazy_format = lazy(_format, str)

DESCRIPTION = _(
    "101 Okey dört kişiyle oynanır. Her oyuncu elini seri ve perlerle ya da çiftlerle açar, açtıktan "
    "sonra masadaki serilere ve perlere taş işler. Maç belli sayıda el sürer; her elin sonunda herkes "
    "bir puan yazar ve maçın sonunda toplamı en düşük olan kazanır."
)

RULE101_OPTIONS: dict[str, RuleOption] = {
    "hands": RuleOption(
        label=_("Maçtaki el sayısı"),
        description=_("101 maçı bu kadar el sürer; ellerin hepsi oynanır ve toplamı en düşük olan kazanır."),
        choices=tuple((hands, _lazy_format(_("%(hands)d el"), hands=hands)) for hands in HANDS),
    ),
    "unopened_penalty": RuleOption(
        label=_("Hiç açmayanın cezası"),
        description=_("El biterken elini hiç açmamış oyuncunun yazdığı puan (bitişin katları buna da uygulanır)."),
        choices=tuple((points, str(points)) for points in UNOPENED_PENALTIES),
    ),
    "okey_discard_penalty": RuleOption(
        label=_("Okey atma cezası"),
        description=_lazy_format(_("Okeyi yere atan oyuncuya %(points)d ceza puanı yazılır (eli bitiren son taş hariç)."),
                                 points=PENALTY_POINTS),
    ),
    "islek_penalty": RuleOption(
        label=_("İşlek taş atma cezası"),
        description=_lazy_format(
            _("Masadaki bir seriye ya da pere işlenebilecek bir taşı atan oyuncuya %(points)d ceza puanı yazılır; "
              "elini açmamış olsa da. Yalnızca bir okeyin yerine konabilecek taş işlek sayılmaz; eli bitiren son "
              "taş hariç."), points=PENALTY_POINTS),
    ),
    "pairs_layoff_limit": RuleOption(
        label=_("Çiftle açanın işleme sınırı"),
        description=_("Çiftle açan oyuncu bir turda masadaki serilere ve perlere en çok bu kadar taş işleyebilir; "
                      "okeyi yerine taş koyarak almak da bir işlemedir."),
        choices=tuple((limit, _lazy_format(_("Turda en çok %(n)d taş"), n=limit) if limit is not None else _("Sınırsız"))
                      for limit in PAIRS_LAYOFF_LIMITS),
    ),
    "rising_opening": RuleOption(
        label=_("Yükselen açma (katlamalı)"),
        description=_("Her yeni açan, o ana kadarki en yüksek açıştan en az 1 sayı fazlasıyla açmalı; çiftle "
                      "açanlar en az 1 çift fazlasıyla. Seri ve perli açışlar ile çiftli açışlar ayrı izlenir."),
    ),
    "partners": RuleOption(
        label=_("Eşli"),
        description=_("Karşılıklı oturan iki oyuncu bir takımdır (1. ve 3. koltuk, 2. ve 4. koltuk); takımın "
                      "puanı iki oyuncunun puanlarının toplamıdır. Biri eli bitirince eşi 0 yazar, kendi cezaları "
                      "yine yazılır. Eşler birbirinin taşlarını görmez."),
    ),
}

#: Classic options a 101 rule set does not have, and why (an ``unknown_option`` refusal in words).
NO_CHIPS = _("101 Okey çipli oynanmaz: maç puanla oynanır, toplamı en düşük olan kazanır.")
ALWAYS_FOUR = _lazy_format(_("101 Okey her zaman %(players)d kişiyle oynanır."), players=PLAYERS)
_CLASSIC_ONLY = {"scoring": NO_CHIPS, "stake": NO_CHIPS, "chip_hands": NO_CHIPS, "prize_pool": NO_CHIPS,
                 "players": ALWAYS_FOUR}

#: Why a value of an option is refused (the form's own check and the engine's agree on these words).
BAD_VALUE: dict[str, Promise] = {
    "hands": _lazy_format(_("101 maçı %(hands)s el sürer."), hands=", ".join(map(str, HANDS))),
    "unopened_penalty": _lazy_format(_("Hiç açmayanın cezası %(points)s olur."),
                                     points=", ".join(map(str, UNOPENED_PENALTIES))),
    "pairs_layoff_limit": _("Çiftle açanın işleme sınırı turda 2 taş ya da sınırsızdır."),
}


def rule101_field_names() -> list[str]:
    return [field.name for field in fields(Rules101)]


def undescribed_fields() -> list[str]:
    """Rules101 fields with no description here (a test keeps this empty)."""
    return [name for name in rule101_field_names() if name not in RULE101_OPTIONS]


def is_101(rules: Any) -> bool:
    return isinstance(rules, Rules101) or (isinstance(rules, dict) and rules.get("game") == GAME)


def bad_value_message(name: str) -> str:
    option = RULE101_OPTIONS.get(name)
    if name in BAD_VALUE:
        return str(BAD_VALUE[name])
    if option is not None and option.choices is None:
        return _("“%(option)s” açık ya da kapalı olur.") % {"option": option.label}
    return str(_("Bu kural seçimi geçersiz."))


def rule_error_message(error: RulesError | UnknownGameType) -> str:
    """The engine's refusal of a 101 rule set in the user's language (the engine's text is English)."""
    if isinstance(error, UnknownGameType):
        return str(_("Bu oyun türü bu sitede oynanmıyor."))
    field = getattr(error, "field", None) or ""
    if error.code == "unknown_option":
        if field in _CLASSIC_ONLY:
            return str(_CLASSIC_ONLY[field])
        return _("101 Okey'de “%(option)s” diye bir seçenek yok.") % {"option": field}
    return bad_value_message(field)


def format_value(name: str, value: Any) -> str:
    option = RULE101_OPTIONS.get(name)
    if option and option.choices:
        for choice, label in option.choices:
            if choice == value:
                return str(label)
    if isinstance(value, bool):
        return str(YES if value else NO)
    return str(value)


def describe_rules(rules: Rules101) -> list[RuleLine]:
    """A 101 room's rule lines, in the engine's field order: the game first."""
    data = rules.to_dict()
    lines = [RuleLine(name="game", label=str(_("Oyun")), value=str(GAME_LABELS[GAME]), description="",
                      interpretation=False)]
    for name in rule101_field_names():
        option = RULE101_OPTIONS.get(name)
        lines.append(RuleLine(name=name, label=str(option.label) if option else name, value=format_value(name, data[name]),
                              description=str(option.description) if option else "",
                              interpretation=bool(option and option.interpretation)))
    return lines


def option_badges(rules: Rules101) -> list[str]:
    """Short labels for what a 101 room changed from 101's defaults (the room list's badges)."""
    default = Rules101().to_dict()
    data = rules.to_dict()
    badges = []
    for name in rule101_field_names():
        if data[name] == default[name]:
            continue
        option = RULE101_OPTIONS[name]
        value = data[name]
        if isinstance(value, bool):
            badges.append(str(option.label) if value else _("%(option)s kapalı") % {"option": option.label})
        else:
            badges.append(f"{option.label}: {format_value(name, value)}")
    return badges


# -- rule 11's worked examples ------------------------------------------------------------------------

# RULES.md rule 11: seat 0 finishes; seat 1 opened with runs and groups and holds K1 K2; seat 2 never
# opened; seat 3 opened with runs and groups and holds an okey and Y4. Any okey other than those
# tiles plays the same (its value in a rack is 101, whatever its face).
_EXAMPLE_OKEY = parse_tile("M13")
_EXAMPLE_RACKS = ([], parse_tiles("K1 K2"), [], [_EXAMPLE_OKEY, *parse_tiles("Y4")])

EXAMPLE_SEATS: tuple[Promise, ...] = (
    _("Eli bitiren"),
    _("Seri ve perle açmış; elinde kırmızı 1 ve kırmızı 2 kaldı"),
    _("Elini hiç açmamış"),
    _("Seri ve perle açmış; elinde bir okey ve yeşil 4 kaldı"),
)
#: Seat 2 at an eşli table: the finisher's partner, who writes 0.
PARTNER_SEAT = _("Eli bitirenin eşi (elini hiç açmamış)")


@dataclass(frozen=True)
class ScoreExample:
    label: str
    scores: tuple[int, ...]


def score_examples(rules: Rules101 | None = None) -> list[ScoreExample]:
    """What each seat writes in rule 11's example under ``rules`` (101's defaults when None), for a
    normal finish, an okey finish and an okey finish by a pairs opener, by the engine's scoring."""
    rules = rules or Rules101()
    cases = (
        (pgettext_lazy("finish", "Normal bitiş"), MELDS, False),
        (pgettext_lazy("finish", "Okey atarak bitiş"), MELDS, True),
        (pgettext_lazy("finish", "Çiftle açıp okey atarak bitiş"), PAIRS, True),
    )
    examples = []
    for label, finisher_opened, okey_finish in cases:
        scores = hand_scores(_EXAMPLE_RACKS, (finisher_opened, MELDS, None, MELDS), _EXAMPLE_OKEY, rules,
                             finisher=0, okey_finish=okey_finish)
        examples.append(ScoreExample(label=str(label), scores=tuple(scores)))
    return examples


def example_rows(rules: Rules101 | None = None) -> list[dict[str, Any]]:
    """The examples as a table: one row per seat, one column per kind of finish."""
    rules = rules or Rules101()
    examples = score_examples(rules)
    seats = [*EXAMPLE_SEATS]
    if rules.partners:
        seats[2] = PARTNER_SEAT
    return [{"seat": str(seats[seat]), "scores": [example.scores[seat] for example in examples]}
            for seat in range(PLAYERS)]


def elden_scores(rules: Rules101 | None = None) -> list[int]:
    """Elden bitme (rule 10): the finisher opened and finished in one turn while nobody had opened."""
    rules = rules or Rules101()
    return hand_scores([[], [], [], []], (MELDS, None, None, None), _EXAMPLE_OKEY, rules, finisher=0, elden=True)


def partners_example(rules: Rules101 | None = None) -> tuple[list[int], list[int]]:
    """Rule 11's normal finish played eşli: each seat's score and each team's total (seats 0+2, 1+3)."""
    rules = Rules101(**{**(rules or Rules101()).to_dict(), "partners": True})
    scores = hand_scores(_EXAMPLE_RACKS, (MELDS, MELDS, None, MELDS), _EXAMPLE_OKEY, rules, finisher=0)
    totals = team_totals(scores, rules)
    return scores, [totals[0], totals[1]]


def penalty_lines(rules: Rules101 | None = None) -> list[str]:
    """Rule 9's penalised discards, each with its points, as the room plays them (on or off)."""
    rules = rules or Rules101()
    lines = []
    on, off = pgettext_lazy("option", "açık"), pgettext_lazy("option", "kapalı")
    lines.append(_("Okey atmak: +%(points)d ceza puanı (%(state)s).")
                 % {"points": PENALTY_POINTS, "state": on if rules.okey_discard_penalty else off})
    lines.append(_("İşlek taş atmak (masadaki bir seriye ya da pere işlenebilecek taş, elini açmamış olsa da): "
                   "+%(points)d ceza puanı (%(state)s).")
                 % {"points": PENALTY_POINTS, "state": on if rules.islek_penalty else off})
    lines.append(_("Okey aynı zamanda işlekse ceza bir kez yazılır. Eli bitiren son taş cezasızdır. Ceza puanı "
                   "elin puanına eklenir, bitişin katlarıyla çarpılmaz."))
    return lines


def section(rules: Rules101 | None = None) -> dict[str, Any]:
    """Everything a rules page shows of 101 under ``rules`` (101's defaults for the site's page)."""
    rules = rules or Rules101()
    examples = score_examples(rules)
    elden = elden_scores(rules)
    partner_scores, team_scores = partners_example(rules)
    return {
        "label": str(GAME_LABELS[GAME]),
        "description": str(DESCRIPTION),
        "basics": basics(rules),
        "example_labels": [example.label for example in examples],
        "example_rows": example_rows(rules),
        "penalties": penalty_lines(rules),
        "elden": _("Elden bitme: kimse elini açmamışken elini açıp aynı turda bütün taşlarını kendi serilerine, "
                   "perlerine ya da çiftlerine indirip son taşını atan oyuncu, 101 sayı ya da 5 çift şartı olmadan "
                   "biter ve her şey iki katına çıkar: kendisi %(finisher)d, hiç açmamış diğerleri %(others)d yazar.")
                 % {"finisher": elden[0], "others": elden[1]},
        "partners": _("Eşli 101: karşılıklı oturanlar takımdır ve takımın puanı iki eşin puanlarının toplamıdır. Biri "
                      "eli bitirince eşi 0 yazar (kendi cezaları yine yazılır); orta taşlar biterse dördü de kendi "
                      "puanını yazar. Yukarıdaki normal bitişte 1. ve 3. koltuk takımı %(mine)d, 2. ve 4. koltuk "
                      "takımı %(theirs)d yazar (%(first)d + %(second)d).")
                    % {"mine": team_scores[0], "theirs": team_scores[1], "first": partner_scores[1],
                       "second": partner_scores[3]},
        "pile_out": _("Orta taşlar biterse el, son taşı çekenin attığı taşla biter: herkes kendi puanını yazar "
                      "(%(finish)d ve bitiş katları yok; çiftle açanın iki katı kalır). Dördü de çiftle açarsa el "
                      "iptal edilir ve yeniden dağıtılır; o elden hiçbir puan yazılmaz.") % {"finish": FINISH_BASE},
        "lines": describe_rules(rules),
    }


def basics(rules: Rules101) -> list[str]:
    """Rules 1–8 and 11 in a few sentences, with the engine's numbers."""
    return [
        _("%(players)d kişilik masa: herkese %(tiles)d, başlayan oyuncuya %(first)d taş dağıtılır; başlayan çekmeden "
          "bir taş atar. Gösterge yapmak yoktur.") % {"players": PLAYERS, "tiles": RACK_SIZE, "first": RACK_SIZE + 1},
        _("Seri: aynı renkte en az 3 ardışık sayı; 1 yalnızca baştadır (12-13-1 olmaz). Per: aynı sayının 3 ya da 4 "
          "farklı rengi. Çift: iki aynı taş. Okey her taşın yerine geçer."),
        _("Her tur bir taş çekilir (ortadan ya da soldakinin son attığı taş; yerden alınan taş aynı turda masaya "
          "konmalıdır) ve her tur bir taş atılır."),
        _("El açmak: bir turda değerleri toplamı en az %(value)d olan seri ve perlerle ya da en az %(pairs)d çiftle. "
          "Taşlar sayıları kadar değer taşır. Açan oyuncu masadaki serilere ve perlere taş işleyebilir.")
        % {"value": OPENING_VALUE, "pairs": OPENING_PAIRS},
        _("Elin puanı (düşük puan iyidir): eli bitiren %(finish)d; açmış oyuncular elinde kalan taşların toplamını "
          "(elde kalan okey %(okey)d); hiç açmamış oyuncular %(unopened)d yazar. Okey atarak bitiş, çiftle açıp "
          "bitiş ve elden bitiş her şeyi ikişer kat artırır; çiftle açmış diğer oyuncunun puanı da iki katına çıkar.")
        % {"finish": FINISH_BASE, "okey": OKEY_IN_RACK, "unopened": rules.unopened_penalty},
        _("Maç %(hands)d el sürer; toplam puanı en düşük olan kazanır (eşitler birinciliği paylaşır).")
        % {"hands": rules.hands},
    ]


def plain_rules(rules: Rules101, *, turn_seconds: int | None = None) -> list[str]:
    """A 101 room's rules as a few sentences for players (the room form's preview)."""
    normal = score_examples(rules)[0].scores
    lines = [
        str(_("101 Okey, %(players)d kişilik masa: herkese %(tiles)d, başlayana %(first)d taş.")
            % {"players": PLAYERS, "tiles": RACK_SIZE, "first": RACK_SIZE + 1}),
        str(_("El en az %(value)d sayılık seri ve perlerle ya da en az %(pairs)d çiftle açılır.")
            % {"value": OPENING_VALUE, "pairs": OPENING_PAIRS}),
        str(_("Maç %(hands)d el sürer; toplam puanı en düşük olan kazanır.") % {"hands": rules.hands}),
        str(_("Eli bitiren %(finish)d yazar, açmış olanlar elinde kalan taşların toplamını, hiç açmamış olanlar "
              "%(unopened)d. Okey atarak bitişte bunlar iki katına çıkar.")
            % {"finish": normal[0], "unopened": rules.unopened_penalty}),
    ]
    penalties = [str(RULE101_OPTIONS[name].label) for name in ("okey_discard_penalty", "islek_penalty")
                 if getattr(rules, name)]
    if penalties:
        lines.append(str(_("%(points)d ceza puanı: %(penalties)s.")
                         % {"points": PENALTY_POINTS, "penalties": ", ".join(penalties)}))
    else:
        lines.append(str(_("Okey ve işlek taş atmanın cezası yok.")))
    if rules.pairs_layoff_limit is None:
        lines.append(str(_("Çiftle açan bir turda istediği kadar taş işleyebilir.")))
    else:
        lines.append(str(_("Çiftle açan bir turda en çok %(limit)s taş işleyebilir.") % {"limit": rules.pairs_layoff_limit}))
    if rules.rising_opening:
        lines.append(str(RULE101_OPTIONS["rising_opening"].description))
    if rules.partners:
        lines.append(str(_("Eşli: karşılıklı oturan iki oyuncu bir takımdır; takımın puanı ikisinin toplamıdır, biri "
                           "bitirince eşi 0 yazar.")))
    if turn_seconds:
        lines.append(str(_("Her oyuncunun hamle için %(seconds)d saniyesi var; süre dolunca taş onun yerine çekilip atılır.")
                         % {"seconds": turn_seconds}))
    return lines
