"""Large text and high contrast, chosen with a link in every page's header and kept on the phone in a cookie.

The pages stay the same for everyone (the public ones are rendered once for all, see ``pagecache.serving``); only
the small stylesheet every page links answers by the cookie, so the choice works without JavaScript."""

from functools import cache

from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_cookie

COOKIE = "display"
LARGE = "large"
KEPT_FOR = 2 * 365 * 24 * 60 * 60


@cache
def _large_stylesheet() -> str:
    found = finders.find("css/large.css")
    assert isinstance(found, str), "the large-text stylesheet is one of the app's static files"
    return open(found, encoding="utf-8").read()


def _back(request) -> str:
    """The page the link was followed from (the browser says it, same origin only), else the home page."""
    referer = request.headers.get("Referer", "")
    if url_has_allowed_host_and_scheme(referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return referer
    return "/"


@require_GET
def display_choose(request):
    """``?large=1`` turns large text and high contrast on for this phone, ``?large=0`` off; back to the page."""
    response = redirect(_back(request))
    if request.GET.get("large") == "1":
        response.set_cookie(COOKIE, LARGE, max_age=KEPT_FOR, samesite="Lax", httponly=True, secure=request.is_secure())
    else:
        response.delete_cookie(COOKIE, samesite="Lax")
    return response


@require_GET
@cache_control(private=True, no_cache=True)
@vary_on_cookie
def display_stylesheet(request):
    """The large text and high contrast styles when this phone chose them, else nothing."""
    chosen = request.COOKIES.get(COOKIE) == LARGE
    return HttpResponse(_large_stylesheet() if chosen else "", content_type="text/css; charset=utf-8")
