"""The read-only JSON API at /api/v1/ (django-ninja): what the public pages show, as data.

Every answer is kept like the public pages (``pagecache.serving``): rendered once per version of what it shows, sent
gzip-compressed to a client that accepts it, with an ETag naming that version and a Last-Modified, so a client
asking again with If-None-Match, or If-Modified-Since, gets 304 while nothing it shows changed. A tournament's
answers take their version from the tournament's versions (``pagecache.serving.page_version``); the lists of events,
which a few rows make, from the answer itself. Interactive docs at /api/v1/docs, served from the app's own static
files.
"""

import hashlib
from functools import wraps

from django.db.models import Max
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import condition
from ninja import NinjaAPI, Swagger
from ninja.decorators import decorate_view
from pydantic import TypeAdapter

from tournament import selectors
from tournament.api import data, schemas
from tournament.models import Event, LogEntry, Tournament
from tournament.pagecache.serving import LIVE, RESULTS, page_version, serve_cached
from tournament.typed import address_slug, whole_number

api = NinjaAPI(
    title="Bid Whist tournaments",
    version="1",
    description="Public results, read-only: events, tournaments, teams, rounds with every hand, standings, "
    "the playoff bracket, final placings and announcements. Only published rounds; standings over signed "
    "rounds, as on the pages.",
    urls_namespace="api",
    # Without deep links an operation's summary button holds no link inside it (axe: nested-interactive).
    docs=Swagger(settings={"deepLinking": False}),
)

# The numbers an address names (a team's or a round's number, a person's id): more digits than this is no number
# the database holds.
NUMBERS = ("number", "person_id")
NUMBER_DIGITS = 9


def _read_address(run):
    """Every route's address is read before anything else: a slug that is no slug (NUL, which PostgreSQL refuses
    in a query) or a number that is no whole number ("abc", "1.5", "1e9", a negative, 10^42) is the API's 404."""

    @wraps(run)
    def read(request, **kwargs):
        if "slug" in kwargs and address_slug(kwargs["slug"]) is None:
            return api.on_exception(request, Http404("No such address."))
        for name in NUMBERS:
            if name in kwargs:
                kwargs[name] = whole_number(kwargs[name], digits=NUMBER_DIGITS)
                if kwargs[name] is None:
                    return api.on_exception(request, Http404("No such number."))
        return run(request, **kwargs)

    return read


api.add_decorator(_read_address, mode="view")


def _log_mark(request, **kwargs) -> dict:
    if not hasattr(request, "_api_mark"):
        request._api_mark = LogEntry.objects.aggregate(last=Max("pk"), at=Max("created_at"))
    return request._api_mark


def log_cached(view):
    """ETag and Last-Modified from the latest entry of the action log; a conditional request while it stands is
    answered 304 without building the answer. For the answers across events (a series, a person)."""

    def etag(request, **kwargs):
        found = _log_mark(request)
        return f'"{found["last"]}"' if found["last"] is not None else None

    def last_modified(request, **kwargs):
        return _log_mark(request)["at"]

    return decorate_view(condition(etag_func=etag, last_modified_func=last_modified))(view)


def _json(answer: TypeAdapter, built) -> HttpResponse:
    """An answer already built of the schema's rows, sent as JSON without django-ninja validating each row again
    (at 512 teams that second pass cost more than computing the standings)."""
    return HttpResponse(answer.dump_json(built), content_type="application/json; charset=utf-8")


def shown_cached(request, answer: TypeAdapter, built) -> HttpResponse:
    """An answer whose version is what it shows: the digest of its JSON. Its ETag and Last-Modified move when an
    event or a tournament as listed changes (a name, a date, a status, one added), and with nothing else: a
    payment, a team's code or any other staff action leaves them."""
    body = answer.dump_json(built)
    return serve_cached(
        request,
        slot=request.path,
        version=hashlib.sha256(body).hexdigest(),
        render=lambda: HttpResponse(body, content_type="application/json; charset=utf-8"),
    )


