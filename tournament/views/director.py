"""The tournament director's pages: thin wrappers around forms, services and selectors."""

from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from scoring import PRESETS, RuleSet, ScoringError
from tournament import forms, printing, selectors
from tournament.errors import ImportRejected, ServiceError
from tournament.roles import is_director
from tournament.services import archive, draws, events, teams
from tournament.services import playoffs as playoffs_service
from tournament.services.teams import CSV_COLUMNS, PlayerEntry
from tournament.tables import HandsTable, TeamTable
from tournament.views.permissions import director_required, scorekeeper_required


def _form_error(form, error: ServiceError) -> None:
    """Show a service's refusal beside the field it concerns, or above the form."""
    field = error.field if error.field in form.fields else None
    form.add_error(field, error.message)


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
    if request.method == "POST" and form.is_valid():
        try:
            event = events.event_create(**form.cleaned_data)
        except ServiceError as error:
            _form_error(form, error)
        else:
            messages.success(request, f"{event.name} created. Now add its tournaments.")
            return redirect("director:event", event_slug=event.slug)
    return render(request, "director/form.html", {"form": form, "title": "New event", "submit": "Create event"})


@director_required
def event_edit(request, event_slug):
    event = selectors.event_get(event_slug)
    initial = {
        "name": event.name,
        "venue": event.venue,
        "starts_on": event.starts_on,
        "ends_on": event.ends_on,
    }
    form = forms.EventForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            events.event_update(event=event, **form.cleaned_data)
        except ServiceError as error:
            _form_error(form, error)
        else:
            messages.success(request, "Event saved.")
            return redirect("director:event", event_slug=event.slug)
    context = {"form": form, "title": f"Edit {event.name}", "submit": "Save", "event": event}
    return render(request, "director/form.html", context)


@director_required
def event_archive(request, event_slug):
    """The whole event as a JSON file that import_event loads back."""
    event = selectors.event_get(event_slug)
    response = JsonResponse(archive.event_export(event), json_dumps_params={"indent": 1, "ensure_ascii": False})
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-{stamp}.json"'
    return response


@director_required
def event_detail(request, event_slug):
    event = selectors.event_get(event_slug)
    context = {"event": event, "tournaments": selectors.event_tournaments(event)}
    return render(request, "director/event.html", context)


@director_required
def tournament_create(request, event_slug):
    event = selectors.event_get(event_slug)
    form = forms.TournamentCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = events.tournament_create(event=event, **form.cleaned_data)
        except ServiceError as error:
            _form_error(form, error)
        else:
            messages.success(request, f"{tournament.name} created. Check its rules below.")
            return redirect("director:tournament_rules", slug=tournament.slug)
    context = {
        "form": form,
        "title": f"New tournament at {event.name}",
        "submit": "Create tournament",
        "event": event,
    }
    return render(request, "director/form.html", context)


@director_required
def tournament_detail(request, slug):
    tournament = selectors.tournament_get(slug)
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "counts": selectors.desk_counts(tournament),
        "rounds": selectors.rounds_of(tournament),
        "rules": tournament.rules.describe(),
    }
    return render(request, "director/tournament.html", context)


@director_required
def tournament_edit(request, slug):
    tournament = selectors.tournament_get(slug)
    initial = {
        "name": tournament.name,
        "qualifying_rounds": tournament.qualifying_rounds,
        "paper_size": tournament.paper_size,
        "standings_order": tournament.standings_order,
        "avoid_same_city_rounds": tournament.avoid_same_city_rounds,
    }
    form = forms.TournamentForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            events.tournament_update(tournament=tournament, **form.cleaned_data)
        except ServiceError as error:
            _form_error(form, error)
        else:
            messages.success(request, "Tournament saved.")
            return redirect("director:tournament", slug=tournament.slug)
    context = {
        "form": form,
        "title": f"Edit {tournament.name}",
        "submit": "Save",
        "event": tournament.event,
        "tournament": tournament,
    }
    return render(request, "director/form.html", context)


