"""Time at a table: the scorekeeper ends the round once time is up between hands; staff take a call back."""

from django.views.decorators.http import require_POST

from tournament.forms.clock import TimeCallForm
from tournament.services import sheets
from tournament.views.table.page import TablePage, change_of, sheet_form_post


def time_called_said(table) -> str:
    """What calling time at the table came to, for whoever called it."""
    if table.plays_on_after_time:
        return f"Time called after hand {table.hands_played}: the match is level, play one more hand."
    return f"Time called after hand {table.hands_played}: both teams sign the sheet."


@require_POST
def time_call(request, secret):
    page = TablePage(request, secret, with_players=False)

    def call(**data):
        return sheets.table_time_call(table=page.table, context=change_of(request, data))

    return sheet_form_post(page, "time", TimeCallForm(request.POST), call, time_called_said)


@require_POST
def time_call_lift(request, secret):
    page = TablePage(request, secret, with_players=False)

    def lift(**data):
        return sheets.table_time_call_lift(table=page.table, context=change_of(request, data))

    return sheet_form_post(
        page, "time", TimeCallForm(request.POST), lift, "Time called taken back: the sheet is open again."
    )
