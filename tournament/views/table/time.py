"""Time at a table: the scorekeeper ends the round once time is up between hands; staff take a call back."""

from django.views.decorators.http import require_POST

from tournament.forms.clock import TimeCallForm
from tournament.services import sheets
from tournament.views.common import refusal_say, service_run
from tournament.views.table.page import TablePage, back_to_sheet, change_of


def _time_post(request, secret, service, done):
    page = TablePage(request, secret, with_players=False)
    form = TimeCallForm(request.POST)
    if not form.is_valid():
        refusal_say(request, "The sheet's version is missing: reload the page and try again.")
        return back_to_sheet(page)
    context = change_of(request, form.cleaned_data)
    service_run(request, lambda: service(table=page.table, context=context), done)
    return back_to_sheet(page)


def time_called_said(table) -> str:
    """What calling time at the table came to, for whoever called it."""
    if table.plays_on_after_time:
        return f"Time called after hand {table.hands_played}: the match is level, play one more hand."
    return f"Time called after hand {table.hands_played}: both teams sign the sheet."


@require_POST
def time_call(request, secret):
    return _time_post(request, secret, sheets.table_time_call, time_called_said)


@require_POST
def time_call_lift(request, secret):
    return _time_post(request, secret, sheets.table_time_call_lift, "Time called taken back: the sheet is open again.")
