"""The archive's persons and series (version 5): two events with overlapping players, linked by the director
from the suggestions, go out as archives and come back into an empty database with the same persons, the
same series and the same standing; older versions still import; bad persons and series refuse the file."""

import copy
import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.tournament.selectors.test_series import fall, spring  # noqa: F401 (fixtures)
from tests.tournament.services.test_playoffs import qualified  # noqa: F401 (fixture)
from tournament.errors import ServiceError
from tournament.models import Event, LogEntry, Person, PersonRating, Player, Series
from tournament.selectors.series import series_standings_of
from tournament.services.archive import event_export, event_import
from tournament.services.archive.schema import VERSION
from tournament.services.persons import person_update
from tournament.services.ratings import ratings_recompute
from tournament.services.series import series_create, series_tournament_add


def standing(series):
    return [(str(row.place), row.name, row.total, row.linked) for row in series_standings_of(series).rows]


def link_from_suggestions(client, event):
    """The director links each player of the event to the person of that name (the page suggests those of
    the same city too), or to a new person."""
    page = client.get(reverse("director:event_persons", args=[event.slug])).content.decode()
    for player in Player.objects.filter(event=event).order_by("pk"):
        suggested = Person.objects.filter(name=player.name, city=player.city).first()
        if suggested:
            assert f"Link to {suggested} #{suggested.pk}" in page
        known = Person.objects.filter(name=player.name).first()
        address = reverse("director:event_person_link", args=[event.slug])
        client.post(address, {"player": player.pk, "person": known.pk if known else ""})
    return page


# The two events' version 4 archives: plain data, played once a test process and the same for every test.
_VERSION_4: list[dict] = []


@pytest.fixture
def version_4_archives(request, db):
    """Both events as version 4 archives (no persons), played through the services the first time; the database
    holds neither event."""
    if not _VERSION_4:
        for name in ("spring", "fall"):
            archive = event_export(request.getfixturevalue(name).event)
            archive["version"] = 4
            del archive["persons"], archive["series"]
            for player in archive["players"]:
                del player["person"]
            _VERSION_4.append(archive)
        Event.objects.all().delete()
    return copy.deepcopy(_VERSION_4)


@pytest.fixture
def linked(client, director, version_4_archives):
    """Both events loaded from version 4 archives (no persons), then linked by the director, in a series."""
    events = [event_import(data=archive) for archive in version_4_archives]
    assert not Person.objects.exists(), "an import links nobody by itself"
    client.force_login(director)
    pages = [link_from_suggestions(client, event) for event in events]
    assert "Link to" not in pages[0] and pages[1].count("Link to") == 3, "0a, 0b, 4a: same name and city"
    series = series_create(name="Tournament of Champions", points={"qualifying_win": 1})
    for event in events:
        series_tournament_add(series=series, tournament=event.tournaments.get())
    return events, series


def test_persons_and_series_go_round_the_archive_into_an_empty_database(linked):
    events, series = linked
    assert Person.objects.count() == 18 and not Player.objects.filter(person__isnull=True).exists()
    ann = Person.objects.get(name="Player 0a")
    assert ann.players.count() == 2, "one person across both events"
    person_update(person=Person.objects.get(name="Player 2b"), hidden=True)
    before = standing(series)
    keys = set(Person.objects.values_list("key", flat=True))
    archives = [event_export(event) for event in events]
    assert archives[0]["version"] == VERSION and archives[0]["series"][0]["points"]["qualifying_win"] == 1
    assert [s["tournaments"] for s in archives[1]["series"]] == [[events[1].tournaments.get().slug]]

    Event.objects.all().delete()
    Person.objects.all().delete()
    Series.objects.all().delete()
    again = [event_import(data=archive) for archive in archives]

    assert set(Person.objects.values_list("key", flat=True)) == keys
    assert Person.objects.get(name="Player 0a").players.count() == 2
    assert Person.objects.get(name="Player 2b").hidden, "the request to stay hidden came with the archive"
    imported = Series.objects.get()
    assert imported.name == "Tournament of Champions" and imported.points.qualifying_win == 1
    assert standing(imported) == before
    assert [event_export(event) for event in again] == archives
    summary = LogEntry.objects.filter(action="event_imported", event=again[1]).get().summary
    assert "8 players linked to 8 persons, in 1 series" in summary


def test_an_archive_meets_the_persons_and_series_already_here(linked):
    """The same database: a person and a series of the same key are joined, never made twice; an existing
    person keeps their own name but takes a hidden request from the file."""
    events, series = linked
    archive = event_export(events[1])
    entry = next(p for p in archive["persons"] if p["name"] == "Player 0a")
    entry["name"], entry["hidden"] = "Renamed Elsewhere", True
    events[1].delete()
    event_import(data=archive)
    assert Person.objects.count() == 18 and Series.objects.count() == 1
    ann = Person.objects.get(key=entry["key"])
    assert ann.name == "Player 0a" and ann.hidden and ann.players.count() == 2
    assert series.entries.count() == 2


def test_ratings_are_recomputed_by_the_import_not_carried(linked):
    """The file has no rating; importing links its players, and the ratings move with the links as they do
    when the director links them: the same numbers as before, which a recompute keeps."""
    events, _ = linked
    first = ratings_recompute()
    numbers = dict(PersonRating.objects.values_list("person__key", "rating"))
    archives = [event_export(event) for event in events]
    assert "rating" not in str(archives[0]["persons"])
    Event.objects.all().delete()
    Person.objects.all().delete()
    for archive in archives:
        event_import(data=archive)
    assert dict(PersonRating.objects.values_list("person__key", "rating")) == numbers
    assert LogEntry.objects.filter(action=LogEntry.Action.EVENT_IMPORTED).last().summary.endswith("ratings recomputed")
    assert ratings_recompute() == first
    assert dict(PersonRating.objects.values_list("person__key", "rating")) == numbers


