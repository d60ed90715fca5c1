"""Absent teams and substitutes from the director's pages: a forfeit declared (or undone) at a table from the
live view, a team marked sitting out the next round from the draw page, a substitute approved on the round's
page."""

from functools import partial

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournament import selectors
from tournament.models import TeamMember
from tournament.services.absence import (
    substitute_approve,
    substitute_remove,
    table_forfeit_declare,
    table_forfeit_undo,
    team_sit_out_set,
)
from tournament.services.draws import next_round_number
from tournament.typed import whole_number
from tournament.views.common import form_action, refusal_say, request_actor
from tournament.views.permissions import director_required


@require_POST
@director_required
def table_forfeit(request, slug, number, table_number):
    """Declare who is absent at a table (``absent``; before the forfeit minutes only ``early``, with a ``reason``),
    or undo the table's forfeit (``undo``); back to the live view, where a team that has forfeited twice is
    offered for withdrawal."""
    tournament = selectors.tournament_get(slug)
    table = get_object_or_404(selectors.round_get(tournament, number).tables, number=table_number)
    actor = request_actor(request)
    back = {"to": "director:round_live", "slug": slug, "number": number}
    if request.POST.get("undo"):
        undo = partial(table_forfeit_undo, table=table, actor=actor, reason=request.POST.get("reason", ""))
        return form_action(
            request, None, undo, done=f"Table {table.number}: forfeit undone, the sheet is open again.", **back
        )
    declare = partial(
        table_forfeit_declare,
        table=table,
        absent=request.POST.get("absent", ""),
        early=request.POST.get("early") == "on",
        reason=request.POST.get("reason", ""),
        actor=actor,
    )

    def declared(forfeit) -> str:
        for team in forfeit.repeat_absentees:
            messages.warning(request, f"{team} has forfeited twice: withdraw it at the desk if it is not coming back.")
        return f"Table {table.number}: forfeit declared."

    return form_action(request, None, declare, done=declared, **back)


@require_POST
@director_required
def sit_out(request, slug):
    """Mark a team as sitting out the next round before it is drawn (``plays`` takes the mark back)."""
    tournament = selectors.tournament_get(slug)
    number = whole_number(request.POST.get("team", ""), digits=5)
    team = tournament.teams.filter(number=number).first() if number is not None else None
    if team is None:
        refusal_say(request, "Choose the team that sits out.")
        return redirect("director:round_new", slug=slug)
    round_number = next_round_number(tournament)
    sits_out = not request.POST.get("plays")
    mark = partial(
        team_sit_out_set,
        team=team,
        round_number=round_number,
        sits_out=sits_out,
        reason=request.POST.get("reason", ""),
        actor=request_actor(request),
    )
    done = f"{team} {'sits out' if sits_out else 'plays again in'} round {round_number}."
    return form_action(request, None, mark, done=done, to="director:round_new", slug=slug)


def _to_round(slug, number, done: bool = False):
    """The round's page: at its substitutes when done, else at the top where the refusal is said."""
    page = reverse("director:round", args=[slug, number])
    return redirect(f"{page}#substitutes" if done else page)


@require_POST
@director_required
def substitute_add(request, slug, number):
    """Approve a substitute for one player of a team, for this round (the player's team is the player's own)."""
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    player_id = whole_number(request.POST.get("replaces", ""), digits=9)
    member = (
        TeamMember.objects.filter(tournament=tournament, player_id=player_id).select_related("team", "player").first()
        if player_id is not None
        else None
    )
    if member is None:
        refusal_say(request, "Choose the player the substitute replaces.")
        return _to_round(slug, number)
    approve = partial(
        substitute_approve,
        team=member.team,
        round=round_,
        replaces=member.player,
        name=request.POST.get("name", ""),
        reason=request.POST.get("reason", ""),
        actor=request_actor(request),
    )
    done = "{0.name} plays {0.round.title} for {0.replaces.name}.".format
    return form_action(request, None, approve, done=done, to=partial(_to_round, slug, number))


@require_POST
@director_required
def substitute_remove_view(request, slug, number, substitute_id):
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    substitute = get_object_or_404(round_.substitutes.select_related("team", "replaces", "round"), pk=substitute_id)
    remove = partial(substitute_remove, substitute=substitute, actor=request_actor(request))
    done = f"{substitute.replaces.name} plays for {substitute.team} after all."
    return form_action(request, None, remove, done=done, to=partial(_to_round, slug, number))
