"""The staff form that creates a tournament (services check everything again)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.kart.rules import GAME as GAME_KART
from games.engine.kart.rules import PLAYERS as PLAYERS_KART
from games.engine.kart.rules import RulesKart
from games.engine.okey101.rules import GAME as GAME101
from games.engine.okey101.rules import HANDS as HANDS_101
from games.engine.okey101.rules import Rules101
from games.engine.rules import COUNTDOWN, PENALTY, RuleSet
from moderation.public_text import validate_public_text
from tournaments.models import WEEKDAYS, Format


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Turnuva adı"), min_length=3, max_length=60, validators=[validate_public_text])
    format = forms.ChoiceField(label=_("Biçim"), choices=Format.choices, initial=Format.KNOCKOUT)
    game = forms.ChoiceField(label=_("Oyun"), initial="okey", required=False,
                             choices=[("okey", _("Okey")), (GAME101, _("101 Okey")), (GAME_KART, _("Kart Okey"))])
    hands_101 = forms.TypedChoiceField(label=_("101 maçı kaç el"), coerce=int, initial=11, required=False,
                                       empty_value=11,
                                       choices=[(hands, str(hands)) for hands in HANDS_101])
    # Kart Okey seats 2, 3 or 4 (two decks at four, RULES.md "Kart Okey" rule 1); every table plays one hand.
    players_kart = forms.TypedChoiceField(label=_("Kart Okey masasında oyuncu"), coerce=int, initial=4, required=False,
                                          empty_value=4,
                                          choices=[(players, str(players)) for players in sorted(PLAYERS_KART, reverse=True)],
                                          help_text=_("4 kişilik masa iki desteyle oynar. Her masa tek el sürer."))
    scoring = forms.ChoiceField(label=_("Puanlama"), initial=PENALTY,
                                choices=[(COUNTDOWN, _("Geri sayım (20'den sıfıra)")), (PENALTY, _("Ceza puanı"))])
    hands_per_match = forms.TypedChoiceField(label=_("Ceza maçı kaç el"), coerce=int, initial=1,
                                             choices=[(1, "1"), (3, "3")])
    players = forms.TypedChoiceField(label=_("Masada oyuncu"), coerce=int, initial=4, choices=[(4, "4"), (2, "2")])
    turn_seconds = forms.IntegerField(label=_("Hamle süresi (saniye)"), min_value=10, max_value=60, initial=20)
    starts_at = forms.DateTimeField(label=_("Başlangıç"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    registration_minutes = forms.IntegerField(label=_("Kayıt süresi (dakika)"), min_value=0, max_value=7 * 24 * 60,
                                              initial=60)
    min_players = forms.IntegerField(label=_("En az oyuncu"), min_value=2, max_value=1024, initial=4)
    max_players = forms.IntegerField(label=_("En çok oyuncu"), min_value=2, max_value=1024, initial=64)
    buy_in = forms.IntegerField(label=_("Giriş ücreti (çip, 0 = ücretsiz)"), min_value=0, max_value=10**6, initial=0)
    added_chips = forms.IntegerField(label=_("Ödüle eklenen çip"), min_value=0, max_value=10**7, initial=0)
    duration_minutes = forms.IntegerField(label=_("Arena süresi (dakika)"), min_value=5, max_value=24 * 60, initial=30)
    go_on = forms.TypedChoiceField(label=_("Masadan üst tura çıkan (eleme)"), coerce=int, initial=1,
                                   choices=[(1, _("birinci")), (2, _("ilk iki"))])
    repeat_on = forms.MultipleChoiceField(
        label=_("Her hafta aynı saatte tekrarla"), required=False, widget=forms.CheckboxSelectMultiple,
        help_text=_("Boş bırakırsanız turnuva bir kez oynanır."),
        choices=WEEKDAYS)

    def __init__(self, *args: Any, site_admin: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not site_admin:
            # Only site admins add chips to a prize (the service refuses anyone else as well).
            del self.fields["added_chips"]

    def service_fields(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        game, hands_101, players_kart = data.pop("game"), data.pop("hands_101"), data.pop("players_kart")
        scoring, players, hands = data.pop("scoring"), data.pop("players"), data.pop("hands_per_match")
        data.pop("starts_at")
        data.pop("repeat_on")
        if game == GAME101:
            # 101 is always four at a table and plays a fixed number of hands (tournaments: 11 by default).
            return {**data, "rules": {"game": GAME101, **Rules101(hands=hands_101).to_dict()}}
        if game == GAME_KART:
            # Kart Okey: one-hand tables (knockout and arena alike), the decks by the table size, no
            # prize pool of the table's own (the tournament pays its final table from its pool).
            return {**data, "rules": {"game": GAME_KART, **RulesKart(players=players_kart, rounds=1).to_dict()}}
        rules = RuleSet.preset(scoring, players=players, hands_per_match=hands)
        return {**data, "rules": rules.to_dict()}

    def weekdays(self) -> str:
        """The days it repeats on ("" = once)."""
        return "".join(sorted(self.cleaned_data.get("repeat_on") or []))


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Sebep"), min_length=3, max_length=200)
    nickname = forms.CharField(required=False, max_length=40)
