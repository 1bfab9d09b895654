"""Admin: staff read their salons' tournaments, tables, schedules and log (site admins: all).

Everything here is read-only: changes go through ``tournaments.services`` (buy-ins, the pool, rounds),
from the site's tournament pages; the one admin action, stopping a schedule, calls its service. Built
on moderation's ``ScopedAdmin``: rows limited to the viewer's salons, only declared filters (no
lookup oracles), no e-mail or other private field of any user.
"""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from moderation.admin import ScopedAdmin, ScopedSalonFilter
from tournaments import services
from tournaments.models import Entry, Schedule, Tournament, TournamentLog, TournamentTable


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    can_delete = False
    fields = ("player", "state", "seed", "points", "place", "prize", "paid", "removed_reason")
    readonly_fields = fields

    @admin.display(description=_("oyuncu"))
    def player(self, entry: Entry) -> str:
        return entry.user.username  # the nickname only: never a link to private account fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user")

    def has_view_permission(self, request, obj=None) -> bool:
        return True  # shown inside a tournament the viewer may see (TournamentAdmin checks)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(ScopedAdmin):
    list_display = ("name", "salon", "format", "status", "starts_at", "round", "pool")
    list_filter = ("status", "format", ScopedSalonFilter)
    search_fields = ("name",)
    date_hierarchy = "starts_at"
    inlines = [EntryInline]
    fields = ("name", "salon", "format", "status", "starts_at", "ends_at", "round", "pool", "buy_in", "added_chips",
              "staff_may_play", "min_players", "max_players", "turn_seconds", "go_on", "duration_minutes", "schedule",
              "started_at", "finished_at", "cancel_reason")
    readonly_fields = fields
    actions = ["let_staff_play", "stop_staff_playing"]

    def get_actions(self, request):
        actions = super().get_actions(request)
        if not services.is_site_admin(request.user):  # salon staff never see them (the service refuses too)
            actions.pop("let_staff_play", None)
            actions.pop("stop_staff_playing", None)
        return actions

    @admin.action(description=_("Salon görevlilerinin bu ödüllü turnuvalarda oynamasına izin ver"))
    def let_staff_play(self, request, queryset) -> None:
        self._staff_play(request, queryset, allowed=True)

    @admin.action(description=_("Salon görevlilerinin oynama iznini kaldır"))
    def stop_staff_playing(self, request, queryset) -> None:
        self._staff_play(request, queryset, allowed=False)

    def _staff_play(self, request, queryset, *, allowed: bool) -> None:
        for tournament in queryset:
            try:
                services.allow_staff_to_play(actor=request.user, tournament_id=tournament.pk, allowed=allowed)
            except services.TournamentError as error:
                self.message_user(request, error.message, messages.ERROR)
                return
        self.message_user(request, _("Kaydedildi."), messages.SUCCESS)


@admin.register(Schedule)
class ScheduleAdmin(ScopedAdmin):
    list_display = ("name", "salon", "format", "time_of_day", "weekdays", "is_active")
    list_filter = ("is_active", ScopedSalonFilter)
    search_fields = ("name",)
    fields = ("name", "salon", "format", "time_of_day", "weekdays", "is_active", "buy_in", "added_chips",
              "min_players", "max_players", "turn_seconds", "registration_minutes", "duration_minutes", "go_on")
    readonly_fields = fields
    actions = ["stop"]

    @admin.action(description=_("Seçili takvimlerin tekrarını durdur"))
    def stop(self, request, queryset) -> None:
        stopped = 0
        for schedule in queryset:  # already limited to the viewer's salons; the service checks again
            try:
                services.stop_schedule(actor=request.user, schedule_id=schedule.pk)
            except services.TournamentError as error:
                self.message_user(request, error.message, messages.ERROR)
            else:
                stopped += 1
        if stopped:
            self.message_user(request, _("Tekrar durduruldu; yeni turnuva açılmayacak. Açılmış olanlar sürüyor."),
                              messages.SUCCESS)


@admin.register(TournamentTable)
class TournamentTableAdmin(ScopedAdmin):
    salon_field = "tournament__salon"
    list_display = ("tournament", "round", "table", "match", "status")
    list_filter = ("status",)
    fields = ("tournament", "round", "table", "match", "status", "players", "ranking", "scores", "went_on")
    readonly_fields = fields


@admin.register(TournamentLog)
class TournamentLogAdmin(ScopedAdmin):
    salon_field = "tournament__salon"
    list_display = ("created_at", "tournament", "action", "actor_name", "user_name", "reason")
    list_filter = ("action",)
    fields = ("tournament", "actor_name", "user_name", "action", "reason", "created_at")
    readonly_fields = fields

    @admin.display(description=_("yapan"))
    def actor_name(self, log: TournamentLog) -> str:
        return log.actor.username if log.actor_id else "—"

    @admin.display(description=_("oyuncu"))
    def user_name(self, log: TournamentLog) -> str:
        return log.user.username if log.user_id else "—"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("actor", "user", "tournament")
