"""An event and its tournaments, the players and their teams, and the director's announcements."""

import secrets
from typing import Any, Protocol

from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from scoring import RuleSet
from scoring.money import MAX_FEE, MONEY_SETTINGS, MoneyKind, payout_percents_parse
from scoring.standings import ORDERS, order_label


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


# The standings orders a director chooses from, stored as the engine's criteria joined by commas.
STANDINGS_ORDERS = [(",".join(order), order_label(order)) for order in ORDERS]


def money_column(name: str) -> Any:
    """The ``Tournament`` column of a money setting, as its declaration (``scoring.money.MONEY_SETTINGS``) says."""
    setting = MONEY_SETTINGS[name]
    label, default = setting.label, setting.default
    if setting.kind in (MoneyKind.AMOUNT, MoneyKind.PERCENT):
        digits = 8 if setting.kind is MoneyKind.AMOUNT else 5
        return models.DecimalField(
            max_digits=digits, decimal_places=2, default=default, verbose_name=label, help_text=setting.help
        )
    choices = setting.choices.choices() if setting.choices is not None else None
    longest = 200 if setting.kind is MoneyKind.PERCENTS else 16
    return models.CharField(
        max_length=longest, choices=choices, default=default, verbose_name=label, help_text=setting.help
    )


def money_constraints() -> list[models.CheckConstraint]:
    """The range of each money setting of a number's kind, kept by the database too."""
    highest = {MoneyKind.AMOUNT: MAX_FEE, MoneyKind.PERCENT: 100}
    return [
        models.CheckConstraint(
            condition=Q(**{f"{name}__gte": 0, f"{name}__lte": highest[setting.kind]}), name=f"tournament_{name}_range"
        )
        for name, setting in MONEY_SETTINGS.items()
        if setting.kind in highest
    ]


class Tournament(models.Model):
    class SheetMode(models.TextChoices):
        SIGN = "sign", "The team that keeps the score sheet enters; both teams sign with their codes"
        ACCEPT = "accept", "The opponents accept each hand with their code"
        DOUBLE = "double", "Blind double entry: each team enters every hand on its own phone"

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
    standings_order = models.CharField(
        max_length=80,
        choices=STANDINGS_ORDERS,
        default=STANDINGS_ORDERS[0][0],
        help_text="How teams are ranked; teams still level share the place.",
    )
    playoff_third_place = models.BooleanField(default=False, help_text="Play a match for third place.")
    playoff_double = models.BooleanField(
        default=False, help_text="Double elimination: a losers' bracket, and a grand final reset."
    )
    playoff_published_at = models.DateTimeField(null=True, blank=True)
    sheet_mode = models.CharField(
        max_length=6,
        choices=SheetMode.choices,
        default=SheetMode.SIGN,
        help_text="How the teams vouch for their sheets.",
    )
    avoid_same_city_rounds = models.PositiveSmallIntegerField(
        default=2, help_text="In this many first rounds, draws keep teams of one city or club apart where possible."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    rating_breaks_ties = models.BooleanField(
        default=False,
        help_text="Teams level on every standings criterion are ranked by their players' ratings, as a last "
        "criterion (off unless the director chooses it).",
    )
    results_version = models.PositiveBigIntegerField(
        default=0,
        help_text="Goes up with every logged change to what the standings, placings and bracket show (signed "
        "sheets, teams, rules, draws): the cached renderings of those pages key on it.",
    )
    live_version = models.PositiveBigIntegerField(
        default=0,
        help_text="Goes up with every logged change, a hand on an unsigned sheet included: the cached renderings "
        "of the live pages (tables, projector) key on it.",
    )
    entry_fee = money_column("entry_fee")
    side_pot_fee = money_column("side_pot_fee")
    house_percent = money_column("house_percent")
    payout_percents = money_column("payout_percents")
    side_pot_rule = money_column("side_pot_rule")

    class Meta:
        ordering = ["event", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="tournament_name_unique_in_event"),
            models.CheckConstraint(
                condition=Q(qualifying_rounds__gte=1, qualifying_rounds__lte=20),
                name="tournament_qualifying_rounds_range",
            ),
            *money_constraints(),
        ]

    def __str__(self):
        return f"{self.event.name}: {self.name}"

    @property
    def rules(self) -> RuleSet:
        return RuleSet.from_dict(self.rules_data)

    @property
    def criteria(self) -> list[str]:
        return self.standings_order.split(",")

    @property
    def percents(self):
        """The payout percentages by place, as the money engine takes them."""
        return payout_percents_parse(self.payout_percents)

    @property
    def accept_mode(self) -> bool:
        """The opponents accept each hand the team keeping the score sheet enters, with their code."""
        return self.sheet_mode == self.SheetMode.ACCEPT

    @property
    def double_entry(self) -> bool:
        """Blind double entry: each team enters every hand on its own phone, and the two entries must agree."""
        return self.sheet_mode == self.SheetMode.DOUBLE


