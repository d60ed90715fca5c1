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


def _playoff_action(request, slug, service, done, *, form=None, invalid: str = ""):
    """Run a playoff service on the tournament for the director (with the posted ``form``'s answers, if it has
    one) and go back to the playoff page, where what happened is said."""
    tournament = selectors.tournament_get(slug)
    run = partial(service, tournament=tournament, actor=request_actor(request))
    to = {"to": "director:playoffs", "slug": tournament.slug}
    if form is None:
        return run_and_redirect(request, run, done, **to)
    return form_action(request, form(request.POST), run, done=done, invalid=invalid, **to)


@require_POST
@director_required
def playoffs_seed(request, slug):
    return _playoff_action(
        request,
        slug,
        playoffs_service.playoff_seed,
        lambda seeds: f"Top {len(seeds)} seeded. Check the seeds, swap any, then publish the bracket.",
        form=forms.PlayoffSeedForm,
        invalid="Give the number of teams in the playoff (2 or more).",
    )


@require_POST
@director_required
def playoffs_swap(request, slug):
    swap = playoffs_service.playoff_seeds_swap
    return _playoff_action(
        request, slug, swap, "Seeds swapped.", form=forms.SeedSwapForm, invalid="Give the two seeds to swap."
    )


@require_POST
@director_required
def playoffs_publish(request, slug):
    done = "Bracket published: the first matches' tables and links are open."
    return _playoff_action(request, slug, playoffs_service.playoff_publish, done)


@require_POST
@director_required
def playoffs_reseed(request, slug):
    """Seed again from the standings after a qualifying correction, while no playoff match has started."""
    done = lambda seeds: f"Top {len(seeds)} seeded again from the standings as they are now."  # noqa: E731
    return _playoff_action(request, slug, playoffs_service.playoff_reseed, done)
