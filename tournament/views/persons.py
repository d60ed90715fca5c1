"""Players across events: the director's persons, linking and series pages, and the public person, series
and statistics pages. Thin: forms check fields, services decide, selectors read."""

from functools import partial

from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from tournament import selectors
from tournament.forms.persons import (
    LinkForm,
    MergeForm,
    PersonForm,
    SeriesForm,
    SeriesTournamentForm,
    UnlinkForm,
)
from tournament.models import Person, Tournament
from tournament.pagecache.serving import public_cached, public_page, series_page_asked, series_version
from tournament.printing_series import series_standings_pdf
from tournament.selectors.persons import event_link_rows, person_log, person_page, person_public, persons_search
from tournament.selectors.series import (
    series_get,
    series_list,
    series_page,
    series_standings_of,
)
from tournament.selectors.statistics import tournament_statistics
from tournament.services import persons, ratings, series
from tournament.tables import team_pages_href
from tournament.views.common import (
    form_action,
    form_saved,
    pdf_response,
    refusal_say,
    request_actor,
)
from tournament.views.permissions import director_required, scorekeeper_required

PERSONS_PAGE_SIZE = 100
LOG_SHOWN = 30


@director_required
def event_persons(request, event_slug):
    """Every player of the event with their person, or the persons they may be."""
    event = selectors.event_get(event_slug)
    rows = event_link_rows(event)
    waiting = [row for row in rows if row.player.person_id is None]
    context = {
        "event": event,
        "rows": rows,
        "waiting": len(waiting),
        "one_suggestion": sum(1 for row in waiting if len(row.suggestions) == 1),
        "unmatched": sum(1 for row in waiting if not row.suggestions),
    }
    return render(request, "director/persons_link.html", context)


BULK_LINKS = {
    "suggested": (persons.event_players_link_suggested, "to the one person suggested"),
    "new": (persons.event_players_link_new, "each to a new person"),
}


@director_required
@require_POST
def event_persons_link_all(request, event_slug):
    """Every waiting player linked in one action: to its one suggestion, or (none suggested) to a new person."""
    event = selectors.event_get(event_slug)
    back = {"to": "director:event_persons", "event_slug": event.slug}
    which = request.POST.get("which", "")
    if which not in BULK_LINKS:
        refusal_say(request, "Choose what to link: every suggestion, or every unmatched player.")
        return redirect(**back)
    service, how = BULK_LINKS[which]

    def said(done) -> str:
        left = f"; {done.left} still not linked" if done.left else ""
        return f"Linked {len(done.linked)} player(s) {how}, each in the log{left}."

    return form_action(request, None, partial(service, event=event, actor=request_actor(request)), done=said, **back)


@director_required
@require_POST
def event_person_link(request, event_slug):
    """A player of the event linked to a person (a new one when no number is given)."""
    event = selectors.event_get(event_slug)
    form = LinkForm(request.POST, players=event.players.all())
    invalid = "Choose a player, and a person number that exists (or leave it blank for a new person)."

    def linked(person) -> str:
        return f"Linked to {person} (person {person.pk})."

    link = partial(persons.player_link, actor=request_actor(request))
    return form_action(
        request, form, link, done=linked, invalid=invalid, to="director:event_persons", event_slug=event_slug
    )


@director_required
@require_POST
def event_person_unlink(request, event_slug):
    form = UnlinkForm(request.POST, players=selectors.event_get(event_slug).players.all())
    unlink = partial(persons.player_unlink, actor=request_actor(request))
    return form_action(
        request,
        form,
        unlink,
        done=lambda player: f"{player} is no longer linked to a person.",
        invalid="Choose a player of this event.",
        to="director:event_persons",
        event_slug=event_slug,
    )


@director_required
def person_list(request):
    query = request.GET.get("q", "")
    page = Paginator(persons_search(query), PERSONS_PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "page": page,
        "query": query,
        "merge_form": MergeForm(),
        "log": person_log()[:LOG_SHOWN],
    }
    return render(request, "director/persons.html", context)


@director_required
@require_POST
def person_merge(request):
    return form_action(
        request,
        MergeForm(request.POST),
        partial(persons.persons_merge, actor=request_actor(request)),
        done=lambda person: f"Merged into {person} (person {person.pk}). Recompute the ratings when you are done.",
        invalid="Give two person numbers that exist.",
        to="director:persons",
    )


