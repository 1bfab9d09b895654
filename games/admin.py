from django.contrib import admin

from games.models import Hand, Match, MatchPlayer, Move


class MatchPlayerInline(admin.TabularInline):
    model = MatchPlayer
    extra = 0
    readonly_fields = ["seat", "user", "score", "timeouts_in_row", "away", "is_winner"]
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "table", "status", "started_at", "finished_at"]
    list_filter = ["status"]
    search_fields = ["players__user__username", "table__room__name"]
    readonly_fields = ["table", "rules", "turn_seconds", "state", "started_at", "finished_at"]
    inlines = [MatchPlayerInline]


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    can_delete = False
    readonly_fields = ["number", "seat", "user", "action", "args", "auto", "created_at"]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["id", "match", "number", "status", "move", "turn_seat", "deadline"]
    list_filter = ["status"]
    # The state holds every rack and the pile: staff see it read-only, and never edit a hand.
    readonly_fields = ["match", "number", "status", "state", "move", "turn_seat", "deadline", "started_at", "finished_at"]
    inlines = [MoveInline]

    def has_add_permission(self, request) -> bool:
        return False
