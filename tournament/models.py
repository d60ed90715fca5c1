"""What a tournament weekend is made of: events, tournaments, players, teams, rounds and tables."""

import secrets

from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from scoring import RuleSet


class Event(models.Model):
    """One gathering (a weekend) holding several tournaments."""

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80, unique=True)
    venue = models.CharField(max_length=160, blank=True)
    starts_on = models.DateField()
    ends_on = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(ends_on__gte=models.F("starts_on")), name="event_ends_after_start")
        ]

    def __str__(self):
        return self.name


class Tournament(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", "Setting up"
        RUNNING = "running", "Qualifying rounds"
        PLAYOFFS = "playoffs", "Playoffs"
        FINISHED = "finished", "Finished"

    class PaperSize(models.TextChoices):
        LETTER = "letter", "US Letter"
        A4 = "a4", "A4"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80, unique=True)
    rules_data = models.JSONField(default=dict, help_text="The rule set, as the scoring engine stores it.")
    qualifying_rounds = models.PositiveSmallIntegerField(default=3)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    paper_size = models.CharField(max_length=6, choices=PaperSize.choices, default=PaperSize.LETTER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="tournament_name_unique_in_event"),
            models.CheckConstraint(
                condition=Q(qualifying_rounds__gte=1, qualifying_rounds__lte=20),
                name="tournament_qualifying_rounds_range",
            ),
        ]

    def __str__(self):
        return f"{self.event.name}: {self.name}"

    @property
    def rules(self) -> RuleSet:
        return RuleSet.from_dict(self.rules_data)


class Player(models.Model):
    """A person at the event; may enter several of its tournaments."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=120)
    city = models.CharField(max_length=120, blank=True, help_text="City or club.")
    phone = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint("event", Lower("name"), Lower("city"), name="player_unique_name_city_in_event")
        ]

    def __str__(self):
        return f"{self.name} ({self.city})" if self.city else self.name


class Team(models.Model):
    """Two players who sit opposite each other in one tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=160, blank=True, help_text="Leave blank for the players' names.")
    city = models.CharField(max_length=120, blank=True)
    players = models.ManyToManyField(Player, through="TeamMember", related_name="teams")
    fee_paid = models.BooleanField(default=False)
    side_pot = models.BooleanField(default=False)
    checked_in = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="team_number_unique_in_tournament"),
            models.CheckConstraint(condition=Q(number__gte=1), name="team_number_positive"),
        ]

    def __str__(self):
        return f"#{self.number} {self.display_name}"

    @property
    def members(self):
        """The two members in seat order; uses prefetched rows when a selector loaded them."""
        return sorted(self.memberships.all(), key=lambda member: member.position)

    @property
    def player_names(self) -> str:
        return " & ".join(member.player.name for member in self.members)

    @property
    def display_name(self) -> str:
        return self.name or self.player_names or f"Team {self.number}"


class TeamMember(models.Model):
    """A player's place on a team; the tournament column lets the database refuse a second team."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="memberships")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["team", "position"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="player_on_one_team_per_tournament"),
            models.UniqueConstraint(fields=["team", "position"], name="team_member_position_unique"),
            models.CheckConstraint(condition=Q(position__in=[1, 2]), name="team_has_two_positions"),
        ]

    def __str__(self):
        return f"{self.player.name} on {self.team}"


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
        MANUAL = "manual", "Manual"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.QUALIFYING)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    method = models.CharField(max_length=10, choices=Method.choices)
    seed = models.BigIntegerField(null=True, blank=True, help_text="The random seed the draw used.")
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique_in_tournament"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self):
        return f"{self.tournament.name}, round {self.number}"

    @property
    def is_draft(self) -> bool:
        return self.status == self.Status.DRAFT


def new_table_secret() -> str:
    return secrets.token_urlsafe(12)


class Pair(models.TextChoices):
    NORTH_SOUTH = "NS", "North–South"
    EAST_WEST = "EW", "East–West"


class Table(models.Model):
    """Two teams at one numbered table for one round; its secret opens the scorekeeper's page."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    sitting_pair = models.CharField(
        max_length=2,
        choices=Pair.choices,
        default=Pair.NORTH_SOUTH,
        help_text="The team that keeps the sheet.",
    )
    secret = models.CharField(max_length=32, unique=True, default=new_table_secret, editable=False)
    version = models.PositiveIntegerField(default=0)

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
    def team_ns(self):
        return self.team_at(Pair.NORTH_SOUTH)

    @property
    def team_ew(self):
        return self.team_at(Pair.EAST_WEST)

    @property
    def sitting_team(self):
        return self.team_at(self.sitting_pair)

    @property
    def moving_team(self):
        return self.team_at(Pair.EAST_WEST if self.sitting_pair == Pair.NORTH_SOUTH else Pair.NORTH_SOUTH)


class Seating(models.Model):
    """Where a team plays in a round: a table and side, or a bye (no table)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seatings")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="seatings")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, null=True, blank=True, related_name="seatings")
    pair = models.CharField(max_length=2, choices=Pair.choices, blank=True)

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
    def is_bye(self) -> bool:
        return self.table_id is None
