"""The archive's players across events (version 5): the persons the event's players are linked to and the
series its tournaments are in, each named by its key, the same in every database (docs/archive.md).

Ratings are not written: the import makes them again from the signed rounds, as linking does.
"""

from collections import defaultdict

from scoring import ScoringError
from scoring.series import SeriesPoints
from tournament.models import Event, Person, Player, Series, SeriesTournament, Tournament
from tournament.services.archive import schema
from tournament.services.archive.sheets import refuse
from tournament.services.events import free_slug


def persons_export(players: list[Player]) -> tuple[list[dict], dict[int, int]]:
    """The persons of ``players`` (with their person loaded) and each person's id in the file, by pk."""
    persons = sorted(
        {person.pk: person for player in players if (person := player.person) is not None}.values(),
        key=lambda person: (person.name, person.city, str(person.key)),
    )
    ids = {person.pk: index for index, person in enumerate(persons, start=1)}
    data = [{"id": ids[p.pk], "key": str(p.key), "name": p.name, "city": p.city, "hidden": p.hidden} for p in persons]
    return data, ids


def series_export(event: Event, tournaments: list[Tournament]) -> list[dict]:
    """Every series holding one of the event's tournaments, with those tournaments (in the event's order)."""
    order = {tournament.pk: index for index, tournament in enumerate(tournaments)}
    slugs = {tournament.pk: tournament.slug for tournament in tournaments}
    entries = SeriesTournament.objects.filter(tournament__event=event).select_related("series")
    held: dict[Series, list[int]] = defaultdict(list)
    for entry in entries:
        held[entry.series].append(entry.tournament_id)
    return [
        {
            "key": str(series.key),
            "name": series.name,
            "slug": series.slug,
            "points": series.points_data,
            "tournaments": [slugs[pk] for pk in sorted(held[series], key=order.__getitem__)],
        }
        for series in sorted(held, key=lambda series: (series.name, series.pk))
    ]


def persons_resolve(archive: schema.Archive, *, as_copy: bool) -> dict[int, Person]:
    """The persons of the file by their id in it: the database's person of the same key, or a new one.

    A person hidden in the file is hidden here too (a request to stay off the public pages is never lost).
    Two players of one tournament linked to one person refuse the file. A copy links no player to a person:
    it is the same event loaded beside, whose results must not count twice."""
    ids: dict[int, str] = {}
    keys: dict[str, str] = {}
    for index, entry in enumerate(archive.persons):
        path = f"persons[{index}]"
        if entry.id in ids:
            refuse(f"{path}.id", f"the same id as {ids[entry.id]}")
        if entry.key in keys:
            refuse(f"{path}.key", f"the same person as {keys[entry.key]}")
        ids[entry.id], keys[entry.key] = path, path
    for index, player in enumerate(archive.players):
        if player.person is not None and player.person not in ids:
            refuse(f"players[{index}].person", f"no person with id {player.person}")
    _persons_once_per_tournament(archive)
    if as_copy or not archive.persons:
        return {}
    known = {str(person.key): person for person in Person.objects.filter(key__in=keys)}
    made = [
        Person(key=entry.key, name=entry.name.strip(), city=entry.city, hidden=entry.hidden)
        for entry in archive.persons
        if entry.key not in known
    ]
    Person.objects.bulk_create(made)
    to_hide = [known[entry.key].pk for entry in archive.persons if entry.hidden and entry.key in known]
    Person.objects.filter(pk__in=to_hide, hidden=False).update(hidden=True)
    found = {**known, **{str(person.key): person for person in made}}
    return {entry.id: found[entry.key] for entry in archive.persons}


def _persons_once_per_tournament(archive: schema.Archive) -> None:
    person_of = {player.id: player.person for player in archive.players}
    for t_index, tournament in enumerate(archive.tournaments):
        seen: dict[int, str] = {}
        for team_index, team in enumerate(tournament.teams):
            for index, player in enumerate(team.players):
                person = person_of.get(player)
                if person is None:
                    continue
                where = f"tournaments[{t_index}].teams[{team_index}].players[{index}]"
                if person in seen:
                    refuse(where, f"the same person as {seen[person]}: a person is one player of a tournament")
                seen[person] = where


def series_import(archive: schema.Archive, tournaments: dict[str, Tournament], *, as_copy: bool) -> int:
    """Put the event's tournaments (by their slug in the file) in their series: the database's series of
    the same key (its own name and points table kept), or a new one. Returns how many series. A copy joins
    none."""
    keys: dict[str, str] = {}
    plans = []
    for index, entry in enumerate(archive.series):
        path = f"series[{index}]"
        if entry.key in keys:
            refuse(f"{path}.key", f"the same series as {keys[entry.key]}")
        keys[entry.key] = path
        try:
            points = SeriesPoints.from_dict(entry.points).to_dict()
        except ScoringError as error:
            refuse(f"{path}.points", str(error))
        members = []
        for t_index, slug in enumerate(entry.tournaments):
            where = f"{path}.tournaments[{t_index}]"
            if slug not in tournaments:
                refuse(where, f"no tournament {slug!r} in this file")
            if tournaments[slug] in members:
                refuse(where, f"{slug!r} is already in this series: a tournament is in a series once")
            members.append(tournaments[slug])
        plans.append((path, entry, points, members))
    if as_copy:
        return 0
    known = {str(series.key): series for series in Series.objects.filter(key__in=keys)}
    joined = []
    for path, entry, points, members in plans:
        series = known.get(entry.key)
        if series is None:
            name = " ".join(entry.name.split())
            if Series.objects.filter(name__iexact=name).exists():
                refuse(f"{path}.name", f"another series named {name!r} is in this database: rename one of them")
            series = Series.objects.create(
                key=entry.key, name=name, slug=free_slug(Series, entry.slug), points_data=points
            )
        joined += [SeriesTournament(series=series, tournament=tournament) for tournament in members]
    SeriesTournament.objects.bulk_create(joined)
    return len(plans)