def test_a_copy_links_nobody_and_joins_no_series(linked):
    events, series = linked
    copied = event_import(data=event_export(events[0]), as_copy=True)
    assert not Player.objects.filter(event=copied, person__isnull=False).exists()
    assert series.entries.count() == 2 and Person.objects.count() == 18


def broken(archive, change):
    data = copy.deepcopy(archive)
    change(data)
    return data


def twice_in_a_tournament(data):
    first, second = data["tournaments"][0]["teams"][0]["players"]
    players = {player["id"]: player for player in data["players"]}
    players[second]["person"] = players[first]["person"]


CHANGES = [
    (lambda d: d["persons"].append({**d["persons"][0], "id": 999}), "].key: the same person as persons[0]"),
    (lambda d: d["persons"][1].update(id=d["persons"][0]["id"]), "persons[1].id: the same id as persons[0]"),
    (lambda d: d["players"][0].update(person=999), "players[0].person: no person with id 999"),
    (lambda d: d["persons"][0].update(key="not-a-key"), "persons[0].key: String should match pattern"),
    (twice_in_a_tournament, "tournaments[0].teams[0].players[1]: the same person as tournaments[0].teams[0]."),
    (
        lambda d: d["series"][0]["tournaments"].append(d["series"][0]["tournaments"][0]),
        "' is already in this series: a tournament is in a series once",
    ),
    (lambda d: d["series"][0].update(tournaments=["nowhere"]), "series[0].tournaments[0]: no tournament 'nowhere'"),
    (lambda d: d["series"][0]["points"].update(champion=-1), "series[0].points: "),
]


@pytest.mark.parametrize(("change", "message"), CHANGES)
def test_bad_persons_and_series_refuse_the_file_with_their_place(linked, change, message):
    events, _ = linked
    archive = event_export(events[0])
    events[0].delete()
    persons, series = Person.objects.count(), Series.objects.count()
    with pytest.raises(ServiceError) as refused:
        event_import(data=broken(archive, change))
    assert message in refused.value.message, refused.value.message
    assert not Event.objects.filter(slug=archive["event"]["slug"]).exists()
    assert (Person.objects.count(), Series.objects.count()) == (persons, series), "nothing half-written"


def test_a_version_4_archive_imports_with_players_unlinked(linked):
    events, _ = linked
    archive = event_export(events[1])
    archive["version"] = 4
    del archive["persons"], archive["series"]
    for player in archive["players"]:
        del player["person"]
    events[1].delete()
    event = event_import(data=archive)
    assert not Player.objects.filter(event=event, person__isnull=False).exists()
    assert Series.objects.get().entries.count() == 1


def test_a_new_series_whose_name_is_taken_here_refuses_the_file(linked):
    events, series = linked
    archive = event_export(events[0])
    events[0].delete()
    series.delete()
    series_create(name="tournament of champions")
    with pytest.raises(ServiceError, match=r"^series\[0\]\.name: another series named 'Tournament of Champions'"):
        event_import(data=archive)
    assert not Event.objects.filter(slug=archive["event"]["slug"]).exists()


def test_the_import_command_says_who_is_linked_and_who_may_be_a_person(linked, tmp_path):
    events, _ = linked
    archive = event_export(events[1])
    path = tmp_path / "fall.json"
    path.write_text(json.dumps(archive))
    events[1].delete()
    out = io.StringIO()
    call_command("import_event", str(path), stdout=out)
    assert "8 of 8 players linked to their persons, as the archive says." in out.getvalue()
    for key in ("persons", "series"):
        archive[key] = []
    for player in archive["players"]:
        player["person"] = None
    Event.objects.get(slug=archive["event"]["slug"]).delete()
    path.write_text(json.dumps(archive))
    out = io.StringIO()
    call_command("import_event", str(path), stdout=out)
    slug = archive["event"]["slug"]
    # Same name and city as a person: Player 0a, 0b, 4a (Detroit in both events), New Guy and Other Guy.
    assert (
        f"5 player(s) of this event may be persons who played before: link them from the event's “Players and "
        f"persons” page (/manage/events/{slug}/persons/)." in out.getvalue()
    )


NASTY = [None, -1, 10**20, "", "\x00", [], {}, True, "2026-13-45", "not-a-key"]


def test_any_value_in_the_persons_and_series_is_refused_plainly_or_loaded(linked):
    """Whatever a hand-edited file puts in its persons, links or series: a plain refusal, or a load."""
    events, _ = linked
    archive = event_export(events[0])
    events[0].delete()
    places = [("persons", 0, key) for key in archive["persons"][0]]
    places += [("players", 0, "person")] + [("series", 0, key) for key in archive["series"][0]]
    places += [("series", 0, "points", "champion")]
    for place in places:
        for value in NASTY:
            data = copy.deepcopy(archive)
            target = data
            for step in place[:-1]:
                target = target[step]
            target[place[-1]] = value
            try:
                event = event_import(data=data)
            except ServiceError:
                assert not Event.objects.filter(slug=archive["event"]["slug"]).exists(), (place, value)
            else:
                event.delete()
