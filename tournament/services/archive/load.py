"""Loading an archive into the database: all or nothing, every score recomputed by the engine.

The file is first read and checked against the schema (``reading.py``); then every part that depends on
another is checked as it is loaded (a tournament's parts in ``tournaments.py``). The first problem refuses the
whole file, named by its place in it; nothing is written.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DataError, IntegrityError, transaction

from tournament.errors import ServiceError
from tournament.models import (
    Event,
    LogEntry,
    Player,
    Table,
    Tournament,
)
from tournament.services.archive import schema
from tournament.services.archive.persons import persons_resolve, series_import
from tournament.services.archive.reading import archive_checked
from tournament.services.archive.sheets import (
    import_log,
    refuse,
    set_times,
)
from tournament.services.archive.tournaments import tournament_import
from tournament.services.changes import Changed, changed
from tournament.services.events import free_slug
from tournament.services.log import Actor, actor_of, log_write
from tournament.services.ratings import RATINGS_FOLLOWED, ratings_follow_players


def _secrets_check(archive: schema.Archive, as_copy: bool) -> None:
    """Every table's private link is its own: not twice in the file, not already in this database (a copy
    makes new ones)."""
    if as_copy:
        return
    places: dict[str, str] = {}
    for t_index, tournament in enumerate(archive.tournaments):
        for r_index, round_ in enumerate(tournament.rounds):
            for index, table in enumerate(round_.tables):
                path = f"tournaments[{t_index}].rounds[{r_index}].tables[{index}]"
                if table.secret in places:
                    refuse(f"{path}.secret", f"the same private link as {places[table.secret]}")
                places[table.secret] = path
    taken = set(Table.objects.filter(secret__in=places).values_list("secret", flat=True)) if places else set()
    for secret, path in places.items():
        if secret in taken:
            refuse(f"{path}.secret", "this table's private link is already used in this database")


def _user_lookup() -> Callable[[str], int | None]:
    users = dict(get_user_model().objects.values_list("username", "pk"))
    return lambda name: users.get(name) if name else None


@dataclass(frozen=True)
class ImportReport:
    """What an import did beyond loading the file: the teams given a new code because another team of
    this database held theirs (``"Main Event team #3"``)."""

    event: Event
    new_codes: list[str]


def event_import(*, data: Any, as_copy: bool = False, actor: Actor | None = None) -> Event:
    """Load an archive into a database that does not have its event; all or nothing.

    ``as_copy`` loads a copy beside what the database holds: every table gets a new private link, every
    team a new code, and an event or tournament whose address is taken gets a free one (the demo event,
    whose archive is public, is loaded that way).
    """
    return archive_import(data=data, as_copy=as_copy, actor=actor).event


def archive_import(*, data: Any, as_copy: bool = False, actor: Actor | None = None) -> ImportReport:
    """``event_import``, saying which teams were given a new code."""
    archive = archive_checked(data)
    try:
        return _load(archive, as_copy=as_copy, actor=actor)
    except (IntegrityError, DataError) as error:
        raise ServiceError(
            f"The archive does not fit this database ({error.__class__.__name__}): nothing imported."
        ) from None


@transaction.atomic
def _load(archive: schema.Archive, *, as_copy: bool, actor: Actor | None) -> ImportReport:
    ev = archive.event
    slug = ev.slug
    if as_copy:
        slug = free_slug(Event, slug)
    elif Event.objects.filter(slug=slug).exists():
        refuse("event.slug", f"an event {slug!r} is already in this database")
    if ev.ends_on < ev.starts_on:
        refuse("event.ends_on", "the event ends before it starts")
    event = Event.objects.create(name=ev.name, slug=slug, venue=ev.venue, starts_on=ev.starts_on, ends_on=ev.ends_on)
    set_times(Event, event.pk, created_at=ev.created_at)
    user_pk = _user_lookup()
    renewed: list[str] = []

    _secrets_check(archive, as_copy)
    persons = persons_resolve(archive, as_copy=as_copy)
    players: dict[int, Player] = {}
    seen_names: dict[tuple[str, str], str] = {}
    for index, entry in enumerate(archive.players):
        path = f"players[{index}]"
        if entry.id in players:
            refuse(f"{path}.id", f"player id {entry.id} is used twice")
        name = entry.name.strip()
        key = (name.casefold(), entry.city.casefold())
        if key in seen_names:
            refuse(path, f"the same player as {seen_names[key]}")
        seen_names[key] = path
        person = persons.get(entry.person) if entry.person is not None else None
        players[entry.id] = Player(event=event, name=name, city=entry.city, phone=entry.phone, person=person)
    Player.objects.bulk_create(players.values())

    def player(value: int, path: str) -> Player:
        if value not in players:
            refuse(path, f"no player with id {value!r}")
        return players[value]

    import_log(archive.log, "log", event=event)
    names: dict[str, str] = {}
    slugs: dict[str, str] = {}
    tournaments: dict[str, Tournament] = {}
    for index, data in enumerate(archive.tournaments):
        path = f"tournaments[{index}]"
        for seen, value, what in ((names, data.name.casefold(), "name"), (slugs, data.slug, "slug")):
            if value in seen:
                refuse(f"{path}.{what}", f"the same {what} as {seen[value]}")
            seen[value] = path
        tournaments[data.slug] = tournament_import(event, data, path, player, user_pk, as_copy, renewed)
    series = series_import(archive, tournaments, as_copy=as_copy)
    event.refresh_from_db()
    summary = f"Event {event.name} imported from an archive (version {archive.version})"
    linked = sum(1 for player in players.values() if player.person_id)
    if linked or series:
        summary += f"; {linked} players linked to {len(set(persons.values()))} persons, in {series} series"
    if renewed:
        summary += f"; new codes for {len(renewed)} teams whose code another team here holds"
    if linked and ratings_follow_players(players=[player for player in players.values() if player.person_id]):
        summary += RATINGS_FOLLOWED
    log_write(actor=actor_of(actor), action=LogEntry.Action.EVENT_IMPORTED, summary=summary, event=event)
    changed(Changed.EVENT, event)
    return ImportReport(event=event, new_codes=renewed)
