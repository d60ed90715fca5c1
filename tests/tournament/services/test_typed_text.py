"""Every name, announcement, reason and note a person types is refused, beside its field, when it holds a character
that is not text (PostgreSQL refuses NUL; ESC) or an invisible one that reverses or hides what is shown; nothing
is stored then. Team registration refuses the same (tests/tournament/services/teams); every form is walked in
tests/tournament/test_typed_forms.py."""

import datetime

import pytest

from scoring import Absent
from tests.conftest import round_published
from tournament.errors import ServiceError
from tournament.models import Announcement, LogEntry, Payment, Person, SitOut, Substitute
from tournament.services import sheets
from tournament.services.absence import substitute_approve, table_forfeit_declare, team_sit_out_set
from tournament.services.events import announcement_post, event_create, event_update, tournament_create
from tournament.services.money import payment_record, refund_record
from tournament.services.persons import person_update
from tournament.services.series import series_create
from tournament.services.sheets import ChangeContext

REVERSED = "\u202eecallaW amlA"
NUL = "Ann\x00Lee"
# What the desk stored before: an isolate, an escape sequence, a zero-width space, a byte order mark, a mark.
TYPED = {
    "reversed": REVERSED,
    "nul": NUL,
    "isolate": "Left \u2066early",
    "escape": "Left\x1b[2J early",
    "zero-width space": "Ann\u200bLee",
    "byte order mark": "\ufeffAnn Lee",
    "right-to-left mark": "Ann Lee\u200f",
}
DAY = datetime.date(2026, 9, 1)


@pytest.fixture
def seated(tournament, make_teams):
    """Four teams; round 1 published, no hand entered yet."""
    make_teams(tournament, 4)
    return round_published(tournament)


def service_calls(tournament, round_1, staff):
    team = tournament.teams.get(number=1)
    person = Person.objects.create(name="Alma Wallace")
    table = round_1.tables.get(number=1)
    return {
        "event name": (lambda text: event_create(name=text, starts_on=DAY, ends_on=DAY), "name"),
        "venue": (
            lambda text: event_update(event=tournament.event, name="Fall", venue=text, starts_on=DAY, ends_on=DAY),
            "venue",
        ),
        "tournament name": (lambda text: tournament_create(event=tournament.event, name=text), "name"),
        "announcement": (lambda text: announcement_post(tournament=tournament, text=text), "text"),
        "person name": (lambda text: person_update(person=person, name=text), "name"),
        "person city": (lambda text: person_update(person=person, city=text), "city"),
        "series name": (lambda text: series_create(name=text), "name"),
        "substitute name": (
            lambda text: substitute_approve(
                team=team, round=round_1, replaces=team.members[0].player, name=text, actor=staff
            ),
            "name",
        ),
        "substitute reason": (
            lambda text: substitute_approve(
                team=team, round=round_1, replaces=team.members[0].player, name="Cy", reason=text, actor=staff
            ),
            "reason",
        ),
        "sit-out reason": (
            lambda text: team_sit_out_set(team=team, round_number=2, reason=text, actor=staff),
            "reason",
        ),
        "forfeit reason": (
            lambda text: table_forfeit_declare(
                table=round_1.tables.get(number=1), absent=Absent.EAST_WEST, early=True, reason=text, actor=staff
            ),
            "reason",
        ),
        "refund reason": (
            lambda text: refund_record(team=team, amount="5", reason=text, actor=staff),
            "reason",
        ),
        "dispute note": (
            lambda text: sheets.sheet_dispute(
                table=table, pair="NS", note=text, context=ChangeContext(version=table.version)
            ),
            "note",
        ),
        "ruling reason": (
            lambda text: sheets.penalty_add(
                table=table,
                kind="director_ruling",
                team="NS",
                points=3,
                context=ChangeContext(version=table.version, actor=staff, reason=text),
            ),
            "reason",
        ),
    }


CALLS = [
    "event name",
    "venue",
    "tournament name",
    "announcement",
    "person name",
    "person city",
    "series name",
    "substitute name",
    "substitute reason",
    "sit-out reason",
    "forfeit reason",
    "refund reason",
    "dispute note",
    "ruling reason",
]


@pytest.mark.parametrize("typed", TYPED)
@pytest.mark.parametrize("what", CALLS)
def test_text_that_is_not_plain_is_refused_beside_its_field_and_nothing_is_stored(
    tournament, seated, staff, what, typed
):
    payment_record(team=tournament.teams.get(number=1), amount="20")
    call, field = service_calls(tournament, seated, staff)[what]
    log_before = LogEntry.objects.count()
    with pytest.raises(ServiceError) as refused:
        call(TYPED[typed])
    assert refused.value.field == field
    assert "not text" in refused.value.message or "reverses or hides text" in refused.value.message
    assert LogEntry.objects.count() == log_before, "nothing is logged"
    assert not Person.objects.filter(name__contains="ecallaW").exists()
    assert not Substitute.objects.exists() and not SitOut.objects.exists() and not Announcement.objects.exists()
    assert not seated.tables.get(number=1).forfeit
    assert not Payment.objects.filter(kind=Payment.Kind.REFUND).exists()
    assert not seated.tables.get(number=1).disputed_at and not seated.tables.get(number=1).penalties.exists()


def test_every_text_taking_service_is_tried(tournament, seated, staff):
    assert sorted(service_calls(tournament, seated, staff)) == sorted(CALLS)


def test_a_forfeit_reason_is_at_most_what_a_sheet_keeps(seated, staff):
    table = seated.tables.get(number=1)
    with pytest.raises(ServiceError, match="longer than 500 characters"):
        table_forfeit_declare(table=table, absent=Absent.EAST_WEST, early=True, reason="x" * 100_000, actor=staff)
    table_forfeit_declare(table=table, absent=Absent.EAST_WEST, early=True, reason="  Gone   home ", actor=staff)
    assert LogEntry.objects.get(action=LogEntry.Action.FORFEIT).reason == "Gone home"
