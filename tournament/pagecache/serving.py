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

A rendering's Last-Modified is taken when its render ends, rounded up to the whole second (HTTP's dates have no
finer grain), and kept with it: every change it shows had been committed by then, so it is never earlier than
a change it shows, whichever worker rendered it; every worker answers the kept rendering with the same date, and
If-Modified-Since at or after it with 304. Each new rendering of a page is dated later than the one before it (a
client holding the older one asks with the older date): the page's latest date is also kept on its own, without
expiry, so a rendering evicted from the cache and rendered again is never dated back. A second rendering within
one second is dated the next second; a third within it (a date no more than a second ahead is all a rendering
may take) carries the previous date, is answered in full to If-Modified-Since, and takes a date of its own at the
first request once that date has passed.
"""

import gzip
import hashlib
import math
import time
from collections.abc import Callable
from functools import wraps
from typing import NamedTuple, TypeVar

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import Sum
from django.http import HttpResponse, HttpResponseNotModified
from django.utils.http import http_date, parse_http_date_safe
from django.utils.safestring import SafeString, mark_safe

from tournament import selectors
from tournament.models import Series, Table, Tournament
from tournament.selectors.series import SERIES_PAGE_ROWS, series_rows_count

T = TypeVar("T")

KEEP_SECONDS = 6 * 3600
# A render of the biggest page takes well under a second; a worker that dies rendering frees the lock this soon.
LOCK_SECONDS = 20
# How long a request waits for another worker's first rendering of a page before rendering it itself.
WAIT_SECONDS = 5
WAIT_STEP = 0.05

RESULTS = "results"
LIVE = "live"


def page_version(tournament: Tournament, scope: str, *, team_number: int | None = None) -> str:
    """The version of what a page of ``scope`` shows; with ``team_number``, that team's page. It begins with the
    release (``settings.RELEASE``): a new release renders every page afresh and answers no old ETag with 304, the
    same release on several app servers shares the cache."""
    if scope == LIVE:
        # An entry on an unsigned sheet moves only that sheet's version (not the tournament's row, which every
        # save would queue on): their sum moves with each one.
        sheets = Table.objects.filter(round__tournament=tournament).aggregate(total=Sum("version"))["total"] or 0
        return f"{settings.RELEASE}.{tournament.pk}.l{tournament.live_version}.s{sheets}"
    version = f"{settings.RELEASE}.{tournament.pk}.r{tournament.results_version}"
    if team_number is not None:
        sheets = Table.objects.filter(seatings__team__tournament=tournament, seatings__team__number=team_number)
        version += f".t{sheets.aggregate(total=Sum('version'))['total'] or 0}"
    return version


def series_version(series: Series) -> str:
    """The version of what a series' pages show: its name, its points table and its tournaments in order, each
    at its results version (a person linked, renamed or hidden moves the results of the tournaments they played;
    a tournament or its event renamed moves its own)."""
    shown = (
        series.name,
        series.points_data,
        [(e.tournament_id, e.tournament.results_version) for e in series.entries.all()],
    )
    return f"{settings.RELEASE}.series{series.pk}." + hashlib.sha256(repr(shown).encode()).hexdigest()[:20]


def _cacheable(request) -> bool:
    if request.method not in ("GET", "HEAD") or request.user.is_authenticated or "_export" in request.GET:
        return False
    return not len(get_messages(request))


def _accepts_gzip(request) -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "")


def _etag(slot: str, version: str) -> str:
    return '"' + hashlib.sha256(f"{slot}|{version}".encode()).hexdigest()[:20] + '"'


def _clock() -> float:
    return time.time()


class Kept(NamedTuple):
    """A page's rendering as the cache keeps it. ``modified``: its Last-Modified, in whole seconds since the epoch;
    ``settled``: that date is later than the slot's previous rendering's, so If-Modified-Since may be answered
    304 by it."""

    version: str
    etag: str
    body: bytes
    content_type: str
    modified: int
    settled: bool


def _kept(value) -> Kept | None:
    """What the cache holds for a page, or None (nothing, or a rendering kept in another shape by an earlier
    release)."""
    return Kept(*value) if isinstance(value, tuple) and len(value) == len(Kept._fields) else None


def _unmodified_since(request, modified: int) -> bool:
    """If-Modified-Since at or after ``modified``; ignored beside If-None-Match, which decides (RFC 9110, 13.1.3)."""
    if "If-None-Match" in request.headers:
        return False
    since = parse_http_date_safe(request.headers.get("If-Modified-Since", ""))
    return since is not None and modified <= since


def _not_modified(etag: str, modified: int | None = None) -> HttpResponseNotModified:
    response = HttpResponseNotModified()
    response["ETag"] = etag
    if modified is not None:
        response["Last-Modified"] = http_date(modified)
    response["Cache-Status"] = "whist; hit; detail=not-modified"
    return response


def _answer(request, kept: Kept, status: str) -> HttpResponse:
    if kept.settled and _unmodified_since(request, kept.modified):
        return _not_modified(kept.etag, kept.modified)
    if _accepts_gzip(request):
        response = HttpResponse(kept.body, content_type=kept.content_type)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(gzip.decompress(kept.body), content_type=kept.content_type)
    response["ETag"] = kept.etag
    response["Last-Modified"] = http_date(kept.modified)
    response["Vary"] = "Accept-Encoding, Cookie"
    response["Cache-Control"] = "no-cache"
    response["Cache-Status"] = status
    return response


def _latest(slot: str) -> tuple[Kept | None, int]:
    """The slot's kept rendering and the latest Last-Modified the slot has given (0 for none), read afresh."""
    key, _, dated = cache_keys(slot)
    found = cache.get_many([key, dated])
    kept = _kept(found.get(key))
    return kept, max(found.get(dated) or 0, kept.modified if kept else 0)


