"""Seeding the playoff from the standings, swapping seeds, and publishing the bracket."""

from functools import partial

from django.shortcuts import render
from django.views.decorators.http import require_POST

from tournament import forms, selectors
from tournament.services import playoffs as playoffs_service
from tournament.views.common import form_action, request_actor
from tournament.views.permissions import director_required


@director_required
def playoffs(request, slug):
    tournament = selectors.tournament_get(slug)
    published = tournament.playoff_published_at is not None
    seeds = list(selectors.playoff_seeds(tournament))
    seeded = {"teams": len(seeds)} if seeds else {}  # the box shows what was seeded, not the form's default
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "published": published,
        "seeds": seeds,
        "problems": [] if published else playoffs_service.qualifying_problems(tournament),
        "seed_form": forms.PlayoffSeedForm(
            initial={"third_place": tournament.playoff_third_place, "double": tournament.playoff_double, **seeded}
        ),
        "swap_form": forms.SeedSwapForm(),
        "columns": selectors.playoff_bracket(tournament) if published else [],
        "champion": selectors.tournament_champion(tournament),
        "seeding_changes": playoffs_service.seeding_changes(tournament),
        "started": playoffs_service.playoff_started(tournament) if published else False,
    }
    return render(request, "director/playoffs.html", context)


def _seeded_said(seeds) -> str:
    return f"Top {len(seeds)} seeded. Check the seeds, swap any, then publish the bracket."


def _seeded_again_said(seeds) -> str:
    return f"Top {len(seeds)} seeded again from the standings as they are now."


@require_POST
@director_required
def playoffs_seed(request, slug):
    seed = partial(
        playoffs_service.playoff_seed, tournament=selectors.tournament_get(slug), actor=request_actor(request)
    )
    invalid = "Give the number of teams in the playoff (2 or more)."
    form = forms.PlayoffSeedForm(request.POST)
    return form_action(request, form, seed, done=_seeded_said, invalid=invalid, to="director:playoffs", slug=slug)


@require_POST
@director_required
def playoffs_swap(request, slug):
    tournament = selectors.tournament_get(slug)
    swap = partial(playoffs_service.playoff_seeds_swap, tournament=tournament, actor=request_actor(request))
    form, invalid = forms.SeedSwapForm(request.POST), "Give the two seeds to swap."
    return form_action(request, form, swap, done="Seeds swapped.", invalid=invalid, to="director:playoffs", slug=slug)


@require_POST
@director_required
def playoffs_publish(request, slug):
    tournament = selectors.tournament_get(slug)
    publish = partial(playoffs_service.playoff_publish, tournament=tournament, actor=request_actor(request))
    done = "Bracket published: the first matches' tables and links are open."
    return form_action(request, None, publish, done=done, to="director:playoffs", slug=slug)


@require_POST
@director_required
def playoffs_reseed(request, slug):
    """Seed again from the standings after a qualifying correction, while no playoff match has started."""
    tournament = selectors.tournament_get(slug)
    reseed = partial(playoffs_service.playoff_reseed, tournament=tournament, actor=request_actor(request))
    return form_action(request, None, reseed, done=_seeded_again_said, to="director:playoffs", slug=slug)
