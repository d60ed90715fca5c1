"""Pages for players and spectators: no login, phone-first, nothing private."""

from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from tournament import selectors
from tournament.pagecache.serving import LIVE, public_page
from tournament.selectors.bracket_tree import bracket_tree
from tournament.selectors.clock import clock_view, server_now_ms
from tournament.selectors.standings import tournament_standings
from tournament.selectors.statistics import tournament_statistics
from tournament.tables import PlacingListing, SafeExport, StandingsListing
from tournament.typed import number_within, whole_number
from tournament.views.common import tournament_context

PLACINGS_ON_HOME = 8
PROJECTOR_SECONDS = 15
# The projector draws the last four rounds of the bracket (16 seeds) as a tree; earlier rounds are listed.
PROJECTOR_ROUNDS = 4


def home(request):
    return render(request, "home.html", {"events": selectors.events_list().prefetch_related("tournaments")})


@require_GET
def favicon(request):
    """The app's icon where browsers, bookmarks and feed readers look for one without reading a page: the collected
    file, whose name changes with its content, so the address is sent on rather than cached for good."""
    response = redirect(static("img/favicon.ico"))
    response["Cache-Control"] = f"public, max-age={60 * 60 * 24}"
    return response


@require_GET
def server_now(request):
    """The server's time, never cached: the clock script measures the phone's own clock against it, so every
    screen counts the round clock alike."""
    response = JsonResponse({"now": server_now_ms()})
    response["Cache-Control"] = "no-store"
    return response


def event_page(request, event_slug):
    event = selectors.event_get(event_slug)
    return render(request, "public/event.html", {"event": event, "tournaments": event.tournaments.all()})


def tournament_home(request, slug):
    tournament = selectors.tournament_get(slug)
    current = selectors.round_current(tournament)
    placings = selectors.tournament_placings(tournament)
    context = tournament_context(
        tournament,
        placings=placings[:PLACINGS_ON_HOME] if placings else None,
        more_placings=len(placings) > PLACINGS_ON_HOME if placings else False,
        announcements=selectors.announcements_active(tournament),
        current=current,
        live=selectors.round_is_live(current),
        champion=selectors.tournament_champion(tournament),
        has_bracket=tournament.playoff_published_at is not None,
    )
    return render(request, "public/tournament.html", context)


@public_page()
def rules(request, tournament):
    """The rules the app applies to this tournament, in words, from its settings: cached with the results, which
    move with every change of its rules or settings."""
    return render(
        request,
        "public/rules.html",
        tournament_context(tournament, sections=selectors.tournament_rules_words(tournament)),
    )


def _standings_order(request) -> str:
    """The order asked for (?sort=), if it is one the standings have; else their own order ("")."""
    order = request.GET.get("sort", "")
    return order if order in StandingsListing.orders() else ""


def _standings_listing(request, tournament, link_teams=True):
    """The standings in the order asked for; nothing else of the query string changes them (the cached page
    is keyed on that order alone)."""
    return StandingsListing(
        tournament_standings(tournament),
        tournament=tournament,
        link_teams=link_teams,
        order_by=_standings_order(request) or None,
    )


def _standings_context(request, tournament, **extra):
    """The public standings (``public/_standings.html``): the listing, and its rows linking to the teams."""
    listing = _standings_listing(request, tournament)
    return tournament_context(tournament, standings=listing, rows=listing.public_rows(), **extra)


def _placings_listing(request, tournament, placings):
    listing = PlacingListing(placings, tournament=tournament)
    RequestConfig(request, paginate=False).configure(listing)
    return listing


def _standings_parameters(request, tournament) -> str | None:
    """The standings vary by their order only; a jump to a team (a redirect) and exports bypass the cache."""
    if "team" in request.GET:
        return None
    order = _standings_order(request)
    return f"sort={order}" if order else ""