def _keep(slot: str, kept: Kept) -> None:
    key, _, dated = cache_keys(slot)
    cache.set(key, tuple(kept), KEEP_SECONDS)
    if kept.settled:
        cache.set(dated, kept.modified, None)


def _render(slot: str, version: str, render: Callable[[], HttpResponse], latest: int):
    """Render the page and keep it, dated after ``latest``; returns what was kept, or the response itself when it
    is not kept."""
    response = render()
    if response.status_code != 200 or response.streaming or response.has_header("Content-Disposition"):
        return response
    now = math.ceil(_clock())
    modified = max(now, latest + 1)
    settled = modified <= now + 1
    kept = Kept(
        version,
        _etag(slot, version),
        gzip.compress(response.content, compresslevel=6),
        response["Content-Type"],
        modified if settled else latest,
        settled,
    )
    _keep(slot, kept)
    return kept


def _settle(slot: str, kept: Kept) -> Kept:
    """A rendering dated as the one before it takes a date of its own, once that date's second has passed."""
    if _clock() <= kept.modified:
        return kept
    _, lock, _ = cache_keys(slot)
    if not cache.add(lock, kept.version, LOCK_SECONDS):
        return kept
    try:
        current, latest = _latest(slot)
        if current is None or current.version != kept.version or current.settled:
            return current if current is not None and current.version == kept.version else kept
        settled = current._replace(modified=max(math.ceil(_clock()), latest + 1), settled=True)
        _keep(slot, settled)
        return settled
    finally:
        cache.delete(lock)


def cache_keys(slot: str) -> tuple[str, str, str]:
    """The cache's keys for the page named ``slot``: its rendering, the lock its renderer holds, and the latest
    Last-Modified it has given (kept without expiry, so an evicted rendering is never dated back)."""
    digest = hashlib.sha256(slot.encode()).hexdigest()
    return f"page:{digest}", f"render:{digest}", f"dated:{digest}"


def serve_cached(request, *, slot: str, version: str, render: Callable[[], HttpResponse]) -> HttpResponse:
    """The page named ``slot`` at ``version``: 304, the kept rendering, or one render for all workers."""
    etag = _etag(slot, version)
    if etag in request.headers.get("If-None-Match", ""):
        return _not_modified(etag)
    key, lock, _ = cache_keys(slot)
    kept = _kept(cache.get(key))
    if kept is not None and kept.version == version:
        return _answer(request, kept if kept.settled else _settle(slot, kept), "whist; hit")
    if not cache.add(lock, version, LOCK_SECONDS):
        if kept is not None:
            return _answer(request, kept, "whist; hit; detail=updating")
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(WAIT_STEP)
            kept = _kept(cache.get(key))
            if kept is not None and kept.version == version:
                return _answer(request, kept, "whist; hit; detail=waited")
    try:
        kept, latest = _latest(slot)
        if kept is not None and kept.version == version:
            return _answer(request, kept, "whist; hit; detail=waited")  # another worker rendered it meanwhile
        kept = _render(slot, version, render, latest)
    finally:
        cache.delete(lock)
    if isinstance(kept, HttpResponse):
        return kept
    return _answer(request, kept, "whist; fwd=miss; stored")


def public_cached(request, *, slot: str, version: str, render: Callable[[], HttpResponse]) -> HttpResponse:
    """A public page or answer that is no one tournament's (a series'), served as ``public_page`` serves a
    tournament's: from the shared cache for an anonymous reader, rendered for staff."""
    if not _cacheable(request):
        return render()
    return serve_cached(request, slot=slot, version=version, render=render)


def kept(slot: str, version: str, compute: Callable[[], T]) -> T:
    """A value worked out once per ``version`` of what it depends on and kept in the shared cache under ``slot``,
    one entry a slot."""
    key = "piece:" + hashlib.sha256(slot.encode()).hexdigest()
    found = cache.get(key)
    if isinstance(found, tuple) and len(found) == 2 and found[0] == version:
        return found[1]
    value = compute()
    cache.set(key, (version, value), KEEP_SECONDS)
    return value


def piece(slot: str, version: str, render: Callable[[], str]) -> SafeString:
    """A part of a page drawn alike for everyone who sees it (a team's rounds on its own page, whose forms and
    session lines are drawn for each phone): rendered once per ``version`` of what it shows (``kept``).
    ``render`` is a template's output (escaped there)."""
    return mark_safe(kept(slot, version, render))


def series_page_asked(series: Series, asked: int | str | None, version: str) -> tuple[int, int]:
    """The page of the series' standings ``asked`` for (junk: the first; past the last: the last) and how many
    pages there are, its rows counted once per ``version`` (``series_version``), not at every request."""
    rows = kept(f"series-rows:{series.pk}", version, lambda: series_rows_count(series))
    page = Paginator(range(rows), SERIES_PAGE_ROWS).get_page(asked)
    return page.number, page.paginator.num_pages


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
