"""Money at the desk (the rules, Money): what each team paid or was refunded, and the prizes paid out."""

from django.db import models
from django.db.models import Q

from scoring.places import Place
from tournament.models.events import Team, Tournament


class Pot(models.TextChoices):
    ENTRY = "entry", "Entry fee"
    SIDE_POT = "side_pot", "Side pot"


PRIZE_FROM: dict[str, str] = {Pot.ENTRY: "Prize pool", Pot.SIDE_POT: "Side pot"}


class Payment(models.Model):
    """Money received from a team at the desk, or handed back to it (a refund, with its reason). A payment booked
    by mistake is voided, never deleted: it stays in the team's money history, counted nowhere."""

    class Method(models.TextChoices):
        CASH = "cash", "Cash"
        CARD = "card", "Card"
        OTHER = "other", "Other"

    class Kind(models.TextChoices):
        RECEIVED = "received", "Received"
        REFUND = "refund", "Refund"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="payments")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="payments")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.RECEIVED)
    pot = models.CharField(max_length=8, choices=Pot.choices, default=Pot.ENTRY)
    amount = models.DecimalField(max_digits=8, decimal_places=2)
    method = models.CharField(max_length=5, choices=Method.choices, default=Method.CASH)
    reason = models.CharField(max_length=200, blank=True)
    recorded_by = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    voided_at = models.DateTimeField(null=True, blank=True, help_text="When it was voided (booked by mistake).")
    voided_reason = models.CharField(max_length=200, blank=True)
    voided_by = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["tournament", "created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="payment_amount_positive"),
            models.CheckConstraint(condition=~Q(kind="refund") | ~Q(reason=""), name="payment_refund_has_reason"),
            models.CheckConstraint(
                condition=Q(voided_at__isnull=True) | ~Q(voided_reason=""), name="payment_void_has_reason"
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} {self.amount} ({self.get_pot_display()}) team #{self.team.number}"

    @property
    def signed_amount(self):
        return -self.amount if self.kind == self.Kind.REFUND else self.amount


class Payout(models.Model):
    """A prize handed to a team, as the payout sheet had it when paid; the team confirms with its code."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="payouts")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="payouts")
    pot = models.CharField(max_length=8, choices=Pot.choices)
    place_number = models.PositiveSmallIntegerField(help_text="The place paid, as the payout sheet had it.")
    place_shared = models.BooleanField(default=False, help_text="Whether other teams shared that place.")
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    paid_by = models.CharField(max_length=150, blank=True)
    paid_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True, help_text="When the team confirmed with its code.")
    confirmed_on = models.CharField(max_length=100, blank=True, help_text="Where: the team's phone or the desk.")

    class Meta:
        ordering = ["tournament", "pot", "paid_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["team", "pot"], name="payout_once_per_team_and_pot"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="payout_amount_positive"),
        ]

    def __str__(self):
        return f"{self.pot_name} {self.place}: {self.amount} to team #{self.team.number}"

    @property
    def place(self) -> Place:
        return Place(self.place_number, self.place_shared)

    @property
    def pot_name(self) -> str:
        """What the prize is paid from, in words: the prize pool (of the entry fees) or the side pot."""
        return PRIZE_FROM[self.pot]