class Player(models.Model):
    """A person at the event; may enter several of its tournaments."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=120)
    city = models.CharField(max_length=120, blank=True, help_text="City or club.")
    phone = models.CharField(max_length=40, blank=True)
    person = models.ForeignKey(
        "tournament.Person",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        help_text="The person across events, as the director linked them.",
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint("event", Lower("name"), Lower("city"), name="player_unique_name_city_in_event")
        ]

    def __str__(self):
        return f"{self.name} ({self.city})" if self.city else self.name


# A team's code is read off a slip and typed on a phone: no letters or digits that look alike.
CODE_ALPHABET = "ACDEFHJKMNPQRTUVWXY3479"
CODE_LENGTH = 6


def new_team_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def team_code_typed(text: str) -> str:
    """A code as a player types it: any case, with spaces or dashes."""
    return "".join(text.split()).replace("-", "").upper()[: CODE_LENGTH + 2]


class _Named(Protocol):
    """What ``TeamNaming`` reads of the team it names."""

    @property
    def number(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def player_name_list(self) -> list[str]: ...

    @property
    def player_names(self) -> str: ...

    @property
    def display_name(self) -> str: ...


class TeamNaming:
    """How a team is named wherever it is shown: by its own name, else by its players' (``player_name_list``).
    The model and the standings' plain rows (``StandingTeam``) name a team alike."""

    __slots__ = ()

    def __str__(self: _Named) -> str:
        return f"#{self.number} {self.display_name}"

    @property
    def player_names(self: _Named) -> str:
        return " & ".join(self.player_name_list)

    @property
    def player_surnames(self: _Named) -> str:
        """The players' last names, for a line too short for their whole names (the projector)."""
        return " & ".join(name.split()[-1] for name in self.player_name_list if name.split())

    @property
    def display_name(self: _Named) -> str:
        return self.name or self.player_names or f"Team {self.number}"


class Team(TeamNaming, models.Model):
    """Two players who sit opposite each other in one tournament.

    ``code`` is handed to the team at check-in: it signs the team's sheets and opens the team's page.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=160, blank=True, help_text="Leave blank for the players' names.")
    city = models.CharField(max_length=120, blank=True)
    players = models.ManyToManyField(Player, through="TeamMember", related_name="teams")
    fee_paid = models.BooleanField(
        default=False, help_text="Entry fee settled; with an entry fee set, the payments recorded decide it."
    )
    side_pot = models.BooleanField(default=False, help_text="In the side pot.")
    checked_in = models.BooleanField(default=False)
    self_checked_in_at = models.DateTimeField(
        null=True, blank=True, help_text="The team checked itself in on its own page (we're here)."
    )
    withdrawn = models.BooleanField(default=False)
    withdraw_requested_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="The team asked on its page to withdraw after this round; the director confirms.",
    )
    code = models.CharField(max_length=CODE_LENGTH, unique=True, default=new_team_code, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="team_number_unique_in_tournament"),
            models.CheckConstraint(condition=Q(number__gte=1), name="team_number_positive"),
        ]

    @property
    def members(self):
        """The two members in seat order; uses prefetched rows when a selector loaded them."""
        return sorted(self.memberships.all(), key=lambda member: member.position)

    @property
    def player_name_list(self) -> list[str]:
        """The players' names in seat order."""
        return [member.player.name for member in self.members]

    @property
    def checked_in_by_team(self) -> bool:
        """Checked in by the team itself on its own page, not at the desk."""
        return self.checked_in and self.self_checked_in_at is not None

    @property
    def withdrawal_requested(self) -> bool:
        """The team asked to withdraw after this round and the director has not confirmed it yet."""
        return self.withdraw_requested_at is not None and not self.withdrawn


class TeamMember(models.Model):
    """A player's place on a team; the tournament column lets the database refuse a second team."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="memberships")
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


class Announcement(models.Model):
    """A short message from the director on the tournament's public home, shown until it expires."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="announcements")
    text = models.CharField(max_length=280)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True, help_text="Blank: until removed.")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.text