@public_page(vary=_standings_parameters)
def standings(request, tournament):
    """The standings, and the final placings once the playoff is decided; both export as CSV or XLSX
    (?_export=csv, with &listing=placings for the placings)."""
    jump = whole_number(request.GET.get("team", ""), digits=4)
    if jump is not None:
        return redirect(f"{request.path}#team-{jump}")
    placings = selectors.tournament_placings(tournament)
    export_format = request.GET.get("_export")
    if SafeExport.is_valid_format(export_format):
        if request.GET.get("listing") == "placings" and placings:
            listing = PlacingListing(placings, tournament=tournament, link_teams=False)
            exporter = SafeExport(export_format, listing, title="Final placings")
            return exporter.response(f"{tournament.slug}-final-placings.{export_format}")
        listing = _standings_listing(request, tournament, link_teams=False)
        exporter = SafeExport(export_format, listing, title="Standings")
        return exporter.response(f"{tournament.slug}-standings.{export_format}")
    current = selectors.round_current(tournament)
    context = _standings_context(
        request,
        tournament,
        placings=_placings_listing(request, tournament, placings) if placings else None,
        live=selectors.round_is_live(current),
    )
    return render(request, "public/standings.html", context)


@public_page(vary=_standings_parameters)
def standings_fragment(request, tournament):
    return render(
        request,
        "public/_standings.html",
        _standings_context(request, tournament),
    )


def _draw_context(request, tournament):
    current = selectors.round_current(tournament)
    query = request.GET.get("q", "").strip()
    tables, byes = [], []
    substitutes = selectors.round_substitutes(current.pk) if current is not None else {}
    if current is not None:
        tables, byes = selectors.draw_matches(
            selectors.round_tables(current), selectors.round_byes(current), query, substitutes
        )
    seated = [(table, selectors.table_seats(table, substitutes)) for table in tables]
    return tournament_context(
        tournament, round=current, tables=seated, byes=byes, query=query, live=selectors.round_is_live(current)
    )


def _draw_parameters(request, tournament) -> str | None:
    """The tables page as it is, or a search (rendered each time: it shows only the tables found)."""
    return None if request.GET.get("q", "").strip() else ""


@public_page(LIVE, _draw_parameters)
def draw(request, tournament):
    return render(request, "public/draw.html", _draw_context(request, tournament))


@public_page(LIVE, _draw_parameters)
def draw_fragment(request, tournament):
    return render(request, "public/_draw.html", _draw_context(request, tournament))


@public_page(team_page=True)
def team(request, tournament, number):
    team = get_object_or_404(selectors.teams_with_players(tournament), number=number)
    context = tournament_context(
        tournament, team=team, rounds=selectors.team_rounds(team), finish=selectors.team_finish(team)
    )
    return render(request, "public/team.html", context)


def _seconds_per_page(request) -> int:
    return number_within(request.GET.get("seconds", ""), low=4, high=120, default=PROJECTOR_SECONDS)


@public_page(LIVE, lambda request, tournament: f"seconds={_seconds_per_page(request)}")
def projector(request, tournament):
    """For a screen in the hall: the final placings, the standings, the round's tables, the playoff and last
    the event's awards, each as pages of large lines that turn by themselves (?seconds=N per page)."""
    current = selectors.round_current(tournament)
    tables = selectors.round_tables(current) if current else []
    context = tournament_context(
        tournament,
        round=current,
        clock=clock_view(current, tournament.rules) if current else None,
        tables=tables,
        byes=selectors.round_byes(current) if current else [],
        standings=tournament_standings(tournament),
        placings=selectors.tournament_placings(tournament),
        matches=selectors.playoff_matches(tournament) if tournament.playoff_published_at else [],
        tree=bracket_tree(tournament, last_rounds=PROJECTOR_ROUNDS) if tournament.playoff_published_at else None,
        awards=tournament_statistics(tournament).awards,
        seconds=_seconds_per_page(request),
    )
    return render(request, "public/projector.html", context)


def _followed(request) -> int | None:
    """The team number whose path through the bracket is marked (?team=N)."""
    return whole_number(request.GET.get("team", ""), digits=4)


def _bracket_context(request, tournament):
    return tournament_context(
        tournament,
        tree=bracket_tree(tournament, team=_followed(request)),
        champion=selectors.tournament_champion(tournament),
        live=tournament.status == tournament.Status.PLAYOFFS,
    )


def _bracket_parameters(request, tournament) -> str | None:
    """The bracket, or one team's path through it (a number that is no team of the tournament is not kept)."""
    followed = _followed(request)
    if followed is None:
        return ""
    return f"team={followed}" if tournament.teams.filter(number=followed).exists() else None


@public_page(vary=_bracket_parameters)
def bracket(request, tournament):
    return render(request, "public/bracket.html", _bracket_context(request, tournament))


@public_page(vary=_bracket_parameters)
def bracket_fragment(request, tournament):
    return render(request, "public/_bracket.html", _bracket_context(request, tournament))
