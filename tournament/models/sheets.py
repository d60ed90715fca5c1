"""A table's score sheet: its deals in order, penalties and rulings, and the teams' signatures."""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.text import capfirst

import scoring
from scoring import BidKind, BidOutOfTurnChoice, Direction, Pair, PenaltyKind, Seat, Suit
from tournament.models.events import Player
from tournament.models.rounds import Table


def contract_of(level: int, kind: str, suit: str, direction: str) -> scoring.Contract:
    """A stored bid with its trump or no-trump direction, as the engine reads it."""
    return scoring.Contract(
        scoring.Bid(level, BidKind(kind)), Suit(suit) if suit else None, Direction(direction) if direction else None
    )


class DealEntry(models.Model):
    """What a scorekeeper enters of a played deal, declared once for a hand and a team's own entry of it.

    A field declared here is on both models, in the hand form (``forms.table``), the history, the archive
    (``services.archive.schema``) and, unless the contract shows it, among the details every sheet lists.
    Blank for a re-deal, which has a dealer only.
    """

    dealer = models.CharField(max_length=1, choices=Seat.choices())
    bidder = models.CharField(max_length=1, choices=Seat.choices(), blank=True)
    level = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(7)]
    )
    kind = models.CharField(max_length=4, choices=BidKind.choices(), blank=True)
    suit = models.CharField("trump, if named", max_length=8, choices=Suit.choices(), blank=True)
    direction = models.CharField(
        "No Trump played",
        max_length=4,
        choices=Direction.choices(),
        blank=True,
        help_text=f"{Direction.UP.label} if none named.",
    )
    books = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(13)], help_text="Bidding team's books as played."
    )

    # The entries the sheets show as the seats and the contract ("4 Uptown ♥ by North, 7 books").
    SHOWN_AS_CONTRACT = ("dealer", "bidder", "level", "kind", "suit", "direction", "books")

    class Meta:
        abstract = True

    @property
    def details(self) -> list[tuple[str, str]]:
        """The other entries made of this deal, each as (its name, what was entered), for every sheet to list."""
        return [
            (deal_label(field), str(getattr(self, f"get_{field.name}_display")() if field.choices else value))
            for field in deal_details()
            if (value := getattr(self, field.name)) not in ("", None)
        ]


def deal_details() -> list[models.Field]:
    """The deal's entries the contract does not show."""
    return [field for field in DealEntry._meta.fields if field.name not in DealEntry.SHOWN_AS_CONTRACT]


def deal_label(field: models.Field) -> str:
    """A deal's entry as every sheet and form names it."""
    return str(capfirst(field.verbose_name))


# What a scorekeeper enters of a played deal, as ``DealEntry`` declares it.
DEAL_ENTRY = tuple(field.name for field in DealEntry._meta.fields)


class Hand(DealEntry):
    """One deal at a table, in the order dealt: a played hand, or a re-deal that does not count.

    The scorekeeper's entries are the first group of fields; the rest are the scoring engine's
    results, stored so standings only sum them, and rewritten whenever the sheet changes.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    sequence = models.PositiveSmallIntegerField(help_text="Order in which the deals were dealt.")
    misdeal = models.BooleanField(default=False)
    by_staff = models.BooleanField(
        default=False, help_text="Entered or last changed by staff: the table link may not change it."
    )
    entered_by = models.CharField(
        max_length=2, choices=Pair.choices(), blank=True, help_text="The team that entered it (blank: staff)."
    )
    accepted_at = models.DateTimeField(null=True, blank=True, help_text="When the other team accepted it.")
    entry_id = models.CharField(
        max_length=40, blank=True, help_text="The phone's own id for the entry: a repeated send is recognised."
    )

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

    # What was entered of a deal and by whom: what removing and putting back a hand keeps, and the archive.
    ENTRY_FIELDS = ("sequence", "misdeal", *DEAL_ENTRY, "by_staff", "entered_by", "entry_id")

    class Meta:
        ordering = ["table", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["table", "sequence"], name="hand_sequence_unique_at_table"),
            models.UniqueConstraint(
                fields=["table", "entry_id"], condition=~Q(entry_id=""), name="hand_entry_recorded_once"
            ),
            models.CheckConstraint(
                condition=Q(level__isnull=True) | Q(level__gte=1, level__lte=7), name="hand_bid_level_range"
            ),
            models.CheckConstraint(condition=Q(books__isnull=True) | Q(books__lte=13), name="hand_books_range"),
            models.CheckConstraint(
                condition=(
                    Q(bidder="", level__isnull=True, kind="", books__isnull=True)
                    | (~Q(bidder="") & Q(level__isnull=False) & ~Q(kind="") & Q(books__isnull=False))
                ),
                name="hand_bid_all_or_nothing",
            ),
        ]

    def __str__(self):
        if not self.level:
            return f"Table {self.table.number}, re-deal of hand {self.hand_number}"
        return f"Table {self.table.number}, hand {self.hand_number}: {self.bid_text}"

    @property
    def contract(self) -> scoring.Contract | None:
        """The winning bid with its trump or direction; None for a re-deal."""
        if not self.level:
            return None
        return contract_of(self.level, self.kind, self.suit, self.direction)

    @property
    def bid_text(self) -> str:
        """The bid in tournament words with its trump or direction: "4 Special ♥", "3 No (down)"."""
        return str(self.contract) if self.level else ""

    def to_engine(self, penalties: tuple[scoring.Penalty, ...] = ()) -> scoring.Deal:
        """The deal as the engine sees it; ScoringError for an impossible combination of entries."""
        return scoring.Deal(
            dealer=Seat(self.dealer),
            bidder=Seat(self.bidder) if self.bidder else None,
            bid=scoring.Bid(self.level, BidKind(self.kind)) if self.level else None,
            books=self.books,
            misdeal=self.misdeal,
            penalties=penalties,
        )

    def points(self, pair: str) -> int:
        return self.ns_points if pair == Pair.NORTH_SOUTH else self.ew_points

    @property
    def accepting_pair(self) -> Pair | None:
        """The team that accepts the hand when opponents accept each hand: the one that did not enter it."""
        return Pair(self.entered_by).other if self.entered_by else None


class Penalty(models.Model):
    """A penalty on a hand (or, for a director's ruling, on the round), from the rule sheet."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="penalties")
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, null=True, blank=True, related_name="penalties")
    kind = models.CharField(max_length=20, choices=PenaltyKind.choices())
    team = models.CharField(
        max_length=2, choices=Pair.choices(), help_text="The offending team (for a ruling: the team it scores for)."
    )
    count = models.PositiveSmallIntegerField(default=1)
    choice = models.CharField(max_length=12, choices=BidOutOfTurnChoice.choices(), blank=True)
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

    # What was entered of a penalty (its author aside): what removing and putting it back keeps, and the archive.
    ENTRY_FIELDS = ("kind", "team", "count", "choice", "before_bidding", "points", "reason")

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
    def by_staff(self) -> bool:
        """Entered by staff (a ruling, or a penalty a director applied): the table link may not undo it."""
        return self.created_by_id is not None or self.kind == PenaltyKind.DIRECTOR_RULING

    def to_engine(self) -> scoring.Penalty:
        return scoring.Penalty(
            kind=PenaltyKind(self.kind),
            team=Pair(self.team),
            count=self.count,
            choice=BidOutOfTurnChoice(self.choice) if self.choice else None,
            before_bidding=self.before_bidding,
            points=self.points,
        )

    @property
    def description(self) -> str:
        return self.to_engine().describe(warning=self.warning, reason=self.reason)

    @property
    def removable(self) -> bool:
        """Whether it can be undone on its own (the penalty that caused a re-deal goes with the re-deal)."""
        return self.to_engine().removable


