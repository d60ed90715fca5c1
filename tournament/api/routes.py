"""The read-only JSON API at /api/v1/ (django-ninja): what the public pages show, as data.

Every answer carries an ETag and a Last-Modified taken from the event's action log (every change to an
event is logged), so a client asking again with If-None-Match or If-Modified-Since gets 304 while nothing
changed. Interactive docs at /api/v1/docs, served from the app's own static files.
"""

from django.db.models import Max
from django.shortcuts import get_object_or_404
from django.views.decorators.http import condition
from ninja import NinjaAPI
from ninja.decorators import decorate_view

from tournament import selectors
from tournament.api import data, schemas
from tournament.models import Event, LogEntry, Tournament

api = NinjaAPI(
    title="Bid Whist tournaments",
    version="1",
    description="Public results, read-only: events, tournaments, teams, rounds with every hand, standings, "
    "the playoff bracket, final placings and announcements. Only published rounds; standings over signed "
    "rounds, as on the pages.",
    urls_namespace="api",
)


def _log_mark(**where) -> dict:
    return LogEntry.objects.filter(**where).aggregate(last=Max("pk"), at=Max("created_at"))


def _tournament_mark(request, slug, **kwargs) -> dict:
    """The tournament's event's latest logged change (and, for announcements, which are showing now)."""
    if not hasattr(request, "_api_mark"):
        tournament = Tournament.objects.filter(slug=slug).values("pk", "event_id").first()
        mark = _log_mark(event_id=tournament["event_id"]) if tournament else {"last": None, "at": None}
        if tournament and request.path.endswith("/announcements"):
            showing = [a.pk for a in selectors.announcements_active(Tournament(pk=tournament["pk"]))]
            mark["last"] = f"{mark['last']}-{'.'.join(map(str, showing))}"
        request._api_mark = mark
    return request._api_mark


def _site_mark(request, **kwargs) -> dict:
    if not hasattr(request, "_api_mark"):
        request._api_mark = _log_mark()
    return request._api_mark


def _event_mark(request, slug, **kwargs) -> dict:
    if not hasattr(request, "_api_mark"):
        request._api_mark = _log_mark(event__slug=slug)
    return request._api_mark


def cached(mark):
    """ETag and Last-Modified from ``mark``; a conditional request for unchanged data is answered 304."""

    def etag(request, **kwargs):
        found = mark(request, **kwargs)
        return f'"{found["last"]}"' if found["last"] is not None else None

    def last_modified(request, **kwargs):
        return mark(request, **kwargs)["at"]

    return decorate_view(condition(etag_func=etag, last_modified_func=last_modified))


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("event"), slug=slug)


@api.get("/events", response=list[schemas.EventOut], tags=["events"])
@cached(_site_mark)
def list_events(request):
    """Every event with its tournaments."""
    return data.events()


@api.get("/events/{slug}", response=schemas.EventOut, tags=["events"])
@cached(_event_mark)
def get_event(request, slug: str):
    return data.event_out(get_object_or_404(Event.objects.prefetch_related("tournaments"), slug=slug))


@api.get("/tournaments/{slug}", response=schemas.TournamentOut, tags=["tournaments"])
@cached(_tournament_mark)
def get_tournament(request, slug: str):
    """A tournament with its rule set and playoff options."""
    return data.tournament_out(_tournament(slug))


@api.get("/tournaments/{slug}/teams", response=list[schemas.TeamOut], tags=["teams"])
@cached(_tournament_mark)
def list_teams(request, slug: str):
    return data.teams(_tournament(slug))


@api.get("/tournaments/{slug}/teams/{number}", response=schemas.TeamRecordOut, tags=["teams"])
@cached(_tournament_mark)
def get_team(request, slug: str, number: int):
    """A team's record: its standing and every round it played, with the points and the result."""
    return data.team_record(_tournament(slug), number)


@api.get("/tournaments/{slug}/rounds", response=list[schemas.RoundOut], tags=["rounds"])
@cached(_tournament_mark)
def list_rounds(request, slug: str):
    """The published rounds with their tables and results so far (no hands: ask for one round)."""
    return data.rounds(_tournament(slug))


@api.get("/tournaments/{slug}/rounds/{number}", response=schemas.RoundOut, tags=["rounds"])
@cached(_tournament_mark)
def get_round(request, slug: str, number: int):
    """One published round: every table with every hand, its penalties, the rulings and the signatures."""
    return data.round_with_hands(_tournament(slug), number)


@api.get("/tournaments/{slug}/standings", response=list[schemas.StandingOut], tags=["results"])
@cached(_tournament_mark)
def get_standings(request, slug: str):
    """Ranked over signed qualifying rounds by the tournament's criteria, every criterion included."""
    return data.standings(_tournament(slug))


@api.get("/tournaments/{slug}/bracket", response=schemas.BracketOut, tags=["results"])
@cached(_tournament_mark)
def get_bracket(request, slug: str):
    return data.bracket(_tournament(slug))


@api.get("/tournaments/{slug}/placings", response=list[schemas.PlacingOut], tags=["results"])
@cached(_tournament_mark)
def get_placings(request, slug: str):
    """The final placings of the whole field, once every playoff match is decided (404 before)."""
    return data.placings(_tournament(slug))


@api.get("/tournaments/{slug}/announcements", response=list[schemas.AnnouncementOut], tags=["tournaments"])
@cached(_tournament_mark)
def list_announcements(request, slug: str):
    return data.announcements(_tournament(slug))
