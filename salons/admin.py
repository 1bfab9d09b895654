"""Admin for salons, rooms, tables, seats, chat and the removal log (site admins only for now;
the moderation app opens parts of it to salon staff)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db import models
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.engine.errors import RulesError
from games.engine.game_types import CLASSIC, UnknownGameType, game_type_of
from games.engine.kart.rules import GAME as GAME_KART
from games.engine.rules import RuleSet, RuleSetError
from moderation.public_text import validate_public_text

from . import rules101_catalog, rules_kart_catalog
from .models import ChatMessage, Room, RoomRemoval, Salon, SalonStaff, Seat, Table
from .rule_lines import GAME_LABELS, game_label
from .rules_catalog import rule_error_message
from .selectors import game_q


class SalonStaffInline(admin.TabularInline):
    model = SalonStaff
    extra = 0
    autocomplete_fields = ("user",)


class SalonAdminForm(forms.ModelForm):
    """A salon's name, address and descriptions are on every page of it: public text, screened like
    room and tournament names, even when a site admin writes them. Every text field of the model
    is screened, so a new one (``description_en`` came later) is too."""

    class Meta:
        model = Salon
        fields = "__all__"

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        texts = [field.name for field in Salon._meta.concrete_fields
                 if isinstance(field, (models.CharField, models.TextField)) and not field.choices]
        for name in texts:
            value = cleaned.get(name)
            if value:
                try:
                    validate_public_text(value.replace("-", " ") if name == "slug" else value)
                except forms.ValidationError as error:
                    self.add_error(name, error)
        return cleaned


@admin.register(Salon)
class SalonAdmin(admin.ModelAdmin):
    form = SalonAdminForm
    list_display = ("name", "slug", "position", "is_active", "open_rooms", "min_stake", "max_stake", "max_rooms")
    list_editable = ("position", "is_active")
    list_filter = ("is_active",)
    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [SalonStaffInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Salon]:
        return super().get_queryset(request).annotate(_open_rooms=Count("rooms", filter=Q(rooms__status=Room.Status.OPEN)))

    @admin.display(description=_("açık oda"), ordering="_open_rooms")
    def open_rooms(self, obj: Salon) -> int:
        return obj._open_rooms


@admin.register(SalonStaff)
class SalonStaffAdmin(admin.ModelAdmin):
    list_display = ("salon", "user", "created_at")
    list_filter = ("salon",)
    search_fields = ("user__username", "salon__name")
    autocomplete_fields = ("user",)


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ("number", "status")
    show_change_link = True


class RoomAdminForm(forms.ModelForm):
    """Rules edited as JSON are checked by the engine, as the room form's are."""

    class Meta:
        model = Room
        fields = "__all__"

    def clean_rules(self) -> Any:
        rules = self.cleaned_data.get("rules")
        if not isinstance(rules, dict):
            raise forms.ValidationError(_("Kurallar bir JSON nesnesi olmalı."), code="bad_rules")
        try:
            game = game_type_of(rules)
        except UnknownGameType:
            raise forms.ValidationError(_("Böyle bir oyun türü yok."), code="unknown_game") from None
        try:
            # Each game's own rules (101 Okey and Kart Okey name themselves: "game": "okey101", "kart"); classic Okey's read
            # strictly, as the room form reads them (stored rules are read leniently elsewhere).
            if game.name == CLASSIC:
                return RuleSet.from_dict({key: value for key, value in rules.items() if key != "game"}).to_dict()
            return game.stored_rules(game.rules(rules))
        except RulesError as error:
            catalog = rules_kart_catalog if game.name == GAME_KART else rules101_catalog
            raise forms.ValidationError(catalog.rule_error_message(error), code=error.code) from None
        except RuleSetError as error:
            raise forms.ValidationError(rule_error_message(error), code=error.code) from None
        except (TypeError, ValueError):
            raise forms.ValidationError(_("Bu kural seçimi geçersiz."), code="bad_rules") from None


class GameFilter(admin.SimpleListFilter):
    """Rooms by the game they play (classic Okey's rule sets name no game)."""

    title = _("oyun")
    parameter_name = "game"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return list(GAME_LABELS.items())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Room]) -> QuerySet[Room]:
        if self.value() in GAME_LABELS:
            return queryset.filter(game_q(self.value()))
        return queryset


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    form = RoomAdminForm
    list_display = ("name", "salon", "owner", "game", "scoring", "players", "turn_seconds", "is_private", "status",
                    "created_at")
    list_filter = ("status", GameFilter, "salon", "is_private", "created_at")
    search_fields = ("name", "owner__username")
    list_select_related = ("salon", "owner")
    date_hierarchy = "created_at"
    readonly_fields = ("password", "invite_token", "created_at", "updated_at", "closed_at")
    autocomplete_fields = ("owner",)
    inlines = [TableInline]

    @admin.display(description=_("oyun"))
    def game(self, obj: Room) -> str:
        return game_label(obj.rules) or str(obj.rules.get("game", ""))

    @admin.display(description=_("puanlama"))
    def scoring(self, obj: Room) -> str:
        return str(obj.rules.get("scoring", ""))

    @admin.display(description=_("oyuncu"))
    def players(self, obj: Room) -> int:
        return obj.players


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "taken_at")
    readonly_fields = ("taken_at",)
    autocomplete_fields = ("user",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("__str__", "room", "number", "status", "created_at")
    list_filter = ("status", "room__salon")
    search_fields = ("room__name",)
    list_select_related = ("room",)
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("table", "position", "user", "taken_at")
    list_filter = ("table__room__salon", "table__status")
    search_fields = ("user__username", "table__room__name")
    list_select_related = ("table", "table__room", "user")
    autocomplete_fields = ("user",)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "room", "table", "author", "text", "visible")
    list_filter = ("visible", "room__salon", "created_at")
    search_fields = ("text", "author__username", "room__name")
    list_select_related = ("room", "table", "author")
    date_hierarchy = "created_at"
    readonly_fields = ("room", "table", "author", "text", "created_at", "hidden_by", "hidden_at")


@admin.register(RoomRemoval)
class RoomRemovalAdmin(admin.ModelAdmin):
    list_display = ("created_at", "room", "removed_by", "user", "reason", "until")
    list_filter = ("room__salon", "created_at")
    search_fields = ("removed_by__username", "user__username", "reason", "room__name")
    list_select_related = ("room", "removed_by", "user")
    date_hierarchy = "created_at"
    readonly_fields = ("room", "removed_by", "user", "reason", "created_at", "until")

    # The log is evidence for staff: it is written by the service and never edited by hand.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
