"""The round clock's buttons, on the round's page and the live view: start, pause, resume, add time to the
round or to one table, and call time at one table."""

from functools import partial

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.views.decorators.http import require_POST

from tournament import selectors
from tournament.forms.clock import ClockForm
from tournament.selectors.clock import clock_view
from tournament.services import clock, sheets
from tournament.views.common import form_action, request_actor
from tournament.views.permissions import director_required
from tournament.views.table.time import time_called_said

ROUND_SERVICES = {
    "start": (clock.round_clock_start, "Round {number}: clock started."),
    "pause": (clock.round_clock_pause, "Round {number}: clock paused."),
    "resume": (clock.round_clock_resume, "Round {number}: clock resumed."),
    "add": (clock.round_clock_add, "Round {number}: {minutes} minutes added."),
}


def _time_call_now(*, table, actor):
    """Time called beside the table's clock: after the hands on its sheet now (these pages show the clock, not
    the sheet, and the live view's clock is not redrawn as hands come in, so they hold no version of it)."""
    return sheets.table_time_call(table=table, context=sheets.ChangeContext(version=table.version, actor=actor))


TABLE_SERVICES = {
    "start": (clock.table_clock_start, "Table {number}: clock started."),
    "pause": (clock.table_clock_pause, "Table {number}: clock paused."),
    "resume": (clock.table_clock_resume, "Table {number}: clock resumed."),
    "add": (clock.table_clock_add, "Table {number}: {minutes} minutes added."),
    "call_time": (_time_call_now, lambda table: f"Table {table.number}: {time_called_said(table)}"),
}


def _back(request) -> str:
    """Back to the page the button was on: the live view or the round's page."""
    return "director:round_live" if request.POST.get("back") == "live" else "director:round"


def _pressed(services: dict, record: dict, actor, *, action: str, minutes: int | None):
    """The clock button pressed, on the round or the table ``record`` names (with its minutes, to add time)."""
    options = {"minutes": minutes if minutes is not None else 0} if action == "add" else {}
    return services[action][0](**record, actor=actor, **options)


def _pressed_said(services: dict, number: int, form):
    """What the button pressed says of the round or table ``number``."""

    def said(result) -> str:
        wording = services[form.cleaned_data["action"]][1]
        return (
            wording(result)
            if callable(wording)
            else wording.format(number=number, minutes=form.cleaned_data["minutes"])
        )

    return said


CLOCK_INVALID = "Choose what to do to the clock."


@require_POST
@director_required
def round_clock(request, slug, number):
    """Minutes refused (not a whole number, or out of the clock's range) are said beside the round's minutes as
    well as at the top of the page."""
    round_ = selectors.round_get(selectors.tournament_get(slug), number)
    form = ClockForm(request.POST)
    press = partial(_pressed, ROUND_SERVICES, {"round": round_}, request_actor(request))
    return form_action(
        request,
        form,
        press,
        done=_pressed_said(ROUND_SERVICES, round_.number, form),
        invalid=CLOCK_INVALID,
        beside={"minutes": "minutes-round"},
        to=_back(request),
        slug=slug,
        number=number,
    )


@require_POST
@director_required
def table_clock(request, slug, number, table_number):
    tournament = selectors.tournament_get(slug)
    table = get_object_or_404(selectors.round_get(tournament, number).tables, number=table_number)
    form, beside = ClockForm(request.POST, table=True), {"minutes": f"minutes-table-{table.number}"}
    press = partial(_pressed, TABLE_SERVICES, {"table": table}, request_actor(request))
    done = _pressed_said(TABLE_SERVICES, table.number, form)
    return form_action(
        request,
        form,
        press,
        done=done,
        invalid=CLOCK_INVALID,
        beside=beside,
        to=_back(request),
        slug=slug,
        number=number,
    )


def clock_context(round_, tables: list, rules, *, back: str = "") -> dict:
    """What the clock's section of the round's page and the live view shows: the round's clock, each table's
    (set on the table as ``clock_shown``), the tables still playing seated after it started (no clock yet), and
    where its buttons go back to."""
    now = timezone.now()
    for table in tables:
        table.clock_shown = clock_view(table, rules, now)
    round_clock = clock_view(round_, rules, now)
    return {
        "clock": round_clock,
        "clock_unstarted": [
            table
            for table in tables
            if round_clock and not table.clock_shown and not table.signed and not table.complete
        ],
        "round_minutes": rules.round_minutes,
        "playoff_clock": rules.playoff_clock,
        "clock_back": back,
        "clock_tables": [table for table in tables if table.clock_shown and not table.signed],
    }
