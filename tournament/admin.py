"""The back office: raw records for a director who needs them; the app's own pages do the work.

Everything here is read-only: the app's pages manage every field (an event's dates, a tournament's sheet
mode, qualifying rounds and standings order, a team's number and withdrawal, players, rounds, sheets), and
a change made here would bypass the services, their checks, the action log and the versions the cached
pages follow (``results_version`` above all, which only ever goes up). The one change left is deleting
a record nothing was played with (a mistaken draft, a team entered twice), one at a time: logged with
the staff member who did it, and said as a change (``services.changes``) to the pages that showed it.
"""

import logging
from typing import NamedTuple

from django.contrib import admin

from tournament import models
from tournament.services.changes import Changed, changed
from tournament.services.log import Actor, log_write

security_log = logging.getLogger("tournament.security")


class ReadOnly:
    """Shown to read; only the app's services write these."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):
    """Shown to read; only the app's services write these."""


class Told(NamedTuple):
    """Who hears of a deletion: the action log (``action``, with the records ``log_write`` takes) and the public
    pages that showed it (``services.changes``: ``change`` of ``about``)."""

    action: str
    logged_in: dict
    change: Changed
    about: object


class GuardedAdmin(ReadOnlyAdmin):
    """Read-only; deletes one record at a time, only one ``deletable`` allows (no bulk delete to bypass
    it), and logs it."""

    def deletable(self, obj) -> bool:
        return True

    def told(self, obj) -> Told | None:
        """Who hears of the deletion besides the server's log (None: nobody)."""
        return None

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def has_delete_permission(self, request, obj=None):
        return admin.ModelAdmin.has_delete_permission(self, request, obj) and (obj is None or self.deletable(obj))

    def delete_model(self, request, obj):
        told = self.told(obj)
        summary = f"Back office: {request.user.get_username()} deleted {obj._meta.verbose_name} {obj}"
        super().delete_model(request, obj)
        security_log.info(summary)
        if told:
            log_write(actor=Actor.staff(request.user), summary=summary, action=told.action, **told.logged_in)
            changed(told.change, told.about)


class TeamMemberInline(ReadOnly, admin.TabularInline):
    model = models.TeamMember
    extra = 0


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

    def deletable(self, obj) -> bool:
        return not obj.rounds.exclude(status="draft").exists()

    def told(self, obj) -> Told:
        return Told(models.LogEntry.Action.EVENT_CHANGED, {"event": obj.event}, Changed.EVENT, obj.event)


@admin.register(models.Player)
class PlayerAdmin(GuardedAdmin):
    list_display = ("name", "city", "event")
    search_fields = ("name", "city")
    list_select_related = ("event",)

    def deletable(self, obj) -> bool:
        return not obj.memberships.exists()

    def told(self, obj) -> Told:
        return Told(models.LogEntry.Action.EVENT_CHANGED, {"event": obj.event}, Changed.EVENT, obj.event)


@admin.register(models.Team)
class TeamAdmin(GuardedAdmin):
    list_display = ("number", "name", "tournament", "checked_in", "withdrawn")
    list_filter = ("tournament", "checked_in", "withdrawn")
    inlines = [TeamMemberInline]
    list_select_related = ("tournament",)

    def deletable(self, obj) -> bool:
        return not obj.seatings.exists() and not obj.playoff_seeds.exists()

    def told(self, obj) -> Told:
        return Told(models.LogEntry.Action.TEAM_CHANGED, {"tournament": obj.tournament}, Changed.TEAMS, obj.tournament)


@admin.register(models.Round)
class RoundAdmin(GuardedAdmin):
    list_display = ("tournament", "number", "kind", "status", "method", "seed")
    list_filter = ("status", "kind")
    list_select_related = ("tournament",)

    def deletable(self, obj) -> bool:
        return obj.status == models.Round.Status.DRAFT

    def told(self, obj) -> Told:
        return Told(models.LogEntry.Action.DRAW_DISCARDED, {"tournament": obj.tournament}, Changed.DRAW, obj)


@admin.register(models.Table)
class TableAdmin(GuardedAdmin):
    list_display = ("round", "number", "sitting_pair", "version", "ns_total", "ew_total", "locked_at")
    list_select_related = ("round__tournament",)

    def told(self, obj) -> Told:
        return Told(models.LogEntry.Action.DRAW_CHANGED, {"tournament": obj.round.tournament}, Changed.DRAW, obj.round)

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
