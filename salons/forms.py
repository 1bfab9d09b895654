"""Room forms. The rule fields are generated from the engine's rule sets and the rule catalogues
(classic Okey's ``RuleSet`` + ``rules_catalog``, 101 Okey's ``Rules101`` + ``rules101_catalog``, Kart
Okey's ``RulesKart`` + ``rules_kart_catalog``), so a new engine option shows up in the form as soon
as it is described. The game type is chosen
first; each game's options sit in a fieldset of their own that the page shows for that game only."""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine.errors import RulesError
from games.engine.game_types import CLASSIC, UnknownGameType, game_type
from games.engine.kart.rules import GAME as GAME_KART
from games.engine.kart.rules import RulesKart
from games.engine.okey101.rules import GAME as GAME101
from games.engine.okey101.rules import Rules101
from games.engine.rules import CHIPS, PRESETS, RuleSet, RuleSetError
from moderation.public_text import validate_public_text

from . import rules101_catalog, rules_kart_catalog
from .models import TURN_SECONDS_DEFAULT, TURN_SECONDS_MAX, TURN_SECONDS_MIN, Room
from .rule_lines import GAME_LABELS, game_of
from .rules101_catalog import RULE101_OPTIONS
from .rules_catalog import PRESET_LABELS, RULE_OPTIONS, rule_error_message
from .rules_kart_catalog import RULEKART_OPTIONS
from .selectors import RoomFilter
from .services import (
    MAX_TABLES_PER_ROOM,
    PASSWORD_MAX_LENGTH,
    PASSWORD_MIN_LENGTH,
    REMOVAL_MINUTES_DEFAULT,
    REMOVAL_MINUTES_MAX,
)

RULE_PREFIX = "rule_"
#: 101 Okey's options (``rule101_hands``…): a prefix of their own, as both games have ``partners``.
RULE101_PREFIX = "rule101_"
#: Kart Okey's options (``rulekart_players``…): a prefix of their own, as classic Okey has ``players``.
RULEKART_PREFIX = "rulekart_"
#: The games a room may play, in the form's order.
GAMES = (CLASSIC, GAME101, GAME_KART)
#: Each game's fields.
PREFIXES = {CLASSIC: RULE_PREFIX, GAME101: RULE101_PREFIX, GAME_KART: RULEKART_PREFIX}
#: A 101 or Kart choice left out of the request (the page sends no disabled fieldset): the engine's default.
_LEFT_OUT = object()
# The turn times a room may choose (within the model's 10–60 s limits).
TURN_SECONDS_CHOICES = (10, 15, 20, 30, 45, 60)


def _format(text: Any, **values: Any) -> str:
    return str(text) % values


# A label with numbers in it, translated when shown (the form class is built once, at import).
_lazy_format = lazy(_format, str)


def _encode(value: Any) -> str:
    return "" if value is None else str(value)


def _rule_form_field(name: str, default: Any) -> forms.Field:
    field = _bare_rule_field(name, default)
    option = RULE_OPTIONS[name]
    # The page script hides options that do not matter for the chosen preset, from these marks.
    if option.presets is not None:
        field.widget.attrs["data-presets"] = " ".join(sorted(option.presets))
    if option.fixed_by_preset:
        field.widget.attrs["data-fixed-by"] = " ".join(sorted(option.fixed_by_preset))
    if option.table_sizes is not None:
        field.widget.attrs["data-players"] = " ".join(str(size) for size in sorted(option.table_sizes))
    return field


def _bare_rule_field(name: str, default: Any) -> forms.Field:
    option = RULE_OPTIONS[name]
    common: dict[str, Any] = {"label": option.label, "help_text": option.description}
    if option.choices:
        choices = [(_encode(value), label) for value, label in option.choices]
        sample = next((value for value, _label in option.choices if value is not None), default)

        value_type = type(sample)

        def coerce(raw: str) -> Any:
            return None if raw == "" else value_type(raw)

        return forms.TypedChoiceField(
            choices=choices, coerce=coerce, empty_value=None, initial=_encode(default), required=False, **common
        )
    if isinstance(default, bool):
        return forms.BooleanField(initial=default, required=False, **common)
    return forms.IntegerField(
        initial=default, min_value=option.minimum, max_value=option.maximum, required=True, **common
    )


