"""Blind double entry settled by staff: when the teams' entries differ the director sees both, on the live view
and on the table's page, and records the one that stands with a reason, kept in the sheet's history."""

import pytest
from django.urls import reverse

from tests.conftest import round_published, text_of
from tournament.models import LogEntry, Tournament
from tournament.services import sheets
from tournament.services.sheets import ChangeContext, HandEntry


@pytest.fixture
def differing(tournament, make_teams, sheet):
    """Table 1 in blind double entry, its teams' entries of hand 1 differing by a book."""
    Tournament.objects.filter(pk=tournament.pk).update(sheet_mode=Tournament.SheetMode.DOUBLE)
    make_teams(tournament, 2)
    table = round_published(tournament).tables.get()
    for pair, books in (("NS", 9), ("EW", 8)):
        code = table.seatings.get(pair=pair).team.code
        entry = HandEntry("N", "N", 3, "high", books, "spades")
        sheets.hand_submit(
            table=table, pair=pair, code=code, entry=entry, context=ChangeContext(version=sheet.version(table))
        )
    return table


def test_the_director_sees_both_entries_on_the_live_view(director_client, differing):
    page = text_of(director_client.get(reverse("director:round_live", args=[differing.round.tournament.slug, 1])))
    assert "Table 1: the teams' entries differ" in page
    assert "North–South: 3 Uptown ♠ by North, 9 books" in page and "East–West: 3 Uptown ♠ by North, 8 books" in page


def test_the_director_settles_on_the_table_page_with_a_reason(director_client, director, differing):
    url = reverse("table", args=[differing.secret])
    page = text_of(director_client.get(url))
    assert "The teams' entries of hand 1 differ" in page
    assert "North–South entered: 3 Uptown ♠ by North, 9 books" in page
    assert "East–West entered: 3 Uptown ♠ by North, 8 books" in page
    assert "Settle: this entry stands" in page
    differing.refresh_from_db()
    settle = reverse("table_entries_settle", args=[differing.secret])
    refused = director_client.post(settle, {"entries-version": differing.version, "entries-keep": "EW"}, follow=True)
    assert "This field is required" in text_of(refused) and not differing.hands.exists(), "a reason is asked"
    director_client.post(
        settle, {"entries-version": differing.version, "entries-keep": "EW", "entries-reason": "Books counted again"}
    )
    hand = differing.hands.get()
    assert (hand.hand_number, hand.books) == (1, 8) and not differing.submissions.exists()
    logged = differing.changes.get(action=LogEntry.Action.ENTRIES_SETTLED)
    assert logged.reason == "Books counted again" and logged.who == director.username


def test_a_team_sees_both_entries_but_no_settling(client, differing):
    page = text_of(client.get(reverse("table", args=[differing.secret])))
    assert "9 books" in page and "8 books" in page
    assert "Settle: this entry stands" not in page


@pytest.fixture
def double_table(tournament, make_teams):
    """Table 1 in blind double entry, no deal entered yet."""
    Tournament.objects.filter(pk=tournament.pk).update(sheet_mode=Tournament.SheetMode.DOUBLE)
    make_teams(tournament, 2)
    return round_published(tournament).tables.get()


def submit(table, pair, version, books=9):
    code = table.seatings.get(pair=pair).team.code
    entry = HandEntry("N", "N", 3, "high", books, "spades")
    return sheets.hand_submit(table=table, pair=pair, code=code, entry=entry, context=ChangeContext(version=version))


def test_the_other_teams_blind_entry_does_not_make_a_teams_page_stale(double_table, sheet):
    """Both teams enter the deal from pages opened at the same version: the other team's entry, which neither
    page shows, is no change to what this team saw, so the deal is recorded rather than refused."""
    opened = sheet.version(double_table)
    assert submit(double_table, "NS", opened).status == "waiting"
    assert submit(double_table, "EW", opened).status == "recorded"
    assert double_table.hands.get().books == 9


def test_a_page_opened_before_a_deal_was_recorded_is_stale(double_table, sheet):
    opened = sheet.version(double_table)
    submit(double_table, "NS", opened)
    submit(double_table, "EW", opened)
    with pytest.raises(sheets.StaleSheet, match="both teams entered"):
        submit(double_table, "NS", opened, books=10)
    assert double_table.hands.count() == 1 and not double_table.submissions.exists()
