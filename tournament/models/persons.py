"""Players across events: the person above each event's player records, series of tournaments, and the
ratings a recompute stores (the rules, Players across events)."""

import uuid

from django.db import models
from django.db.models import Q

from scoring.rating import START_DEVIATION, START_RATING, START_VOLATILITY
from scoring.series import SERIES_POINTS_DEFAULT, SeriesPoints
from tournament.models.events import Tournament

HIDDEN_NAME = "a player"


class Person(models.Model):
    """One human across events; the director links each event's player record to one, never silently."""

    name = models.CharField(max_length=120)
    city = models.CharField(max_length=120, blank=True, help_text="City or club.")
    hidden = models.BooleanField(
        default=False, help_text="At the person's request: public pages show them as “a player” and no page of theirs."
    )
    key = models.UUIDField(
        default=uuid.uuid4, unique=True, editable=False, help_text="The same person in every database (archives)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "city", "pk"]

    def __str__(self):
        return f"{self.name} ({self.city})" if self.city else self.name

    @property
    def public_name(self) -> str:
        return HIDDEN_NAME if self.hidden else self.name


def series_points_default() -> dict:
    return dict(SERIES_POINTS_DEFAULT)


class Series(models.Model):
    """A season or a race ("Tournament of Champions"): tournaments across events and a points table."""

    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=80, unique=True)
    points_data = models.JSONField(default=series_points_default, help_text="The points table (series_points).")
    tournaments = models.ManyToManyField(Tournament, through="SeriesTournament", related_name="series")
    key = models.UUIDField(
        default=uuid.uuid4, unique=True, editable=False, help_text="The same series in every database (archives)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "series"

    def __str__(self):
        return self.name

    @property
    def points(self) -> SeriesPoints:
        return SeriesPoints.from_dict(self.points_data)


class SeriesTournament(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="entries")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="series_entries")

    class Meta:
        ordering = ["series", "tournament__event__starts_on", "tournament__created_at", "tournament__pk"]
        constraints = [
            models.UniqueConstraint(fields=["series", "tournament"], name="series_tournament_once"),
        ]

    def __str__(self):
        return f"{self.tournament} in {self.series}"


class PersonRating(models.Model):
    """A person's Glicko-2 rating as the last recompute left it (never edited by hand)."""

    person = models.OneToOneField(Person, on_delete=models.CASCADE, related_name="rating")
    rating = models.FloatField(default=START_RATING)
    deviation = models.FloatField(default=START_DEVIATION)
    volatility = models.FloatField(default=START_VOLATILITY)
    rounds = models.PositiveIntegerField(default=0, help_text="Signed rounds the rating is made of.")
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["-rating"]
        constraints = [
            models.CheckConstraint(condition=Q(deviation__gt=0), name="person_rating_deviation_positive"),
            models.CheckConstraint(condition=Q(rounds__gte=1), name="person_rating_from_signed_rounds"),
        ]

    def __str__(self):
        return f"{self.person}: {self.rating:.0f} ± {2 * self.deviation:.0f}"
