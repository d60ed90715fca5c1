"""What a tournament weekend is made of: events, tournaments, players, teams, rounds and tables."""

import secrets

from django.conf import settings
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


STANDINGS_ORDERS = [
    ("rounds_won,total_points,point_difference,head_to_head", "Rounds won, total points, point difference, meeting"),
    ("total_points,rounds_won,point_difference,head_to_head", "Total points, rounds won, point difference, meeting"),
    ("rounds_won,hands_won,total_points,head_to_head", "Rounds won, hands won, total points, meeting"),
    ("rounds_won,fewest_against,total_points,head_to_head", "Rounds won, fewest points against, total points, meeting"),
]


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
    avoid_same_city_rounds = models.PositiveSmallIntegerField(
        default=2, help_text="In this many first rounds, draws keep teams of one city or club apart where possible."
    )
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

    @property
    def criteria(self) -> list[str]:
        return self.standings_order.split(",")


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
        MOVEMENT = "movement", "Sitting/moving movement"
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


def new_table_secret() -> str:
    return secrets.token_urlsafe(12)


class Pair(models.TextChoices):
    NORTH_SOUTH = "NS", "North–South"
    EAST_WEST = "EW", "East–West"


class Seat(models.TextChoices):
    NORTH = "N", "North"
    EAST = "E", "East"
    SOUTH = "S", "South"
    WEST = "W", "West"


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
    version = models.PositiveIntegerField(default=0, help_text="Goes up with every change to the sheet.")
    first_dealer = models.CharField(
        max_length=1, choices=Seat.choices, blank=True, help_text="The seat dealt the first diamond."
    )
    # Stored results of the scoring engine, rewritten whenever the sheet changes.
    ns_total = models.IntegerField(default=0)
    ew_total = models.IntegerField(default=0)
    hands_played = models.PositiveSmallIntegerField(default=0)
    complete = models.BooleanField(default=False)
    locked_at = models.DateTimeField(null=True, blank=True, help_text="When both teams had signed.")
    disputed_at = models.DateTimeField(null=True, blank=True, help_text="A team called the director.")
    dispute_note = models.CharField(max_length=300, blank=True)

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
    def signed(self) -> bool:
        return self.locked_at is not None

    def total(self, pair: str) -> int:
        return self.ns_total if pair == Pair.NORTH_SOUTH else self.ew_total

    @property
    def winner_pair(self) -> str | None:
        """NS or EW once the round is complete; None for a tie or a round in play."""
        if not self.complete or self.ns_total == self.ew_total:
            return None
        return Pair.NORTH_SOUTH if self.ns_total > self.ew_total else Pair.EAST_WEST