def _encode101(value: Any) -> str:
    """A 101 choice's value in the page: "none" for no limit, so that a field left out ("") is not
    read as a choice of its own."""
    return "none" if value is None else str(value)


def _coerce101(raw: str) -> Any:
    return None if raw == "none" else int(raw)


def _rule101_form_field(name: str, default: Any) -> forms.Field:
    option = RULE101_OPTIONS[name]
    common: dict[str, Any] = {"label": option.label, "help_text": option.description, "required": False}
    if option.choices:
        return forms.TypedChoiceField(
            choices=[(_encode101(value), label) for value, label in option.choices], coerce=_coerce101,
            empty_value=_LEFT_OUT, initial=_encode101(default),
            # The same words as the engine's refusal of the value (rules101_catalog.BAD_VALUE).
            error_messages={"invalid_choice": rules101_catalog.BAD_VALUE.get(name, _("Bu kural seçimi geçersiz."))},
            **common,
        )
    return forms.BooleanField(initial=default, **common)


#: A Kart Okey choice of "no value" (decks chosen by the table size): not "", which is a field left out.
_KART_AUTO = "auto"


def _encode_kart(value: Any) -> str:
    return _KART_AUTO if value is None else str(value)


def _coerce_kart(raw: str) -> Any:
    return None if raw == _KART_AUTO else int(raw)


def _rulekart_form_field(name: str, default: Any) -> forms.Field:
    option = RULEKART_OPTIONS[name]
    bad = rules_kart_catalog.BAD_VALUE.get(name, _("Bu kural seçimi geçersiz."))
    common: dict[str, Any] = {"label": option.label, "help_text": option.description, "required": False}
    if option.choices:
        field = forms.TypedChoiceField(
            choices=[(_encode_kart(value), label) for value, label in option.choices], coerce=_coerce_kart,
            empty_value=_LEFT_OUT, initial=_encode_kart(default),
            # The same words as the engine's refusal of the value (rules_kart_catalog.BAD_VALUE).
            error_messages={"invalid_choice": bad}, **common,
        )
        if name == "decks":
            # The page script offers two decks only at a table of four (RULES.md "Kart Okey", rule 1).
            field.widget.attrs["data-option-players"] = "2:4"
        return field
    return forms.IntegerField(
        initial=default, min_value=option.minimum, max_value=option.maximum,
        error_messages={"invalid": bad, "min_value": bad, "max_value": bad}, **common,
    )


