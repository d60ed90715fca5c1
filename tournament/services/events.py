"""Creating and changing events and tournaments."""

import datetime
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.text import slugify

from scoring import SETTINGS, TIMING_SETTINGS, RuleSet
from tournament.errors import ServiceError, engine_refusal
from tournament.models import STANDINGS_ORDERS, Announcement, Event, LogEntry, Series, Tournament
from tournament.services.changes import Changed, changed
from tournament.services.log import Actor, actor_of, log_write
from tournament.typed import text_checked

EVENT_FIELDS = ("name", "venue", "starts_on", "ends_on")
TOURNAMENT_FIELDS = (
    "name",
    "qualifying_rounds",
    "paper_size",
    "standings_order",
    "sheet_mode",
    "avoid_same_city_rounds",
)


def _values(record: Model, fields: Iterable[str]) -> dict[str, Any]:
    """A record's fields as plain data for the log (dates as ISO text)."""
    values: dict[str, Any] = {}
    for name in fields:
        value = getattr(record, name)
        values[name] = value.isoformat() if isinstance(value, datetime.date) else value
    return values


def free_slug(model: type[Event] | type[Tournament] | type[Series], *candidates: str) -> str:
    """The first candidate slug not taken, else the last with a counter."""
    bases = [slugify(candidate)[:70] or "event" for candidate in candidates]
    for base in bases:
        if not model.objects.filter(slug=base).exists():
            return base
    counter = 2
    while model.objects.filter(slug=f"{bases[-1]}-{counter}").exists():
        counter += 1
    return f"{bases[-1]}-{counter}"


def _settings_log(
    actor: Actor | None,
    action: str,
    summary: str,
    *,
    event: Event | None = None,
    tournament: Tournament | None = None,
    before: dict[str, Any] | None = None,
    rules: bool = False,
) -> None:
    """Log an event's or a tournament's settings as they are now (``rules``: with its rule set), and before."""
    if tournament is not None:
        after = _values(tournament, TOURNAMENT_FIELDS) | ({"rules": tournament.rules_data} if rules else {})
        log_write(
            actor=actor_of(actor), action=action, summary=summary, before=before, after=after, tournament=tournament
        )
        changed(Changed.TOURNAMENT, tournament)
    elif event is not None:
        after = _values(event, EVENT_FIELDS)
        log_write(actor=actor_of(actor), action=action, summary=summary, before=before, after=after, event=event)
        changed(Changed.EVENT, event)


def _event_checked(name: str, venue: str, starts_on: datetime.date, ends_on: datetime.date) -> tuple[str, str]:
    """The event's name and venue as they are stored, or a refusal beside the field."""
    name = text_checked(name, what="The event's name", limit=120, field="name")
    if not name:
        raise ServiceError("An event needs a name.", field="name")
    if ends_on < starts_on:
        raise ServiceError("The event cannot end before it starts.", field="ends_on")
    return name, text_checked(venue, what="The venue", limit=160, field="venue")


@transaction.atomic
def event_create(
    *, name: str, starts_on: datetime.date, ends_on: datetime.date, venue: str = "", actor: Actor | None = None
) -> Event:
    name, venue = _event_checked(name, venue, starts_on, ends_on)
    slug = free_slug(Event, name, f"{name} {starts_on.year}")
    event = Event.objects.create(name=name, slug=slug, venue=venue, starts_on=starts_on, ends_on=ends_on)
    _settings_log(actor, LogEntry.Action.EVENT_CREATED, f"Event {name} created", event=event)
    return event


@transaction.atomic
def event_update(
    *,
    event: Event,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date,
    venue: str = "",
    actor: Actor | None = None,
) -> Event:
    name, venue = _event_checked(name, venue, starts_on, ends_on)
    before = _values(event, EVENT_FIELDS)
    event.name, event.venue, event.starts_on, event.ends_on = name, venue, starts_on, ends_on
    event.save(update_fields=["name", "venue", "starts_on", "ends_on"])
    _settings_log(actor, LogEntry.Action.EVENT_CHANGED, f"Event {name} changed", event=event, before=before)
    return event


