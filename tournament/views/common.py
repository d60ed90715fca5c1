"""What every view shares: who is acting, and running a service with its message shown."""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from django.contrib import messages
from django.db import IntegrityError
from django.http import HttpResponse
from django.shortcuts import redirect, render

from tournament.errors import ServiceError
from tournament.security import client_ip
from tournament.services.log import Actor, actor_of
from tournament.views.device import device_of

logger = logging.getLogger(__name__)

# Two desks writing the same thing at the same moment, where no lock made the second see the first (a service
# says the reason itself where it can): the second is refused, nothing stored twice.
AT_ANOTHER_DESK = (
    "The same change was being saved from another desk or phone at that moment, and was stored once. The page shows "
    "it as it is now."
)


def request_actor(request) -> Actor:
    """The logged-in staff member, or the table link on the phone it was opened on."""
    return actor_of(user=request.user, default=Actor.table_link(device_of(request), client_ip(request) or ""))


def earlier_messages_drop(request) -> None:
    """Forget messages of earlier requests never shown (their page did not arrive): a refusal's page must not
    carry an earlier "saved" as if it were about this entry."""
    list(messages.get_messages(request))  # read, they are not stored again


def refusal_say(request, message: str, tag: str = "") -> None:
    """Tell of a refusal, alone: messages of earlier requests never shown are about other entries. A ``tag``
    marks it for the field the page shows it beside (as well as at the top)."""
    earlier_messages_drop(request)
    messages.error(request, message, extra_tags=tag)


def form_error(form, error: ServiceError) -> None:
    """Show a service's refusal beside the field it concerns, or above the form."""
    field = error.field if error.field in form.fields else None
    form.add_error(field, error.message)


@dataclass(frozen=True)
class Ran:
    """What running a service for a person came to: ``done`` with its result, or refused; a refusal is
    ``in_form`` when it was put in the form to be drawn again, else it was said above the page."""

    done: bool
    result: object = None
    in_form: bool = False


def service_run(
    request, service: Callable[[], object], done: str | Callable | None, *, form=None, beside: dict | None = None
) -> Ran:
    """The one way a view runs a service for the person asking.

    Done: ``done`` is said (text, or a function of the result; None says nothing). Refused: the reason goes
    beside its field of ``form``, or at the top of it, when ``form`` is given (give it only when the page the
    person lands on draws it); otherwise, or for a refusal about the whole page, it is said at the top of that
    page, tagged ``beside[field]`` when the page shows that field's refusals beside it too. A refusal is said
    alone: messages of earlier requests never shown are about other things. A write that clashed with the same
    write stored elsewhere at that moment (a unique row) is refused too, never a server error.
    """
    try:
        result = service()
    except IntegrityError:
        logger.warning("Refused as written at the same moment elsewhere", exc_info=True)
        refusal_say(request, AT_ANOTHER_DESK)
        return Ran(False)
    except ServiceError as error:
        if form is not None and error.about_the_form:
            earlier_messages_drop(request)
            form_error(form, error)
            return Ran(False, in_form=True)
        refusal_say(request, error.message, (beside or {}).get(error.field, ""))
        return Ran(False)
    if done is not None:
        messages.success(request, done(result) if callable(done) else done)
    return Ran(True, result)


def form_saved(request, form, service: Callable[..., object], done: str | Callable | None, **bound):
    """Shape 1, a form that saves (its page draws it again when refused). On a valid POST, run
    ``service(**form.cleaned_data, **bound)`` for the person asking (given as ``actor`` unless ``bound`` names
    another) and return its result; otherwise None, with the refusal beside its field (the page drawing ``form``
    again shows it)."""
    if request.method != "POST":
        return None
    if form.is_valid():
        save = partial(service, **form.cleaned_data, **{"actor": request_actor(request), **bound})
        ran = service_run(request, save, done, form=form)
        if ran.done:
            return ran.result
    first_error_focus(form)
    return None


def first_error_focus(form) -> None:
    """The page opens at the form's first refused field (the browser scrolls to a focused field, no script
    needed); a refusal of the whole form is at its top, focused the same way (``includes/form_errors.html``).

    A refused field whose widget says ``emptied_when_refused`` (a team code) is drawn empty: typed again from
    scratch, not appended to what was refused."""
    refused = [name for name in form.errors if name in form.fields]
    if refused:
        form.fields[refused[0]].widget.attrs["autofocus"] = True
    emptied = [name for name in refused if getattr(form.fields[name].widget, "emptied_when_refused", False)]
    if emptied and form.is_bound:
        form.data = form.data.copy()
        for name in emptied:
            form.data[form.add_prefix(name)] = ""


def form_action(
    request,
    form,
    service: Callable[..., object],
    *,
    done: str | Callable | None,
    to,
    invalid: str = "",
    beside: dict | None = None,
    **kwargs,
) -> HttpResponse:
    """Shape 2, an action posted from a button (with the few fields of its ``form``, or None): run
    ``service(**form.cleaned_data)`` (see ``service_run``) and go to ``to``, where what happened is said at the top.

    ``to`` and ``kwargs`` are as for ``redirect``; or ``to`` is a function answering, given whether it was done
    (when the page depends on it). An incomplete form is refused with ``invalid`` (by default what the form says);
    a field of ``beside`` refused is said tagged for the page to show it beside that field too.
    """
    if form is None or form.is_valid():
        answers = form.cleaned_data if form is not None else {}
        ran = service_run(request, lambda: service(**answers), done, beside=beside)
        return to(ran.done) if callable(to) else redirect(to, **kwargs)
    tagged = next((field for field in beside or {} if field in form.errors), None)
    if tagged is not None:
        refusal_say(request, form.errors[tagged][0], (beside or {})[tagged])
    else:
        refusal_say(request, invalid or " ".join(error for errors in form.errors.values() for error in errors))
    return to(False) if callable(to) else redirect(to, **kwargs)


def tournament_context(tournament, **extra) -> dict:
    """What every page of a tournament shows: the tournament and its event, with the page's own ``extra``."""
    return {"tournament": tournament, "event": tournament.event, **extra}


def form_page(request, form, title: str, submit: str, **context):
    """A staff page that is one form: its title and its button's word."""
    return render(request, "director/form.html", {"form": form, "title": title, "submit": submit, **context})


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