class RoomForm(forms.Form):
    game = forms.ChoiceField(
        label=_("Oyun"),
        choices=[(game, GAME_LABELS[game]) for game in GAMES],
        initial=CLASSIC,
        required=False,
        help_text=_("Okey: 14 taşla klasik oyun. 101 Okey: 21 taşla, el açılıp masaya taş işlenen oyun; her zaman "
                    "4 kişiyle ve puanla oynanır. Kart Okey: 52 kartla 2–4 kişilik kart oyunu (rummy); seri ve per "
                    "açılır, elde kalan kartlar ceza puanıdır."),
        error_messages={"invalid_choice": _("Oyun Okey, 101 Okey ya da Kart Okey olmalı.")},
    )
    name = forms.CharField(label=_("Oda adı"), min_length=3, max_length=40, validators=[validate_public_text],
                           help_text=_("3 ile 40 karakter arası."))
    turn_seconds = forms.TypedChoiceField(
        label=_("Hamle süresi (saniye)"),
        choices=[(seconds, _lazy_format(_("%(n)d saniye"), n=seconds)) for seconds in TURN_SECONDS_CHOICES],
        coerce=int,
        initial=TURN_SECONDS_DEFAULT,
        help_text=_lazy_format(_("Sırası gelen oyuncunun düşünme süresi: %(min)d ile %(max)d saniye arası."),
                               min=TURN_SECONDS_MIN, max=TURN_SECONDS_MAX),
        error_messages={"invalid_choice": _("Hamle süresi 10, 15, 20, 30, 45 ya da 60 saniye olmalı.")},
    )
    table_count = forms.IntegerField(label=_("Masa sayısı"), min_value=1, max_value=MAX_TABLES_PER_ROOM, initial=1,
                                     help_text=_lazy_format(_("1 ile %(max)d masa arası."), max=MAX_TABLES_PER_ROOM))
    bot_fill_seconds = forms.TypedChoiceField(
        label=_("Boş yerleri botlarla doldur"),
        choices=[(0, _("Hayır")), (15, _("15 saniye sonra")), (30, _("30 saniye sonra")), (60, _("1 dakika sonra"))],
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,
    )
    is_private = forms.BooleanField(label=_("Özel oda (şifre ya da davet bağlantısıyla girilir)"), required=False)
    password = forms.CharField(
        label=_("Oda şifresi"),
        required=False,
        min_length=PASSWORD_MIN_LENGTH,
        max_length=PASSWORD_MAX_LENGTH,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args: Any, room: Room | None = None, **kwargs: Any) -> None:
        self.room = room
        super().__init__(*args, **kwargs)
        current = room.rules if room else RuleSet().to_dict()
        if room is not None:
            # Editing keeps the room's game unless the owner picks another.
            self.fields["game"].initial = game_of(room.rules)
        current101 = current if rules101_catalog.is_101(current) else {}
        current_kart = current if rules_kart_catalog.is_kart(current) else {}
        for field in fields(RuleSet):
            if field.name not in RULE_OPTIONS:
                continue
            default = field.default if field.default is not MISSING else None
            form_field = _rule_form_field(field.name, default)
            value = current.get(field.name, default)
            form_field.initial = _encode(value) if isinstance(form_field, forms.TypedChoiceField) else value
            self.fields[RULE_PREFIX + field.name] = form_field
        for field in fields(Rules101):
            if field.name not in RULE101_OPTIONS:
                continue
            form_field = _rule101_form_field(field.name, field.default)
            value = current101.get(field.name, field.default)
            form_field.initial = _encode101(value) if isinstance(form_field, forms.TypedChoiceField) else value
            self.fields[RULE101_PREFIX + field.name] = form_field
        for field in fields(RulesKart):
            if field.name not in RULEKART_OPTIONS:
                continue
            form_field = _rulekart_form_field(field.name, field.default)
            value = current_kart.get(field.name, field.default)
            form_field.initial = _encode_kart(value) if isinstance(form_field, forms.TypedChoiceField) else value
            self.fields[RULEKART_PREFIX + field.name] = form_field
        # The minimum is stated next to the field (in the reader's language, so built per form).
        limits = gettext("En az %(min)d karakter.") % {"min": PASSWORD_MIN_LENGTH}
        self.fields["password"].help_text = " ".join(
            [limits, gettext("Boş bırakırsanız odaya yalnızca davet bağlantısıyla girilir.")]
        )
        if room is not None:
            del self.fields["table_count"]
            self.initial.update({"name": room.name, "turn_seconds": room.turn_seconds, "is_private": room.is_private,
                                 "bot_fill_seconds": room.bot_fill_seconds})
            self.fields["password"].help_text = " ".join([
                limits,
                gettext("Boş bırakırsanız şifre değişmez."),
                gettext("Yeni şifre ya da gizlilik değişince eski izinler ve davet bağlantısı geçersiz olur."),
            ])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if "game" in self.errors:
            return cleaned
        # The other games' options do not apply: whatever came for them (a page without its script
        # sends every fieldset, the script only the chosen game's) neither counts nor blocks.
        others = tuple(prefix for game, prefix in PREFIXES.items() if game != self.chosen_game())
        for name in [name for name in self._errors if name.startswith(others)]:
            del self._errors[name]
        if self.chosen_game() == GAME101:
            self._clean_101()
        elif self.chosen_game() == GAME_KART:
            self._clean_kart()
        elif not any(name.startswith(RULE_PREFIX) for name in self.errors):
            # The engine is the authority on which options go together: its refusal goes next to
            # the option at fault.
            try:
                RuleSet.from_dict(self.rules_data())
            except (RuleSetError, TypeError) as error:
                field = RULE_PREFIX + getattr(error, "field", "") if getattr(error, "field", None) else None
                message = rule_error_message(error) if isinstance(error, RuleSetError) else _("Bu kural seçimi geçersiz.")
                self.add_error(field if field in self.fields else None, message)
        return cleaned

    def _clean_101(self) -> None:
        """101 Okey through its game type. Classic Okey's fields do not apply (the page sends none of
        them for 101); a page without its script shows them all, so a 2-seat table or chips asked
        for there is refused in words, next to the field, rather than silently played otherwise."""
        cleaned = self.cleaned_data
        if cleaned.get(RULE_PREFIX + "players") not in (None, Rules101().players):
            self.add_error(RULE_PREFIX + "players", str(rules101_catalog.ALWAYS_FOUR))
        if cleaned.get(RULE_PREFIX + "scoring") == CHIPS:
            self.add_error(RULE_PREFIX + "scoring", str(rules101_catalog.NO_CHIPS))
        if any(name.startswith(RULE101_PREFIX) for name in self.errors):
            return
        data = self.rules_data()
        try:
            game = game_type(data["game"])
            game.stored_rules(game.rules(data))
        except (RulesError, UnknownGameType, TypeError) as error:
            field = RULE101_PREFIX + (getattr(error, "field", None) or "")
            message = (rules101_catalog.rule_error_message(error) if isinstance(error, (RulesError, UnknownGameType))
                       else _("Bu kural seçimi geçersiz."))
            self.add_error(field if field in self.fields else None, message)

    def _clean_kart(self) -> None:
        """Kart Okey through its game type. It has a table size of its own (``rulekart_players``), so
        classic Okey's does not apply; chip scoring asked for on a page without its script is refused
        in words (a Kart hand pays no chips: only the table's prize pool does, at its end)."""
        cleaned = self.cleaned_data
        if cleaned.get(RULE_PREFIX + "scoring") == CHIPS:
            self.add_error(RULE_PREFIX + "scoring", str(rules_kart_catalog.NO_CHIP_HANDS))
        if any(name.startswith(RULEKART_PREFIX) for name in self.errors):
            return
        data = self.rules_data()
        try:
            game = game_type(data["game"])
            game.stored_rules(game.rules(data))
        except (RulesError, UnknownGameType, TypeError) as error:
            field = RULEKART_PREFIX + (getattr(error, "field", None) or "")
            message = (rules_kart_catalog.rule_error_message(error) if isinstance(error, (RulesError, UnknownGameType))
                       else _("Bu kural seçimi geçersiz."))
            self.add_error(field if field in self.fields else None, message)

    def chosen_game(self) -> str:
        """The chosen game (classic Okey when left out or not yet valid)."""
        data = getattr(self, "cleaned_data", None) or {}
        return data.get("game") or CLASSIC

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(RULE_PREFIX)]

    def rule101_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(RULE101_PREFIX)]

    def rulekart_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(RULEKART_PREFIX)]

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields
                if name != "game" and not name.startswith(tuple(PREFIXES.values()))]

    def rules_data(self) -> dict[str, Any]:
        """The rule options as the chosen game's engine wants them: classic Okey's ``RuleSet``
        options (no "game", as every classic rule set is stored), or ``{"game": "okey101", ...}``,
        ``{"game": "kart", ...}``. The service validates them again through the game type."""
        if self.chosen_game() == GAME101:
            return self._rules101_data()
        if self.chosen_game() == GAME_KART:
            return self._rules_kart_data()
        data = {}
        for name, value in self.cleaned_data.items():
            if name.startswith(RULE_PREFIX):
                data[name[len(RULE_PREFIX):]] = value
        # A choice left out (a partial preview request, an older page) is the engine's default, for
        # every option whose choices have no "none" of their own (scoring, players, hand counts).
        defaults = RuleSet().to_dict()
        for name, value in data.items():
            choices = RULE_OPTIONS[name].choices
            if value is None and choices and all(choice is not None for choice, _label in choices):
                data[name] = defaults[name]
        return data

    def _rules101_data(self) -> dict[str, Any]:
        defaults = Rules101().to_dict()
        data: dict[str, Any] = {"game": GAME101}
        for name, value in self.cleaned_data.items():
            if name.startswith(RULE101_PREFIX):
                option = name[len(RULE101_PREFIX):]
                # A choice left out (a partial preview request) is the engine's default.
                data[option] = defaults[option] if value is _LEFT_OUT else value
        return data

    def _rules_kart_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": GAME_KART}
        defaults = {field.name: field.default for field in fields(RulesKart)}
        for name, value in self.cleaned_data.items():
            if name.startswith(RULEKART_PREFIX):
                option = name[len(RULEKART_PREFIX):]
                # A choice left out (a partial preview request) is the engine's default (decks: by
                # the table size, so left out too).
                data[option] = defaults[option] if value is _LEFT_OUT or value is None else value
        return data


