"""The penalty form offers every offence the engine declares, with the entries the engine says it needs."""

import re

import pytest

from scoring import PenaltyKind
from scoring.penalties import INPUTS
from tournament.forms.table import PenaltyForm


def test_every_offence_of_the_engine_says_what_is_entered_for_it():
    assert set(INPUTS) == set(PenaltyKind)


@pytest.mark.parametrize("staff", [True, False])
def test_the_penalty_form_offers_every_offence_entered_on_it(staff):
    form = PenaltyForm(hands=[], staff=staff)
    offered = {value for value, _ in form.fields["kind"].choices}
    expected = {kind.value for kind in PenaltyKind if kind.inputs.on_form and (staff or not kind.inputs.staff_only)}
    assert offered == expected
    assert set(form.offence_fields) == offered


def test_each_offence_shows_the_fields_it_needs_and_the_form_has_them():
    form = PenaltyForm(hands=[], staff=True)
    for value, fields in form.offence_fields.items():
        assert set(fields) >= {"hand", "team", *PenaltyKind(value).inputs.fields}
        assert all(name in form.fields for name in fields)
    assert form.offence_fields[PenaltyKind.RENEGE] == ("hand", "team", "count")
    assert form.offence_fields[PenaltyKind.DIRECTOR_RULING] == ("hand", "team", "points")


def test_a_staff_only_offence_is_not_offered_to_the_table_link():
    offered = dict(PenaltyForm(hands=[], staff=False).fields["kind"].choices)
    assert PenaltyKind.DIRECTOR_RULING not in offered
    assert offered[PenaltyKind.RENEGE] == "Renege (books move before scoring)"


def test_a_row_of_buttons_drawn_again_is_the_same_and_shows_what_is_chosen():
    """The buttons are drawn once per process for what they show (``ChoiceButtons.render``): a form with an
    answer shows that answer checked, and the empty form stays empty."""
    from tournament.forms.table import HandForm

    empty = str(HandForm(seats=[])["books"])
    assert "checked" not in empty and str(HandForm(seats=[])["books"]) == empty
    chosen = str(HandForm({"books": "9"}, seats=[])["books"])
    assert re.search(r'value="9"[^>]*checked', chosen) and chosen.count("checked") == 1
    assert str(HandForm(seats=[])["books"]) == empty
    minimum = HandForm(seats=[], min_bid=4)
    assert 'value="3:high"' not in str(minimum["bid"]) and 'value="3:high"' in str(HandForm(seats=[])["bid"])


def test_a_tables_own_seat_buttons_are_drawn_for_it_and_not_kept():
    from tournament.forms import buttons as table_forms
    from tournament.forms.table import HandForm

    table_forms._drawn_buttons.clear()
    str(HandForm(seats=[])["dealer"])
    str(HandForm(seats=[])["books"])
    assert [key[0].__name__ for key in table_forms._drawn_buttons] == ["ChoiceButtons"]
