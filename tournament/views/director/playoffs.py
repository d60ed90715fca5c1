"""Seeding the playoff from the standings, swapping seeds, and publishing the bracket."""

from functools import partial

from django.shortcuts import render
from django.views.decorators.http import require_POST

from tournament import forms, selectors
from tournament.services import playoffs as playoffs_service
from tournament.views.common import form_action, request_actor, run_and_redirect
from tournament.views.permissions import director_required


@director_required
def playoffs(request, slug):
    tournament = selectors.tournament_get(slug)
    published = tournament.playoff_published_at is not None
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "published": published,
        "seeds": list(selectors.playoff_seeds(tournament)),
        "problems": [] if published else playoffs_service.qualifying_problems(tournament),
        "seed_form": forms.PlayoffSeedForm(
            initial={"third_place": tournament.playoff_third_place, "double": tournament.playoff_double}
        ),
        "swap_form": forms.SeedSwapForm(),
        "columns": selectors.playoff_bracket(tournament) if published else [],
        "champion": selectors.tournament_champion(tournament),
        "seeding_changes": playoffs_service.seeding_changes(tournament),
        "started": playoffs_service.playoff_started(tournament) if published else False,
    }
    return render(request, "director/playoffs.html", context)


@require_POST
@director_required
def playoffs_seed(request, slug):
    tournament = selectors.tournament_get(slug)
    return form_action(
        request,
        forms.PlayoffSeedForm(request.POST),
        partial(playoffs_service.playoff_seed, tournament=tournament, actor=request_actor(request)),
        done=lambda seeds: f"Top {len(seeds)} seeded. Check the seeds, swap any, then publish the bracket.",
        invalid="Give the number of teams in the playoff (2 or more).",
        to="director:playoffs",
        slug=tournament.slug,
    )


@require_POST
@director_required
def playoffs_swap(request, slug):
    tournament = selectors.tournament_get(slug)
    return form_action(
        request,
        forms.SeedSwapForm(request.POST),
        partial(playoffs_service.playoff_seeds_swap, tournament=tournament, actor=request_actor(request)),
        done="Seeds swapped.",
        invalid="Give the two seeds to swap.",
        to="director:playoffs",
        slug=tournament.slug,
    )


@require_POST
@director_required
def playoffs_publish(request, slug):
    tournament = selectors.tournament_get(slug)
    return run_and_redirect(
        request,
        partial(playoffs_service.playoff_publish, tournament=tournament, actor=request_actor(request)),
        "Bracket published: the first matches' tables and links are open.",
        "director:playoffs",
        slug=tournament.slug,
    )


@require_POST
@director_required
def playoffs_reseed(request, slug):
    """Seed again from the standings after a qualifying correction, while no playoff match has started."""
    tournament = selectors.tournament_get(slug)
    return run_and_redirect(
        request,
        partial(playoffs_service.playoff_reseed, tournament=tournament, actor=request_actor(request)),
        lambda seeds: f"Top {len(seeds)} seeded again from the standings as they are now.",
        "director:playoffs",
        slug=tournament.slug,
    )
