"""Admin for players and their chips. Site admins see e-mails here; nobody else ever does."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from . import services
from .errors import ServiceError
from .models import ChipTransaction, User


class ChipTransactionInline(admin.TabularInline):
    model = ChipTransaction
    extra = 0
    can_delete = False
    fields = ("created_at", "kind", "amount", "balance_after", "note")
    readonly_fields = fields
    ordering = ("-created_at",)
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ("username", "email", "chips", "games_played", "games_won", "score", "is_active", "is_staff", "date_joined")
    list_filter = ("is_active", "is_staff", "is_superuser", "date_joined")
    search_fields = ("username", "email")
    ordering = ("-date_joined",)
    readonly_fields = ("chips", "last_login", "date_joined")
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        (_("Oyun"), {"fields": ("chips", "games_played", "games_won", "score")}),
    )
    inlines = [ChipTransactionInline]
    actions = ["grant_1000_chips"]

    @admin.action(description=_("Seçili oyunculara 1000 çip ver"))
    def grant_1000_chips(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        for user in queryset:
            try:
                services.change_chips(user=user, amount=1000, kind=ChipTransaction.Kind.ADMIN, note=f"admin: {request.user}")
            except ServiceError as error:
                self.message_user(request, f"{user}: {error}", messages.ERROR)
        self.message_user(request, _("Çipler verildi."), messages.SUCCESS)


@admin.register(ChipTransaction)
class ChipTransactionAdmin(admin.ModelAdmin):
    list_display = ("created_at", "user", "kind", "amount", "balance_after", "note")
    list_filter = ("kind", "created_at")
    search_fields = ("user__username", "note")
    list_select_related = ("user",)
    date_hierarchy = "created_at"
    readonly_fields = ("user", "amount", "balance_after", "kind", "note", "created_at")

    # The ledger is append-only: entries come from services, never from hand edits.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
