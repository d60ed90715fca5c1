"""The back office: raw records for a director who needs them; the app's own pages do the work."""

from django.contrib import admin

from tournament import models


class TeamMemberInline(admin.TabularInline):
    model = models.TeamMember
    extra = 0
    raw_id_fields = ("player",)


@admin.register(models.Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("name", "venue", "starts_on", "ends_on")
    search_fields = ("name", "venue")


@admin.register(models.Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "event", "status", "qualifying_rounds")
    list_filter = ("status", "event")
    list_select_related = ("event",)


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "city", "event")
    search_fields = ("name", "city")
    list_select_related = ("event",)


@admin.register(models.Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("number", "name", "tournament", "checked_in", "withdrawn")
    list_filter = ("tournament", "checked_in", "withdrawn")
    inlines = [TeamMemberInline]
    list_select_related = ("tournament",)


@admin.register(models.Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "kind", "status", "method", "seed")
    list_filter = ("status", "kind")
    list_select_related = ("tournament",)


@admin.register(models.Table)
class TableAdmin(admin.ModelAdmin):
    """Scores, locks and versions are the services' to write: a change here would bypass the history."""

    list_display = ("round", "number", "sitting_pair", "version")
    list_select_related = ("round__tournament",)
    readonly_fields = (
        "version",
        "first_dealer",
        "ns_total",
        "ew_total",
        "hands_played",
        "complete",
        "next_dealer",
        "next_hand_number",
        "locked_at",
        "disputed_at",
        "dispute_note",
    )


@admin.register(models.LogEntry)
class LogEntryAdmin(admin.ModelAdmin):
    """The action log, to read: nobody edits what was done."""

    list_display = ("created_at", "action", "summary", "actor", "actor_name")
    list_filter = ("action", "actor", "tournament")
    search_fields = ("summary", "reason", "actor_name")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
