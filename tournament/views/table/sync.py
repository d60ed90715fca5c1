"""The phone's queue of hands: each entry is kept on the phone with its own id until the server answers.

The answer is JSON the queue acts on: saved (with the sheet's version after the hand, for the next entry
in the queue), a conflict (another device changed the sheet since the entry was made: the phone asks
rather than overwriting or dropping it), or refused (with the reason).
"""

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
from tournament.views.table.page import TablePage, change_of


def _sheet_now(table: Table) -> str:
    table.refresh_from_db()
    if table.complete:
        return f"the round is complete ({table.ns_total}–{table.ew_total})"
    return f"hand {table.next_hand_number} is next"


def _conflict(table: Table, message: str) -> JsonResponse:
    """Not saved: the sheet is not as the entry expected. The phone is told the sheet's version and its next
    hand, to open the entry again as that hand."""
    answer = {"status": "conflict", "message": message, "version": table.version, "hand": table.next_hand_number}
    return JsonResponse(answer, status=409)


@require_POST
def hand_sync(request, secret):
    page = TablePage(request, secret, with_players=False)
    answer = _answer(request, page)
    if answer.status_code != 200:
        earlier_messages_drop(request)
    return answer


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
            table=page.table, entry=hand_entry(data), entry_id=entry_id, context=change_of(request, data)
        )
    except StaleSheet:
        message = (
            f"The sheet was changed on another device after this was entered ({_sheet_now(page.table)}). "
            "Check the sheet, then save this entry as the next hand or discard it."
        )
        return _conflict(page.table, message)
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