def _tournament_name(event: Event, name: str, exclude: Tournament | None = None) -> str:
    """The tournament's name as stored: plain text, and not another tournament's of the event."""
    name = text_checked(name, what="The tournament's name", limit=120, field="name")
    if not name:
        raise ServiceError("A tournament needs a name.", field="name")
    clashes = event.tournaments.filter(name__iexact=name)
    if exclude is not None:
        clashes = clashes.exclude(pk=exclude.pk)
    clash = clashes.first()
    if clash is not None:
        raise ServiceError(f"{event.name} already has a tournament called {clash.name}.", field="name")
    return name


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
    sheet_mode: str = Tournament.SheetMode.SIGN,
    actor: Actor | None = None,
) -> Tournament:
    """A tournament in set-up, its rule set copied from a preset the director can then change."""
    if sheet_mode not in Tournament.SheetMode.values:
        raise ServiceError("Choose how the teams vouch for their sheets.", field="sheet_mode")
    name = _tournament_name(event, name)
    with engine_refusal("preset"):
        rules = RuleSet.preset(preset)
    slug = free_slug(Tournament, name, f"{event.name} {name}")
    tournament = Tournament.objects.create(
        event=event,
        name=name,
        slug=slug,
        rules_data=rules.to_dict(),
        qualifying_rounds=qualifying_rounds,
        paper_size=paper_size,
        standings_order=standings_order or STANDINGS_ORDERS[0][0],
        avoid_same_city_rounds=avoid_same_city_rounds,
        sheet_mode=sheet_mode,
    )
    summary = f"Tournament {name} created from the {preset} rules"
    _settings_log(actor, LogEntry.Action.TOURNAMENT_CREATED, summary, tournament=tournament, rules=True)
    return tournament


@transaction.atomic
def tournament_update(
    *,
    tournament: Tournament,
    name: str,
    qualifying_rounds: int,
    paper_size: str,
    standings_order: str | None = None,
    avoid_same_city_rounds: int | None = None,
    sheet_mode: str | None = None,
    actor: Actor | None = None,
) -> Tournament:
    name = _tournament_name(tournament.event, name, exclude=tournament)
    before = _values(tournament, TOURNAMENT_FIELDS)
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
    if sheet_mode is not None and sheet_mode != tournament.sheet_mode:
        if sheet_mode not in Tournament.SheetMode.values:
            raise ServiceError("Choose how the teams vouch for their sheets.", field="sheet_mode")
        if tournament.rounds.exclude(status="draft").exists():
            raise ServiceError(
                "How teams vouch for their sheets is fixed once a round is published.", field="sheet_mode"
            )
        tournament.sheet_mode = sheet_mode
    tournament.save()
    _settings_log(
        actor, LogEntry.Action.TOURNAMENT_CHANGED, f"Tournament {name} changed", tournament=tournament, before=before
    )
    return tournament


@transaction.atomic
def announcement_post(
    *, tournament: Tournament, text: str, hours: int | None = None, actor: Actor | None = None
) -> Announcement:
    """A short message on the tournament's public home, until it expires or is removed."""
    text = text_checked(text, what="The announcement", limit=280, field="text")
    if not text:
        raise ServiceError("Write the announcement.", field="text")
    expires_at = timezone.now() + datetime.timedelta(hours=hours) if hours else None
    announcement = Announcement.objects.create(tournament=tournament, text=text, expires_at=expires_at)
    log_write(
        actor=actor_of(actor),
        action=LogEntry.Action.ANNOUNCEMENT_POSTED,
        summary=f"“{text}”",
        tournament=tournament,
        after={"text": text, "hours": hours},
    )
    changed(Changed.ANNOUNCEMENT, announcement.tournament)
    return announcement


@transaction.atomic
def announcement_remove(*, announcement: Announcement, actor: Actor | None = None) -> None:
    log_write(
        actor=actor_of(actor),
        action=LogEntry.Action.ANNOUNCEMENT_REMOVED,
        summary=announcement.text,
        tournament=announcement.tournament,
        before={"text": announcement.text},
    )
    announcement.delete()
    changed(Changed.ANNOUNCEMENT, announcement.tournament)


@transaction.atomic
def tournament_rules_set(*, tournament: Tournament, rules: RuleSet, actor: Actor | None = None) -> Tournament:
    """Store a new rule set. Once a round is published only the time settings may change (the round clock, when
    a forfeit may be declared): the scoring rules would change hands already scored."""
    with engine_refusal():
        rules.warnings_check()
    before, was = tournament.rules_data, tournament.rules.to_dict()
    after = rules.to_dict()
    settings_changed = [name for name, value in after.items() if was[name] != value]
    if tournament.rounds.exclude(status="draft").exists():
        scoring_changed = [SETTINGS[name].label for name in settings_changed if name not in TIMING_SETTINGS]
        if scoring_changed:
            raise ServiceError(
                "The scoring rules cannot change once a round is published: hands already scored would change "
                f"({', '.join(scoring_changed)}). The time settings still can."
            )
    tournament.rules_data = after
    tournament.save(update_fields=["rules_data"])
    log_write(
        actor=actor_of(actor),
        action=LogEntry.Action.RULES_CHANGED,
        summary=", ".join(SETTINGS[name].label for name in settings_changed) or "saved unchanged",
        tournament=tournament,
        before=before,
        after=tournament.rules_data,
    )
    changed(Changed.RULES, tournament)
    return tournament