@director_required
def tournament_rules(request, slug):
    tournament = selectors.tournament_get(slug)
    rules = tournament.rules
    preset = request.POST.get("preset") if request.method == "POST" else None
    if preset:
        try:
            rules = RuleSet.preset(preset)
        except ScoringError as error:
            messages.error(request, str(error))
        else:
            messages.info(request, f"Settings filled from the {preset} preset: check them and save.")
        form = forms.RuleSetForm(rules=rules)
    else:
        form = forms.RuleSetForm(request.POST or None, rules=rules)
        if request.method == "POST" and form.is_valid():
            try:
                events.tournament_rules_set(tournament=tournament, rules=form.rules)
            except ServiceError as error:
                _form_error(form, error)
            else:
                messages.success(request, "Rules saved.")
                return redirect("director:tournament", slug=tournament.slug)
    context = {"form": form, "tournament": tournament, "event": tournament.event, "presets": list(PRESETS)}
    return render(request, "director/rules.html", context)


def _team_form_players(data) -> list[PlayerEntry]:
    return [
        PlayerEntry(data[f"player{i}_name"], data.get(f"player{i}_city", ""), data.get(f"player{i}_phone", ""))
        for i in (1, 2)
    ]


@director_required
def team_list(request, slug):
    tournament = selectors.tournament_get(slug)
    table = TeamTable(selectors.teams_with_players(tournament), tournament=tournament, order_by="number")
    RequestConfig(request, paginate=False).configure(table)
    export_format = request.GET.get("_export")
    if TableExport.is_valid_format(export_format):
        exporter = TableExport(export_format, table, exclude_columns=("actions",))
        return exporter.response(f"{tournament.slug}-teams.{export_format}")
    context = {"tournament": tournament, "event": tournament.event, "table": table}
    return render(request, "director/teams.html", context)


@director_required
def team_create(request, slug):
    tournament = selectors.tournament_get(slug)
    form = forms.TeamRegisterForm(request.POST or None, initial={"checked_in": request.GET.get("late") == "1"})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            team = teams.team_register(
                tournament=tournament,
                players=_team_form_players(data),
                name=data["name"],
                city=data["city"],
                number=data["number"],
                fee_paid=data["fee_paid"],
                side_pot=data["side_pot"],
                checked_in=data["checked_in"],
            )
        except ServiceError as error:
            _form_error(form, error)
        else:
            messages.success(request, f"Team #{team.number} {team.display_name} registered.")
            if "add_another" in request.POST:
                return redirect("director:team_create", slug=tournament.slug)
            return redirect(request.POST.get("next") or reverse("director:teams", args=[tournament.slug]))
    context = {
        "form": form,
        "title": "Register a team",
        "submit": "Register team",
        "another": True,
        "tournament": tournament,
        "event": tournament.event,
        "next": request.GET.get("next", ""),
    }
    return render(request, "director/form.html", context)


@director_required
def team_edit(request, slug, number):
    tournament = selectors.tournament_get(slug)
    team = get_object_or_404(selectors.teams_with_players(tournament), number=number)
    members = team.members
    initial = {"name": team.name, "city": team.city, "number": team.number}
    for position, member in enumerate(members, start=1):
        initial.update(
            {
                f"player{position}_name": member.player.name,
                f"player{position}_city": member.player.city,
                f"player{position}_phone": member.player.phone,
            }
        )
    form = forms.TeamForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            teams.team_update(
                team=team,
                players=_team_form_players(data),
                name=data["name"],
                city=data["city"],
                number=data["number"],
            )
        except ServiceError as error:
            _form_error(form, error)
        else:
            messages.success(request, f"Team #{team.number} saved.")
            return redirect("director:teams", slug=tournament.slug)
    context = {
        "form": form,
        "title": f"Edit team #{team.number}",
        "submit": "Save team",
        "tournament": tournament,
        "event": tournament.event,
    }
    return render(request, "director/form.html", context)


@director_required
def team_import(request, slug):
    tournament = selectors.tournament_get(slug)
    form = forms.TeamImportForm(request.POST or None, request.FILES or None)
    problems = []
    if request.method == "POST" and form.is_valid():
        try:
            imported = teams.teams_import_csv(tournament=tournament, text=form.cleaned_data["file"])
        except ImportRejected as error:
            problems = error.problems
            messages.error(request, error.message)
        else:
            messages.success(request, f"{len(imported)} teams imported.")
            return redirect("director:teams", slug=tournament.slug)
    context = {
        "form": form,
        "problems": problems,
        "columns": CSV_COLUMNS,
        "tournament": tournament,
        "event": tournament.event,
    }
    return render(request, "director/import.html", context)