class Seating(models.Model):
    """Where a team plays in a round: a table and side, or a bye (no table)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seatings")
    team = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="seatings")
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


class Hand(models.Model):
    """One deal at a table, in the order dealt: a played hand, or a re-deal that does not count.

    The scorekeeper's entries are the first group of fields; the rest are the scoring engine's
    results, stored so standings only sum them, and rewritten whenever the sheet changes.
    """

    class Kind(models.TextChoices):
        HIGH = "high", "High"
        LOW = "low", "Special (low)"
        NO_TRUMP = "nt", "No trump"

    class Suit(models.TextChoices):
        SPADES = "spades", "♠ Spades"
        HEARTS = "hearts", "♥ Hearts"
        DIAMONDS = "diamonds", "♦ Diamonds"
        CLUBS = "clubs", "♣ Clubs"

    class Direction(models.TextChoices):
        UP = "up", "Up"
        DOWN = "down", "Down"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    sequence = models.PositiveSmallIntegerField(help_text="Order in which the deals were dealt.")
    dealer = models.CharField(max_length=1, choices=Seat.choices)
    misdeal = models.BooleanField(default=False)
    bidder = models.CharField(max_length=1, choices=Seat.choices, blank=True)
    bid_level = models.PositiveSmallIntegerField(null=True, blank=True)
    bid_kind = models.CharField(max_length=4, choices=Kind.choices, blank=True)
    trump_suit = models.CharField(max_length=8, choices=Suit.choices, blank=True)
    direction = models.CharField(max_length=4, choices=Direction.choices, blank=True)
    books = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Bidding team's books as played.")

    hand_number = models.PositiveSmallIntegerField(default=0)
    counts = models.BooleanField(default=True)
    books_after_penalties = models.PositiveSmallIntegerField(null=True, blank=True)
    made = models.BooleanField(null=True, blank=True)
    boston = models.BooleanField(default=False, help_text="The bidding team took all 13 books.")
    ns_points = models.IntegerField(default=0, help_text="Hand and penalty points of North–South.")
    ew_points = models.IntegerField(default=0, help_text="Hand and penalty points of East–West.")
    ns_total = models.IntegerField(default=0)
    ew_total = models.IntegerField(default=0)

    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["table", "sequence"], name="hand_sequence_unique_at_table"),
            models.CheckConstraint(
                condition=Q(bid_level__isnull=True) | Q(bid_level__gte=1, bid_level__lte=7), name="hand_bid_level_range"
            ),
            models.CheckConstraint(condition=Q(books__isnull=True) | Q(books__lte=13), name="hand_books_range"),
            models.CheckConstraint(
                condition=(
                    Q(bidder="", bid_level__isnull=True, bid_kind="", books__isnull=True)
                    | (~Q(bidder="") & Q(bid_level__isnull=False) & ~Q(bid_kind="") & Q(books__isnull=False))
                ),
                name="hand_bid_all_or_nothing",
            ),
        ]

    def __str__(self):
        if not self.bid_level:
            return f"Table {self.table.number}, re-deal of hand {self.hand_number}"
        return f"Table {self.table.number}, hand {self.hand_number}: {self.bid_text}"

    @property
    def bid_text(self) -> str:
        """The bid in tournament words with its trump or direction: "4 Special ♥", "3 No (down)"."""
        if not self.bid_level:
            return ""
        words = {"high": "", "low": " Special", "nt": " No"}[self.bid_kind]
        text = f"{self.bid_level}{words}"
        if self.bid_kind == self.Kind.NO_TRUMP:
            return f"{text} ({self.direction or 'up'})"
        if self.trump_suit:
            return f"{text} {self.Suit(self.trump_suit).label.split()[0]}"
        return text

    def points(self, pair: str) -> int:
        return self.ns_points if pair == Pair.NORTH_SOUTH else self.ew_points


class Penalty(models.Model):
    """A penalty on a hand (or, for a director's ruling, on the round), from the rule sheet."""

    class Kind(models.TextChoices):
        RENEGE = "renege", "Renege"
        BID_OUT_OF_TURN = "bid_out_of_turn", "Bid out of turn"
        PLAY_OUT_OF_TURN = "play_out_of_turn", "Play out of turn"
        DEAL_OUT_OF_TURN = "deal_out_of_turn", "Deal out of turn"
        EXPOSED_CARD = "exposed_card", "Exposed card"
        DIRECTOR_RULING = "director_ruling", "Director's ruling"

    class Choice(models.TextChoices):
        TAKE_POINTS = "take_points", "Take points"
        REDEAL = "redeal", "Re-deal"
        CONTINUE = "continue", "Continue"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="penalties")
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, null=True, blank=True, related_name="penalties")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    team = models.CharField(
        max_length=2, choices=Pair.choices, help_text="The offending team (for a ruling: the team it scores for)."
    )
    count = models.PositiveSmallIntegerField(default=1)
    choice = models.CharField(max_length=12, choices=Choice.choices, blank=True)
    before_bidding = models.BooleanField(default=False)
    points = models.IntegerField(default=0, help_text="A ruling's points: positive to the team, negative from it.")
    reason = models.TextField(blank=True)
    warning = models.BooleanField(default=False, help_text="A team's first exposed card of the round: no points.")
    ns_points = models.IntegerField(default=0)
    ew_points = models.IntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(count__gte=1), name="penalty_count_positive"),
            models.CheckConstraint(
                condition=Q(hand__isnull=False) | Q(kind="director_ruling"), name="penalty_on_a_hand_unless_ruling"
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} by {self.get_team_display()} at table {self.table.number}"

    @property
    def description(self) -> str:
        team = self.get_team_display()
        if self.kind == self.Kind.RENEGE:
            return f"Renege by {team}" + (f" ×{self.count}" if self.count > 1 else "")
        if self.kind == self.Kind.BID_OUT_OF_TURN:
            return f"Bid out of turn by {team}: {self.get_choice_display().lower()}"
        if self.kind == self.Kind.DEAL_OUT_OF_TURN:
            when = "caught before the first bid, re-dealt" if self.before_bidding else "the hand stands"
            return f"Deal out of turn by {team}, {when}"
        if self.kind == self.Kind.EXPOSED_CARD:
            return f"Exposed card by {team}" + (" (warning)" if self.warning else "")
        if self.kind == self.Kind.DIRECTOR_RULING:
            sign = "+" if self.points > 0 else "−"
            return f"Director's ruling: {sign}{abs(self.points)} to {team}: {self.reason}"
        return f"{self.get_kind_display()} by {team}"