class Signature(models.Model):
    """A player confirming the sheet for their team; both teams signed locks it. Whoever sat for the team
    signs: one of its own players, or the substitute approved for the round in a player's place."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="signatures")
    pair = models.CharField(max_length=2, choices=Pair.choices())
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="+", null=True, blank=True)
    substitute = models.ForeignKey(
        "tournament.Substitute",
        on_delete=models.RESTRICT,
        related_name="signatures",
        null=True,
        blank=True,
        help_text="The substitute who signed, in place of the player they replaced that round.",
    )
    device = models.CharField(max_length=100, blank=True, help_text="The phone the team signed on.")
    signed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "pair"]
        constraints = [
            models.UniqueConstraint(fields=["table", "pair"], name="one_signature_per_team"),
            models.CheckConstraint(
                condition=Q(player__isnull=False, substitute__isnull=True)
                | Q(player__isnull=True, substitute__isnull=False),
                name="signed_by_a_player_or_the_substitute",
            ),
        ]

    def __str__(self):
        return f"{self.signer_name} signed for {self.get_pair_display()} at table {self.table.number}"

    @property
    def signer_name(self) -> str:
        """Who signed: the player, or the substitute (select_related both where a page lists signatures)."""
        signer = self.substitute or self.player
        assert signer is not None, "a signature is a player's or a substitute's"
        return signer.name


class HandSubmission(DealEntry):
    """One team's own entry of a deal in blind double entry, kept until the other team's agrees.

    ``sequence`` is the place on the sheet the deal will take. A re-deal has a reason and no bid.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="submissions")
    pair = models.CharField(max_length=2, choices=Pair.choices())
    sequence = models.PositiveSmallIntegerField()
    redeal_reason = models.CharField(max_length=20, choices=scoring.RedealReason.choices(), blank=True)
    redeal_team = models.CharField(max_length=2, choices=Pair.choices(), blank=True)
    device = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "sequence", "pair"]
        constraints = [
            models.UniqueConstraint(fields=["table", "pair", "sequence"], name="one_submission_per_team_and_deal")
        ]

    def __str__(self):
        return f"{self.get_pair_display()}'s entry of deal {self.sequence} at table {self.table.number}"

    ENTRY_FIELDS = ("redeal_reason", "redeal_team", *DEAL_ENTRY)

    def entry(self) -> dict:
        """What the team entered, to compare with the other team's."""
        return {name: getattr(self, name) for name in self.ENTRY_FIELDS}

    @property
    def words(self) -> str:
        """The entry as a player reads it: "4 Special ♥ by East, 10 books (dealt by North)"."""
        dealt = f"dealt by {Seat(self.dealer).label}"
        if self.redeal_reason:
            return f"Re-deal: {scoring.RedealReason(self.redeal_reason).label.lower()} ({dealt})"
        assert self.level is not None, "a played hand has a bid"
        contract = contract_of(self.level, self.kind, self.suit, self.direction)
        return f"{contract} by {Seat(self.bidder).label}, {self.books} books ({dealt})"