@director_required
def desk(request, slug):
    tournament = selectors.tournament_get(slug)
    query = request.GET.get("q", "")
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "teams": selectors.teams_search(tournament, query),
        "query": query,
        "counts": selectors.desk_counts(tournament),
    }
    return render(request, "director/desk.html", context)


DESK_ACTIONS = {
    "check_in": {"checked_in": True},
    "check_out": {"checked_in": False},
    "fee_paid": {"fee_paid": True},
    "fee_unpaid": {"fee_paid": False},
    "side_pot": {"side_pot": True},
    "no_side_pot": {"side_pot": False},
    "withdraw": {"withdrawn": True},
    "reinstate": {"withdrawn": False},
}


@require_POST
@director_required
def desk_action(request, slug, number):
    tournament = selectors.tournament_get(slug)
    team = get_object_or_404(tournament.teams, number=number)
    action = request.POST.get("action", "")
    if action not in DESK_ACTIONS:
        messages.error(request, "Unknown desk action.")
    else:
        teams.team_desk_update(team=team, **DESK_ACTIONS[action])
        messages.success(request, f"#{team.number} {team.display_name}: {action.replace('_', ' ')}.")
    back = reverse("director:desk", args=[tournament.slug])
    query = request.POST.get("q", "")
    return HttpResponseRedirect(f"{back}?q={query}#team-{team.number}" if query else f"{back}#team-{team.number}")


@director_required
def round_new(request, slug):
    tournament = selectors.tournament_get(slug)
    form = forms.DrawForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            round_ = draws.round_draw(
                tournament=tournament, method=data["method"], seed=data["seed"], pairs=data["pairs"]
            )
        except ServiceError as error:
            _form_error(form, error)
        else:
            messages.success(request, f"Round {round_.number} drawn as a draft: check it, then publish.")
            return redirect("director:round", slug=tournament.slug, number=round_.number)
    context = {
        "form": form,
        "tournament": tournament,
        "event": tournament.event,
        "counts": selectors.desk_counts(tournament),
        "teams": selectors.teams_with_players(tournament).filter(checked_in=True, withdrawn=False),
    }
    return render(request, "director/draw.html", context)


def _pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@scorekeeper_required
def round_sheets_pdf(request, slug, number):
    """Every table's score sheet of a round, blank (?blank=1) or completed, in one PDF."""
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    blank = request.GET.get("blank") == "1"
    content = printing.round_sheets_pdf(round_, blank=blank, base_url=printing.link_base(request))
    kind = "blank" if blank else "completed"
    return _pdf_response(content, f"{tournament.slug}-round-{round_.number}-{kind}-sheets.pdf")


@scorekeeper_required
def hands_export(request, slug, export_format):
    """Every hand of the tournament as CSV or XLSX."""
    if export_format not in ("csv", "xlsx"):
        raise Http404("Hands export as CSV or XLSX.")
    tournament = selectors.tournament_get(slug)
    table = HandsTable(selectors.tournament_hands(tournament))
    return TableExport(export_format, table).response(f"{tournament.slug}-hands.{export_format}")


@scorekeeper_required
def standings_pdf(request, slug):
    tournament = selectors.tournament_get(slug)
    return _pdf_response(printing.standings_pdf(tournament), f"{tournament.slug}-standings.pdf")


@director_required
def round_detail(request, slug, number):
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    team_choices = selectors.teams_with_players(tournament).filter(withdrawn=False)
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "round": round_,
        "tables": selectors.round_tables(round_),
        "byes": selectors.round_byes(round_),
        "link_base": printing.link_base(request),
    }
    if round_.is_draft:
        context.update(
            {
                "unplaced": selectors.round_unplaced_teams(round_),
                "problems": draws.draw_problems(round_),
                "swap_form": forms.SwapForm(teams=team_choices),
                "move_form": forms.MoveForm(teams=team_choices),
            }
        )
    return render(request, "director/round.html", context)


def _round_redirect(tournament, round_):
    return redirect("director:round", slug=tournament.slug, number=round_.number)


@require_POST
@director_required
def round_swap(request, slug, number):
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    form = forms.SwapForm(request.POST, teams=tournament.teams.all())
    if form.is_valid():
        try:
            draws.draw_teams_swap(round=round_, **form.cleaned_data)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, "Teams swapped.")
    else:
        messages.error(request, "Choose the two teams to swap.")
    return _round_redirect(tournament, round_)


