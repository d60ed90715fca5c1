"""Pages behind a private link (a table's sheet, a team's own page) answered 304 when the phone has them already.

Such a page is drawn for one browser: its forms carry a token of the browser's CSRF secret, the session decides a
few lines (a save to undo, the table card to go back to, a new-table banner), and a message waiting is shown once.
So it is never shared between browsers: it is sent ``private, no-cache`` with an ETag of what it shows, and the
phone that asks again with that ETag is answered 304 without drawing it. The ETag is a digest of:

- the versions of what the page shows (``pagecache.serving`` describes them): the tournament's live version,
  which every change to teams, draws, rules, the clock and the signed sheets moves, and the sheets' own versions,
  which every entry moves;
- the clock's state as the page draws it (``selectors.clock.clock_state``);
- what the view passes from this browser's session and cookies, and the CSRF cookie itself (a page whose tokens
  were made from another secret would have its forms refused).

A browser without a CSRF cookie, a staff member, or a request with a message waiting gets the page drawn afresh.
The caller checks the link (the table's secret, the team's code in the session) before asking here: a 304 is
never sent to a browser the page would refuse.
"""

import hashlib
from collections.abc import Callable

from django.conf import settings
from django.contrib.messages import get_messages
from django.http import HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.utils.cache import patch_vary_headers

CACHE_CONTROL = "private, no-cache"


# Stands for the CSRF secret a browser without one is given with the page, while the page is drawn.
SECRET_TO_COME = "secret to come"


def private_etag(request, *shown, secret: str | None = None) -> str | None:
    """The ETag of the private page at ``request.path`` showing ``shown`` to this browser (with the CSRF
    ``secret`` it will send, when not the one it sent); None when the page is to be drawn afresh without one
    (see the module)."""
    if request.method not in ("GET", "HEAD") or request.user.is_authenticated:
        return None
    secret = secret or request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    if not secret or len(get_messages(request)):
        return None
    seen = repr((settings.RELEASE, request.path, secret, shown))
    return '"p' + hashlib.sha256(seen.encode()).hexdigest()[:24] + '"'


def private_answer(
    request, etag_of: Callable[[str | None], str | None], render: Callable[[], HttpResponse]
) -> HttpResponse:
    """304 when the browser holds the page at its ETag (``etag_of(None)``: ``private_etag`` with the browser's
    own CSRF secret); else ``render()``, marked with the ETag when it is the page itself (200). A page drawn
    gives the browser a CSRF cookie, forms or none (a signed sheet has none). A browser that had none is given
    the ETag made with the secret it now gets, when drawing the page changed nothing else the ETag counts (a
    session line shown once, say): its first reload is answered 304 too."""
    etag = etag_of(None)
    if etag is not None and etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        first = etag is None and not request.COOKIES.get(settings.CSRF_COOKIE_NAME)
        before = etag_of(SECRET_TO_COME) if first else None
        response = render()
        get_token(request)
        if response.status_code != 200:
            return response
        if before is not None and etag_of(SECRET_TO_COME) == before:
            etag = etag_of(request.META["CSRF_COOKIE"])
        if etag is None:
            return response
    response["ETag"] = etag
    response["Cache-Control"] = CACHE_CONTROL
    patch_vary_headers(response, ("Cookie",))
    return response
