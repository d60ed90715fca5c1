"""The penalty form offers every offence the engine declares, with the entries the engine says it needs."""

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
