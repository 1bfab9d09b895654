"""Human descriptions of the engine's rule set, keyed by ``RuleSet`` field name.

The rules page, the room form and every room's rule summary are built from
``dataclasses.fields(RuleSet)`` plus this catalogue, and scoring examples are computed by the
engine's own ``finish_value`` — so what players read can never drift from what the engine plays.
A test fails when the engine grows a field that has no entry here.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from games.engine.finish import PAIRS, SETS, Finish
from games.engine.game_types import UnknownGameType, game_type_of
from games.engine.kart.rules import RulesKart
from games.engine.rules import CHIP_HANDS, CHIPS, COUNTDOWN, PENALTY, PRESETS, RuleSet, RuleSetError
from games.engine.scoring import finish_value, indicator_deltas, most_a_hand_costs

from .rule_lines import NO, YES, RuleLine, RuleOption

PRESET_LABELS: dict[str, Promise] = {
    COUNTDOWN: _("Geri sayım (klasik salon)"),
    PENALTY: _("Ceza puanı"),
    CHIPS: _("Çipli (Klasik/Düz Okey)"),
}

PRESET_DESCRIPTIONS: dict[str, Promise] = {
    COUNTDOWN: _(
        "Herkes aynı puanla başlar; biri eli bitirince diğerlerinin puanı düşer. Birinin puanı sıfıra "
        "inince maç biter; puanı en yüksek olan kazanır."
    ),
    PENALTY: _(
        "Herkes 0 ceza puanıyla başlar; biri eli bitirince diğerleri ceza puanı alır. Maç 1 ya da 3 el "
        "sürer, en düşük ceza puanlı oyuncu kazanır. Orta taşlar biterse herkes 10 ceza puanı alır."
    ),
    CHIPS: _(
        "Her el kendi içinde ödenir: eli bitirene diğer her oyuncu masanın bahsi kadar çip öder. Her "
        "seri ya da perin içinde en çok bir okey olabilir. Çipler oyun parasıdır, asla gerçek para değildir."
    ),
}


RULE_OPTIONS: dict[str, RuleOption] = {
    "scoring": RuleOption(
        label=_("Puanlama"),
        description=_("Oyunun nasıl puanlandığı: geri sayım, ceza puanı ya da çipli."),
        choices=tuple((preset, PRESET_LABELS[preset]) for preset in PRESETS),
    ),
    "players": RuleOption(
        label=_("Masadaki oyuncu sayısı"),
        description=_("Masalar 4 kişilik ya da 2 kişiliktir. 2 kişilik masada ortada 76 taş kalır."),
        choices=((4, _("4 kişilik")), (2, _("2 kişilik"))),
    ),
    "max_jokers_per_set": RuleOption(
        label=_("Seri ya da per başına okey"),
        description=_(
            "Sınırsız: bir seri ya da perin içinde istenildiği kadar okey olabilir. En çok 1: her seri ya da "
            "perin içinde en çok bir okey olabilir ve yalnızca okeylerden oluşan seri ya da per sayılmaz."
        ),
        choices=((None, _("Sınırsız")), (1, _("En çok 1"))),
        fixed_by_preset=frozenset({CHIPS}),
    ),
    "start_points": RuleOption(
        label=_("Başlangıç puanı"),
        description=_("Geri sayımda her oyuncunun maça başladığı puan."),
        presets=frozenset({COUNTDOWN}),
        minimum=1,
        maximum=1000,
    ),
    "hands_per_match": RuleOption(
        label=_("Maçtaki el sayısı"),
        description=_("Ceza puanlı maç 1 ya da 3 el sürer."),
        presets=frozenset({PENALTY}),
        choices=((1, _("1 el")), (3, _("3 el"))),
    ),
    "prize_pool": RuleOption(
        label=_("Ödül havuzu (çip)"),
        description=_(
            "Ceza puanlı maçın sonunda dağıtılan çip havuzu (0 = yok). Kazanan en az %75'ini alır; kalan "
            "%25, sınırın (1 elde 40, 3 elde 80 ceza puanı) altında kalanlara uzaklıkları oranında "
            "bölünür. Yalnızca oyun parası."
        ),
        presets=frozenset({PENALTY}),
        minimum=0,
        maximum=1_000_000,
        interpretation=True,
    ),
    "stake": RuleOption(
        label=_("Bahis (çip)"),
        description=_(
            "Çipli masada normal bitişte diğer her oyuncunun bitirene ödediği çip. Salonun bahis "
            "sınırları içinde olmalı. Yalnızca oyun parası."
        ),
        presets=frozenset({CHIPS}),
        minimum=0,
        maximum=1_000_000,
    ),
    "chip_hands": RuleOption(
        label=_("Çipli maçtaki el sayısı"),
        description=_(
            "Çipli maç bu kadar el sürer; her el kendi içinde ödenir. Her elin başında her oyuncunun "
            "o elde ödeyebileceği en çok çip (bahsin 4 katı) el bitene kadar ayrılır."
        ),
        presets=frozenset({CHIPS}),
        choices=tuple((hands, _("%(hands)d el") % {"hands": hands}) for hands in CHIP_HANDS),
    ),
    "okey_completes_pair": RuleOption(
        label=_("Okey çifti tamamlar"),
        description=_("Çifte giden oyuncu bir okeyi herhangi bir taşın çifti olarak kullanabilir."),
        interpretation=True,
    ),
    "color_finish": RuleOption(
        label=_("Renkten bitme"),
        description=_(
            "14 taşın hepsi tek renk olunca ek puan: sırasız renk diğerlerine −8; sıralı renk (1'den "
            "13-1'e tek seri) diğer herkesin puanını sıfırlar ve maçı bitirir."
        ),
        presets=frozenset({COUNTDOWN}),
    ),
    "indicator_binds_pair": RuleOption(
        label=_("Göstergeyi çifte bağlama"),
        description=_("Gösterge yapıp çifte giden oyuncu gösterdiği taşı bir çift olarak sayabilir."),
        presets=frozenset({COUNTDOWN}),
    ),
    "double_okey": RuleOption(
        label=_("Çift okey atma"),
        description=_(
            "İki okeyi de elinde tutan oyuncu birini atarak bitirir, oynamaya devam eder ve ikincisini "
            "atarak yeniden bitirirse dört kat puan alır. Önce başkası biterse ilk okey yanar."
        ),
        presets=frozenset({COUNTDOWN}),
    ),
    "partners": RuleOption(
        label=_("Eşli"),
        description=_(
            "Karşılıklı oturan iki oyuncu bir takımdır (1. ve 3. koltuk, 2. ve 4. koltuk) ve maç boyunca "
            "tek bir puanı paylaşır. Biri eli bitirince rakip takımın puanı bitiş değeri kadar bir kez "
            "değişir; gösterge de rakip takıma bir kez yazılır. Eşler birbirinin taşlarını görmez. "
            "Yalnızca 4 kişilik masada, puanla oynanır."
        ),
        presets=frozenset({COUNTDOWN, PENALTY}),
        table_sizes=frozenset({4}),
        interpretation=True,
    ),
}

#: A room whose stored rules name a game this site does not play (a game type since removed).
UNKNOWN_GAME = _("Bu odanın oyun türü bu sitede oynanmıyor.")


def read_rules(rules: RuleSet | dict[str, Any]) -> Any:
    """A stored rule set, read by its game type (``game_types.UnknownGameType`` for a game the site
    does not play: the pages below say so instead of failing). A 101 room's is a ``Rules101``, a
    Kart Okey room's a ``RulesKart``: the functions below hand them to ``rules101_catalog`` and
    ``rules_kart_catalog``."""
    if not isinstance(rules, dict):
        return rules  # already read (a RuleSet, a Rules101)
    return game_type_of(rules).rules(rules)


def rule_field_names() -> list[str]:
    return [f.name for f in fields(RuleSet)]


def undescribed_fields() -> list[str]:
    """RuleSet fields with no description here (a test keeps this empty)."""
    return [name for name in rule_field_names() if name not in RULE_OPTIONS]


def option_applies(name: str, scoring: str) -> bool:
    option = RULE_OPTIONS.get(name)
    return option is None or option.presets is None or scoring in option.presets


def rule_error_message(error: RuleSetError) -> str:
    """The engine's refusal of a rule set in the user's language (the engine's text is English)."""
    option = RULE_OPTIONS.get(error.field or "")
    if error.code == "partners_need_four":
        return str(_("Eşli oyun yalnızca 4 kişilik masada oynanır."))
    if error.code == "partners_no_chips":
        return str(_("Eşli oyun çipli oynanmaz: geri sayım ya da ceza puanı seçin."))
    if error.code == "option_outside_preset" and option is not None:
        presets = ", ".join(str(PRESET_LABELS[preset]) for preset in PRESETS if preset in (option.presets or ()))
        return _("“%(option)s” yalnızca şu puanlamada oynanır: %(presets)s. Bu puanlamada kapatın.") % {
            "option": option.label, "presets": presets}
    if option is not None:
        return _("“%(option)s” için geçersiz değer.") % {"option": option.label}
    return str(_("Bu kural seçimi geçersiz."))


def format_value(name: str, value: Any) -> str:
    option = RULE_OPTIONS.get(name)
    if option and option.choices:
        for choice, label in option.choices:
            if choice == value:
                return str(label)
    if isinstance(value, bool):
        return str(YES if value else NO)
    return str(value)


def describe_rules(rules: RuleSet | dict[str, Any]) -> list[RuleLine]:
    """The lines that matter for one room's rule set, in the engine's field order."""
    try:
        rule_set = read_rules(rules)
    except UnknownGameType:
        return [RuleLine(name="game", label=str(UNKNOWN_GAME), value="", description="", interpretation=False)]
    if isinstance(rule_set, RulesKart):
        from . import rules_kart_catalog

        return rules_kart_catalog.describe_rules(rule_set)
    if not isinstance(rule_set, RuleSet):
        from . import rules101_catalog

        return rules101_catalog.describe_rules(rule_set)
    data = rule_set.to_dict()
    lines = []
    for name in rule_field_names():
        if not option_applies(name, rule_set.scoring):
            continue
        option = RULE_OPTIONS.get(name)
        lines.append(
            RuleLine(
                name=name,
                label=str(option.label) if option else name,
                value=format_value(name, data[name]),
                description=str(option.description) if option else "",
                interpretation=bool(option and option.interpretation),
            )
        )
    return lines


def preset_rule_set(preset: str) -> RuleSet:
    return RuleSet.preset(preset)


def scoring_examples(rules: RuleSet) -> list[tuple[str, int]]:
    """What each kind of finish is worth under ``rules``, and a shown indicator where it scores,
    computed by the engine's scoring."""
    cases = [
        (pgettext_lazy("finish", "Normal bitiş"), SETS, False),
        (pgettext_lazy("finish", "Çiftten bitiş"), PAIRS, False),
        (pgettext_lazy("finish", "Okey atarak bitiş"), SETS, True),
        (pgettext_lazy("finish", "Çiftten okey atarak bitiş"), PAIRS, True),
    ]
    examples = []
    for label, kind, okey in cases:
        finish = Finish(kind=kind, discard=None, okey_finish=okey, groups=())
        examples.append((str(label), finish_value(finish, rules)))
    # What each other player loses (countdown) or takes (penalty) when one shows the indicator; at a
    # chip table it pays nothing, and the table says so.
    shown = max(abs(delta) for delta in indicator_deltas(0, rules, rules.players))
    examples.append((str(pgettext_lazy("finish", "Gösterge yapmak")), shown))
    return examples


SCORING_UNIT: dict[str, Promise] = {
    COUNTDOWN: _("diğer oyuncuların her birinden düşen puan"),
    PENALTY: _("diğer oyuncuların her birinin aldığı ceza puanı"),
    CHIPS: _("diğer oyuncuların her birinin ödediği çip"),
}


def option_badges(rules: RuleSet | dict[str, Any]) -> list[str]:
    """Short labels for what a room changed from its preset's defaults (the room list's badges)."""
    try:
        rule_set = read_rules(rules)
    except UnknownGameType:
        return [str(UNKNOWN_GAME)]
    if isinstance(rule_set, RulesKart):
        from . import rules_kart_catalog

        return rules_kart_catalog.option_badges(rule_set)
    if not isinstance(rule_set, RuleSet):
        from . import rules101_catalog

        return rules101_catalog.option_badges(rule_set)
    default = RuleSet.preset(rule_set.scoring).to_dict()
    data = rule_set.to_dict()
    badges = []
    for name in rule_field_names():
        if name in ("scoring", "players", "stake") or data[name] == default.get(name):
            continue
        if not option_applies(name, rule_set.scoring):
            continue
        option = RULE_OPTIONS[name]
        value = data[name]
        if isinstance(value, bool):
            badges.append(str(option.label) if value else _("%(option)s kapalı") % {"option": option.label})
        else:
            badges.append(f"{option.label}: {format_value(name, value)}")
    return badges


def plain_rules(rules: RuleSet | dict[str, Any], *, turn_seconds: int | None = None) -> list[str]:
    """A room's rules as a few sentences for players (the room form's preview). Numbers come from
    the engine's own scoring, so the preview never disagrees with the table."""
    try:
        rule_set = read_rules(rules)
    except UnknownGameType:
        return [str(UNKNOWN_GAME)]
    if isinstance(rule_set, RulesKart):
        from . import rules_kart_catalog

        return rules_kart_catalog.plain_rules(rule_set, turn_seconds=turn_seconds)
    if not isinstance(rule_set, RuleSet):
        from . import rules101_catalog

        return rules101_catalog.plain_rules(rule_set, turn_seconds=turn_seconds)
    values = dict(scoring_examples(rule_set))
    normal, pairs, okey = (values[str(label)] for label in (
        pgettext_lazy("finish", "Normal bitiş"), pgettext_lazy("finish", "Çiftten bitiş"),
        pgettext_lazy("finish", "Okey atarak bitiş")))
    lines = [str(_("%(players)d kişilik masa.") % {"players": rule_set.players})]
    if rule_set.partners:
        lines.append(str(_("Eşli: karşılıklı oturan iki oyuncu bir takımdır ve tek puanı paylaşır. Biri eli "
                           "bitirince aşağıdaki değerler rakip takıma bir kez yazılır; takımın kazancı iki "
                           "eşin de kazancıdır.")))
    if rule_set.scoring == COUNTDOWN:
        lines.append(str(_("Herkes %(start)d puanla başlar. Biri eli bitirince diğerlerinin puanı %(normal)d düşer; "
                           "çiftle bitirirse %(pairs)d, okey atarak bitirirse %(okey)d.")
                         % {"start": rule_set.start_points, "normal": normal, "pairs": pairs, "okey": okey}))
        lines.append(str(_("Birinin puanı sıfıra inince maç biter; puanı en yüksek olan kazanır.")))
    elif rule_set.scoring == PENALTY:
        lines.append(str(ngettext("Maç %(hands)d el sürer.", "Maç %(hands)d el sürer.", rule_set.hands_per_match)
                         % {"hands": rule_set.hands_per_match}))
        lines.append(str(_("Biri eli bitirince diğerleri %(normal)d ceza puanı alır; çiftle ya da okey atarak "
                           "bitirirse %(pairs)d. En az ceza puanı olan kazanır.")
                         % {"normal": normal, "pairs": pairs}))
        if rule_set.prize_pool:
            lines.append(str(_("Kazanan %(pool)d çiplik havuzun en az dörtte üçünü alır.") % {"pool": rule_set.prize_pool}))
    else:
        lines.append(str(_("Her el hemen ödenir: eli bitirene diğer her oyuncu %(normal)d çip öder; çiftle ya da okey "
                           "atarak bitirirse %(pairs)d.") % {"normal": normal, "pairs": pairs}))
        lines.append(str(ngettext("Maç %(hands)d el sürer.", "Maç %(hands)d el sürer.", rule_set.chip_hands)
                         % {"hands": rule_set.chip_hands}))
        lines.append(str(_("Oturmak için en az %(cover)d çip gerekir: her elin başında bir elde ödenebilecek en çok "
                           "çip ayrılır, el bitince kalanı geri gelir.") % {"cover": most_a_hand_costs(rule_set)}))
    if rule_set.max_jokers_per_set == 1:
        lines.append(str(_("Her seri ya da perin içinde en çok bir okey olabilir.")))
    for name in ("color_finish", "indicator_binds_pair", "double_okey"):
        if getattr(rule_set, name) and option_applies(name, rule_set.scoring):
            lines.append(str(RULE_OPTIONS[name].description))
    if turn_seconds:
        lines.append(str(_("Her oyuncunun hamle için %(seconds)d saniyesi var; süre dolunca taş onun yerine çekilip atılır.")
                         % {"seconds": turn_seconds}))
    return lines