@director_required
@require_POST
def ratings_recompute(request):
    recompute = partial(ratings.ratings_recompute, actor=request_actor(request))
    return form_action(request, None, recompute, done=ratings.ratings_said, to="director:persons")


@director_required
def person_edit(request, person_id):
    person = get_object_or_404(Person, pk=person_id)
    initial = {"name": person.name, "city": person.city, "hidden": person.hidden}
    form = PersonForm(request.POST or None, initial=initial)
    if form_saved(request, form, persons.person_update, "Person saved.", person=person):
        return redirect("director:persons")
    players = person.players.select_related("event").order_by("-event__starts_on", "pk")
    return render(request, "director/person_edit.html", {"person": person, "form": form, "players": players})


@director_required
def series_index(request):
    form = SeriesForm(request.POST or None)

    def create(actor, **answers):
        return series.series_create(actor=actor, **form.service_arguments())

    created = form_saved(request, form, create, lambda made: f"Series {made.name} created. Now add its tournaments.")
    if created:
        return redirect("director:series_edit", slug=created.slug)
    return render(request, "director/series_list.html", {"series_list": series_list(), "form": form})


@director_required
def series_edit(request, slug):
    found = series_get(slug)
    initial = {"name": found.name, **found.points_data}
    form = SeriesForm(request.POST or None, initial=initial)

    def update(actor, **answers):
        return series.series_update(series=found, actor=actor, **form.service_arguments())

    if form_saved(request, form, update, "Series saved."):
        return redirect("director:series_edit", slug=found.slug)
    context = {"series": found, "form": form, "add_form": SeriesTournamentForm(), "entries": found.entries.all()}
    return render(request, "director/series_edit.html", context)


@director_required
@require_POST
def series_tournament_add(request, slug):
    found = series_get(slug)
    add = partial(series.series_tournament_add, series=found, actor=request_actor(request))
    done, invalid = (lambda entry: f"{entry.tournament} added."), "Choose a tournament."
    form = SeriesTournamentForm(request.POST)
    return form_action(request, form, add, done=done, invalid=invalid, to="director:series_edit", slug=found.slug)


@director_required
@require_POST
def series_tournament_remove(request, slug, tournament_id):
    found = series_get(slug)
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    remove = partial(series.series_tournament_remove, series=found, tournament=tournament, actor=request_actor(request))
    done = f"{tournament} removed from the series."
    return form_action(request, None, remove, done=done, to="director:series_edit", slug=found.slug)


def person_public_page(request, person_id):
    """A person's tournaments, partners, placings, series points, statistics and rating (404 when hidden)."""
    return render(request, "public/person.html", {"page": person_page(person_public(person_id))})


def series_public(request, slug):
    """A series' standings, a page of rows at a time, kept in the cache for everyone until one of its
    tournaments' results (or the series itself) changes."""
    found = series_get(slug)
    version = series_version(found)
    number, pages = series_page_asked(found, request.GET.get("page"), version)
    return public_cached(
        request,
        slot=f"{request.path}?page={number}",
        version=version,
        render=lambda: render(request, "public/series.html", {"page": series_page(found, number, pages)}),
    )


@scorekeeper_required
def series_pdf(request, slug):
    standings = series_standings_of(series_get(slug))
    return pdf_response(series_standings_pdf(standings), f"{standings.series.slug}-standings.pdf")


@public_page()
def statistics(request, tournament):
    """Every team's bids, Bostons, points per hand and reneges over signed tables, and the event's awards."""
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "result": tournament_statistics(tournament),
        "team_href": team_pages_href(tournament),
    }
    return render(request, "public/statistics.html", context)


@director_required
def tournament_ratings(request, slug):
    """Whether the players' ratings break ties in this tournament's standings (seeding round 1 is a choice
    of the draw)."""
    tournament = selectors.tournament_get(slug)
    if request.method == "POST":
        on = request.POST.get("on") == "1"
        tie_break = partial(
            ratings.tournament_rating_tie_break, tournament=tournament, on=on, actor=request_actor(request)
        )
        return form_action(
            request,
            None,
            tie_break,
            done=lambda t: "Ratings now break ties." if t.rating_breaks_ties else "Ratings no longer break ties.",
            to="director:tournament_ratings",
            slug=tournament.slug,
        )
    context = {"tournament": tournament, "event": tournament.event}
    return render(request, "director/tournament_ratings.html", context)
