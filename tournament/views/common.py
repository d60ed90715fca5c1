"""What every view shares: who is acting, and running a service with its message shown."""

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect

from tournament.errors import ServiceError
from tournament.security import client_ip
from tournament.services.log import Actor, actor_of
from tournament.views.device import device_of


def request_actor(request) -> Actor:
    """The logged-in staff member, or the table link on the phone it was opened on."""
    return actor_of(user=request.user, default=Actor.table_link(device_of(request), client_ip(request) or ""))


def form_error(form, error: ServiceError) -> None:
    """Show a service's refusal beside the field it concerns, or above the form."""
    field = error.field if error.field in form.fields else None
    form.add_error(field, error.message)


def form_saved(request, form, service: Callable[..., object], done: str | Callable):
    """On a valid POST, run ``service(**form.cleaned_data)``, say ``done`` (text, or a function of the result)
    and return the service's result; otherwise None, with a refusal shown beside its field."""
    if request.method != "POST" or not form.is_valid():
        return None
    try:
        result = service(**form.cleaned_data)
    except ServiceError as error:
        form_error(form, error)
        return None
    messages.success(request, done(result) if callable(done) else done)
    return result


def run_and_redirect(
    request, service: Callable[[], object], done: str | Callable, to, **kwargs
) -> HttpResponseRedirect:
    """Run a service, tell the person what happened (``done``, or its refusal), and go to ``to``.

    ``done`` may be a function of the service's result. ``to`` and ``kwargs`` are as for ``redirect``.
    """
    try:
        result = service()
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done(result) if callable(done) else done)
    return redirect(to, **kwargs)


def form_action(request, form, service: Callable[..., object], *, done, invalid: str, to, **kwargs):
    """A small form posted to an action: say ``invalid`` for an incomplete form, else run
    ``service(**form.cleaned_data)`` as ``run_and_redirect`` does."""
    if not form.is_valid():
        messages.error(request, invalid)
        return redirect(to, **kwargs)
    return run_and_redirect(request, lambda: service(**form.cleaned_data), done, to, **kwargs)


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
