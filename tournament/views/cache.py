"""Public live pages rendered once per change, and answered 304 when nothing changed.

A page's rendering is kept (gzip-compressed) in the shared cache under the tournament's results version,
which every logged change bumps (``services.log.results_bump``), so a page is never older than the last
signature or correction. Its ETag names that version: a phone refreshing a live page with If-None-Match
gets 304 without a query beyond the tournament's own. Only anonymous requests without a pending message
are served from the cache (staff pages carry a logout form and its CSRF token).
"""

import gzip
import hashlib
from functools import wraps

from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotModified

from tournament import selectors

KEEP_SECONDS = 6 * 3600


def _cacheable(request) -> bool:
    if request.method not in ("GET", "HEAD") or request.user.is_authenticated or "_export" in request.GET:
        return False
    return not len(get_messages(request))


def _accepts_gzip(request) -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "")


def public_page(view):
    """Serve ``view(request, tournament, ...)`` from the shared cache while the tournament's results stand."""

    @wraps(view)
    def cached(request, slug, *args, **kwargs):
        tournament = selectors.tournament_get(slug)
        if not _cacheable(request):
            return view(request, tournament, *args, **kwargs)
        query = request.GET.urlencode()
        version = f"{tournament.pk}.{tournament.results_version}"
        key = "page:" + hashlib.sha256(f"{request.path}?{query}|{version}".encode()).hexdigest()
        etag = f'"{key[5:25]}"'
        if etag in request.headers.get("If-None-Match", ""):
            response = HttpResponseNotModified()
            response["ETag"] = etag
            return response
        kept = cache.get(key)
        if kept is None:
            response = view(request, tournament, *args, **kwargs)
            if response.status_code != 200 or response.streaming or response.has_header("Content-Disposition"):
                return response
            kept = (gzip.compress(response.content, compresslevel=6), response["Content-Type"])
            cache.set(key, kept, KEEP_SECONDS)
        body, content_type = kept
        if _accepts_gzip(request):
            response = HttpResponse(body, content_type=content_type)
            response["Content-Encoding"] = "gzip"
        else:
            response = HttpResponse(gzip.decompress(body), content_type=content_type)
        response["ETag"] = etag
        response["Vary"] = "Accept-Encoding, Cookie"
        response["Cache-Control"] = "no-cache"
        return response

    return cached
