"""Public live pages and API answers rendered once per change, and answered 304 when nothing changed.

Each page depends on a version of exactly what it shows (``page_version``): the standings, placings and bracket
on the tournament's results version (signed sheets, teams, rules, draws), the tables page and the projector on
its live version and its sheets' versions (every logged change, a hand on an unsigned sheet included), a team's
page on the results version and the versions of that team's sheets. ``services.log.results_bump`` moves the
tournament's versions, ``sheet_write`` a sheet's.

A page's rendering is kept gzip-compressed in the shared cache in one slot per page: its path and the few
parameters that change it (others are ignored, so junk URLs neither force a render nor add an entry; the cache
holds at most a slot per page and parameter value, whatever the number of changes). Its ETag names the version:
a phone polling with If-None-Match gets 304 without rendering. When the version moves, one worker renders (a
short lock in the cache, which works alike in the database cache and in Redis) while the others serve the
previous rendering marked as updating, or wait briefly when there is none. Only anonymous requests without a
pending message are served from the cache (staff pages carry a logout form and its CSRF token).
"""

import gzip
import hashlib
import time
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db.models import Sum
from django.http import HttpResponse, HttpResponseNotModified

from tournament import selectors
from tournament.models import Table, Tournament

KEEP_SECONDS = 6 * 3600
# A render of the biggest page takes well under a second; a worker that dies rendering frees the lock this soon.
LOCK_SECONDS = 20
# How long a request waits for another worker's first rendering of a page before rendering it itself.
WAIT_SECONDS = 5
WAIT_STEP = 0.05

RESULTS = "results"
LIVE = "live"


def _release() -> str:
    """A digest of the code and templates that render the pages: a new release renders every page afresh (and
    answers no old ETag with 304), the same release on several app servers shares the cache."""
    digest = hashlib.sha256()
    for folder, pattern in ((settings.BASE_DIR / "templates", "*.html"), (settings.BASE_DIR / "tournament", "*.py")):
        for path in sorted(folder.rglob(pattern)):
            digest.update(path.relative_to(settings.BASE_DIR).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


RELEASE = _release()


def page_version(tournament: Tournament, scope: str, *, team_number: int | None = None) -> str:
    """The version of what a page of ``scope`` shows; with ``team_number``, that team's page."""
    if scope == LIVE:
        # An entry on an unsigned sheet moves only that sheet's version (not the tournament's row, which every
        # save would queue on): their sum moves with each one.
        sheets = Table.objects.filter(round__tournament=tournament).aggregate(total=Sum("version"))["total"] or 0
        return f"{RELEASE}.{tournament.pk}.l{tournament.live_version}.s{sheets}"
    version = f"{RELEASE}.{tournament.pk}.r{tournament.results_version}"
    if team_number is not None:
        sheets = Table.objects.filter(seatings__team__tournament=tournament, seatings__team__number=team_number)
        version += f".t{sheets.aggregate(total=Sum('version'))['total'] or 0}"
    return version


def _cacheable(request) -> bool:
    if request.method not in ("GET", "HEAD") or request.user.is_authenticated or "_export" in request.GET:
        return False
    return not len(get_messages(request))


def _accepts_gzip(request) -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "")


def _etag(slot: str, version: str) -> str:
    return '"' + hashlib.sha256(f"{slot}|{version}".encode()).hexdigest()[:20] + '"'


def _answer(request, kept, status: str) -> HttpResponse:
    _, etag, body, content_type = kept
    if _accepts_gzip(request):
        response = HttpResponse(body, content_type=content_type)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(gzip.decompress(body), content_type=content_type)
    response["ETag"] = etag
    response["Vary"] = "Accept-Encoding, Cookie"
    response["Cache-Control"] = "no-cache"
    response["Cache-Status"] = status
    return response


def _render(key: str, slot: str, version: str, render: Callable[[], HttpResponse]):
    """Render the page and keep it; returns what was kept, or the response itself when it is not kept."""
    response = render()
    if response.status_code != 200 or response.streaming or response.has_header("Content-Disposition"):
        return response
    kept = (version, _etag(slot, version), gzip.compress(response.content, compresslevel=6), response["Content-Type"])
    cache.set(key, kept, KEEP_SECONDS)
    return kept


def cache_keys(slot: str) -> tuple[str, str]:
    """The cache's key for the page named ``slot``, and for the lock its renderer holds."""
    digest = hashlib.sha256(slot.encode()).hexdigest()
    return f"page:{digest}", f"render:{digest}"


def serve_cached(request, *, slot: str, version: str, render: Callable[[], HttpResponse]) -> HttpResponse:
    """The page named ``slot`` at ``version``: 304, the kept rendering, or one render for all workers."""
    etag = _etag(slot, version)
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
        response["ETag"] = etag
        response["Cache-Status"] = "whist; hit; detail=not-modified"
        return response
    key, lock = cache_keys(slot)
    kept = cache.get(key)
    if kept is not None and kept[0] == version:
        return _answer(request, kept, "whist; hit")
    if not cache.add(lock, version, LOCK_SECONDS):
        if kept is not None:
            return _answer(request, kept, "whist; hit; detail=updating")
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(WAIT_STEP)
            kept = cache.get(key)
            if kept is not None and kept[0] == version:
                return _answer(request, kept, "whist; hit; detail=waited")
    try:
        kept = _render(key, slot, version, render)
    finally:
        cache.delete(lock)
    if isinstance(kept, HttpResponse):
        return kept
    return _answer(request, kept, "whist; fwd=miss; stored")


def _no_parameters(request, tournament) -> str:
    return ""


def public_page(scope: str = RESULTS, vary: Callable = _no_parameters, *, team_page: bool = False):
    """Serve ``view(request, tournament, ...)`` from the shared cache while what it shows stands.

    ``vary(request, tournament)`` gives the parameters that change the page, normalised ("" for none), or
    None to render this request without the cache (a search, a redirect). ``team_page``: the view's
    ``number`` is a team whose sheets the page shows.
    """

    def decorate(view):
        @wraps(view)
        def cached(request, slug, *args, **kwargs):
            tournament = selectors.tournament_get(slug)
            parameters = vary(request, tournament) if _cacheable(request) else None
            if parameters is None:
                return view(request, tournament, *args, **kwargs)
            number = kwargs.get("number") if team_page else None
            return serve_cached(
                request,
                slot=f"{request.path}?{parameters}",
                version=page_version(tournament, scope, team_number=number),
                render=lambda: view(request, tournament, *args, **kwargs),
            )

        return cached

    return decorate