class Signature(models.Model):
    """A player confirming the sheet for their team; both teams signed locks it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="signatures")
    pair = models.CharField(max_length=2, choices=Pair.choices)
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="+")
    signed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "pair"]
        constraints = [models.UniqueConstraint(fields=["table", "pair"], name="one_signature_per_team")]

    def __str__(self):
        return f"{self.player.name} signed for {self.get_pair_display()} at table {self.table.number}"


class SheetChange(models.Model):
    """The history of a sheet: every entry and correction, with who, when, why, old and new values."""

    class Action(models.TextChoices):
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

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="changes")
    version = models.PositiveIntegerField(help_text="The table's version after this change.")
    action = models.CharField(max_length=20, choices=Action.choices)
    summary = models.CharField(max_length=300)
    reason = models.TextField(blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    correction = models.BooleanField(default=False, help_text="A staff change to a signed sheet.")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "version", "pk"]

    def __str__(self):
        return f"Table {self.table.number} v{self.version}: {self.summary}"

    @property
    def who(self) -> str:
        return self.user.get_username() if self.user else "table link"


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


class PlayoffSeed(models.Model):
    """A team's seed in the playoff, from the standings when qualifying closed (the director may swap)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="playoff_seeds")
    seed = models.PositiveSmallIntegerField()
    team = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="playoff_seeds")

    class Meta:
        ordering = ["tournament", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seed"], name="playoff_seed_unique"),
            models.UniqueConstraint(fields=["tournament", "team"], name="playoff_team_seeded_once"),
            models.CheckConstraint(condition=Q(seed__gte=1), name="playoff_seed_positive"),
        ]

    def __str__(self):
        return f"Seed {self.seed}: {self.team}"


class PlayoffMatch(models.Model):
    """One match of the bracket; its sides come from seeds or earlier matches' winners and losers."""

    class Bracket(models.TextChoices):
        WINNERS = "winners", "Winners' bracket"
        LOSERS = "losers", "Losers' bracket"
        FINAL = "final", "Final"
        THIRD = "third", "Third place"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="playoff_matches")
    code = models.CharField(max_length=10)
    bracket = models.CharField(max_length=8, choices=Bracket.choices)
    bracket_round = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()
    stage = models.PositiveSmallIntegerField()
    label = models.CharField(max_length=60)
    top_source = models.CharField(max_length=20)
    bottom_source = models.CharField(max_length=20)
    conditional = models.BooleanField(default=False, help_text="Played only if the losers' bracket team wins.")
    top_team = models.ForeignKey(Team, on_delete=models.RESTRICT, null=True, blank=True, related_name="+")
    bottom_team = models.ForeignKey(Team, on_delete=models.RESTRICT, null=True, blank=True, related_name="+")
    table = models.OneToOneField(Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="playoff_match")
    winner = models.ForeignKey(Team, on_delete=models.RESTRICT, null=True, blank=True, related_name="+")
    loser = models.ForeignKey(Team, on_delete=models.RESTRICT, null=True, blank=True, related_name="+")
    not_needed = models.BooleanField(default=False, help_text="A reset the winners' bracket team made unnecessary.")

    class Meta:
        ordering = ["tournament", "stage", "code"]
        constraints = [models.UniqueConstraint(fields=["tournament", "code"], name="playoff_match_code_unique")]

    def __str__(self):
        return f"{self.tournament.name}: {self.label}"
