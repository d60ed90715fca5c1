"""The action log: everything anyone did to an event, in order, with what it replaced.

A table's entries are its sheet's history, each with the table's version after the change.
"""

from django.db import models
from django.utils import timezone

from tournament.models.events import Event, Team, Tournament
from tournament.models.rounds import Table


class LogEntry(models.Model):
    class Action(models.TextChoices):
        EVENT_CREATED = "event_created", "Event created"
        EVENT_CHANGED = "event_changed", "Event changed"
        EVENT_IMPORTED = "event_imported", "Event imported"
        TOURNAMENT_CREATED = "tournament_created", "Tournament created"
        TOURNAMENT_CHANGED = "tournament_changed", "Tournament changed"
        RULES_CHANGED = "rules_changed", "Rules changed"
        ANNOUNCEMENT_POSTED = "announcement_posted", "Announcement posted"
        ANNOUNCEMENT_REMOVED = "announcement_removed", "Announcement removed"
        TEAM_REGISTERED = "team_registered", "Team registered"
        TEAM_CHANGED = "team_changed", "Team changed"
        TEAMS_IMPORTED = "teams_imported", "Teams imported"
        DESK = "desk", "Registration desk"
        ROUND_DRAWN = "round_drawn", "Round drawn"
        DRAW_CHANGED = "draw_changed", "Draw changed"
        DRAW_DISCARDED = "draw_discarded", "Draft discarded"
        ROUND_PUBLISHED = "round_published", "Round published"
        ROUND_CLOSED = "round_closed", "Round closed"
        ROUND_UNPUBLISHED = "round_unpublished", "Round unpublished"
        PLAYOFF_SEEDED = "playoff_seeded", "Playoff seeded"
        PLAYOFF_SEEDS_SWAPPED = "playoff_seeds_swapped", "Playoff seeds swapped"
        PLAYOFF_PUBLISHED = "playoff_published", "Bracket published"
        PLAYOFF_MATCH_OPENED = "playoff_match_opened", "Playoff match opened"
        CHAMPION = "champion", "Champion decided"
        FIRST_DEALER = "first_dealer", "First dealer named"
        HAND_ADDED = "hand_added", "Hand entered"
        REDEAL_ADDED = "redeal_added", "Re-deal recorded"
        HAND_CHANGED = "hand_changed", "Hand changed"
        HAND_REMOVED = "hand_removed", "Hand removed"
        PENALTY_ADDED = "penalty_added", "Penalty added"
        PENALTY_REMOVED = "penalty_removed", "Penalty removed"
        SIGNED = "signed", "Signed"
        SIGNATURES_CLEARED = "signatures_cleared", "Signature cleared"
        DISPUTED = "disputed", "Director called"
        DISPUTE_RESOLVED = "dispute_resolved", "Dispute resolved"
        RESCORED = "rescored", "Sheet rescored"
        HAND_ACCEPTED = "hand_accepted", "Hand accepted"
        HAND_SUBMITTED = "hand_submitted", "Hand entered by one team"
        ENTRIES_DIFFER = "entries_differ", "Teams' entries differ"
        ENTRIES_SETTLED = "entries_settled", "Entries settled by staff"
        CODE_ISSUED = "code_issued", "Team code issued"
        WRONG_CODE = "wrong_code", "Wrong team code"
        REMOVAL_UNDONE = "removal_undone", "Removal undone"
        CODE_PAUSE_LIFTED = "code_pause_lifted", "Team-code pause lifted"
        MONEY_SETTINGS = "money_settings", "Money settings changed"
        PAYMENT = "payment", "Payment received"
        REFUND = "refund", "Refund"
        PAYOUT = "payout", "Prize paid"
        PAYOUT_CONFIRMED = "payout_confirmed", "Prize receipt confirmed"
        PAYMENT_VOIDED = "payment_voided", "Payment voided"
        PAYMENT_MOVED = "payment_moved", "Payment moved"
        PAYOUT_UNDONE = "payout_undone", "Prize payment undone"
        PERSON_LINKED = "person_linked", "Player linked to a person"
        PERSON_UNLINKED = "person_unlinked", "Player unlinked from a person"
        PERSONS_MERGED = "persons_merged", "Persons merged"
        PERSON_CHANGED = "person_changed", "Person changed"
        SERIES_CHANGED = "series_changed", "Series changed"
        RATINGS_RECOMPUTED = "ratings_recomputed", "Ratings recomputed"
        CLOCK = "clock", "Round clock"
        TIME_CALLED = "time_called", "Time called"
        FORFEIT = "forfeit", "Forfeit declared"
        FORFEIT_UNDONE = "forfeit_undone", "Forfeit undone"
        SIT_OUT = "sit_out", "Sitting out"
        SUBSTITUTE = "substitute", "Substitute approved"
        SUBSTITUTE_REMOVED = "substitute_removed", "Substitute taken back"
        SELF_CHECK_IN = "self_check_in", "Team checked itself in"
        WITHDRAW_REQUESTED = "withdraw_requested", "Team asked to withdraw"

    class Actor(models.TextChoices):
        STAFF = "staff", "Staff"
        TABLE = "table", "Table link"
        TEAM = "team", "Team"
        COMMAND = "command", "Command"

    event = models.ForeignKey(
        Event,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="log",
        help_text="Blank for a change across events (a series, a person's merge).",
    )
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="log")
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    table = models.ForeignKey(Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="changes")
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(null=True, blank=True, help_text="The table's version after this change.")
    team = models.ForeignKey(Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="log")
    action = models.CharField(max_length=24, choices=Action.choices)
    summary = models.CharField(max_length=300)
    reason = models.TextField(blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    correction = models.BooleanField(default=False, help_text="A staff change to a signed sheet.")
    actor = models.CharField(max_length=8, choices=Actor.choices)
    actor_name = models.CharField(
        max_length=150, blank=True, help_text="The staff account, the team, or the command run."
    )
    device = models.CharField(max_length=100, blank=True, help_text="The phone or browser it came from.")
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name_plural = "log entries"
        indexes = [models.Index(fields=["tournament", "created_at"], name="log_tournament_time")]

    def __str__(self):
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.who}: {self.summary}"

    @property
    def who(self) -> str:
        if self.actor == self.Actor.TABLE:
            return "table link"
        return self.actor_name or self.get_actor_display().lower()

    @property
    def place(self) -> str:
        """Where at the tournament, as the log names it: "round 2, table 3", or a playoff match ("Quarterfinal 1").

        Reads the table through ``select_related("table__round", "table__playoff_match")`` where a page lists
        entries.
        """
        if self.table is not None and self.table.round.kind == self.table.round.Kind.PLAYOFF:
            return self.table.stage
        words = [f"round {self.round_number}"] if self.round_number else []
        if self.table_number:
            words.append(f"table {self.table_number}")
        return ", ".join(words)

    @property
    def where(self) -> str:
        """The actor and the device, for a sheet's history: "team #4 on phone 3f9c…"."""
        return f"{self.who} on {self.device}" if self.device else self.who
