"""Creating and changing events and tournaments."""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from scoring import RuleSet, ScoringError
from tournament.errors import ServiceError
from tournament.models import STANDINGS_ORDERS, Announcement, Event, Tournament


def _free_slug(model, *candidates: str) -> str:
    """The first candidate slug not taken, else the last with a counter."""
    bases = [slugify(candidate)[:70] or "event" for candidate in candidates]
    for base in bases:
        if not model.objects.filter(slug=base).exists():
            return base
    counter = 2
    while model.objects.filter(slug=f"{bases[-1]}-{counter}").exists():
        counter += 1
    return f"{bases[-1]}-{counter}"


def _check_dates(starts_on: datetime.date, ends_on: datetime.date) -> None:
    if ends_on < starts_on:
        raise ServiceError("The event cannot end before it starts.", field="ends_on")


@transaction.atomic
def event_create(*, name: str, starts_on: datetime.date, ends_on: datetime.date, venue: str = "") -> Event:
    _check_dates(starts_on, ends_on)
    slug = _free_slug(Event, name, f"{name} {starts_on.year}")
    return Event.objects.create(name=name, slug=slug, venue=venue, starts_on=starts_on, ends_on=ends_on)


@transaction.atomic
def event_update(
    *, event: Event, name: str, starts_on: datetime.date, ends_on: datetime.date, venue: str = ""
) -> Event:
    _check_dates(starts_on, ends_on)
    event.name, event.venue, event.starts_on, event.ends_on = name, venue, starts_on, ends_on
    event.save(update_fields=["name", "venue", "starts_on", "ends_on"])
    return event


def _check_tournament_name(event: Event, name: str, exclude: Tournament | None = None) -> None:
    clashes = event.tournaments.filter(name__iexact=name)
    if exclude is not None:
        clashes = clashes.exclude(pk=exclude.pk)
    clash = clashes.first()
    if clash is not None:
        raise ServiceError(f"{event.name} already has a tournament called {clash.name}.", field="name")


@transaction.atomic
def tournament_create(
    *,
    event: Event,
    name: str,
    preset: str = "tournament",
    qualifying_rounds: int = 3,
    paper_size: str = Tournament.PaperSize.LETTER,
    standings_order: str = "",
    avoid_same_city_rounds: int = 2,
) -> Tournament:
    """A tournament in set-up, its rule set copied from a preset the director can then change."""
    _check_tournament_name(event, name)
    try:
        rules = RuleSet.preset(preset)
    except ScoringError as error:
        raise ServiceError(str(error), field="preset") from None
    slug = _free_slug(Tournament, name, f"{event.name} {name}")
    return Tournament.objects.create(
        event=event,
        name=name,
        slug=slug,
        rules_data=rules.to_dict(),
        qualifying_rounds=qualifying_rounds,
        paper_size=paper_size,
        standings_order=standings_order or STANDINGS_ORDERS[0][0],
        avoid_same_city_rounds=avoid_same_city_rounds,
    )


@transaction.atomic
def tournament_update(
    *,
    tournament: Tournament,
    name: str,
    qualifying_rounds: int,
    paper_size: str,
    standings_order: str | None = None,
    avoid_same_city_rounds: int | None = None,
) -> Tournament:
    _check_tournament_name(tournament.event, name, exclude=tournament)
    drawn = tournament.rounds.filter(kind="qualifying").count()
    if qualifying_rounds < drawn:
        raise ServiceError(
            f"{drawn} qualifying rounds are already drawn; the tournament cannot have fewer.",
            field="qualifying_rounds",
        )
    tournament.name, tournament.qualifying_rounds, tournament.paper_size = name, qualifying_rounds, paper_size
    if standings_order is not None:
        if standings_order not in dict(STANDINGS_ORDERS):
            raise ServiceError("Choose one of the standings orders.", field="standings_order")
        tournament.standings_order = standings_order
    if avoid_same_city_rounds is not None:
        tournament.avoid_same_city_rounds = avoid_same_city_rounds
    tournament.save()
    return tournament


@transaction.atomic
def announcement_post(*, tournament: Tournament, text: str, hours: int | None = None) -> Announcement:
    """A short message on the tournament's public home, until it expires or is removed."""
    text = " ".join(text.split())
    if not text:
        raise ServiceError("Write the announcement.", field="text")
    expires_at = timezone.now() + datetime.timedelta(hours=hours) if hours else None
    return Announcement.objects.create(tournament=tournament, text=text, expires_at=expires_at)


@transaction.atomic
def announcement_remove(*, announcement: Announcement) -> None:
    announcement.delete()


@transaction.atomic
def tournament_rules_set(*, tournament: Tournament, rules: RuleSet) -> Tournament:
    """Store a new rule set; refused once hands are scored under the old one."""
    if tournament.rounds.exclude(status="draft").exists():
        raise ServiceError("The rules cannot change once a round is published: hands already scored would change.")
    tournament.rules_data = rules.to_dict()
    tournament.save(update_fields=["rules_data"])
    return tournament
