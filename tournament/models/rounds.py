"""Rounds, their numbered tables, and where each team sits."""

import secrets

from django.db import models
from django.db.models import Q

from scoring import Absent, Clock, Credit, Pair, Seat, TableOutcome, TeamOutcome, team_outcome
from tournament.models.events import Team, Tournament


class Round(models.Model):
    class Kind(models.TextChoices):
        QUALIFYING = "qualifying", "Qualifying"
        PLAYOFF = "playoff", "Playoff"

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Published"
        CLOSED = "closed", "Closed"

    class Method(models.TextChoices):
        RANDOM = "random", "Random"
        SWISS = "swiss", "Swiss"
        MOVEMENT = "movement", "Movement"
        MANUAL = "manual", "Manual"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.QUALIFYING)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    method = models.CharField(max_length=10, choices=Method.choices)
    seed = models.BigIntegerField(null=True, blank=True, help_text="The random seed the draw used.")
    label = models.CharField(max_length=60, blank=True, help_text="A playoff round's name.")
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    clock_started_at = models.DateTimeField(null=True, blank=True, help_text="When the director started the clock.")
    clock_ends_at = models.DateTimeField(null=True, blank=True, help_text="The round clock's time while it runs.")
    clock_left_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="What the round clock had left when it was paused."
    )
    completed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the last of its sheets was signed (a forfeit counts): the round is complete and its clock "
        "stops. Empty while a table still plays, or a playoff match of it waits for its teams.",
    )

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique_in_tournament"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self):
        return f"{self.tournament.name}, {self.title.lower()}"

    @property
    def title(self) -> str:
        return self.label or f"Round {self.number}"

    @property
    def is_draft(self) -> bool:
        return self.status == self.Status.DRAFT

    @property
    def clock(self) -> Clock:
        return Clock(self.clock_ends_at, self.clock_left_seconds)

    @property
    def complete(self) -> bool:
        """Every table of the round is signed, as the service that signed the last one stored it."""
        return self.completed_at is not None


def new_table_secret() -> str:
    return secrets.token_urlsafe(12)


# The sitting team and the other, in the words players read at the table, on the pages and on paper.
KEEPS_SHEET = "keeps the score sheet"
STAYS = "stays at this table"
MOVES = "moves after the round"