@require_POST
@director_required
def round_move(request, slug, number):
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    form = forms.MoveForm(request.POST, teams=tournament.teams.all())
    if form.is_valid():
        try:
            draws.draw_team_move(round=round_, **form.cleaned_data)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, "Team moved.")
    else:
        messages.error(request, "Choose a team, and a table number or blank for the bye.")
    return _round_redirect(tournament, round_)


@require_POST
@director_required
def round_sitting(request, slug, number, table_number):
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    table = get_object_or_404(round_.tables, number=table_number)
    try:
        draws.draw_sitting_toggle(table=table)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"Table {table.number}: the other team now sits and keeps the sheet.")
    return _round_redirect(tournament, round_)


@require_POST
@director_required
def round_publish(request, slug, number):
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    try:
        draws.round_publish(round=round_)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"Round {round_.number} published: the table links work now.")
    return _round_redirect(tournament, round_)


@require_POST
@director_required
def round_close(request, slug, number):
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    try:
        draws.round_close(round=round_)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"Round {round_.number} closed: its sheets change only by staff correction.")
    return _round_redirect(tournament, round_)


@require_POST
@director_required
def round_discard(request, slug, number):
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    try:
        draws.draw_discard(round=round_)
    except ServiceError as error:
        messages.error(request, error.message)
        return _round_redirect(tournament, round_)
    messages.success(request, f"The draft of round {number} is discarded.")
    return redirect("director:tournament", slug=tournament.slug)


def _live_context(tournament, round_):
    tables = selectors.round_live_tables(round_)
    return {
        "tournament": tournament,
        "event": tournament.event,
        "round": round_,
        "tables": tables,
        "signed": sum(1 for table in tables if table.signed),
        "complete": sum(1 for table in tables if table.complete),
        "disputed": sum(1 for table in tables if table.disputed_at),
        "hands_per_round": tournament.rules.hands_per_round,
    }


@scorekeeper_required
def round_live(request, slug, number):
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    return render(request, "director/live.html", _live_context(tournament, round_))


@scorekeeper_required
def round_live_fragment(request, slug, number):
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    return render(request, "director/_live_tables.html", _live_context(tournament, round_))


@director_required
def announcements(request, slug):
    tournament = selectors.tournament_get(slug)
    form = forms.AnnouncementForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            events.announcement_post(tournament=tournament, **form.cleaned_data)
        except ServiceError as error:
            _form_error(form, error)
        else:
            messages.success(request, "Announcement posted on the tournament's page.")
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
    tournament = selectors.tournament_get(slug)
    announcement = get_object_or_404(tournament.announcements, pk=pk)
    events.announcement_remove(announcement=announcement)
    messages.success(request, "Announcement removed.")
    return redirect("director:announcements", slug=tournament.slug)


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
    }
    return render(request, "director/playoffs.html", context)


@require_POST
@director_required
def playoffs_seed(request, slug):
    tournament = selectors.tournament_get(slug)
    form = forms.PlayoffSeedForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the number of teams in the playoff (2 or more).")
    else:
        try:
            seeds = playoffs_service.playoff_seed(tournament=tournament, **form.cleaned_data)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, f"Top {len(seeds)} seeded. Check the seeds, swap any, then publish the bracket.")
    return redirect("director:playoffs", slug=tournament.slug)


@require_POST
@director_required
def playoffs_swap(request, slug):
    tournament = selectors.tournament_get(slug)
    form = forms.SeedSwapForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the two seeds to swap.")
    else:
        try:
            playoffs_service.playoff_seeds_swap(tournament=tournament, **form.cleaned_data)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, "Seeds swapped.")
    return redirect("director:playoffs", slug=tournament.slug)


@require_POST
@director_required
def playoffs_publish(request, slug):
    tournament = selectors.tournament_get(slug)
    try:
        playoffs_service.playoff_publish(tournament=tournament)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "Bracket published: the first matches' tables and links are open.")
    return redirect("director:playoffs", slug=tournament.slug)


@scorekeeper_required
def bracket_pdf(request, slug):
    tournament = selectors.tournament_get(slug)
    return _pdf_response(printing.bracket_pdf(tournament), f"{tournament.slug}-bracket.pdf")