class EnterRoomForm(forms.Form):
    password = forms.CharField(label=_("Oda şifresi"), max_length=64, widget=forms.PasswordInput)


class RemoveUserForm(forms.Form):
    user = forms.IntegerField(label=_("Oyuncu"), widget=forms.Select)
    reason = forms.CharField(label=_("Sebep"), min_length=3, max_length=200, validators=[validate_public_text])
    minutes = forms.IntegerField(
        label=_("Süre (dakika)"), min_value=1, max_value=REMOVAL_MINUTES_MAX, initial=REMOVAL_MINUTES_DEFAULT
    )


class ChatForm(forms.Form):
    # Checks are the service's (screen_chat_text), so the form passes the text through as typed.
    text = forms.CharField(label=_("Mesaj"), max_length=1000, required=False, strip=False)


class RoomFilterForm(forms.Form):
    q = forms.CharField(label=_("Ara"), required=False, max_length=40)
    game = forms.ChoiceField(
        label=_("Oyun"), required=False, choices=[("", _("Hepsi")), *[(game, GAME_LABELS[game]) for game in GAMES]]
    )
    players = forms.TypedChoiceField(
        label=_("Oyuncu"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", _("Hepsi")), ("4", _("4 kişilik")), ("3", _("3 kişilik")), ("2", _("2 kişilik"))],
    )
    scoring = forms.ChoiceField(
        label=_("Puanlama"), required=False, choices=[("", _("Hepsi")), *[(p, PRESET_LABELS[p]) for p in PRESETS]]
    )
    free = forms.BooleanField(label=_("Boş yeri olanlar"), required=False)
    public = forms.BooleanField(label=_("Yalnızca herkese açık"), required=False)

    def room_filter(self) -> RoomFilter:
        if not self.is_valid():
            return RoomFilter()
        data = self.cleaned_data
        return RoomFilter(
            text=data.get("q") or "",
            players=data.get("players"),
            scoring=data.get("scoring") or "",
            free_only=bool(data.get("free")),
            public_only=bool(data.get("public")),
            game=data.get("game") or "",
        )
