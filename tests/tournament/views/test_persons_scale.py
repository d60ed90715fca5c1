"""Every page and answer across events costs the same number of queries with 2 events of 8 teams in the
database as with 6 more events of 64 teams, where every person played every event (``manage.py bench_across``
measures 50 events of 512 teams)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.fields import across_build
from tournament.models import Person, PersonRating, Player
from tournament.services.ratings import ratings_recompute


def addresses(series, tournaments, persons) -> dict[str, tuple[bool, str]]:
    """Each page's address, and whether the director opens it."""
    shown = next(person for person in persons if not person.hidden)
    tournament = tournaments[-1]
    return {
        "person": (False, reverse("public:person", args=[shown.pk])),
        "series": (False, reverse("public:series", args=[series.slug])),
        "statistics": (False, reverse("public:statistics", args=[tournament.slug])),
        "projector": (False, reverse("public:projector", args=[tournament.slug])),
        "api-person": (False, f"/api/v1/persons/{shown.pk}"),
        "api-series": (False, f"/api/v1/series/{series.slug}"),
        "api-statistics": (False, f"/api/v1/tournaments/{tournament.slug}/statistics"),
        "link": (True, reverse("director:event_persons", args=[tournament.event.slug])),
        "persons": (True, reverse("director:persons")),
        "person-edit": (True, reverse("director:person_edit", args=[shown.pk])),
        "series-index": (True, reverse("director:series")),
        "series-edit": (True, reverse("director:series_edit", args=[series.slug])),
        "series-pdf": (True, reverse("director:series_pdf", args=[series.slug])),
        "ratings": (True, reverse("director:tournament_ratings", args=[tournament.slug])),
    }


@pytest.mark.parametrize(
    "page",
    [
        "person",
        "series",
        "statistics",
        "projector",
        "api-person",
        "api-series",
        "api-statistics",
        "link",
        "persons",
        "person-edit",
        "series-index",
        "series-edit",
        "series-pdf",
        "ratings",
    ],
)
def test_the_pages_cost_the_same_at_2_events_of_8_teams_and_6_more_of_64(client, director, page):
    counts = []
    for events, teams in ((2, 8), (6, 64)):
        built = across_build(events=events, teams=teams, name=f"Across {events}")
        ratings_recompute()
        staff, address = addresses(*built)[page]
        if staff:
            client.force_login(director)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(address).status_code == 200, address
        counts.append(len(captured))
    assert counts[0] == counts[1], counts


def test_every_person_played_every_event_of_the_build(db):
    series, tournaments, persons = across_build(events=3, teams=4, name="Small")
    assert series.entries.count() == 3
    first = persons[0]
    assert Player.objects.filter(person=first).count() == 3
    partners = {
        member.team.memberships.exclude(player__person=first).get().player.person_id
        for member in first.players.get(event=tournaments[1].event).memberships.select_related("team")
    } | {
        member.team.memberships.exclude(player__person=first).get().player.person_id
        for member in first.players.get(event=tournaments[0].event).memberships.select_related("team")
    }
    assert len(partners) == 2, "partners change from one event to the next"
    assert Person.objects.filter(hidden=True).count() == 1
    assert ratings_recompute() == 8 and PersonRating.objects.get(person=first).rounds == 3
