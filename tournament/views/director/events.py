"""Events and tournaments: creating them, their settings and rules, announcements, and the action log."""

from functools import partial

from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from scoring import PRESETS, RuleSet, ScoringError
from tournament import forms, selectors
from tournament.models import Announcement
from tournament.roles import is_director
from tournament.selectors.next_step import round_can_be_drawn, tournament_next_step
from tournament.services import events
from tournament.views.common import (
    form_action,
    form_page,
    form_saved,
    refusal_say,
    request_actor,
    tournament_context,
)
from tournament.views.permissions import director_required, scorekeeper_required

LOG_PAGE_SIZE = 100


@scorekeeper_required
def dashboard(request):
    context = {
        "events": selectors.events_list(),
        "live_rounds": selectors.rounds_in_play(),
        "is_director": is_director(request.user),
    }
    return render(request, "director/dashboard.html", context)


@director_required
def event_create(request):
    form = forms.EventForm(request.POST or None)
    created = "{0.name} created. Now add its tournaments.".format
    event = form_saved(request, form, events.event_create, created)
    if event is not None:
        return redirect("director:event", event_slug=event.slug)
    return form_page(request, form, "New event", "Create event")


@director_required
def event_edit(request, event_slug):
    event = selectors.event_get(event_slug)
    initial = {"name": event.name, "venue": event.venue, "starts_on": event.starts_on, "ends_on": event.ends_on}
    form = forms.EventForm(request.POST or None, initial=initial)
    if form_saved(request, form, events.event_update, "Event saved.", event=event):
        return redirect("director:event", event_slug=event.slug)
    return form_page(request, form, f"Edit {event.name}", "Save", event=event)


@director_required
def event_detail(request, event_slug):
    event = selectors.event_get(event_slug)
    context = {"event": event, "tournaments": selectors.event_tournaments(event)}
    return render(request, "director/event.html", context)


@director_required
def tournament_create(request, event_slug):
    event = selectors.event_get(event_slug)
    form = forms.TournamentCreateForm(request.POST or None)
    created = "{0.name} created. Check its rules below.".format
    tournament = form_saved(request, form, events.tournament_create, created, event=event)
    if tournament is not None:
        return redirect("director:tournament_rules", slug=tournament.slug)
    return form_page(request, form, f"New tournament at {event.name}", "Create tournament", event=event)


@director_required
def tournament_detail(request, slug):
    tournament = selectors.tournament_get(slug)
    counts = selectors.desk_counts(tournament)
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "counts": counts,
        "rounds": selectors.rounds_of(tournament),
        "rules": tournament.rules.describe(),
        "recent": selectors.log_entries(tournament)[:8],
        "is_director": is_director(request.user),
        "next_step": tournament_next_step(tournament, checked_in=counts.checked_in),
        "can_draw": round_can_be_drawn(tournament),
    }
    return render(request, "director/tournament.html", context)


@director_required
def tournament_edit(request, slug):
    tournament = selectors.tournament_get(slug)
    initial = {name: getattr(tournament, name) for name in events.TOURNAMENT_FIELDS}
    form = forms.TournamentForm(request.POST or None, initial=initial)
    if form_saved(request, form, events.tournament_update, "Tournament saved.", tournament=tournament):
        return redirect("director:tournament", slug=tournament.slug)
    return form_page(request, form, f"Edit {tournament.name}", "Save", **tournament_context(tournament))


@director_required
def tournament_rules(request, slug):
    tournament = selectors.tournament_get(slug)
    rules = tournament.rules
    published = tournament.rounds.exclude(status="draft").exists()
    preset = request.POST.get("preset") if request.method == "POST" and not published else None
    if preset:
        try:
            rules = RuleSet.preset(preset)
        except ScoringError as error:
            refusal_say(request, str(error))
        else:
            messages.info(request, f"Settings filled from the {preset} preset: check them and save.")
        form = forms.RuleSetForm(rules=rules)
    else:
        form = forms.RuleSetForm(request.POST or None, rules=rules, published=published)

        def store(actor, **settings):
            return events.tournament_rules_set(tournament=tournament, rules=form.rules, actor=actor)

        if form_saved(request, form, store, "Rules saved."):
            return redirect("director:tournament", slug=tournament.slug)
    context = tournament_context(tournament, form=form, presets=[] if published else list(PRESETS), published=published)
    return render(request, "director/rules.html", context)


@director_required
def announcements(request, slug):
    tournament = selectors.tournament_get(slug)
    form = forms.AnnouncementForm(request.POST or None)
    posted = "Announcement posted on the tournament's page."
    if form_saved(request, form, events.announcement_post, posted, tournament=tournament):
        return redirect("director:announcements", slug=tournament.slug)
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "form": form,
        "announcements": tournament.announcements.all(),
        "now": timezone.now(),
    }
    return render(request, "director/announcements.html", context)


@require_POST
@director_required
def announcement_remove(request, slug, pk):
    announcement = get_object_or_404(Announcement, tournament__slug=slug, pk=pk)
    remove = partial(events.announcement_remove, announcement=announcement, actor=request_actor(request))
    return form_action(request, None, remove, done="Announcement removed.", to="director:announcements", slug=slug)


@director_required
def action_log(request, slug):
    """Everything done in the tournament, newest first, narrowed to a round or a team."""
    tournament = selectors.tournament_get(slug)
    form = forms.LogFilterForm(
        request.GET or None, rounds=selectors.rounds_of(tournament), teams=selectors.teams_with_players(tournament)
    )
    round_number = team = None
    if form.is_valid():
        round_number = form.cleaned_data["round"]
        team = form.cleaned_data["team"]
    entries = selectors.log_entries(tournament, round_number=round_number, team=team)
    page = Paginator(entries, LOG_PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "form": form,
        "page": page,
        "query": query.urlencode(),
    }
    return render(request, "director/log.html", context)
