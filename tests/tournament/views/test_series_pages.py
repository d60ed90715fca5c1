"""A season's standings on a phone: a page of rows at a time with the latest tournaments in columns, kept in the
cache for everyone until a result of one of its tournaments (or the series) changes."""

import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from bench.fields import across_build
from scoring.series import points_text
from tournament.selectors.series import SERIES_PAGE_ROWS, SERIES_RECENT, series_get, series_standings_of
from tournament.services.persons import person_update
from tournament.services.series import series_update


def body_rows(response) -> list[list[str]]:
    """The standings table's rows, each its cells' text."""
    tbody = re.search(r"<tbody>(.*?)</tbody>", response.content.decode(), re.S).group(1)
    return [
        [re.sub(r"<[^>]+>|\s+", " ", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", tbody, re.S)
    ]


@pytest.fixture
def long_series(db):
    """12 events of 64 teams: 128 persons in every event, a series longer than a page and than its columns."""
    return across_build(events=12, teams=64, name="Long")[0]


def test_a_long_series_is_paged_with_its_latest_tournaments_in_columns(client, long_series):
    address = reverse("public:series", args=[long_series.slug])
    standings = series_standings_of(series_get(long_series.slug))
    assert len(standings.rows) == 128 and len(standings.tournaments) == 12
    earlier = len(standings.tournaments) - SERIES_RECENT

    first = client.get(address)
    page = first.content.decode()
    assert "page 1 of 2" in page and "Rows 1–100" in page
    assert len(first.content) < 100_000, "a phone gets a page, not the season"
    head = re.search(r"<thead>(.*?)</thead>", page, re.S).group(1)
    assert re.findall(r">(T\d+|Earlier)</th>", head) == ["Earlier", *(f"T{n}" for n in range(earlier + 1, 13))]
    rows = body_rows(first)
    assert len(rows) == SERIES_PAGE_ROWS
    for shown, row in zip(rows, standings.rows, strict=False):
        assert shown[0] == str(row.place) and shown[3] == row.total_text
        before = [t.pk for t in standings.tournaments[:earlier]]
        expected = "" if row.hidden else points_text(sum(row.points_shown.get(pk, 0) for pk in before))
        assert shown[4] == expected, "Earlier: the points of the tournaments before the columns"
        assert shown[5:] == row.cells([tournament.pk for tournament in standings.tournaments[earlier:]])

    second = body_rows(client.get(address, {"page": "2"}))
    assert [cells[1] for cells in second] == [
        ("A player" if row.hidden else row.name) + ("" if row.linked else " *") for row in standings.rows[100:]
    ]
    assert body_rows(client.get(address, {"page": "99"})) == second, "past the last page: the last"
    assert body_rows(client.get(address, {"page": "abc"})) == rows, "junk: the first"


def test_the_series_page_is_kept_until_a_result_or_the_series_changes(client, db):
    series, _, persons = across_build(events=2, teams=8, name="Kept")
    address = reverse("public:series", args=[series.slug])
    with CaptureQueriesContext(connection) as rendering:
        first = client.get(address)
    assert "fwd=miss" in first["Cache-Status"]
    with CaptureQueriesContext(connection) as reading:
        again = client.get(address)
    assert "hit" in again["Cache-Status"] and again.content == first.content
    assert len(reading) < len(rendering) - 3, "kept: the standings are not worked out again"
    assert not any("tournament_teammember" in query["sql"] for query in reading), "nor its rows counted again"
    assert client.get(address, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    shown = next(person for person in persons if not person.hidden)
    person_update(person=shown, hidden=True)
    hidden = client.get(address)
    assert hidden["ETag"] != first["ETag"] and shown.name not in hidden.content.decode()

    series_update(series=series, points={**series.points_data, "qualifying_win": 5})
    repointed = client.get(address)
    assert repointed["ETag"] != hidden["ETag"] and "and 5 for each qualifying round won" in repointed.content.decode()


def test_the_api_gives_the_series_a_page_at_a_time_and_keeps_it(client, long_series):
    address = f"/api/v1/series/{long_series.slug}"
    standings = series_standings_of(series_get(long_series.slug))
    first = client.get(address, HTTP_ACCEPT_ENCODING="gzip")
    assert first["Content-Encoding"] == "gzip" and "fwd=miss" in first["Cache-Status"]
    answer = client.get(address).json()
    assert (answer["page"], answer["pages"], answer["rows"], len(answer["standings"])) == (1, 2, 128, 100)
    last = client.get(address, {"page": 2}).json()
    assert [row["name"] for row in last["standings"]] == [row.name for row in standings.rows[100:]]
    assert [(row["label"], row["points"]) for row in answer["standings"] + last["standings"]] == [
        (str(row.place), float(row.total)) for row in standings.rows
    ]
    assert client.get(address, {"page": 9}).json() == last, "past the last page: the last"
    assert "hit" in client.get(address)["Cache-Status"]
    assert client.get(address, {"page": "abc"}).status_code == 422


def test_a_long_series_prints_its_totals(client, scorekeeper, long_series):
    client.force_login(scorekeeper)
    pdf = client.get(reverse("director:series_pdf", args=[long_series.slug])).content
    printed = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "Totals over the series' 12 tournaments" in printed and " T12 " not in printed
    standings = series_standings_of(series_get(long_series.slug))
    shown = next(row for row in standings.rows if not row.hidden and row.linked)
    line = next(line for line in printed.splitlines() if line.startswith(str(shown.place)) and shown.name in line)
    assert line.split()[-2:] == [shown.total_text, "12"], "the total and the tournaments played"
