"""Drawing a round, changing the draft, publishing and closing it, and watching it live."""

import math
from functools import partial

from django.contrib import messages
from django.db.models import F
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from tournament import forms, printing, selectors
from tournament.addresses import Addresses
from tournament.models import TeamMember
from tournament.roles import is_director
from tournament.selectors.clock import round_projections
from tournament.selectors.teams import absent_twice
from tournament.services import draws
from tournament.services.absence import forfeit_opens_at
from tournament.typed import number_within
from tournament.views.common import form_action, form_saved, request_actor
from tournament.views.director.clock import clock_context
from tournament.views.permissions import director_required, scorekeeper_required
from tournament.wording import in_words, still_playing_words


@director_required
def round_new(request, slug):
    tournament = selectors.tournament_get(slug)
    form = forms.DrawForm(request.POST or None)
    round_ = form_saved(request, form, draws.round_draw, _drawn_said, tournament=tournament)
    if round_ is not None:
        return redirect("director:round", slug=tournament.slug, number=round_.number)
    next_number = draws.next_round_number(tournament)
    context = {
        "form": form,
        "tournament": tournament,
        "event": tournament.event,
        "counts": selectors.desk_counts(tournament),
        "teams": selectors.teams_with_players(tournament).filter(checked_in=True, withdrawn=False),
        "next_number": next_number,
        "sit_outs": tournament.sit_outs.filter(round_number=next_number).select_related("team"),
    }
    return render(request, "director/draw.html", context)


def _drawn_said(round_) -> str:
    return f"Round {round_.number} drawn as a draft: check it, then publish."


@director_required
def round_detail(request, slug, number):
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    tables = selectors.round_tables(round_)
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "round": round_,
        "tables": tables,
        "byes": selectors.round_byes(round_),
        "sit_outs": tournament.sit_outs.filter(round_number=round_.number).select_related("team"),
        "link_base": printing.link_base(request),
        "table_addresses": Addresses("table"),
        "played": any(table.hands_played for table in tables),
        **clock_context(round_, tables, tournament.rules),
        "substitutes": round_.substitutes.select_related("team", "replaces").order_by("team__number"),
        # The players a substitute may replace, as plain values (1,024 at 512 teams).
        "members": TeamMember.objects.filter(
            tournament=tournament,
            team__withdrawn=False,
            team__seatings__round=round_,
            team__seatings__table__isnull=False,
        )
        .order_by("team__number", "position")
        .values("player_id", team_number=F("team__number"), name=F("player__name")),
    }
    if round_.is_draft:
        in_play = tournament.teams.filter(withdrawn=False)
        still_playing = draws.tables_still_playing(tournament, round_.number)
        context.update(
            {
                "unplaced": selectors.round_unplaced_teams(round_),
                "problems": draws.draw_problems(round_),
                "warnings": draws.draw_warnings(round_),
                "still_playing": still_playing_words(still_playing) if still_playing else "",
                "swap_form": forms.SwapForm(teams=in_play),
                "move_form": forms.MoveForm(teams=in_play),
                "team_choices": selectors.teams_named(tournament, in_play),
                "draft_teams": forms.DRAFT_TEAMS,
                "sitting_addresses": Addresses("director:round_sitting", tournament.slug, round_.number),
            }
        )
    return render(request, "director/round.html", context)


def _warned(request, done: str):
    """What a change to a draft says: ``done``, and a warning for each rematch or two teams of one city it made."""

    def said(warnings: list[str]) -> str:
        for warning in warnings:
            messages.warning(request, warning)
        return done

    return said


@require_POST
@director_required
def round_swap(request, slug, number):
    round_ = selectors.round_get(selectors.tournament_get(slug), number)
    swap = partial(draws.draw_teams_swap, round=round_, actor=request_actor(request))
    form = forms.SwapForm(request.POST, teams=round_.tournament.teams.all())
    invalid = "Give the numbers of the two teams to swap."
    done = _warned(request, "Teams swapped.")
    return form_action(request, form, swap, done=done, invalid=invalid, to="director:round", slug=slug, number=number)


@require_POST
@director_required
def round_move(request, slug, number):
    round_ = selectors.round_get(selectors.tournament_get(slug), number)
    form = forms.MoveForm(request.POST, teams=round_.tournament.teams.all())
    move = partial(draws.draw_team_move, round=round_, actor=request_actor(request))
    invalid = "Give a team's number, and a table number or blank for the bye."
    done = _warned(request, "Team moved.")
    return form_action(request, form, move, done=done, invalid=invalid, to="director:round", slug=slug, number=number)


