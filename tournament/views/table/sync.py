"""The phone's queue of hands: each entry is kept on the phone with its own id until the server answers.

The answer is JSON the queue acts on: saved (with the sheet's version after the hand, for the next entry
in the queue), a conflict (another device changed the sheet since the entry was made: the phone asks
rather than overwriting or dropping it), or refused (with the reason). Each entry says when the phone made it,
on the server's clock: a hand entered before time was called counts as played before the call.
"""

from datetime import UTC, datetime

from django.contrib import messages
from django.http import JsonResponse
from django.views.decorators.http import require_POST

from tournament.errors import ServiceError
from tournament.forms.table import hand_entry
from tournament.models import Table
from tournament.services import sheets
from tournament.services.sheets import EntryClash, StaleSheet
from tournament.services.sheets.entries import ENTRY_ID
from tournament.views.common import earlier_messages_drop
from tournament.views.table.hands import hand_saved, undo_offer, version_after
from tournament.views.table.page import TablePage, change_of, entry_overtaken


def _conflict(table: Table, message: str, **more) -> JsonResponse:
    """Not saved: the sheet is not as the entry expected. The phone is told the sheet's version and its next
    hand, to open the entry again as that hand (with ``more``: the dealer it comes back with)."""
    answer = {"status": "conflict", "message": message, "version": table.version, "hand": table.next_hand_number}
    return JsonResponse(answer | more, status=409)


@require_POST
def hand_sync(request, secret):
    page = TablePage(request, secret, with_players=False)
    answer = _answer(request, page)
    if answer.status_code != 200:
        earlier_messages_drop(request)
    return answer


def _stated_time(value: str) -> datetime | None:
    """When the phone says it made the entry: milliseconds since 1970 on the server's clock (the phone's own clock
    corrected as the round clock's script measures it). Anything else is no time said."""
    try:
        return datetime.fromtimestamp(int(value) / 1000, tz=UTC)
    except (ValueError, OverflowError, OSError):
        return None


def _answer(request, page: TablePage) -> JsonResponse:
    entry_id = request.POST.get("entry_id", "")
    if not ENTRY_ID.fullmatch(entry_id):
        return JsonResponse({"status": "refused", "message": "The entry has no id: enter it again."}, status=400)
    form = page.hand_form(request.POST)
    if not form.is_valid():
        errors = {field: [str(e) for e in errors] for field, errors in form.errors.items()}
        first = next(iter(errors.values()))[0]
        return JsonResponse({"status": "refused", "message": first, "errors": errors}, status=422)
    data = form.cleaned_data
    try:
        hand = sheets.hand_record(
            table=page.table,
            entry=hand_entry(data),
            entry_id=entry_id,
            entered_at=_stated_time(request.POST.get("entered_at", "")),
            context=change_of(request, data),
        )
    except StaleSheet as error:
        message, dealer = entry_overtaken(page, error, data)
        return _conflict(page.table, message, dealer=dealer)
    except EntryClash as error:
        page.table.refresh_from_db()
        return _conflict(page.table, error.message)
    except ServiceError as error:
        return JsonResponse({"status": "refused", "message": error.message, "field": error.field}, status=422)
    version = version_after(hand, entry_id)
    undo_offer(request, page.table.secret, hand, version)
    text = hand_saved(hand)
    messages.success(request, text)
    return JsonResponse({"status": "saved", "message": text, "version": version})
