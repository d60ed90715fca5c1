"""Series: tournaments across events gathered for a points race, with their points table."""

from typing import Any

from django.db import IntegrityError, transaction

from scoring.series import SeriesPoints
from tournament.errors import ServiceError, engine_refusal
from tournament.models import LogEntry, Series, SeriesTournament, Tournament
from tournament.services.changes import Changed, changed
from tournament.services.events import free_slug
from tournament.services.log import Actor, actor_of, log_write
from tournament.typed import text_checked


def _clean_name(name: str) -> str:
    name = text_checked(name or "", what="The series' name", limit=120, field="name")
    if not name:
        raise ServiceError("A series needs a name.", field="name")
    return name


def _points_table(points: dict | None) -> dict:
    with engine_refusal("points"):
        return SeriesPoints.from_dict(points or {}).to_dict()


def _name_free(name: str, series: Series | None = None) -> None:
    taken = Series.objects.filter(name__iexact=name)
    if series is not None:
        taken = taken.exclude(pk=series.pk)
    if taken.exists():
        raise ServiceError(f"There is already a series named {name}.", field="name")


def _series_changed(actor: Actor | None, summary: str, **details: Any) -> None:
    """Every change to a series (its name, points table and tournaments) is logged as one action, and said."""
    log_write(actor=actor_of(actor), action=LogEntry.Action.SERIES_CHANGED, summary=summary, **details)
    changed(Changed.SERIES)


@transaction.atomic
def series_create(*, name: str, points: dict | None = None, actor: Actor | None = None) -> Series:
    """A new series; ``points`` overrides entries of the default table (champion 6, runner-up 3, ...)."""
    name = _clean_name(name)
    _name_free(name)
    try:
        with transaction.atomic():
            series = Series.objects.create(name=name, slug=free_slug(Series, name), points_data=_points_table(points))
    except IntegrityError:  # another desk created it since the check
        raise ServiceError(f"There is already a series named {name}.", field="name") from None
    _series_changed(actor, f"Series {series.name} created", after={"series": series.pk, "points": series.points_data})
    return series


@transaction.atomic
def series_update(
    *, series: Series, name: str | None = None, points: dict | None = None, actor: Actor | None = None
) -> Series:
    series = Series.objects.select_for_update().get(pk=series.pk)
    before = {"name": series.name, "points": series.points_data}
    if name is not None:
        series.name = _clean_name(name)
        _name_free(series.name, series)
    if points is not None:
        series.points_data = _points_table(points)
    after = {"name": series.name, "points": series.points_data}
    if after != before:
        series.save(update_fields=["name", "points_data"])
        _series_changed(actor, f"Series {before['name']} changed", before=before, after=after)
    return series


@transaction.atomic
def series_tournament_add(*, series: Series, tournament: Tournament, actor: Actor | None = None) -> SeriesTournament:
    series = Series.objects.select_for_update().get(pk=series.pk)
    if SeriesTournament.objects.filter(series=series, tournament=tournament).exists():
        raise ServiceError(f"{tournament} is already in the series {series}.", field="tournament")
    try:
        with transaction.atomic():
            entry = SeriesTournament.objects.create(series=series, tournament=tournament)
    except IntegrityError:
        raise ServiceError(f"{tournament} is already in the series {series}.", field="tournament") from None
    _series_changed(
        actor, f"{tournament} added to the series {series}", after={"series": series.pk, "tournament": tournament.pk}
    )
    return entry


@transaction.atomic
def series_tournament_remove(*, series: Series, tournament: Tournament, actor: Actor | None = None) -> None:
    series = Series.objects.select_for_update().get(pk=series.pk)
    removed, _ = SeriesTournament.objects.filter(series=series, tournament=tournament).delete()
    if not removed:
        raise ServiceError(f"{tournament} is not in the series {series}.", field="tournament")
    _series_changed(
        actor,
        f"{tournament} removed from the series {series}",
        before={"series": series.pk, "tournament": tournament.pk},
    )
