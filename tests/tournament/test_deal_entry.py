"""A deal's entries declared once (``DealEntry``): both models, the hand form, the archive and every sheet read
the declaration. An entry the contract does not show is listed by name on every surface: proved here by
listing the No Trump's direction that way (the contract shows it otherwise)."""

import io
from dataclasses import fields

import pytest
from django.core.validators import MaxValueValidator
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import text_of
from tests.tournament.views.test_table import hand_post, url
from tournament.forms.table import HandForm
from tournament.models import Hand, HandSubmission
from tournament.models.sheets import DEAL_ENTRY, DealEntry
from tournament.printing import round_sheets_pdf
from tournament.services.archive.schema import ARCHIVE_NAMES, DealData
from tournament.services.sheets.entries import HandEntry

LISTED = "No Trump played: Downtown"


@pytest.fixture
def direction_listed(monkeypatch):
    """The direction as an entry the contract does not show, as a new field the declaration gains would be."""
    shown = tuple(name for name in DealEntry.SHOWN_AS_CONTRACT if name != "direction")
    monkeypatch.setattr(DealEntry, "SHOWN_AS_CONTRACT", shown)


def test_a_hand_and_a_teams_own_entry_declare_the_same_entries_once():
    declared = [field.name for field in DealEntry._meta.fields]
    assert list(DEAL_ENTRY) == declared == ["dealer", "bidder", "level", "kind", "suit", "direction", "books"]
    for model in (Hand, HandSubmission):
        assert all(model._meta.get_field(name).model is model for name in declared)
        assert MaxValueValidator(13) in model._meta.get_field("books").validators


def test_the_services_entry_takes_every_declared_entry():
    assert set(DEAL_ENTRY) <= {entry.name for entry in fields(HandEntry)}


def test_the_form_asks_the_declared_entries_in_their_order_under_their_declared_names():
    form = HandForm(seats=[])
    assert [field.name for field in form.details] == ["suit", "direction"]
    assert list(form.fields)[:6] == ["dealer", "bidder", "bid", "suit", "direction", "books"]
    assert form.fields["suit"].label == "Trump, if named (optional)"
    assert form.fields["direction"].label == "No Trump played (optional)"
    assert form.fields["direction"].help_text == "Uptown if none named."
    drawn = str(form["suit"])
    assert "♥" in drawn and 'aria-label="Hearts"' in drawn, "a suit is a button with its symbol, named in words"
    assert form.listed_details_json == "{}", "the contract shows every entry made today"


def test_the_archive_reads_each_entry_as_declared():
    archived = DealData.model_fields
    assert list(archived) == list(DEAL_ENTRY)
    assert {name: archived[name].alias for name in ARCHIVE_NAMES} == ARCHIVE_NAMES
    deal = {"dealer": "N", "bidder": "E", "bid_level": 7, "bid_kind": "nt", "trump_suit": "", "direction": "down"}
    assert DealData.model_validate({**deal, "books": 13}).books == 13
    for refused in ({"books": 14}, {"books": 13, "bid_level": 8}, {"books": 13, "direction": "sideways"}):
        with pytest.raises(ValueError):
            DealData.model_validate({**deal, **refused})


def test_an_entry_the_contract_does_not_show_is_listed_on_every_sheet(client, table, direction_listed):
    entered = {"bid": "4:nt", "suit": "", "direction": "down"}
    response = client.post(url("table_hand_add", table), hand_post(0, confirm=False, **entered))
    check = client.get(response.url)
    assert f"4 No Trump (downtown) by East · 10 books · {LISTED}" in text_of(check), "the check page"
    client.post(url("table_hand_add", table), hand_post(0, **entered))
    hand = table.hands.get()
    assert hand.details == [("No Trump played", "Downtown")]

    page = client.get(url("table", table))
    assert LISTED in text_of(page), "the table page's sheet"
    assert 'data-details="{&quot;direction&quot;: &quot;No Trump played&quot;}"' in page.content.decode()
    team_page = client.get(reverse("public:team", args=[table.round.tournament.slug, table.team_ns.number]))
    assert LISTED in text_of(team_page), "the team's public page"
    pdf = round_sheets_pdf(table.round, blank=False, base_url="http://testserver")
    printed = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert LISTED in " ".join(printed.split()), printed
