"""Every form that adds or moves something is taken once, whatever the network or a double tap does.

A form carries ``{% form_once %}``: a hidden token, new each time the form is drawn. A POST with a token runs its
view in one transaction with a claim on that token and the values sent (for the person posting, at that address).
When the view succeeded (it redirected and said no refusal), the claim is kept with where the answer sent the
person and what it said, in the same transaction as what the form wrote; otherwise the claim is let go, so the
form can be corrected and sent again. A second post of the same drawn form with the same values is answered with
the first's result: the same page, with what the first post did. A second post sent while the first is still
running waits for it (the claim is a unique row) and is then answered the same way. A post without a token (the
API, a script) runs as before. Claims older than a day are let go as new ones are made.
"""

import hashlib
import re
import secrets
from datetime import timedelta

from django.contrib import messages
from django.contrib.messages import constants
from django.db import IntegrityError, transaction
from django.http import HttpResponseRedirect
from django.utils import timezone

from tournament.models import FormPost
from tournament.views.device import COOKIE

FIELD = "form_once"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")
KEPT = timedelta(days=1)


def form_token() -> str:
    """A new token for a form being drawn."""
    return secrets.token_urlsafe(16)


def _key(request, token: str) -> str:
    """This post of the form: its token and what it sends, for this person at this address. A token seen by
    someone else proves nothing for them; the same drawn form sent with other values (another button of the desk's
    row tapped before the page came back) is another post. Without a login, the person is the browser's name
    (``views.device``: the table's and the team's pages give one), not its session, which a first post may
    create."""
    who = f"user {request.user.pk}" if request.user.is_authenticated else f"device {request.COOKIES.get(COOKIE, '')}"
    sent = sorted((name, values) for name, values in request.POST.lists() if name != "csrfmiddlewaretoken")
    sent += sorted((name, [(file.name, file.size) for file in files]) for name, files in request.FILES.lists())
    return hashlib.sha256(repr((token, request.path, who, sent)).encode()).hexdigest()


def _claim(key: str) -> FormPost | None:
    """The token claimed for this post, or None when a post of the same form claimed it first (a post still
    running holds the row: this waits for it)."""
    FormPost.objects.filter(created_at__lt=timezone.now() - KEPT).delete()
    try:
        with transaction.atomic():
            return FormPost.objects.create(key=key)
    except IntegrityError:
        return None


def _said(request) -> list:
    """The messages this request's view said (not yet stored for the next page)."""
    return list(getattr(messages.get_messages(request), "_queued_messages", []))


def _answered_again(request, first: FormPost) -> HttpResponseRedirect:
    said = f": {first.message}" if first.message else "."
    messages.info(request, f"Already recorded (the form was sent twice){said}")
    return HttpResponseRedirect(first.location)


class FormOnceMiddleware:
    """Takes a POST carrying a form's token once (see the module). It runs the view itself, once the CSRF check
    has passed, so that the view's writes and the claim are one transaction (a view that fails rolls both back)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        token = request.POST.get(FIELD, "") if request.method == "POST" else ""
        # htmx's posts draw a preview of the form; only the form sent is taken once.
        if not _TOKEN.fullmatch(token) or "HX-Request" in request.headers:
            return None
        key = _key(request, token)
        with transaction.atomic():
            claim = _claim(key)
            if claim is None:
                return _answered_again(request, FormPost.objects.get(key=key))
            response = view(request, *args, **kwargs)
            said = _said(request)
            if response.status_code >= 500:
                transaction.set_rollback(True)
            elif response.status_code in (301, 302, 303) and all(m.level < constants.ERROR for m in said):
                claim.location = response["Location"]
                claim.message = " ".join(str(m.message) for m in said)
                claim.save(update_fields=["location", "message"])
            else:
                claim.delete()
        return response
