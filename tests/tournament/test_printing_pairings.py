"""The round's pairings for the wall: one page of large print for a day's field, by table and by team."""

import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import round_published
from tests.tournament.test_printing import pdf_pages
from tournament.printing import pairings_pdf
from tournament.services.events import tournament_create


def test_a_twelve_team_round_on_one_page_by_table_and_by_team(tournament, make_teams):
    make_teams(tournament, 12)
    round_ = round_published(tournament, method="random", seed=3)
    pages = pdf_pages(pairings_pdf(round_))
    assert len(pages) == 1, "one page for a 12-team day"
    text = pages[0]
    assert "Spring Classic" in text and "Main Event · Round 1: tables" in text
    by_table, by_team = text.split("Find your team")
    for table in round_.tables.order_by("number"):
        ns, ew = table.team_at("NS"), table.team_at("EW")
        line = f"{table.number} #{ns.number} {ns.display_name} #{ew.number} {ew.display_name}"
        assert line in by_table.replace("\n", " "), line
    listed = [int(number) for number in re.findall(r"^#(\d+) ", by_team, re.MULTILINE)]
    assert listed == list(range(1, 13)), "every team, in number order"
    team = round_.seatings.get(team__number=7)
    assert f"#7 {team.team.display_name} {team.table.number} {team.get_pair_display()}" in by_team


def test_an_odd_field_lists_the_bye_and_the_print_is_large(tournament, make_teams):
    make_teams(tournament, 5)
    round_ = round_published(tournament, method="random", seed=1)
    bye = round_.seatings.get(table__isnull=True).team
    text = pdf_pages(pairings_pdf(round_))[0]
    assert f"#{bye.number} {bye.display_name} – Bye" in text
    page = PdfReader(io.BytesIO(pairings_pdf(round_))).pages[0]
    sizes = []
    page.extract_text(
        visitor_text=lambda text, cm, tm, font, size: sizes.append(size * tm[0]) if "Player" in text else 0
    )
    assert sizes and min(sizes) >= 18, "every team's name at 14 pt (18 px) at least, read from a few steps away"


def test_the_pairings_cost_the_same_queries_at_12_and_96_teams(director_client, event, big_field):
    counts = []
    for size in (12, 96):
        tournament = tournament_create(event=event, name=f"Field of {size}")
        big_field(tournament, size)
        url = reverse("director:round_pairings_pdf", args=[tournament.slug, 1])
        with CaptureQueriesContext(connection) as queries:
            response = director_client.get(url)
        assert response["Content-Type"] == "application/pdf"
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


@pytest.mark.parametrize("who", [None, "player_user"])
def test_the_pairings_are_printed_by_staff_only(client, tournament, make_teams, who, request):
    make_teams(tournament, 4)
    round_published(tournament)
    if who:
        client.force_login(request.getfixturevalue(who))
    response = client.get(reverse("director:round_pairings_pdf", args=[tournament.slug, 1]))
    assert response.status_code == (403 if who else 302)


def test_the_round_page_links_its_pairings(director_client, tournament, make_teams):
    make_teams(tournament, 4)
    round_published(tournament)
    page = director_client.get(reverse("director:round", args=[tournament.slug, 1])).content.decode()
    assert reverse("director:round_pairings_pdf", args=[tournament.slug, 1]) in page
