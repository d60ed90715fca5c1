"""The playoff: seeds taken from the standings and the bracket's matches."""

from django.db import models
from django.db.models import Q

from tournament.models.events import Team, Tournament
from tournament.models.rounds import Table


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
