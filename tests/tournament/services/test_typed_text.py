"""Every name, announcement and reason a director types is refused, beside its field, when it holds a character
that is not text (PostgreSQL refuses NUL) or one that reverses what is shown; nothing is stored then. Team
registration refuses the same (tests/tournament/services/teams)."""

import datetime

import pytest

from scoring import Absent
from tests.conftest import round_published
from tournament.errors import ServiceError
from tournament.models import Announcement, LogEntry, Person, SitOut, Substitute
from tournament.services.absence import substitute_approve, table_forfeit_declare, team_sit_out_set
from tournament.services.events import announcement_post, event_create, event_update, tournament_create
from tournament.services.persons import person_update
from tournament.services.series import series_create

REVERSED = "\u202eecallaW amlA"
NUL = "Ann\x00Lee"
DAY = datetime.date(2026, 9, 1)


@pytest.fixture
def seated(tournament, make_teams):
    """Four teams; round 1 published, no hand entered yet."""
    make_teams(tournament, 4)
    return round_published(tournament)


def service_calls(tournament, round_1, staff):
    team = tournament.teams.get(number=1)
    person = Person.objects.create(name="Alma Wallace")
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
]


@pytest.mark.parametrize("typed", [REVERSED, NUL], ids=["reversed", "nul"])
@pytest.mark.parametrize("what", CALLS)
def test_text_that_is_not_plain_is_refused_beside_its_field_and_nothing_is_stored(
    tournament, seated, staff, what, typed
):
    call, field = service_calls(tournament, seated, staff)[what]
    log_before = LogEntry.objects.count()
    with pytest.raises(ServiceError) as refused:
        call(typed)
    assert refused.value.field == field
    assert "not text" in refused.value.message or "reverses or hides text" in refused.value.message
    assert LogEntry.objects.count() == log_before, "nothing is logged"
    assert not Person.objects.filter(name__contains="ecallaW").exists()
    assert not Substitute.objects.exists() and not SitOut.objects.exists() and not Announcement.objects.exists()
    assert not seated.tables.get(number=1).forfeit


def test_every_text_taking_service_is_tried(tournament, seated, staff):
    assert sorted(service_calls(tournament, seated, staff)) == sorted(CALLS)


def test_a_forfeit_reason_is_at_most_what_a_sheet_keeps(seated, staff):
    table = seated.tables.get(number=1)
    with pytest.raises(ServiceError, match="longer than 500 characters"):
        table_forfeit_declare(table=table, absent=Absent.EAST_WEST, early=True, reason="x" * 100_000, actor=staff)
    table_forfeit_declare(table=table, absent=Absent.EAST_WEST, early=True, reason="  Gone   home ", actor=staff)
    assert LogEntry.objects.get(action=LogEntry.Action.FORFEIT).reason == "Gone home"