class Table(models.Model):
    """Two teams at one numbered table for one round; its secret opens the scorekeeper's page."""

    # What a forfeit won here is credited (a ``scoring.Credit``, provisional until every table of the round is
    # signed), given by ``selectors.credits_attach`` where a page shows the round's tables.
    credit: Credit | None = None

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    sitting_pair = models.CharField(
        max_length=2,
        choices=Pair.choices(),
        default=Pair.NORTH_SOUTH,
        help_text="The team that keeps the score sheet.",
    )
    secret = models.CharField(max_length=32, unique=True, default=new_table_secret, editable=False)
    version = models.PositiveIntegerField(default=0, help_text="Goes up with every change to the sheet.")
    first_dealer = models.CharField(
        max_length=1, choices=Seat.choices(), blank=True, help_text="The seat dealt the first diamond."
    )
    # Stored results of the scoring engine, rewritten whenever the sheet changes.
    ns_total = models.IntegerField(default=0)
    ew_total = models.IntegerField(default=0)
    hands_played = models.PositiveSmallIntegerField(default=0)
    complete = models.BooleanField(default=False)
    next_dealer = models.CharField(
        max_length=1, choices=Seat.choices(), blank=True, help_text="The dealer the rotation proposes next."
    )
    next_hand_number = models.PositiveSmallIntegerField(
        null=True, blank=True, default=1, help_text="The number of the next hand; empty once the round is complete."
    )
    locked_at = models.DateTimeField(null=True, blank=True, help_text="When both teams had signed.")
    disputed_at = models.DateTimeField(null=True, blank=True, help_text="A team called the director.")
    dispute_note = models.CharField(max_length=300, blank=True)
    clock_ends_at = models.DateTimeField(null=True, blank=True, help_text="The table's time while its clock runs.")
    clock_left_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="What the table's clock had left when it was paused."
    )
    clock_held = models.BooleanField(
        default=False, help_text="Paused on its own: resuming the round's clock leaves it paused."
    )
    time_called_at = models.DateTimeField(
        null=True, blank=True, help_text="Time was called: the round is over with the hands played."
    )
    forfeit = models.CharField(
        max_length=4,
        choices=Absent.choices(),
        blank=True,
        help_text="Declared absent by the director: the present team scores a bye, the absent a loss.",
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique_in_round"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self):
        return f"Table {self.number}, round {self.round.number}"

    def team_at(self, pair: str):
        """The team sitting at North–South or East–West, from prefetched seatings."""
        for seating in self.seatings.all():
            if seating.pair == pair:
                return seating.team
        return None

    @property
    def stage(self) -> str:
        """Where the table sits in the tournament, in words: "Round 2", or its playoff match ("Semifinal 1").

        Reads the playoff match through ``select_related("playoff_match")`` where a page lists tables.
        """
        match = getattr(self, "playoff_match", None) if self.round.kind == Round.Kind.PLAYOFF else None
        return match.label if match is not None else self.round.title

    @property
    def clock(self) -> Clock:
        return Clock(self.clock_ends_at, self.clock_left_seconds)

    @property
    def time_called_after(self) -> int | None:
        """The hands played when time was called ("time called after hand 3"); None while it was not."""
        return self.hands_played if self.time_called_at is not None else None

    @property
    def plays_on_after_time(self) -> bool:
        """A playoff match level when time was called is not over: it plays on one hand at a time while level."""
        return self.time_called_at is not None and not self.complete and self.round.kind == Round.Kind.PLAYOFF

    def role_of(self, side: str) -> str:
        """What the team at ``side`` does besides playing, as every page and sheet says it: the sitting team keeps
        the score sheet (and, in a round drawn by movement, stays at this table: the next movement keeps it here),
        the other team moves after a movement round; "" for it in another round. Reads ``self.round``, which the
        pages' table lists hold."""
        movement = self.round.method == Round.Method.MOVEMENT
        if side == self.sitting_pair:
            return f"{KEEPS_SHEET} ({STAYS})" if movement else KEEPS_SHEET
        return MOVES if movement else ""

    @property
    def team_ns(self):
        return self.team_at(Pair.NORTH_SOUTH)

    @property
    def team_ew(self):
        return self.team_at(Pair.EAST_WEST)

    @property
    def sides(self) -> list[tuple[Pair, Team | None]]:
        """North–South and East–West, each with its team, for the pages that show the two alike."""
        return [(side, self.team_at(side)) for side in Pair]

    @property
    def signed(self) -> bool:
        return self.locked_at is not None

    def total(self, pair: str) -> int:
        return self.ns_total if pair == Pair.NORTH_SOUTH else self.ew_total

    @property
    def entries_state(self) -> str:
        """Blind double entry, from prefetched submissions: "" when nothing waits, else what does."""
        submissions = list(self.submissions.all())
        if not submissions:
            return ""
        if len({s.pair for s in submissions}) == 2 and submissions[0].entry() != submissions[1].entry():
            return "differ"
        return "waiting"

    @property
    def signed_by(self) -> list[str]:
        """The teams (NS, EW) that have signed, from prefetched signatures."""
        return [signature.pair for signature in self.signatures.all()]

    @property
    def outcome(self) -> TableOutcome:
        """What the table came to, as every surface says it (``scoring.outcome``)."""
        return TableOutcome(
            self.ns_total,
            self.ew_total,
            self.complete,
            self.signed,
            Absent(self.forfeit) if self.forfeit else None,
            self.time_called_after,
        )

    def side_outcome(self, pair: str) -> TeamOutcome:
        """The round of the team at ``pair``, with the points the standings count for it."""
        return team_outcome(self.outcome, Pair(pair), credit=self.credit)

    @property
    def side_outcomes(self) -> list[tuple[Pair, object, TeamOutcome]]:
        """North–South and East–West, each with its team (prefetched seatings) and its round."""
        return [(side, self.team_at(side), self.side_outcome(side)) for side in Pair]

    @property
    def winner_pair(self) -> Pair | None:
        """NS or EW once the round is complete; None for a tie or a round in play. A forfeit is won by the team
        that was there (none when both were absent)."""
        return self.outcome.winner


class Seating(models.Model):
    """Where a team plays in a round: a table and side, or a bye (no table)."""

    # What a bye is credited (a ``scoring.Credit``), given by ``selectors.credits_attach``; None in a draft.
    credit: Credit | None = None

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seatings")
    team = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="seatings")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, null=True, blank=True, related_name="seatings")
    pair = models.CharField(max_length=2, choices=Pair.choices(), blank=True)

    class Meta:
        ordering = ["round", "table__number", "pair"]
        constraints = [
            models.UniqueConstraint(fields=["round", "team"], name="team_plays_once_per_round"),
            models.UniqueConstraint(
                fields=["table", "pair"], condition=Q(table__isnull=False), name="one_team_per_table_side"
            ),
            models.CheckConstraint(
                condition=(Q(table__isnull=True) & Q(pair="")) | (Q(table__isnull=False) & Q(pair__in=["NS", "EW"])),
                name="seating_is_a_table_side_or_a_bye",
            ),
        ]

    def __str__(self):
        if self.table_id is None:
            return f"{self.team} has a bye in round {self.round.number}"
        return f"{self.team} at table {self.table.number} {self.pair}"

    @property
    def bye_outcome(self) -> TeamOutcome:
        """A bye's round, with the points the standings count for it (its ``credit``)."""
        return team_outcome(None, None, credit=self.credit)


class SitOut(models.Model):
    """A team marked, before the round is drawn, as sitting out that round: not drawn, no result."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sit_outs")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="sit_outs")
    round_number = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "round_number", "team__number"]
        constraints = [
            models.UniqueConstraint(fields=["team", "round_number"], name="team_sits_out_a_round_once"),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="sit_out_round_positive"),
        ]

    def __str__(self):
        return f"{self.team} sits out round {self.round_number}"


class Substitute(models.Model):
    """With the director's approval, a team plays one round with a substitute in place of one of its players;
    the other stays (one substitute per team and round). The results are the team's."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="substitutes")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="substitutes")
    replaces = models.ForeignKey("tournament.Player", on_delete=models.RESTRICT, related_name="+")
    name = models.CharField(max_length=120)
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "team__number"]
        constraints = [models.UniqueConstraint(fields=["round", "team"], name="one_substitute_per_team_and_round")]

    def __str__(self):
        return f"{self.name} for {self.replaces.name} ({self.team}, round {self.round.number})"


class TableCard(models.Model):
    """The card that stays on table N all event: its link opens whichever round's table N is being played,
    so one phone can keep the table's sheet from the first round to the last."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="table_cards")
    number = models.PositiveSmallIntegerField()
    secret = models.CharField(max_length=32, unique=True, default=new_table_secret, editable=False)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="table_card_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_card_number_positive"),
        ]

    def __str__(self):
        return f"Table card {self.number}, {self.tournament}"