def tournament_cached(scope: str = RESULTS, *, team: bool = False, showing: bool = False):
    """A tournament's answer kept gzip-compressed in the shared cache like the public pages, at the version of
    what it shows (``pagecache.serving.page_version``); 304 to a client asking with the ETag it has. ``team``: the
    answer is one team's (its sheets count); ``showing``: the announcements showing now are part of it."""

    def decorate(view):
        @wraps(view)
        def answer(request, slug, **kwargs):
            tournament = Tournament.objects.filter(slug=slug).first()
            if tournament is None:
                return view(request, slug=slug, **kwargs)
            version = page_version(tournament, scope, team_number=kwargs.get("number") if team else None)
            if showing:
                version += "-" + ".".join(str(a.pk) for a in selectors.announcements_active(tournament))
            return serve_cached(
                request, slot=request.path, version=version, render=lambda: view(request, slug=slug, **kwargs)
            )

        return answer

    return decorate_view(decorate)


STANDINGS = TypeAdapter(list[schemas.StandingOut])
EVENTS = TypeAdapter(list[schemas.EventOut])
EVENT = TypeAdapter(schemas.EventOut)


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("event"), slug=slug)


@api.get("/events", response=list[schemas.EventOut], tags=["events"])
def list_events(request):
    """Every event with its tournaments."""
    return shown_cached(request, EVENTS, data.events())


@api.get("/events/{slug}", response=schemas.EventOut, tags=["events"])
def get_event(request, slug: str):
    event = get_object_or_404(Event.objects.prefetch_related("tournaments"), slug=slug)
    return shown_cached(request, EVENT, data.event_out(event))


@api.get("/tournaments/{slug}", response=schemas.TournamentOut, tags=["tournaments"])
@tournament_cached()
def get_tournament(request, slug: str):
    """A tournament with its rule set and playoff options."""
    return data.tournament_out(_tournament(slug))


@api.get("/tournaments/{slug}/teams", response=list[schemas.TeamOut], tags=["teams"])
@tournament_cached()
def list_teams(request, slug: str):
    return data.teams(_tournament(slug))


@api.get("/tournaments/{slug}/teams/{number}", response=schemas.TeamRecordOut, tags=["teams"])
@tournament_cached(team=True)
def get_team(request, slug: str, number: int):
    """A team's record: its standing and every round it played, with the points and the result."""
    return data.team_record(_tournament(slug), number)


@api.get("/tournaments/{slug}/rounds", response=list[schemas.RoundOut], tags=["rounds"])
@tournament_cached(LIVE)
def list_rounds(request, slug: str):
    """The published rounds with their tables and results so far (no hands: ask for one round)."""
    return data.rounds(_tournament(slug))


@api.get("/tournaments/{slug}/rounds/{number}", response=schemas.RoundOut, tags=["rounds"])
@tournament_cached(LIVE)
def get_round(request, slug: str, number: int):
    """One published round: every table with every hand, its penalties, the rulings and the signatures."""
    return data.round_with_hands(_tournament(slug), number)


@api.get("/tournaments/{slug}/standings", response=list[schemas.StandingOut], tags=["results"])
@tournament_cached()
def get_standings(request, slug: str):
    """Ranked over signed qualifying rounds by the tournament's criteria, every criterion included."""
    return _json(STANDINGS, data.standings(_tournament(slug)))


@api.get("/tournaments/{slug}/bracket", response=schemas.BracketOut, tags=["results"])
@tournament_cached()
def get_bracket(request, slug: str):
    return data.bracket(_tournament(slug))


@api.get("/tournaments/{slug}/placings", response=list[schemas.PlacingOut], tags=["results"])
@tournament_cached()
def get_placings(request, slug: str):
    """The final placings of the whole field, once every playoff match is decided (404 before)."""
    return data.placings(_tournament(slug))


@api.get("/tournaments/{slug}/announcements", response=list[schemas.AnnouncementOut], tags=["tournaments"])
@tournament_cached(showing=True)
def list_announcements(request, slug: str):
    return data.announcements(_tournament(slug))
