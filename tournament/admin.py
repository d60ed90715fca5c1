"""The back office: raw records for a director who needs them; the app's own pages do the work.

Scored data (sheets, totals, locks, versions, signatures, the bracket, the log) is read-only here, and
nothing that has been played can be deleted: a change here would bypass the services, the rescoring
and the history.
"""

from django.contrib import admin

from tournament import models


class GuardedAdmin(admin.ModelAdmin):
    """Deletes one record at a time, and only one ``deletable`` allows (no bulk delete to bypass it)."""

    def deletable(self, obj) -> bool:
        return True

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and (obj is None or self.deletable(obj))


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown to read; only the app's services write these."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class TeamMemberInline(admin.TabularInline):
    model = models.TeamMember
    extra = 0
    raw_id_fields = ("player",)

    def has_delete_permission(self, request, obj=None):
        return obj is None or not obj.seatings.exists()


@admin.register(models.Event)
class EventAdmin(GuardedAdmin):
    list_display = ("name", "venue", "starts_on", "ends_on")
    search_fields = ("name", "venue")

    def deletable(self, obj) -> bool:
        return not models.Round.objects.filter(tournament__event=obj).exclude(status="draft").exists()


@admin.register(models.Tournament)
class TournamentAdmin(GuardedAdmin):
    list_display = ("name", "event", "status", "qualifying_rounds")
    list_filter = ("status", "event")
    list_select_related = ("event",)
    readonly_fields = ("event", "rules_data", "status", "playoff_third_place", "playoff_double", "playoff_published_at")

    def deletable(self, obj) -> bool:
        return not obj.rounds.exclude(status="draft").exists()


@admin.register(models.Player)
class PlayerAdmin(GuardedAdmin):
    list_display = ("name", "city", "event")
    search_fields = ("name", "city")
    list_select_related = ("event",)

    def deletable(self, obj) -> bool:
        return not obj.memberships.exists()


@admin.register(models.Team)
class TeamAdmin(GuardedAdmin):
    list_display = ("number", "name", "tournament", "checked_in", "withdrawn")
    list_filter = ("tournament", "checked_in", "withdrawn")
    inlines = [TeamMemberInline]
    list_select_related = ("tournament",)
    readonly_fields = ("tournament",)

    def deletable(self, obj) -> bool:
        return not obj.seatings.exists() and not obj.playoff_seeds.exists()


@admin.register(models.Round)
class RoundAdmin(GuardedAdmin):
    list_display = ("tournament", "number", "kind", "status", "method", "seed")
    list_filter = ("status", "kind")
    list_select_related = ("tournament",)
    readonly_fields = ("tournament", "number", "kind", "status", "method", "seed", "published_at")

    def deletable(self, obj) -> bool:
        return obj.status == models.Round.Status.DRAFT


@admin.register(models.Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("round", "number", "sitting_pair", "version", "ns_total", "ew_total", "locked_at")
    list_select_related = ("round__tournament",)

    def has_delete_permission(self, request, obj=None):
        """A draft's tables go with the draft; nothing played is deleted."""
        return obj is not None and obj.round.status == models.Round.Status.DRAFT and request.user.is_superuser


@admin.register(models.TableCard)
class TableCardAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number")
    list_select_related = ("tournament",)
    exclude = ("secret",)


@admin.register(models.Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ("table", "sequence", "hand_number", "bid_text", "books", "ns_points", "ew_points")
    list_select_related = ("table__round__tournament",)


@admin.register(models.Penalty)
class PenaltyAdmin(ReadOnlyAdmin):
    list_display = ("table", "kind", "team", "ns_points", "ew_points", "created_at")
    list_select_related = ("table__round__tournament",)


@admin.register(models.Signature)
class SignatureAdmin(ReadOnlyAdmin):
    list_display = ("table", "pair", "player", "signed_at")
    list_select_related = ("table__round__tournament", "player")


@admin.register(models.PlayoffMatch)
class PlayoffMatchAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "code", "label", "top_team", "bottom_team", "winner")
    list_select_related = ("tournament", "top_team", "bottom_team", "winner")


@admin.register(models.LogEntry)
class LogEntryAdmin(ReadOnlyAdmin):
    """The action log, to read: nobody edits what was done."""

    list_display = ("created_at", "action", "summary", "actor", "actor_name")
    list_filter = ("action", "actor", "tournament")
    search_fields = ("summary", "reason", "actor_name")