@require_POST
@director_required
def round_sitting(request, slug, number, table_number):
    tournament = selectors.tournament_get(slug)
    table = get_object_or_404(selectors.round_get(tournament, number).tables, number=table_number)
    toggle = partial(draws.draw_sitting_toggle, table=table, actor=request_actor(request))
    done = f"Table {table.number}: the other team now keeps the score sheet."
    return form_action(request, None, toggle, done=done, to="director:round", slug=slug, number=number)


ROUND_STEPS = {
    "publish": (draws.round_publish, "Round {number} published: the table links work now."),
    "unpublish": (draws.round_unpublish, "Round {number} is a draft again: its table links no longer open."),
    "close": (draws.round_close, "Round {number} closed: its sheets change only by staff correction."),
}


@require_POST
@director_required
def round_step(request, slug, number, step):
    """Publish a draft (over earlier tables still playing only with the override ticked, logged), make a
    published round a draft again, or close a round."""
    round_ = selectors.round_get(selectors.tournament_get(slug), number)
    service, done = ROUND_STEPS[step]
    options = {"override_unsigned": request.POST.get("override_unsigned") == "on"} if step == "publish" else {}
    run = partial(service, round=round_, actor=request_actor(request), **options)
    return form_action(
        request, None, run, done=done.format(number=number), to="director:round", slug=slug, number=number
    )


@require_POST
@director_required
def qualifying_close(request, slug):
    """Close every qualifying round still open in one step, from the tournament's page (its next step)."""
    tournament = selectors.tournament_get(slug)
    close = partial(draws.qualifying_rounds_close, tournament=tournament, actor=request_actor(request))

    def said(closed) -> str:
        which = f"Round {closed[0].number}" if len(closed) == 1 else f"Rounds {in_words(r.number for r in closed)}"
        return f"{which} closed: the qualifying sheets change only by staff correction."

    return form_action(request, None, close, done=said, to="director:tournament", slug=slug)


@require_POST
@director_required
def round_discard(request, slug, number):
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    discard = partial(draws.draw_discard, round=round_, actor=request_actor(request))

    def back(done: bool):
        """The tournament's page once the draft is gone; else the draft, where the refusal is said."""
        return (
            redirect("director:tournament", slug=slug) if done else redirect("director:round", slug=slug, number=number)
        )

    return form_action(request, None, discard, done=f"The draft of round {number} is discarded.", to=back)


QUIET_MINUTES = 15


def _quiet_minutes(request) -> int:
    """How long a table may go without an entry before the live view flags it (?quiet=N, 5 to 120)."""
    return number_within(request.GET.get("quiet", ""), low=5, high=120, default=QUIET_MINUTES)


def _forfeit_wait(round_) -> dict:
    """When the live view's tables not yet started may be declared absent, and the minutes still to wait."""
    opens_at = forfeit_opens_at(round_)
    if opens_at is None:
        return {"forfeit_opens_at": None, "forfeit_wait_minutes": 0}
    wait = (opens_at - timezone.now()).total_seconds()
    return {"forfeit_opens_at": opens_at, "forfeit_wait_minutes": math.ceil(wait / 60) if wait > 0 else 0}


def _live_context(request, tournament, round_):
    quiet = _quiet_minutes(request)
    tables = selectors.round_live_tables(round_, quiet_minutes=quiet)
    return {
        "tournament": tournament,
        "event": tournament.event,
        "round": round_,
        "director": is_director(request.user),
        "tables": tables,
        "table_addresses": Addresses("table"),
        "quiet_minutes": quiet,
        "quiet": [table for table in tables if table.quiet_for],
        "disputes": [table for table in tables if table.disputed_at],
        "hands_entered": sum(table.hands_played for table in tables),
        "signed": sum(1 for table in tables if table.signed),
        "complete": sum(1 for table in tables if table.complete),
        "disputed": sum(1 for table in tables if table.disputed_at),
        "hands_per_round": tournament.rules.hands_per_round,
        "sheet_mode": tournament.sheet_mode,
        "projections": round_projections(round_, tables, tournament.rules),
        "forfeits": [table for table in tables if table.forfeit],
        "forfeit_candidates": [
            table for table in tables if not table.signed and not table.hands_played and not table.submissions.all()
        ],
        "repeat_absentees": absent_twice(tournament),
        **_forfeit_wait(round_),
        **clock_context(round_, tables, tournament.rules, back="live"),
    }


@scorekeeper_required
def round_live(request, slug, number):
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    return render(request, "director/live.html", _live_context(request, tournament, round_))


@scorekeeper_required
def round_live_fragment(request, slug, number):
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    # A round just completed: the fragment also brings the clock's section, stopped, in place of the one counting.
    return render(
        request, "director/_live_tables.html", {**_live_context(request, tournament, round_), "fragment": True}
    )
