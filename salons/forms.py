"""Room forms. The rule fields are generated from the engine's RuleSet and the rule catalogue,
so a new engine option shows up in the form as soon as it is described."""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine.rules import PRESETS, RuleSet, RuleSetError
from moderation.public_text import validate_public_text

from .models import TURN_SECONDS_DEFAULT, TURN_SECONDS_MAX, TURN_SECONDS_MIN, Room
from .rules_catalog import PRESET_LABELS, RULE_OPTIONS, rule_error_message
from .selectors import RoomFilter
from .services import (
    MAX_TABLES_PER_ROOM,
    PASSWORD_MAX_LENGTH,
    PASSWORD_MIN_LENGTH,
    REMOVAL_MINUTES_DEFAULT,
    REMOVAL_MINUTES_MAX,
)

RULE_PREFIX = "rule_"
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


class RoomForm(forms.Form):
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
        for field in fields(RuleSet):
            if field.name not in RULE_OPTIONS:
                continue
            default = field.default if field.default is not MISSING else None
            form_field = _rule_form_field(field.name, default)
            value = current.get(field.name, default)
            form_field.initial = _encode(value) if isinstance(form_field, forms.TypedChoiceField) else value
            self.fields[RULE_PREFIX + field.name] = form_field
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
        if not any(name.startswith(RULE_PREFIX) for name in self.errors):
            # The engine is the authority on which options go together: its refusal goes next to
            # the option at fault.
            try:
                RuleSet.from_dict(self.rules_data())
            except (RuleSetError, TypeError) as error:
                field = RULE_PREFIX + getattr(error, "field", "") if getattr(error, "field", None) else None
                message = rule_error_message(error) if isinstance(error, RuleSetError) else _("Bu kural seçimi geçersiz.")
                self.add_error(field if field in self.fields else None, message)
        return cleaned

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(RULE_PREFIX)]

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if not name.startswith(RULE_PREFIX)]

    def rules_data(self) -> dict[str, Any]:
        """The rule options as the engine wants them (RuleSet.from_dict validates them in the service)."""
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
    players = forms.TypedChoiceField(
        label=_("Oyuncu"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", _("Hepsi")), ("4", _("4 kişilik")), ("2", _("2 kişilik"))],
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
        )
